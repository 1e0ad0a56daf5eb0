"""Splitting Function structs and arrays into one variable per element
(``scalar-replacement``), so that ``ssa-rewrite`` can promote the elements.

A Function variable declared in its function's first block that holds a struct, or an
array of at most :data:`MAX_ELEMENTS` elements whose length is an ``OpConstant``, is split
when at least one use of it is an access chain and every use of it is one of:

* an ``OpAccessChain``/``OpInBoundsAccessChain`` of it whose first index is an
  ``OpConstant`` naming an element, and whose result is only loaded from, stored to, or
  the base of another access chain (no pointer to an element passed on);
* a non-volatile ``OpLoad`` of it whole, which becomes a load of each element and an
  ``OpCompositeConstruct``;
* a non-volatile ``OpStore`` to it whole, which becomes an ``OpCompositeExtract`` of each
  element and a store of each;
* a name, or a ``RelaxedPrecision`` decoration (they go with it).

Its initializer may be an ``OpConstantComposite`` (each element starts from its
constituent), an ``OpConstantNull`` (each from a null of its type) or an ``OpUndef``.  An
access chain of one index becomes the element's variable; a longer one, an access chain of
the element's variable by the remaining indices.  Elements nothing names get no variable
(unless the whole is loaded or stored).  Elements that are structs or arrays themselves
are split in turn, one level each round, until nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spvbuild.generated.core.enums import StorageClass
from spvbuild.generated.core.opcodes import (
    OP_COMPOSITE_CONSTRUCT,
    OP_COMPOSITE_EXTRACT,
    OP_CONSTANT_COMPOSITE,
    OP_CONSTANT_NULL,
    OP_LOAD,
    OP_STORE,
    OP_TYPE_ARRAY,
    OP_TYPE_STRUCT,
    OP_UNDEF,
    OP_VARIABLE,
)
from spvbuild.passes.ids import ids_in, is_targeting, used_ids
from spvbuild.passes.mem2reg import ACCESS_CHAINS, function_variables
from spvbuild.passes.program import Block, Layout, Program, join, split
from spvbuild.passes.rewriting import (
    Declarations,
    Replacements,
    accesses_volatile,
    harmless_decoration,
    without_targets,
)
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

__all__ = ["MAX_ELEMENTS", "NAME", "replace_scalars"]

NAME = "scalar-replacement"

MAX_ELEMENTS = 100
"""The most elements of an array (or members of a struct) split (spirv-opt's default
limit for ``--scalar-replacement``)."""

MAX_ROUNDS = 16
"""The most levels of nesting split in one run of the pass."""


@dataclass(slots=True)
class Aggregate:
    """A variable that may be split.

    Fields: ``elements`` (the type of each element), ``initials`` (each element's
    initializer or None for none; None for a null initializer), ``splittable`` (False once a use rules it out),
    ``chained`` (True once an access chain of it was seen), ``whole`` (True once it is
    loaded or stored whole), ``used`` (the elements access chains name), ``chain_types``
    (element → the pointer type of a one-index chain to it).
    """

    elements: list[int]
    initials: list[int | None] | None
    splittable: bool = True
    chained: bool = False
    whole: bool = False
    used: set[int] = field(default_factory=set)
    chain_types: dict[int, int] = field(default_factory=dict)


def replace_scalars(program: Program) -> Program:
    """``program`` with its splittable Function structs and arrays split into one
    variable per element (a new program; ``program`` unchanged)."""
    out = program.copy()
    if not program.holds(OP_VARIABLE, StorageClass.Function):
        return out
    for _ in range(MAX_ROUNDS):
        if not _round(out):
            break
    return out


def _round(program: Program) -> bool:
    """Split one level of the splittable variables of ``program`` in place; True when
    something was split."""
    layout = split(program, NAME)
    declarations = Declarations(layout.head, program)
    found: dict[int, Aggregate] = {}
    for var_id, var in function_variables(layout, declarations).items():
        aggregate = _aggregate(var.pointee, var.initializer, declarations)
        if aggregate is not None:
            found[var_id] = aggregate
    if not found:
        return False
    _survey(layout, found, declarations)
    chosen = {v: a for v, a in found.items() if a.splittable and a.chained}
    if not chosen:
        return False
    removed: set[int] = set(chosen)
    for function in layout.functions:
        if function.blocks:
            removed |= _split_in(function.blocks, chosen, declarations)
    layout.head = without_targets(layout.head, removed) + declarations.added
    program.instructions = join(layout)
    return True


def _constant_value(rid: int, declarations: Declarations) -> int | None:
    """The value of an integer ``OpConstant`` (None for anything else)."""
    return declarations.integer(rid)


def _aggregate(
    pointee: int, initializer: int | None, declarations: Declarations
) -> Aggregate | None:
    """What splitting a variable of type ``pointee`` would make (None when it cannot be
    split)."""
    inst = declarations.by_id.get(pointee)
    if inst is None or not inst.operands:
        return None
    if inst.opcode == OP_TYPE_STRUCT:
        elements = [int(m) for m in inst.operands[0]]
    elif inst.opcode == OP_TYPE_ARRAY and len(inst.operands) > 1:
        length = _constant_value(int(inst.operands[1]), declarations)
        if length is None or length < 1:
            return None
        elements = [int(inst.operands[0])] * length
    else:
        return None
    if not 0 < len(elements) <= MAX_ELEMENTS:
        return None
    initials = _initials(initializer, elements, declarations)
    if initials is _CANNOT:
        return None
    return Aggregate(elements, initials)


def _initials(
    initializer: int | None, elements: list[int], declarations: Declarations
) -> list[int | None] | None:
    """Each element's initializer; None for a null initializer (each element's a null
    of its type), :data:`_CANNOT` for one that cannot be split."""
    if initializer is None:
        return [None] * len(elements)
    inst = declarations.by_id.get(initializer)
    if inst is None:
        return _CANNOT
    if inst.opcode == OP_UNDEF:
        return [None] * len(elements)
    if inst.opcode == OP_CONSTANT_COMPOSITE and inst.operands:
        parts = [int(p) for p in inst.operands[0]]
        return list(parts) if len(parts) == len(elements) else _CANNOT
    if inst.opcode == OP_CONSTANT_NULL:
        return None
    return _CANNOT


_CANNOT: list[int | None] = []
"""What :func:`_initials` gives for an initializer that cannot be split."""


def _null_of(element: int, declarations: Declarations) -> int:
    """An ``OpConstantNull`` of ``element`` (declared when missing)."""
    for rid, inst in declarations.by_id.items():
        if (
            inst.opcode == OP_CONSTANT_NULL
            and inst.result_type is not None
            and int(inst.result_type) == element
        ):
            return rid
    rid = declarations.program.new_id()
    declarations.declare(Instruction(OP_CONSTANT_NULL, TypeId(element), Id(rid), ()))
    return rid


def _survey(layout: Layout, found: dict[int, Aggregate], declarations: Declarations) -> None:
    """Rule out the variables of ``found`` some use forbids (see the module's
    docstring), and note what the others' uses name."""
    chains: dict[int, int] = {}  # one of their access chains → the variable
    for function in layout.functions:
        for block in function.blocks:
            for inst in block.body:
                if inst.opcode in ACCESS_CHAINS and inst.result_id is not None and inst.operands:
                    base = inst.operands[0]
                    if isinstance(base, Id) and int(base) in found:
                        chains[int(inst.result_id)] = int(base)
    for inst in layout.head:
        if is_targeting(inst):
            target = int(inst.operands[0])
            owner = found.get(target) or found.get(chains.get(target, 0))
            if owner is not None and not harmless_decoration(inst):
                owner.splittable = False
            continue
        for used in used_ids(inst):
            owner = found.get(used) or found.get(chains.get(used, 0))
            if owner is not None:
                owner.splittable = False
    for function in layout.functions:
        for block in function.blocks:
            for inst in block.body:
                _note_use(inst, found, chains, declarations)


