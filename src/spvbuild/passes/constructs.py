"""The structured constructs of a function (SPIR-V 2.11, "Structured Control Flow"): the
constructs each block lies in, innermost first, with their kinds.

A header block is one whose merge instruction (:func:`spvbuild.passes.control_flow.merge_of`)
names a merge block: a loop's (``OpLoopMerge``, with its continue target; its continue
construct counts as part of it), a switch's (an ``OpSelectionMerge`` before an
``OpSwitch``) or another selection's.  Where a block lies is
:meth:`spvbuild.passes.cfg.DominatorTree.enclosing_header` over the structured graph
(:mod:`spvbuild.passes.cfg`); this module gives each header's construct its record and
the chain around a block.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from spvbuild.generated.core.opcodes import OP_LOOP_MERGE, OP_SWITCH
from spvbuild.passes.cfg import dominator_tree, graph
from spvbuild.passes.control_flow import terminator
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
        level or one the entry does not reach)."""
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
    """The constructs of ``function`` and where each block the entry reaches lies (see the
    module's docstring)."""
    tree = dominator_tree(graph(function, structured=True))
    constructs = {
        header: Construct(
            header,
            merge.merge,
            merge.continue_target,
            _kind(tree.graph.blocks[header]),
            tree.enclosing_header(header),
        )
        for header, merge in tree.graph.merges.items()
        if tree.reaches(header)
    }
    parent = {label: tree.enclosing_header(label) for label in tree.order}
    return Nesting(constructs, parent)
