"""The words paths: one instruction of a builder call, checked, encoded, deduplicated and
recorded, its words kept for serialization.

:func:`put` takes the words a generated method made at the call (every operand checked
inline there); :func:`emit` is the general path, which encodes the record with the
module's :func:`~spvbuild.ir.literals.encoder` so that a wrong operand is an error of the
call.  Both deduplicate by words (:func:`words_key`), check the target profile, route the
record (:mod:`spvbuild.ir.routing`) and keep its words (:class:`~spvbuild.ir.body.KeptWords`).
"""

from __future__ import annotations

from typing import Any

from spvbuild.errors import BuildError, SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_EXTENSION,
    OP_FUNCTION,
    OP_FUNCTION_CALL,
    OP_SWITCH,
    OP_TYPE_BOOL,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
    OP_TYPE_VECTOR,
)
from spvbuild.generated.core.type_rules import TYPE_RULES
from spvbuild.ir.body import Block, Function
from spvbuild.ir.literals import encoder
from spvbuild.ir.requirements import (
    NEEDS_BY_KEY,
    instruction_needs,
    walked_needs,
    with_result_type_needs,
)
from spvbuild.ir.routing import (
    AGGREGATES,
    BLOCK_END,
    DECORATION,
    EXT_INST,
    FUNCTION,
    FUNCTION_END,
    FUNCTION_STORAGE,
    GLOBAL_VARIABLE,
    GLOBAL_WATCHED,
    LABEL,
    MERGED,
    ROUTED_BY_RECORD,
    ROUTES,
    TRIGGER_DECORATIONS,
    add_global,
    enter,
    may_trigger,
    note,
    record,
    set_section,
)
from spvbuild.ir.state import DEFINITION_CHAINS, ModuleState, at_call, new_link
from spvbuild.ir.target_rules import check_call as check_rules
from spvbuild.ir.targets import declared_capabilities
from spvbuild.ir.type_checks import check_call
from spvbuild.ir.type_shapes import declared_bits
from spvbuild.spirv.arguments import shown
from spvbuild.spirv.call_site import caller_location
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

__all__ = ["check_target", "defined_once", "emit", "put", "reintern", "words_key"]

RESULT_TYPE_CAPABILITIES = tables.RESULT_TYPE_CAPABILITIES
_new_record = tuple.__new__  # Instruction._make's way: every field given, in order
_MISSING: Any = object()  # no entry (an entry may be None)


def emit(
    state: ModuleState,
    opcode: int,
    result_type: TypeId | None,
    operands: tuple[Any, ...],
    result_id: Id | TypeId | None,
    has_result: bool,
    ext_set: str | None,
) -> int:
    """Check, encode, deduplicate and record one instruction of a builder call; its
    result id.

    The instruction is encoded here, once: a wrong operand is an error of this call,
    with the user's call site, and a failed call changes nothing; its words are kept
    (``state._kept``, a :class:`~spvbuild.ir.body.KeptWords`) for serialization, which
    joins them.  Deduplicated instructions
    (types, constants, ...) are keyed by their words without the result id, so equal
    bits are one id whatever Python values gave them (1 and 1.0, an IntEnum and its
    int).
    """
    bound = state._bound
    try:
        rid: int | None = None
        if has_result:
            rid = bound if result_id is None else defined_once(state, opcode, result_id)
        inst = Instruction(opcode, result_type, rid, operands, ext_set)
        used = state._call_used
        used.clear()
        words = encoder(state).instruction(inst)
        if used and max(used) >= bound:
            beyond = min(i for i in used if i >= bound)
            raise BuildError(
                f"{used[beyond]} is %{beyond}, an id this module has not handed out (its ids "
                f"are below %{bound}; new_id() reserves one for a forward reference)"
            )
        if state._value_types is not None and opcode in TYPE_RULES:
            check_call(state, opcode, result_type, operands)  # (the operands encode: well-formed)
        key = None
        if result_id is None and (
            opcode in tables.DEDUPLICATED or (state.merge_aggregates and opcode in AGGREGATES)
        ):
            key = words_key(inst, words)
            found = state._interned.get(key, _MISSING)
            if found is not _MISSING:
                return 0 if found is None else int(found)
        needs = None
        if state.target is not None or opcode in RESULT_TYPE_CAPABILITIES:
            needs = needs_at_call(state, inst)
        if has_result and result_id is None:
            state._bound = bound + 1
        record(state, inst)
        if result_id is not None:
            state._pending_ids.discard(int(result_id))
        if state._sites is not None:
            state._sites[id(inst)] = (inst, caller_location(2) or "?")
    except SpvbuildError as exc:
        state._bound = bound
        raise at_call(exc) from None
    if opcode != OP_SWITCH and (result_type is None or result_type in state._definitions):
        # Literal widths come from a type defined already, so these words are final.
        state._kept[id(inst)] = (inst, words, dict(used) if used else None, needs)
    if key is not None:
        state._interned[key] = Id(rid) if rid is not None else None
    return rid or 0


