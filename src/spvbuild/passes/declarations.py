"""The types, constants and undefined values a pass needs, found among a program's globals
or added to them (:class:`DeclarationPool`), and the decorations it adds.

A declaration is found when one of the same opcode, result type and operands exists (a
float operand compared by its bits, so ``-0.0`` and ``0.0`` stay apart): the grammar's
``Type-Declaration`` and ``Constant-Creation`` classes less the specialization constants
(which a specialization may change), and ``OpUndef``.  What is added goes at the end of
the globals (after every type it names: each is found or added before its users), the
decorations after the last instruction of a section before the types.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import StorageClass
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT_FALSE,
    OP_CONSTANT_TRUE,
    OP_SPEC_CONSTANT,
    OP_SPEC_CONSTANT_COMPOSITE,
    OP_SPEC_CONSTANT_FALSE,
    OP_SPEC_CONSTANT_OP,
    OP_SPEC_CONSTANT_TRUE,
    OP_TYPE_BOOL,
    OP_TYPE_POINTER,
    OP_UNDEF,
)
from spvbuild.passes.program import Program
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

__all__ = ["SPEC_CONSTANTS", "DeclarationPool", "operands_key"]

SPEC_CONSTANTS = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.cls == "Constant-Creation" and info.name.startswith("OpSpecConstant")
)
"""The specialization constants' opcodes (``OpSpecConstant*``)."""

_FOUND = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.has_result
    and info.cls in ("Type-Declaration", "Constant-Creation")
    and opcode not in SPEC_CONSTANTS
) | {OP_UNDEF}
"""What :class:`DeclarationPool` looks up."""

assert {OP_SPEC_CONSTANT, OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE} <= SPEC_CONSTANTS
assert {OP_SPEC_CONSTANT_COMPOSITE, OP_SPEC_CONSTANT_OP} <= SPEC_CONSTANTS

_BEFORE_TYPES = frozenset(tables.SECTIONS[: tables.SECTIONS.index("types_globals")])


def operands_key(operands: Sequence[Any]) -> tuple[Any, ...]:
    """Operands as a key: floats by their bits (``0.0`` and ``-0.0``, NaNs apart)."""
    for value in operands:
        if isinstance(value, float | tuple):
            break
    else:  # (the commonest: ids, integers, enumerants only, the key is the operands)
        return operands if type(operands) is tuple else tuple(operands)
    return tuple(
        ("float", struct.pack("<d", v))
        if isinstance(v, float)
        else operands_key(v)
        if isinstance(v, tuple)
        else v
        for v in operands
    )


class DeclarationPool:
    """The declarations of a program's globals (``head``, the instructions before its
    functions), found or added; ``added`` (the new globals) and ``annotations`` (the new
    decorations) go into the head with :meth:`head_with_additions`."""

    def __init__(self, program: Program, head: list[Instruction]) -> None:
        self.program = program
        self.head = head
        self.added: list[Instruction] = []
        self.annotations: list[Instruction] = []
        self._known: dict[tuple[Any, ...], int] = {}
        # Adopted, not yet keyed: most passes that make a pool look up nothing, or only
        # once they have read every global (keyed on the first lookup, in order).
        self._pending: list[Instruction] = list(head)

    def adopt(self, inst: Instruction) -> None:
        """Make a declaration placed by the caller one that is found (the first of equal
        ones stays found; an instruction of another kind is ignored)."""
        self._pending.append(inst)

    def _known_now(self) -> dict[tuple[Any, ...], int]:
        """``_known`` with every adopted declaration keyed."""
        pending = self._pending
        if pending:
            known, key = self._known, self._key
            for inst in pending:
                if inst.opcode in _FOUND and inst.result_id is not None:
                    known.setdefault(
                        key(inst.opcode, inst.result_type, inst.operands), int(inst.result_id)
                    )
            pending.clear()
        return self._known

    def take_added(self) -> list[Instruction]:
        """The declarations added since the last call, which the caller places (they are
        no longer in ``added``)."""
        taken, self.added = self.added, []
        return taken

    @staticmethod
    def _key(opcode: int, result_type: int | None, operands: Sequence[Any]) -> tuple[Any, ...]:
        return (opcode, None if result_type is None else int(result_type), operands_key(operands))

    def find(self, opcode: int, result_type: int | None, operands: Sequence[Any]) -> int | None:
        """The id of a declaration of these words, None when there is none."""
        return self._known_now().get(self._key(opcode, result_type, operands))

    def get(self, opcode: int, result_type: int | None, operands: Sequence[Any]) -> int:
        """The id of a declaration of these words, added when there is none."""
        key = self._key(opcode, result_type, operands)
        known = self._known_now()
        found = known.get(key)
        if found is None:
            found = known[key] = self.program.new_id()
            self.added.append(
                Instruction(
                    opcode,
                    None if result_type is None else TypeId(result_type),
                    TypeId(found)
                    if tables.INSTRUCTIONS[opcode].cls == "Type-Declaration"
                    else Id(found),
                    tuple(operands),
                )
            )
        return found

    def bool_type(self) -> int:
        """``OpTypeBool``."""
        return self.get(OP_TYPE_BOOL, None, ())

    def boolean(self, value: bool) -> int:
        """``OpConstantTrue`` / ``OpConstantFalse``."""
        return self.get(OP_CONSTANT_TRUE if value else OP_CONSTANT_FALSE, self.bool_type(), ())

    def function_pointer(self, pointee: int) -> int:
        """``OpTypePointer Function pointee``."""
        return self.get(OP_TYPE_POINTER, None, (StorageClass.Function, TypeId(pointee)))

    def undef(self, type_id: int) -> int:
        """``OpUndef type_id``."""
        return self.get(OP_UNDEF, type_id, ())

    def annotate(self, inst: Instruction) -> None:
        """Add a decoration."""
        self.annotations.append(inst)

    def head_with_additions(self) -> list[Instruction]:
        """The head with the new decorations and globals in their places."""
        if not self.added and not self.annotations:
            return self.head
        at = 0
        for index, inst in enumerate(self.head):
            info = tables.INSTRUCTIONS.get(inst.opcode)
            if info is not None and info.section in _BEFORE_TYPES:
                at = index + 1
        return self.head[:at] + self.annotations + self.head[at:] + self.added
