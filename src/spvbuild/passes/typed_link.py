"""Linking on the reader's instructions: the typed path of :mod:`spvbuild.passes.link`.

Every step over typed programs, each error raised where it is found: merging
(:mod:`spvbuild.passes.merge`), ``remove-duplicates`` (:mod:`spvbuild.passes.dedup`),
the imports and exports (:mod:`spvbuild.passes.linkage`), then the exports'
``LinkageAttributes`` and the ``Linkage`` capability dropped where nothing needs them,
function declarations put before the definitions and, in the one renaming that makes the
imports' uses the exports', the ids compacted.  :func:`spvbuild.passes.link.link` takes
this path wherever the words path (:mod:`spvbuild.passes.word_link`) cannot say.
"""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild.binary.header import GENERATOR
from spvbuild.generated.core.enums import Capability
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_ENTRY_POINT
from spvbuild.passes import linkage
from spvbuild.passes.dedup import remove_duplicates
from spvbuild.passes.ids import rename
from spvbuild.passes.merge import NAME, Merged, Untyped, merge, renamed
from spvbuild.passes.program import Layout, Program, join, split
from spvbuild.spirv.instruction import Instruction

__all__ = ["link_typed"]


def link_typed(
    programs: Sequence[Program],
    labels: list[str],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> Program:
    """``programs`` (``labels``: their names in messages) linked.  Raises
    :class:`~spvbuild.errors.LinkError` for what cannot be linked,
    :class:`~spvbuild.errors.PassError` for a module whose functions do not split into
    blocks or that ``remove-duplicates`` refuses."""
    return _linked(
        merge(list(programs), labels, use_highest_version=use_highest_version),
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
    )


def _linked(merged: Merged, *, allow_partial_linkage: bool, create_library: bool) -> Program:
    """Steps 2 to 4 over the merged modules."""
    head = [inst for section in merged.sections.values() for inst in section]
    program = Program(merged.version, GENERATOR, merged.bound, join(Layout(head, merged.functions)))
    program = remove_duplicates(program)
    layout = split(program, NAME)
    symbols = linkage.find(layout, merged.origin)
    pairs = linkage.pair(symbols, allow_partial_linkage=allow_partial_linkage)
    linkage.check(pairs, layout.head)
    layout, replaced = linkage.resolve(
        layout, pairs, keep_exports=create_library, keep_imports=allow_partial_linkage
    )
    if not create_library and not _needs_linkage(layout.head):
        layout.head = [i for i in layout.head if not _is_linkage_capability(i)]
    layout.functions = [f for f in layout.functions if not f.blocks] + [
        f for f in layout.functions if f.blocks
    ]
    instructions, bound = _final_ids(join(layout), replaced, program.bound)
    return Program(merged.version, GENERATOR, bound, instructions)


def _final_ids(
    instructions: list[Instruction], replaced: dict[int, int], bound: int
) -> tuple[list[Instruction], int]:
    """The instructions with each import's uses made its export's and every id renumbered
    1..n in order of first appearance (as :mod:`spvbuild.passes.compact` numbers them),
    and the new bound; where words the grammar cannot type may hold ids (the first
    module's), only the imports are replaced and the bound is kept."""
    numbers: dict[int, int] = {}

    def number(old: int) -> int:
        old = replaced.get(old, old)
        new = numbers.get(old)
        if new is None:
            new = numbers[old] = len(numbers) + 1
        return new

    try:
        out = [linkage.without_repeats(renamed(inst, number)) for inst in instructions]
        return out, len(numbers) + 1
    except Untyped:

        def new(old: int) -> int:
            return replaced.get(old, old)

        return [linkage.without_repeats(rename(inst, new)) for inst in instructions], bound


def _needs_linkage(head: list[Instruction]) -> bool:
    """True when the module still needs the Linkage capability: a LinkageAttributes is
    left, or no entry point (a module without one must declare Linkage)."""
    entry = False
    for inst in head:
        if linkage.linkage_of(inst) is not None:
            return True
        entry = entry or inst.opcode == OP_ENTRY_POINT
    return not entry


def _is_linkage_capability(inst: Instruction) -> bool:
    return (
        inst.opcode == OP_CAPABILITY
        and bool(inst.operands)
        and inst.operands[0] == Capability.Linkage
    )
