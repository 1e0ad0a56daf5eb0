"""Where the assembler's text comes from: a ``str``, or a file read a piece at a time.

The assembler reads its text three ways, and :class:`AssemblyText` gives each:

* :meth:`~AssemblyText.pieces`: the text in order, in pieces of about ``piece``
  characters, ending at its first NUL (where ``spirv-as`` stops reading); the words are
  made from these, a batch at a time (:func:`spvbuild.text.asm_tokens.token_batches`);
* :meth:`~AssemblyText.lines`: its lines, NULs included, for the ``; Version:`` header
  rule (:func:`target_env_of_lines`), which reads only up to the first instruction;
* :meth:`~AssemblyText.whole`: all of it up to the first NUL, only to turn an error's
  word index into ``line:col``.

A file is decoded as UTF-8 with bytes that are not UTF-8 kept as surrogate escapes (so
they go into string literals unchanged, like ``spirv-as``), and is never held whole
while assembling: a large text then needs memory for its ids and words only.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Iterator
from os import PathLike
from pathlib import Path

from spvbuild.text.asm_grammar import TARGET_ENVS

__all__ = ["PIECE_CHARACTERS", "AssemblyText", "target_env_of_header", "target_env_of_lines"]

PIECE_CHARACTERS = 1 << 18
"""About how many characters the assembler splits into words at a time."""

_VERSION_PREFIX = "; Version: 1."
_C_SPACES = " \t\n\v\f\r"  # C's isspace: the blanks spirv-as skips before the header
_ASCII_DIGITS = "0123456789"


class AssemblyText:
    """Assembly text, from a ``str`` (:meth:`of_str`) or a file (:meth:`of_file`)."""

    def __init__(self, text: str | None, path: Path | None, piece: int) -> None:
        """Use :meth:`of_str` or :meth:`of_file`."""
        self._text = text
        self._path = path
        self._piece = max(1, piece)

    @classmethod
    def of_str(cls, text: str, piece: int = PIECE_CHARACTERS) -> AssemblyText:
        """The text of a ``str``."""
        return cls(text, None, piece)

    @classmethod
    def of_file(cls, path: str | PathLike[str], piece: int = PIECE_CHARACTERS) -> AssemblyText:
        """The text of a file, read when needed (an OSError then names the file)."""
        return cls(None, Path(path), piece)

    def is_empty(self) -> bool:
        """True for a text of no characters at all."""
        if self._text is not None:
            return not self._text
        assert self._path is not None
        with self._path.open("rb") as stream:
            return not stream.read(1)

    def pieces(self) -> Iterator[str]:
        """The text up to its first NUL, in pieces of about ``piece`` characters."""
        for piece in self._raw_pieces():
            nul = piece.find("\0")
            if nul >= 0:
                yield piece[:nul]
                return
            yield piece

    def whole(self) -> str:
        """The text up to its first NUL (only for error positions: it is read whole)."""
        return "".join(self.pieces())

    def lines(self) -> Iterator[str]:
        """The lines of the whole text (NULs included), each with its ``\\n`` but the last."""
        if self._text is not None:
            text = self._text
            start = 0
            while start < len(text):
                end = text.find("\n", start) + 1 or len(text)
                yield text[start:end]
                start = end
            return
        assert self._path is not None
        with self._path.open("rb") as stream:
            for line in stream:
                yield line.decode("utf-8", "surrogateescape")

    def _raw_pieces(self) -> Iterator[str]:
        if self._text is not None:
            text = self._text
            size = self._piece
            for start in range(0, len(text), size):
                yield text[start : start + size]
            return
        assert self._path is not None
        decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        with self._path.open("rb") as stream:
            while True:
                data = stream.read(self._piece)
                piece = decoder.decode(data, final=not data)
                if piece:
                    yield piece
                if not data:
                    return


def target_env_of_lines(lines: Iterable[str]) -> str | None:
    """The target ``spirv-as`` reads from the header comment of the text of ``lines``.

    Without ``--target-env``, spirv-as looks at the lines before the first instruction:
    blank lines and ``;`` comments only; the first other character ends the search.  A
    comment that begins ``; Version: 1.`` followed by one digit (not two) names the
    universal environment of that version, ``spv1.0`` to ``spv1.6``; a later minor
    version (``; Version: 1.7``) or a two-digit one is passed over like any comment.
    Blanks are C's (space, tab, LF, VT, FF, CR) and only ASCII digits count.  None when
    no header names a version.
    """
    for line in lines:
        n = len(line)
        k = 0
        while k < n and line[k] in _C_SPACES:
            k += 1
        if k == n:
            continue
        if line[k] != ";":
            return None
        digit = k + len(_VERSION_PREFIX)
        if digit < n and line.startswith(_VERSION_PREFIX, k):
            minor = line[digit]
            after = line[digit + 1 : digit + 2]
            if minor in _ASCII_DIGITS and (not after or after not in _ASCII_DIGITS):
                env = f"spv1.{minor}"
                if env in TARGET_ENVS:
                    return env
    return None


def target_env_of_header(text: str) -> str | None:
    """:func:`target_env_of_lines` for the text of a ``str``: ``spv1.X`` or None."""
    return target_env_of_lines(AssemblyText.of_str(text).lines())