def _note_use(
    inst: Instruction,
    found: dict[int, Aggregate],
    chains: dict[int, int],
    declarations: Declarations,
) -> None:
    """Note what ``inst`` does with the variables of ``found`` and their chains."""
    operands = inst.operands
    first = int(operands[0]) if operands and isinstance(operands[0], Id) else None
    rest: Sequence[object] = operands
    if first is not None and first in found:
        aggregate = found[first]
        if inst.opcode in ACCESS_CHAINS:
            aggregate.chained = True
            indices = operands[1] if len(operands) > 1 and isinstance(operands[1], tuple) else ()
            index = (
                _constant_value(int(indices[0]), declarations)
                if indices and isinstance(indices[0], Id)
                else None
            )
            if index is None or not 0 <= index < len(aggregate.elements):
                aggregate.splittable = False
            else:
                aggregate.used.add(index)
                if len(indices) == 1 and inst.result_type is not None:
                    aggregate.chain_types.setdefault(index, int(inst.result_type))
            rest = indices[1:]
        elif inst.opcode in (OP_LOAD, OP_STORE):
            aggregate.whole = True
            if accesses_volatile(inst):
                aggregate.splittable = False
            rest = operands[1:]
    elif (
        first is not None
        and first in chains
        and (inst.opcode in (OP_LOAD, OP_STORE) or inst.opcode in ACCESS_CHAINS)
    ):
        rest = operands[1:]
    for value in rest:
        for used in ids_in(value):
            owner = found.get(used) or found.get(chains.get(used, 0))
            if owner is not None:
                owner.splittable = False


