"""The passes by name, the named recipes, and :func:`run`, which runs a list of them and
reports each one's time and the words it removed."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, TextIO, TypeVar

from spvbuild.errors import ArgumentError
from spvbuild.passes import (
    block_merging,
    capabilities,
    cfg_cleanup,
    compact,
    dead_branches,
    dead_code,
    dedup,
    fold,
    inline,
    mem2reg,
    scalar_replacement,
    spec_constants,
    strip,
    unreachable,
)
from spvbuild.passes.program import Program

if TYPE_CHECKING:
    from spvbuild.ir.module import Module

__all__ = ["PARAMETERIZED", "PASSES", "RECIPES", "PassInfo", "PassReport", "main_recipe", "run"]


class PassInfo(NamedTuple):
    """A pass: ``name`` (spirv-opt's spelling where it has one, without the dashes),
    ``function`` (program → new program)."""

    name: str
    function: Callable[[Program], Program]


class PassReport(NamedTuple):
    """What one pass of a :func:`run` did: ``name``, ``seconds`` (its own time, the module
    kept in the passes' plain form between passes), ``words_before`` and ``words_after``
    (the module's size in words, header included)."""

    name: str
    seconds: float
    words_before: int
    words_after: int

    @property
    def removed(self) -> int:
        """Words the pass removed (negative when it added some)."""
        return self.words_before - self.words_after

    def line(self) -> str:
        """The report as one line of text."""
        return (
            f"{self.name}: {self.seconds * 1000:.1f} ms, {self.removed} words removed "
            f"({self.words_before} -> {self.words_after})"
        )


PASSES: dict[str, PassInfo] = {
    info.name: info
    for info in (
        PassInfo(dead_code.NAME, dead_code.eliminate_dead_code),
        PassInfo(unreachable.NAME, unreachable.remove_unreachable_blocks),
        PassInfo(strip.NAME, strip.strip_debug),
        PassInfo(compact.NAME, compact.compact_ids),
        PassInfo(dedup.NAME, dedup.remove_duplicates),
        PassInfo(capabilities.NAME, capabilities.trim_capabilities),
        PassInfo(mem2reg.NAME, mem2reg.rewrite_to_ssa),
        PassInfo(scalar_replacement.NAME, scalar_replacement.replace_scalars),
        PassInfo(dead_branches.NAME, dead_branches.eliminate_dead_branches),
        PassInfo(block_merging.NAME, block_merging.merge_blocks),
        PassInfo(cfg_cleanup.NAME, cfg_cleanup.simplify_cfg),
        PassInfo(inline.ENTRY_POINTS_NAME, inline.inline_entry_points),
        PassInfo(inline.ALL_NAME, inline.inline_all),
        PassInfo(fold.NAME, fold.fold_constants),
        PassInfo(fold.SPEC_NAME, fold.fold_spec_constant_ops),
        PassInfo(spec_constants.FREEZE_NAME, spec_constants.freeze_spec_constants),
    )
}
"""Every pass by its name."""

RECIPES: dict[str, tuple[str, ...]] = {
    "dce": (dead_code.NAME,),
    "strip": (strip.NAME,),
    "after-link": (dedup.NAME, dead_code.NAME),
    "size": (strip.NAME, dedup.NAME, dead_code.NAME, capabilities.NAME, compact.NAME),
    "main": (
        inline.ENTRY_POINTS_NAME,
        scalar_replacement.NAME,
        mem2reg.NAME,
        fold.NAME,
        dead_branches.NAME,
        cfg_cleanup.NAME,
        dedup.NAME,
        dead_code.NAME,
    ),
}
"""Named lists of passes: ``dce`` (dead code), ``strip`` (debug information),
``after-link`` (duplicates merged, then dead code), ``size`` (all of them: debug
information, duplicates, dead code, unused capabilities, ids compacted), ``main`` (what a
frontend runs over what it emitted: calls into entry points inlined, composite variables
split, variables loaded and stored whole made SSA values, constants folded, branches on
constants folded, the control flow simplified, duplicates merged, dead code removed; names
and debug information kept, as spirv-opt ``-O`` keeps them; ``size`` after it strips them,
trims capabilities and compacts ids)."""

PARAMETERIZED: dict[str, Callable[[str], Callable[[Program], Program]]] = {
    spec_constants.SET_NAME: spec_constants.setting,
    spec_constants.FREEZE_NAME: spec_constants.freezing,
}
"""Passes that take an argument, written ``name=argument`` in a list of passes (the
argument as spirv-opt's flag of that name takes it): ``set-spec-const-default-value=1:100
2:0x4`` sets those SpecIds' defaults, ``freeze-spec-const=1:100`` freezes those SpecIds
at those values (plain ``freeze-spec-const`` freezes every specialization constant at its
default)."""

_M = TypeVar("_M", "Module", Program)


def resolve(passes: str | Sequence[str]) -> tuple[PassInfo, ...]:
    """The passes a recipe name or a list of pass names stands for (ArgumentError naming
    the known ones for a name that is neither)."""
    names: Sequence[str] = RECIPES.get(passes, (passes,)) if isinstance(passes, str) else passes
    out = []
    for name in names:
        info = PASSES.get(name)
        base, equals, argument = name.partition("=")
        if info is None and equals and base in PARAMETERIZED:
            info = PassInfo(name, PARAMETERIZED[base](argument))
        if info is None:
            raise ArgumentError(
                f"passes: no pass or recipe {name!r}; passes: {', '.join(sorted(PASSES))}; "
                f"recipes: {', '.join(sorted(RECIPES))}"
            )
        out.append(info)
    return tuple(out)


def run(
    module: _M,
    passes: str | Sequence[str],
    *,
    report: list[PassReport] | TextIO | bool | None = None,
) -> _M:
    """Run ``passes`` (a recipe's name, one pass's name, or a list of pass names) over
    ``module`` (a :class:`~spvbuild.ir.module.Module` or a
    :class:`~spvbuild.passes.program.Program`); returns a new one of the same kind, the
    given one unchanged.

    ``report``: a list gets one :class:`PassReport` per pass appended; a text stream gets
    each report's line; True prints them to stderr.  A pass that meets what it cannot
    handle raises :class:`~spvbuild.errors.PassError`.
    """
    infos = resolve(passes)
    program = module.copy() if isinstance(module, Program) else Program.from_module(module)
    reports: list[PassReport] = []
    measure = report is not None and report is not False
    size = program.word_count() if measure else 0
    collecting = gc.isenabled()
    gc.disable()  # the passes make many new objects beside a module's many old ones: a
    try:  # collection would walk them all and find next to nothing
        for info in infos:
            start = time.perf_counter()
            program = info.function(program)
            seconds = time.perf_counter() - start
            if measure:
                after = program.word_count()
                reports.append(PassReport(info.name, seconds, size, after))
                size = after
    finally:
        if collecting:
            gc.enable()
    if not program.reuses_source():
        program.source = None  # (not kept alive for nothing)
    if isinstance(report, list):
        report.extend(reports)
    elif report is True or (report is not None and report is not False):
        stream: TextIO = sys.stderr if report is True else report
        for item in reports:
            print(item.line(), file=stream)
    if isinstance(module, Program):
        return program
    return program.to_module()


def main_recipe() -> str:
    """The recipe a frontend runs over what it emitted before it writes it (pykernel and
    the gallery do, unless told not to): ``main``."""
    return "main"
