"""Compute shaders built with spvbuild.ir.module.Module, validated by spirv-val and run on lavapipe.

Every kernel reads gl_GlobalInvocationID.x, guards it against the buffer length
(OpArrayLength + OpSelectionMerge) and is checked against the same computation done in
Python on seeded random inputs.  These tests fail, never skip, when Vulkan is missing:
`make test` installs lavapipe (system-deps) and the `vulkan` module (dev extras).
"""

from __future__ import annotations

import math
import os
import random
import struct
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spvbuild import Id, TypeId
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
    LoopControl,
    MemoryModel,
    MemorySemantics,
    Scope,
    SelectionControl,
    StorageClass,
)
from spvbuild.ir.module import Module
from spvbuild.vulkan_runner import (
    DEVICE_ENV,
    ComputeDevice,
    DeviceInfo,
    VulkanError,
    VulkanUnavailable,
    choose_device,
    find_lavapipe_icd,
    list_devices,
    run_compute,
)

pytestmark = pytest.mark.vulkan

ROOT = Path(__file__).resolve().parent.parent

Validate = Callable[[list[int], str], subprocess.CompletedProcess[str]]
OP_CAPABILITY = 17
LOCAL_SIZE = 64


def f32(value: float) -> float:
    """Round a Python float to the nearest float32."""
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def pack(fmt: str, values: list[float] | list[int]) -> bytes:
    return struct.pack(f"<{len(values)}{fmt}", *values)


def unpack(fmt: str, data: bytes) -> list[float] | list[int]:
    size = struct.calcsize(fmt)
    return list(struct.unpack(f"<{len(data) // size}{fmt}", data))


