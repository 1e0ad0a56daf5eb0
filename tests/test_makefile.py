"""The Makefile's stamps: ``make system-deps`` runs again when its package list changes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The list as the Makefile writes it, read from the file (not from the code under test).
LISTED = re.search(r"^SYSTEM_PACKAGES := (.+)$", (ROOT / "Makefile").read_text(), re.M)


def _make(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), f"VENV={venv}", *args],
        capture_output=True, text=True, timeout=60,
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_system_deps_stamp_depends_on_the_package_list(tmp_path: Path) -> None:
    assert LISTED is not None
    packages = LISTED[1].strip()
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()  # the venv exists: only the stamp is in question
    dry = _make(venv, "-n", "system-deps")
    assert dry.returncode == 0, dry.stderr
    stamps = re.findall(rf"> ({re.escape(str(venv))}/\S+)", dry.stdout)
    assert len(stamps) == 1, dry.stdout
    stamp = Path(stamps[0])
    # Stamped for this list: nothing to do.
    stamp.write_text(packages + "\n")
    assert _make(venv, "-q", "system-deps").returncode == 0
    # A package added to the list: the stamp of the old list does not do.
    added = _make(venv, "-q", "system-deps", f"SYSTEM_PACKAGES={packages} glslang-tools")
    assert added.returncode == 1, added.stdout + added.stderr
    # Nor one taken away.
    fewer = " ".join(packages.split()[:-1])
    assert _make(venv, "-q", "system-deps", f"SYSTEM_PACKAGES={fewer}").returncode == 1
