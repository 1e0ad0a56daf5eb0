"""Static typing of the generated builder API, checked with ``mypy --strict``.

* ``tests/typing/good/*.py`` are small realistic scripts: mypy must accept all of them,
  and each must also run without error.
* ``tests/typing/bad/*.py`` each contain exactly one mistake, marked on its line with
  ``# E: <substring of the expected mypy message>``: mypy must report exactly one error
  for the file, on that line, with that substring in its message.

mypy starts slowly, so it runs once for all good scripts and once for all bad ones (each
with its own cache directory under pytest's tmp dir); the per-file tests share the output.
"""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TYPING_DIR = ROOT / "tests" / "typing"
GOOD = sorted((TYPING_DIR / "good").glob("*.py"))
BAD = sorted((TYPING_DIR / "bad").glob("*.py"))

EXPECT_RE = re.compile(r"#\s*E:\s*(?P<message>.+?)\s*$")
# ``path:line: severity: message  [code]`` (no --pretty, no column numbers).
MYPY_LINE_RE = re.compile(
    r"^(?P<path>[^:\n]+\.pyi?):(?P<line>\d+): (?P<severity>error|note): "
    r"(?P<message>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)


@dataclass(frozen=True)
class MypyError:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.message}"


@dataclass(frozen=True)
class MypyRun:
    returncode: int
    output: str
    errors: tuple[MypyError, ...]

    def errors_in(self, path: Path) -> list[MypyError]:
        return [e for e in self.errors if e.path == path.resolve()]


def run_mypy(files: list[Path], cache_dir: Path) -> MypyRun:
    """Run ``python -m mypy --strict`` from the repo root on ``files``."""
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--strict",
        "--cache-dir",
        str(cache_dir),
        "--no-error-summary",
        "--no-pretty",
        "--no-color-output",
        "--show-error-codes",
        "--hide-error-context",
        *(str(f.relative_to(ROOT)) for f in files),
    ]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    if proc.returncode not in (0, 1):  # 2: mypy itself failed (bad flag, crash, no files)
        pytest.fail(f"mypy failed to run (exit {proc.returncode}):\n{output}")
    errors = []
    for raw in proc.stdout.splitlines():
        m = MYPY_LINE_RE.match(raw)
        if m and m["severity"] == "error":
            path = (ROOT / m["path"]).resolve()
            errors.append(MypyError(path, int(m["line"]), m["message"]))
    if proc.returncode == 1 and not errors:
        pytest.fail(f"mypy reported failure but no parsable error lines:\n{output}")
    return MypyRun(proc.returncode, output, tuple(errors))


def expected_error(path: Path) -> tuple[int, str]:
    """The single ``# E:`` marker of a bad file: (line number, message substring)."""
    marks = [
        (number, m["message"])
        for number, text in enumerate(path.read_text().splitlines(), start=1)
        if (m := EXPECT_RE.search(text))
    ]
    assert len(marks) == 1, f"{path.name}: expected exactly one '# E:' marker, found {marks}"
    return marks[0]


@pytest.fixture(scope="module")
def good_run(tmp_path_factory: pytest.TempPathFactory) -> MypyRun:
    return run_mypy(GOOD, tmp_path_factory.mktemp("mypy-cache-good"))


@pytest.fixture(scope="module")
def bad_run(tmp_path_factory: pytest.TempPathFactory) -> MypyRun:
    return run_mypy(BAD, tmp_path_factory.mktemp("mypy-cache-bad"))


def test_corpus_is_large_enough() -> None:
    assert len(GOOD) >= 5, [p.name for p in GOOD]
    assert len(BAD) >= 12, [p.name for p in BAD]


def test_good_scripts_type_check(good_run: MypyRun) -> None:
    report = "\n".join(map(str, good_run.errors)) or good_run.output
    assert good_run.returncode == 0 and not good_run.errors, f"mypy --strict:\n{report}"


@pytest.mark.parametrize("path", GOOD, ids=[p.stem for p in GOOD])
def test_good_script_runs(path: Path) -> None:
    runpy.run_path(str(path), run_name="__main__")


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_script_reports_expected_error(bad_run: MypyRun, path: Path) -> None:
    line, substring = expected_error(path)
    errors = bad_run.errors_in(path)
    shown = "\n".join(map(str, errors)) or "(no errors)"
    assert len(errors) == 1, f"expected exactly one mypy error, got:\n{shown}"
    (error,) = errors
    assert error.line == line, f"expected the error on line {line}, got:\n{shown}"
    assert substring in error.message, f"expected {substring!r} in the message, got:\n{shown}"


def test_bad_run_has_no_errors_outside_bad_files(bad_run: MypyRun) -> None:
    """Errors in spvbuild itself would be miscounted as (or hide) the expected ones."""
    bad = {p.resolve() for p in BAD}
    stray = [str(e) for e in bad_run.errors if e.path not in bad]
    assert not stray, "\n".join(stray)
