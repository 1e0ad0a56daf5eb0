"""The documentation site, built once per test session: ``make docs``'s command (Sphinx,
warnings as errors, from scratch) into a temporary folder, its time printed."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site's html folder (``build/docs/html`` of ``make docs``)."""
    out = tmp_path_factory.mktemp("docs")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    command = [
        sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-j", "auto",
        "-b", "html", "-d", str(out / "doctrees"), "docs", str(out / "html"),
    ]  # fmt: skip
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0 or done.stderr.strip():
        pytest.fail(f"sphinx failed ({done.returncode}):\n{done.stdout[-4000:]}{done.stderr[-4000:]}")
    print(f"\ndocs: built in {seconds:.1f}s into {out / 'html'}", file=sys.stderr)
    return out / "html"
