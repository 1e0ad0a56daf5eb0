"""Folding branches on constants (``eliminate-dead-branches``).

An ``OpBranchConditional`` whose condition is a constant (``OpConstantTrue``,
``OpConstantFalse``, a null ``bool``) and an ``OpSwitch`` whose selector is an integer
``OpConstant`` (or null) take the one target they can, and the blocks no path reaches any
more go (:func:`spvbuild.passes.unreachable.remove_unreachable_blocks`).  The phis of a
block that loses the edge keep no pair for it.

A block that a folded branch leaves dominated by a block after it (a switch's case
reached now only by falling through from another) moves after its dominator
(:mod:`spvbuild.passes.block_order`).

A loop whose continue target no path reaches (it never loops: a folded branch, or a body
that always leaves) loses its ``OpLoopMerge`` when its header ends in an ``OpBranch`` and
its exits leave cleanly (as below), and its continue target goes.  A branch whose folding would drop a loop's back edge (the loop then has none, which
SPIR-V forbids) stays.  Structured control flow decides what the header of the construct
becomes:

* a block without a merge instruction, or a loop header: an ``OpBranch`` to the target
  (the loop's ``OpLoopMerge`` stays);
* a selection header (``OpSelectionMerge``): an ``OpBranch`` to the target without the
  merge instruction when every other block that branches to the merge block is directly
  in the construct (not in a construct nested in it, not a header: those branches would
  leave their own construct elsewhere than its merge once the selection is gone) and
  branches there with an ``OpBranch`` (a two-way break needs the construct it leaves);
  otherwise the construct stays, its dead target replaced by the merge block
  (``OpBranchConditional``) or its cases dropped (an ``OpSwitch`` with the taken target
  as its default).
"""

from __future__ import annotations

from spvbuild.generated.core.opcodes import (
    OP_BRANCH,
    OP_BRANCH_CONDITIONAL,
    OP_CONSTANT,
    OP_CONSTANT_FALSE,
    OP_CONSTANT_NULL,
    OP_CONSTANT_TRUE,
    OP_PHI,
    OP_SELECTION_MERGE,
    OP_SWITCH,
    OP_TYPE_BOOL,
    OP_TYPE_INT,
)
from spvbuild.passes.block_order import order_by_dominance
from spvbuild.passes.cfg import DominatorTree, Graph, dominator_tree, graph
from spvbuild.passes.control_flow import MERGES, terminator
from spvbuild.passes.program import Block, Function, Program, join, split
from spvbuild.passes.rewriting import Declarations
from spvbuild.passes.unreachable import remove_unreachable_blocks
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction

__all__ = ["NAME", "eliminate_dead_branches"]

NAME = "eliminate-dead-branches"

_LOOP_MERGES = frozenset(
    op for op, (_, continue_target) in MERGES.items() if continue_target is not None
)
"""The merge instructions of loops (those that name a continue target)."""


def eliminate_dead_branches(program: Program) -> Program:
    """``program`` with its branches on constants folded and the blocks they no longer
    reach removed (a new program; ``program`` unchanged)."""
    layout = split(program, NAME)
    out = program.copy()
    declarations = Declarations(layout.head, out)
    changed = False
    for function in layout.functions:
        changed = _fold(function, declarations) or changed
    if changed:
        out.instructions = join(layout)
        out = remove_unreachable_blocks(out)
        layout = split(out, NAME)
    moved = False
    unwrapped = False
    for function in layout.functions:
        moved = changed and order_by_dominance(function) or moved
        unwrapped = _unwrap_loops(function) or unwrapped
    if moved or unwrapped:
        out.instructions = join(layout)
    return remove_unreachable_blocks(out) if unwrapped else out


def _unwrap_loops(function: Function) -> bool:
    """Drop the ``OpLoopMerge`` of each loop whose continue target no path reaches and
    whose exits leave cleanly (in place); True when one went."""
    if not any(
        len(block.body) > 1 and block.body[-2].opcode in _LOOP_MERGES for block in function.blocks
    ):
        return False  # no loop (a merge instruction stands before its block's terminator)
    changed = False
    while True:
        cfg = graph(function)
        tree = dominator_tree(cfg)
        structure = dominator_tree(graph(function, structured=True))
        for label, merge in cfg.merges.items():
            if merge.continue_target is None or not tree.reaches(label):
                continue
            if tree.reaches(merge.continue_target):
                continue
            last = terminator(cfg.blocks[label])
            if last is None or last.opcode != OP_BRANCH:
                continue  # without its merge, a two-way header would be unstructured
            if _leaves_cleanly(label, merge.merge, cfg, tree, structure):
                del cfg.blocks[label].body[-2]
                changed = True
                break
        else:
            return changed


def _condition(rid: object, declarations: Declarations) -> bool | None:
    """The value of a constant boolean (None for anything else)."""
    if not isinstance(rid, Id):
        return None
    inst = declarations.by_id.get(int(rid))
    if inst is None:
        return None
    if inst.opcode == OP_CONSTANT_TRUE:
        return True
    if inst.opcode == OP_CONSTANT_FALSE:
        return False
    if inst.opcode == OP_CONSTANT_NULL and inst.result_type is not None:
        return False if declarations.opcode(int(inst.result_type)) == OP_TYPE_BOOL else None
    return None


def _selector(rid: object, declarations: Declarations) -> tuple[int, int] | None:
    """The value of a constant integer as its bits, and its width (None for anything
    else)."""
    if not isinstance(rid, Id):
        return None
    inst = declarations.by_id.get(int(rid))
    if inst is None or inst.result_type is None:
        return None
    kind = declarations.by_id.get(int(inst.result_type))
    if (
        kind is None
        or kind.opcode != OP_TYPE_INT
        or not kind.operands
        or not isinstance(kind.operands[0], int)
    ):
        return None
    width = int(kind.operands[0])
    if inst.opcode == OP_CONSTANT_NULL:
        return 0, width
    if inst.opcode != OP_CONSTANT or not inst.operands or not isinstance(inst.operands[0], int):
        return None
    return int(inst.operands[0]) & ((1 << width) - 1), width


