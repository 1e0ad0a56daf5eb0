"""Merging straight-line blocks (``merge-blocks``): a block joins its only predecessor
when that predecessor ends with an ``OpBranch`` to it.

Structured control flow keeps a block apart when merging would break a construct:

* a loop header (``OpLoopMerge``) stays;
* a header with ``OpSelectionMerge`` takes no block (it cannot end in ``OpBranch``);
* a loop header takes a block only when that block is no header itself and ends in
  ``OpBranch`` or ``OpBranchConditional``; the block's instructions go before the
  ``OpLoopMerge``, which stays just before the terminator;
* a block that is no header takes any other, headers included (it becomes the header);
* a merge block that is no header joins its only predecessor when that predecessor is no
  header, no merge block or continue target itself, and directly in the construct whose
  header names the block (not in a construct nested in it): the predecessor takes its
  place in the header's merge instruction;
* a continue target joins no block (a header or the body's last block): what the loop's
  body computes stays out of its continue construct.  (spirv-opt merges them.  Mesa's lavapipe 22.3
  then runs ``for (k = 0; k < n; k++) v.z -= c;`` once too often when ``v`` is a vector
  carried by a phi and updated in the continue target: spirv-opt -O's output of it gives
  wrong buffers there, and so did this pass's until it kept the continue target apart.)

The phis of the block that goes (one pair each: it had one predecessor) are replaced by
their value; the phis of its successors name the block it joined; its names go.
"""

from __future__ import annotations

from spvbuild.generated.core.opcodes import (
    OP_BRANCH,
    OP_BRANCH_CONDITIONAL,
    OP_LOOP_MERGE,
    OP_PHI,
    OP_SELECTION_MERGE,
)
from spvbuild.passes.cfg import DominatorTree, Graph, dominator_tree, graph
from spvbuild.passes.control_flow import MERGES, Merge, terminator
from spvbuild.passes.program import Block, Function, Program, join, split
from spvbuild.passes.rewriting import Replacements, without_targets
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction

__all__ = ["NAME", "merge_blocks"]

NAME = "merge-blocks"


def merge_blocks(program: Program) -> Program:
    """``program`` with each block that may join its only predecessor merged into it (a
    new program; ``program`` unchanged)."""
    layout = split(program, NAME)
    out = program.copy()
    removed: set[int] = set()
    for function in layout.functions:
        replace = Replacements()
        gone = _merge(function, replace)
        if gone:
            removed |= gone
            for block in function.blocks:
                block.body = [replace.apply(inst) for inst in block.body]
    if not removed:
        return out
    layout.head = without_targets(layout.head, removed)
    out.instructions = join(layout)
    return out


def _single_values(block: Block, parent: int) -> dict[int, int] | None:
    """Each leading phi of ``block`` → its value from ``parent`` (None when a phi has no
    such pair)."""
    values: dict[int, int] = {}
    for inst in block.body:
        if inst.opcode != OP_PHI:
            break
        pairs = inst.operands[0] if inst.operands else ()
        found = [p[0] for p in pairs if isinstance(p, tuple) and len(p) == 2 and p[1] == parent]
        if inst.result_id is None or len(found) != 1 or not isinstance(found[0], Id):
            return None
        values[int(inst.result_id)] = int(found[0])
    return values


def _mergeable(cfg: Graph, named: set[int], label: int, target: int) -> bool:
    """True when ``target`` may join ``label`` (see the module's docstring)."""
    if (
        target == label
        or target == cfg.entry
        or target in named
        or cfg.preds.get(target) != [label]
    ):
        return False
    block, other = cfg.blocks[label], cfg.blocks[target]
    last = terminator(other)
    if last is None or last.opcode == OP_PHI:
        return False
    ahead = block.body[-2].opcode if len(block.body) > 1 else None
    behind = other.body[-2].opcode if len(other.body) > 1 else None
    if ahead == OP_SELECTION_MERGE or (behind == OP_LOOP_MERGE):
        return False
    if ahead == OP_LOOP_MERGE:
        return behind not in MERGES and last.opcode in (OP_BRANCH, OP_BRANCH_CONDITIONAL)
    return True


