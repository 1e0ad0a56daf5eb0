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
  dominator tree);
* ``inline-entry-points-exhaustive`` (:func:`inline_entry_points`), ``inline-all``
  (:func:`inline_all`): inlining;
* ``fold-constants`` (:func:`fold_constants`), ``fold-spec-const-op-composite``
  (:func:`fold_spec_constant_ops`): constant folding;
* ``set-spec-const-default-value=ID:VALUE ...`` (:func:`set_spec_constant_defaults`),
  ``freeze-spec-const`` (:func:`freeze_spec_constants`): specialization constants given
  values and made constants.

:func:`link` (and :func:`linked_words`, the linked module's words) loads with the package,
as light as linking on the words is: :class:`~spvbuild.passes.program.Program` and every
pass on first use (linking binaries loads neither the typed reader, the module room nor
the other passes).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from spvbuild.accel import compiled_passes

compiled_passes.use(__path__)  # the compiled modules, where they are current (first of all)

from spvbuild.passes.link import link, linked_words  # noqa: E402

if TYPE_CHECKING:
    from spvbuild.passes.block_merging import merge_blocks
    from spvbuild.passes.capabilities import trim_capabilities
    from spvbuild.passes.cfg_cleanup import simplify_cfg
    from spvbuild.passes.compact import compact_ids
    from spvbuild.passes.dead_branches import eliminate_dead_branches
    from spvbuild.passes.dead_code import eliminate_dead_code
    from spvbuild.passes.dedup import remove_duplicates
    from spvbuild.passes.entry_points import split_entry_points
    from spvbuild.passes.fold import fold_constants, fold_spec_constant_ops
    from spvbuild.passes.inline import inline_all, inline_entry_points
    from spvbuild.passes.mem2reg import rewrite_to_ssa
    from spvbuild.passes.pipeline import (
        PARAMETERIZED,
        PASSES,
        RECIPES,
        PassInfo,
        PassReport,
        main_recipe,
        run,
    )
    from spvbuild.passes.program import Program
    from spvbuild.passes.scalar_replacement import replace_scalars
    from spvbuild.passes.spec_constants import freeze_spec_constants, set_spec_constant_defaults
    from spvbuild.passes.strip import strip_debug
    from spvbuild.passes.unreachable import remove_unreachable_blocks

__all__ = [
    "PARAMETERIZED",
    "PASSES",
    "RECIPES",
    "PassInfo",
    "PassReport",
    "Program",
    "compact_ids",
    "eliminate_dead_branches",
    "eliminate_dead_code",
    "fold_constants",
    "fold_spec_constant_ops",
    "freeze_spec_constants",
    "inline_all",
    "inline_entry_points",
    "link",
    "linked_words",
    "main_recipe",
    "merge_blocks",
    "remove_duplicates",
    "remove_unreachable_blocks",
    "replace_scalars",
    "rewrite_to_ssa",
    "run",
    "set_spec_constant_defaults",
    "split_entry_points",
    "simplify_cfg",
    "strip_debug",
    "trim_capabilities",
]

# Name → the module that defines it, imported on first use (link loads at once: the link
# module has its function's name, which importing the module would otherwise replace).
_LAZY = {
    "Program": "spvbuild.passes.program",
    "PARAMETERIZED": "spvbuild.passes.pipeline",
    "PASSES": "spvbuild.passes.pipeline",
    "PassInfo": "spvbuild.passes.pipeline",
    "PassReport": "spvbuild.passes.pipeline",
    "RECIPES": "spvbuild.passes.pipeline",
    "compact_ids": "spvbuild.passes.compact",
    "eliminate_dead_branches": "spvbuild.passes.dead_branches",
    "eliminate_dead_code": "spvbuild.passes.dead_code",
    "fold_constants": "spvbuild.passes.fold",
    "fold_spec_constant_ops": "spvbuild.passes.fold",
    "freeze_spec_constants": "spvbuild.passes.spec_constants",
    "inline_all": "spvbuild.passes.inline",
    "inline_entry_points": "spvbuild.passes.inline",
    "main_recipe": "spvbuild.passes.pipeline",
    "merge_blocks": "spvbuild.passes.block_merging",
    "remove_duplicates": "spvbuild.passes.dedup",
    "remove_unreachable_blocks": "spvbuild.passes.unreachable",
    "replace_scalars": "spvbuild.passes.scalar_replacement",
    "rewrite_to_ssa": "spvbuild.passes.mem2reg",
    "run": "spvbuild.passes.pipeline",
    "set_spec_constant_defaults": "spvbuild.passes.spec_constants",
    "simplify_cfg": "spvbuild.passes.cfg_cleanup",
    "split_entry_points": "spvbuild.passes.entry_points",
    "strip_debug": "spvbuild.passes.strip",
    "trim_capabilities": "spvbuild.passes.capabilities",
}


def __getattr__(name: str) -> Any:
    """Load a pass on first use (see _LAZY), or a submodule asked for by attribute."""
    home = _LAZY.get(name)
    if home is None:
        try:
            return importlib.import_module(f"spvbuild.passes.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module 'spvbuild.passes' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