def check_target(
    state: ModuleState,
    inst: Instruction,
    needs: tuple[tuple[Any, str], ...] | None,
    needs_key: tuple[Any, ...] | None,
) -> None:
    """Refuse (BuildError) what the target profile does not allow in ``inst``, whose
    needs a words path listed (None: found here by walking it).  A needs key allowed
    with no extension declared is allowed for good (the profile keeps it, per version);
    the instructions that declare (OpCapability, OpExtension) and those with result-type
    needs are checked each time."""
    target = state.target
    assert target is not None
    opcode = inst.opcode
    if opcode in target.watched:
        check_rules(state, target.info, inst)
    if needs is None or opcode in RESULT_TYPE_CAPABILITIES:
        needs = with_result_type_needs(inst, walked_needs(inst), state._definitions)
        assert needs is not None
    lasting = (
        needs_key is not None
        and opcode not in (OP_CAPABILITY, OP_EXTENSION)
        and opcode not in RESULT_TYPE_CAPABILITIES
    )
    if lasting and target.allows_needs(inst, needs, state.version, needs_key):
        return
    declared = [str(i.operands[0]) for i in state.sections["extensions"]]
    if opcode == OP_EXTENSION:
        declared.append(str(inst.operands[0]))
    target.check_instruction(
        inst, needs, state.version, declared, declared_capabilities(state.sections)
    )


def needs_at_call(state: ModuleState, inst: Instruction) -> tuple[tuple[Any, str], ...]:
    """What ``inst`` needs (its walk, and its result type's needs), checked against the
    target profile when there is one: a BuildError names what it does not allow."""
    needs = with_result_type_needs(inst, walked_needs(inst), state._definitions)
    assert needs is not None
    target = state.target
    if target is not None:
        if inst.opcode in target.watched:
            check_rules(state, target.info, inst)
        declared = [str(i.operands[0]) for i in state.sections["extensions"]]
        if inst.opcode == OP_EXTENSION:
            declared.append(str(inst.operands[0]))
        target.check_instruction(
            inst, needs, state.version, declared, declared_capabilities(state.sections)
        )
    return needs


_NUMBER_TYPES = frozenset((OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR))
"""The types whose ``TYPE_*`` bits the generated fast paths read."""


