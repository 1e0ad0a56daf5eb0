"""A function's control-flow graph and its dominator tree, for the passes that rewrite
control flow or values across it (``ssa-rewrite``, ``eliminate-dead-branches``,
``merge-blocks``).

:func:`graph` reads the edges off the blocks' terminators
(:func:`spvbuild.passes.control_flow.successors`); :func:`dominator_tree` computes the
immediate dominators of the blocks the entry reaches by the iterative algorithm of Cooper,
Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001) over a reverse postorder,
then numbers the tree so that :meth:`DominatorTree.dominates` is two comparisons.
Dominance frontiers (Cytron et al.) and their iteration give where a value stored on
several paths meets (:meth:`DominatorTree.frontiers`, :func:`iterated_frontier`).
:meth:`DominatorTree.enclosing_header` names the innermost structured construct a block
is in (SPIR-V 2.11: a header's construct is what it structurally dominates and its merge
block does not, dominance taken over the graph where each header also leads to its merge
block and continue target).  Blocks the entry does not reach have no place in the tree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from spvbuild.passes.control_flow import Merge, merge_of, successors
from spvbuild.passes.program import Block, Function

__all__ = ["DominatorTree", "Graph", "dominator_tree", "graph", "iterated_frontier"]


@dataclass(slots=True)
class Graph:
    """A function's control-flow graph.

    Fields: ``entry`` (the first block's label, 0 for a function without blocks),
    ``blocks`` (label → block, in the function's order), ``succs`` and ``preds`` (label →
    the labels of its successors / predecessors, each once, unreachable blocks' edges
    included), ``merges`` (label of each header → what its merge instruction names).
    """

    entry: int
    blocks: dict[int, Block]
    succs: dict[int, list[int]]
    preds: dict[int, list[int]]
    merges: dict[int, Merge]

    def reverse_postorder(self) -> list[int]:
        """The blocks the entry reaches, each after all its predecessors but those along
        a back edge (a depth-first search's reverse postorder, successors in order)."""
        if not self.blocks:
            return []
        order: list[int] = []
        seen = {self.entry}
        stack = [(self.entry, iter(self.succs[self.entry]))]
        while stack:
            label, pending = stack[-1]
            for nxt in pending:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, iter(self.succs[nxt])))
                    break
            else:
                stack.pop()
                order.append(label)
        order.reverse()
        return order

    def named_by_merges(self) -> set[int]:
        """The labels some merge instruction names (merge blocks and continue targets)."""
        named: set[int] = set()
        for merge in self.merges.values():
            named.add(merge.merge)
            if merge.continue_target is not None:
                named.add(merge.continue_target)
        return named


def graph(function: Function, *, structured: bool = False) -> Graph:
    """The control-flow graph of ``function``; with ``structured``, each header also
    leads to the merge block and continue target its merge instruction names (the
    structured graph whose dominance defines constructs, SPIR-V 2.11)."""
    blocks = {b.id: b for b in function.blocks}
    succs = {label: successors(block, blocks) for label, block in blocks.items()}
    merges = {label: m for label, block in blocks.items() if (m := merge_of(block)) is not None}
    if structured:
        for label, merge in merges.items():
            for named in (merge.merge, merge.continue_target):
                if named is not None and named in blocks and named not in succs[label]:
                    succs[label].append(named)
    preds: dict[int, list[int]] = {label: [] for label in blocks}
    for label, targets in succs.items():
        for target in targets:
            preds[target].append(label)
    entry = function.blocks[0].id if function.blocks else 0
    return Graph(entry, blocks, succs, preds, merges)


