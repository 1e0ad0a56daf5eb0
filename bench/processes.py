"""Wall time and peak memory of a command run as a child process, for the benches.

The command runs under a small Python wrapper, itself a fresh child, which times it and
reports ``getrusage(RUSAGE_CHILDREN).ru_maxrss``: the peak resident set of that one
command.  (Asking the bench's own process would not do: on Linux a child's peak starts at
the resident size of the process that forked it, and a bench holds big modules.)
``spvbuild`` runs as ``python -m spvbuild`` with this interpreter and the checkout's
``src/`` first on ``PYTHONPATH``; by default with ``.pyc`` files (of a cache of the bench's
own, written by a first run not counted), or, with ``pyc=False``, compiling every module it
imports, as under ``PYTHONDONTWRITEBYTECODE=1`` without ``__pycache__`` folders.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024


class Measured(NamedTuple):
    """One run: wall seconds, peak resident bytes, exit code, standard output."""

    seconds: float
    peak: int
    returncode: int
    stdout: bytes


def spvbuild_command(*args: str) -> list[str]:
    """The ``spvbuild`` command line (this interpreter, ``-m spvbuild``)."""
    return [sys.executable, "-m", "spvbuild", *args]


_FOLDERS: dict[bool, str] = {}


def _pycache(pyc: bool) -> str:
    """This bench's own ``PYTHONPYCACHEPREFIX``: one the children write (``pyc``), or one
    left empty, so that they compile every module they import; removed at exit."""
    if pyc not in _FOLDERS:
        _FOLDERS[pyc] = tempfile.mkdtemp(prefix="spvbuild-bench-pyc-")
        atexit.register(shutil.rmtree, _FOLDERS[pyc], True)
    return _FOLDERS[pyc]


def child_env(*, pyc: bool = True) -> dict[str, str]:
    """The environment of a child: this one, with the checkout's ``src/`` importable first
    and, for a Python child, a ``.pyc`` cache of this bench's own that it writes (``pyc``)
    or an empty one that it may not write: so the figures do not depend on the state of
    the checkout's ``__pycache__`` folders or on ``PYTHONDONTWRITEBYTECODE``."""
    env = dict(os.environ)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONPYCACHEPREFIX"] = _pycache(pyc)
    if pyc:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


# Runs the command (a timeout kills it), then reports its time, peak and exit code.
_WRAPPER = """\
import resource, subprocess, sys, time
start = time.perf_counter()
try:
    code = subprocess.run(sys.argv[3:], stdin=subprocess.DEVNULL, timeout=float(sys.argv[2])).returncode
except subprocess.TimeoutExpired:
    code = -9
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with open(sys.argv[1], "w") as report:
    report.write(f"{seconds} {peak} {code}")
"""


def measure(command: Sequence[str], *, pyc: bool = True, timeout: float = 300.0) -> Measured:
    """Run ``command`` once (standard output captured, standard error passed through); a
    run past ``timeout`` seconds is killed (exit code -9).  ``pyc``: see
    :func:`child_env`."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report"
        with open(Path(folder) / "stdout", "w+b") as out:
            subprocess.run(
                [sys.executable, "-c", _WRAPPER, str(report), str(timeout), *command],
                stdout=out,
                env=child_env(pyc=pyc),
                check=True,
            )
            out.seek(0)
            stdout = out.read()
        seconds, peak, code = report.read_text().split()
    # ru_maxrss: kilobytes on Linux, bytes on macOS
    scale = 1 if sys.platform == "darwin" else 1024
    return Measured(float(seconds), int(peak) * scale, int(code), stdout)


def best(command: Sequence[str], runs: int, *, pyc: bool = True, slow: float = 5.0) -> Measured:
    """The fastest of ``runs`` runs (only one if it takes over ``slow`` seconds), with the
    highest peak of them; raises RuntimeError if a run fails.  With ``pyc``, one more run
    comes first and is not counted: it writes the ``.pyc`` files (and reads the inputs
    into the page cache)."""
    found: Measured | None = None
    for index in range(runs + (1 if pyc else 0)):
        run = measure(command, pyc=pyc)
        if run.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} ... exited with {run.returncode}")
        if pyc and index == 0:
            continue
        if found is None:
            found = run
        else:
            found = Measured(
                min(found.seconds, run.seconds),
                max(found.peak, run.peak),
                0,
                run.stdout,
            )
        if run.seconds > slow:
            break
    assert found is not None
    return found


def megabytes(peak: int) -> str:
    """``123 MB``."""
    return f"{peak / MB:.0f} MB"


def above(peak: int, start: int) -> str:
    """How far ``peak`` is above ``start`` (``+1.2 MB``)."""
    return f"+{max(peak - start, 0) / MB:.1f} MB"
