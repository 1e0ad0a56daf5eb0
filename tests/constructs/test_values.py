"""Type-aware helpers and resources: every resource kind in a module spirv-val accepts
(loads and access chains typed from their pointers); misuse at the call.  The workgroup
reduction of examples/gallery/reduction.py (shared memory, barriers, built-ins, an atomic)
is run on lavapipe by tests/test_gallery.py."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from spvbuild import BuildError, EncodeError, Id
from spvbuild.constructs import (
    STD430,
    Array,
    Field,
    Struct,
    access_chain,
    atomic,
    builtin,
    control_barrier,
    load,
    memory_barrier,
    pointee,
    push_constant_block,
    sampled_image,
    storage_block,
    storage_image,
    type_of,
    u32,
    uniform_block,
    vec,
)
from spvbuild.constructs.layouts import mat
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Capability,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    ImageFormat,
    ImageOperandsLod,
    MemoryModel,
    MemorySemantics,
    Scope,
    StorageClass,
)
from spvbuild.generated.core.opcodes import OP_TYPE_INT
from spvbuild.ir.module import Module

Validate = Callable[[list[int], str], subprocess.CompletedProcess[str]]
GROUP = 64


@pytest.mark.spirv_val
def test_every_resource_kind_validates(spirv_val: Validate) -> None:
    m = Module(version=(1, 3))
    params = uniform_block(
        m, Struct("Params", (Field("mvp", mat(4)), Field("tint", vec(4)))), binding=0, name="params"
    )
    data = storage_block(m, Struct("Data", (Field("values", Array(vec(4), None)),)), binding=1)
    push = push_constant_block(m, Struct("Push", (Field("scale", u32),)), STD430)
    texture = sampled_image(m, binding=2, name="albedo")
    image = storage_image(m, ImageFormat.Rgba8, binding=3)
    main = m.define_function(m.type_void(), name="main")
    f32, uint = m.type_float(32), m.type_int(32, 0)
    v2, v4 = m.type_vector(f32, 2), m.type_vector(f32, 4)
    coordinate = m.constant_composite(v2, [m.constant(f32, 0.5), m.constant(f32, 0.5)])
    sample = m.image_sample_explicit_lod(
        v4, load(m, texture), coordinate, ImageOperandsLod(m.constant(f32, 0.0))
    )
    tint = load(m, params.member(m, "tint"))
    column = load(m, params.member(m, "mvp", 2))
    assert type_of(m, column) == v4
    index = load(m, push.member(m, "scale"))
    m.store(data.member(m, "values", index), m.f_mul(v4, m.f_add(v4, sample, tint), column))
    pixel = m.constant_composite(
        m.type_vector(m.type_int(32, 1), 2), [m.constant(m.type_int(32, 1), 0)] * 2
    )
    m.image_write(load(m, image), pixel, tint)
    assert type_of(m, index) == uint
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    done = spirv_val(m.to_words(), "vulkan1.1")
    assert done.returncode == 0, done.stderr


def test_misuse_is_a_build_error_at_the_call() -> None:
    m = Module()
    uint = m.type_int(32, 0)
    block = storage_block(m, Struct("B", (Field("a", u32), Field("v", vec(3)))))
    m.define_function(m.type_void())
    with pytest.raises(BuildError, match=r"type_of: %999 is no value this module defines \(at "):
        type_of(m, Id(999))
    with pytest.raises(BuildError, match="pointee: .* is no pointer type of this module"):
        load(m, m.constant(uint, 3))
    with pytest.raises(
        BuildError, match="index 0 into a struct of 2 members must be a constant from 0 to 1, not 2"
    ):
        access_chain(m, block.variable, [2])
    with pytest.raises(BuildError, match="must be a constant from 0 to 1"):
        access_chain(m, block.variable, [load(m, block.member(m, "a"))])
    with pytest.raises(BuildError, match="index 2 goes into .* which has no parts"):
        access_chain(m, block.variable, [1, 0, 0])
    with pytest.raises(BuildError, match="index 0 must be an int >= 0, not -1"):
        access_chain(m, block.variable, [-1])
    with pytest.raises(BuildError, match="builtin: no known type for <BuiltIn.ClipDistance"):
        builtin(m, BuiltIn.ClipDistance)
    with pytest.raises(EncodeError):
        storage_block(m, Struct("C", (Field("a", u32),)), binding=-1)


@pytest.mark.spirv_val
def test_builtins_barriers_and_atomics_validate(spirv_val: Validate) -> None:
    m = Module(version=(1, 3))
    counter = storage_block(m, Struct("Counter", (Field("hits", u32),)))
    main = m.define_function(m.type_void(), name="main")
    first = builtin(m, BuiltIn.LocalInvocationIndex)
    assert builtin(m, BuiltIn.LocalInvocationIndex) == first  # made once
    index = load(m, first)
    control_barrier(m)
    memory_barrier(m, Scope.Device, MemorySemantics.AcquireRelease | MemorySemantics.UniformMemory)
    before = atomic(m, m.atomic_i_add, counter.member(m, "hits"), index)
    assert type_of(m, before) == m.type_int(32, 0)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(8, 1, 1))
    words = m.to_words()
    done = spirv_val(words, "vulkan1.1")
    assert done.returncode == 0, done.stderr
    assert words.count(0x40000 | 224) == 1  # one OpControlBarrier (3 operands)


def _kernel(addressing: AddressingModel) -> tuple[Module, Id, Id]:
    """An OpenCL kernel ``k(global float *data)`` storing 1.0 at ``data[gid.x + index]``
    (the built-ins made after the memory model, as a kernel must), with its two built-ins."""
    m = Module(target_env="opencl2.0")
    m.capability(Capability.Addresses).capability(Capability.Kernel)
    f32 = m.type_float(32)
    global_float = m.type_pointer(StorageClass.CrossWorkgroup, f32)
    m.memory_model(addressing, MemoryModel.OpenCL)
    gid, index = builtin(m, BuiltIn.GlobalInvocationId), builtin(m, BuiltIn.LocalInvocationIndex)
    kernel = m.define_function(m.type_void(), [global_float], FunctionControl.None_, name="k")
    size = type_of(m, load(m, index))
    first = m.composite_extract(size, load(m, gid), [0])
    element = m.in_bounds_ptr_access_chain(
        global_float, kernel.parameters[0], m.i_add(size, first, load(m, index))
    )
    m.store(element, m.constant(f32, 1.0))
    m.return_().function_end()
    m.entry_point(ExecutionModel.Kernel, kernel.id, "k")
    return m, gid, index


@pytest.mark.spirv_val
@pytest.mark.parametrize(
    ("addressing", "width"), [(AddressingModel.Physical64, 64), (AddressingModel.Physical32, 32)]
)
def test_kernel_builtins_are_size_t(
    spirv_val: Validate, addressing: AddressingModel, width: int
) -> None:
    m, gid, index = _kernel(addressing)
    size = m.type_int(width, 0)
    assert pointee(m, type_of(m, gid)) == (StorageClass.Input, m.type_vector(size, 3))
    assert pointee(m, type_of(m, index)) == (StorageClass.Input, size)
    assert {int(t.operands[0]) for t in m.find(opcode=OP_TYPE_INT)} == {width}
    words = m.to_words()
    done = spirv_val(words, "opencl2.0")
    assert done.returncode == 0, done.stderr


def test_kernel_builtin_before_memory_model_is_refused() -> None:
    m = Module()
    m.capability(Capability.Kernel)
    refused = (
        r"builtin: GlobalInvocationId is a size_t in a kernel, .* call memory_model\(\.\.\.\) "
        r"before builtin\(\) \(at test_values.py:\d+\)"
    )
    with pytest.raises(BuildError, match=refused):
        builtin(m, BuiltIn.GlobalInvocationId)
