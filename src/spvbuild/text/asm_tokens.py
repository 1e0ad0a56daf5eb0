"""Splitting assembly text into words, exactly as ``spirv-as`` does.

A word ends at a space, tab, CR, LF or ``;`` (a comment runs to the end of the line),
except inside double quotes; a backslash escapes the next character, so ``\\"`` does not
close a string and ``\\ `` does not end a word.  A NUL character ends the text.  Any
other character, including every other Unicode space, belongs to a word.

Two tokenizers give the same words: :func:`tokens` is the fast one (``str.split`` on the
long stretches without quotes, backslashes, comments or unusual spaces, a precise scan
elsewhere); :func:`token_starts` is the precise one and also returns where each word
starts, which is only needed to report an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

__all__ = [
    "ID_LETTERS",
    "id_name_match",
    "line_col",
    "token_batches",
    "token_offset",
    "token_starts",
    "tokens",
]

id_name_match = re.compile(r"%[A-Za-z0-9_]+").fullmatch
"""A match when a word is an id as ``spirv-as`` spells one: ``%`` and letters, digits or ``_``."""

ID_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
"""The ASCII bytes an id may hold after its ``%``."""

_BREAK = frozenset(" \t\r\n;")
# Characters str.split() would treat differently from spirv-as: quotes, escapes and
# comments change word boundaries; every whitespace other than " \t\r\n" is a word char.
_SPECIAL = re.compile(
    '["\\\\;\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]'
).search


def _word_end(text: str, i: int) -> int:
    """Index just past the word starting at ``i`` (quotes and escapes respected)."""
    n = len(text)
    quoting = False
    escaping = False
    while i < n:
        ch = text[i]
        if ch == "\\":
            escaping = not escaping
        else:
            if ch == '"':
                if not escaping:
                    quoting = not quoting
            elif ch in _BREAK and not (escaping or quoting):
                return i
            escaping = False
        i += 1
    return i


def _skip(text: str, i: int) -> int:
    """Index of the next word start at or after ``i`` (skips blanks and comments)."""
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r\n":
            i += 1
        elif ch == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        else:
            return i
    return n


def token_starts(text: str) -> tuple[list[str], list[int]]:
    """Every word of ``text`` (already cut at its first NUL) with its start offset."""
    words: list[str] = []
    starts: list[int] = []
    n = len(text)
    i = _skip(text, 0)
    while i < n:
        j = _word_end(text, i)
        words.append(text[i:j])
        starts.append(i)
        i = _skip(text, j)
    return words, starts


_ASCII_SPECIALS = ('"', ";", "\\", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


def _next_special(text: str) -> Callable[[int], int]:
    """A function giving the index of the next special character at or after ``pos``.

    ASCII text (the usual case) is searched with ``str.find`` for each of the few
    special characters, remembering each one's next position; other text with the
    regular expression.  Returns ``len(text)`` when there is none.
    """
    n = len(text)
    if not text.isascii():

        def by_regex(pos: int) -> int:
            """Next special character by regular expression."""
            found = _SPECIAL(text, pos)
            return n if found is None else found.start()

        return by_regex
    nexts = {}
    for ch in _ASCII_SPECIALS:
        k = text.find(ch)
        if k >= 0:
            nexts[ch] = k

    def by_find(pos: int) -> int:
        """Next special character: the nearest remembered position, refreshed by find."""
        best = n
        for ch, k in list(nexts.items()):
            if k < pos:
                k = text.find(ch, pos)
                if k < 0:
                    del nexts[ch]
                    continue
                nexts[ch] = k
            if k < best:
                best = k
        return best

    return by_find


def _chunks(text: str) -> Iterator[tuple[int, int, bool]]:
    """The text as (start, end, one_word) pieces, in order.

    A piece with ``one_word`` is a single word found by the precise scan; the other
    pieces hold no special character, so ``str.split`` finds their words exactly.
    """
    n = len(text)
    next_special = _next_special(text)
    j = next_special(0)
    pos = 0
    while j < n:
        # The word holding the special character starts after the last blank before it.
        k = max(
            text.rfind(" ", pos, j),
            text.rfind("\t", pos, j),
            text.rfind("\n", pos, j),
            text.rfind("\r", pos, j),
        )
        k = pos if k < pos else k + 1
        if k > pos:
            yield pos, k, False
        i = _skip(text, k)
        while i < n and i <= j:
            end = _word_end(text, i)
            yield i, end, True
            i = _skip(text, end)
            if end > j:
                break
        pos = i
        j = next_special(pos)
    if pos < n:
        yield pos, n, False


def tokens(text: str) -> list[str]:
    """Every word of ``text`` (already cut at its first NUL); same as :func:`token_starts`."""
    words: list[str] = []
    for start, end, one_word in _chunks(text):
        if one_word:
            words.append(text[start:end])
        elif start == 0 and end == len(text):
            return text.split()
        else:
            words.extend(text[start:end].split())
    return words


def token_batches(pieces: Iterable[str]) -> Iterator[list[str]]:
    """The words of the text made of ``pieces`` (cut anywhere), a list per piece or so.

    Joined, the lists are exactly ``tokens("".join(pieces))``.  The text read so far is
    split up to its last line break, except that a word still open there (a string whose
    quotes span the line break, an escaped line break) is kept, with the rest, for the
    next piece: every other line break outside a word ends any word and any comment, so
    the words before it are final.  While no line break is final, the text is not split
    again before it has doubled, so a huge word costs linear time.
    """
    pending = ""
    wait_for = 0
    for piece in pieces:
        pending = pending + piece if pending else piece
        if len(pending) < wait_for:
            continue
        cut = pending.rfind("\n") + 1
        head = pending[:cut]
        words, open_at = _words_until_open(head)
        if open_at >= 0:
            cut = open_at
        if words:
            yield words
        pending = pending[cut:]
        wait_for = 2 * len(pending) if cut == 0 else 0
    if pending:
        yield tokens(pending)


def _words_until_open(text: str) -> tuple[list[str], int]:
    """The words of ``text`` and -1; or, if its last word runs to its end (open), the words
    before that one and where it starts."""
    words: list[str] = []
    open_at = -1
    n = len(text)
    for start, end, one_word in _chunks(text):
        if one_word:
            if end == n:
                open_at = start
                break
            words.append(text[start:end])
        else:
            words.extend(text[start:end].split())
            if end == n and text[n - 1 : n] not in ("\n", " ", "\t", "\r", ""):
                # a plain stretch cut mid-word: its last word continues in the next piece
                last = words.pop()
                open_at = n - len(last)
    return words, open_at


_WORD = re.compile(r"[^ \t\r\n]+")


def token_offset(text: str, index: int) -> int:
    """Start offset of word number ``index`` of :func:`tokens` (or the end of the text).

    Only used to report an error, yet fast on large texts: whole pieces are counted
    with ``str.split`` and only the piece holding the word is searched.
    """
    count = 0
    last_end = 0
    for start, end, one_word in _chunks(text):
        if one_word:
            if count == index:
                return start
            count += 1
            last_end = end
            continue
        piece = text[start:end]
        found = len(piece.split())
        if count + found > index:
            for number, match in enumerate(_WORD.finditer(piece)):
                if count + number == index:
                    return start + match.start()
        if found:
            count += found
            last_end = start + len(piece.rstrip(" \t\r\n"))
    return last_end


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col
