"""Passes over a module: what a frontend runs after it emits (issue 26, first slice).

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
  splitting (:func:`split_entry_points`): one module per entry point.

Not in this slice: mem2reg, inlining, constant folding, CFG cleanup, linking.
"""

from __future__ import annotations

from spvbuild.passes.capabilities import trim_capabilities
from spvbuild.passes.compact import compact_ids
from spvbuild.passes.dead_code import eliminate_dead_code
from spvbuild.passes.dedup import remove_duplicates
from spvbuild.passes.entry_points import split_entry_points
from spvbuild.passes.link import link
from spvbuild.passes.pipeline import PASSES, RECIPES, PassInfo, PassReport, run
from spvbuild.passes.program import Program
from spvbuild.passes.strip import strip_debug
from spvbuild.passes.unreachable import remove_unreachable_blocks

__all__ = [
    "PASSES",
    "RECIPES",
    "PassInfo",
    "PassReport",
    "Program",
    "compact_ids",
    "eliminate_dead_code",
    "link",
    "remove_duplicates",
    "remove_unreachable_blocks",
    "run",
    "split_entry_points",
    "strip_debug",
    "trim_capabilities",
]
