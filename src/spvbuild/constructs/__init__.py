"""Constructs: the layer a frontend writes against, above one method per instruction.

Structured control flow (:mod:`spvbuild.constructs.control`): ``if_then``, ``if_else``,
``while_loop``, ``do_while``, ``for_range`` and ``switch`` as context managers that make
the blocks, merges and branches, ``break_``/``continue_``, and ``phi`` with incoming
pairs added later.

Block layouts (:mod:`spvbuild.constructs.layouts`): a buffer's data described once, laid
out by std140, std430 or scalar rules (or offsets the user gives, checked), declared in a
module with every layout decoration (:mod:`spvbuild.constructs.blocks`) and offered to
the host as ``ctypes`` and numpy types with the same bytes (:mod:`spvbuild.constructs.host`).
"""

from __future__ import annotations

from spvbuild.constructs.blocks import DeclaredStruct, declare_struct
from spvbuild.constructs.control import (
    Branch,
    Cases,
    Loop,
    Phi,
    do_while,
    for_range,
    if_else,
    if_then,
    phi,
    switch,
    while_loop,
)
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
    "Branch",
    "Cases",
    "DataType",
    "DeclaredStruct",
    "Field",
    "Loop",
    "Matrix",
    "MemberLayout",
    "Phi",
    "Rule",
    "Scalar",
    "Struct",
    "StructLayout",
    "Vector",
    "ctypes_type",
    "declare_struct",
    "do_while",
    "f16",
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "for_range",
    "if_else",
    "if_then",
    "lay_out",
    "mat",
    "numpy_dtype",
    "phi",
    "switch",
    "u8",
    "u16",
    "u32",
    "u64",
    "vec",
    "while_loop",
]
