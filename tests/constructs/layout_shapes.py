"""Block shapes for the layout tests, and the GLSL that declares each the same way.

Each shape is a block (a :class:`~spvbuild.constructs.layouts.Struct`), the rule it is laid
out by and whether glslang is to see it as a ``uniform`` or a ``buffer`` block.  The GLSL
comes from the same description (:func:`glsl`), so glslang's decorations and spvbuild's
layout can be compared member by member.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from spvbuild.constructs.layouts import (
    SCALAR,
    STD140,
    STD430,
    Array,
    DataType,
    Field,
    Matrix,
    Rule,
    Scalar,
    Struct,
    Vector,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
    mat,
    u8,
    u16,
    u32,
    u64,
    vec,
)


class Shape(NamedTuple):
    """A block, its rule, and whether it is a uniform block (else a storage block)."""

    block: Struct
    rule: Rule
    uniform: bool


def F(name: str, data: DataType, row_major: bool = False) -> Field:  # noqa: N802 - short
    """A field."""
    return Field(name, data, row_major)


LIGHT = Struct("Light", (F("position", vec(3)), F("intensity", f32)))
PAIR = Struct("Pair", (F("a", f32), F("b", vec(2))))
INNER = Struct("Inner", (F("m", mat(3)), F("v", vec(3)), F("s", f32)))
OUTER = Struct("Outer", (F("inner", INNER), F("tail", Array(vec(3), 2)), F("x", f32)))
DOUBLES = Struct("Doubles", (F("d", f64), F("dv", vec(3, f64))))
SMALL = Struct("Small", (F("h", f16), F("b", i8), F("s", i16)))


def _block(name: str, *fields: Field) -> Struct:
    return Struct(name, tuple(fields))


def shapes() -> list[Shape]:
    """The block shapes: each field list under each rule it is legal in."""
    bodies: list[tuple[str, tuple[Field, ...], bool]] = [
        # (name, fields, only in storage blocks: runtime arrays)
        ("Scalars", (F("a", f32), F("b", i32), F("c", u32), F("d", f32)), False),
        ("Vec3Float", (F("v", vec(3)), F("f", f32), F("w", vec(2)), F("g", f32)), False),
        ("Vec2Mix", (F("f", f32), F("v", vec(2)), F("g", f32), F("u", vec(4))), False),
        ("FloatArray", (F("f", Array(f32, 3)), F("g", f32)), False),
        ("Vec3Array", (F("v", Array(vec(3), 4)), F("tail", f32)), False),
        ("Vec2Array", (F("v", Array(vec(2), 3)), F("tail", vec(2))), False),
        ("Mat4", (F("mvp", mat(4)), F("scale", f32)), False),
        ("Mat3", (F("normal", mat(3)), F("f", f32)), False),
        ("Mat2", (F("m", mat(2)), F("f", f32), F("n", mat(2), row_major=True)), False),
        ("Mat3x2", (F("m", mat(3, 2)), F("r", mat(3, 2), row_major=True), F("f", f32)), False),
        ("Mat2x3", (F("m", mat(2, 3)), F("r", mat(2, 3), row_major=True), F("f", f32)), False),
        ("Mat4x3Row", (F("m", mat(4, 3), row_major=True), F("f", vec(3))), False),
        ("MatArray", (F("ms", Array(mat(3), 2)), F("rs", Array(mat(2, 3), 2), True)), False),
        ("Lights", (F("count", u32), F("lights", Array(LIGHT, 3)), F("ambient", vec(3))), False),
        ("Pairs", (F("p", PAIR), F("ps", Array(PAIR, 2)), F("z", f32)), False),
        ("Nested", (F("o", OUTER), F("k", i32), F("os", Array(OUTER, 2))), False),
        (
            "Arrays2D",
            (F("grid", Array(Array(f32, 3), 2)), F("v", Array(Array(vec(2), 2), 2))),
            False,
        ),
        ("StructTail", (F("light", LIGHT), F("after", f32)), False),
        ("Doubles", (F("f", f32), F("d", f64), F("dv", vec(3, f64)), F("g", f32)), False),
        ("DoubleMat", (F("m", Matrix(Vector(f64, 3), 3)), F("s", DOUBLES)), False),
        ("Int64", (F("a", i32), F("b", i64), F("c", vec(2, u64)), F("d", u32)), False),
        (
            "IVec",
            (F("a", vec(3, i32)), F("b", i32), F("c", vec(3, u32)), F("d", vec(2, i32))),
            False,
        ),
        ("Small", (F("a", f16), F("b", i8), F("c", u16), F("d", vec(3, f16)), F("e", u8)), False),
        ("SmallStruct", (F("s", SMALL), F("t", Array(SMALL, 2)), F("u", i16)), False),
        ("RuntimeFloat", (F("n", u32), F("data", Array(f32, None))), True),
        ("RuntimeVec3", (F("n", u32), F("data", Array(vec(3), None))), True),
        ("RuntimeLight", (F("n", u32), F("lights", Array(LIGHT, None))), True),
        ("RuntimeMat", (F("s", f32), F("ms", Array(mat(3), None), True)), True),
        ("EndsInVec3", (F("a", vec(4)), F("b", vec(3))), False),
        ("ManyScalars", tuple(F(f"s{i}", f32 if i % 2 else u32) for i in range(7)), False),
    ]
    out: list[Shape] = []
    for name, fields, runtime in bodies:
        for rule in (STD140, STD430, SCALAR):
            block = _block(f"{name}_{rule.value}", *fields)
            out.append(Shape(block, rule, uniform=not runtime and rule is STD140))
            if not runtime and rule is STD140:
                # the same fields in a storage block laid out by std140 too
                out.append(Shape(_block(f"{name}_{rule.value}_buffer", *fields), rule, False))
    return out


# -- GLSL -------------------------------------------------------------------------------------
_SCALARS = {
    f16: "float16_t", f32: "float", f64: "double",
    i8: "int8_t", i16: "int16_t", i32: "int", i64: "int64_t",
    u8: "uint8_t", u16: "uint16_t", u32: "uint", u64: "uint64_t",
}  # fmt: skip
_VECTOR_PREFIX = {
    f16: "f16vec", f32: "vec", f64: "dvec",
    i8: "i8vec", i16: "i16vec", i32: "ivec", i64: "i64vec",
    u8: "u8vec", u16: "u16vec", u32: "uvec", u64: "u64vec",
}  # fmt: skip


def _glsl_type(data: DataType) -> tuple[str, str]:
    """(the type's name, the array suffix) in GLSL."""
    if isinstance(data, Scalar):
        return _SCALARS[data], ""
    if isinstance(data, Vector):
        return f"{_VECTOR_PREFIX[data.component]}{data.count}", ""
    if isinstance(data, Matrix):
        prefix = "dmat" if data.column.component == f64 else "mat"
        return f"{prefix}{data.columns}x{data.column.count}", ""
    if isinstance(data, Array):
        name, suffix = _glsl_type(data.element)
        length = "" if data.length is None else str(data.length)
        return name, f"[{length}]{suffix}"
    return data.name, ""


def _structs(data: DataType, found: dict[str, Struct]) -> None:
    """Every struct under ``data``, inner ones first."""
    while isinstance(data, Array):
        data = data.element
    if isinstance(data, Struct):
        for field in data.fields:
            _structs(field.type, found)
        found.setdefault(data.name, data)


def _members(struct: Struct) -> str:
    lines = []
    for field in struct.fields:
        name, suffix = _glsl_type(field.type)
        major = "layout(row_major) " if field.row_major else ""
        lines.append(f"    {major}{name} {field.name}{suffix};")
    return "\n".join(lines)


def glsl(shape: Shape) -> str:
    """A compute shader declaring ``shape``'s block as glslang is to lay it out (one of its
    members read, so the block is kept)."""
    nested: dict[str, Struct] = {}
    for field in shape.block.fields:
        _structs(field.type, nested)
    structs = "".join(f"struct {s.name} {{\n{_members(s)}\n}};\n" for s in nested.values())
    kind = "uniform" if shape.uniform else "buffer"
    first = shape.block.fields[0]
    read = f"b.{first.name}"
    data = first.type
    while isinstance(data, Array):
        read += "[0]"
        data = data.element
    while isinstance(data, Struct):
        read += f".{data.fields[0].name}"
        data = data.fields[0].type
        while isinstance(data, Array):
            read += "[0]"
            data = data.element
    return f"""#version 460
#extension GL_EXT_scalar_block_layout : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 1) in;
{structs}layout({shape.rule.value}, set = 0, binding = 0) {kind} {shape.block.name} {{
{_members(shape.block)}
}} b;
layout(std430, set = 0, binding = 1) buffer Out {{ uint touched; }} o;
void main() {{
    o.touched = uint({read} == {read});
}}
"""


# -- random blocks ------------------------------------------------------------------------------
_SCALARS_ALL = (f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64)


def _random_type(r: random.Random, depth: int, structs: list[int]) -> DataType:
    k = r.random()
    if k < 0.3 or depth >= 2:
        return r.choice(_SCALARS_ALL)
    if k < 0.55:
        return Vector(r.choice(_SCALARS_ALL), r.choice([2, 3, 4]))
    if k < 0.7:
        return Matrix(Vector(r.choice([f32, f64]), r.choice([2, 3, 4])), r.choice([2, 3, 4]))
    if k < 0.85:
        return Array(_random_type(r, depth + 1, structs), r.choice([1, 2, 3]))
    structs[0] += 1
    name = f"R{structs[0]}"
    members = tuple(
        Field(f"m{i}", _random_type(r, depth + 1, structs)) for i in range(r.randint(1, 4))
    )
    return Struct(name, members)


def random_shapes(seeds: range) -> list[Shape]:
    """A random block per seed (nested structs, arrays, matrices row- or column-major,
    8- to 64-bit scalars) under each rule; deterministic."""
    out = []
    for seed in seeds:
        r = random.Random(seed)
        structs = [0]
        fields = []
        for i in range(r.randint(1, 5)):
            data = _random_type(r, 0, structs)
            inner = data
            while isinstance(inner, Array):
                inner = inner.element
            fields.append(Field(f"f{i}", data, isinstance(inner, Matrix) and r.random() < 0.5))
        for rule in (STD140, STD430, SCALAR):
            block = Struct(f"Random{seed}_{rule.value}", tuple(fields))
            out.append(Shape(block, rule, uniform=rule is STD140 and r.random() < 0.5))
    return out
