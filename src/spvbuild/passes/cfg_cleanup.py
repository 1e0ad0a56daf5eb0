"""Cleaning up control flow (``simplify-cfg``): branches on constants folded
(:mod:`spvbuild.passes.dead_branches`), selections that do nothing dropped
(:mod:`spvbuild.passes.empty_selections`), the blocks no path reaches removed
(:mod:`spvbuild.passes.unreachable`), then straight-line blocks merged
(:mod:`spvbuild.passes.block_merging`), each under the rules of structured control flow
its own module states."""

from __future__ import annotations

from spvbuild.passes.block_merging import merge_blocks
from spvbuild.passes.dead_branches import eliminate_dead_branches
from spvbuild.passes.empty_selections import drop_empty_selections
from spvbuild.passes.program import Program
from spvbuild.passes.unreachable import remove_unreachable_blocks

__all__ = ["NAME", "simplify_cfg"]

NAME = "simplify-cfg"


def simplify_cfg(program: Program) -> Program:
    """``program`` with its branches on constants folded, its selections that do nothing
    dropped, its unreachable blocks removed and its straight-line blocks merged (a new program; ``program`` unchanged)."""
    folded = drop_empty_selections(eliminate_dead_branches(program))
    return merge_blocks(remove_unreachable_blocks(folded))
