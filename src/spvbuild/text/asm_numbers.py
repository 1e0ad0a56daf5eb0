"""Numeric literals of the assembly text, encoded bit for bit like ``spirv-as``.

Every function here takes one token of text and returns the words it encodes to, or
raises :class:`NumberError` with a message in the reference assembler's words.  The rules
(checked against SPIRV-Tools 2025.5):

* Integers: decimal, ``0x`` hexadecimal and ``0``-prefixed octal (``strtoul`` base 0),
  an optional ``+``; a leading ``-`` only for signed types.  A hexadecimal literal for a
  signed type is sign-extended from the type's width (``0xffff`` for a signed 16-bit type
  is ``-1``).  Types wider than 32 bits take two words, low word first.
* Decimal floats: C syntax without a suffix (``1``, ``1.5``, ``.5``, ``5.``, ``1e-3``),
  rounded to nearest-even for 32 and 64 bits.  16-bit, bfloat16 and 8-bit floats are first
  rounded to a 32-bit float, then truncated toward zero; a result that overflows is an
  error.
* Hexadecimal floats (``0x1.8p+3``): the binary exponent is required; extra mantissa bits
  are truncated; the maximum exponent gives infinity or a NaN whose payload keeps every
  written bit (``0x1.8p+128`` → ``0x7fc00000``); an exponent too large saturates to
  infinity, too small gives zero.
"""

from __future__ import annotations

import re

from spvbuild.binary.number_types import encoding_format
from spvbuild.binary.number_types import float_format as _float_format
from spvbuild.errors import EncodeError
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
    "NumberError",
    "encode_float",
    "encode_int",
    "encode_unknown",
    "float_format",
    "parse_u32",
]


class NumberError(Exception):
    """A token that is not a valid literal of the expected type (message says why)."""


# strtoul base 0: hex, octal or decimal, optional '+'.  Fullmatch only.
_UNSIGNED = re.compile(r"\+?(?:0[xX]([0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*))").fullmatch
_SIGNED = re.compile(r"-(?:0[xX]([0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*))").fullmatch
_DECIMAL_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?").fullmatch
_HEX_FLOAT = re.compile(r"(-?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?p([+-]?[0-9]+)").fullmatch

_U64 = (1 << 64) - 1
_TOO_BIG = 1 << 128


def _magnitude(match: re.Match[str]) -> int:
    """The value of a matched unsigned integer (hex, octal or decimal group)."""
    hex_digits, octal, decimal = match.groups()
    if hex_digits is not None:
        return int(hex_digits, 16)
    if octal is not None:
        return int(octal, 8)
    if len(decimal) > 40:  # beyond any width here (and int() refuses very long strings)
        return _TOO_BIG
    return int(decimal)


def parse_u32(text: str) -> int | None:
    """``text`` as an unsigned 32-bit integer (decimal, hex or octal), or None."""
    match = _UNSIGNED(text)
    if match is None:
        return None
    value = _magnitude(match)
    return value if value <= 0xFFFFFFFF else None


def _parse_u64(text: str) -> int | None:
    """``text`` as an unsigned 64-bit integer, or None."""
    match = _UNSIGNED(text)
    if match is None:
        return None
    value = _magnitude(match)
    return value if value <= _U64 else None


def _parse_i64_negative(text: str) -> int | None:
    """``text`` (with a leading '-') as a signed 64-bit integer, or None."""
    match = _SIGNED(text)
    if match is None:
        return None
    value = -_magnitude(match)
    return value if value >= -(1 << 63) else None


def encode_int(text: str, width: int, signed: bool) -> list[int]:
    """Words of an integer literal for an integer type of ``width`` bits."""
    if width > 64:
        raise NumberError(f"Unsupported {width}-bit integer literals")
    negative = text[:1] == "-"
    if negative and not signed:
        raise NumberError("Cannot put a negative number in an unsigned literal")
    is_hex = text[:2] in ("0x", "0X")
    value: int | None
    if negative:
        value = _parse_i64_negative(text)
        if value is None:
            raise NumberError(f"Invalid signed integer literal: {text}")
    else:
        value = _parse_u64(text)
        if value is None:
            raise NumberError(f"Invalid unsigned integer literal: {text}")
    number = NumberType(width, False, signed)
    if not is_hex:  # a decimal or octal number: the number model's range and words
        try:
            return number.words(value)
        except EncodeError as exc:
            raise NumberError(str(exc)) from None
    # A hexadecimal literal is a bit pattern: it may set the sign bit of a signed type
    # (and is then sign-extended), not the bits above the type's width.
    if value >> width:
        kind = "signed" if signed else "unsigned"
        raise NumberError(f"Integer {hex(value)} does not fit in a {width}-bit {kind} integer")
    return number.bits_words(value)


