"""Type-aware helpers and resources: a workgroup reduction (shared memory, barriers,
built-ins, an atomic, loads and access chains typed from their pointers) run on
lavapipe; every resource kind in a module spirv-val accepts; misuse at the call."""

from __future__ import annotations

import random
import struct
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
    if_then,
    load,
    memory_barrier,
    push_constant_block,
    sampled_image,
    storage_block,
    storage_image,
    type_of,
    u32,
    uniform_block,
    vec,
    while_loop,
)
from spvbuild.constructs.layouts import mat
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    ExecutionModel,
    ExecutionModeLocalSize,
    ImageFormat,
    ImageOperandsLod,
    MemoryModel,
    MemorySemantics,
    Scope,
    StorageClass,
)
from spvbuild.ir.module import Module
from spvbuild.vulkan_runner import run_compute

Validate = Callable[[list[int], str], subprocess.CompletedProcess[str]]
GROUP = 64


def reduction() -> list[int]:
    """out.sums[w] = the sum of workgroup w's 64 values; out.total = every value's sum."""
    m = Module(version=(1, 3))
    uint, boolean = m.type_int(32, 0), m.type_bool()
    source = storage_block(m, Struct("In", (Field("values", Array(u32, None)),)), binding=0)
    target = storage_block(
        m, Struct("Out", (Field("total", u32), Field("sums", Array(u32, None)))), binding=1
    )
    shared_type = m.type_array(uint, m.constant(uint, GROUP))
    shared = m.variable(m.type_pointer(StorageClass.Workgroup, shared_type), StorageClass.Workgroup)
    main = m.define_function(m.type_void(), name="main")
    stride_var = m.variable(m.type_pointer(StorageClass.Function, uint), StorageClass.Function)

    def x_of(which: BuiltIn) -> Id:
        return m.composite_extract(uint, load(m, builtin(m, which)), [0])

    local, group, item = (
        x_of(BuiltIn.LocalInvocationId),
        x_of(BuiltIn.WorkgroupId),
        x_of(BuiltIn.GlobalInvocationId),
    )
    m.store(access_chain(m, shared, [local]), load(m, source.member(m, "values", item)))
    control_barrier(m)
    m.store(stride_var, m.constant(uint, GROUP // 2))
    with while_loop(
        m, lambda: m.u_greater_than(boolean, m.load(uint, stride_var), m.constant(uint, 0))
    ):
        stride = m.load(uint, stride_var)
        with if_then(m, m.u_less_than(boolean, local, stride)):
            mine = access_chain(m, shared, [local])
            other = load(m, access_chain(m, shared, [m.i_add(uint, local, stride)]))
            m.store(mine, m.i_add(uint, load(m, mine), other))
        control_barrier(m)
        m.store(stride_var, m.shift_right_logical(uint, stride, m.constant(uint, 1)))
    with if_then(m, m.i_equal(boolean, local, m.constant(uint, 0))):
        total = load(m, access_chain(m, shared, [0]))
        m.store(target.member(m, "sums", group), total)
        atomic(m, m.atomic_i_add, target.member(m, "total"), total)
        memory_barrier(
            m, Scope.Device, MemorySemantics.AcquireRelease | MemorySemantics.UniformMemory
        )
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(GROUP, 1, 1))
    assert builtin(m, BuiltIn.LocalInvocationId) == builtin(m, BuiltIn.LocalInvocationId)
    words: list[int] = m.to_words()
    return words


@pytest.mark.spirv_val
@pytest.mark.vulkan
def test_a_workgroup_reduction_computes_the_sums(spirv_val: Validate) -> None:
    words = reduction()
    done = spirv_val(words, "vulkan1.1")
    assert done.returncode == 0, done.stderr
    groups = 5
    values = [random.Random(7).randrange(1000) for _ in range(GROUP * groups)]
    data = struct.pack(f"<{len(values)}I", *values)
    out = bytes(4 * (1 + groups))
    _, result = run_compute(words, [data, out], (groups, 1, 1))
    total, *sums = struct.unpack(f"<{1 + groups}I", result)
    assert sums == [sum(values[g * GROUP : (g + 1) * GROUP]) for g in range(groups)]
    assert total == sum(values)


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
