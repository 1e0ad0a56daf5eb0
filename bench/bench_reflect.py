"""Benchmark: ``spvbuild.reflect`` against ``spirv-cross --reflect`` on the same modules.

The modules are those of the reflection differential (``tests/reflect``): the GLSL corpus
compiled by glslangValidator, the catalogue's modules with an entry point, the gallery's;
OpenCL kernels left out (SPIRV-Cross refuses them).  spvbuild reflects each in-process
(best of 3 passes over all of them, every module read from its bytes); SPIRV-Cross runs
once per module as a process (what a Python program without spvbuild does), and its
process start is printed apart: the median of 20 runs on the smallest module, whose
reflection is next to nothing.  The target: spvbuild's time per module below one
SPIRV-Cross process per module.  Prints exactly one line and always exits 0: benchmarks
report, tests assert.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

NAME = "reflect"


def _modules(workdir: Path) -> list[tuple[str, bytes]]:
    from tests.reflect.modules import catalogue_cases, gallery_cases, glsl_cases

    cases = glsl_cases(workdir) + catalogue_cases() + gallery_cases(workdir)
    return [(c.name, c.binary) for c in cases if not c.kernel]


def main() -> None:
    cross = shutil.which("spirv-cross")
    if cross is None:
        print(f"bench {NAME}: skipped: spirv-cross not installed (target: measured)")
        return
    from spvbuild.reflection import reflect

    with tempfile.TemporaryDirectory() as scratch:
        workdir = Path(scratch)
        modules = _modules(workdir)
        paths = []
        for name, binary in modules:
            path = workdir / f"{name}.bench.spv"
            path.write_bytes(binary)
            paths.append(path)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for _name, binary in modules:
                reflect(binary)
            best = min(best, time.perf_counter() - start)
        smallest = min(paths, key=lambda p: p.stat().st_size)
        starts = []
        for _ in range(20):
            start = time.perf_counter()
            subprocess.run([cross, str(smallest), "--reflect"], capture_output=True, check=True)
            starts.append(time.perf_counter() - start)
        process_start = statistics.median(starts)
        start = time.perf_counter()
        for path in paths:
            subprocess.run([cross, str(path), "--reflect"], capture_output=True, check=True)
        cross_total = time.perf_counter() - start
    count = len(modules)
    ours = best / count * 1000
    theirs = cross_total / count * 1000
    met = "met" if ours < theirs else "NOT met"
    print(
        f"bench {NAME}: {count} modules, spvbuild.reflect {ours:.2f} ms per module in-process "
        f"({best:.2f} s in all) vs spirv-cross --reflect {theirs:.2f} ms per module, one process "
        f"each ({cross_total:.2f} s) = {theirs / ours:.1f}x spvbuild's time; spirv-cross's "
        f"process start (its smallest module) {process_start * 1000:.2f} ms "
        f"(target: below spirv-cross's per-module time: {met})"
    )


if __name__ == "__main__":
    main()
