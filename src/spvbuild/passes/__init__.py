"""Passes over a module: what a frontend runs after it emits (issue 26).

Each pass is a function from a :class:`~spvbuild.passes.program.Program` (the plain form:
header and instructions as the reader types them) to a new one, named like spirv-opt's
option where it has one; :func:`run` runs a list of them, or a named recipe, over a
:class:`~spvbuild.ir.module.Module` or a program, and reports each pass's time and the
words it removed.  A pass that meets what it cannot handle raises a located
:class:`~spvbuild.errors.PassError`.

* ``eliminate-dead-code-aggressive`` (:func:`eliminate_dead_code`),
  ``remove-unreachable-blocks`` (:func:`remove_unreachable_blocks`): dead code;
* ``strip-debug`` (:func:`strip_debug`), ``compact-ids`` (:func:`compact_ids`);
* ``remove-duplicates`` (:func:`remove_duplicates`);
* ``trim-capabilities`` (:func:`trim_capabilities`);
* linking (:func:`link`): modules joined by their ``LinkageAttributes`` imports and exports;
  splitting (:func:`split_entry_points`): one module per entry point;
* ``ssa-rewrite`` (:func:`rewrite_to_ssa`): Function variables to SSA values with phis;
  ``scalar-replacement`` (:func:`replace_scalars`): Function structs and arrays split;
* ``eliminate-dead-branches`` (:func:`eliminate_dead_branches`), ``merge-blocks``
  (:func:`merge_blocks`), ``simplify-cfg`` (:func:`simplify_cfg`): CFG cleanup under the
  rules of structured control flow (:mod:`spvbuild.passes.cfg`: the graph and its
  dominator tree).

Not yet: inlining, constant folding, specialization-constant freezing.
"""

from __future__ import annotations

from spvbuild.passes.block_merging import merge_blocks
from spvbuild.passes.capabilities import trim_capabilities
from spvbuild.passes.cfg_cleanup import simplify_cfg
from spvbuild.passes.compact import compact_ids
from spvbuild.passes.dead_branches import eliminate_dead_branches
from spvbuild.passes.dead_code import eliminate_dead_code
from spvbuild.passes.dedup import remove_duplicates
from spvbuild.passes.entry_points import split_entry_points
from spvbuild.passes.link import link
from spvbuild.passes.mem2reg import rewrite_to_ssa
from spvbuild.passes.pipeline import PASSES, RECIPES, PassInfo, PassReport, main_recipe, run
from spvbuild.passes.program import Program
from spvbuild.passes.scalar_replacement import replace_scalars
from spvbuild.passes.strip import strip_debug
from spvbuild.passes.unreachable import remove_unreachable_blocks

__all__ = [
    "PASSES",
    "RECIPES",
    "PassInfo",
    "PassReport",
    "Program",
    "compact_ids",
    "eliminate_dead_branches",
    "eliminate_dead_code",
    "link",
    "main_recipe",
    "merge_blocks",
    "remove_duplicates",
    "remove_unreachable_blocks",
    "replace_scalars",
    "rewrite_to_ssa",
    "run",
    "split_entry_points",
    "simplify_cfg",
    "strip_debug",
    "trim_capabilities",
]
