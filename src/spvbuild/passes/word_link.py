"""Linking on the words: the steps of :mod:`spvbuild.passes.link`, each id moved once.

The inputs are :class:`~spvbuild.passes.word_modules.WordModule` records: their words and
where their ids are.  What only moves ids is done on the words:

1. merging: each module's instructions before its functions shifted past the modules
   before it and put into the merged module's sections (:mod:`spvbuild.passes.merge`'s
   rules); its functions stay where they are, known by their offsets;
2. ``remove-duplicates`` (:mod:`spvbuild.passes.dedup`'s rules), keyed by the words of
   the types, constants and imports, their ids merged so far, and of their decorations:
   the map of each duplicate to the one kept;
3. the imports and exports: :mod:`spvbuild.passes.word_linkage` finds, pairs, checks and
   resolves them by :mod:`spvbuild.passes.linkage`'s rules over the merged instructions
   before the functions and what it reads of each function's start;
4. one renaming of every id word: the shift, the duplicates' map, the imports' exports and
   the numbering in order of first appearance (as :mod:`spvbuild.passes.compact`) joined
   into one table per module, applied while the words are copied.

:func:`link_words` gives None wherever the typed path must say what is wrong (versions or
models that differ, a missing memory model, an entry point twice, any refusal of the
imports and exports, decoration groups): the typed path then links the same inputs.
Inputs that do not read, hold words the grammar cannot type or do not split into
functions never get here (:func:`~spvbuild.passes.word_modules.word_module` gives None).
Where it gives words they are the typed path's, word for word.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from itertools import repeat
from operator import add, itemgetter

from spvbuild.binary.header import GENERATOR, header_words, version_of
from spvbuild.binary.id_words import Offsets
from spvbuild.generated.core.opcodes import OP_ENTRY_POINT, OP_MEMORY_MODEL
from spvbuild.generated.core.word_layouts import SECTIONS
from spvbuild.passes.opcode_sets import (
    ANNOTATIONS,
    MERGED_OPCODES,
    RESULT_AT,
    TARGETING,
    section_of,
)
from spvbuild.passes.word_linkage import (
    FunctionStart,
    Record,
    entry_points_apart,
    is_linkage,
    resolve_words,
)
from spvbuild.passes.word_modules import WordFunction, WordModule

__all__ = ["link_words"]

WORD = "I"  # the array code of a 32-bit word (spvbuild.binary.framing.WORD_CODE)

_SECTIONS = {name: index for index, name in enumerate(SECTIONS)}


class _SectionIndex(dict[int, int]):
    """opcode → the index of its section outside the functions (opcode_sets.section_of)."""

    def __missing__(self, opcode: int) -> int:
        found = self[opcode] = _SECTIONS[section_of(opcode)]
        return found


_SECTION_INDEX = _SectionIndex()
_MODEL_SECTION = _SECTIONS["memory_model"]
_ENTRY_SECTION = _SECTIONS["entry_points"]
_DECORATING = TARGETING & ANNOTATIONS
"""The names and decorations ``remove-duplicates`` compares (the annotations)."""


def link_words(
    modules: Sequence[WordModule],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> tuple[tuple[int, int], array[int]] | None:
    """The version and the words of ``modules`` linked (see the module's docstring; an
    array of 32-bit words), or None where the typed path must link them."""
    versions = [version_of(m.words[1]) for m in modules]
    version = max(versions)
    if not use_highest_version and min(versions) != version:
        return None
    merged = _merge(modules)
    if merged is None:
        return None
    head, shifts = merged
    duplicates = _duplicates(head)
    head = _without_duplicates(head, duplicates)
    resolved = _resolve(
        modules,
        head,
        shifts,
        duplicates,
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
    )
    if resolved is None:
        return None
    kept, functions, replaced = resolved
    words = _renamed(modules, kept, functions, shifts, duplicates, replaced)
    words[:5] = array(WORD, header_words(version, words[3], GENERATOR))
    return version, words


def _merge(modules: Sequence[WordModule]) -> tuple[list[Record], list[int]] | None:
    """The instructions before the functions of every module, shifted, in the merged
    module's sections, and each module's shift.  None for a module without its memory
    model, models that differ, or an entry point declared twice."""
    sections: list[list[Record]] = [[] for _ in _SECTIONS]
    section_index = _SECTION_INDEX
    model: Sequence[int] | None = None
    shifts = []
    shift = 0
    for module in modules:
        shifts.append(shift)
        head = module.head
        region = module.words[: module.end_of(head)]  # (a copy: the words are arrays)
        if shift:
            for position in module.positions[: module.before[head]]:
                region[position] += shift
        starts, ids = module.starts, module.ids
        has_model = False
        for k in range(head):
            start = starts[k]
            first = region[start]
            opcode = first & 0xFFFF
            found = region[start : start + (first >> 16)]
            if opcode == OP_MEMORY_MODEL:
                has_model = True
                if model is None:
                    model = found
                    sections[_MODEL_SECTION].append((opcode, found, ids[k]))
                elif found != model:
                    return None
                continue
            sections[section_index[opcode]].append((opcode, found, ids[k]))
        if not has_model:
            return None
        shift += max(module.bound - 1, 0)
    if not entry_points_apart(sections[_ENTRY_SECTION]):
        return None
    return [record for section in sections for record in section], shifts


def _renaming(found: Sequence[int], offsets: Offsets, ids: dict[int, int]) -> list[int]:
    """A copy of an instruction's words with each id ``i`` made ``ids.get(i, i)``."""
    out = list(found)
    for offset in offsets:
        value = out[offset]
        out[offset] = ids.get(value, value)
    return out


