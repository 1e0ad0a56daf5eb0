"""Dropping selections that do nothing (part of ``simplify-cfg`` and of dead-code
elimination).

A selection header (``OpSelectionMerge``, then ``OpBranchConditional`` or ``OpSwitch``)
whose every target is its merge block or an empty arm (a block holding only an
``OpBranch`` to the merge block, entered only from the header, named by no merge
instruction) chooses nothing: it becomes an ``OpBranch`` to its merge block, without the
merge instruction, and its arms go.  The merge block's phis must not tell the arms apart:
each phi takes one value from all of them (it then takes that value from the header);
a phi that takes two values (a select written as a diamond) keeps the construct.  Nested
selections go from the inside out.
"""

from __future__ import annotations

from spvbuild.generated.core.opcodes import (
    OP_BRANCH,
    OP_BRANCH_CONDITIONAL,
    OP_PHI,
    OP_SELECTION_MERGE,
    OP_SWITCH,
)
from spvbuild.passes.cfg import Graph, graph
from spvbuild.passes.program import Block, Function, Program, join, split
from spvbuild.passes.rewriting import without_targets
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction

__all__ = ["drop_empty_selections", "drop_empty_selections_in"]


def drop_empty_selections(program: Program) -> Program:
    """``program`` without its selections that do nothing (a new program; ``program``
    unchanged)."""
    layout = split(program, "simplify-cfg")
    out = program.copy()
    gone: set[int] = set()
    for function in layout.functions:
        gone |= drop_empty_selections_in(function)
    if not gone:
        return out
    layout.head = without_targets(layout.head, gone)
    out.instructions = join(layout)
    return out


def drop_empty_selections_in(function: Function) -> set[int]:
    """Drop ``function``'s selections that do nothing (in place); the labels of the arms
    that went (their names and decorations are the caller's to drop)."""
    gone: set[int] = set()
    if not any(len(b.body) == 1 and b.body[0].opcode == OP_BRANCH for b in function.blocks):
        return gone  # (no empty arm: no graph to make)
    while True:
        cfg = graph(function)
        named = cfg.named_by_merges()
        dropped = next(
            (arms for label in cfg.merges if (arms := _drop(cfg, named, label)) is not None),
            None,
        )
        if dropped is None:
            break
        gone |= dropped
        function.blocks = [b for b in function.blocks if b.id not in dropped]
    return gone


def _drop(cfg: Graph, named: set[int], label: int) -> set[int] | None:
    """Drop the selection of header ``label`` when it does nothing (in place); the labels
    of its arms, or None when it stays."""
    merge = cfg.merges[label]
    block = cfg.blocks[label]
    if (
        merge.continue_target is not None
        or len(block.body) < 2
        or block.body[-2].opcode != OP_SELECTION_MERGE
        or block.body[-1].opcode not in (OP_BRANCH_CONDITIONAL, OP_SWITCH)
        or merge.merge not in cfg.blocks
    ):
        return None
    target = merge.merge
    arms: set[int] = set()
    for succ in cfg.succs[label]:
        if succ == target:
            continue
        if not _empty_arm(cfg.blocks[succ], target) or cfg.preds[succ] != [label] or succ in named:
            return None
        arms.add(succ)
    merge_block = cfg.blocks[target]
    body = _phis_from(merge_block, arms | {label}, label)
    if body is None:
        return None
    merge_block.body = body
    block.body = [*block.body[:-2], Instruction(OP_BRANCH, None, None, (Id(target),))]
    return arms


def _empty_arm(block: Block, target: int) -> bool:
    """True for a block holding only an ``OpBranch`` to ``target``."""
    return (
        len(block.body) == 1
        and block.body[0].opcode == OP_BRANCH
        and bool(block.body[0].operands)
        and block.body[0].operands[0] == target
    )


def _phis_from(block: Block, sources: set[int], header: int) -> list[Instruction] | None:
    """``block``'s body with each phi's pairs from ``sources`` made one pair from
    ``header``; None when a phi takes two values from them."""
    body: list[Instruction] = []
    for inst in block.body:
        if inst.opcode != OP_PHI:
            body.append(inst)
            continue
        pairs = inst.operands[0] if inst.operands and isinstance(inst.operands[0], tuple) else ()
        values = {int(value) for value, parent in pairs if int(parent) in sources}
        if len(values) > 1:
            return None
        kept = tuple(pair for pair in pairs if int(pair[1]) not in sources)
        if values:
            kept += ((Id(values.pop()), Id(header)),)
        body.append(inst._replace(operands=(kept, *inst.operands[1:])))
    return body
