"""Constructs: the layer a frontend writes against, above one method per instruction.

Block layouts (:mod:`spvbuild.constructs.layouts`): a buffer's data described once, laid
out by std140, std430 or scalar rules (or offsets the user gives, checked), declared in a
module with every layout decoration (:mod:`spvbuild.constructs.blocks`) and offered to
the host as ``ctypes`` and numpy types with the same bytes (:mod:`spvbuild.constructs.host`).
"""

from __future__ import annotations

from spvbuild.constructs.blocks import DeclaredStruct, declare_struct
from spvbuild.constructs.host import ctypes_type, numpy_dtype
from spvbuild.constructs.layouts import (
    SCALAR,
    STD140,
    STD430,
    Array,
    ArrayLayout,
    DataType,
    Field,
    Matrix,
    MemberLayout,
    Rule,
    Scalar,
    Struct,
    StructLayout,
    Vector,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
    lay_out,
    mat,
    u8,
    u16,
    u32,
    u64,
    vec,
)

__all__ = [
    "SCALAR",
    "STD140",
    "STD430",
    "Array",
    "ArrayLayout",
    "DataType",
    "DeclaredStruct",
    "Field",
    "Matrix",
    "MemberLayout",
    "Rule",
    "Scalar",
    "Struct",
    "StructLayout",
    "Vector",
    "ctypes_type",
    "declare_struct",
    "f16",
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "lay_out",
    "mat",
    "numpy_dtype",
    "u8",
    "u16",
    "u32",
    "u64",
    "vec",
]
