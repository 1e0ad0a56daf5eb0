"""What the passes that rewrite values share: a map of replaced ids followed to its end
(:class:`Replacements`), the names and decorations of removed ids dropped
(:func:`without_targets`), the module's type and constant declarations by id
(:class:`Declarations`), and one ``OpUndef`` per type made on demand (:class:`Undefs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Decoration, MemoryAccess, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_DECORATE,
    OP_TYPE_ARRAY,
    OP_TYPE_INT,
    OP_TYPE_MATRIX,
    OP_TYPE_POINTER,
    OP_TYPE_STRUCT,
    OP_TYPE_VECTOR,
    OP_UNDEF,
)
from spvbuild.passes.effects import VOLATILE
from spvbuild.passes.ids import ids_in, is_targeting, rename
from spvbuild.passes.program import Program
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "Declarations",
    "Replacements",
    "Undefs",
    "accesses_volatile",
    "harmless_decoration",
    "without_targets",
]

HARMLESS_DECORATIONS = frozenset(
    {Decoration.RelaxedPrecision, Decoration.AliasedPointer, Decoration.RestrictPointer}
)
"""Decorations a pass may drop with the id they decorate (a value rewritten away): a
precision hint, and the aliasing promises a variable holding a physical pointer must
carry (dropping a promise is always safe)."""


def harmless_decoration(inst: Instruction) -> bool:
    """True for a name, or a decoration of :data:`HARMLESS_DECORATIONS`."""
    if tables.INSTRUCTIONS[inst.opcode].section == "debug_names":
        return True
    if inst.opcode != OP_DECORATE or len(inst.operands) < 2:
        return False
    value = inst.operands[1]
    if isinstance(value, EnumerantParameters):
        value = value.enumerant
    return value in HARMLESS_DECORATIONS


def _volatile(value: Any) -> bool:
    if isinstance(value, EnumerantParameters):
        return _volatile(value.enumerant)
    if isinstance(value, list | tuple):
        return any(_volatile(v) for v in value)
    return isinstance(value, MemoryAccess) and any(
        isinstance(bit, MemoryAccess) and bool(value & bit) for bit in VOLATILE
    )


def accesses_volatile(inst: Instruction) -> bool:
    """True when a load's or store's memory operands make it a side effect."""
    return any(_volatile(v) for v in inst.operands[1:])


class Replacements(dict[int, int]):
    """Removed id → the id that now stands for it (which may itself be replaced: lookups
    follow the chain to its end)."""

    def resolve(self, value: int) -> int:
        """The id standing for ``value`` now."""
        seen = 0
        while value in self and seen <= len(self):
            value = self[value]
            seen += 1
        return value

    def apply(self, inst: Instruction) -> Instruction:
        """``inst`` with every replaced id it uses replaced (itself when it uses none)."""
        if not self:
            return inst
        for value in inst.operands:
            if isinstance(value, Id):
                if value in self:
                    return rename(inst, self.resolve)
            elif isinstance(value, tuple | list | EnumerantParameters):
                if any(u in self for u in ids_in(value)):
                    return rename(inst, self.resolve)
        return inst


def without_targets(instructions: Iterable[Instruction], removed: set[int]) -> list[Instruction]:
    """``instructions`` less the names and decorations whose target is in ``removed``."""
    return [i for i in instructions if not (is_targeting(i) and int(i.operands[0]) in removed)]


class Declarations:
    """The types and constants the head of a module declares, by id.

    Fields: ``by_id`` (result id → its declaring instruction, every instruction of the
    head with a result), ``pointers`` ((storage class, pointee) → the first pointer type
    declaring it), ``program`` (where new ids come from), ``added`` (declarations made
    since, for the end of the head).
    """

    def __init__(self, head: list[Instruction], program: Program) -> None:
        self.by_id: dict[int, Instruction] = {}
        self.pointers: dict[tuple[Any, int], int] = {}
        self.program = program
        self.added: list[Instruction] = []
        for inst in head:
            self._note(inst)

    def _note(self, inst: Instruction) -> None:
        if inst.result_id is None:
            return
        rid = int(inst.result_id)
        self.by_id.setdefault(rid, inst)
        if (
            inst.opcode == OP_TYPE_POINTER
            and len(inst.operands) >= 2
            and isinstance(inst.operands[1], int)
        ):
            self.pointers.setdefault((inst.operands[0], int(inst.operands[1])), rid)

    def opcode(self, rid: int) -> int | None:
        """The opcode declaring ``rid`` in the head (None when the head does not)."""
        inst = self.by_id.get(rid)
        return None if inst is None else inst.opcode

    def integer(self, rid: int) -> int | None:
        """The value of an integer ``OpConstant`` (None for anything else)."""
        inst = self.by_id.get(rid)
        if inst is None or inst.opcode != OP_CONSTANT or inst.result_type is None:
            return None
        if self.opcode(int(inst.result_type)) != OP_TYPE_INT or not inst.operands:
            return None
        value = inst.operands[0]
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def element_path(self, pointee: int, indices: Sequence[object]) -> tuple[int, ...] | None:
        """The literal indices an access chain of ``indices`` into a ``pointee`` names,
        when each is an integer ``OpConstant`` within its composite's bounds (None
        otherwise)."""
        current = pointee
        path = []
        for index in indices:
            value = self.integer(int(index)) if isinstance(index, Id) else None
            inst = self.by_id.get(current)
            if value is None or inst is None or not inst.operands:
                return None
            count: int | None
            if inst.opcode == OP_TYPE_STRUCT:
                members = inst.operands[0]
                count = len(members)
                following = members[value] if 0 <= value < count else None
            elif inst.opcode == OP_TYPE_ARRAY and len(inst.operands) > 1:
                count = self.integer(int(inst.operands[1]))
                following = inst.operands[0]
            elif inst.opcode in (OP_TYPE_VECTOR, OP_TYPE_MATRIX) and len(inst.operands) > 1:
                count = inst.operands[1] if isinstance(inst.operands[1], int) else None
                following = inst.operands[0]
            else:
                return None
            if count is None or not 0 <= value < count or not isinstance(following, int):
                return None
            path.append(value)
            current = int(following)
        return tuple(path)

    def pointee(self, pointer_type: int, storage: StorageClass) -> int | None:
        """The type a pointer type of class ``storage`` points to (None for another)."""
        inst = self.by_id.get(pointer_type)
        if inst is None or inst.opcode != OP_TYPE_POINTER or len(inst.operands) < 2:
            return None
        if inst.operands[0] != storage or not isinstance(inst.operands[1], int):
            return None
        return int(inst.operands[1])

    def pointer(self, storage: StorageClass, pointee: int) -> int:
        """A pointer type to ``pointee`` of class ``storage`` (declared when missing)."""
        found = self.pointers.get((storage, pointee))
        if found is None:
            found = self.program.new_id()
            self.declare(Instruction(OP_TYPE_POINTER, None, Id(found), (storage, Id(pointee))))
        return found

    def declare(self, inst: Instruction) -> None:
        """Add ``inst`` at the end of the head."""
        self.added.append(inst)
        self._note(inst)


class Undefs:
    """``OpUndef`` of each type, the head's own where it has one, made when missing (in
    ``declarations.added``)."""

    def __init__(self, declarations: Declarations) -> None:
        self.declarations = declarations
        self.by_type: dict[int, int] = {}
        for rid, inst in declarations.by_id.items():
            if inst.opcode == OP_UNDEF and inst.result_type is not None:
                self.by_type.setdefault(int(inst.result_type), rid)

    def of(self, type_id: int) -> int:
        """An ``OpUndef`` of ``type_id``."""
        found = self.by_type.get(type_id)
        if found is None:
            found = self.declarations.program.new_id()
            self.declarations.declare(Instruction(OP_UNDEF, TypeId(type_id), Id(found), ()))
            self.by_type[type_id] = found
        return found
