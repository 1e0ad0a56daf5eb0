"""Cleaning up control flow (``simplify-cfg``): branches on constants folded
(:mod:`spvbuild.passes.dead_branches`), the blocks no path reaches removed
(:mod:`spvbuild.passes.unreachable`), then straight-line blocks merged
(:mod:`spvbuild.passes.block_merging`), each under the rules of structured control flow
its own module states."""

from __future__ import annotations

from spvbuild.passes.block_merging import merge_blocks
from spvbuild.passes.dead_branches import eliminate_dead_branches
from spvbuild.passes.program import Program
from spvbuild.passes.unreachable import remove_unreachable_blocks

__all__ = ["NAME", "simplify_cfg"]

NAME = "simplify-cfg"


def simplify_cfg(program: Program) -> Program:
    """``program`` with its branches on constants folded, its unreachable blocks removed
    and its straight-line blocks merged (a new program; ``program`` unchanged)."""
    return merge_blocks(remove_unreachable_blocks(eliminate_dead_branches(program)))