def put(
    state: ModuleState,
    opcode: int,
    result_type: TypeId | None,
    operands: tuple[Any, ...],
    words: list[int],
    slot: int,
    needs_key: tuple[Any, ...] | None = None,
    ext_set: str | None = None,
) -> int:
    """Take the words a generated method made at the call; the result id (0: none).

    The method checked every operand (ids handed out already, below the bound;
    32-bit literals; strings; enumerants without parameters), so what is left is
    deduplication, whose key is ``words`` as given (without the result id), and
    routing.  ``words[0]`` counts the result id that goes in at ``slot`` (0: the
    instruction has none); the method sent a longer instruction than a word count can
    say down the general path.  The record is kept for routing and inspection, its words
    for serialization, with what it needs when the method gave a ``needs_key`` (the
    operand values that decide it: see :func:`instruction_needs`).
    """
    merged, how, section = ROUTES.get(opcode, ROUTED_BY_RECORD)
    types = state._value_types
    if types is not None and opcode in TYPE_RULES:
        check_call(state, opcode, result_type, operands)
    key = None
    if merged and (merged == MERGED or state.merge_aggregates):
        key = tuple(words)
        found = state._interned.get(key, _MISSING)
        if found is not _MISSING:
            return 0 if found is None else int(found)
    rid = None
    if slot:
        rid = state._bound
        words.insert(slot, rid)
        state._bound = rid + 1  # (given back if routing.record refuses it)
    inst = _new_record(Instruction, (opcode, result_type, rid, operands, ext_set))
    needs = None if needs_key is None else NEEDS_BY_KEY.get(needs_key)
    if needs is None and needs_key is not None:
        needs = instruction_needs(inst, needs_key)
    if opcode in RESULT_TYPE_CAPABILITIES:
        needs = with_result_type_needs(inst, needs, state._definitions)
    if state.target is not None:
        try:
            check_target(state, inst, needs, needs_key)
        except BuildError as exc:
            if rid is not None:
                state._bound = rid
            raise at_call(exc) from None
    if types is not None and rid is not None and result_type is not None and opcode != OP_FUNCTION:
        types[rid] = result_type  # (a function's id is no value of its return type)
    if how <= DECORATION:
        # What routing.record does with it, without its other cases.
        if rid is not None:
            state._definitions[rid] = inst
            if types is not None:
                # (state.note_definition, inline.  A link's second item tells its kind
                # apart: None, a words path's dedup key; a first word, >= 0x10000, its
                # words; an opcode, below, a record's fields, from routing.record.)
                before = state._defined_so_far
                if before is not None:
                    link = (before, None, rid, *key) if key is not None else (before, *words)
                    after = DEFINITION_CHAINS.get(link)
                    state._defined_so_far = after if after is not None else new_link(link)
                if opcode in _NUMBER_TYPES:  # (the generated fast paths may accept its values)
                    declared_bits(state, rid, opcode, operands)
        state.sections[section].append(inst)
        if how and (
            how == DECORATION
            and words[2] in TRIGGER_DECORATIONS
            or (how == GLOBAL_WATCHED and may_trigger(inst))
        ):
            state._rules_work = True  # (a decoration's word, see routing.may_trigger)
        state._kept[id(inst)] = (inst, words, None, needs)
        if key is not None:
            state._interned[key] = None if rid is None else Id(rid)
        return rid or 0
    block = state._fast_block
    if block is not None and (
        how <= BLOCK_END
        or (
            how == EXT_INST
            and ext_set is not None
            and set_section(ext_set, operands[1]) == "functions"
        )
    ):
        # What routing.record does with it in an open block (no merge waiting for its
        # branch), without its other cases.
        if rid is not None:
            state._definitions[rid] = inst
        block.items.append(inst)
        if (
            opcode == OP_FUNCTION_CALL
            or (state._listed and not state._listed.isdisjoint(words))
            or (state._pending_ids and not state._pending_ids.isdisjoint(words))
        ):
            note(state, inst)
        state._run = None  # a new run of words starts after a record
        if how == BLOCK_END:
            block.terminated = True
            state._fast_block = None
    elif (
        how == FUNCTION
        and rid is not None
        and (state._function is None or state._function.ended)
    ):
        state._definitions[rid] = inst
        state._function = Function(inst, noted=state._noting)
        enter(state, None)
        state.functions.append(state._function)
    elif (
        how == FUNCTION_END
        and (function := state._function) is not None
        and not function.ended
        and (state._block is None or state._block.terminated)
    ):
        function.ended = True
        state._function = None
        enter(state, None)
    elif how == GLOBAL_VARIABLE and rid is not None and operands[0] != FUNCTION_STORAGE:
        state._definitions[rid] = inst
        state.sections["types_globals"].append(inst)
        add_global(state, rid, int(operands[0]))
    elif (
        how == LABEL
        and rid is not None
        and (function := state._function) is not None
        and not function.ended
        and (state._block is None or state._block.terminated)
    ):
        state._definitions[rid] = inst
        new_block = Block(Id(rid))
        function.blocks.append(new_block)
        state._blocks_by_label[rid] = new_block
        enter(state, new_block)
    else:
        try:
            record(state, inst)
        except SpvbuildError as exc:
            if rid is not None:
                state._bound = rid
            raise at_call(exc) from None
    state._kept[id(inst)] = (inst, words, None, needs)
    if key is not None:
        state._interned[key] = None if rid is None else Id(rid)
    return rid or 0

def words_key(inst: Instruction, words: list[int]) -> tuple[int, ...]:
    """The dedup key of an instruction: its words without its result id."""
    if inst.result_id is None:
        return tuple(words)
    slot = 2 if inst.result_type is not None else 1
    return (*words[:slot], *words[slot + 1 :])


def reintern(state: ModuleState) -> None:
    """Rebuild the dedup map from the stored instructions (after from_binary, rewrite)."""
    interned: dict[Any, Id | None] = {}
    for name in (
        "ext_inst_imports",
        "memory_model",
        "debug_strings",
        "debug_names",
        "annotations",
        "types_globals",
        "execution_modes",
        "entry_points",
        "debug_module_processed",
    ):
        for inst in state.sections.get(name, ()):
            opcode = inst.opcode
            if opcode not in tables.DEDUPLICATED and not (
                state.merge_aggregates and opcode in AGGREGATES
            ):
                continue
            try:
                key = words_key(inst, encoder(state).instruction(inst))
            except SpvbuildError:
                continue
            rid = inst.result_id
            interned.setdefault(key, None if rid is None else Id(rid))
    state._interned = interned


def defined_once(state: ModuleState, opcode: int, result_id: Id | TypeId) -> int:
    """A ``result_id`` given to a call: reserved earlier and not yet defined."""
    info = tables.INSTRUCTIONS.get(opcode)
    where = f"{info.name if info is not None else f'opcode {opcode}'} operand 'result_id'"
    if not isinstance(result_id, Id) or not 0 < result_id < state._bound:
        raise BuildError(
            f"{where}: {shown(result_id)} was not reserved with new_id()/new_type_id()"
        )
    defined = state._definitions.get(int(result_id))
    if defined is not None:
        other = tables.INSTRUCTIONS.get(defined.opcode)
        by = other.name if other is not None else f"opcode {defined.opcode}"
        raise BuildError(
            f"{where}: {result_id!r} is already defined by {by}: an id is defined once"
        )
    return int(result_id)