def groups(count: int) -> tuple[int, int, int]:
    return ((count + LOCAL_SIZE - 1) // LOCAL_SIZE, 1, 1)


class Kernel:
    """The boilerplate of a GLCompute kernel, through Module's public typed API only.

    ``buffer()`` declares ``buffer { T data[]; }`` at set 0 / binding n; ``begin()`` opens
    main and returns gl_GlobalInvocationID.x; ``guard()`` opens ``if (x < length(buf))``;
    ``words()`` closes everything and serializes.
    """

    def __init__(self, version: tuple[int, int] = (1, 3)) -> None:
        m = self.m = Module(version)
        m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        self.void = m.type_void()
        self.bool = m.type_bool()
        self.u32 = m.type_int(32, 0)
        self.f32 = m.type_float(32)
        self.v3u = m.type_vector(self.u32, 3)
        self.gid = m.variable(m.type_pointer(StorageClass.Input, self.v3u), StorageClass.Input)
        m.decorate(self.gid, DecorationBuiltIn(BuiltIn.GlobalInvocationId))
        m.name(self.gid, "gl_GlobalInvocationID")
        self.interfaces: list[Id] = [self.gid]
        self.bindings = 0
        self._end: Id | None = None

    def uint(self, value: int) -> Id:
        return self.m.constant(self.u32, value)

    def buffer(self, element: TypeId, stride: int, name: str) -> Id:
        m = self.m
        array = m.type_runtime_array(element)
        m.decorate(array, DecorationArrayStride(stride))
        block = m.type_struct([array])
        m.decorate(block, Decoration.Block)
        m.member_decorate(block, 0, DecorationOffset(0))
        var = m.variable(
            m.type_pointer(StorageClass.StorageBuffer, block), StorageClass.StorageBuffer
        )
        m.decorate(var, DecorationDescriptorSet(0)).decorate(var, DecorationBinding(self.bindings))
        m.name(var, name)
        self.bindings += 1
        if self.m.version >= (1, 4):  # from 1.4 on the interface lists every global used
            self.interfaces.append(var)
        return var

    def element(self, buffer: Id, element: TypeId, index: Id) -> Id:
        """Pointer to ``buffer.data[index]``."""
        pointer = self.m.type_pointer(StorageClass.StorageBuffer, element)
        return self.m.access_chain(pointer, buffer, [self.uint(0), index])

    def begin(self) -> Id:
        m = self.m
        self.main = m.define_function(self.void, name="main").id
        return m.composite_extract(self.u32, m.load(self.v3u, self.gid), [0])

    def guard(self, index: Id, buffer: Id) -> None:
        """``if (index < buffer.data.length()) {`` (closed by :meth:`words`)."""
        m = self.m
        inside = m.u_less_than(self.bool, index, m.array_length(self.u32, buffer, 0))
        then, self._end = m.new_id(), m.new_id()
        m.selection_merge(self._end, SelectionControl.None_)
        m.branch_conditional(inside, then, self._end)
        m.label(result_id=then)

    def words(self) -> list[int]:
        m = self.m
        if self._end is not None:
            m.branch(self._end)
            m.label(result_id=self._end)
        m.return_().function_end()
        m.entry_point(ExecutionModel.GLCompute, self.main, "main", self.interfaces)
        m.execution_mode(self.main, ExecutionModeLocalSize(LOCAL_SIZE, 1, 1))
        return m.to_words()


def check_valid(spirv_val: Validate, words: list[int], env: str) -> None:
    done = spirv_val(words, env)
    assert done.returncode == 0, done.stderr + done.stdout


def declared_capabilities(m: Module) -> list[str]:
    return [
        inst.operands[0].name for inst in m.ordered_instructions() if inst.opcode == OP_CAPABILITY
    ]


@pytest.fixture(scope="module")
def device() -> Iterator[ComputeDevice]:
    """One device for the module, lavapipe unless $SPVBUILD_VULKAN_DEVICE says otherwise
    (see tests/conftest.py; run_compute itself is tested separately)."""
    with ComputeDevice() as dev:
        yield dev


# -- (a) vector add ------------------------------------------------------------------------------


def vector_add() -> list[int]:
    """c[i] = a[i] + b[i] over float32, SPIR-V 1.5 (interfaces list the buffers)."""
    k = Kernel((1, 5))
    a, b, c = (k.buffer(k.f32, 4, name) for name in ("a", "b", "c"))
    m = k.m
    i = k.begin()
    k.guard(i, c)
    x = m.load(k.f32, k.element(a, k.f32, i))
    y = m.load(k.f32, k.element(b, k.f32, i))
    m.store(k.element(c, k.f32, i), m.f_add(k.f32, x, y))
    return k.words()


@pytest.mark.spirv_val
def test_vector_add(spirv_val: Validate) -> None:
    words = vector_add()
    check_valid(spirv_val, words, "vulkan1.2")
    rng = random.Random(1)
    n = 1000  # not a multiple of the workgroup size: the guard matters
    xs = [f32(rng.uniform(-100, 100)) for _ in range(n)]
    ys = [f32(rng.uniform(-100, 100)) for _ in range(n)]
    out = run_compute(words, [pack("f", xs), pack("f", ys), bytes(4 * n)], groups(n))
    assert unpack("f", out[0]) == xs and unpack("f", out[1]) == ys  # inputs untouched
    assert unpack("f", out[2]) == [f32(x + y) for x, y in zip(xs, ys, strict=True)]


# -- (b) saxpy with a push constant ----------------------------------------------------------------


def saxpy() -> list[int]:
    """y[i] = a * x[i] + y[i], ``a`` from a push constant; the product is NoContraction."""
    k = Kernel()
    m = k.m
    x, y = k.buffer(k.f32, 4, "x"), k.buffer(k.f32, 4, "y")
    params = m.type_struct([k.f32])
    m.decorate(params, Decoration.Block)
    m.member_decorate(params, 0, DecorationOffset(0))
    m.member_name(params, 0, "a")
    pc = m.variable(m.type_pointer(StorageClass.PushConstant, params), StorageClass.PushConstant)
    i = k.begin()
    k.guard(i, y)
    a = m.load(
        k.f32, m.access_chain(m.type_pointer(StorageClass.PushConstant, k.f32), pc, [k.uint(0)])
    )
    product = m.f_mul(k.f32, a, m.load(k.f32, k.element(x, k.f32, i)))
    m.decorate(product, Decoration.NoContraction)  # no fused multiply-add: results exact
    y_ptr = k.element(y, k.f32, i)
    m.store(y_ptr, m.f_add(k.f32, product, m.load(k.f32, y_ptr)))
    return k.words()


@pytest.mark.spirv_val
def test_saxpy_push_constant(spirv_val: Validate, device: ComputeDevice) -> None:
    words = saxpy()
    check_valid(spirv_val, words, "vulkan1.1")
    rng = random.Random(2)
    n = 777
    a = f32(rng.uniform(-4, 4))
    xs = [f32(rng.uniform(-10, 10)) for _ in range(n)]
    ys = [f32(rng.uniform(-10, 10)) for _ in range(n)]
    out = device.run(
        words, [pack("f", xs), pack("f", ys)], groups(n), push_constants=pack("f", [a])
    )
    assert unpack("f", out[1]) == [f32(f32(a * x) + y) for x, y in zip(xs, ys, strict=True)]


# -- (c) reduction with OpAtomicIAdd -----------------------------------------------------------------


def atomic_sum() -> list[int]:
    """total[0] += values[i] (OpAtomicIAdd, Device scope, relaxed), wrapping modulo 2**32."""
    k = Kernel()
    m = k.m
    values, total = k.buffer(k.u32, 4, "values"), k.buffer(k.u32, 4, "total")
    i = k.begin()
    k.guard(i, values)
    value = m.load(k.u32, k.element(values, k.u32, i))
    m.atomic_i_add(
        k.u32,
        k.element(total, k.u32, k.uint(0)),
        k.uint(Scope.Device),
        k.uint(MemorySemantics.None_),
        value,
    )
    return k.words()


@pytest.mark.spirv_val
def test_atomic_reduction(spirv_val: Validate, device: ComputeDevice) -> None:
    words = atomic_sum()
    check_valid(spirv_val, words, "vulkan1.1")
    rng = random.Random(3)
    n = 4099
    values = [rng.getrandbits(32) for _ in range(n)]
    start = rng.getrandbits(32)
    out = device.run(words, [pack("I", values), pack("I", [start])], groups(n))
    assert unpack("I", out[1]) == [(start + sum(values)) % 2**32]


# -- (d) a loop over 64-bit integers ------------------------------------------------------------------


def sum_of_squares_u64() -> tuple[Module, list[int]]:
    """out[i] = sum(k * k for k < n[i]) in uint64: OpLoopMerge, OpPhi with forward ids."""
    k = Kernel()
    m = k.m
    u64 = m.type_int(64, 0)
    counts, sums = k.buffer(k.u32, 4, "counts"), k.buffer(u64, 8, "sums")
    i = k.begin()
    k.guard(i, sums)
    n = m.u_convert(u64, m.load(k.u32, k.element(counts, k.u32, i)))
    zero, one = m.constant(u64, 0), m.constant(u64, 1)
    before = m.current_block
    assert before is not None
    header, body, step, done = m.new_id(), m.new_id(), m.new_id(), m.new_id()
    counter_next, total_next = m.new_id(), m.new_id()
    m.branch(header)

    m.label(result_id=header)
    counter = m.phi(u64, [(zero, before), (counter_next, step)])
    total = m.phi(u64, [(zero, before), (total_next, step)])
    more = m.u_less_than(k.bool, counter, n)
    m.loop_merge(done, step, LoopControl.None_)  # second-to-last in the header
    m.branch_conditional(more, body, done)

    m.label(result_id=body)
    m.i_add(u64, total, m.i_mul(u64, counter, counter), result_id=total_next)
    m.branch(step)

    m.label(result_id=step)
    m.i_add(u64, counter, one, result_id=counter_next)
    m.branch(header)

    m.label(result_id=done)
    m.store(k.element(sums, u64, i), total)
    return m, k.words()


@pytest.mark.spirv_val
def test_u64_loop(spirv_val: Validate, device: ComputeDevice) -> None:
    m, words = sum_of_squares_u64()
    assert "Int64" in declared_capabilities(m)  # inferred from OpTypeInt 64, never declared
    check_valid(spirv_val, words, "vulkan1.1")
    rng = random.Random(4)
    counts = [rng.randrange(0, 6000) for _ in range(300)] + [0, 1, 2, 5999]
    out = device.run(words, [pack("I", counts), bytes(8 * len(counts))], groups(len(counts)))
    want = [sum(j * j for j in range(c)) for c in counts]
    assert max(want) > 2**32  # the 64-bit arithmetic is really needed
    assert unpack("Q", out[1]) == want


# -- (e) GLSL.std.450 math ---------------------------------------------------------------------------


def glsl_math() -> list[int]:
    """out[i] = fma(sqrt(x), sin(x), cos(x) * exp(-x)) via the GLSL.std.450 set."""
    k = Kernel()
    m = k.m
    xs, out = k.buffer(k.f32, 4, "xs"), k.buffer(k.f32, 4, "out")
    i = k.begin()
    k.guard(i, out)
    x = m.load(k.f32, k.element(xs, k.f32, i))
    glsl = m.glsl
    damped = m.f_mul(k.f32, glsl.cos(k.f32, x), glsl.exp(k.f32, m.f_negate(k.f32, x)))
    m.store(
        k.element(out, k.f32, i), glsl.fma(k.f32, glsl.sqrt(k.f32, x), glsl.sin(k.f32, x), damped)
    )
    return k.words()


@pytest.mark.spirv_val
def test_glsl_std_450_math(spirv_val: Validate, device: ComputeDevice) -> None:
    words = glsl_math()
    check_valid(spirv_val, words, "vulkan1.1")
    rng = random.Random(5)
    xs = [f32(rng.uniform(0.0, math.pi)) for _ in range(500)] + [0.0, 1.0, 2.0]
    out = device.run(words, [pack("f", xs), bytes(4 * len(xs))], groups(len(xs)))
    got = unpack("f", out[1])
    for x, value in zip(xs, got, strict=True):
        want = math.sqrt(x) * math.sin(x) + math.cos(x) * math.exp(-x)  # fma, in double
        # float32 with Vulkan's precision for sin/cos/exp (a few ulp on [0, pi])
        assert math.isclose(value, want, rel_tol=1e-5, abs_tol=1e-5), (x, value, want)


# -- the runner itself --------------------------------------------------------------------------------


def test_run_compute_rejects_bad_arguments(device: ComputeDevice) -> None:
    words = atomic_sum()
    with pytest.raises(VulkanError, match="at least one buffer"):
        device.run(words, [], (1, 1, 1))
    with pytest.raises(VulkanError, match="buffer 1 must be non-empty"):
        device.run(words, [b"\0" * 4, b""], (1, 1, 1))
    with pytest.raises(VulkanError, match="multiple of 4 bytes"):
        device.run(words, [b"\0" * 4], (1, 1, 1), push_constants=b"\0" * 3)
    with pytest.raises(VulkanError, match="at most 128|at most"):
        device.run(words, [b"\0" * 4], (1, 1, 1), push_constants=b"\0" * 4096)
    with pytest.raises(VulkanError, match="group_count"):
        device.run(words, [b"\0" * 4], (0, 1, 1))
    with pytest.raises(VulkanError, match="not a SPIR-V module"):
        device.run([1, 2, 3, 4, 5], [b"\0" * 4], (1, 1, 1))
    with pytest.raises(
        VulkanError, match=r"no GLCompute entry point named 'nope' \(it has: 'main'\)"
    ):
        device.run(words, [b"\0" * 4], (1, 1, 1), entry_point="nope")


def test_lavapipe_is_chosen_when_asked_for() -> None:
    with ComputeDevice("lavapipe") as dev:
        assert "llvmpipe" in dev.name
        assert dev.properties.info.kind == "cpu" and dev.properties.info.is_lavapipe
    icd = find_lavapipe_icd()
    assert icd is not None and icd.name.startswith("lvp_icd")


def test_the_environment_chooses_the_default_device(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DEVICE_ENV, "LLVMPIPE")  # part of the name, any case
    with ComputeDevice() as dev:
        assert dev.choice == "LLVMPIPE" and "llvmpipe" in dev.name
    monkeypatch.setenv(DEVICE_ENV, "no-such-device")
    with pytest.raises(VulkanUnavailable, match="no device named like 'no-such-device'"):
        ComputeDevice()


def test_an_unknown_device_name_is_an_error_listing_the_devices() -> None:
    seen = list_devices()
    assert any(info.is_lavapipe for info in seen)
    with pytest.raises(VulkanUnavailable) as caught:
        run_compute(atomic_sum(), [b"\0" * 4, b"\0" * 4], (1, 1, 1), device="GeForce 9999")
    message = str(caught.value)
    assert "no device named like 'GeForce 9999'" in message
    for info in seen:
        assert repr(info.name) in message and info.kind in message


def test_gpu_is_a_gpu_or_an_error_listing_the_devices() -> None:
    gpus = [info for info in list_devices() if info.kind.endswith("-gpu")]
    if gpus:  # a machine with a GPU (tools/gpu_check.sh)
        with ComputeDevice("gpu") as dev:
            assert dev.properties.info.kind.endswith("-gpu")
    else:  # lavapipe only: "gpu" refuses, naming what there is
        with pytest.raises(VulkanUnavailable, match=r"no GPU .*devices seen: 'llvmpipe"):
            ComputeDevice("gpu")


@pytest.mark.parametrize("bad", ["", "   ", 3])
def test_a_device_that_is_not_a_name_is_refused(bad: object) -> None:
    with pytest.raises(VulkanError, match="device must be 'auto', 'gpu', 'lavapipe'"):
        ComputeDevice(bad)  # type: ignore[arg-type]


def _infos(*kinds: str) -> list[DeviceInfo]:
    names = {"cpu": "llvmpipe (LLVM 15.0.6, 256 bits)", "other": "Something"}
    return [
        DeviceInfo(names.get(kind, f"GPU {k} {kind}"), kind, 0x10DE, "1.3.0")
        for k, kind in enumerate(kinds)
    ]


@pytest.mark.parametrize(
    ("kinds", "choice", "chosen"),
    [
        (("cpu", "integrated-gpu", "discrete-gpu"), "auto", 2),
        (("cpu", "integrated-gpu", "discrete-gpu"), "gpu", 2),
        (("cpu", "virtual-gpu", "integrated-gpu"), "auto", 2),
        (("virtual-gpu", "cpu"), "gpu", 0),
        (("other", "cpu"), "auto", 1),
        (("other", "cpu"), "gpu", None),
        (("cpu", "discrete-gpu"), "lavapipe", 0),
        (("discrete-gpu",), "lavapipe", None),
        (("cpu", "discrete-gpu"), "gpu 1", 1),
        (("cpu", "discrete-gpu"), "LLVMpipe", 0),
        (("cpu",), "radeon", None),
    ],
)
def test_device_choice_rules(kinds: tuple[str, ...], choice: str, chosen: int | None) -> None:
    devices = _infos(*kinds)
    found = choose_device(devices, choice)
    assert found == (None if chosen is None else devices[chosen])


def test_a_name_part_of_several_devices_is_refused() -> None:
    with pytest.raises(VulkanUnavailable, match="names several devices: 'GPU 0 .*', 'GPU 1"):
        choose_device(_infos("discrete-gpu", "discrete-gpu"), "PU ")


def test_properties_hold_the_limits_and_the_enabled_features(device: ComputeDevice) -> None:
    props = device.properties
    assert props.subgroup_size >= 1 and props.subgroup_size & (props.subgroup_size - 1) == 0
    assert all(size >= 1 for size in props.max_workgroup_size)
    assert props.max_workgroup_invocations >= 128  # Vulkan's required minimum
    assert props.max_push_constants_size == device.max_push_constants_size >= 128
    assert {"shaderInt64", "shaderFloat64"} <= props.features
    assert "sType" not in props.features and "pNext" not in props.features


def test_missing_vulkan_module_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    from spvbuild.vulkan import loader

    monkeypatch.setattr(loader, "_vulkan_module", None)
    monkeypatch.setitem(sys.modules, "vulkan", None)  # makes `import vulkan` fail
    with pytest.raises(VulkanUnavailable, match=r"'vulkan' .* not installed: pip install vulkan"):
        run_compute(atomic_sum(), [b"\0" * 4, b"\0" * 4], (1, 1, 1))


def test_missing_lavapipe_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    from spvbuild.vulkan import compute_device

    monkeypatch.setattr(compute_device, "find_lavapipe_icd", lambda: None)
    with pytest.raises(VulkanUnavailable, match="apt-get install mesa-vulkan-drivers libvulkan1"):
        ComputeDevice("lavapipe")
    monkeypatch.setattr(compute_device, "physical_devices", lambda vk, instance: [])
    with pytest.raises(VulkanUnavailable, match=r"no GPU .* and no lavapipe; devices seen: none"):
        ComputeDevice("auto")


def test_runs_without_xdg_runtime_dir_and_imports_without_vulkan() -> None:
    """A fresh process with no XDG_RUNTIME_DIR runs a kernel (the runner sets it itself)."""
    script = textwrap.dedent(
        """
        import os, struct, sys
        sys.modules["vulkan"] = None
        import spvbuild.vulkan_runner  # importable without the binding
        del sys.modules["vulkan"]
        from tests.test_vulkan import atomic_sum, run_compute
        out = run_compute(atomic_sum(), [struct.pack("<3I", 1, 2, 3), bytes(4)], (1, 1, 1))
        assert os.environ["XDG_RUNTIME_DIR"], "not set"
        print(struct.unpack("<I", out[1])[0])
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "6"
    assert "XDG_RUNTIME_DIR" not in done.stderr
