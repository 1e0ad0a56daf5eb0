"""A function's control-flow graph as the passes read it: each block's successors (the
labels its terminator names) and the targets its merge instruction names.

Which instruction is a merge instruction and which of its operands is the continue target
come from the grammar: the ``Control-Flow`` instructions that name a ``Merge Block``
(``OpSelectionMerge``, ``OpLoopMerge``), and the operand it calls ``Continue Target``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spvbuild.generated.core import tables
from spvbuild.passes.ids import used_ids
from spvbuild.passes.program import Block, Function
from spvbuild.spirv.instruction import Instruction

__all__ = ["MERGES", "Merge", "merge_of", "reachable", "successors", "terminator"]


def _operand_index(opcode: int, name: str) -> int | None:
    names = [op.name for op in tables.INSTRUCTIONS[opcode].operands]
    return names.index(name) if name in names else None


MERGES: dict[int, tuple[int, int | None]] = {
    opcode: (merge, _operand_index(opcode, "Continue Target"))
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.cls == "Control-Flow"
    and (merge := _operand_index(opcode, "Merge Block")) is not None
}
"""Merge instructions → the operand index of their merge block and of their continue
target (None for a selection)."""


class Merge(NamedTuple):
    """What a header block's merge instruction names: ``merge`` (the merge block's label),
    ``continue_target`` (the loop's continue target, None for a selection)."""

    merge: int
    continue_target: int | None


def terminator(block: Block) -> Instruction | None:
    """The block's last instruction (None for an empty block)."""
    return block.body[-1] if block.body else None


def merge_of(block: Block) -> Merge | None:
    """The merge instruction of a header block (the one before its terminator), if any."""
    if len(block.body) < 2:
        return None
    inst = block.body[-2]
    where = MERGES.get(inst.opcode)
    if where is None:
        return None
    merge_index, continue_index = where
    merge = _label(inst.operands, merge_index)
    if merge is None:
        return None
    return Merge(merge, _label(inst.operands, continue_index))


def _label(operands: tuple[Any, ...], index: int | None) -> int | None:
    """The label at ``operands[index]`` (None for none).  (A module-level function, not a
    closure: compiled, a closure and its scope hold each other until a collection.)"""
    if index is None or index >= len(operands) or not isinstance(operands[index], int):
        return None
    return int(operands[index])


def successors(block: Block, labels: dict[int, Block]) -> list[int]:
    """The labels (of ``labels``, the function's blocks) the block's terminator names, in
    order, each once."""
    last = terminator(block)
    if last is None:
        return []
    return list(dict.fromkeys(i for i in used_ids(last) if i in labels))


def reachable(function: Function) -> set[int]:
    """The labels of the blocks reachable from the function's first block."""
    if not function.blocks:
        return set()
    labels = {b.id: b for b in function.blocks}
    seen = {function.blocks[0].id}
    stack = [function.blocks[0].id]
    while stack:
        for nxt in successors(labels[stack.pop()], labels):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen
