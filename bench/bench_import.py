"""Benchmark: cost of ``import spvbuild`` plus first use of a core enum.

Each sample is a fresh interpreter (``sys.executable -c ...``) so nothing is cached in
memory; the bare interpreter start (``-c pass``) is measured in the same run, interleaved,
and the figure is the difference of the two medians. Prints exactly one line and always
exits 0: benchmarks report, tests assert.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

NAME = "import"
TARGET_MS = 50.0  # issue 13: under 50 ms over a bare interpreter
RUNS = 15
WARMUP = 2

ROOT = Path(__file__).resolve().parent.parent
BARE = "pass"
IMPORT = "import spvbuild; spvbuild.Decoration"


def _env() -> dict[str, str]:
    """Child environment: the working tree's src/ first, bytecode caching left on."""
    env = dict(os.environ)
    src = str(ROOT / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(code: str, env: dict[str, str]) -> float:
    """Seconds for one fresh interpreter running ``code``; raises if it fails."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return time.perf_counter() - start


def measure() -> float:
    """Median extra milliseconds of the import over a bare interpreter start."""
    env = _env()
    for _ in range(WARMUP):  # writes the .pyc files so that every sample sees them
        _run(IMPORT, env)
        _run(BARE, env)
    bare: list[float] = []
    imported: list[float] = []
    for _ in range(RUNS):
        bare.append(_run(BARE, env))
        imported.append(_run(IMPORT, env))
    return (statistics.median(imported) - statistics.median(bare)) * 1000.0


def main() -> int:
    target = f"(target < {TARGET_MS:.0f} ms)"
    try:
        figure = measure()
    except subprocess.CalledProcessError as exc:
        err = (exc.stderr or b"").decode(errors="replace").strip().splitlines()
        detail = err[-1] if err else f"exit {exc.returncode}"
        print(f"bench {NAME}: FAILED: {detail} {target}")
    except Exception as exc:  # a benchmark reports, it never fails the run
        print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {target}")
    else:
        print(f"bench {NAME}: {figure:.0f} ms over a bare interpreter {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
