"""Numbers as the disassembler prints them (the rules of ``spirv-dis``).

Integers
    A plain literal (``LiteralInteger``) is one unsigned 32-bit word.  A literal sized by a
    type (``OpConstant``, ``OpSpecConstant``, ``OpSwitch`` cases) takes ``(width + 31) /
    32`` words, computed as spirv-dis does in 32 bits and kept in 16 (:func:`word_count`:
    a width of ``0x08000020`` takes one word); one word prints as a 32-bit value and two words as a 64-bit value, signed
    when the type's signedness word is not 0 and unsigned otherwise, with no further
    sign extension (an 8-bit signed ``0xFF`` prints ``255``).  Wider literals print as
    nothing.
Floats
    32- and 64-bit floats that are zero or normal print in decimal with enough digits to
    keep every bit (``%.9g`` / ``%.17g``); infinities, NaNs and subnormals print as hex
    floats (``0x1p+128``, ``-0x1.8p+128``, ``0x1p-149``).  16-bit floats and the encoded
    formats (bfloat16, FP8 E4M3, FP8 E5M2) always print as hex floats of the low bits of
    the word.  A one-word float of any other width prints as nothing.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Final

from spvbuild.binary.number_types import encoding_format
from spvbuild.spirv.numbers import (
    BFLOAT16,
    FLOAT8_E4M3,
    FLOAT8_E5M2,
    FLOAT16,
    FLOAT32_FORMAT,
    FLOAT64,
    FloatFormat,
    NumberType,
)

__all__ = [
    "BFLOAT16",
    "FLOAT8_E4M3",
    "FLOAT8_E5M2",
    "HALF",
    "NumberType",
    "encoding_format",
    "float32_text",
    "float64_text",
    "hex_float",
    "literal_text",
    "word_count",
    "word_formatter",
]

HALF: Final = FLOAT16
_FLOAT32: Final = FLOAT32_FORMAT
_FLOAT64: Final = FLOAT64

_F32 = struct.Struct("<f")
_U32 = struct.Struct("<I")
_F64 = struct.Struct("<d")
_U64 = struct.Struct("<Q")


def hex_float(bits: int, fmt: FloatFormat) -> str:
    """``bits`` of a float in format ``fmt`` as a C-style hex float (``-0x1.8p+128``)."""
    total, exp_bits, frac_bits, bias = fmt.bits, fmt.exponent_bits, fmt.fraction_bits, fmt.bias
    nibbles = (frac_bits + 3) // 4
    overflow = nibbles * 4 - frac_bits
    sign = "-" if bits >> (total - 1) & 1 else ""
    exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    fraction = (bits & ((1 << frac_bits) - 1)) << overflow
    if exponent == 0 and fraction == 0:
        power = 0
        lead = "0"
    else:
        lead = "1"
        power = exponent - bias
        if exponent == 0:  # subnormal: normalize, the leading 1 becomes implicit
            top = 1 << (nibbles * 4 - 1)
            while not fraction & top:
                fraction <<= 1
                power -= 1
            fraction = (fraction << 1) & ((1 << (nibbles * 4)) - 1)
    while nibbles and not fraction & 0xF:
        fraction >>= 4
        nibbles -= 1
    digits = f".{fraction:0{nibbles}x}" if nibbles else ""
    return f"{sign}0x{lead}{digits}p{'+' if power >= 0 else ''}{power}"


def float32_text(word: int) -> str:
    """One 32-bit float word as spirv-dis prints it."""
    exponent = (word >> 23) & 0xFF
    if exponent == 0xFF or (exponent == 0 and word & 0x7FFFFF):
        return hex_float(word, _FLOAT32)
    return f"{_F32.unpack(_U32.pack(word))[0]:.9g}"


def float64_text(bits: int) -> str:
    """A 64-bit float (low word | high word << 32) as spirv-dis prints it."""
    exponent = (bits >> 52) & 0x7FF
    if exponent == 0x7FF or (exponent == 0 and bits & 0xFFFFFFFFFFFFF):
        return hex_float(bits, _FLOAT64)
    return f"{_F64.unpack(_U64.pack(bits))[0]:.17g}"


def _signed32(word: int) -> str:
    return str(word - 0x100000000 if word & 0x80000000 else word)


def word_count(width: int) -> int:
    """Words of a literal of a type ``width`` bits wide (spirv-dis's 32-bit sum and 16-bit
    count included)."""
    return (((width + 31) & 0xFFFFFFFF) >> 5) & 0xFFFF


def word_formatter(number: NumberType) -> Callable[[int], str] | None:
    """The text of a one-word literal of this type, or None if it takes another count."""
    width = number.width
    if word_count(width) != 1:
        return None
    if not number.is_float:
        return _signed32 if number.signed else str
    fmt = encoding_format(number.encoding)
    if fmt is not None:
        mask = (1 << fmt.bits) - 1
        return lambda word: hex_float(word & mask, fmt)
    if width == 16:
        return lambda word: hex_float(word & 0xFFFF, HALF)
    if width == 32:
        return float32_text
    return lambda word: ""


def literal_text(number: NumberType, words: Sequence[int], pos: int) -> str:
    """The text of the literal of ``number`` starting at ``words[pos]`` (the caller has
    checked that its :func:`word_count` words are there)."""
    count = word_count(number.width)
    if count == 1:
        formatter = word_formatter(number)
        assert formatter is not None
        return formatter(words[pos])
    if count != 2:
        return ""
    bits = words[pos] | words[pos + 1] << 32
    if number.is_float:
        return float64_text(bits)
    if number.signed:
        return str(bits - (1 << 64) if bits >> 63 else bits)
    return str(bits)
