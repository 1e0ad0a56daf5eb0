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
* ``trim-capabilities`` (:func:`trim_capabilities`).

Not in this slice: mem2reg, inlining, constant folding, CFG cleanup, linking.
"""

from __future__ import annotations

from spvbuild.passes.capabilities import trim_capabilities
from spvbuild.passes.compact import compact_ids
from spvbuild.passes.dead_code import eliminate_dead_code
from spvbuild.passes.dedup import remove_duplicates
from spvbuild.passes.pipeline import PASSES, RECIPES, PassInfo, PassReport, main_recipe, run
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
    "main_recipe",
    "remove_duplicates",
    "remove_unreachable_blocks",
    "run",
    "strip_debug",
    "trim_capabilities",
]
