"""Benchmark: OpSwitch assembly and friendly-name disassembly grow linearly.

Two inputs that once cost time (and memory) in the square of their size, each measured at
a size and at twice it, every run in a fresh child process (its peak memory measured as
``bench/processes.py`` says):

* **OpSwitch assembly.**  (a) One function whose ``OpSwitch`` has 8,000, 16,000 and 32,000
  cases, each case a block that adds, stores and branches to the merge block.  (b) A
  state-machine shader: 11 and 22 such functions of 1,600 cases each (texts of about 2.6
  and 5.3 MB).  Timed is ``assemble(text)`` inside the child (the text already read; the
  best of 5 calls); the peak is the child's.  spirv-as assembles the same files (the
  whole process).
* **Friendly names of a chain of pointer types.**  ``%uint``, then ``OpTypePointer
  Function`` to the previous type, 8,000, 16,000 and 32,000 deep: each name would embed the
  previous one.  Timed is ``disassemble(data)`` inside the child (the best of 5 calls);
  then the whole ``spvbuild dis chain.spv -o out`` process at 16,000 against the target
  (under 1 s and 200 MB).  spirv-dis 2025.5 keeps every name whole (quadratic: 53 s and
  14.6 GB at 16,000), so it runs only at 1,000 and 2,000 deep, to show its growth.

"Linear" here: twice the size costs at most 2.5 times the time (``x`` figures; at tens of
milliseconds a busy machine blurs them).  Prints exactly one line and always exits 0:
benchmarks report, tests assert.
"""

from __future__ import annotations

import struct
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from bench.processes import best, megabytes, spvbuild_command  # noqa: E402

NAME = "scaling"
RUNS = 3
GROWTH = 2.5  # at most this much time for twice the size
CHAIN_SECONDS, CHAIN_MB = 1.0, 200
SWITCH_CASES = (8_000, 16_000, 32_000)
SWITCH_FUNCTIONS = (11, 22)
FUNCTION_CASES = 1_600
CHAIN_DEPTHS = (8_000, 16_000, 32_000)
REFERENCE_CHAIN_DEPTHS = (1_000, 2_000)

# The child: time a library call on a file (the best of 5 calls: the first also builds the
# tables of first use), print the seconds.
_CHILD = """\
import sys, time
from pathlib import Path
what, path = sys.argv[1], sys.argv[2]
if what == "as":
    from spvbuild.text.assembler import assemble as work
    data = Path(path).read_text(encoding="utf-8")
else:
    from spvbuild.text.disassembler import disassemble as work
    data = Path(path).read_bytes()
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    work(data)
    best = min(best, time.perf_counter() - start)
print(best)
"""

_HEADER = """\
; SPIR-V
; Version: 1.6
; Generator: spvbuild bench_scaling.py
; Bound: {bound}
; Schema: 0
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %f0 "main"
               OpExecutionMode %f0 LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
        %int = OpTypeInt 32 1
%_ptr_Function_int = OpTypePointer Function %int
      %int_1 = OpConstant %int 1
"""


def _line(result: str, rest: str) -> str:
    """A line as spirv-dis prints it: the result id right-aligned before ``=``."""
    return f"{result:>14} = {rest}" if result else f"{'':15}{rest}"


def switch_text(functions: int, cases: int) -> str:
    """``functions`` functions, each an ``OpSwitch`` of ``cases`` cases on a loaded value;
    each case block adds one, stores and branches to the merge block."""
    lines: list[str] = []
    for f in range(functions):
        lines += [
            _line(f"%f{f}", "OpFunction %void None %fn"),
            _line(f"%entry{f}", "OpLabel"),
            _line(f"%v{f}", "OpVariable %_ptr_Function_int Function"),
            _line(f"%sel{f}", f"OpLoad %int %v{f}"),
            _line("", f"OpSelectionMerge %merge{f} None"),
        ]
        targets = " ".join(f"{k} %c{f}_{k}" for k in range(cases))
        lines.append(_line("", f"OpSwitch %sel{f} %default{f} {targets}"))
        for k in range(cases):
            lines += [
                _line(f"%c{f}_{k}", "OpLabel"),
                _line(f"%x{f}_{k}", f"OpIAdd %int %sel{f} %int_1"),
                _line("", f"OpStore %v{f} %x{f}_{k}"),
                _line("", f"OpBranch %merge{f}"),
            ]
        lines += [
            _line(f"%default{f}", "OpLabel"),
            _line("", f"OpBranch %merge{f}"),
            _line(f"%merge{f}", "OpLabel"),
            _line("", "OpReturn"),
            _line("", "OpFunctionEnd"),
        ]
    bound = 7 + functions * (6 + 2 * cases)
    return _HEADER.format(bound=bound) + "\n".join(lines) + "\n"


