"""Promoting Function variables to SSA values (``ssa-rewrite``, spirv-opt's name; its
``eliminate-local-multi-store`` does the same).

A variable of the ``Function`` storage class, declared in its function's first block, is
*promoted* when it holds a value an ``OpPhi`` can carry (:data:`SSA_TYPES`, nested) and
every use of it is a non-volatile ``OpLoad`` of it whole or an ``OpStore`` to it whole:
no access chain, no pointer passed to a call, stored, copied or selected, no decoration
but a name or ``RelaxedPrecision``.  Its loads become the value stored last on every path
(its initializer, or an ``OpUndef`` where nothing was stored yet), its stores and the
variable go, and where stores on several paths meet (the iterated dominance frontier of
the blocks that store: a merge block, a loop header) an ``OpPhi`` joins them.  The values
are found by one walk of the dominator tree (Cytron et al., "Efficiently computing static
single assignment form and the control dependence graph", 1991); phis that join one value
only are then replaced by it, and phis nothing uses are dropped, so no phi is left that
does not join two values.

A variable nothing reads (only stored to, whole or through access chains whose results
are only stored through) goes with its stores and access chains, whatever its type: the
part of spirv-opt's local-store elimination that needs no analysis of memory.

In blocks the entry does not reach, loads of a promoted variable become ``OpUndef`` and
its stores go.  Every other instruction is left as it is; a variable with any other use
is left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from spvbuild.generated.core.enums import StorageClass
from spvbuild.generated.core.opcodes import (
    OP_ACCESS_CHAIN,
    OP_COMPOSITE_EXTRACT,
    OP_COMPOSITE_INSERT,
    OP_IN_BOUNDS_ACCESS_CHAIN,
    OP_LOAD,
    OP_PHI,
    OP_STORE,
    OP_TYPE_ARRAY,
    OP_TYPE_BOOL,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
    OP_TYPE_MATRIX,
    OP_TYPE_POINTER,
    OP_TYPE_STRUCT,
    OP_TYPE_VECTOR,
    OP_VARIABLE,
)
from spvbuild.passes.cfg import dominator_tree, graph, iterated_frontier
from spvbuild.passes.ids import ids_in, is_targeting, used_ids
from spvbuild.passes.program import Function, Layout, Program, join, split
from spvbuild.passes.rewriting import (
    Declarations,
    Replacements,
    Undefs,
    accesses_volatile,
    harmless_decoration,
    without_targets,
)
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "ACCESS_CHAINS",
    "NAME",
    "SSA_TYPES",
    "VALUE_POINTERS",
    "function_variables",
    "rewrite_to_ssa",
]

NAME = "ssa-rewrite"

SSA_TYPES = frozenset(
    {
        OP_TYPE_BOOL,
        OP_TYPE_INT,
        OP_TYPE_FLOAT,
        OP_TYPE_VECTOR,
        OP_TYPE_MATRIX,
        OP_TYPE_ARRAY,
        OP_TYPE_STRUCT,
    }
)
"""The types a promoted variable may hold (an array's or a struct's elements too): the
ones an ``OpPhi`` carries in every environment (no image, sampler or other opaque type),
and pointers of the classes in :data:`VALUE_POINTERS`."""

VALUE_POINTERS = frozenset({StorageClass.PhysicalStorageBuffer})
"""Storage classes whose pointers are plain values (an address), which a phi may carry
without variable pointers."""

ACCESS_CHAINS = frozenset({OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN})
"""The access chains a promoted variable's loads and stores, and a write-only variable's
stores, may go through."""

_THROUGH_POINTER = frozenset({OP_LOAD, OP_STORE, *ACCESS_CHAINS})
"""The instructions whose operand 0 is the pointer they load, store or chain from."""


@dataclass(slots=True)
class Variable:
    """A Function variable and what its uses showed.

    Fields: ``function`` (the id of the function declaring it), ``pointee`` (the type it
    holds), ``initializer`` (its initializer's id, None without one), ``whole`` (False
    once an access chain of it names an element other than by constant indices within
    bounds, or is the base of another chain), ``read`` (True once it or an access chain
    of it is loaded from), ``escapes`` (True once a use is neither a load, a store to it,
    nor an access chain only loaded or stored through), ``paths`` (each of its access
    chains → the literal indices it names).
    """

    function: int
    pointee: int
    initializer: int | None
    whole: bool = True
    read: bool = False
    escapes: bool = False
    paths: dict[int, tuple[int, ...]] = field(default_factory=dict)


def function_variables(layout: Layout, declarations: Declarations) -> dict[int, Variable]:
    """The Function variables declared in their function's first block, by id."""
    found: dict[int, Variable] = {}
    for function in layout.functions:
        if not function.blocks:
            continue
        for inst in function.blocks[0].body:
            if inst.opcode != OP_VARIABLE or inst.result_id is None or inst.result_type is None:
                continue
            pointee = declarations.pointee(int(inst.result_type), StorageClass.Function)
            if pointee is None or not inst.operands or inst.operands[0] != StorageClass.Function:
                continue
            init = inst.operands[1] if len(inst.operands) > 1 else None
            found[int(inst.result_id)] = Variable(
                function.id, pointee, None if not isinstance(init, Id) else int(init)
            )
    return found