def _may_take_named(
    cfg: Graph, structure: DominatorTree, named: set[int], label: int, target: int
) -> int | None:
    """The header whose merge instruction names ``target`` when ``target`` may join
    ``label`` and ``label`` take its place there (see the module's docstring);
    ``structure`` is the dominator tree of the function's structured graph."""
    if target == label or target == cfg.entry or cfg.preds.get(target) != [label]:
        return None
    if label in named:
        return None
    block, other = cfg.blocks[label], cfg.blocks[target]
    last = terminator(other)
    if last is None or last.opcode == OP_PHI:
        return None
    if len(other.body) > 1 and other.body[-2].opcode in MERGES:
        return None
    headers = [h for h, m in cfg.merges.items() if target in (m.merge, m.continue_target)]
    if len(headers) != 1:
        return None
    if cfg.merges[headers[0]].continue_target == target:
        return None  # (a continue target stays a block of its own: the module's docstring)
    ahead = block.body[-2].opcode if len(block.body) > 1 else None
    if ahead in MERGES or structure.enclosing_header(label) != headers[0]:
        return None
    return headers[0]


def _merge(function: Function, replace: Replacements) -> set[int]:
    """Merge ``function``'s blocks in place; the ids that went (labels and phis)."""
    gone: set[int] = set()
    while True:
        renamed = _merge_round(function, replace, gone)
        if not renamed:
            return gone


def _merge_round(function: Function, replace: Replacements, gone: set[int]) -> bool:
    """One round of :func:`_merge` over a fresh graph; True when a merge block joined its
    predecessor or a header joined one (another round may find more)."""
    cfg = graph(function)
    named = cfg.named_by_merges()
    structure = dominator_tree(graph(function, structured=True))  # as the round starts
    touched: set[int] = set()
    renamed = False
    for label in list(cfg.blocks):
        if label not in cfg.blocks:
            continue
        while True:
            block = cfg.blocks[label]
            last = terminator(block)
            if (
                last is None
                or last.opcode != OP_BRANCH
                or not last.operands
                or not isinstance(last.operands[0], Id)
            ):
                break
            target = int(last.operands[0])
            if target not in cfg.blocks:
                break
            header = None
            if not _mergeable(cfg, named, label, target):
                if target not in named or touched & {label, target}:
                    break
                header = _may_take_named(cfg, structure, named, label, target)
                if header is None or header in touched:
                    break
            other = cfg.blocks[target]
            values = _single_values(other, label)
            if values is None or len(values) == len(other.body):
                break
            if header is not None:
                head = cfg.blocks[header]
                head.body[-2] = _reparented_merge(head.body[-2], target, label)
                old = cfg.merges[header]
                cfg.merges[header] = Merge(
                    label if old.merge == target else old.merge,
                    label if old.continue_target == target else old.continue_target,
                )
                named.discard(target)
                named.add(label)
                touched |= {label, target, header}
                renamed = True
            replace.update(values)
            gone.update(values)
            rest = other.body[len(values) :]
            if len(block.body) > 1 and block.body[-2].opcode == OP_LOOP_MERGE:
                block.body = [*block.body[:-2], *rest[:-1], block.body[-2], rest[-1]]
            else:
                block.body = [*block.body[:-1], *rest]
            for succ in cfg.succs[target]:
                cfg.preds[succ] = [label if p == target else p for p in cfg.preds[succ]]
                cfg.blocks[succ].body = [
                    _reparented(inst, target, label) for inst in cfg.blocks[succ].body
                ]
            cfg.succs[label] = cfg.succs.pop(target)
            if target in cfg.merges:  # a header moved: the round's structure names it no more
                cfg.merges[label] = cfg.merges.pop(target)
                renamed = True
            del cfg.blocks[target]
            gone.add(target)
    function.blocks = [b for b in function.blocks if b.id in cfg.blocks]
    return renamed


def _reparented_merge(inst: Instruction, old: int, new: int) -> Instruction:
    """A merge instruction naming ``new`` where it named ``old``."""
    return inst._replace(
        operands=tuple(Id(new) if isinstance(v, Id) and v == old else v for v in inst.operands)
    )


def _reparented(inst: Instruction, old: int, new: int) -> Instruction:
    """A phi's pairs from ``old`` made to come from ``new`` (any other instruction as it
    is)."""
    if inst.opcode != OP_PHI or not inst.operands or not isinstance(inst.operands[0], tuple):
        return inst
    pairs = tuple(
        (p[0], Id(new)) if isinstance(p, tuple) and len(p) == 2 and p[1] == old else p
        for p in inst.operands[0]
    )
    return inst._replace(operands=(pairs, *inst.operands[1:]))
