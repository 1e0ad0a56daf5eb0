"""Constructs: the layer a frontend writes against, above one method per instruction.

Structured control flow (:mod:`spvbuild.constructs.control`): ``if_then``, ``if_else``,
``while_loop``, ``do_while``, ``for_range`` and ``switch`` as context managers that make
the blocks, merges and branches, ``break_``/``continue_``, and ``phi`` with incoming
pairs added later.

Values and resources (:mod:`spvbuild.constructs.values`, :mod:`spvbuild.constructs.resources`):
``type_of``, ``load`` and ``access_chain`` that take their types from the pointer,
``builtin`` variables made on first use, barriers and atomics from ``Scope`` and
``MemorySemantics`` values, and uniform, storage and push-constant blocks, sampled and
storage images in one call each.

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
from spvbuild.constructs.resources import (
    BlockVariable,
    input_variable,
    output_variable,
    push_constant_block,
    sampled_image,
    storage_block,
    storage_image,
    uniform_block,
)
from spvbuild.constructs.values import (
    access_chain,
    atomic,
    builtin,
    control_barrier,
    load,
    memory_barrier,
    pointee,
    type_of,
)

__all__ = [
    "SCALAR",
    "STD140",
    "STD430",
    "Array",
    "ArrayLayout",
    "BlockVariable",
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
    "access_chain",
    "atomic",
    "builtin",
    "control_barrier",
    "ctypes_type",
    "declare_struct",
    "do_while",
    "f16",
    "f32",
    "f64",
    "for_range",
    "i16",
    "i32",
    "i64",
    "i8",
    "if_else",
    "if_then",
    "input_variable",
    "lay_out",
    "load",
    "mat",
    "memory_barrier",
    "numpy_dtype",
    "output_variable",
    "phi",
    "pointee",
    "push_constant_block",
    "sampled_image",
    "storage_block",
    "storage_image",
    "switch",
    "type_of",
    "u16",
    "u32",
    "u64",
    "u8",
    "uniform_block",
    "vec",
    "while_loop",
]
