"""Linking modules into one (:func:`link`, also ``spvbuild.link`` and ``spvbuild link``).

The steps, each in its own place:

1. :mod:`spvbuild.passes.merge`: every module's ids shifted past the modules' before it,
   the headers joined (the SPIR-V version the highest of the inputs', capabilities,
   extensions, extended-set imports, entry points, names, decorations, types and globals,
   functions; one memory model);
2. :mod:`spvbuild.passes.dedup`: the same types, constants, extended-set imports and
   decorations declared by several modules merged into one;
3. :mod:`spvbuild.passes.linkage`: each import (``LinkageAttributes ... Import``) paired
   with the export of its name (or the first ``LinkOnceODR`` one), their types and decorations compared, the import removed
   and its uses made the export's;
4. here: the exports' ``LinkageAttributes`` dropped unless a library is made, the
   ``Linkage`` capability dropped when nothing needs it (no library, no LinkageAttributes
   left, an entry point to start from), function declarations put before the
   definitions, and, in the one renaming of every instruction that makes the imports'
   uses the exports', the ids compacted as :mod:`spvbuild.passes.compact` does.

Two paths take these steps.  The words path (:mod:`spvbuild.passes.word_link`, over
:mod:`spvbuild.passes.word_modules`) works on the inputs' words, where their ids are
(:func:`spvbuild.binary.id_words.id_words`), and moves every id once; it links what
links.  Wherever it cannot say (an input it cannot read, or that holds words the grammar
cannot type; anything a step refuses; a decoration group losing targets) it gives way to
the typed path, the steps above over the reader's instructions, which links the same
inputs or says what is wrong.  Both give the same words.

What spirv-link does differently, on purpose: a module without an entry point keeps the
``Linkage`` capability (spirv-val refuses it otherwise); unresolved imports are put with
the other declarations, before every definition, as the logical layout asks; a
``LinkageAttributes`` given through a decoration group is refused rather than ignored; an
import and its export whose decorations name equal constants by other ids (``OpDecorateId``)
are decorated alike, the constants being merged first, as for their types; no
``OpModuleProcessed`` is added, and the generator word is spvbuild's.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeGuard, overload

from spvbuild.binary.encoder import GENERATOR
from spvbuild.errors import ArgumentError, LinkError, SpvbuildError
from spvbuild.generated.core.enums import Capability
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_ENTRY_POINT
from spvbuild.passes import linkage
from spvbuild.passes.dedup import remove_duplicates
from spvbuild.passes.ids import rename
from spvbuild.passes.merge import NAME, Merged, Untyped, merge, renamed
from spvbuild.passes.program import Layout, Program, join, split
from spvbuild.passes.word_link import link_words
from spvbuild.passes.word_modules import word_module
from spvbuild.spirv.instruction import Instruction

if TYPE_CHECKING:
    from spvbuild.ir.module import Module

__all__ = ["link"]


@overload
def link(
    modules: Sequence[Module],
    *,
    allow_partial_linkage: bool = ...,
    create_library: bool = ...,
    use_highest_version: bool = ...,
    names: Sequence[str] | None = ...,
) -> Module: ...


@overload
def link(
    modules: Sequence[Module | Program | Sequence[int] | bytes],
    *,
    allow_partial_linkage: bool = ...,
    create_library: bool = ...,
    use_highest_version: bool = ...,
    names: Sequence[str] | None = ...,
) -> Module | Program: ...


def link(
    modules: Sequence[Module | Program | Sequence[int] | bytes],
    *,
    allow_partial_linkage: bool = False,
    create_library: bool = False,
    use_highest_version: bool = True,
    names: Sequence[str] | None = None,
) -> Module | Program:
    """Link ``modules`` into one, resolving each import by the export of its name (see
    the module's docstring for the steps).

    ``modules``: each a :class:`~spvbuild.ir.module.Module`, a
    :class:`~spvbuild.passes.program.Program` or a binary (words or bytes); none is
    changed.  Returns a new ``Module`` when every input is one, else a ``Program``
    (``to_words()`` writes it).

    ``allow_partial_linkage``: an import no module exports stays an import (its
    declaration, its LinkageAttributes and the ``Linkage`` capability kept) instead of
    being an error.  ``create_library``: the exports keep their LinkageAttributes (and the
    module the ``Linkage`` capability), so that the result can be linked again.
    ``use_highest_version``: the result's SPIR-V version is the highest of the inputs';
    False refuses inputs of different versions (spirv-link's default).  ``names``: each
    input's name in error messages (default ``modules[0]``, ``modules[1]``, ...).

    Raises :class:`~spvbuild.errors.LinkError` for what cannot be linked: an import no
    module exports, a name exported twice that an import names, an import and its export
    of different types or decorations, models or entry points that clash, a binary that
    does not read (naming the input); :class:`~spvbuild.errors.PassError` for a module
    whose functions do not split into blocks, or that ``remove-duplicates`` refuses.
    """
    if isinstance(modules, bytes | bytearray | memoryview | Program) or not isinstance(
        modules, Sequence
    ):
        raise ArgumentError(
            f"link: modules must be a list of modules (Module, Program or binary), not {type(modules).__name__}"
        )
    inputs = list(modules)
    if not inputs:
        raise LinkError("no modules were given")
    if isinstance(inputs[0], int):
        raise ArgumentError(
            "link: modules must be a list of modules, not one module's words: give [words]"
        )
    labels = list(names) if names is not None else [f"modules[{i}]" for i in range(len(inputs))]
    if len(labels) != len(inputs):
        raise ArgumentError(f"link: names has {len(labels)} entries for {len(inputs)} modules")
    collecting = gc.isenabled()
    gc.disable()  # linking makes many new objects beside the tables' many old ones: a
    try:  # collection would walk them all and find next to nothing
        options = {
            "allow_partial_linkage": allow_partial_linkage,
            "create_library": create_library,
            "use_highest_version": use_highest_version,
        }
        out = _on_words(inputs, **options)
        if out is None:
            out = _typed(inputs, labels, **options)
    finally:
        if collecting:
            gc.enable()
    if all(_is_module(m) for m in inputs):
        out.capability_mode = inputs[0].capability_mode  # type: ignore[union-attr]
        return out.to_module()
    return out


def _on_words(
    inputs: list[Module | Program | Sequence[int] | bytes],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> Program | None:
    """The inputs linked on their words (:mod:`spvbuild.passes.word_link`), or None where
    the typed path must link them (and say what is wrong)."""
    modules = []
    for module in inputs:
        if isinstance(module, Program) or _is_module(module):
            try:
                words: Sequence[int] | bytes = module.to_words()
            except SpvbuildError:  # (an instruction the encoder refuses: the typed path's)
                return None
        elif isinstance(module, bytes | bytearray | memoryview) or (
            isinstance(module, Sequence) and not isinstance(module, str)
        ):
            words = module
        else:
            return None
        found = word_module(words)
        if found is None:
            return None
        modules.append(found)
    linked = link_words(
        modules,
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
        use_highest_version=use_highest_version,
    )
    if linked is None:
        return None
    return Program.from_words(linked[1])


def _typed(
    inputs: list[Module | Program | Sequence[int] | bytes],
    labels: list[str],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> Program:
    """The inputs linked as typed programs: every step over the reader's instructions,
    each error raised where it is found."""
    programs = [_program(m, label) for m, label in zip(inputs, labels, strict=True)]
    return _linked(
        merge(programs, labels, use_highest_version=use_highest_version),
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
    )


def _is_module(value: object) -> TypeGuard[Module]:
    """True for a :class:`~spvbuild.ir.module.Module` (there is none before its module is
    imported: linking binaries leaves the module room unloaded)."""
    home = sys.modules.get("spvbuild.ir.module")
    return home is not None and isinstance(value, home.Module)


def _program(module: object, label: str) -> Program:
    """The program of one input (LinkError naming it when its binary does not read)."""
    if isinstance(module, Program):
        return module
    if _is_module(module):
        return Program.from_module(module)
    if isinstance(module, bytes | bytearray | memoryview) or (
        isinstance(module, Sequence) and not isinstance(module, str)
    ):
        try:
            return Program.from_words(module)
        except SpvbuildError as exc:
            raise LinkError(f"{label} does not read: {exc}", module=label) from exc
    raise ArgumentError(
        f"link: {label} must be a Module, a Program or a binary (words or bytes), not "
        f"{type(module).__name__}"
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