def _survey(layout: Layout, variables: dict[int, Variable], declarations: Declarations) -> None:
    """Fill in what every use of ``variables`` shows (see :class:`Variable`)."""
    chain_base: dict[int, int] = {}
    for function in layout.functions:
        for block in function.blocks:
            for inst in block.body:
                if inst.opcode in ACCESS_CHAINS and inst.result_id is not None and inst.operands:
                    base = inst.operands[0]
                    if not isinstance(base, Id):
                        continue
                    chain_base[int(inst.result_id)] = int(base)
                    var = variables.get(int(base))
                    if var is None:
                        continue
                    indices = inst.operands[1] if len(inst.operands) > 1 else ()
                    path = declarations.element_path(var.pointee, indices)
                    if path:
                        var.paths[int(inst.result_id)] = path

    def root(pointer: int) -> int | None:
        steps = 0
        while pointer not in variables:
            base = chain_base.get(pointer)
            if base is None or steps > len(chain_base):
                return None
            pointer, steps = base, steps + 1
        return pointer

    roots = {chain: r for chain in chain_base if (r := root(chain)) is not None}
    bad_targets: set[int] = set()
    for inst in layout.head:
        if is_targeting(inst):
            if not harmless_decoration(inst):
                bad_targets.add(int(inst.operands[0]))
            continue
        for used in used_ids(inst):
            if used in variables:
                variables[used].escapes = True
    for name in bad_targets & variables.keys():
        variables[name].escapes = True
    for chain, owner in roots.items():
        if chain not in variables[owner].paths:
            variables[owner].whole = False
        if chain in bad_targets:
            variables[owner].escapes = True
    for function in layout.functions:
        for block in function.blocks:
            for inst in block.body:
                _note_use(inst, function, variables, roots, bad_targets)


def _note_use(
    inst: Instruction,
    function: Function,
    variables: dict[int, Variable],
    roots: dict[int, int],
    bad_targets: set[int],
) -> None:
    """Note what ``inst`` (in ``function``) does with the variables."""
    operands = inst.operands
    opcode = inst.opcode
    pointer = operands[0] if operands and isinstance(operands[0], Id) else None
    var_id = None
    if pointer is not None and opcode in _THROUGH_POINTER:
        var_id = int(pointer) if int(pointer) in variables else roots.get(int(pointer))
    if var_id is not None:
        var = variables[var_id]
        if var.function != function.id or accesses_volatile(inst):
            var.escapes = True
        if opcode == OP_LOAD:
            var.read = True
            if inst.result_id is not None and int(inst.result_id) in bad_targets:
                var.escapes = True
        rest: tuple[object, ...] = operands[1:]
    else:
        rest = operands
    for value in rest:
        if isinstance(value, Id):
            found = int(value) if value in variables else roots.get(int(value))
            if found is not None:
                variables[found].escapes = True
                variables[found].whole = False
        elif isinstance(value, tuple | list | EnumerantParameters):
            for used in ids_in(value):
                found = used if used in variables else roots.get(used)
                if found is not None:
                    variables[found].escapes = True
                    variables[found].whole = False


def _holds_values(type_id: int, declarations: Declarations, memo: dict[int, bool]) -> bool:
    """True when ``type_id`` is made of :data:`SSA_TYPES` only."""
    known = memo.get(type_id)
    if known is not None:
        return known
    memo[type_id] = False  # a type that contains itself is no value
    inst = declarations.by_id.get(type_id)
    ok = inst is not None and (
        inst.opcode in SSA_TYPES
        or (
            inst.opcode == OP_TYPE_POINTER
            and bool(inst.operands)
            and inst.operands[0] in VALUE_POINTERS
        )
    )
    if ok and inst is not None and inst.opcode != OP_TYPE_POINTER:
        if inst.opcode in (OP_TYPE_VECTOR, OP_TYPE_MATRIX, OP_TYPE_ARRAY):
            ok = bool(inst.operands) and _holds_values(int(inst.operands[0]), declarations, memo)
        elif inst.opcode == OP_TYPE_STRUCT:
            members = inst.operands[0] if inst.operands else ()
            ok = all(_holds_values(int(m), declarations, memo) for m in members)
    memo[type_id] = ok
    return ok


