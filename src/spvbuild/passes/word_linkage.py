"""Imports and exports on the words: :mod:`spvbuild.passes.linkage`'s rules over a merged
module whose instructions before the functions are words, for the words path of linking
(:mod:`spvbuild.passes.word_link`).

A symbol is a global ``OpVariable`` or an ``OpFunction`` decorated ``LinkageAttributes``
by an ``OpDecorate`` (not one decorated ``BuiltIn``); an import pairs with the one export
of its name (the name's words: a string the reader types has one spelling), or the first
``LinkOnceODR`` one, their types must be the same id and their decorations the same words,
``LinkageAttributes`` aside.  Resolving removes each import with its parameters, names
and decorations, and the ``LinkageAttributes`` that go; the Linkage capability goes where
nothing needs it.

Where linkage would raise a :class:`~spvbuild.errors.LinkError`, and wherever decoration
groups are declared (linkage reads decorations through them), :func:`resolve_words` gives
None: the typed path links the inputs and says what is wrong.  The words of the
instructions are those :func:`spvbuild.binary.id_words.id_words` found typed through and
through, so an ``OpDecorate ... LinkageAttributes`` is its target, the decoration, the
name's words and the linkage type, in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from spvbuild.binary.id_words import Offsets
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_DECORATE,
    OP_DECORATION_GROUP,
    OP_ENTRY_POINT,
    OP_GROUP_DECORATE,
    OP_GROUP_MEMBER_DECORATE,
    OP_VARIABLE,
)
from spvbuild.generated.core.word_layouts import ENUMERANTS
from spvbuild.passes.opcode_sets import ANNOTATIONS, RESULT_AT, TARGETING

__all__ = [
    "FunctionStart",
    "Record",
    "Resolved",
    "entry_points_apart",
    "is_linkage",
    "resolve_words",
]

Record = tuple[int, Sequence[int], Offsets]
"""An instruction before the functions: its opcode, its words (an array, or a list once
renamed) and its id offsets."""


def _value(kind: str, name: str) -> int:
    """The value of enumerant ``name`` of enum ``kind`` (by the grammar's tables)."""
    return next(v for v, (found, _) in ENUMERANTS[kind].items() if found == name)


_GROUPS: Final = frozenset({OP_DECORATION_GROUP, OP_GROUP_DECORATE, OP_GROUP_MEMBER_DECORATE})
_LINKAGE: Final = _value("Decoration", "LinkageAttributes")
_BUILTIN: Final = _value("Decoration", "BuiltIn")
_IMPORT: Final = _value("LinkageType", "Import")
_EXPORT: Final = _value("LinkageType", "Export")
_ONCE: Final = _value("LinkageType", "LinkOnceODR")
_LINKAGE_CAPABILITY: Final = _value("Capability", "Linkage")


class FunctionStart(NamedTuple):
    """What linkage reads of a function: ``id``, ``type_id`` (its function type) and
    ``parameters`` (their ids)."""

    id: int
    type_id: int
    parameters: tuple[int, ...]


class Resolved(NamedTuple):
    """The imports resolved: ``kept`` (the indices of the records kept, in order),
    ``replaced`` (each import → its export), ``removed`` (the imports and their
    parameters: a function among them goes)."""

    kept: list[int]
    replaced: dict[int, int]
    removed: set[int]


def is_linkage(opcode: int, found: Sequence[int]) -> bool:
    """True for an ``OpDecorate ... LinkageAttributes`` (its opcode and words)."""
    return opcode == OP_DECORATE and len(found) > 3 and found[2] == _LINKAGE


def resolve_words(
    head: Sequence[Record],
    functions: dict[int, FunctionStart],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
) -> Resolved | None:
    """The imports of ``head`` (the merged module's instructions before its functions,
    duplicates removed) paired with their exports and resolved, as linkage's ``find``,
    ``pair``, ``check`` and ``resolve`` do (see the module's docstring); None where the
    typed path must say what is wrong."""
    variables: dict[int, int] = {}
    builtins: set[int] = set()
    linkages: list[int] = []
    for index, record in enumerate(head):
        opcode, found, _ = record
        if opcode in _GROUPS:
            return None
        if opcode == OP_VARIABLE:
            variables[found[2]] = found[1]
        elif opcode == OP_DECORATE and len(found) > 2:
            if found[2] == _BUILTIN:
                builtins.add(found[1])
            elif found[2] == _LINKAGE:
                linkages.append(index)
    imports: list[tuple[tuple[int, ...], int, int, tuple[int, ...]]] = []
    exports: dict[tuple[int, ...], list[tuple[int, int, bool]]] = {}
    for index in linkages:
        found = head[index][1]
        target = found[1]
        if target in builtins:
            continue
        function = functions.get(target)
        if function is not None:
            type_id, parameters = function.type_id, function.parameters
        elif target in variables:
            type_id, parameters = variables[target], ()
        else:
            return None  # neither a global variable nor a function
        name = tuple(found[3:-1])
        if found[-1] == _IMPORT:
            imports.append((name, target, type_id, parameters))
        elif found[-1] == _EXPORT or found[-1] == _ONCE:
            exports.setdefault(name, []).append((target, type_id, found[-1] == _ONCE))
    for candidates in exports.values():
        if len(candidates) > 1 and len({once for _, _, once in candidates}) > 1:
            return None  # exported both ways
    replaced: dict[int, int] = {}
    removed: set[int] = set()
    for name, target, type_id, parameters in imports:
        candidates = exports.get(name, [])
        if candidates and candidates[0][2]:
            candidates = candidates[:1]  # the first LinkOnceODR
        if len(candidates) > 1 or not candidates and not allow_partial_linkage:
            return None
        if candidates:
            export, export_type, _ = candidates[0]
            if export_type != type_id:
                return None
            replaced[target] = export
            removed.add(target)
            removed.update(parameters)
    if replaced and not _decorated_alike(head, replaced):
        return None
    return Resolved(_kept(head, removed, create_library, allow_partial_linkage), replaced, removed)


def _decorated_alike(head: Sequence[Record], replaced: dict[int, int]) -> bool:
    """True when each import has its export's decorations (LinkageAttributes aside)."""
    wanted = set(replaced) | set(replaced.values())
    found: dict[int, set[tuple[int, ...]]] = {}
    for record in head:
        opcode, words, offsets = record
        if (
            opcode in ANNOTATIONS
            and opcode in TARGETING
            and offsets[:1] == (1,)
            and words[1] in wanted
            and not is_linkage(opcode, words)
        ):
            found.setdefault(words[1], set()).add((opcode, *words[2:]))
    return all(found.get(a, set()) == found.get(b, set()) for a, b in replaced.items())


def _kept(
    head: Sequence[Record], removed: set[int], keep_exports: bool, keep_imports: bool
) -> list[int]:
    """The indices of the records resolving keeps, the Linkage capability dropped where
    nothing needs it (see linkage.needs_linkage)."""
    kept: list[int] = []
    linkage_left = entry = False
    for index, record in enumerate(head):
        opcode, found, offsets = record
        if opcode in TARGETING and offsets[:1] == (1,) and found[1] in removed:
            continue
        at = RESULT_AT.get(opcode, 0)
        if at and found[at] in removed:
            continue
        if is_linkage(opcode, found):
            if found[-1] != _IMPORT and not keep_exports:
                continue
            if found[-1] == _IMPORT and not keep_imports:
                continue
            linkage_left = True
        entry = entry or opcode == OP_ENTRY_POINT
        kept.append(index)
    if keep_exports or linkage_left or not entry:
        return kept
    return [k for k in kept if not _is_linkage_capability(head[k])]


def _is_linkage_capability(record: Record) -> bool:
    opcode, found, _ = record
    return opcode == OP_CAPABILITY and len(found) == 2 and found[1] == _LINKAGE_CAPABILITY


def entry_points_apart(head: Sequence[Record]) -> bool:
    """False when two entry points have one execution model and name (merge refuses
    that): an OpEntryPoint is its model, its function, its name and its interface ids."""
    seen: set[tuple[int, ...]] = set()
    for opcode, found, offsets in head:
        if opcode == OP_ENTRY_POINT and len(found) > 3:
            name_end = offsets[1] if len(offsets) > 1 else len(found)
            key = (found[1], *found[3:name_end])
            if key in seen:
                return False
            seen.add(key)
    return True
