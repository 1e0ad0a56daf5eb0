"""Dead-code elimination (``eliminate-dead-code-aggressive``): what nothing live uses goes.

One mark over the whole module, then one sweep.  Live from the start (the roots): every
instruction outside the functions that defines nothing and names or decorates nothing
(capabilities, the memory model, entry points, execution modes, ``OpSource``, ...), every
one that defines an id but is not pure (:func:`spvbuild.passes.effects.is_pure`: a
decoration group, a DebugInfo instruction) and every id a decoration of
:data:`ROOT_DECORATIONS` names (an export, a ``BuiltIn``).  An id is live when a live
instruction uses it; a function is live when its id or any id it defines is; in a live function every instruction that is not pure is live
(stores, calls, branches, labels, parameters, ...), a pure one only when its result is.
A store into a ``Function`` variable of the function, or into a ``Private`` or ``Workgroup``
variable (through access chains or not, not ``Volatile``; :mod:`spvbuild.passes.write_only`
says which globals), is the exception: it is live only when the variable is (something live
reads it, or takes its address), as nothing can read what it wrote otherwise; an entry
point's interface does not make such a global live, and loses it when it goes.  A selection
left doing nothing after the sweep goes (:mod:`spvbuild.passes.empty_selections`), and the
mark runs again for what only its branch kept (a few rounds at most).

The sweep drops the functions and the pure instructions whose results are not live, and the
names and decorations of every id that goes (a decoration group's list of targets loses
the dead ones).  No other name or decoration makes its target live.  Words the grammar
could not type (:func:`spvbuild.passes.ids.hidden_words`) keep alive every id they could
name.  A function's unreachable blocks go (:mod:`spvbuild.passes.unreachable`) when it
becomes live, before its instructions are read; a dead function is never read.
"""

from __future__ import annotations

from typing import Any

from spvbuild.generated.core.enums import Decoration, LinkageType, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_ACCESS_CHAIN,
    OP_ENTRY_POINT,
    OP_EXT_INST_IMPORT,
    OP_IN_BOUNDS_ACCESS_CHAIN,
    OP_STORE,
    OP_VARIABLE,
)
from spvbuild.passes.effects import is_pure, is_volatile
from spvbuild.passes.empty_selections import drop_empty_selections_in
from spvbuild.passes.ids import ids_in, is_targeting, used_ids, uses_and_hidden
from spvbuild.passes.program import Function, Layout, Program, join, split
from spvbuild.passes.rewriting import without_targets
from spvbuild.passes.unreachable import UndefMaker, prune
from spvbuild.passes.write_only import deferrable_globals
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["NAME", "eliminate_dead_code", "import_names"]

NAME = "eliminate-dead-code-aggressive"

_ACCESS_CHAINS = frozenset({OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN})


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
    out = program
    for _ in range(_ROUNDS):
        layout = split(out, NAME)
        out = out.copy()
        marking = _Marking(layout, UndefMaker(out))
        marking.run()
        layout.head += marking.undef.made
        swept = _sweep(layout, marking)
        emptied: set[int] = set()
        for function in swept.functions:
            emptied |= drop_empty_selections_in(function)
        if emptied:
            swept.head = without_targets(swept.head, emptied)
        out.instructions = join(swept)
        if not emptied:
            break  # (else what only a branch of it kept may be dead now)
    return out


_ROUNDS = 4
"""At most this many marks and sweeps: one more after each that left a selection doing
nothing (:mod:`spvbuild.passes.empty_selections`)."""


