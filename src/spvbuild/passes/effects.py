"""Which instructions only compute their result: what a pass may drop when the result is
unused.

Derived from the grammar's instruction classes (``InstructionInfo.cls``), with the few
facts the classes do not carry kept here as data:

* :data:`PURE_CLASSES`: the classes whose instructions with a result do nothing but
  compute it (reading memory included: an unused load can go).  Classes left out
  (``Atomic``, ``Barrier``, ``Function``: a call, ``Group``: ``OpGroupAsyncCopy`` copies,
  ``Primitive``, ``Pipe``, ``Device-Side_Enqueue``, ``Reserved``/``@exclude``: the
  extensions' instructions, too varied to trust) keep every instruction.
* :data:`PURE_OPCODES`: single instructions of other classes that are pure (``OpPhi``,
  ``OpExtInstImport``).
* :data:`VOLATILE`: operand values that make an access a side effect (a ``Volatile`` load).
* :data:`PURE_EXT_SETS`: the extended sets whose instructions are pure, less those that
  write through a pointer operand (GLSL.std.450 ``Modf``, ``Frexp``).  Any other set's
  ``OpExtInst`` stays (the DebugInfo sets' included: stripping them is its own pass).
"""

from __future__ import annotations

from typing import Any

from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import ImageOperands, MemoryAccess
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT, OP_PHI
from spvbuild.generated.extinst import set_module
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["PURE_CLASSES", "PURE_EXT_SETS", "PURE_OPCODES", "VOLATILE", "is_pure", "is_volatile"]

PURE_CLASSES = frozenset(
    {
        "Arithmetic",
        "Bit",
        "Relational_and_Logical",
        "Conversion",
        "Composite",
        "Constant-Creation",
        "Type-Declaration",
        "Memory",
        "Image",
        "Derivative",
        "Non-Uniform",
        "Miscellaneous",
        "Debug",
    }
)
"""Instruction classes whose instructions with a result only compute it."""

PURE_OPCODES = frozenset({OP_PHI, OP_EXT_INST_IMPORT})
"""Pure instructions of classes not in :data:`PURE_CLASSES` (an import only names a set)."""

VOLATILE: tuple[Any, ...] = (MemoryAccess.Volatile, ImageOperands.VolatileTexel)
"""Mask bits that make a memory access a side effect."""

PURE_EXT_SETS: dict[str, frozenset[str]] = {"GLSL.std.450": frozenset({"Modf", "Frexp"})}
"""Extended sets whose instructions are pure → the names of those that are not."""

_PURE = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.has_result and (info.cls in PURE_CLASSES or opcode in PURE_OPCODES)
)
_EXT_INST = tables.EXT_INST_OPCODES


_VOLATILE_KINDS = frozenset(type(bit) for bit in VOLATILE)
"""The flag types a volatile bit belongs to."""

_MAY_BE_VOLATILE = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if any(op.kind in {kind.__name__ for kind in _VOLATILE_KINDS} for op in info.operands)
)
"""The opcodes with an operand of a kind a volatile bit belongs to (the grammar's layout):
no other instruction can be volatile."""


def _volatile(value: Any) -> bool:
    kind = type(value)
    if kind in _VOLATILE_KINDS:
        return any(kind is type(bit) and value & bit for bit in VOLATILE)
    if kind is Id or kind is TypeId or kind is int or value is None:
        return False
    if isinstance(value, EnumerantParameters):
        return _volatile(value.enumerant)
    if isinstance(value, list | tuple):
        return any(_volatile(v) for v in value)
    return any(type(value) is type(bit) and value & bit for bit in VOLATILE)


def _pure_ext(inst: Instruction, import_of: dict[int, str]) -> bool:
    if len(inst.operands) < 2 or not isinstance(inst.operands[1], int):
        return False
    name = import_of.get(int(inst.operands[0]))
    if name is None or name not in PURE_EXT_SETS:
        return False
    module = set_module(name)
    info = module.INSTRUCTIONS.get(int(inst.operands[1])) if module is not None else None
    return info is not None and info.name not in PURE_EXT_SETS[name]


def is_pure(inst: Instruction, import_of: dict[int, str]) -> bool:
    """True when ``inst`` only computes its result (dropping it unused changes nothing);
    ``import_of`` maps each OpExtInstImport id to its set's name."""
    if inst.opcode in _EXT_INST:
        return inst.result_id is not None and _pure_ext(inst, import_of)
    opcode = inst.opcode
    return opcode in _PURE and (
        opcode not in _MAY_BE_VOLATILE or not any(_volatile(v) for v in inst.operands)
    )


def is_volatile(inst: Instruction) -> bool:
    """True when an operand of ``inst`` holds a bit of :data:`VOLATILE`."""
    return inst.opcode in _MAY_BE_VOLATILE and any(_volatile(v) for v in inst.operands)
