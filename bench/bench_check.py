"""Benchmark: spvbuild's type rules over a binary (``spvbuild val --native``) against
spirv-val on the same binary.

The 500,000-instruction module of ``bench_builder.py`` (an integer chain in one GLCompute
function, built once; spirv-val accepts it) is written to a file; then, in interleaved rounds, each a fresh child process with its peak memory
(``bench/processes.py``): ``spirv-val`` on it, and ``python -m spvbuild val --native`` on
it (read, every value's type, each instruction with a type rule checked).  Both must
accept it.  spirv-val checks far more than the type rules, so this is no race of equals:
the figure says what the rules cost a frontend that runs them instead of (or before)
spirv-val.  Target (issue 25): none set; the line reports the ratio.  Prints exactly one
line and always exits 0: benchmarks report, tests assert.
"""

from __future__ import annotations

import struct
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

NAME = "check"
RUNS = 3


def main() -> int:
    target = "(target: none set; spvbuild's time / spirv-val's reported)"
    try:
        from bench.bench_builder import chain_builder
        from bench.processes import best, megabytes, spvbuild_command
        from spvbuild.ir.validation import spirv_val_path

        tool = spirv_val_path()
        if tool is None:
            raise RuntimeError("spirv-val is not installed")
        words = chain_builder()().to_words()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "module.spv"
            path.write_bytes(struct.pack(f"<{len(words)}I", *words))
            theirs = best([tool, str(path)], RUNS)
            ours = best(spvbuild_command("val", "--native", str(path)), RUNS)
    except Exception as exc:  # a benchmark reports, it never fails the run
        print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {target}")
        return 0
    print(
        f"bench {NAME}: spvbuild val --native {ours.seconds:.2f} s (peak "
        f"{megabytes(ours.peak)}) vs spirv-val {theirs.seconds:.2f} s (peak "
        f"{megabytes(theirs.peak)}) on the {len(words):,}-word module of bench builder: "
        f"{ours.seconds / theirs.seconds:.2f}x spirv-val's time {target}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