def rewrite_to_ssa(program: Program) -> Program:
    """``program`` with its promotable Function variables turned into SSA values and its
    variables nothing reads removed (a new program; ``program`` unchanged)."""
    if not program.holds(OP_VARIABLE, StorageClass.Function):
        return program.copy()
    layout = split(program, NAME)
    out = program.copy()
    declarations = Declarations(layout.head, out)
    variables = function_variables(layout, declarations)
    if not variables:
        return out
    _survey(layout, variables, declarations)
    memo: dict[int, bool] = {}
    promoted = {
        v: var
        for v, var in variables.items()
        if var.whole and not var.escapes and _holds_values(var.pointee, declarations, memo)
    }
    unread = {
        v for v, var in variables.items() if not var.read and not var.escapes and v not in promoted
    }
    if not promoted and not unread:
        return out
    undefs = Undefs(declarations)
    removed: set[int] = set(promoted) | unread
    promoted_in: dict[int, dict[int, Variable]] = {}
    for v, var in promoted.items():
        promoted_in.setdefault(var.function, {})[v] = var
    unread_in: dict[int, set[int]] = {}
    for v in unread:
        unread_in.setdefault(variables[v].function, set()).add(v)
    for function in layout.functions:
        if function.blocks and function.id in unread_in:
            removed |= _drop_unread(function, unread_in[function.id])
        if function.blocks and function.id in promoted_in:
            removed |= _promote(function, promoted_in[function.id], out, undefs)
    layout.head = without_targets(layout.head, removed) + declarations.added
    out.instructions = join(layout)
    return out


def _drop_unread(function: Function, unread: set[int]) -> set[int]:
    """Remove the variables of ``unread`` with their stores and access chains; the ids
    that went."""
    gone = set(unread)
    for block in function.blocks:
        body = []
        for inst in block.body:
            pointer = inst.operands[0] if inst.operands else None
            rooted = isinstance(pointer, Id) and int(pointer) in gone
            if inst.opcode in ACCESS_CHAINS and rooted and inst.result_id is not None:
                gone.add(int(inst.result_id))
                continue
            if (inst.opcode == OP_STORE and rooted) or (
                inst.opcode == OP_VARIABLE
                and inst.result_id is not None
                and int(inst.result_id) in gone
            ):
                continue
            body.append(inst)
        block.body = body
    return gone


def _promote(
    function: Function, promoted: dict[int, Variable], program: Program, undefs: Undefs
) -> set[int]:
    """Promote the variables of ``promoted`` (all of ``function``); the ids that went."""
    gone = _convert_chains(function, promoted, program)
    stores: dict[int, set[int]] = {v: set() for v in promoted}
    for block in function.blocks:
        for inst in block.body:
            if inst.opcode == OP_STORE and inst.operands and inst.operands[0] in stores:
                stores[int(inst.operands[0])].add(block.id)
    cfg = graph(function)
    tree = dominator_tree(cfg)
    front = tree.frontiers()
    place = {label: n for n, label in enumerate(cfg.blocks)}
    phis: dict[int, list[tuple[int, int]]] = {}  # label → (variable, phi id)
    phi_var: dict[int, int] = {}
    for v in promoted:
        for label in sorted(iterated_frontier(front, stores[v]), key=place.__getitem__):
            phi = program.new_id()
            phis.setdefault(label, []).append((v, phi))
            phi_var[phi] = v
    pairs: dict[int, dict[int, int | None]] = {phi: {} for phi in phi_var}
    replace = Replacements()
    gone |= set(promoted)
    loads: list[int] = []  # the loads replaced by a value, in a block a path reaches

    def undef_of(v: int) -> int:
        return undefs.of(promoted[v].pointee)

    stacks: dict[int, list[int | None]] = {v: [var.initializer] for v, var in promoted.items()}
    work: list[tuple[int, list[int] | None]] = [(cfg.entry, None)]
    while work:
        label, pushed = work.pop()
        if pushed is not None:
            for v in pushed:
                stacks[v].pop()
            continue
        pushed = []
        for v, phi in phis.get(label, ()):
            stacks[v].append(phi)
            pushed.append(v)
        block = cfg.blocks[label]
        body = []
        for inst in block.body:
            pointer = inst.operands[0] if inst.operands else None
            target = int(pointer) if isinstance(pointer, Id) and int(pointer) in promoted else None
            if target is not None and inst.opcode == OP_LOAD and inst.result_id is not None:
                value = stacks[target][-1]
                replace[int(inst.result_id)] = undef_of(target) if value is None else value
                gone.add(int(inst.result_id))
                loads.append(int(inst.result_id))
                continue
            if (
                target is not None
                and inst.opcode == OP_STORE
                and len(inst.operands) > 1
                and isinstance(inst.operands[1], Id)
            ):
                stacks[target].append(int(inst.operands[1]))
                pushed.append(target)
                continue
            if (
                inst.opcode == OP_VARIABLE
                and inst.result_id is not None
                and int(inst.result_id) in promoted
            ):
                continue
            body.append(inst)
        block.body = body
        for succ in cfg.succs[label]:
            for v, phi in phis.get(succ, ()):
                pairs[phi][label] = stacks[v][-1]
        work.append((label, pushed))
        work.extend((child, None) for child in reversed(tree.children[label]))
    for label, block in cfg.blocks.items():
        if not tree.reaches(label):
            block.body = _unreached(block.body, promoted, replace, gone, undef_of)
    live = _live_phis(loads, pairs, replace, undefs, promoted, phi_var)
    for label, block in cfg.blocks.items():
        new_phis = []
        for v, phi in phis.get(label, ()):
            if phi not in live:
                continue
            entries = []
            for pred in cfg.preds[label]:
                value = pairs[phi].get(pred)
                value = undef_of(v) if value is None else replace.resolve(value)
                entries.append((Id(value), Id(pred)))
            new_phis.append(
                Instruction(OP_PHI, TypeId(promoted[v].pointee), Id(phi), (tuple(entries),))
            )
        block.body = new_phis + [replace.apply(inst) for inst in block.body]
    return gone


