"""Dead-code elimination (``eliminate-dead-code-aggressive``): what nothing live uses goes.

One mark over the whole module, then one sweep.  Live from the start (the roots): every
instruction outside the functions that defines nothing and names or decorates nothing
(capabilities, the memory model, entry points, execution modes, ``OpSource``, ...), every
one that defines an id but is not pure (:func:`spvbuild.passes.effects.is_pure`: a
decoration group, a DebugInfo instruction) and every id a decoration of
:data:`ROOT_DECORATIONS` names (an export, a ``BuiltIn``).  An id is live when a live instruction uses it; a function is live when its id
or any id it defines is; in a live function every instruction that is not pure is live
(stores, calls, branches, labels, parameters, ...), a pure one only when its result is.

The sweep drops the functions and the pure instructions whose results are not live, and the
names and decorations of every id that goes (a decoration group's list of targets loses
the dead ones).  No other name or decoration makes its target live.  Words the grammar
could not type (:func:`spvbuild.passes.ids.hidden_words`) keep alive every id they could
name.  Unreachable blocks go first (:mod:`spvbuild.passes.unreachable`).
"""

from __future__ import annotations

from typing import Any

from spvbuild.generated.core.enums import Decoration, LinkageType
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT
from spvbuild.passes.effects import is_pure
from spvbuild.passes.ids import hidden_words, ids_in, is_targeting, used_ids
from spvbuild.passes.program import Function, Layout, Program, join, split
from spvbuild.passes.unreachable import remove_unreachable_blocks
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["NAME", "eliminate_dead_code", "import_names"]

NAME = "eliminate-dead-code-aggressive"


def import_names(instructions: list[Instruction]) -> dict[int, str]:
    """Each OpExtInstImport's id → the set name it imports."""
    return {
        int(i.result_id): str(i.operands[0])
        for i in instructions
        if i.opcode == OP_EXT_INST_IMPORT and i.result_id is not None and i.operands
    }


ROOT_DECORATIONS: dict[Decoration, LinkageType | None] = {
    Decoration.LinkageAttributes: LinkageType.Export,
    Decoration.BuiltIn: None,
}
"""Decorations that make their target live → the parameter they must hold to (None: any).
An export is seen from outside; a constant decorated ``BuiltIn WorkgroupSize`` sets the
workgroup size (over ``LocalSize``) without any instruction using it."""


def _makes_live(inst: Instruction) -> bool:
    """True for a decoration of :data:`ROOT_DECORATIONS`."""
    if not is_targeting(inst):
        return False
    for value in inst.operands[1:]:
        if isinstance(value, EnumerantParameters) and value.enumerant in ROOT_DECORATIONS:
            wanted = ROOT_DECORATIONS[value.enumerant]  # type: ignore[index]
            if wanted is None or wanted in value.parameters:
                return True
    return False


def eliminate_dead_code(program: Program) -> Program:
    """``program`` without what nothing live uses (a new program; ``program`` unchanged):
    unreachable blocks, dead functions, pure instructions whose results are unused, unused
    types, constants, global variables, imports and strings, and the names and decorations
    of all of them."""
    program = remove_unreachable_blocks(program)
    layout = split(program, NAME)
    imports = import_names(layout.head)
    live = _mark(layout, imports)
    out = program.copy()
    out.instructions = join(_sweep(layout, live, imports))
    return out


def _mark(layout: Layout, imports: dict[int, str]) -> set[int]:
    """The live ids (see the module's docstring)."""
    in_head: dict[int, Instruction] = {}
    owner: dict[int, tuple[Function, Instruction]] = {}
    for inst in layout.head:
        if inst.result_id is not None:
            in_head[int(inst.result_id)] = inst
    for function in layout.functions:
        for inst in function.instructions():
            if inst.result_id is not None:
                owner[int(inst.result_id)] = (function, inst)
    defined = in_head.keys() | owner.keys()
    live: set[int] = set()
    work: list[int] = []
    marked_functions: set[int] = set()

    def mark_uses(inst: Instruction, skip_target: bool = False) -> None:
        for used in used_ids(inst, skip_target=skip_target):
            if used not in live:
                live.add(used)
                work.append(used)
        for word in hidden_words(inst):
            if word in defined and word not in live:
                live.add(word)
                work.append(word)

    def mark(rid: int) -> None:
        if rid not in live:
            live.add(rid)
            work.append(rid)

    targeting: list[Instruction] = []
    for inst in layout.head:
        if is_targeting(inst):
            targeting.append(inst)
            if _makes_live(inst):
                mark(int(inst.operands[0]))
        elif inst.result_id is None:
            mark_uses(inst)
        elif not is_pure(inst, imports):
            mark(int(inst.result_id))
    while True:
        while work:
            rid = work.pop()
            head = in_head.get(rid)
            if head is not None:
                mark_uses(head)
                continue
            found = owner.get(rid)
            if found is None:
                continue
            function, definition = found
            if function.id not in marked_functions:
                marked_functions.add(function.id)
                mark(function.id)
                for inst in function.instructions():
                    if inst.result_id is None or not is_pure(inst, imports):
                        if inst.result_id is not None:
                            mark(int(inst.result_id))
                        mark_uses(inst)
            mark_uses(definition)
        # A decoration of a live id makes what it uses (OpDecorateId's ids) live.
        for inst in targeting:
            if int(inst.operands[0]) in live:
                mark_uses(inst, skip_target=True)
        if not work:
            return live


def _sweep(layout: Layout, live: set[int], imports: dict[int, str]) -> Layout:
    """``layout`` without what is not live (see the module's docstring)."""
    defined = {int(i.result_id) for i in layout.head if i.result_id is not None}
    for function in layout.functions:
        defined.update(int(i.result_id) for i in function.instructions() if i.result_id is not None)
    dead = defined - live

    def keep(inst: Instruction) -> Instruction | None:
        if is_targeting(inst):
            if int(inst.operands[0]) in dead:
                return None
            return inst._replace(operands=tuple(_without(v, dead) for v in inst.operands))
        if inst.result_id is not None and int(inst.result_id) in dead and is_pure(inst, imports):
            return None
        return inst

    head = [k for inst in layout.head if (k := keep(inst)) is not None]
    functions = []
    for function in layout.functions:
        if function.id in dead:
            continue
        for block in function.blocks:
            block.body = [k for inst in block.body if (k := keep(inst)) is not None]
        functions.append(function)
    return Layout(head, functions)


def _without(value: Any, dead: set[int]) -> Any:
    """A variadic operand (a list of targets) without the elements that name a dead id."""
    if isinstance(value, tuple | list) and not isinstance(value, RawWords):
        return type(value)(
            item for item in value if dead.isdisjoint(ids_in(item))
        )
    return value