def pointer_chain(depth: int) -> bytes:
    """``%2 = OpTypeInt 32 0`` and ``depth`` nested ``OpTypePointer Function``."""
    words = [0x07230203, 0x00010000, 0, depth + 3, 0]
    words += [2 << 16 | 17, 1]  # OpCapability Shader
    words += [3 << 16 | 14, 0, 1]  # OpMemoryModel Logical GLSL450
    words += [4 << 16 | 21, 2, 32, 0]  # OpTypeInt 32 0
    for k in range(1, depth + 1):
        words += [4 << 16 | 32, 2 + k, 7, 1 + k]  # OpTypePointer Function
    return struct.pack(f"<{len(words)}I", *words)


def _tool(name: str) -> str:
    from bench.random_corpus import tool

    return str(tool(name))


def _library(what: str, path: Path) -> tuple[float, int]:
    """(seconds of the library call inside a child, the child's peak bytes)."""
    run = best([sys.executable, "-c", _CHILD, what, str(path)], RUNS)
    return float(run.stdout), run.peak


def _growth(seconds: list[float]) -> str:
    return "/".join(f"x{b / a:.1f}" for a, b in zip(seconds, seconds[1:], strict=False))


def measure_switch(folder: Path) -> str:
    as_ = _tool("spirv-as")
    parts: list[str] = []
    ours: list[float] = []
    figures: list[str] = []
    for cases in SWITCH_CASES:
        path = folder / f"switch{cases}.spvasm"
        path.write_text(switch_text(1, cases), encoding="utf-8")
        seconds, peak = _library("as", path)
        ours.append(seconds)
        figures.append(f"{cases:,} {seconds:.2f} s {megabytes(peak)}")
    reference = best([as_, str(folder / "switch16000.spvasm"), "-o", str(folder / "s.spv")], RUNS)
    parts.append(
        f"OpSwitch of {', '.join(figures)} ({_growth(ours)}; spirv-as 16,000: "
        f"{reference.seconds:.2f} s {megabytes(reference.peak)})"
    )
    ours, figures = [], []
    reference_seconds: list[str] = []
    for functions in SWITCH_FUNCTIONS:
        path = folder / f"machine{functions}.spvasm"
        path.write_text(switch_text(functions, FUNCTION_CASES), encoding="utf-8")
        size = path.stat().st_size / 1e6
        seconds, peak = _library("as", path)
        ours.append(seconds)
        figures.append(f"{size:.1f} MB {seconds:.2f} s {megabytes(peak)}")
        reference = best([as_, str(path), "-o", str(folder / "m.spv")], RUNS)
        reference_seconds.append(f"{reference.seconds:.2f}")
    parts.append(
        f"{FUNCTION_CASES:,}-case switches in {', '.join(figures)} ({_growth(ours)}; "
        f"spirv-as {'/'.join(reference_seconds)} s)"
    )
    return "; ".join(parts)


def measure_chain(folder: Path) -> tuple[str, bool]:
    ours: list[float] = []
    figures: list[str] = []
    for depth in CHAIN_DEPTHS:
        path = folder / f"chain{depth}.spv"
        path.write_bytes(pointer_chain(depth))
        seconds, peak = _library("dis", path)
        ours.append(seconds)
        figures.append(f"{depth:,} {seconds:.2f} s {megabytes(peak)}")
    cli = best(
        spvbuild_command("dis", str(folder / "chain16000.spv"), "-o", str(folder / "c")), RUNS
    )
    met = cli.seconds < CHAIN_SECONDS and cli.peak < CHAIN_MB * 1024 * 1024
    dis = _tool("spirv-dis")
    theirs: list[str] = []
    for depth in REFERENCE_CHAIN_DEPTHS:
        path = folder / f"chain{depth}.spv"
        path.write_bytes(pointer_chain(depth))
        run = best([dis, str(path), "-o", str(folder / "r")], RUNS)
        theirs.append(f"{depth:,} {run.seconds:.2f} s {megabytes(run.peak)}")
    text = (
        f"friendly names of a pointer chain {', '.join(figures)} ({_growth(ours)}); "
        f"`spvbuild dis` of 16,000: {cli.seconds:.2f} s, peak {megabytes(cli.peak)} "
        f"({'met' if met else 'NOT met'}); spirv-dis 2025.5 {', '.join(theirs)} "
        "(quadratic: not run at 16,000)"
    )
    return text, met


def main() -> int:
    target = (
        f"(target 2x the size in <= {GROWTH:.1f}x the time; "
        f"chain of 16,000 < {CHAIN_SECONDS:.0f} s and < {CHAIN_MB} MB)"
    )
    try:
        with tempfile.TemporaryDirectory() as tmp:
            switch = measure_switch(Path(tmp))
            chain, _ = measure_chain(Path(tmp))
    except Exception as exc:  # a benchmark reports, it never fails the run
        print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {target}")
    else:
        print(f"bench {NAME}: {switch}; {chain} {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
