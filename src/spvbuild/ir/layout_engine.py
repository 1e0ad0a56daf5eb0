"""The module builder's layout loops: the engine :mod:`spvbuild.accel` may compile.

Writing a module walks every piece of its body once: the records whose words their call
kept, the runs of words, and the rare record whose words must be made when writing.
Ordering a section by its words does the same over the section's records.  Both loops
touch nothing but lists, dicts, sets and tuples, so they live here, fully typed and free
of the module builder's classes: :mod:`spvbuild.accel.accelerate` compiles this module
with mypyc (``make engines``, and every compiled wheel) and
:func:`spvbuild.accel.engines.load` hands out that copy while it is current; the plain
module runs everywhere else (and with ``SPVBUILD_PURE_PYTHON`` set), with the same
results.

What the module builder keeps of a record made at its call, by ``id()`` of the record:
``(record, words, used, needs)`` — the record itself (a stale entry's record is another
object), its words, the ids its encoding used (or None) and what it needs, as its call
listed it (or None: found by walking it when written).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["by_words", "join", "lay_out"]

Kept = dict[int, tuple[Any, Any, Any, Any]]


def join(
    body: list[Any],
    kept: Kept,
    extend: Callable[[Any], object],
    run_class: type,
    met: set[Any],
    found: dict[Any, str],
    used: dict[int, str],
    other: Callable[[Any, bool], object],
    on_run: Callable[[Any], object],
) -> list[Any]:
    """Write ``body``'s words in order with ``extend``; the runs of words among its pieces.

    A run (an instance of ``run_class``) gives its words as they are, and ``on_run`` is
    called for it where it lists first words (instructions that need something).  A record
    whose words were kept gives them, the ids they use go into ``used`` (the first place
    each is used) and what it needs into ``found`` (each need once, with where it was
    first seen; ``met`` holds those found).  ``other(record, written)`` is called for
    every other record, in its place: to walk it for what it needs (``written``: its kept
    words are written already, but its call listed no needs) or to make its words too.
    """
    runs: list[Any] = []
    for piece in body:
        if type(piece) is run_class:
            run: Any = piece
            runs.append(run)
            extend(run.words)
            if run.firsts:
                on_run(run)
            continue
        entry = kept.get(id(piece))
        if entry is None or entry[0] is not piece:
            other(piece, False)
            continue
        extend(entry[1])
        listed: dict[int, str] | None = entry[2]
        if listed is not None:
            for value, where in listed.items():
                if value not in used:
                    used[value] = where
        needs: tuple[tuple[Any, str], ...] | None = entry[3]
        if needs is None:
            other(piece, True)
            continue
        for need, where in needs:
            if need not in met:
                found[need] = where
                met.add(need)
    return runs


def by_words(
    items: list[Any],
    kept: Kept,
    word_keys: dict[int, tuple[int, frozenset[int], int]],
) -> list[Any] | None:
    """``items`` (records of one section) sorted by their kept words, or None where some
    record's words are not kept or may hold a value that is not a plain word where it
    could decide the order.

    ``word_keys`` says, per opcode, which word holds the one enum operand (0: none), the
    enumerant values that qualify (parameters of plain words only), and -1 where every
    operand is plain, else how many plain words after the target order the record (see
    :data:`spvbuild.ir.section_order.WORD_KEYS`).  The key: the target, the opcode, then
    the words after the target; ties keep call order.
    """
    keyed: list[tuple[int, int, list[int], int, Any]] = []
    prefixed = False
    index = 0
    for inst in items:
        opcode: int = inst[0]  # (the record's opcode)
        rule = word_keys.get(opcode)
        entry = kept.get(id(inst))
        if rule is None or entry is None or entry[0] is not inst:
            return None
        words: list[int] = entry[1]
        position, allowed, prefix = rule
        if len(words) < 2 or (
            position and (len(words) <= position or words[position] not in allowed)
        ):
            return None
        if prefix < 0:
            keyed.append((words[1], opcode, words[2:], index, inst))
        else:
            prefixed = True
            keyed.append((words[1], opcode, words[2 : 2 + prefix], index, inst))
        index += 1
    keyed.sort()
    if prefixed:
        # A record ordered by a prefix of its words must differ from its neighbours in it.
        for position in range(1, len(keyed)):
            before, after = keyed[position - 1], keyed[position]
            if before[0] == after[0] and before[1] == after[1] and before[2] == after[2]:
                return None
    return [entry[4] for entry in keyed]


def lay_out(
    sections: dict[str, list[Any]],
    skip: frozenset[str],
    reordered: frozenset[str],
    by_target: frozenset[str],
    kept: Kept,
    word_keys: dict[int, tuple[int, frozenset[int], int]],
    by_values: Callable[[str, list[Any]], list[Any]],
) -> list[Any]:
    """The records of every section of ``sections`` but those in ``skip``, in order,
    each section in its canonical order: call order but in ``reordered`` sections; those
    of them in ``by_target`` by their words (:func:`by_words`) where the words can say
    it, the others (and those whose words cannot) as ``by_values(section, records)`` says.
    """
    out: list[Any] = []
    for name, items in sections.items():
        if not items or name in skip:
            continue
        if len(items) == 1 or name not in reordered:
            out.extend(items)
            continue
        if name in by_target:
            found = by_words(items, kept, word_keys)
            if found is not None:
                out.extend(found)
                continue
        out.extend(by_values(name, items))
    return out
