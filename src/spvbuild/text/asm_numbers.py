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

import math
import re
import struct
from decimal import Decimal

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
    # Three regions of the 64-bit pattern: magnitude, optional sign bit, overflow bits.
    magnitude_mask = _U64 if width == 64 else (1 << width) - 1
    overflow_mask = _U64 & ~magnitude_mask
    sign_mask = 0
    if value < 0 or signed:
        magnitude_mask >>= 1
        sign_mask = magnitude_mask + 1
    if value < 0:
        bits = value & _U64
        failed = (bits & overflow_mask) != overflow_mask or (bits & sign_mask) != sign_mask
    elif is_hex:
        bits = value
        failed = (bits & overflow_mask) != 0
    else:
        bits = value
        failed = (bits & magnitude_mask) != bits
    if failed:
        shown = hex(value) if is_hex and value > 0 else str(value)
        kind = "signed" if signed else "unsigned"
        raise NumberError(f"Integer {shown} does not fit in a {width}-bit {kind} integer")
    if is_hex and bits & sign_mask:
        bits |= overflow_mask
    if width > 32:
        return [bits & 0xFFFFFFFF, (bits >> 32) & 0xFFFFFFFF]
    return [bits & 0xFFFFFFFF]


# ---------------------------------------------------------------------------------------
# Floating point.  A format is (name, total bits, exponent bits, fraction bits).

FloatFormat = tuple[str, int, int, int]

F16: FloatFormat = ("16-bit float", 16, 5, 10)
F32: FloatFormat = ("32-bit float", 32, 8, 23)
F64: FloatFormat = ("64-bit float", 64, 11, 52)
BF16: FloatFormat = ("bfloat16", 16, 8, 7)
E4M3: FloatFormat = ("E4M3 float", 8, 4, 3)
E5M2: FloatFormat = ("E5M2 float", 8, 5, 2)

# OpTypeFloat's FPEncoding operand → format (the values of the FPEncoding enumerants).
_ENCODINGS: dict[int, FloatFormat] = {0: BF16, 4214: E4M3, 4215: E5M2}


def float_format(width: int, encoding: int | None) -> FloatFormat | None:
    """The literal format of ``OpTypeFloat width [encoding]``; None if unsupported."""
    if encoding is not None:
        return _ENCODINGS.get(encoding)
    return {16: F16, 32: F32, 64: F64}.get(width)


def known_encoding(encoding: int) -> bool:
    """True for an FPEncoding value whose literals can be assembled."""
    return encoding in _ENCODINGS


def _hex_float_bits(match: re.Match[str], fmt: FloatFormat) -> int:
    """Bits of a hex float: the reference algorithm (truncating, NaN-preserving)."""
    _, nbits, exp_bits, frac_bits = fmt
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


def _nearest_f32(text: str, value: float) -> float:
    """The 32-bit float nearest to the decimal ``text`` (ties to even), as a double.

    ``value`` is ``float(text)``.  Rounding that double to 32 bits is right except when
    it sits exactly on a midpoint between two 32-bit floats; the exact decimal decides.
    """
    if value == 0.0 or math.isinf(value):
        return value
    _, exponent = math.frexp(value)
    half_ulp_exponent = max(exponent, -125) - 25
    scaled = math.ldexp(abs(value), -half_ulp_exponent)
    if scaled.is_integer() and int(scaled) % 2 == 1:
        exact = Decimal(text)  # exact, and free of int()'s limit on digit strings
        if exact != Decimal(value):
            toward = math.inf if exact > Decimal(value) else -math.inf
            return math.nextafter(value, toward)
    return value


def _f32_bits(value: float) -> int | None:
    """IEEE single bits of a double rounded to nearest-even; None on overflow."""
    try:
        return int(struct.unpack("<I", struct.pack("<f", value))[0])
    except OverflowError:
        return None


def _truncate(value: float, exp_bits: int, frac_bits: int) -> int | None:
    """Magnitude bits of |value| truncated toward zero; None if it overflows the format."""
    magnitude = abs(value)
    bias = (1 << (exp_bits - 1)) - 1
    if magnitude == 0.0:
        return 0
    _, exponent = math.frexp(magnitude)  # magnitude = m * 2**exponent, 0.5 <= m < 1
    unbiased = exponent - 1
    if unbiased + bias >= (1 << exp_bits) - 1:
        return None
    if unbiased + bias <= 0:  # subnormal: multiples of 2**(1 - bias - frac_bits)
        return int(math.ldexp(magnitude, bias - 1 + frac_bits))
    mantissa = int(math.ldexp(magnitude, frac_bits - unbiased)) - (1 << frac_bits)
    return ((unbiased + bias) << frac_bits) | mantissa


def _decimal_bits(text: str, fmt: FloatFormat) -> int | None:
    """Bits of a decimal float literal, or None when it overflows the format."""
    name, nbits, exp_bits, frac_bits = fmt
    value = float(text)
    if math.isinf(value):
        return None
    if nbits == 64:
        return int(struct.unpack("<Q", struct.pack("<d", value))[0])
    rounded = _nearest_f32(text, value)
    single_bits = _f32_bits(rounded)
    if single_bits is None:
        return None
    if nbits == 32:
        return single_bits
    single = struct.unpack("<f", struct.pack("<I", single_bits))[0]
    sign = (1 << (nbits - 1)) if single_bits >> 31 else 0
    if fmt == BF16:
        return single_bits >> 16
    if fmt == E4M3:
        # No infinities: anything in the top binade saturates to the largest finite value.
        if abs(single) > 448.0:
            return None
        if abs(single) >= 256.0:
            return sign | 0x7E
    magnitude = _truncate(single, exp_bits, frac_bits)
    if magnitude is None:
        return None
    return sign | magnitude


def encode_float(text: str, fmt: FloatFormat) -> list[int]:
    """Words of a floating-point literal in format ``fmt``."""
    name, nbits = fmt[0], fmt[1]
    hex_match = _HEX_FLOAT(text)
    bits: int | None
    if hex_match is not None:
        bits = _hex_float_bits(hex_match, fmt)
    elif _DECIMAL_FLOAT(text) is not None:
        bits = _decimal_bits(text, fmt)
    else:
        bits = None
    if bits is None:
        raise NumberError(f"Invalid {name} literal: {text}")
    if nbits == 64:
        return [bits & 0xFFFFFFFF, bits >> 32]
    return [bits]


def encode_unknown(text: str) -> list[int]:
    """A number with no type to go by (after ``!<integer>``): one 32-bit word.

    With a ``.`` it is a 32-bit float; with a leading ``-`` a signed 32-bit integer;
    otherwise an unsigned 32-bit integer.
    """
    if "." in text:
        return encode_float(text, F32)
    return encode_int(text, 32, text[:1] == "-")
