"""Removing duplicates (``remove-duplicates``): what a module declares twice, declared once.

Merged, in module order, each into the first of its kind: types (the grammar's
``Type-Declaration`` class), constants (``Constant-Creation``) and extended-set imports
that have the same words once their result id is set aside and the ids they use are merged
(so two arrays of two equal element types merge too), and the same decorations (names do not count; a struct
or an array with other layout decorations stays apart, spirv-link's and rspirv's known
mistake); their uses then name the one kept, and their own names and decorations go.  Then every name, decoration, capability,
extension or other instruction outside the functions that defines nothing and repeats one
before it word for word goes.
"""

from __future__ import annotations

from collections import defaultdict

from spvbuild.binary.encoder import Encoder
from spvbuild.errors import PassError, SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_FUNCTION
from spvbuild.passes.ids import is_targeting, rename
from spvbuild.passes.opcode_sets import MERGED_OPCODES as MERGED_OPCODES
from spvbuild.passes.program import Program, encoder_of, opcode_name
from spvbuild.spirv.instruction import Instruction

__all__ = ["MERGED_OPCODES", "NAME", "remove_duplicates"]

NAME = "remove-duplicates"


def remove_duplicates(program: Program) -> Program:
    """``program`` with its duplicate types, constants, imports and decorations merged (a
    new program; ``program`` unchanged).  PassError for an instruction the encoder
    refuses."""
    encoder: Encoder | None = None
    read_words = program.read_words()
    merged: dict[int, int] = {}  # id → the id it merges into

    def new(old: int) -> int:
        return merged.get(old, old)

    def words(inst: Instruction) -> tuple[int, ...]:
        nonlocal encoder
        found = read_words(inst)  # (an instruction no rename changed: its words as read)
        if found is not None:
            return found
        if encoder is None:
            encoder = encoder_of(program.instructions)
        try:
            return tuple(encoder.instruction(inst))
        except SpvbuildError as exc:
            raise PassError(NAME, str(exc), opcode_name(inst.opcode), inst.result_id) from None

    decorations: dict[int, list[Instruction]] = defaultdict(list)
    for inst in program.instructions:
        if is_targeting(inst) and tables.INSTRUCTIONS[inst.opcode].section == "annotations":
            decorations[int(inst.operands[0])].append(inst)

    def decoration_key(rid: int) -> tuple[tuple[int, ...], ...]:
        if rid not in decorations:
            return ()  # (most types and constants: nothing to sort)
        found = (words(rename(d, new) if merged else d) for d in decorations[rid])
        return tuple(sorted((w[0], *w[2:]) for w in found))  # the target left out

    first: dict[tuple[object, ...], int] = {}
    for inst in program.instructions:
        if inst.opcode not in MERGED_OPCODES or inst.result_id is None:
            continue
        rid = int(inst.result_id)
        key_words = list(words(rename(inst, new) if merged else inst))
        del key_words[2 if inst.result_type is not None else 1]  # the result id
        key = (tuple(key_words), decoration_key(rid))
        kept = first.setdefault(key, rid)
        if kept != rid:
            merged[rid] = kept
    out = program.copy()
    seen: set[tuple[int, ...]] = set()
    instructions = []
    in_functions = False
    for inst in program.instructions:
        if inst.result_id is not None and int(inst.result_id) in merged:
            continue
        if is_targeting(inst) and int(inst.operands[0]) in merged:
            continue  # the one kept has the same decorations; a second name would clash
        in_functions = in_functions or inst.opcode == OP_FUNCTION
        changed = rename(inst, new) if merged else inst
        if not in_functions and changed.result_id is None:
            repeated = words(changed)
            if repeated in seen:
                continue
            seen.add(repeated)
        instructions.append(changed)
    out.instructions = instructions
    return out