def _duplicates(head: list[Record]) -> dict[int, int]:
    """Each type, constant or import that repeats one before it → that one, as
    ``remove-duplicates`` merges them."""
    decorations: dict[int, list[Record]] = {}
    for record in head:
        opcode, found, offsets = record
        if opcode in _DECORATING and offsets[:1] == (1,):
            decorations.setdefault(found[1], []).append(record)
    merged: dict[int, int] = {}
    first: dict[tuple[object, ...], int] = {}
    for opcode, found, offsets in head:
        if opcode not in MERGED_OPCODES:
            continue
        at = RESULT_AT[opcode]
        rid = found[at]
        key_words = _renaming(found, offsets, merged) if merged else list(found)
        del key_words[at]
        decorated = decorations.get(rid)
        key = (tuple(key_words), _decoration_key(decorated, merged) if decorated else ())
        kept = first.setdefault(key, rid)
        if kept != rid:
            merged[rid] = kept
    return merged


def _decoration_key(decorations: list[Record], merged: dict[int, int]) -> tuple[object, ...]:
    """The decorations of an id, their targets left out, their ids merged so far."""
    found = (_renaming(words, offsets, merged) for _, words, offsets in decorations)
    return tuple(sorted((w[0], *w[2:]) for w in found))


def _without_duplicates(head: list[Record], merged: dict[int, int]) -> list[Record]:
    """``head`` without the merged duplicates, their names and decorations, and without
    the instructions that define nothing and repeat one before them word for word; every
    id made the one kept."""
    out = []
    seen: set[tuple[int, ...]] = set()
    for record in head:
        opcode, found, offsets = record
        at = RESULT_AT[opcode]
        if at and found[at] in merged:
            continue
        if opcode in TARGETING and offsets[:1] == (1,) and found[1] in merged:
            continue
        if merged:
            found = _renaming(found, offsets, merged)
            record = (opcode, found, offsets)
        if not at:
            repeated = tuple(found)
            if repeated in seen:
                continue
            seen.add(repeated)
        out.append(record)
    return out


def _resolve(
    modules: Sequence[WordModule],
    head: list[Record],
    shifts: list[int],
    merged: dict[int, int],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
) -> tuple[list[Record], list[tuple[int, WordFunction]], dict[int, int]] | None:
    """The imports resolved (:func:`~spvbuild.passes.word_linkage.resolve_words`): the
    records kept, the functions kept (module index and function; declarations first)
    and each import's export; None where the typed path must say what is wrong."""
    targets = {found[1] for opcode, found, _ in head if is_linkage(opcode, found)}
    starts: dict[int, FunctionStart] = {}
    order: list[tuple[int, tuple[int, WordFunction]]] = []
    for index, module in enumerate(modules):
        shift = shifts[index]
        words, module_starts, ids = module.words, module.starts, module.ids
        for function in module.functions:
            k = function.first
            start, offsets = module_starts[k], ids[k]  # result type, result id, type
            function_id = words[start + offsets[1]] + shift
            order.append((function_id, (index, function)))
            if function_id not in targets:
                continue
            type_id = words[start + offsets[2]] + shift if len(offsets) > 2 else 0
            parameters = tuple(
                words[module_starts[p] + ids[p][1]] + shift
                for p in range(k + 1, k + 1 + function.parameters)
            )
            starts[function_id] = FunctionStart(
                function_id, merged.get(type_id, type_id), parameters
            )
    resolved = resolve_words(
        head,
        starts,
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
    )
    if resolved is None:
        return None
    removed = resolved.removed
    chosen = [found for function_id, found in order if function_id not in removed]
    chosen = [c for c in chosen if not c[1].defined] + [c for c in chosen if c[1].defined]
    return [head[k] for k in resolved.kept], chosen, resolved.replaced


