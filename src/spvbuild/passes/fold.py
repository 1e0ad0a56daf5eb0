"""Constant folding (``fold-constants``, ``fold-spec-const-op-composite``): what only
constants feed, made a constant.

``fold-spec-const-op-composite`` (spirv-opt's name and scope): every ``OpSpecConstantOp``
and ``OpSpecConstantComposite`` whose operands are all constants no specialization changes
becomes an ``OpConstant*`` / ``OpConstantComposite`` in its place (its id kept), or, when
an equal constant is declared before it and it has no decoration, goes and its uses name
that one.

``fold-constants`` does that, then works out every instruction in the functions whose id
operands are all such constants (:class:`~spvbuild.passes.constant_values.ConstantFolder`
says which instructions and how: integer arithmetic, bits, comparisons and conversions of
every width up to 64 with SPIR-V's wraparound, IEEE float arithmetic where no rounding
could differ, logical operations, select, composites, vector shuffles, a few exact
GLSL.std.450 instructions): the instruction goes and its uses name a constant of its value,
found or added at the end of the globals.  Names and decorations of what goes go with it.  The length of an array of explicit layout
stays as it is (:func:`laid_out_lengths`).
Constants are not deduplicated here (``remove-duplicates`` does that).
"""

from __future__ import annotations

from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Decoration
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_CONSTANT_COMPOSITE,
    OP_CONSTANT_FALSE,
    OP_CONSTANT_NULL,
    OP_CONSTANT_TRUE,
    OP_DECORATE,
    OP_SPEC_CONSTANT_COMPOSITE,
    OP_SPEC_CONSTANT_OP,
    OP_TYPE_ARRAY,
)
from spvbuild.generated.core.tables import EXT_INST_OPCODES as _EXT_INST
from spvbuild.passes.constant_values import FOLDED, ConstantFolder, flat
from spvbuild.passes.declarations import DeclarationPool
from spvbuild.passes.ids import IdMap, is_targeting, rename, uses_any
from spvbuild.passes.program import Layout, Program, join, split
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "NAME",
    "SPEC_NAME",
    "fold_constants",
    "fold_globals",
    "fold_spec_constant_ops",
    "laid_out_lengths",
    "rename_uses",
]

NAME = "fold-constants"
SPEC_NAME = "fold-spec-const-op-composite"


def fold_constants(program: Program) -> Program:
    """``program`` with its constant expressions folded, in the globals and the functions
    (a new program; ``program`` unchanged)."""
    return _fold(program, NAME, functions=True)


def fold_spec_constant_ops(program: Program) -> Program:
    """``program`` with its ``OpSpecConstantOp`` and ``OpSpecConstantComposite`` over
    constants made constants (a new program; ``program`` unchanged)."""
    return _fold(program, SPEC_NAME, functions=False)


def _fold(program: Program, name: str, *, functions: bool) -> Program:
    layout = split(program, name)
    out = program.copy()
    if not _may_fold(layout, functions=functions):
        return out
    values, aliases = fold_globals(out, layout)
    if functions:
        for function in layout.functions:
            for block in function.blocks:
                block.body = [inst for inst in block.body if not _folded(inst, values, aliases)]
    layout.head = values.declarations.head_with_additions()
    if aliases:
        rename_uses(layout, aliases)
    out.instructions = join(layout)
    return out


_VALUED = frozenset(
    {OP_CONSTANT, OP_CONSTANT_TRUE, OP_CONSTANT_FALSE, OP_CONSTANT_NULL, OP_CONSTANT_COMPOSITE}
)
"""The globals that :meth:`ConstantFolder.observe` may give a value."""


def _may_fold(layout: Layout, *, functions: bool) -> bool:
    """False when nothing can fold, found without reading the globals' values: an
    instruction is worked out only when every id it computes with has a value
    (:meth:`ConstantFolder.evaluate`), and only the constants of :data:`_VALUED` have one
    before something folds."""
    head = layout.head
    valued = {i.result_id for i in head if i.opcode in _VALUED and i.result_id is not None}

    def computes_on_values(args: list[object], ext_inst: bool = False) -> bool:
        # (an OpExtInst's first operand is its set)
        return all(not isinstance(a, Id) or a in valued for a in args[1 if ext_inst else 0 :])

    for inst in head:
        if inst.opcode == OP_SPEC_CONSTANT_OP:
            if computes_on_values(flat(inst.operands[1:])):
                return True
        elif inst.opcode == OP_SPEC_CONSTANT_COMPOSITE and computes_on_values(flat(inst.operands)):
            return True
    if not functions:
        return False
    for function in layout.functions:
        for block in function.blocks:
            for inst in block.body:
                if (
                    inst.opcode in FOLDED
                    and inst.result_id is not None
                    and inst.result_type is not None
                    and computes_on_values(flat(inst.operands), inst.opcode in _EXT_INST)
                ):
                    return True
    return False


