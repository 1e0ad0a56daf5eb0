"""The record of a module as read: :class:`ReadModule` (header fields, the instructions
decoded on first access, the words again by the encoder)."""

from __future__ import annotations

import sys
from array import array

from spvbuild.binary.decode import Reader
from spvbuild.binary.encoder import encode_module
from spvbuild.binary.framing import WORD_CODE, Endianness, version_of
from spvbuild.spirv.instruction import Instruction

__all__ = ["ReadModule"]

# What the reader's framing gives: the number of instructions and the distinct first words.
_Framing = tuple[int, set[int]]


class ReadModule:
    """A module as read from a binary: header fields and typed instructions.

    ``instructions`` is decoded from the words on first access (a
    :class:`~spvbuild.errors.BinaryError` about an operand surfaces then, unless
    :func:`read` was called with ``lazy=False``).  ``to_words()`` encodes the module again
    with :func:`spvbuild.binary.encoder.encode_module`; for a module fresh from :func:`read` the
    words are identical to the input.
    """

    __slots__ = (
        "version",
        "generator",
        "bound",
        "schema",
        "endianness",
        "_instructions",
        "_words",
        "_framing",
        "_count",
        "_version_word",
    )

    def __init__(
        self,
        version: tuple[int, int],
        generator: int,
        bound: int,
        schema: int,
        endianness: Endianness,
        instructions: list[Instruction],
    ) -> None:
        self.version = version
        """(major, minor) of the header's version word."""
        self.generator = generator
        """The generator's magic number (header word 2)."""
        self.bound = bound
        """The id bound: every id is below it."""
        self.schema = schema
        """Header word 4 (0 in every SPIR-V version so far)."""
        self.endianness: Endianness = endianness
        """Byte order of the input ("little" for a sequence of words)."""
        self._instructions: list[Instruction] | None = instructions
        self._words: array[int] | None = None
        # until decoded: the number of instructions, the first words (see reader._split)
        self._framing: _Framing | None = None
        self._count = len(instructions)
        self._version_word: int | None = None

    @classmethod
    def _from_words(
        cls, words: array[int], framing: _Framing, endianness: Endianness
    ) -> ReadModule:
        module = cls(version_of(words[1]), words[2], words[3], words[4], endianness, [])
        module._instructions = None
        module._words = words
        module._framing = framing
        module._count = framing[0]
        module._version_word = words[1]
        return module

    @property
    def instructions(self) -> list[Instruction]:
        """The instructions in module order (decoded from the words on first access)."""
        if self._instructions is None:
            assert self._words is not None and self._framing is not None
            self._instructions = Reader(self._words, self.bound).run(*self._framing)
            self._words = self._framing = None
        return self._instructions

    @instructions.setter
    def instructions(self, value: list[Instruction]) -> None:
        self._instructions = value
        self._words = self._framing = None

    def __len__(self) -> int:
        """The number of instructions (known without decoding them)."""
        return len(self._instructions) if self._instructions is not None else self._count

    def to_words(self) -> list[int]:
        """The module as SPIR-V words (header included), through the encoder."""
        words = encode_module(
            self.instructions, self.bound, self.version, self.generator, schema=self.schema
        )
        # Bits of the version word outside major/minor survive while version is unchanged.
        if self._version_word is not None and self.version == version_of(self._version_word):
            words[1] = self._version_word
        return words

    def to_bytes(self, endianness: Endianness | None = None) -> bytes:
        """The module as bytes, in the byte order it was read in unless told otherwise."""
        out = array(WORD_CODE, self.to_words())
        if (endianness or self.endianness) != sys.byteorder:
            out.byteswap()
        return out.tobytes()

    def __repr__(self) -> str:
        return (
            f"ReadModule(version={self.version}, generator=0x{self.generator:08x}, "
            f"bound={self.bound}, schema={self.schema}, endianness={self.endianness!r}, "
            f"{len(self)} instructions)"
        )
