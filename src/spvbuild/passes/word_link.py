"""Linking on the words: the steps of :mod:`spvbuild.passes.link`, each id moved once.

The inputs are :class:`~spvbuild.passes.word_modules.WordModule` records: their words and
where their ids are.  What only moves ids is done on the words:

1. merging: each module's instructions before its functions shifted past the modules
   before it and put into the merged module's sections (:mod:`spvbuild.passes.merge`'s
   rules); its functions stay where they are, known by their offsets;
2. ``remove-duplicates`` (:mod:`spvbuild.passes.dedup`'s rules), keyed by the words of
   the types, constants and imports, their ids merged so far, and of their decorations:
   the map of each duplicate to the one kept;
3. the imports and exports: the instructions before the functions, and each function's
   OpFunction and parameters, are read typed (one read of their words), so that
   :mod:`spvbuild.passes.linkage` finds, pairs, checks and resolves them as it does for
   the typed path;
4. one renaming of every id word: the shift, the duplicates' map, the imports' exports and
   the numbering in order of first appearance (as :mod:`spvbuild.passes.compact`) joined
   into one table per module, applied while the words are copied.

:func:`link_words` gives None wherever the typed path must say what is wrong or keep what
it cannot type (an error of any step, words the grammar cannot type, models that differ):
the typed path then links the same inputs.  Where it gives words they are the typed
path's, word for word.
"""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild.binary.encoder import GENERATOR, header_words
from spvbuild.binary.framing import version_of
from spvbuild.binary.id_words import Offsets
from spvbuild.binary.reader import read
from spvbuild.errors import LinkError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_ENTRY_POINT, OP_MEMORY_MODEL
from spvbuild.passes import linkage
from spvbuild.passes.dedup import MERGED_OPCODES
from spvbuild.passes.ids import TARGETING
from spvbuild.passes.merge import origin_in, section_of
from spvbuild.passes.program import Function, Layout
from spvbuild.passes.word_modules import WordFunction, WordModule
from spvbuild.spirv.instruction import Instruction

__all__ = ["link_words"]

# An instruction before the functions: its opcode, its words (shifted), its id offsets.
_Record = tuple[int, list[int], Offsets]

_SECTIONS = {name: index for index, name in enumerate(tables.SECTIONS)}
_MODEL_SECTION = _SECTIONS["memory_model"]
_DECORATING = frozenset(
    opcode for opcode in TARGETING if tables.INSTRUCTIONS[opcode].section == "annotations"
)
"""The names and decorations ``remove-duplicates`` compares (the annotations)."""
# opcode → where its result id is (2 after a result type, else 1; 0: none)
_RESULT_AT = {
    opcode: (1 + info.has_result_type) if info.has_result else 0
    for opcode, info in tables.INSTRUCTIONS.items()
}


def link_words(
    modules: Sequence[WordModule],
    names: Sequence[str],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
    use_highest_version: bool,
) -> tuple[tuple[int, int], list[int]] | None:
    """The version and the words of ``modules`` linked (see the module's docstring), or
    None where the typed path must link them."""
    versions = [version_of(m.words[1]) for m in modules]
    version = max(versions)
    if not use_highest_version and min(versions) != version:
        return None
    merged = _merge(modules)
    if merged is None:
        return None
    head, shifts, bound = merged
    duplicates = _duplicates(head)
    head = _without_duplicates(head, duplicates)
    resolved = _resolve(
        modules,
        head,
        shifts,
        duplicates,
        bound,
        version,
        names,
        allow_partial_linkage=allow_partial_linkage,
        create_library=create_library,
    )
    if resolved is None:
        return None
    kept, interfaces, functions, replaced = resolved
    words = _renamed(modules, kept, interfaces, functions, shifts, duplicates, replaced)
    words[:5] = header_words(version, words[3], GENERATOR)
    return version, words


def _merge(modules: Sequence[WordModule]) -> tuple[list[_Record], list[int], int] | None:
    """The instructions before the functions of every module, shifted, in the merged
    module's sections; each module's shift; the merged bound.  None for a module without
    its memory model, or models that differ, or an entry point declared twice."""
    sections: list[list[_Record]] = [[] for _ in _SECTIONS]
    model: list[int] | None = None
    entry_points: set[tuple[int, ...]] = set()
    shifts = []
    shift = 0
    for module in modules:
        shifts.append(shift)
        words, starts, ids = module.words, module.starts, module.ids
        has_model = False
        for k in range(module.head):
            start = starts[k]
            first = words[start]
            opcode = first & 0xFFFF
            found = words[start : start + (first >> 16)].tolist()
            offsets = ids[k]
            if shift:
                for offset in offsets:
                    found[offset] += shift
            if opcode == OP_MEMORY_MODEL:
                has_model = True
                if model is None:
                    model = found
                    sections[_MODEL_SECTION].append((opcode, found, offsets))
                elif found != model:
                    return None
                continue
            if opcode == OP_ENTRY_POINT:
                key = tuple(found)
                if key in entry_points:
                    return None
                entry_points.add(key)
            sections[_SECTIONS[section_of(opcode)]].append((opcode, found, offsets))
        if not has_model:
            return None
        shift += max(module.bound - 1, 0)
    return [record for section in sections for record in section], shifts, shift + 1


