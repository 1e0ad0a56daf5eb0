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
from operator import itemgetter

from spvbuild.binary.encoder import Encoder
from spvbuild.errors import PassError, SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_FUNCTION
from spvbuild.passes.ids import IdMap, is_targeting, rename, uses_any
from spvbuild.passes.opcode_sets import MERGED_OPCODES as MERGED_OPCODES
from spvbuild.passes.opcode_sets import TARGETING
from spvbuild.passes.program import Program, encoder_of, opcode_name
from spvbuild.spirv.instruction import Instruction

__all__ = ["MERGED_OPCODES", "NAME", "remove_duplicates"]

NAME = "remove-duplicates"

_OPCODE = itemgetter(0)  # an instruction's opcode (field 0), for a scan in C
_GLOBAL_ONLY = MERGED_OPCODES | TARGETING
"""What this pass looks for: declarations it merges, names and decorations."""


def remove_duplicates(program: Program) -> Program:
    """``program`` with its duplicate types, constants, imports and decorations merged (a
    new program; ``program`` unchanged).  PassError for an instruction the encoder
    refuses."""
    words = _Words(program)
    merged: dict[int, int] = {}  # id → the id it merges into
    new = IdMap(merged)
    instructions = program.instructions
    # The functions: left as they are when nothing merges and nothing in them is a
    # declaration or a name or decoration (a valid module's never are), checked in C.
    opcodes = list(map(_OPCODE, instructions))
    body = opcodes.index(OP_FUNCTION) if OP_FUNCTION in opcodes else len(opcodes)
    plain_body = _GLOBAL_ONLY.isdisjoint(opcodes[body:])
    scanned = instructions[:body] if plain_body else instructions

    decorations: defaultdict[int, list[Instruction]] = defaultdict(list)
    for inst in scanned:
        if is_targeting(inst) and tables.INSTRUCTIONS[inst.opcode].section == "annotations":
            decorations[int(inst.operands[0])].append(inst)

    first: dict[tuple[object, ...], int] = {}
    for inst in scanned:
        if inst.opcode not in MERGED_OPCODES or inst.result_id is None:
            continue
        rid = int(inst.result_id)
        key_words = list(words(rename(inst, new) if merged else inst))
        del key_words[2 if inst.result_type is not None else 1]  # the result id
        key = (tuple(key_words), _decoration_key(decorations.get(rid), words, new))
        kept = first.setdefault(key, rid)
        if kept != rid:
            merged[rid] = kept
    out = program.copy()
    seen: set[tuple[int, ...]] = set()
    result: list[Instruction] = []
    in_functions = False
    for inst in instructions[:body] if plain_body and not merged else instructions:
        if inst.result_id is not None and int(inst.result_id) in merged:
            continue
        if is_targeting(inst) and int(inst.operands[0]) in merged:
            continue  # the one kept has the same decorations; a second name would clash
        in_functions = in_functions or inst.opcode == OP_FUNCTION
        changed = rename(inst, new) if merged and uses_any(inst, merged) else inst
        if not in_functions and changed.result_id is None:
            repeated = words(changed)
            if repeated in seen:
                continue
            seen.add(repeated)
        result.append(changed)
    if plain_body and not merged:
        result += instructions[body:]
    out.instructions = result
    return out


class _Words:
    """An instruction of ``program`` → its words: those it was read from where no rename
    changed it, else the encoder's (PassError for one it refuses).  (An object, not a
    closure: compiled, a closure and its scope hold each other until a collection.)"""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.read_words = program.read_words()
        self.encoder: Encoder | None = None

    def __call__(self, inst: Instruction) -> tuple[int, ...]:
        found = self.read_words(inst)
        if found is not None:
            return found
        if self.encoder is None:
            self.encoder = encoder_of(self.program.instructions)
        try:
            return tuple(self.encoder.instruction(inst))
        except SpvbuildError as exc:
            raise PassError(NAME, str(exc), opcode_name(inst.opcode), inst.result_id) from None


def _decoration_key(
    decorations: list[Instruction] | None, words: _Words, new: IdMap
) -> tuple[tuple[int, ...], ...]:
    """The words of a declaration's decorations, sorted, their target left out."""
    if not decorations:
        return ()  # (most types and constants: nothing to sort)
    found = [words(rename(d, new) if new.table else d) for d in decorations]
    return tuple(sorted((w[0], *w[2:]) for w in found))
