"""The structured constructs of a function (SPIR-V 2.11, "Structured Control Flow"): which
header's construct each block lies in, innermost first.

A header block is one whose merge instruction (:func:`spvbuild.passes.control_flow.merge_of`)
names a merge block: a loop's (``OpLoopMerge``, with its continue target), a switch's (an
``OpSelectionMerge`` before an ``OpSwitch``) or another selection's.  One walk from the
entry gives every reachable block the innermost construct it lies in: the successors of a
header lie in its construct (its merge block excepted, which lies where the header does);
an edge from inside a construct to the merge block of it or of one around it leaves those
constructs; an edge to a loop's continue target enters that loop's construct (its continue
construct counted as part of it); a back edge to a loop's header adds nothing.  The walk
trusts the module's structure: on a module whose control flow is not structured, a block
lies where the first edge that reached it put it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from spvbuild.generated.core.opcodes import OP_LOOP_MERGE, OP_SWITCH
from spvbuild.passes.control_flow import merge_of, successors, terminator
from spvbuild.passes.program import Block, Function

__all__ = ["Construct", "ConstructKind", "Nesting", "nesting"]


class ConstructKind(Enum):
    """What a header heads: a ``LOOP``, a ``SWITCH`` or another ``SELECTION``."""

    LOOP = "loop"
    SWITCH = "switch"
    SELECTION = "selection"


@dataclass(frozen=True, slots=True)
class Construct:
    """A header's construct: ``header`` and ``merge`` (labels), ``continue_target`` (a
    loop's, else None), ``kind``, ``parent`` (the header of the innermost construct around
    the header, None at the function's top level)."""

    header: int
    merge: int
    continue_target: int | None
    kind: ConstructKind
    parent: int | None


@dataclass(slots=True)
class Nesting:
    """A function's constructs: ``constructs`` (header label → :class:`Construct`) and
    ``parent`` (the label of each block reached from the entry → the header of the
    innermost construct it lies in, None at the top level; a header lies where its
    construct's ``parent`` says)."""

    constructs: dict[int, Construct]
    parent: dict[int, int | None]

    def enclosing(self, label: int) -> list[Construct]:
        """The constructs ``label`` lies in, innermost first (empty for a block at the top
        level or one the walk did not reach)."""
        out: list[Construct] = []
        header = self.parent.get(label)
        while header is not None:
            construct = self.constructs[header]
            out.append(construct)
            header = construct.parent
        return out

    def inside(self, label: int, header: int) -> bool:
        """True when block ``label`` is ``header`` or lies in its construct."""
        return label == header or any(c.header == header for c in self.enclosing(label))


def _kind(block: Block) -> ConstructKind:
    last = terminator(block)
    if block.body[-2].opcode == OP_LOOP_MERGE:
        return ConstructKind.LOOP
    if last is not None and last.opcode == OP_SWITCH:
        return ConstructKind.SWITCH
    return ConstructKind.SELECTION


def nesting(function: Function) -> Nesting:
    """The constructs of ``function`` and where each reachable block lies (see the module's
    docstring)."""
    constructs: dict[int, Construct] = {}
    parent: dict[int, int | None] = {}
    if not function.blocks:
        return Nesting(constructs, parent)
    labels = {b.id: b for b in function.blocks}
    first = function.blocks[0].id
    parent[first] = None
    stack = [first]
    while stack:
        label = stack.pop()
        block = labels[label]
        where = parent[label]
        merge = merge_of(block)
        if merge is not None and label not in constructs:
            constructs[label] = Construct(
                label, merge.merge, merge.continue_target, _kind(block), where
            )
        for nxt in reversed(successors(block, labels)):
            if nxt in parent:
                continue
            if merge is not None and nxt == merge.merge:
                parent[nxt] = where
            elif merge is not None and nxt == merge.continue_target:
                parent[nxt] = label
            else:
                left = _left_for(constructs, where, nxt)
                parent[nxt] = left if left is not _STAYS else label if merge is not None else where
            stack.append(nxt)
    return Nesting(constructs, parent)


_STAYS = -1
"""What :func:`_left_for` gives for an edge that leaves no construct."""


def _left_for(constructs: dict[int, Construct], where: int | None, target: int) -> int | None:
    """Where ``target`` lies when an edge from a block lying in ``where`` reaches it and
    leaves a construct: out of the innermost construct whose merge it is, or into the loop
    whose continue target it is; :data:`_STAYS` when it is neither."""
    header = where
    while header is not None:
        construct = constructs[header]
        if target == construct.merge:
            return construct.parent
        if target == construct.continue_target:
            return header
        header = construct.parent
    return _STAYS