def _renaming(found: list[int], offsets: Offsets, ids: dict[int, int]) -> list[int]:
    """A copy of an instruction's words with each id ``i`` made ``ids.get(i, i)``."""
    out = list(found)
    for offset in offsets:
        value = out[offset]
        out[offset] = ids.get(value, value)
    return out


def _duplicates(head: list[_Record]) -> dict[int, int]:
    """Each type, constant or import that repeats one before it → that one, as
    ``remove-duplicates`` merges them."""
    decorations: dict[int, list[_Record]] = {}
    for record in head:
        opcode, found, offsets = record
        if opcode in _DECORATING and offsets[:1] == (1,):
            decorations.setdefault(found[1], []).append(record)
    merged: dict[int, int] = {}
    first: dict[tuple[object, ...], int] = {}
    for opcode, found, offsets in head:
        if opcode not in MERGED_OPCODES:
            continue
        at = _RESULT_AT[opcode]
        rid = found[at]
        key_words = _renaming(found, offsets, merged) if merged else list(found)
        del key_words[at]
        decorated = decorations.get(rid)
        key = (tuple(key_words), _decoration_key(decorated, merged) if decorated else ())
        kept = first.setdefault(key, rid)
        if kept != rid:
            merged[rid] = kept
    return merged


def _decoration_key(decorations: list[_Record], merged: dict[int, int]) -> tuple[object, ...]:
    """The decorations of an id, their targets left out, their ids merged so far."""
    found = (_renaming(words, offsets, merged) for _, words, offsets in decorations)
    return tuple(sorted((w[0], *w[2:]) for w in found))


def _without_duplicates(head: list[_Record], merged: dict[int, int]) -> list[_Record]:
    """``head`` without the merged duplicates, their names and decorations, and without
    the instructions that define nothing and repeat one before them word for word; every
    id made the one kept."""
    out = []
    seen: set[tuple[int, ...]] = set()
    for record in head:
        opcode, found, offsets = record
        at = _RESULT_AT[opcode]
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
    head: list[_Record],
    shifts: list[int],
    merged: dict[int, int],
    bound: int,
    version: tuple[int, int],
    names: Sequence[str],
    *,
    allow_partial_linkage: bool,
    create_library: bool,
) -> tuple[list[_Record], list[int], list[tuple[int, WordFunction]], dict[int, int]] | None:
    """The imports resolved by :mod:`spvbuild.passes.linkage` over the instructions before
    the functions that it reads (:data:`~spvbuild.passes.linkage.READS`) and the functions'
    starts, read typed: the records kept (the Linkage capability dropped where nothing
    needs it), for each the number of its interface ids (an entry point's; 0 for any
    other), the functions kept (module index and function; declarations first), and each
    import's export.  None for a LinkError or a decoration group whose targets change."""
    reads = linkage.READS
    read_words = header_words(version, bound)
    for opcode, found, _ in head:
        if opcode in reads:
            read_words += found
    starts: list[tuple[int, WordFunction]] = []
    for index, module in enumerate(modules):
        shift = shifts[index]
        for function in module.functions:
            starts.append((index, function))
            for k in range(function.first, function.first + 1 + function.parameters):
                found = module.instruction(k).tolist()
                for offset in module.ids[k]:
                    value = found[offset] + shift
                    found[offset] = merged.get(value, value)
                read_words += found
    typed = read(read_words, lazy=False).instructions
    count = len(typed) - sum(1 + function.parameters for _, function in starts)
    read_head = typed[:count]
    if not _entry_points_apart(read_head):
        return None
    functions: list[Function] = []
    for _, function in starts:
        functions.append(Function(typed[count : count + 1 + function.parameters]))
        count += 1 + function.parameters
    layout = Layout(read_head, functions)
    try:
        symbols = linkage.find(layout, origin_in(names, [shift + 1 for shift in shifts]))
        pairs = linkage.pair(symbols, allow_partial_linkage=allow_partial_linkage)
        linkage.check(pairs, read_head)
    except LinkError:
        return None
    removed = linkage.removed_ids(pairs)
    keep = linkage.keeper(removed, keep_exports=create_library, keep_imports=allow_partial_linkage)
    kept_read = [inst for inst in read_head if keep(inst)]
    if any(linkage.without_removed(inst, removed) is not inst for inst in kept_read):
        return None  # a decoration group's targets change: the typed path writes it
    no_linkage = not create_library and not linkage.needs_linkage(kept_read)
    kept: list[_Record] = []
    interfaces: list[int] = []
    typed_of = iter(read_head)
    for record in head:
        opcode, found, offsets = record
        if opcode in reads:
            inst = next(typed_of)
            if not keep(inst) or no_linkage and linkage.is_linkage_capability(inst):
                continue
            interfaces.append(_interface(inst))
        elif opcode in TARGETING and offsets[:1] == (1,) and found[1] in removed:
            continue
        else:
            interfaces.append(0)
        kept.append(record)
    chosen = [
        (index, function)
        for (index, function), typed_function in zip(starts, functions, strict=True)
        if typed_function.id not in removed
    ]
    chosen = [c for c in chosen if not c[1].defined] + [c for c in chosen if c[1].defined]
    replaced = {imported.id: exported.id for imported, exported in pairs}
    return kept, interfaces, chosen, replaced


