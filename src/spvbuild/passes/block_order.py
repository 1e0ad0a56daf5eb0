"""Putting each block of a function after its dominators (SPIR-V 2.16.1: "the order of
blocks in a function must satisfy the rule that blocks appear before all blocks they
dominate"), for the passes whose rewrites of control flow give a block a new dominator
that came after it (a folded branch that now reaches a case only through a later one).

:func:`order_by_dominance` moves as little as it can: a block that comes before its
immediate dominator goes right after that dominator (with the blocks that waited for it
in turn); the others, and the blocks no path reaches, keep their order.
"""

from __future__ import annotations

from spvbuild.passes.cfg import DominatorTree, dominator_tree, graph
from spvbuild.passes.program import Block, Function

__all__ = ["order_by_dominance"]


def order_by_dominance(function: Function, tree: DominatorTree | None = None) -> bool:
    """Reorder ``function``'s blocks in place so that each reachable block follows its
    immediate dominator (``tree``: the function's dominator tree, computed when None);
    True when a block moved."""
    if tree is None:
        tree = dominator_tree(graph(function))
    idom = tree.idom
    position = {block.id: n for n, block in enumerate(function.blocks)}
    if all(position[idom[label]] < position[label] for label in tree.order[1:]):
        return False
    placed: set[int] = set()
    waiting: dict[int, list[Block]] = {}
    out: list[Block] = []
    for block in function.blocks:
        above = idom.get(block.id)
        if above is not None and above != block.id and above not in placed:
            waiting.setdefault(above, []).append(block)
            continue
        stack = [block]
        while stack:
            current = stack.pop()
            out.append(current)
            placed.add(current.id)
            stack.extend(reversed(waiting.pop(current.id, [])))
    function.blocks = out
    return True
