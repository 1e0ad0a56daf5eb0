"""Entry-point interfaces: the global variables each entry point's call tree uses.

Before SPIR-V 1.4 an OpEntryPoint lists the Input and Output variables its call tree
uses; from 1.4 every global.  Functions note what their records use at the call
(:func:`spvbuild.ir.routing.note`); :func:`complete_interfaces` adds what is missing when
the module is written, looking only at what was not noted (runs of words, functions read
from a binary or rewritten).
"""

from __future__ import annotations

from spvbuild.generated.core.opcodes import OP_FUNCTION_CALL
from spvbuild.ir.body import BlockItem, Function, ids_in, plain_id
from spvbuild.ir.state import ModuleState
from spvbuild.spirv.emission import Run
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.word_checks import FAST_IDS

__all__ = ["complete_interfaces", "function_uses"]

_new_record = tuple.__new__  # Instruction._make's way: every field given, in order


def complete_interfaces(state: ModuleState) -> None:
    """Append to each OpEntryPoint the global variables its call tree uses (the Input
    and Output ones before SPIR-V 1.4, all from 1.4).

    A function's records noted what they use at their call (:func:`~spvbuild.ir.routing.note`); its runs
    of words, and every piece of a function that was not noted (read from a binary,
    rewritten), are looked at here.
    """
    wanted = state._listed
    entries = state.sections["entry_points"]
    if not wanted or not entries:
        return  # no global an interface lists, or no entry point
    by_id: dict[int, Function] = {}  # (by result id)
    for each in state.functions:
        by_id[each.header[2] or 0] = each
    uses: dict[int, tuple[set[int], set[int]]] = {}  # function → (globals, callees)
    kept_words = state._kept
    for index, entry in enumerate(entries):
        operands = entry.operands
        if len(operands) < 3:
            continue
        made = kept_words.get(id(entry))
        if (made is None or made[0] is not entry) and any(
            isinstance(o, RawWords) for o in operands
        ):
            continue  # kept as read: operands the grammar cannot say (a call's never are)
        reached: set[int] = set()
        entry_function = operands[1]
        todo = [
            entry_function
            if entry_function.__class__ in FAST_IDS
            else plain_id(entry_function)
        ]
        variables: set[int] = set()
        while todo:
            fid = todo.pop()
            if fid in reached:
                continue
            reached.add(fid)
            found = uses.get(fid)
            if found is None:
                function = by_id.get(fid)
                if function is None:
                    continue
                found = uses[fid] = function_uses(state, function, wanted, by_id)
            variables |= found[0]
            todo.extend(found[1])
        interface = list(operands[3]) if len(operands) > 3 else []
        missing = sorted(variables.difference(interface))
        if missing:
            new_interface = (*interface, *map(Id, missing))
            new_operands = (*operands[:3], new_interface)
            new_entry = _new_record(Instruction, (*entry[:3], new_operands, entry.ext_set))
            entries[index] = new_entry
            if state._sites is not None and id(entry) in state._sites:
                state._sites[id(new_entry)] = (new_entry, state._sites[id(entry)][1])
            kept = kept_words.pop(id(entry), None) if made is not None else None
            if kept is not None and kept[0] is entry:
                # Its words from the call, the interface's new ids appended.
                _, old_words, used, needs = kept
                words = [((len(old_words) + len(missing)) << 16) | old_words[0] & 0xFFFF]
                words += old_words[1:]
                words += missing
                state._kept[id(new_entry)] = (new_entry, words, used, needs)


def function_uses(
    state: ModuleState, function: Function, wanted: set[int], by_id: dict[int, Function]
) -> tuple[set[int], set[int]]:
    """The globals among ``wanted`` that ``function`` uses and the functions it calls.

    A noted function's records listed theirs at the call (:func:`~spvbuild.ir.routing.note`): only its runs
    of words are looked at; every piece of a function that was not noted (read from a
    binary, rewritten) is.
    """
    if function.noted:
        used = function.uses & wanted
        callees = function.callees & by_id.keys() if function.callees else set()
        for run in function.runs:
            if not wanted.isdisjoint(run.words):
                used |= wanted.intersection(run.operand_ids())
        return used, callees
    cached = state._kept.get
    used, callees = set(), set()
    # The header, OpLabel and OpFunctionEnd use no global: the other pieces only.
    pieces: list[BlockItem] = [*function.parameters, *function.variables]
    for block in function.blocks:
        pieces += block.items
    for piece in pieces:
        if isinstance(piece, Run):
            if not wanted.isdisjoint(piece.words):
                # (a run's instructions are of ids only, none a call: only its operands)
                used |= wanted.intersection(piece.operand_ids())
            continue
        if piece.opcode != OP_FUNCTION_CALL:
            made = cached(id(piece))
            if made is not None and made[0] is piece and wanted.isdisjoint(made[1]):
                continue  # none of its words (kept from its call) is a global's id
        for value in ids_in(piece.operands):
            if value in wanted:
                used.add(value)
            elif value in by_id and piece.opcode == OP_FUNCTION_CALL:
                callees.add(value)
    return used, callees