def _entry_points_apart(head: list[Instruction]) -> bool:
    """False when two entry points have one name and execution model (merge's LinkError)."""
    seen: set[tuple[object, str]] = set()
    for inst in head:
        if inst.opcode == OP_ENTRY_POINT and len(inst.operands) >= 3:
            key = (inst.operands[0], str(inst.operands[2]))
            if key in seen:
                return False
            seen.add(key)
    return True


def _interface(inst: Instruction) -> int:
    """How many interface ids end an entry point (whose repeats go, as
    :func:`linkage.without_repeats` drops them); 0 for any other instruction."""
    if inst.opcode == OP_ENTRY_POINT and len(inst.operands) == 4:
        return len(inst.operands[3])
    return 0


def _renamed(
    modules: Sequence[WordModule],
    head: list[_Record],
    interfaces: list[int],
    functions: list[tuple[int, WordFunction]],
    shifts: list[int],
    merged: dict[int, int],
    replaced: dict[int, int],
) -> list[int]:
    """The linked module's words: ``head`` then ``functions``, every id word renamed once
    (shifted, merged, an import made its export) and numbered 1..n in order of first
    appearance; entry points' interfaces without repeats."""
    out: list[int] = [0] * 5
    places: list[int] = []  # where each id word is in out
    ids: list[int] = []  # its id before numbering
    for (_, found, offsets), interface in zip(head, interfaces, strict=True):
        if replaced:
            found = _renaming(found, offsets, replaced)
        if interface:
            found, offsets = _without_repeats(found, offsets, interface)
        base = len(out)
        out += found
        places += [base + offset for offset in offsets]
        ids += [found[offset] for offset in offsets]
    # each module's local id → its id before numbering (shifted, merged, resolved)
    joined = {old: replaced.get(new, new) for old, new in merged.items()}
    for old, new in replaced.items():
        joined.setdefault(old, new)
    tables_: dict[int, list[int]] = {}
    for index, function in functions:
        module = modules[index]
        table = tables_.get(index)
        if table is None:
            shifted = range(shifts[index], shifts[index] + module.bound)
            table = tables_[index] = list(map(joined.get, shifted, shifted))
        words = module.words
        start = module.starts[function.first]
        positions = module.positions[module.before[function.first] : module.before[function.end]]
        base = len(out) - start
        out += words[start : module.end_of(function.end)]
        places += [base + position for position in positions]
        ids += map(table.__getitem__, map(words.__getitem__, positions))
    numbers = dict(zip(dict.fromkeys(ids), range(1, len(ids) + 1), strict=False))
    for place, number in zip(places, map(numbers.__getitem__, ids), strict=True):
        out[place] = number
    out[3] = len(numbers) + 1  # the bound (the caller writes the rest of the header)
    return out


def _without_repeats(
    found: list[int], offsets: Offsets, interface: int
) -> tuple[list[int], Offsets]:
    """An entry point's words and id offsets with each interface id once."""
    listed = found[len(found) - interface :]
    once = list(dict.fromkeys(listed))
    if len(once) == len(listed):
        return found, offsets
    out = found[: len(found) - interface] + once
    out[0] = (len(out) << 16) | (out[0] & 0xFFFF)
    return out, offsets[: len(offsets) - interface + len(once)]