def _renamed(
    modules: Sequence[WordModule],
    head: list[Record],
    functions: list[tuple[int, WordFunction]],
    shifts: list[int],
    merged: dict[int, int],
    replaced: dict[int, int],
) -> array[int]:
    """The linked module's words (an array): ``head`` then ``functions``, every id word
    renamed once (shifted, merged, an import made its export) and numbered 1..n in order of
    first appearance; entry points' interfaces without repeats.  Each piece's ids are
    numbered and written as it is copied: nothing per id word outlives its piece."""
    out = array(WORD, bytes(20))
    numbers: dict[int, int] = {}
    places: list[int] = []
    for opcode, found, offsets in head:
        if opcode == OP_ENTRY_POINT and len(offsets) > 2:  # its function, its interface
            found, offsets = _without_repeats(found, offsets, len(offsets) - 1, replaced)
        base = len(out)
        places += [base + offset for offset in offsets]
        out.extend(found)
    ids: Sequence[int] = _gather(out, places)
    if replaced:
        ids = list(map(replaced.get, ids, ids))
    _number(out, places, ids, numbers)
    # each module's local id → its id before numbering (shifted, merged, resolved)
    joined = {old: replaced.get(new, new) for old, new in merged.items()}
    for old, new in replaced.items():
        joined.setdefault(old, new)
    tables_: dict[int, list[int]] = {}
    for index, first, end in _runs(functions):
        module = modules[index]
        table = tables_.get(index)
        if table is None:
            shifted = range(shifts[index], shifts[index] + module.bound)
            table = tables_[index] = list(map(joined.get, shifted, shifted))
        words = module.words
        start = module.starts[first]
        positions = module.positions[module.before[first] : module.before[end]]
        at = len(out) - start
        out += words[start : module.end_of(end)]
        ids = list(map(table.__getitem__, _gather(words, positions)))
        _number(out, map(add, positions, repeat(at)), ids, numbers)
    out[3] = len(numbers) + 1  # the bound (the caller writes the rest of the header)
    return out


def _number(
    out: array[int], places: Iterable[int], ids: Sequence[int], numbers: dict[int, int]
) -> None:
    """Write the number of each of ``ids`` at its place in ``out``, a new id numbered
    after every one numbered before (``numbers``: id → its number, so far)."""
    new = [i for i in dict.fromkeys(ids) if i not in numbers]
    if new:
        first = len(numbers) + 1
        numbers.update(zip(new, range(first, first + len(new)), strict=True))
    for place, number in zip(places, map(numbers.__getitem__, ids), strict=True):
        out[place] = number


def _gather(words: Sequence[int], positions: Sequence[int]) -> Sequence[int]:
    """The words at ``positions``."""
    if len(positions) > 1:
        found: tuple[int, ...] = itemgetter(*positions)(words)
        return found
    return [words[p] for p in positions]


def _runs(functions: list[tuple[int, WordFunction]]) -> list[tuple[int, int, int]]:
    """The functions as runs of consecutive instructions of one module: (module index,
    first instruction, end)."""
    runs: list[list[int]] = []
    for index, function in functions:
        if runs and runs[-1][0] == index and runs[-1][2] == function.first:
            runs[-1][2] = function.end
        else:
            runs.append([index, function.first, function.end])
    return [(index, first, end) for index, first, end in runs]


def _without_repeats(
    found: Sequence[int], offsets: Offsets, interface: int, replaced: dict[int, int]
) -> tuple[Sequence[int], Offsets]:
    """An entry point's words and id offsets with each interface id once (as it will be
    once each import is its export)."""
    listed = found[len(found) - interface :]
    first: dict[int, int] = {}
    for value in listed:
        first.setdefault(replaced.get(value, value), value)
    once = list(first.values())
    if len(once) == len(listed):
        return found, offsets
    out = list(found[: len(found) - interface]) + once
    out[0] = (len(out) << 16) | (out[0] & 0xFFFF)
    return out, offsets[: len(offsets) - interface + len(once)]
