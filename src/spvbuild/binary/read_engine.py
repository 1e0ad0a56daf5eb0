"""The reader's two hot loops, written once, run in two forms: the read engine (see
:mod:`spvbuild.accel.engines`).

:mod:`spvbuild.binary.reader` checks the framing of every instruction with :func:`split` and then
decodes the instructions whose first word has a fast path with :func:`decode`.  Both read
the module (as :func:`prepare` gives it) through three small readers, :func:`_word`,
:func:`_five` and :func:`_real`; this is where the two forms differ, and only here:

* compiled (by mypyc: in the wheel, or a development copy, see
  :mod:`spvbuild.accel.engines`): the module is its little-endian bytes and the readers
  are the functions below, byte loads into native 64-bit ints (``i64``) that mypyc turns
  into plain C (no tagged-int checks, and fixed-size tuples it does not box); the loops'
  offsets and words are ``i64`` too.  ``i64`` is only an annotation, never evaluated
  (it is imported for the type checker alone): nothing beyond the standard library is
  needed at run time, and interpreted the names are plain ints;
* interpreted (no compiled form, or ``SPVBUILD_PURE_PYTHON`` set): at import the module
  rebinds the four names to what the interpreter runs fastest, the words' own ``array``
  (padded) and C functions over it (``operator.getitem``, ``struct``'s ``unpack_from``).

So the loops have one source; the test suite runs the reader's tests on each form.
Everything the loops look up is passed in by the reader; of spvbuild this module imports
only the fast-path codes (:mod:`spvbuild.binary.read_codes`, constants mypyc folds in).
"""

from __future__ import annotations

import operator
import struct
import sys
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from spvbuild.binary.read_codes import (
    BARE,
    BINARY,
    CALL,
    CHAIN,
    CONSTANT,
    DEFERRED,
    EXT,
    JUMP,
    LABEL,
    LOAD,
    PADDING,
    STORE,
    UNARY,
)

if TYPE_CHECKING:  # mypyc's native int: an annotation only (see the docstring)
    from mypy_extensions import i64

__all__ = ["COMPILED", "SEEN", "decode", "prepare", "split"]

COMPILED: Final = not __file__.endswith(".py")
"""True in a mypyc-compiled form (an extension module: the wheel's, or a development copy
``spvbuild.accel._read_engine_mypyc``)."""

SEEN: Final = 0x400
"""The size of the caches by opcode (the low bits of the opcode index them; a cache holds
a whole first word, so opcodes that share an index only miss more often).  Small enough
to be cheap to make for a small module."""


def prepare(words: array[int]) -> tuple[bytes, int]:
    """The module as the loops read it, and its number of words: the words as little-endian
    bytes then ``PADDING`` zero bytes (compiled form; interpreted, the words' array with
    as many zero bytes after them, see the module's docstring)."""
    if sys.byteorder != "little":  # pragma: no cover - big-endian hosts
        words = array("I", words)
        words.byteswap()
    # One copy of the words' buffer (join takes it as is): tobytes() + padding made two
    # fresh buffers of the module's size, about a twentieth of a typed read.
    return b"".join((words, bytes(PADDING))), len(words)


def _at(data: bytes, p: i64) -> i64:
    """The little-endian word at byte offset ``p`` (compiled form: four byte loads into
    native ints; a byte of ``bytes`` converts to ``i64`` without a tagged int)."""
    b0: i64 = data[p]
    b1: i64 = data[p + 1]
    b2: i64 = data[p + 2]
    b3: i64 = data[p + 3]
    return b0 | b1 << 8 | b2 << 16 | b3 << 24


def _word(data: bytes, i: i64) -> i64:
    """The word at word offset ``i`` (compiled form)."""
    return _at(data, i << 2)


def _five(data: bytes, p: i64) -> tuple[i64, i64, i64, i64, i64]:
    """The five words from byte offset ``p`` (compiled form)."""
    return _at(data, p), _at(data, p + 4), _at(data, p + 8), _at(data, p + 12), _at(data, p + 16)


_F32 = struct.Struct("<f")


def _real(data: bytes, p: i64) -> tuple[float]:
    """The 32-bit float at byte offset ``p``, in a 1-tuple (compiled form; rare: the
    inline OpConstant path)."""
    real: float = _F32.unpack_from(data, p)[0]
    return (real,)


def _padded(words: array[int]) -> tuple[array[int], int]:
    """:func:`prepare`, interpreted: the words' array (native order) with ``PADDING`` zero
    bytes after them, and its number of words."""
    return words + array("I", bytes(PADDING)), len(words)


if not COMPILED:  # interpreted: the same names, the interpreter's fastest readers
    globals().update(
        prepare=_padded,
        _word=operator.getitem,
        _five=struct.Struct("=5I").unpack_from,
        _real=struct.Struct("=f").unpack_from,
    )


