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
the typed path (:mod:`spvbuild.passes.typed_link`), the steps above over the reader's
instructions, which links the same inputs or says what is wrong.  Both give the same
words.  :func:`linked_words` gives them as they come (``spvbuild link`` writes them):
linking binaries on the words loads neither the reader's typed instructions nor the
module room.

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
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeGuard, overload

from spvbuild.errors import ArgumentError, LinkError, SpvbuildError
from spvbuild.passes.word_link import link_words
from spvbuild.passes.word_modules import word_module

if TYPE_CHECKING:
    from spvbuild.ir.module import Module
    from spvbuild.passes.program import Program

__all__ = ["link", "linked_words"]


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
    inputs, labels = _inputs(modules, names)
    options = {
        "allow_partial_linkage": allow_partial_linkage,
        "create_library": create_library,
        "use_highest_version": use_highest_version,
    }
    with _collection_paused():
        out = _on_words(inputs, **options)
        if out is None:
            out = _typed(inputs, labels, **options)
    if all(_is_module(m) for m in inputs):
        out.capability_mode = inputs[0].capability_mode  # type: ignore[union-attr]
        return out.to_module()
    return out


def linked_words(
    modules: Sequence[Module | Program | Sequence[int] | bytes],
    *,
    allow_partial_linkage: bool = False,
    create_library: bool = False,
    use_highest_version: bool = True,
    names: Sequence[str] | None = None,
) -> array[int]:
    """The words of ``modules`` linked, header included, as an array of 32-bit words:
    what writing :func:`link`'s result gives (the same arguments, the same errors),
    without making the linked module's instructions where the words path links the
    inputs (``spvbuild link``)."""
    inputs, labels = _inputs(modules, names)
    options = {
        "allow_partial_linkage": allow_partial_linkage,
        "create_library": create_library,
        "use_highest_version": use_highest_version,
    }
    with _collection_paused():
        words = _linked_on_words(inputs, **options)
        if words is None:
            words = array("I", _typed(inputs, labels, **options).to_words())
    return words


def _inputs(
    modules: Sequence[Module | Program | Sequence[int] | bytes], names: Sequence[str] | None
) -> tuple[list[Module | Program | Sequence[int] | bytes], list[str]]:
    """The inputs as a list and each one's name in messages (ArgumentError, LinkError for
    what is not a list of modules)."""
    if (
        isinstance(modules, bytes | bytearray | memoryview)
        or _is_program(modules)
        or not isinstance(modules, Sequence)
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
    return inputs, labels


@contextmanager
def _collection_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a while (linking makes many new objects
    beside the tables' many old ones: a collection would walk them all and find next to
    nothing), back on after if it was on."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _on_words(
    inputs: list[Module | Program | Sequence[int] | bytes],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> Program | None:
    """The inputs linked on their words (:mod:`spvbuild.passes.word_link`) as a program,
    or None where the typed path must link them (and say what is wrong)."""
    words = _linked_on_words(
        inputs,
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
        use_highest_version=use_highest_version,
    )
    if words is None:
        return None
    from spvbuild.passes.program import Program

    return Program.from_words(words)


def _linked_on_words(
    inputs: list[Module | Program | Sequence[int] | bytes],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> array[int] | None:
    """The words of the inputs linked on their words, or None (see :func:`_on_words`)."""
    modules = []
    for module in inputs:
        if _is_program(module) or _is_module(module):
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
    return None if linked is None else linked[1]


def _typed(
    inputs: list[Module | Program | Sequence[int] | bytes],
    labels: list[str],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> Program:
    """The inputs linked as typed programs (:func:`spvbuild.passes.typed_link.link_typed`),
    each error raised where it is found."""
    from spvbuild.passes.typed_link import link_typed

    return link_typed(
        [_program(m, label) for m, label in zip(inputs, labels, strict=True)],
        labels,
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
        use_highest_version=use_highest_version,
    )


def _program(module: object, label: str) -> Program:
    """The program of one input (LinkError naming it when its binary does not read)."""
    from spvbuild.passes.program import Program

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


def _is_module(value: object) -> TypeGuard[Module]:
    """True for a :class:`~spvbuild.ir.module.Module` (there is none before its module is
    imported: linking binaries leaves the module room unloaded)."""
    home = sys.modules.get("spvbuild.ir.module")
    return home is not None and isinstance(value, home.Module)


def _is_program(value: object) -> TypeGuard[Program]:
    """True for a :class:`~spvbuild.passes.program.Program` (none before its module is
    imported)."""
    home = sys.modules.get("spvbuild.passes.program")
    return home is not None and isinstance(value, home.Program)
