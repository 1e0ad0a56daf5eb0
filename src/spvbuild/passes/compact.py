"""Compacting ids (``compact-ids``): every id renumbered 1..n in order of first appearance
in the module (result types, result ids and operands, in instruction order), the bound
made n + 1.

Words the grammar could not type (an unknown opcode, an extended set the grammar lacks)
may hold ids this pass cannot find: it refuses such an instruction with a PassError rather
than leave an id behind (constants' raw literal words, which are no ids, are fine).
"""

from __future__ import annotations

from spvbuild.errors import PassError
from spvbuild.generated.core import tables
from spvbuild.passes.ids import hidden_words, rename, used_ids
from spvbuild.passes.program import Program, opcode_name
from spvbuild.spirv.instruction import Instruction

__all__ = ["NAME", "compact_ids"]

NAME = "compact-ids"

_LITERAL_ONLY = frozenset(
    opcode for opcode, info in tables.INSTRUCTIONS.items() if info.cls == "Constant-Creation"
)
"""Instructions whose untyped words can only be literals (a NaN's payload)."""


def _check(inst: Instruction) -> None:
    if inst.opcode not in _LITERAL_ONLY and hidden_words(inst):
        raise PassError(
            NAME,
            "words the grammar cannot type may hold ids that cannot be renumbered",
            opcode_name(inst.opcode),
            inst.result_id,
        )


def compact_ids(program: Program) -> Program:
    """``program`` with its ids renumbered 1..n in order of first appearance (a new
    program; ``program`` unchanged)."""
    numbers: dict[int, int] = {}

    def number(old: int) -> int:
        new = numbers.get(old)
        if new is None:
            new = numbers[old] = len(numbers) + 1
        return new

    for inst in program.instructions:
        _check(inst)
        if inst.result_type is not None:
            number(int(inst.result_type))
        if inst.result_id is not None:
            number(int(inst.result_id))
        for used in used_ids(inst._replace(result_type=None)):
            number(used)
    out = program.copy()
    out.instructions = [rename(inst, numbers.__getitem__) for inst in program.instructions]
    out.bound = len(numbers) + 1
    return out