def split(
    data: bytes, n: int, lowest: list[int], check: Callable[[int], None]
) -> tuple[int, set[int]]:
    """Check the framing of every instruction of ``data`` (the module as :func:`prepare`
    gives it, header included; ``n`` words before the padding).

    Return the number of instructions and the distinct first words whose word count is
    at least their opcode's grammar minimum (``lowest``, by opcode).  ``check(offset)`` is called
    for each instruction whose first word is below it (it raises the error, unless the
    general decoder takes the instruction) and for the last instruction when it runs past
    the end (it raises).  A first word is compared with the minimum when it differs from
    the last one of its opcode that was not below it.
    """
    firsts: set[int] = set()
    seen = [-1] * SEEN  # by opcode (see SEEN): the last first word taken into firsts
    count = 0
    last: i64 = 0
    i: i64 = 5  # the word offset of the first instruction
    end: i64 = n
    while i < end:
        w0 = _word(data, i)
        if seen[w0 & (SEEN - 1)] != w0:
            if w0 >> 16 < lowest[w0 & 0xFFFF]:  # word count 0 or below the grammar's minimum
                check(i)
            else:
                seen[w0 & (SEEN - 1)] = w0
                firsts.add(w0)
        count += 1
        last = i
        i += w0 >> 16
    if i > end:
        check(last)
    return count, firsts


def decode(
    data: bytes,
    n: int,
    start: int,
    codes: dict[int, int],
    lookups: tuple[Any, ...],
    out: list[Any],
    later: list[int],
) -> int:
    """Decode the instructions from word offset ``start`` to word ``n`` (the end) of
    ``data`` (as :func:`prepare` gives it) into ``out``; a deferred instruction's
    offset goes into ``out`` and its index in ``out`` into ``later``.  ``codes`` gives the
    fast path of each first word (the framing was checked by :func:`split`).

    ``lookups`` holds what the fast paths index: the ids (a list by word), the result
    types (a dict by word), the 32-bit numeric types of the inline constants, the core
    decoders by first word, the OpExtInst decoders by set and instruction, the general
    decoder (offset → instruction, or None when the instruction must wait), the
    instruction class, two lists of ``SEEN`` items (by opcode, see ``SEEN``: the last
    first word looked up in ``codes``, -1 at first, and its code) and the maker of a record
    (``tuple.__new__`` or its C twin, see :mod:`spvbuild.accel.records`).

    Return 0 when every instruction is done, or the word offset of the one whose lookup
    failed (``LookupError``: nothing was appended for it; the reader hands it to the
    general decoder and goes on with the next one).
    """
    ids: list[Any] = lookups[0]
    type_ids: dict[int, Any] = lookups[1]
    inline: dict[int, tuple[Any, int]] = lookups[2]
    decoders: Any = lookups[3]
    ext_plans: Any = lookups[4]
    general: Callable[[int], Any] = lookups[5]
    cls: Any = lookups[6]
    seen: list[int] = lookups[7]
    seen_code: list[int] = lookups[8]
    new: Any = lookups[9]
    compiled = COMPILED
    i: i64 = start
    end: i64 = n
    try:
        while i < end:
            w0, w1, w2, w3, w4 = _five(data, i << 2)
            op = w0 & 0xFFFF
            if not compiled:  # the interpreter's fastest: a dict lookup
                code = codes[w0]  # KeyError: not a fast path, see reader._Reader._fallback
            elif seen[op & (SEEN - 1)] == w0:  # compiled: no boxed dict key when cached
                code = seen_code[op & (SEEN - 1)]
            else:
                code = codes[w0]
                seen[op & (SEEN - 1)] = w0
                seen_code[op & (SEEN - 1)] = code
            if code == BINARY:
                out.append(new(cls, (op, type_ids[w1], ids[w2], (ids[w3], ids[w4]), None)))
            elif code == LOAD:
                out.append(new(cls, (op, type_ids[w1], ids[w2], (ids[w3], None), None)))
            elif code == STORE:
                out.append(new(cls, (op, None, None, (ids[w1], ids[w2], None), None)))
            elif code == CHAIN:
                out.append(new(cls, (op, type_ids[w1], ids[w2], (ids[w3], (ids[w4],)), None)))
            elif code == CONSTANT:
                # A 32-bit scalar of a type declared before: inline (but a NaN, for the
                # payload check).  Otherwise it waits until every type is known.
                numeric = inline.get(w1)
                if numeric is None:
                    later.append(len(out))
                    out.append(i)
                elif numeric[1] == 2:  # float
                    real = _real(data, (i << 2) + 12)[0]
                    if real == real:
                        out.append(new(cls, (op, numeric[0], ids[w2], (real,), None)))
                    else:
                        later.append(len(out))
                        out.append(i)
                else:
                    value = w3 - 0x100000000 if numeric[1] == 1 and w3 >= 0x80000000 else w3
                    out.append(new(cls, (op, numeric[0], ids[w2], (value,), None)))
            elif code == CALL:
                out.append(decoders[w0](i, w0, w1, w2, w3, w4))
            elif code == EXT:
                number: int = w4  # the key in ints: as an i64 it would overflow
                first: int = w0
                out.append(ext_plans[w3][number << 32 | first](i, w0, w1, w2, w3, w4))
            elif code == UNARY:
                out.append(new(cls, (op, type_ids[w1], ids[w2], (ids[w3],), None)))
            elif code == LABEL:
                out.append(new(cls, (op, None, ids[w1], (), None)))
            elif code == JUMP:
                out.append(new(cls, (op, None, None, (ids[w1],), None)))
            elif code == BARE:
                out.append(new(cls, (op, None, None, (), None)))
            elif code == DEFERRED:
                later.append(len(out))
                out.append(i)
            else:  # the general decoder: every other layout, optionals present
                found = general(i)
                if found is None:
                    later.append(len(out))
                    out.append(i)
                else:
                    out.append(found)
            i += w0 >> 16
    except LookupError:
        return i
    return 0