@dataclass(slots=True)
class DominatorTree:
    """The dominator tree of a :class:`Graph`'s reachable blocks.

    Fields: ``graph``, ``order`` (the reachable blocks in reverse postorder), ``idom``
    (label → its immediate dominator; the entry maps to itself), ``children`` (label →
    the blocks it immediately dominates, in reverse postorder), and ``_enter``/``_leave``
    (each block's preorder and postorder numbers in the tree, for :meth:`dominates`).
    """

    graph: Graph
    order: list[int]
    idom: dict[int, int]
    children: dict[int, list[int]]
    _enter: dict[int, int] = field(default_factory=dict)
    _leave: dict[int, int] = field(default_factory=dict)

    def reaches(self, label: int) -> bool:
        """True when the entry reaches ``label``."""
        return label in self.idom

    def dominates(self, a: int, b: int) -> bool:
        """True when every path from the entry to ``b`` passes ``a`` (a block dominates
        itself); False when either is unreachable."""
        enter_a = self._enter.get(a)
        enter_b = self._enter.get(b)
        if enter_a is None or enter_b is None:
            return False
        return enter_a <= enter_b and self._leave[b] <= self._leave[a]

    def preorder(self) -> list[int]:
        """The reachable blocks in a preorder of the tree (each after its dominators)."""
        return sorted(self._enter, key=self._enter.__getitem__)

    def frontiers(self) -> dict[int, set[int]]:
        """Each reachable block's dominance frontier: the blocks where its dominance
        ends (a predecessor it dominates, the block itself it does not strictly)."""
        front: dict[int, set[int]] = {label: set() for label in self.order}
        for label in self.order:
            preds = [p for p in self.graph.preds[label] if p in self.idom]
            if len(preds) < 2:
                continue
            stop = self.idom[label]
            for pred in preds:
                runner = pred
                while runner != stop:
                    front[runner].add(label)
                    if runner == self.idom[runner]:
                        break
                    runner = self.idom[runner]
        return front

    def enclosing_header(self, label: int) -> int | None:
        """The header of the innermost structured construct ``label`` is in (not counting
        the one it heads): the nearest strict dominator whose merge instruction's merge
        block does not dominate ``label``; None outside every construct or unreachable.
        Meaningful on the tree of a structured graph (``graph(..., structured=True)``)."""
        if label not in self.idom:
            return None
        runner = label
        while self.idom[runner] != runner:
            runner = self.idom[runner]
            merge = self.graph.merges.get(runner)
            if merge is not None and not self.dominates(merge.merge, label):
                return runner
        return None


def dominator_tree(cfg: Graph) -> DominatorTree:
    """The dominator tree of ``cfg`` (see the module's docstring)."""
    order = cfg.reverse_postorder()
    index = {label: n for n, label in enumerate(order)}
    idom: dict[int, int] = {}
    if order:
        idom[order[0]] = order[0]
    changed = True
    while changed:
        changed = False
        for label in order[1:]:
            new: int | None = None
            for pred in cfg.preds[label]:
                if pred not in idom:
                    continue
                if new is None:
                    new = pred
                    continue
                a, b = pred, new
                while a != b:
                    while index[a] > index[b]:
                        a = idom[a]
                    while index[b] > index[a]:
                        b = idom[b]
                new = a
            if new is not None and idom.get(label) != new:
                idom[label] = new
                changed = True
    children: dict[int, list[int]] = {label: [] for label in order}
    for label in order[1:]:
        children[idom[label]].append(label)
    tree = DominatorTree(cfg, order, idom, children)
    if order:
        clock = 0
        stack = [(order[0], False)]
        while stack:
            label, done = stack.pop()
            if done:
                tree._leave[label] = clock
                clock += 1
                continue
            tree._enter[label] = clock
            clock += 1
            stack.append((label, True))
            stack.extend((child, False) for child in reversed(children[label]))
    return tree


def iterated_frontier(front: dict[int, set[int]], blocks: Iterable[int]) -> set[int]:
    """The iterated dominance frontier of ``blocks`` under ``front`` (what
    :meth:`DominatorTree.frontiers` gives): where values defined in them meet, and where
    those meetings meet in turn."""
    out: set[int] = set()
    work = [b for b in blocks if b in front]
    seen = set(work)
    while work:
        for label in front[work.pop()]:
            if label not in out:
                out.add(label)
                if label not in seen:
                    seen.add(label)
                    work.append(label)
    return out