def _taken(last: Instruction, declarations: Declarations) -> int | None:
    """The one target a branch on a constant takes (None when it is no such branch)."""
    operands = last.operands
    if last.opcode == OP_BRANCH_CONDITIONAL and len(operands) >= 3:
        value = _condition(operands[0], declarations)
        if value is None:
            return None
        target = operands[1] if value else operands[2]
        return int(target) if isinstance(target, Id) else None
    if last.opcode == OP_SWITCH and len(operands) >= 2 and isinstance(operands[1], Id):
        selector = _selector(operands[0], declarations)
        if selector is None:
            return None
        bits, width = selector
        cases = operands[2] if len(operands) > 2 and isinstance(operands[2], tuple) else ()
        for case in cases:
            if not (isinstance(case, tuple) and len(case) == 2 and isinstance(case[0], int)):
                return None
            if int(case[0]) & ((1 << width) - 1) == bits and isinstance(case[1], Id):
                return int(case[1])
        return int(operands[1])
    return None


def _fold(function: Function, declarations: Declarations) -> bool:
    """Fold the branches on constants of ``function`` in place; True when one changed."""
    changed = False
    while _fold_one(function, declarations):
        changed = True
    return changed


def _fold_one(function: Function, declarations: Declarations) -> bool:
    """Fold the first branch on a constant of ``function`` that changes (in place);
    False when none does."""
    cfg = graph(function)
    tree: DominatorTree | None = None
    structure: DominatorTree | None = None
    for label, block in cfg.blocks.items():
        last = terminator(block)
        if last is None:
            continue
        taken = _taken(last, declarations)
        if taken is None or taken not in cfg.blocks:
            continue
        tree = tree or dominator_tree(cfg)
        if _drops_back_edge(label, taken, cfg, tree):
            continue
        merge = cfg.merges.get(label)
        branch = Instruction(OP_BRANCH, None, None, (Id(taken),))
        if merge is None or block.body[-2].opcode != OP_SELECTION_MERGE:
            body = [*block.body[:-1], branch]  # a loop header keeps its OpLoopMerge
        else:
            structure = structure or dominator_tree(graph(function, structured=True))
            if _leaves_cleanly(label, merge.merge, cfg, tree, structure):
                body = [*block.body[:-2], branch]
            else:
                body = [*block.body[:-1], _kept_construct(last, taken, merge.merge)]
        if body == block.body:
            continue
        block.body = body
        kept = set(_targets(body[-1]))
        for old in cfg.succs[label]:
            if old not in kept:
                _drop_parent(cfg.blocks[old], label)
        return True
    return False


def _drops_back_edge(label: int, taken: int, cfg: Graph, tree: DominatorTree) -> bool:
    """True when folding the branch of ``label`` to ``taken`` drops the back edge of a
    loop (an edge to a loop header that dominates ``label``)."""
    for old in cfg.succs[label]:
        merge = cfg.merges.get(old)
        if (
            old != taken
            and merge is not None
            and merge.continue_target is not None
            and tree.dominates(old, label)
        ):
            return True
    return False


def _targets(last: Instruction) -> list[int]:
    """The labels a terminator names (a switch's literals left out)."""
    out: list[int] = []
    for value in last.operands:
        if isinstance(value, Id):
            out.append(int(value))
        elif isinstance(value, tuple):
            out.extend(
                int(v)
                for case in value
                if isinstance(case, tuple)
                for v in case
                if isinstance(v, Id)
            )
    return out


def _kept_construct(last: Instruction, taken: int, merge: int) -> Instruction:
    """The terminator of a selection header that stays: its dead target the merge block
    (a conditional branch), or no case but the taken target as default (a switch)."""
    if last.opcode == OP_SWITCH:
        return last._replace(operands=(last.operands[0], Id(taken), ()))
    condition, on_true, on_false, *rest = last.operands
    if int(on_true) == taken:
        on_false = Id(merge)
    else:
        on_true = Id(merge)
    return last._replace(operands=(condition, on_true, on_false, *rest))


def _leaves_cleanly(
    header: int, merge: int, cfg: Graph, tree: DominatorTree, structure: DominatorTree
) -> bool:
    """True when every block but ``header`` that a path reaches and that branches to
    ``merge`` is directly in ``header``'s construct (see the module's docstring);
    ``tree`` and ``structure`` are the dominator trees of ``cfg`` and of its structured
    graph."""
    if merge not in cfg.preds:
        return False
    for pred in cfg.preds[merge]:
        if pred == header or not tree.reaches(pred):
            continue
        if pred in cfg.merges or structure.enclosing_header(pred) != header:
            return False
        last = terminator(cfg.blocks[pred])
        if last is None or last.opcode != OP_BRANCH:
            return False  # a two-way break needs the construct it leaves
    return True


def _drop_parent(block: Block, parent: int) -> None:
    """Remove the pairs of ``block``'s phis that come from ``parent``."""
    body = []
    for inst in block.body:
        if inst.opcode == OP_PHI and inst.operands and isinstance(inst.operands[0], tuple):
            pairs = tuple(
                p
                for p in inst.operands[0]
                if not (isinstance(p, tuple) and len(p) == 2 and p[1] == parent)
            )
            inst = inst._replace(operands=(pairs, *inst.operands[1:]))
        body.append(inst)
    block.body = body