def _convert_chains(
    function: Function, promoted: dict[int, Variable], program: Program
) -> set[int]:
    """Turn each load through an access chain of a promoted variable into a load of it
    whole and an ``OpCompositeExtract``, each store through one into a load of it whole,
    an ``OpCompositeInsert`` and a store of it whole (in place); the chains' ids, which
    went."""
    chains = {c: (v, path) for v, var in promoted.items() for c, path in var.paths.items()}
    if not chains:
        return set()
    for block in function.blocks:
        body: list[Instruction] = []
        for inst in block.body:
            if inst.opcode in ACCESS_CHAINS and inst.result_id in chains:
                continue
            pointer = inst.operands[0] if inst.operands else None
            found = chains.get(int(pointer)) if isinstance(pointer, Id) else None
            if found is None or inst.opcode not in (OP_LOAD, OP_STORE):
                body.append(inst)
                continue
            v, path = found
            value_type = TypeId(promoted[v].pointee)
            whole = Id(program.new_id())
            body.append(Instruction(OP_LOAD, value_type, whole, (Id(v), None)))
            if inst.opcode == OP_LOAD:
                body.append(
                    Instruction(
                        OP_COMPOSITE_EXTRACT, inst.result_type, inst.result_id, (whole, path)
                    )
                )
            else:
                new = Id(program.new_id())
                body.append(
                    Instruction(
                        OP_COMPOSITE_INSERT, value_type, new, (inst.operands[1], whole, path)
                    )
                )
                body.append(Instruction(OP_STORE, None, None, (Id(v), new, None)))
        block.body = body
    return set(chains)


def _unreached(
    body: list[Instruction],
    promoted: dict[int, Variable],
    replace: Replacements,
    gone: set[int],
    undef_of: Callable[[int], int],
) -> list[Instruction]:
    """A block the entry does not reach: loads of promoted variables become undefined
    values, stores to them go."""
    kept = []
    for inst in body:
        pointer = inst.operands[0] if inst.operands else None
        v = int(pointer) if isinstance(pointer, Id) and int(pointer) in promoted else None
        if v is not None and inst.opcode == OP_LOAD and inst.result_id is not None:
            replace[int(inst.result_id)] = undef_of(v)
            gone.add(int(inst.result_id))
            continue
        if v is not None and inst.opcode == OP_STORE:
            continue
        kept.append(inst)
    return kept


def _live_phis(
    loads: list[int],
    pairs: dict[int, dict[int, int | None]],
    replace: Replacements,
    undefs: Undefs,
    promoted: dict[int, Variable],
    phi_var: dict[int, int],
) -> set[int]:
    """The new phis worth keeping: those joining two values or more (the others replaced
    by their one value in ``replace``) that one of the ``loads`` they replace read, or
    that such a phi joins."""
    active = set(phi_var)
    changed = True
    while changed:
        changed = False
        for phi in list(active):
            values = {None if v is None else replace.resolve(v) for v in pairs[phi].values()}
            values.discard(phi)
            if len(values) > 1:
                continue
            only = values.pop() if values else None
            replace[phi] = undefs.of(promoted[phi_var[phi]].pointee) if only is None else only
            active.discard(phi)
            changed = True
    live = {found for load in loads if (found := replace.resolve(load)) in active}
    work = list(live)
    while work:
        for value in pairs[work.pop()].values():
            if value is None:
                continue
            found = replace.resolve(value)
            if found in active and found not in live:
                live.add(found)
                work.append(found)
    return live
