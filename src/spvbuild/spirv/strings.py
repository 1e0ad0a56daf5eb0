"""The one codec of ``LiteralString``: text ↔ words.

A literal string is UTF-8, NUL-terminated and zero-padded to whole little-endian words.
The encoder, the reader, the assembler and the disassembler all go through here.

Bytes that are not UTF-8 (spirv-as writes a text's bytes as they are, spirv-dis prints
them as they are) are kept as Python's ``surrogateescape`` characters U+DC80 to U+DCFF,
so such a string keeps its exact bytes both ways: :func:`string_words` writes them back
as the bytes, :func:`string_in` reads them so, and says whether the words were canonical
(valid UTF-8 and zero padding), which the lossless reader needs.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Sequence

from spvbuild.errors import EncodeError
from spvbuild.spirv.arguments import shown

__all__ = ["string_at", "string_in", "string_words"]


def string_words(text: str) -> list[int]:
    """A literal string: UTF-8, NUL-terminated, zero-padded to whole little-endian words.

    The characters U+DC80 to U+DCFF stand for the bytes 0x80 to 0xFF of a string that is
    not valid UTF-8 (see the module's docstring), so such strings keep their exact bytes.
    A NUL, or any other lone surrogate (it has no UTF-8 form), is an
    :class:`~spvbuild.errors.EncodeError`.
    """
    found = _ENCODED.get(text)
    if found is not None:
        return list(found)  # (a new list: the caller may extend it)
    if "\0" in text:
        raise EncodeError(
            f"string {shown(text)}: a NUL character at index {text.index(chr(0))} would end "
            "the string there"
        )
    try:
        data = text.encode() if text.isascii() else text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise EncodeError(
            f"string {text[:40]!r}{'...' if len(text) > 40 else ''}: character "
            f"{text[exc.start]!r} at index {exc.start} is a lone surrogate, which has no "
            "UTF-8 form"
        ) from None
    data += b"\0" * (4 - len(data) % 4)  # the NUL, then zeros to a whole word
    if _LITTLE_ENDIAN:
        words: list[int] = memoryview(data).cast("I").tolist()
    else:
        words = list(struct.unpack(f"<{len(data) // 4}I", data))
    if len(text) <= _ENCODED_LENGTH and len(_ENCODED) < _ENCODED_KEPT:
        _ENCODED[text] = tuple(words)
    return words


_LITTLE_ENDIAN = sys.byteorder == "little"  # words read in place from the bytes
# Short strings encoded already (names, entry points, set names recur): bounded, as the
# strings come from users.
_ENCODED: dict[str, tuple[int, ...]] = {}
_ENCODED_LENGTH = 64
_ENCODED_KEPT = 4096


def string_in(data: bytes, base: int) -> tuple[str, int, bool] | None:
    """The string whose bytes start at ``data[base]`` (``base`` a multiple of 4, ``data``
    whole little-endian words), or None when no NUL ends it.

    Returns the text (bytes that are not UTF-8 as surrogate escapes), the index of the
    word after its last one (counted from the start of ``data``) and whether the words
    are canonical: valid UTF-8 and zero padding, so that :func:`string_words` of the text
    gives them back.
    """
    nul = data.find(b"\0", base)
    if nul < 0:
        return None
    stop = nul // 4 + 1
    raw = data[base:nul]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "surrogateescape"), stop, False
    padding = data[nul + 1 : stop * 4]
    return text, stop, padding.count(0) == len(padding)


def string_at(words: Sequence[int], start: int, end: int) -> tuple[str, int, bool] | None:
    """The string in ``words[start:end]`` as :func:`string_in` reads it, the index of the
    word after it counted in ``words``; None when no NUL ends it before ``end``."""
    found = string_in(struct.pack(f"<{end - start}I", *words[start:end]), 0)
    if found is None:
        return None
    text, stop, canonical = found
    return text, start + stop, canonical
