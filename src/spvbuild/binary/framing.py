"""Bytes → words and the one framing walk of a module's instructions.

:func:`words_of` turns a binary (bytes in either byte order, the magic number decides,
or a sequence of 32-bit words) into an ``array`` of words in native byte order (four
bytes a word, converted in C) and checks the 5-word header.  :func:`frame` walks the word
counts once, by the read engine's ``split`` (:mod:`spvbuild.binary.read_engine`, compiled
or interpreted, see :func:`engine`): where it stops (a word count of 0, or past the end)
and what consumers plan by (the number of instructions and the distinct first words).
The reader (:mod:`spvbuild.binary.reader`) and the disassembler both frame the words this
way; each decides what to say where the framing stops.  :func:`offsets` lists the
offsets of framed instructions.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Final, Literal, NamedTuple

from spvbuild.binary.header import MAGIC
from spvbuild.binary.header import version_of as version_of
from spvbuild.errors import ArgumentError, BinaryError

__all__ = [
    "WORD_CODE",
    "Endianness",
    "Framing",
    "engine",
    "engine_kind",
    "frame",
    "offsets",
    "version_of",
    "words_of",
]

Endianness = Literal["little", "big"]

WORD_CODE: Final = "I"  # the array code of a 32-bit word on every platform CPython supports
assert array(WORD_CODE).itemsize == 4


def words_of(
    data: bytes | bytearray | memoryview | Sequence[int], caller: str = "words_of"
) -> tuple[array[int], Endianness]:
    """The words of a binary (header included, in native byte order) and its byte order:
    only the byte count, the magic number and the 5-word header are checked here
    (BinaryError).  :func:`read` then checks the framing of every instruction with
    :func:`frame`, which a consumer of the words (the disassembler) calls too.  An array,
    not a list: four bytes a word instead of a Python int each (indexing it is as fast).
    ``caller`` names the public function in the message of an ArgumentError (data of a
    wrong type)."""
    words, endianness = _to_array(data, caller)
    _check_header(words)
    return words, endianness


def _check_header(words: array[int]) -> None:
    if len(words) < 5:
        raise BinaryError(len(words), f"a module has a 5-word header, got {len(words)} words")


class Framing(NamedTuple):
    """What :func:`frame` finds: the framing of a module's instructions."""

    instructions: int
    """The number of instructions before ``end``."""
    firsts: set[int]
    """Their distinct first words (opcode and word count) that are at least the opcode's
    grammar minimum (those below it were handed to ``short``)."""
    end: int
    """The offset of the first instruction whose word count is 0 or runs past the end of
    the module; the number of words when there is none."""


class _Cut(Exception):
    """The instruction at ``args[0]`` has word count 0 or runs past the end."""


def frame(words: array[int], short: Callable[[int], None] | None = None) -> Framing:
    """Walk the word counts of a module's instructions (``words``: header included, as
    :func:`words_of` gives them) once, by the read engine's
    :func:`~spvbuild.binary.read_engine.split`: the one framing walk of every consumer
    (the reader, :class:`~spvbuild.ir.module.Module`'s ``from_binary`` through it, the
    disassembler).

    It stops at the first instruction whose word count is 0 or that runs past the end
    (``end``; what to say about it is the consumer's: the reader raises at once, the
    disassembler after printing what comes before).  ``short(offset)`` is called, in
    order, for each instruction before it whose word count is below its opcode's grammar
    minimum (it may raise); only the first words of the others are in ``firsts``.
    """
    from spvbuild.binary.plans import core_plan

    form = engine()
    data, n = form.prepare(words)
    lowest = core_plan().lowest

    def check(i: int) -> None:
        count = words[i] >> 16
        if not count or i + count > n:
            raise _Cut(i)
        if short is not None:
            short(i)

    try:
        count, firsts = form.split(data, n, lowest, check)
        return Framing(count, firsts, n)
    except _Cut as cut:
        end: int = cut.args[0]
    # the instructions before the cut (they end exactly there): counted again, rare
    count, firsts = form.split(data, end, lowest, check)
    return Framing(count, firsts, end)


def offsets(words: Sequence[int], start: int = 5, stop: int | None = None) -> list[int]:
    """The offset of every instruction from ``start`` (an instruction's offset) up to the
    first at ``stop`` or later (the end by default), whose framing :func:`frame` checked."""
    found: list[int] = []
    append = found.append
    n = len(words) if stop is None else stop
    i = start
    while i < n:
        append(i)
        i += words[i] >> 16
    return found


def engine() -> ModuleType:
    """The form of :mod:`spvbuild.binary.read_engine` that runs: a compiled one when there is
    one (the wheel's, or a current development copy; see :mod:`spvbuild.accel.engines`;
    never with ``SPVBUILD_PURE_PYTHON`` set), else the module itself, interpreted."""
    from spvbuild.accel import engines

    return engines.running("read_engine")


def engine_kind() -> str:
    """``"mypyc"`` when the reader runs a compiled form of :mod:`spvbuild.binary.read_engine`,
    ``"python"`` when it runs it interpreted."""
    from spvbuild.accel import engines

    return engines.kind(engine())


def _to_array(
    data: bytes | bytearray | memoryview | Sequence[int], caller: str
) -> tuple[array[int], Endianness]:
    """The words in native byte order (an array: the reader indexes it without making a
    Python int of every word up front) and the byte order of the input.  Data that is
    neither bytes nor an iterable of words (None, a number, a str) is an ArgumentError
    naming ``caller``."""
    if isinstance(data, bytes | bytearray | memoryview):
        view = memoryview(data)
        if view.format != "B" or view.ndim != 1 or not view.c_contiguous:
            view = memoryview(view.tobytes())
        size = view.nbytes
        if size >= 4:
            head = bytes(view[:4])
            if int.from_bytes(head, "little") == MAGIC:
                endianness: Endianness = "little"
            elif int.from_bytes(head, "big") == MAGIC:
                endianness = "big"
            else:
                raise BinaryError(
                    0,
                    f"bad magic 0x{int.from_bytes(head, 'little'):08x} "
                    f"(expected 0x{MAGIC:08x} in either byte order)",
                )
        if size % 4:
            raise BinaryError(size // 4, f"{size} bytes is not a whole number of 32-bit words")
        buffer = array(WORD_CODE)
        if size < 4:
            return buffer, "little"
        buffer.frombytes(view)
        if endianness != sys.byteorder:
            buffer.byteswap()
        return buffer, endianness
    if isinstance(data, str) or not hasattr(data, "__iter__"):
        hint = "; assemble text with spvbuild.text.assembler.assemble" if isinstance(data, str) else ""
        raise ArgumentError(
            f"{caller}: expected a SPIR-V binary (bytes, bytearray, memoryview or a sequence "
            f"of 32-bit words), not {type(data).__name__}{hint}"
        )
    try:
        words = array(WORD_CODE, data)
    except (TypeError, OverflowError, ValueError):
        for index, value in enumerate(data):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
                raise BinaryError(index, f"{value!r} is not a 32-bit word") from None
        raise BinaryError(0, "not a sequence of 32-bit words") from None
    if words and words[0] != MAGIC:
        raise BinaryError(0, f"bad magic 0x{words[0]:08x} (expected 0x{MAGIC:08x})")
    return words, "little"
