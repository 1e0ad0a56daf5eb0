"""Benchmark: the binary reader on a big module.

One function of >= 500,000 instructions (OpAccessChain, OpLoad, OpFMul, OpIAdd, OpStore,
OpConstant, with decorations) is built with ``spvbuild.Recorder`` and encoded once; then
``read(data)`` is timed on its bytes.  ``read`` checks the header and the framing of
every instruction and decodes the typed operands on first access of ``.instructions``,
so two figures are printed, both per instruction of the module: ``read()`` alone
(split + check) and ``read(data).instructions`` (fully typed).  That module is made of
the shapes the reader's fast paths cover, so a third figure is the fully typed speed on
the shader-like 500,000-instruction module of ``bench_as.py`` (extended instructions,
OpPhi, OpLine, literals, enumerants), the mix a real compiled shader has.  The figures
are those of what ``read`` runs by default: the compiled read engine when it is built
(``make bench`` builds it); the same engine interpreted (plain Python) is timed in the
same rounds and shown in parentheses.  The best of a few runs counts.  Prints exactly one
line and always exits 0: benchmarks report, tests assert.
"""

from __future__ import annotations

import struct
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

NAME = "read"
TARGET = 4.0  # million instructions per second, compiled (issue: the reader's earlier speed)
BLOCKS = 100_000  # six instructions each
RUNS = 5


def build() -> bytes:
    """The module's bytes (little-endian)."""
    from spvbuild import Recorder
    from spvbuild.enums import (
        AddressingModel,
        Capability,
        Decoration,
        ExecutionMode,
        ExecutionModel,
        FunctionControl,
        MemoryModel,
        StorageClass,
    )

    b = Recorder()
    b.capability(Capability.Shader).memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    void = b.type_void()
    fnty = b.type_function(void)
    u32 = b.type_int(32, 0)
    f32 = b.type_float(32)
    p_f32 = b.type_pointer(StorageClass.Function, f32)
    array = b.type_array(f32, b.constant(u32, 16))
    p_array = b.type_pointer(StorageClass.Function, array)
    main = b.function(void, FunctionControl.None_, fnty)
    b.entry_point(ExecutionModel.GLCompute, main, "main")
    b.execution_mode(main, ExecutionMode.OriginUpperLeft)
    b.label()
    values = b.variable(p_array, StorageClass.Function)
    result = b.variable(p_f32, StorageClass.Function)
    scale = b.constant(f32, 1.5)
    three = b.constant(u32, 3)
    for index in range(BLOCKS):
        c = b.constant(u32, index)
        p = b.access_chain(p_f32, values, [c])
        v = b.load(f32, p)
        w = b.f_mul(f32, v, scale)
        b.i_add(u32, c, three)
        b.store(result, w)
        if index % 50 == 0:
            b.decorate(w, Decoration.RelaxedPrecision)
    b.return_().function_end()
    words = b.to_words((1, 3))
    return struct.pack(f"<{len(words)}I", *words)


def shader_like() -> bytes:
    """The 500,000-instruction module of ``bench_as.py``, assembled: the mix of a real
    compiled shader (extended instructions, OpPhi, OpLine, literals, enumerants)."""
    sys.path.insert(0, str(ROOT))
    from bench.bench_as import generate
    from spvbuild.text.assembler import assemble

    words = assemble(generate())
    return struct.pack(f"<{len(words)}I", *words)


def measure(data: bytes) -> tuple[int, dict[str, tuple[float, float]]]:
    """(instructions, {engine: (best seconds of read(), of read().instructions)}) for
    the reader's engines in turn each round: "mypyc" (the compiled read engine, when
    built) and "python" (the same engine interpreted).  This host's speed drifts over
    seconds, so the two are interleaved rather than timed one after the other."""
    from spvbuild.accel import engines
    from spvbuild.binary import read_engine, reader

    compiled = engines.compiled("read_engine")
    choices = {"python": read_engine} if compiled is None else {"mypyc": compiled, "python": read_engine}
    saved = engines.RUNNING.get("read_engine")
    best = {name: (float("inf"), float("inf")) for name in choices}
    try:
        count = len(reader.read(data).instructions)
        for _ in range(RUNS):
            for name, engine in choices.items():
                engines.RUNNING["read_engine"] = engine
                start = time.perf_counter()
                module = reader.read(data)
                middle = time.perf_counter()
                module.instructions  # noqa: B018 - decode
                stop = time.perf_counter()
                del module
                split, typed = best[name]
                best[name] = (min(split, middle - start), min(typed, stop - start))
    finally:
        if saved is None:
            engines.RUNNING.pop("read_engine", None)
        else:
            engines.RUNNING["read_engine"] = saved
    return count, best


def main() -> int:
    target = f"(target >= {TARGET:g} M instructions/s)"
    try:
        count, own = measure(build())
        shader_count, shader = measure(shader_like())
    except Exception as exc:  # a benchmark reports, it never fails the run
        print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {target}")
        return 0

    def rate(n: int, seconds: float) -> str:
        return f"{n / seconds / 1e6:.2f}"

    default = "mypyc" if "mypyc" in own else "python"
    plain = (
        f" (plain Python {rate(count, own['python'][1])}, shader-like "
        f"{rate(shader_count, shader['python'][1])})"
        if default == "mypyc"
        else " (plain Python: no compiled read engine, run python -m spvbuild.accel.accelerate)"
    )
    print(
        f"bench {NAME}: {rate(count, own[default][1])} M instructions/s fully typed, "
        f"{rate(count, own[default][0])} M/s split+check, {rate(shader_count, shader[default][1])} "
        f"M/s fully typed on the shader-like module of bench as, {default} engine{plain} "
        f"{target}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