def fold_globals(program: Program, layout: Layout) -> tuple[ConstantFolder, dict[int, int]]:
    """Fold ``layout``'s globals in place (``program`` gives the fresh ids); their values,
    whose declarations hold the new head, and the ids that now stand for another."""
    declarations = DeclarationPool(program, [])
    values = ConstantFolder(declarations)
    aliases: dict[int, int] = {}
    head: list[Instruction] = []
    decorated = {
        int(i.operands[0])
        for i in layout.head
        if is_targeting(i) and tables.INSTRUCTIONS[i.opcode].section == "annotations"
    }
    kept_spec = laid_out_lengths(layout.head)
    for inst in layout.head:
        values.observe(inst)
        replacement: Instruction | None = inst
        if (
            inst.opcode in (OP_SPEC_CONSTANT_OP, OP_SPEC_CONSTANT_COMPOSITE)
            and inst.result_id is not None
            and int(inst.result_id) not in kept_spec
        ):
            placed = _spec_folded(inst, values, int(inst.result_id) in decorated)
            if placed is not None:
                kept, replacement = placed
                if kept != int(inst.result_id):
                    aliases[int(inst.result_id)] = kept
        head += declarations.take_added()
        if replacement is not None:
            declarations.adopt(replacement)
            head.append(replacement)
    declarations.head = head
    return values, aliases


def laid_out_lengths(head: list[Instruction]) -> set[int]:
    """The ids that give the length of an array of explicit layout (an ``ArrayStride``):
    they stay specialization constants, since the offsets around such an array were
    written without its length (glslang lays out a block as if a length set by a
    specialization constant were 1), and a fixed length would make them overlap."""
    strided = {
        int(i.operands[0])
        for i in head
        if i.opcode == OP_DECORATE
        and len(i.operands) > 1
        and _decoration(i) == Decoration.ArrayStride
    }
    return {
        int(i.operands[1])
        for i in head
        if i.opcode == OP_TYPE_ARRAY and i.result_id is not None and int(i.result_id) in strided
    }


def _decoration(inst: Instruction) -> object:
    value = inst.operands[1]
    return value.enumerant if isinstance(value, EnumerantParameters) else value


def _spec_folded(
    inst: Instruction, values: ConstantFolder, decorated: bool
) -> tuple[int, Instruction | None] | None:
    """The constant an OpSpecConstantOp / OpSpecConstantComposite over constants is (see
    :meth:`ConstantFolder.place`; a decorated one keeps its id, and its decorations: a
    ``BuiltIn WorkgroupSize``), None when it is not worked out."""
    if inst.result_type is None or inst.result_id is None:
        return None
    if inst.opcode == OP_SPEC_CONSTANT_OP:
        if not inst.operands:
            return None
        value = values.evaluate(inst, inst.operands[1:], int(inst.operands[0]))
    else:
        parts = [values.values.get(int(c)) for c in _ids(inst)]
        value = tuple(parts) if parts and all(p is not None for p in parts) else None
    if value is None:
        return None
    return values.place(int(inst.result_type), value, int(inst.result_id), keep_id=decorated)


def _ids(inst: Instruction) -> list[int]:
    return [int(v) for v in flat(inst.operands)]


def _folded(inst: Instruction, values: ConstantFolder, aliases: dict[int, int]) -> bool:
    """Fold one instruction of a function (True: it goes, its id now an alias)."""
    if inst.opcode not in FOLDED or inst.result_id is None or inst.result_type is None:
        return False
    value = values.evaluate(inst)
    if value is None:
        return False
    constant = values.materialize(int(inst.result_type), value)
    if constant is None:
        return False
    aliases[int(inst.result_id)] = constant
    values.set(int(inst.result_id), int(inst.result_type), value)
    return True


def rename_uses(layout: Layout, aliases: dict[int, int]) -> None:
    """Uses of the ids of ``aliases`` name what they stand for; their names and
    decorations go."""

    final = IdMap(aliases)
    layout.head = [
        rename(inst, final) if uses_any(inst, aliases) else inst
        for inst in layout.head
        if not (is_targeting(inst) and int(inst.operands[0]) in aliases)
    ]
    for function in layout.functions:
        for block in function.blocks:
            block.body = [
                rename(inst, final) if uses_any(inst, aliases) else inst for inst in block.body
            ]
