"""Id vs TypeId: a TypeId goes wherever an Id does; ids are plain ints at runtime."""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild import (
    Capability,
    Decoration,
    DecorationArrayStride,
    Dim,
    Id,
    ImageFormat,
    ImageOperands,
    ImageOperandsLod,
    Op,
    Recorder,
    StorageClass,
    TypeId,
)


def declare_vec(b: Recorder, width: int, count: int) -> TypeId:
    return b.type_vector(b.type_float(width), count)


def name_all(b: Recorder, ids: Sequence[Id | TypeId], prefix: str) -> Recorder:
    for index, id_ in enumerate(ids):
        b.name(id_, f"{prefix}{index}")
    return b


b = Recorder()
b.capability(Capability.Shader).capability(Capability.PhysicalStorageBufferAddresses)
vec4 = declare_vec(b, 32, 4)
f32 = b.type_float(32)
u32 = b.type_int(32, 0)
four = b.constant(u32, 4)
arr = b.type_array(vec4, four)  # the length is a constant's (value) id
b.decorate(arr, DecorationArrayStride(16))
types: list[TypeId] = [vec4, arr, f32]
name_all(b, types, "t")  # list[TypeId] where Sequence[Id | TypeId] is expected
b.group_decorate(b.decoration_group(), types)

# A forward-declared pointer: reserve a type id up front, declare it after the struct.
fwd = b.new_type_id()
b.type_forward_pointer(fwd, StorageClass.PhysicalStorageBuffer)
node = b.type_struct([f32, fwd])
assert b.type_pointer(StorageClass.PhysicalStorageBuffer, node, result_id=fwd) == fwd
b.decorate(node, Decoration.Block)

# Spec-constant ops mix ids and literal integers.
spec = b.spec_constant(u32, 3)
b.spec_constant_op(u32, Op.IAdd, [spec, four])
b.spec_constant_op(u32, Op.CompositeExtract, [b.spec_constant_composite(vec4, []), 0])

# Image sampling with an operand that carries an id.
image = b.type_image(f32, Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown)
sampled = b.type_sampled_image(image)
coord = b.undef(b.type_vector(f32, 2))
lod = b.constant(f32, 0.0)
texel = b.image_sample_explicit_lod(vec4, b.undef(sampled), coord, ImageOperandsLod(lod))
b.image_sample_implicit_lod(vec4, b.undef(sampled), coord, ImageOperands.None_)
b.vector_shuffle(vec4, texel, texel, [3, 2, 1, 0xFFFFFFFF])

# Ids are ints, so they work as words and dictionary keys.
assert isinstance(fwd, TypeId) and isinstance(fwd, int)
assert repr(four) == f"%{int(four)}"
table: dict[Id | TypeId, str] = {vec4: "vec4", four: "4"}
assert table[vec4] == "vec4"
assert b.bound == max(int(i.result_id or 0) for i in b.instructions) + 1
assert b.to_words()[0] == 0x07230203  # the SPIR-V magic number
