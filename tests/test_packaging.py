"""The wheel ships the runtime, its typing marker and the generated code, and works
when installed into a clean venv (no editable install, no src/ on the path)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Every test here builds from the checkout's tree: the checkout's run covers them, and
# tools/test_wheel.sh leaves them out of the runs against an installed wheel.
pytestmark = pytest.mark.source_tree

REQUIRED = [
    "spvbuild/__init__.py",
    "spvbuild/py.typed",
    "spvbuild/generated/__init__.py",
    "spvbuild/generated/core/builder.py",
    "spvbuild/generated/core/enums.py",
    "spvbuild/generated/core/tables.py",
    "spvbuild/generated/extinst/glsl.py",
]

SMOKE = (
    "import spvbuild, spvbuild.generated.core.tables as t; "
    "b = spvbuild.Recorder(); b.type_void(); print(len(t.INSTRUCTIONS))"
)

# What a build must not pick up from the working tree (a stale build/lib would be packed
# into the wheel as is, hiding a file that the package no longer ships).
_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
)


def _run(
    cmd: list[str], cwd: Path, timeout: float, **extra: str
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONDONTWRITEBYTECODE="1")
    env.pop("SPVBUILD_PURE_BUILD", None)
    env.update(extra)
    env.pop("PYTHONPATH", None)  # the clean venv must find spvbuild in its own site-packages
    proc = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert proc.returncode == 0, (
        f"{' '.join(cmd)} exited {proc.returncode}\n"
        f"--- stdout\n{proc.stdout[-4000:]}\n--- stderr\n{proc.stderr[-4000:]}"
    )
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the pure wheel (SPVBUILD_PURE_BUILD=1) from a copy of the working tree
    (symlinks kept as symlinks, so src/spvbuild/generated -> ../../generated is exercised
    exactly as in a checkout).  `make test-wheels` builds and tests the compiled one."""
    base = tmp_path_factory.mktemp("packaging")
    tree = base / "tree"
    shutil.copytree(ROOT, tree, symlinks=True, ignore=_IGNORE)
    out = base / "wheels"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), "."]
    _run(command, tree, 240, SPVBUILD_PURE_BUILD="1")
    wheels = sorted(out.glob("spvbuild-*.whl"))
    assert len(wheels) == 1, f"expected one spvbuild wheel, found {[w.name for w in wheels]}"
    return wheels[0]


@pytest.mark.slow
def test_wheel_contains_runtime_and_generated_code(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    missing = [name for name in REQUIRED if name not in names]
    assert not missing, f"{wheel.name} lacks {missing}"


@pytest.mark.slow
def test_wheel_works_in_clean_venv(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, 120)
    python = venv / "bin" / "python"
    _run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        tmp_path,
        120,
    )
    # Run from tmp_path, not the repo root, so nothing can come from the working tree.
    proc = _run([str(python), "-c", SMOKE], tmp_path, 60)
    count = int(proc.stdout.strip().splitlines()[-1])
    assert count > 800, f"only {count} instructions in the installed tables"
    # The pure wheel: the engines run as plain Python (py3-none-any, no extension modules).
    assert wheel.name.endswith("-py3-none-any.whl")
    engine = "import spvbuild.text.assembler as a, spvbuild.binary.reader as r; "
    proc = _run([str(python), "-c", engine + "print(a.ENGINE, r.engine_kind())"], tmp_path, 60)
    assert proc.stdout.split() == ["python", "python"]
    # The console script is installed and assembles from stdin to stdout.
    script = venv / "bin" / "spvbuild"
    assert script.exists(), "the spvbuild console script is missing"
    done = subprocess.run(
        [str(script), "as", "-", "-o", "-"],
        input=b"OpCapability Shader\nOpMemoryModel Logical GLSL450\n",
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout[:4] == bytes.fromhex("03022307")


@pytest.mark.slow
def test_sdist_builds_and_installs_in_clean_venv(tmp_path: Path) -> None:
    """The sdist carries grammars-generated code and installs (building a wheel from it)."""
    import tarfile

    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, symlinks=True, ignore=_IGNORE)
    out = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), "."], tree, 300)
    (sdist,) = sorted(out.glob("spvbuild-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert any(
        n.endswith("spvbuild/generated/core/builder.py") or n.endswith("generated/core/builder.py")
        for n in names
    )
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, 120)
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--no-deps", str(sdist)], tmp_path, 300)
    proc = _run([str(python), "-c", SMOKE], tmp_path, 60)
    assert int(proc.stdout.strip().splitlines()[-1]) > 800
    # Built from the sdist with mypyc at hand (the build requirements), the engines are
    # compiled: `pip install` of the source gives the compiled package, nothing at run time.
    engine = (
        "import spvbuild.text.assembler as a, spvbuild.binary.reader as r, "
        "spvbuild.accel.records as c; "
    )
    kinds = "print(a.ENGINE, r.engine_kind(), (c.compiled() or c.PLAIN).kind)"
    proc = _run([str(python), "-c", engine + kinds], tmp_path, 60)
    assert proc.stdout.split() == ["mypyc", "mypyc", "c"]
