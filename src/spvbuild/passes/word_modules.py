"""A module as words for the passes that only move ids (linking): its words, where its ids
are (:func:`spvbuild.binary.id_words.id_words`) and where its functions begin and end.

:func:`word_module` takes a binary; it gives None where the typed form must take over: the
reader would keep words it cannot type or refuse them, or the functions do not split as
:func:`spvbuild.passes.program.split` splits them without a word (every function ended,
nothing between or after them, only parameters before a function's first block), a
function holds what :mod:`spvbuild.passes.dedup` would merge or drop there (a type, a
constant, a name or a decoration), or an id is defined twice.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from itertools import accumulate, compress, repeat
from operator import add, and_, itemgetter
from typing import Final, NamedTuple

from spvbuild.binary.framing import WORD_CODE, words_of
from spvbuild.binary.id_words import IdWords, Offsets, id_words
from spvbuild.errors import SpvbuildError
from spvbuild.generated.core.opcodes import (
    OP_FUNCTION,
    OP_FUNCTION_END,
    OP_FUNCTION_PARAMETER,
    OP_LABEL,
)
from spvbuild.passes.opcode_sets import MERGED_OPCODES, TARGETING, result_at

__all__ = ["WordFunction", "WordModule", "word_module"]

# Each instruction of a module as a letter: a function's start, parameter, label, end, an
# instruction a function may not hold here, any other.
_LETTERS: Final = {
    **dict.fromkeys(MERGED_OPCODES | TARGETING, "m"),
    OP_FUNCTION: "F",
    OP_FUNCTION_PARAMETER: "P",
    OP_LABEL: "L",
    OP_FUNCTION_END: "E",
}


class _ResultAt(dict[int, int]):
    """first word → the offset of the result id (0: none)."""

    def __missing__(self, first: int) -> int:
        found = self[first] = result_at(first & 0xFFFF)
        return found


_RESULT_AT: Final = _ResultAt()
_FUNCTIONS: Final = re.compile(r"(?:FP*(?:L[xP]*)*E)*")
_FUNCTION: Final = re.compile(r"F(P*)[^E]*E")


class WordFunction(NamedTuple):
    """A function of a :class:`WordModule`: ``first`` and ``end`` (the indices of its
    OpFunction and of the instruction after its OpFunctionEnd), ``parameters`` (how many
    OpFunctionParameter follow the OpFunction), ``defined`` (it has blocks)."""

    first: int
    end: int
    parameters: int
    defined: bool


class WordModule(NamedTuple):
    """A module's words and where its ids are.

    Fields: ``words`` (the module's words, header included), ``starts`` and ``ids`` (as
    :class:`~spvbuild.binary.id_words.IdWords`), ``positions`` (the offset of every id word
    in ``words``, in order), ``before`` (for each instruction, how many of ``positions``
    belong to the instructions before it, and one more item: all of them), ``head`` (the
    number of instructions before the first function), ``functions``.  ``starts``,
    ``positions`` and ``before`` are arrays of 32-bit words (a linker holds every input's
    at once: four bytes an item, where a list holds an int object for each).
    """

    words: array[int]
    starts: array[int]
    ids: list[Offsets]
    positions: array[int]
    before: array[int]
    head: int
    functions: list[WordFunction]

    @property
    def bound(self) -> int:
        """The header's id bound."""
        return self.words[3]

    def instruction(self, index: int) -> array[int]:
        """The words of instruction ``index``."""
        start = self.starts[index]
        return self.words[start : start + (self.words[start] >> 16)]

    def end_of(self, index: int) -> int:
        """The offset in ``words`` where instruction ``index`` (or, at the number of
        instructions, the module) ends."""
        return self.starts[index] if index < len(self.starts) else len(self.words)


def word_module(data: Sequence[int] | bytes | array[int]) -> WordModule | None:
    """The :class:`WordModule` of a binary, or None (see the module's docstring)."""
    try:
        words = words_of(data)[0]
    except SpvbuildError:
        return None
    found = id_words(words)
    if found is None:
        return None
    return _split(words, found)


def _split(words: array[int], found: IdWords) -> WordModule | None:
    starts, firsts, ids, positions = found
    result_at = list(map(_RESULT_AT.__getitem__, firsts))
    places = list(compress(map(add, starts, result_at), result_at))
    defined = itemgetter(*places)(words) if len(places) > 1 else places
    if len(set(defined)) != len(defined):
        return None  # an id defined twice: which one a step takes is the typed path's
    letters = "".join(map(_LETTERS.get, map(and_, firsts, repeat(0xFFFF)), repeat("x")))
    head = letters.find("F")
    if head < 0:
        head = len(letters)
    if not _FUNCTIONS.fullmatch(letters, head):
        return None
    functions = [
        WordFunction(m.start(), m.end(), len(m.group(1)), "L" in m.group())
        for m in _FUNCTION.finditer(letters, head)
    ]
    before = array(WORD_CODE, [0, *accumulate(map(len, ids))])
    return WordModule(
        words,
        array(WORD_CODE, starts),
        ids,
        array(WORD_CODE, positions),
        before,
        head,
        functions,
    )
