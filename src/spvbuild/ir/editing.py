"""Editing a module under construction: rewriting its records, finding, replacing uses,
removing, stripping the core debug instructions, inserting into a block, adding a phi's
pairs.

Every change goes through :func:`rewrite` or the block lists, and every cache is kept
true: a later call never hands out a removed or changed instruction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from spvbuild.binary.encoder import Encoder
from spvbuild.errors import BuildError, SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import (
    OP_LOOP_MERGE,
    OP_NAME,
    OP_PHI,
    OP_SELECTION_MERGE,
    OP_STRING,
    OP_TYPE_FORWARD_POINTER,
    OP_VARIABLE,
)
from spvbuild.ir.body import Block, BlockItem, Function
from spvbuild.ir.debug_opcodes import STRIPPED_DEBUG_OPCODES as STRIPPED_DEBUG_OPCODES
from spvbuild.ir.inspection import all_instructions, definition
from spvbuild.ir.literals import encoder, type_widths
from spvbuild.ir.requirements import one_word
from spvbuild.ir.routing import add_global, define, enter, may_trigger
from spvbuild.ir.state import ModuleState, at_call, name_of
from spvbuild.ir.value_types import end_streak
from spvbuild.ir.words_paths import reintern
from spvbuild.spirv.arguments import shown
from spvbuild.spirv.emission import Run
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "add_phi_incoming",
    "find",
    "insert_at",
    "inserting",
    "remove",
    "replace_all_uses",
    "rewrite",
    "strip_debug",
    "targets",
    "unused_strings",
]

_State = TypeVar("_State", bound=ModuleState)
_MERGES = frozenset((OP_LOOP_MERGE, OP_SELECTION_MERGE))


def rewrite(state: ModuleState, change: Callable[[Instruction], Instruction | None]) -> set[int]:
    """Apply ``change`` to every stored instruction: return it, a replacement, or None.

    None removes the instruction (an OpFunction, OpLabel or OpFunctionEnd cannot be
    removed this way).  A replacement is checked like a builder call (EncodeError
    before anything changes).  Every cache is rebuilt from what remains, so a later
    call never hands out a removed or changed instruction (deduplication keys come
    from the new words, extended-set imports from the imports left).  Returns the
    result ids removed.
    """
    end_streak(state)  # (every value's type in the map before anything changes)
    removed: set[int] = set()
    replaced: dict[int, Instruction] = {}  # id() of a stored instruction → its change
    changed: set[int] = set()  # id() of the replacements stored

    def decide(items: list[Instruction]) -> None:
        for inst in items:
            new = change(inst)
            if new is not inst and new is not None:
                try:
                    encoder(state).instruction(new)
                except SpvbuildError as exc:
                    raise at_call(exc) from None
            replaced[id(inst)] = new  # type: ignore[assignment]

    def apply(items: list[Instruction]) -> list[Instruction]:
        kept: list[Instruction] = []
        for inst in items:
            new = replaced[id(inst)]
            if new is None:
                if inst.result_id is not None:
                    removed.add(int(inst.result_id))
                continue
            if new.result_id is not None:
                define(state, new)
            if new is not inst:
                changed.add(id(new))
            kept.append(new)
        return kept

    # Runs of words are decoded once, here: the blocks keep records after a rewrite.
    decoded = {id(b): b.instructions for f in state.functions for b in f.blocks}
    everything = [*state.sections.values()]
    for function in state.functions:
        everything += [function.parameters, function.variables, function.after]
        everything += [decoded[id(block)] for block in function.blocks]
    for items in everything:
        decide(items)

    for name in state.sections:
        state.sections[name] = apply(state.sections[name])
    state.sections["types_globals"] = defined_before_use(state.sections["types_globals"], changed)
    for function in state.functions:
        function.parameters = apply(function.parameters)
        function.variables = apply(function.variables)
        function.after = apply(function.after)
        for block in function.blocks:
            block.items = list(apply(decoded[id(block)]))
        function.noted = False  # its uses are found again when written
        function.uses.clear()
        function.callees.clear()
        function.runs.clear()
    enter(state, state._block)
    state._rules_work = any(may_trigger(i) for i in all_instructions(state))
    state._listed = set()
    for v in state.sections["types_globals"]:
        if v.opcode == OP_VARIABLE and v.result_id is not None and v.operands:
            add_global(state, int(v.result_id), one_word(v.operands[0]))
    state._kept.clear()  # a type may have changed: every record is encoded again
    state._defined_so_far = None  # (the type checks' shared signatures: not any more)
    for rid in removed:
        state._definitions.pop(rid, None)
    state._pending_ids |= removed
    state._ext_imports = {
        str(inst.operands[0]): Id(inst.result_id)
        for inst in state.sections["ext_inst_imports"]
        if inst.result_id is not None
    }
    reintern(state)
    return removed

def _ids_in(value: Any) -> Iterator[int]:
    """The ids an operand value holds (in tuples and enumerant parameters too)."""
    if isinstance(value, Id):
        yield int(value)
    elif isinstance(value, tuple | list) and not isinstance(value, RawWords):
        for item in value:
            yield from _ids_in(item)
    elif isinstance(value, EnumerantParameters):
        yield from _ids_in(value.parameters)


def defined_before_use(items: list[Instruction], changed: set[int]) -> list[Instruction]:
    """The global section ``items`` with what an instruction of ``changed`` (their ``id()``)
    now uses moved before it, when it was declared after it (a constant made after a
    composite that a replacement made use it), transitively; everything else keeps its
    order, and so do the ids an OpTypeForwardPointer declares."""
    if not changed:
        return items
    position = {int(i.result_id): n for n, i in enumerate(items) if i.result_id is not None}
    forward = {
        one_word(i.operands[0]) for i in items if i.opcode == OP_TYPE_FORWARD_POINTER
    }
    out: list[Instruction] = []
    placed: set[int] = set()  # positions written out
    moving: set[int] = set()  # positions whose uses are being placed (a cycle stops there)

    def used_ids(n: int) -> list[int]:
        inst = items[n]
        found = [*_ids_in(inst.operands)]
        if inst.result_type is not None:
            found.append(int(inst.result_type))
        return found

    def uses(n: int) -> Iterator[int]:
        """The positions of what ``items[n]`` uses that are not written out yet, but not
        one that uses ``items[n]`` in turn: the two refer to each other, and the one
        declared later is a forward reference its set allows (a DebugInfo composite's
        members, each naming the composite as its parent)."""
        me = items[n].result_id
        for used in used_ids(n):
            where = position.get(used)
            if (
                where is not None
                and where not in placed
                and used not in forward
                and (me is None or int(me) not in used_ids(where))
            ):
                yield where

    def place(first: int) -> None:
        """Write out ``items[first]`` after what it uses (depth first, no recursion)."""
        stack = [(first, uses(first))]
        moving.add(first)
        while stack:
            n, pending = stack[-1]
            for where in pending:
                if where not in placed and where not in moving:
                    moving.add(where)
                    stack.append((where, uses(where)))
                    break
            else:
                stack.pop()
                moving.discard(n)
                placed.add(n)
                out.append(items[n])

    for n, inst in enumerate(items):
        if n in placed:
            continue
        if id(inst) in changed:
            place(n)
        else:
            placed.add(n)
            out.append(inst)
    return out


def find(
    state: ModuleState,
    *,
    name: str | None = None,
    opcode: int | None = None,
    result_id: int | None = None,
) -> list[Instruction]:
    """The stored instructions, in module order, that match every criterion given: the
    debug name (``OpName``) of their result, their opcode, their result id."""
    named: set[int] | None = None
    if name is not None:
        named = {
            int(i.operands[0])
            for i in state.sections["debug_names"]
            if i.opcode == OP_NAME and len(i.operands) > 1 and i.operands[1] == name
        }
    found = []
    for inst in all_instructions(state):
        rid = inst.result_id
        if opcode is not None and inst.opcode != opcode:
            continue
        if result_id is not None and (rid is None or int(rid) != int(result_id)):
            continue
        if named is not None and (rid is None or int(rid) not in named):
            continue
        found.append(inst)
    return found


def replace_all_uses(
    state: ModuleState,
    old: Id | TypeId,
    new: Id | TypeId,
    where: Callable[[Instruction], bool] | None = None,
) -> int:
    """Make every instruction that uses the id ``old`` (every one for which ``where``
    is true, when given) use ``new`` instead; ``old``'s definition stays (remove it with
    :meth:`remove` once dead).  How many operands changed.  Goes through
    :meth:`rewrite`: checked, every cache rebuilt."""
    if not isinstance(old, Id) or not isinstance(new, Id):
        raise at_call(
            BuildError(f"replace_all_uses: two ids, not {shown(old)} and {shown(new)}")
        )
    if definition(state, new) is None and int(new) not in state._pending_ids:
        raise at_call(BuildError(f"replace_all_uses: {new!r} is defined by nothing"))
    count = 0

    def swap(value: Any) -> Any:
        nonlocal count
        if isinstance(value, Id):
            if int(value) == int(old):
                count += 1
                return new
            return value
        if isinstance(value, tuple | list) and not isinstance(value, RawWords):
            return type(value)(swap(v) for v in value)
        if isinstance(value, EnumerantParameters):
            return type(value)(*(swap(v) for v in value.parameters))
        return value

    def change(inst: Instruction) -> Instruction:
        if where is not None and not where(inst):
            return inst
        operands = tuple(swap(v) for v in inst.operands)
        result_type = inst.result_type
        if result_type is not None and int(result_type) == int(old):
            result_type = TypeId(int(new))
            count_type[0] += 1
        if operands == inst.operands and result_type is inst.result_type:
            return inst
        return inst._replace(operands=operands, result_type=result_type)

    count_type = [0]
    rewrite(state, change)
    return count + count_type[0]


def remove(state: ModuleState, instruction: Instruction) -> None:
    """Remove ``instruction`` (one :meth:`find` gave, or its result id's); BuildError
    if the module holds no such instruction.  Goes through :meth:`rewrite`."""
    rid = instruction.result_id

    def same(inst: Instruction) -> bool:
        return inst is instruction or (
            rid is not None and inst.result_id is not None and int(inst.result_id) == int(rid)
        )

    if not any(same(i) for i in all_instructions(state)):
        raise at_call(
            BuildError(f"remove: the module holds no {name_of(instruction.opcode)} like this")
        )
    rewrite(state, lambda inst: None if same(inst) else inst)


# -- stripping ------------------------------------------------------------------------------
_TARGETING = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.section in ("debug_names", "annotations")
)
"""OpName, OpDecorate, ...: operand 0 is the target (a group, for the group decorations)."""



def targets(inst: Instruction, ids: set[int]) -> bool:
    """True for an OpName/OpDecorate/... whose target is one of ``ids``."""
    return (
        inst.opcode in _TARGETING
        and bool(inst.operands)
        and isinstance(inst.operands[0], int)
        and int(inst.operands[0]) in ids
    )


def unused_strings(state: ModuleState, goes: Callable[[Instruction], bool]) -> set[int]:
    """The OpStrings that no instruction uses once those for which ``goes`` is true are gone.

    Only id operands count: each instruction kept is read by the one table-driven encoder,
    which lists the ids its operands use by their kinds (a literal or an enumerant that
    happens to equal a string's id, ``OpConstant %uint 32``, uses no id)."""
    strings: set[int] = set()
    used: dict[int, str] = {}
    reader = Encoder(lambda type_id: type_widths(state, type_id), used)
    for inst in all_instructions(state):
        if inst.opcode == OP_STRING:
            if inst.result_id is not None:
                strings.add(int(inst.result_id))
        elif not goes(inst):
            reader.instruction(inst)
    return strings - used.keys()


def strip_debug(state: ModuleState) -> int:
    """Remove the core debug instructions; returns how many instructions went.

    Goes: every OpName, OpMemberName, OpSource, OpSourceContinued, OpSourceExtension,
    OpModuleProcessed, OpLine and OpNoLine, and every OpString that nothing left uses as
    an id operand (the strings of the DebugInfo sets' instructions stay with them).
    Nothing else changes.  Goes through :func:`rewrite`: every cache rebuilt."""
    doomed = unused_strings(state, lambda inst: inst.opcode in STRIPPED_DEBUG_OPCODES)
    count = 0

    def drop(inst: Instruction) -> Instruction | None:
        nonlocal count
        if inst.opcode in STRIPPED_DEBUG_OPCODES or (
            inst.opcode == OP_STRING and inst.result_id is not None and int(inst.result_id) in doomed
        ):
            count += 1
            return None
        return inst

    rewrite(state, drop)
    return count


@contextmanager
def inserting(
    state: _State, *, before: Instruction | None = None, after: Instruction | None = None
) -> Iterator[_State]:
    """Make the calls in the ``with`` insert their instructions into a function's
    block, just before or after an instruction of it (also before the terminator of
    a block that has ended); then go on where the module was.  A place between a merge
    instruction (OpLoopMerge, OpSelectionMerge) and its branch, which must follow it
    directly, is taken as the place before the merge instruction."""
    if (before is None) == (after is None):
        raise at_call(BuildError("inserting: give one of before= or after="))
    target = before if before is not None else after
    assert target is not None
    rid = target.result_id

    def index_in(items: list[BlockItem]) -> int | None:
        for n, item in enumerate(items):
            if item is target:
                return n
            if (
                rid is not None
                and not isinstance(item, Run)
                and item.result_id is not None
                and int(item.result_id) == int(rid)
            ):
                return n
        return None

    for function in state.functions:
        for block in function.blocks:
            index = index_in(block.items)
            if index is None and rid is not None:
                runs = [i for i in block.items if isinstance(i, Run)]
                if not any(int(rid) in run.result_ids() for run in runs):
                    continue
                # In a run of words: the block's runs become records first.
                block.items = list(block.instructions)
                function.runs = [r for r in function.runs if r not in runs]
                function.noted = False  # its uses are found again when written
                index = index_in(block.items)
            if index is None:
                continue
            position = _before_merge(function, block, index + (after is not None))
            yield from insert_into(state, function, block, position)
            return
    raise at_call(BuildError(f"inserting: no function holds this {name_of(target.opcode)}"))


def _before_merge(function: Function, block: Block, position: int) -> int:
    """``position`` in ``block.items``, moved before a merge instruction it follows (the
    block's runs become records first when the merge is the last of one)."""
    if position == 0:
        return position
    previous = block.items[position - 1]
    if isinstance(previous, Run):
        decoded = list(previous.instructions())
        if not decoded or decoded[-1].opcode not in _MERGES:
            return position
        position = sum(
            sum(1 for _ in item.instructions()) if isinstance(item, Run) else 1
            for item in block.items[:position]
        )
        runs = [i for i in block.items if isinstance(i, Run)]
        block.items = list(block.instructions)
        function.runs = [r for r in function.runs if r not in runs]
        function.noted = False  # its uses are found again when written
        previous = block.items[position - 1]
    if not isinstance(previous, Run) and previous.opcode in _MERGES:
        return position - 1
    return position


def insert_into(
    state: _State, function: Function, block: Block, index: int
) -> Iterator[_State]:
    """Route the calls of an ``inserting`` block into ``block`` at ``index``."""
    saved = state._function, state._block, function.ended
    staging = Block(block.label)
    state._function = function
    function.ended = False  # (an ended function takes insertions too)
    enter(state, staging)
    try:
        yield state
    finally:
        function.ended = saved[2]
        state._function = saved[0]
        enter(state, saved[1])
    if staging.terminated or staging.merge is not None:
        raise at_call(
            BuildError("inserting: a terminator or merge instruction cannot be inserted")
        )
    block.items[index:index] = staging.items


def insert_at(state: ModuleState, label: Id) -> None:
    """Continue emitting into the (unterminated) block that ``label`` starts."""
    block = state._blocks_by_label.get(int(label))
    if block is None:
        raise BuildError(f"insert_at: {label!r} does not label a block of this module")
    if block.terminated:
        raise BuildError(f"insert_at: block {label!r} already has its terminator")
    owner = next(f for f in state.functions if block in f.blocks)
    if owner.ended:
        raise BuildError(f"insert_at: the function of block {label!r} has ended")
    state._function = owner
    enter(state, block)


def add_phi_incoming(state: ModuleState, phi: Id, value: Id, parent: Id) -> None:
    """Add the pair (``value``, ``parent``) to the OpPhi that defines ``phi``, in
    whatever block is current (a loop's phi gets the value of its continue block once
    that block is made).  Checked like a builder call: BuildError if ``phi`` is no
    OpPhi of this module's functions, EncodeError for a value or parent that is no id.
    """
    found = state._definitions.get(int(phi)) if isinstance(phi, int) else None
    if found is None or found.opcode != OP_PHI:
        raise at_call(BuildError(f"add_phi_incoming: {shown(phi)} is not defined by an OpPhi"))
    pairs = tuple(found.operands[0]) if found.operands else ()
    new = found._replace(operands=((*pairs, (value, parent)),))
    state._call_used.clear()
    try:
        encoder(state).instruction(new)
    except SpvbuildError as exc:
        raise at_call(exc) from None
    for function in state.functions:
        for block in function.blocks:
            for index, item in enumerate(block.items):
                if item is found:
                    block.items[index] = new
                    state._definitions[int(phi)] = new
                    state._kept.pop(id(found), None)  # encoded again when written
                    function.noted = function.noted and not (
                        (state._listed or state._pending_ids)
                        and not {int(value), int(parent)}.isdisjoint(
                            state._listed | state._pending_ids
                        )
                    )
                    return
    raise at_call(BuildError(f"add_phi_incoming: the OpPhi of {phi!r} is in no block"))