class _Marking:
    """The mark (see the module's docstring), walking only what becomes live: a function's
    instructions are read (and its unreachable blocks pruned) when it becomes live, and the
    ids the dead functions define are listed only if a live instruction uses one of them
    (no valid module does) or a name or decoration names one."""

    def __init__(self, layout: Layout, undef: UndefMaker) -> None:
        self.layout = layout
        self.undef = undef
        self.imports = import_names(layout.head)
        self.in_head = {int(i.result_id): i for i in layout.head if i.result_id is not None}
        self.functions = {function.id: function for function in layout.functions}
        self.in_live: dict[int, Instruction] = {}  # what the live functions define
        self.live_functions: dict[int, Function] = {}
        self.pruned: set[int] = set()  # ids the pruning of unreachable blocks removed
        self.live: set[int] = set()
        self.work: list[int] = []
        self.local_stores: dict[int, list[Instruction]] = {}  # variable → stores waiting
        # A variable whose stores wait for a read, or a chain into one → the variable:
        self.deferred_globals = deferrable_globals(layout.head)
        self.local_roots: dict[int, int] = {v: v for v in self.deferred_globals}
        self._elsewhere: dict[int, tuple[Function, Instruction]] | None = None

    def mark(self, rid: int) -> None:
        if rid not in self.live:
            self.live.add(rid)
            self.work.append(rid)

    def mark_uses(self, inst: Instruction, skip_target: bool = False) -> None:
        live = self.live
        used, hidden = uses_and_hidden(inst, skip_target=skip_target)
        for rid in used:
            if rid not in live:  # (mark, inline: this runs for every id a live use names)
                live.add(rid)
                self.work.append(rid)
        for word in hidden:
            if self.defines(word):
                self.mark(word)

    def defines(self, rid: int) -> bool:
        """True when ``rid`` is defined somewhere in the module (pruned blocks aside)."""
        return (
            rid in self.in_head
            or rid in self.functions
            or rid in self.in_live
            or rid in self.elsewhere()
        )

    def elsewhere(self) -> dict[int, tuple[Function, Instruction]]:
        """What the functions not (yet) live define, made on first need."""
        if self._elsewhere is None:
            self._elsewhere = {}
            for function in self.layout.functions:
                if function.id not in self.live_functions:
                    for inst in function.instructions():
                        if inst.result_id is not None:
                            self._elsewhere[int(inst.result_id)] = (function, inst)
        return self._elsewhere

    def make_live(self, function: Function) -> None:
        """``function`` is live: its unreachable blocks go, its instructions that are
        not pure are live, what it defines is known."""
        self.live_functions[function.id] = function
        self.pruned |= prune(function, self.undef)
        for inst in self.undef.made:
            self.in_head.setdefault(int(inst.result_id or 0), inst)
        self.mark(function.id)
        imports = self.imports
        roots = self.local_roots
        for inst in function.instructions():
            rid = inst.result_id
            if rid is not None:
                self.in_live[int(rid)] = inst
                if self._elsewhere is not None:
                    self._elsewhere.pop(int(rid), None)
                if inst.opcode == OP_VARIABLE and inst.operands[0] == StorageClass.Function:
                    roots[int(rid)] = int(rid)
                elif inst.opcode in _ACCESS_CHAINS:
                    base = roots.get(_pointer(inst))
                    if base is not None:
                        roots[int(rid)] = base
            elif inst.opcode == OP_STORE and not is_volatile(inst):
                variable = roots.get(_pointer(inst))
                if variable is not None and variable not in self.live:
                    self.local_stores.setdefault(variable, []).append(inst)
                    continue
            if rid is None or not is_pure(inst, imports):
                if rid is not None:
                    self.mark(int(rid))
                self.mark_uses(inst)

    def run(self) -> None:
        targeting: list[Instruction] = []
        imports = self.imports
        for inst in self.layout.head:
            if is_targeting(inst):
                targeting.append(inst)
                if _makes_live(inst):
                    self.mark(int(inst.operands[0]))
            elif inst.result_id is None:
                if inst.opcode == OP_ENTRY_POINT and self.deferred_globals:
                    for used in used_ids(inst):  # (an interface is no read)
                        if used not in self.deferred_globals:
                            self.mark(used)
                else:
                    self.mark_uses(inst)
            elif not is_pure(inst, imports):
                self.mark(int(inst.result_id))
        while True:
            while self.work:
                rid = self.work.pop()
                for store in self.local_stores.pop(rid, ()):
                    self.mark_uses(store)  # (its variable is read: what it stores is live)
                head = self.in_head.get(rid)
                if head is not None:
                    self.mark_uses(head)
                    continue
                function = self.functions.get(rid)
                if function is not None and rid not in self.live_functions:
                    self.make_live(function)
                definition = self.in_live.get(rid)
                if definition is None:
                    found = self.elsewhere().get(rid)
                    if found is None:
                        continue
                    self.make_live(found[0])
                    definition = found[1]
                self.mark_uses(definition)
            # A decoration of a live id makes what it uses (OpDecorateId's ids) live.
            for inst in targeting:
                if int(inst.operands[0]) in self.live:
                    self.mark_uses(inst, skip_target=True)
            if not self.work:
                return

    def dead_stores(self) -> set[int]:
        """The (object ids of the) stores into variables nothing live reads."""
        return {id(store) for stores in self.local_stores.values() for store in stores}

    def dead(self, rid: int) -> bool:
        """True for an id that goes: defined, or removed with its block, and not live."""
        return rid not in self.live and (rid in self.pruned or self.defines(rid))


def _sweep(layout: Layout, marking: _Marking) -> Layout:
    """``layout`` without what is not live (see the module's docstring)."""
    imports = marking.imports
    live = marking.live
    dead_stores = marking.dead_stores()

    def keep(inst: Instruction) -> Instruction | None:
        if dead_stores and id(inst) in dead_stores:
            return None
        if is_targeting(inst):
            if marking.dead(int(inst.operands[0])):
                return None
            return _pruned(inst, marking)
        rid = inst.result_id
        if rid is not None and int(rid) not in live and is_pure(inst, imports):
            return None
        if inst.opcode == OP_ENTRY_POINT and marking.deferred_globals:
            return _pruned(inst, marking)
        return inst

    head = [k for inst in layout.head if (k := keep(inst)) is not None]
    functions = []
    for function in layout.functions:
        if function.id not in marking.live_functions:
            continue
        for block in function.blocks:
            block.body = [k for inst in block.body if (k := keep(inst)) is not None]
        functions.append(function)
    return Layout(head, functions)


def _pointer(inst: Instruction) -> int:
    """The id of the pointer an access chain or a store starts from (0 when none)."""
    pointer = inst.operands[0] if inst.operands else None
    return int(pointer) if isinstance(pointer, Id) else 0


def _pruned(inst: Instruction, marking: _Marking) -> Instruction:
    """``inst`` with its variadic operands (lists of targets, an interface) without the
    elements that name a dead id: ``inst`` itself where none does (a program read from
    words then writes it as the words it was read from)."""
    operands = inst.operands
    for value in operands:
        if value.__class__ is tuple or value.__class__ is list:
            break
    else:
        return inst  # (no list of targets: a name, a plain decoration)
    pruned = tuple(_without(v, marking) for v in operands)
    if all(a is b for a, b in zip(pruned, operands, strict=True)):
        return inst
    return inst._replace(operands=pruned)


def _without(value: Any, marking: _Marking) -> Any:
    """A variadic operand (a list of targets) without the elements that name a dead id
    (``value`` itself where none does)."""
    if isinstance(value, tuple | list) and not isinstance(value, RawWords):
        kept = [item for item in value if not any(marking.dead(i) for i in ids_in(item))]
        return value if len(kept) == len(value) else type(value)(kept)
    return value