def _has_result(inst: Instruction) -> bool:
    """Whether ``inst`` has a result type and a result id (a test that narrows neither
    field where it is made)."""
    return inst.result_type is not None and inst.result_id is not None


def _split_in(
    blocks: list[Block], chosen: dict[int, Aggregate], declarations: Declarations
) -> set[int]:
    """Split the variables of ``chosen`` that ``blocks`` (a function's) declare; the ids
    that went."""
    new_vars: dict[int, dict[int, int]] = {}  # variable → element → its new variable
    first = blocks[0]
    body: list[Instruction] = []
    for inst in first.body:
        var = (
            int(inst.result_id)
            if inst.opcode == OP_VARIABLE and inst.result_id is not None
            else None
        )
        if var is None or var not in chosen:
            body.append(inst)
            continue
        aggregate = chosen[var]
        wanted = range(len(aggregate.elements)) if aggregate.whole else sorted(aggregate.used)
        mine = new_vars[var] = {}
        for index in wanted:
            element = aggregate.elements[index]
            pointer = aggregate.chain_types.get(index) or declarations.pointer(
                StorageClass.Function, element
            )
            mine[index] = declarations.program.new_id()
            initial = (
                _null_of(element, declarations)
                if aggregate.initials is None
                else aggregate.initials[index]
            )
            operands = (StorageClass.Function, None if initial is None else Id(initial))
            body.append(Instruction(OP_VARIABLE, TypeId(pointer), Id(mine[index]), operands))
    first.body = body
    if not new_vars:
        return set()
    gone: set[int] = set()
    replace = Replacements()
    for block in blocks:
        rewritten: list[Instruction] = []
        for inst in block.body:
            base = (
                int(inst.operands[0])
                if inst.operands and isinstance(inst.operands[0], Id)
                else None
            )
            if base is None or base not in new_vars:
                rewritten.append(inst)
                continue
            aggregate, elements = chosen[base], new_vars[base]
            if inst.opcode in ACCESS_CHAINS and inst.result_id is not None:
                chosen_index = _constant_value(int(inst.operands[1][0]), declarations)
                assert chosen_index is not None  # (the survey checked every chain)
                if len(inst.operands[1]) == 1:
                    replace[int(inst.result_id)] = elements[chosen_index]
                    gone.add(int(inst.result_id))
                else:
                    rewritten.append(
                        inst._replace(
                            operands=(Id(elements[chosen_index]), tuple(inst.operands[1][1:]))
                        )
                    )
            elif inst.opcode == OP_LOAD and _has_result(inst):
                parts = []
                for index, element in enumerate(aggregate.elements):
                    part = declarations.program.new_id()
                    rewritten.append(
                        Instruction(OP_LOAD, TypeId(element), Id(part), (Id(elements[index]), None))
                    )
                    parts.append(Id(part))
                # (Any, read unnarrowed: compiled, a field narrowed to int comes out a
                # plain int, no longer an id; see spvbuild.accel.compiled_passes)
                result_type: Any = inst.result_type
                result_id: Any = inst.result_id
                rewritten.append(
                    Instruction(OP_COMPOSITE_CONSTRUCT, result_type, result_id, (tuple(parts),))
                )
            elif inst.opcode == OP_STORE:
                whole = inst.operands[1]
                for index, element in enumerate(aggregate.elements):
                    part = declarations.program.new_id()
                    rewritten.append(
                        Instruction(
                            OP_COMPOSITE_EXTRACT, TypeId(element), Id(part), (whole, (index,))
                        )
                    )
                    rewritten.append(
                        Instruction(OP_STORE, None, None, (Id(elements[index]), Id(part), None))
                    )
            else:
                rewritten.append(inst)
        block.body = rewritten
    if replace:
        for block in blocks:
            block.body = [replace.apply(inst) for inst in block.body]
    return gone