# ---------------------------------------------------------------------------------------
# Floating point: the formats and their decimal rounding are the number model's
# (spvbuild.spirv.numbers); the hex-float reading of the text is here.

F16 = FLOAT16
F32 = FLOAT32_FORMAT
F64 = FLOAT64
BF16 = BFLOAT16
E4M3 = FLOAT8_E4M3
E5M2 = FLOAT8_E5M2


def float_format(width: int, encoding: int | None) -> FloatFormat | None:
    """The literal format of ``OpTypeFloat width [encoding]``; None if unsupported."""
    return _float_format(width, encoding)


def known_encoding(encoding: int) -> bool:
    """True for an FPEncoding value whose literals can be assembled."""
    return encoding_format(encoding) is not None


def _hex_float_bits(match: re.Match[str], fmt: FloatFormat) -> int:
    """Bits of a hex float: the reference algorithm (truncating, NaN-preserving)."""
    nbits, exp_bits, frac_bits = fmt.bits, fmt.exponent_bits, fmt.fraction_bits
    sign_text, int_digits, frac_digits, exp_text = match.groups()
    bias = (1 << (exp_bits - 1)) - 1
    max_exponent = (1 << exp_bits) - 1
    top = nbits - 1
    fraction = 0
    index = 0  # next fraction bit, counted from the top of an nbits-wide accumulator
    exponent = bias
    int_digits = int_digits.lstrip("0")
    is_denorm = not int_digits
    seen_one = False
    for digit in int_digits:
        nibble = int(digit, 16)
        for shift in (3, 2, 1, 0):
            bit = (nibble >> shift) & 1
            if seen_one:
                if index <= top:
                    fraction |= bit << (top - index)
                index += 1
                exponent += 1
            seen_one = seen_one or bit == 1
    seen_one = False
    for digit in frac_digits or "":
        nibble = int(digit, 16)
        for shift in (3, 2, 1, 0):
            bit = (nibble >> shift) & 1
            seen_one = seen_one or bit == 1
            if is_denorm and not seen_one:
                exponent -= 1
            else:
                if index <= top:
                    fraction |= bit << (top - index)
                index += 1
    # Saturate absurd exponents: the result is then infinity or zero either way.
    digits = exp_text.lstrip("+-").lstrip("0")
    written = int(digits[:8] or "0") if len(digits) <= 8 else 1 << 20
    if exp_text[:1] == "-":
        written = -written
    written = max(-(1 << 20), min(1 << 20, written))
    exponent += written
    is_zero = is_denorm and fraction == 0
    full = (1 << nbits) - 1
    if is_denorm and not is_zero:
        fraction = (fraction << 1) & full
        exponent -= 1
    elif is_zero:
        exponent = 0
    if exponent <= 0 and not is_zero:
        fraction = (fraction >> 1) | (1 << top)
    frac_mask = (1 << frac_bits) - 1
    fraction = (fraction >> (nbits - frac_bits)) & frac_mask
    if exponent < 0 and not is_zero:
        if -exponent > nbits:
            fraction = 0
        else:
            fraction >>= -exponent
        if fraction == 0:
            is_zero = True
        exponent = 0
    if exponent > max_exponent:
        exponent = max_exponent
        fraction = 0
    bits = fraction | ((exponent << frac_bits) & (max_exponent << frac_bits))
    if sign_text:
        bits |= 1 << top
    return bits


def encode_float(text: str, fmt: FloatFormat) -> list[int]:
    """Words of a floating-point literal in format ``fmt``."""
    name, nbits = fmt.name, fmt.bits
    hex_match = _HEX_FLOAT(text)
    bits: int | None
    if hex_match is not None:
        bits = _hex_float_bits(hex_match, fmt)
    elif _DECIMAL_FLOAT(text) is not None:
        bits = fmt.decimal_bits(text)
    else:
        bits = None
    if bits is None:
        raise NumberError(f"Invalid {name} literal: {text}")
    return NumberType(nbits, True, True).bits_words(bits)


def encode_unknown(text: str) -> list[int]:
    """A number with no type to go by (after ``!<integer>``): one 32-bit word.

    With a ``.`` it is a 32-bit float; with a leading ``-`` a signed 32-bit integer;
    otherwise an unsigned 32-bit integer.
    """
    if "." in text:
        return encode_float(text, F32)
    return encode_int(text, 32, text[:1] == "-")
