"""Wall time and peak memory of a command run as a child process, for the benches.

The command runs under GNU time (``/usr/bin/time``, Debian's ``time``: ``make`` installs
it), which reports the ``ru_maxrss`` of that one command: its peak resident set.  The
parent must be small: on Linux a child's peak starts at the resident size of the process
that forked it (``exec`` keeps the high-water mark of the image it replaces), so a Python
parent (about 11 MB) would hide any peak below its own; GNU time's is about 1 MB.  (The
benches measured under a Python wrapper until 2026-11-29, which put spirv-opt's 6.6 to
8 MB, spirv-link's and spirv-as's small peaks all at the wrapper's 11.5 MB.)
``spvbuild`` runs as ``python -m spvbuild`` with this interpreter and the checkout's
``src/`` first on ``PYTHONPATH``; by default with ``.pyc`` files (of a cache of the bench's
own, written by a first run not counted), or, with ``pyc=False``, compiling every module it
imports, as under ``PYTHONDONTWRITEBYTECODE=1`` without ``__pycache__`` folders.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
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


def _gnu_time() -> str:
    """The path of GNU time; RuntimeError if it is missing."""
    found = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    if found is None:
        raise RuntimeError("GNU time is missing (apt-get install time; make system-deps does)")
    return found


def measure(command: Sequence[str], *, pyc: bool = True, timeout: float = 300.0) -> Measured:
    """Run ``command`` once (standard output captured, standard error passed through); a
    run past ``timeout`` seconds is killed with its process group (exit code -9).  The
    seconds are the whole run's, GNU time's start (about 1 ms) included.  ``pyc``: see
    :func:`child_env`."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report"
        with open(Path(folder) / "stdout", "w+b") as out:
            start = time.perf_counter()
            child = subprocess.Popen(
                [_gnu_time(), "-o", str(report), "-f", "%M %x", *command],
                stdin=subprocess.DEVNULL,
                stdout=out,
                env=child_env(pyc=pyc),
                start_new_session=True,
            )
            try:
                child.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
                return Measured(time.perf_counter() - start, 0, -9, b"")
            seconds = time.perf_counter() - start
            out.seek(0)
            stdout = out.read()
        lines = report.read_text().splitlines()
    # the last line is "PEAK STATUS" (GNU time's %M: kilobytes); one before it may say
    # "Command terminated by signal N"
    peak, code = lines[-1].split()
    for line in lines[:-1]:
        if line.startswith("Command terminated by signal"):
            code = "-" + line.split()[-1]
    return Measured(seconds, int(peak) * 1024, int(code), stdout)


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
