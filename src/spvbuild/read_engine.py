"""The reader's two hot loops in the form mypyc compiles well: the read engine (see
:mod:`spvbuild.engines`).

:mod:`spvbuild.reader` checks the framing of every instruction (:func:`split`) and then
decodes the instructions whose first word has a fast path (:func:`decode`).  Its own
loops are written for the interpreter: they index an ``array`` and take five words at a
time with ``struct``, which compiling cannot speed up.  These two do the same on the
module's bytes a word at a time, which mypyc turns into loads: ``python -m
spvbuild.accelerate`` compiles this module, and the reader runs the compiled copy
whenever it is current (about half the time on a big module).  Interpreted, this
module is slower than the reader's own loops, so only the tests run it that way.  Both
forms give the same instructions and the same errors: the test suite runs the reader's
tests on each.

Everything the loops look up is passed in by the reader; of spvbuild this module imports
only the fast-path codes (:mod:`spvbuild.read_codes`, constants mypyc folds in).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from librt.strings import read_f32_le, read_i32_le

from spvbuild.read_codes import (
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

__all__ = ["SEEN", "decode", "split"]

SEEN: Final = 0x400
"""The size of the caches by opcode (the low bits of the opcode index them; a cache holds
a whole first word, so opcodes that share an index only miss more often).  Small enough
to be cheap to make for a small module."""


def split(data: bytes, lowest: list[int], check: Callable[[int], None]) -> tuple[int, set[int]]:
    """Check the framing of every instruction of ``data`` (the module's words in little-
    endian order, header included, then ``PADDING`` zero bytes; read with librt, which
    comes with mypy and whose readers mypyc compiles to a load).

    Return the number of instructions and the distinct first words that are at least
    their opcode's grammar minimum (``lowest``, by opcode).  ``check(offset)`` is called
    for each instruction whose first word is below it (it raises the error, unless the
    general decoder takes the instruction) and for the last instruction when it runs past
    the end (it raises).  A first word is compared with the minimum when it differs from
    the last one of its opcode that was not below it.
    """
    end = len(data) - PADDING
    firsts: set[int] = set()
    seen = [-1] * SEEN  # by opcode (see SEEN): the last first word taken into firsts
    count = 0
    last = 0
    p = 20  # the byte offset of the first instruction
    while p < end:
        w0 = int(read_i32_le(data, p)) & 0xFFFFFFFF
        if seen[w0 & (SEEN - 1)] != w0:
            if w0 < lowest[w0 & 0xFFFF]:  # word count 0 or below the grammar's minimum
                check(p >> 2)
            else:
                seen[w0 & (SEEN - 1)] = w0
                firsts.add(w0)
        count += 1
        last = p
        p += (w0 >> 16) << 2
    if p > end:
        check(last >> 2)
    return count, firsts


def decode(
    data: bytes,
    start: int,
    codes: dict[int, int],
    lookups: tuple[Any, ...],
    out: list[Any],
    later: list[int],
) -> int:
    """Decode the instructions from word offset ``start`` to the end into ``out``, as the
    reader's own loop does (see ``reader._Reader._loop``); a deferred instruction's
    offset goes into ``out`` and its index in ``out`` into ``later``.  ``codes`` gives the
    fast path of each first word (the framing was checked by :func:`split`).

    ``lookups`` holds what the fast paths index: the ids (a list by word), the result
    types (a dict by word), the 32-bit numeric types of the inline constants, the core
    decoders by first word, the OpExtInst decoders by set and instruction, the general
    decoder (offset → instruction, or None when the instruction must wait), the
    instruction class, and two lists of ``SEEN`` items (by opcode, see ``SEEN``: the last
    first word looked up in ``codes``, -1 at first, and its code).

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
    new: Any = tuple.__new__
    end = len(data) - PADDING
    p = start << 2
    try:
        while p < end:
            i = p >> 2
            w0 = int(read_i32_le(data, p)) & 0xFFFFFFFF
            w1 = int(read_i32_le(data, p + 4)) & 0xFFFFFFFF
            w2 = int(read_i32_le(data, p + 8)) & 0xFFFFFFFF
            w3 = int(read_i32_le(data, p + 12)) & 0xFFFFFFFF
            w4 = int(read_i32_le(data, p + 16)) & 0xFFFFFFFF
            op = w0 & 0xFFFF
            if seen[op & (SEEN - 1)] == w0:
                code = seen_code[op & (SEEN - 1)]
            else:  # a dict lookup (KeyError: not a fast path, see reader._Reader._fallback)
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
                    real = read_f32_le(data, p + 12)
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
                out.append(ext_plans[w3][w4 << 32 | w0](i, w0, w1, w2, w3, w4))
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
            p += (w0 >> 16) << 2
    except LookupError:
        return p >> 2
    return 0
