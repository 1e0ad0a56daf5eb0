"""The one number model: what an ``OpTypeInt`` / ``OpTypeFloat`` declares, and the one
codec of each of its encodings.

Literals whose size a type sets (``OpConstant``/``OpSpecConstant``'s value, the literal of
each ``OpSwitch`` target) are read and written by the :class:`NumberType` of that type.
The encoder, the reader, the assembler and the disassembler each keep a ``dict`` of type
id → :class:`NumberType`, filled by
:func:`spvbuild.binary.number_types.declared_number_type` as declarations are seen, and
nothing else: one shape, one reading of the declarations.

A :class:`NumberType` writes a Python number as words (:meth:`NumberType.words`) and reads
words back (:meth:`NumberType.value`).  The rules are those of ``spirv-as`` (SPIRV-Tools
2025.5) for the same number written as text (``repr(value)``), so that a builder call and
the assembler agree word for word:

* Integers: a signed type takes ``-2**(w-1)`` to ``2**(w-1)-1``, an unsigned one ``0`` to
  ``2**w-1``; anything else is an error in ``spirv-as``'s words.  A signed literal
  narrower than a word is sign-extended to 32 bits; a type wider than 32 bits takes two
  words, low word first.
* Floats, each by its :class:`FloatFormat` (IEEE binary16/32/64, bfloat16, FP8 E4M3 and
  E5M2): 64 bits exactly; 32 bits rounded to nearest-even from the decimal text; narrower
  formats are first rounded to 32 bits, then truncated toward zero.  A finite number
  beyond the format's range is an error (E4M3, which has no infinity, saturates its top
  binade to its largest finite value, 448).  Infinities and NaNs have no decimal text:
  they are written as the format's infinity (an error where it has none) and its quiet
  NaN of the same sign, as their hex-float text would be assembled.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Final, NamedTuple

from spvbuild.errors import EncodeError
from spvbuild.spirv.arguments import shown

__all__ = [
    "BFLOAT16",
    "FLOAT8_E4M3",
    "FLOAT8_E5M2",
    "FLOAT16",
    "FLOAT32",
    "FLOAT32_FORMAT",
    "FLOAT64",
    "UINT32",
    "FloatFormat",
    "NumberType",
]


class FloatFormat(NamedTuple):
    """The bit layout of one floating-point encoding and its codec."""

    name: str
    """How ``spirv-as`` names the format in its messages ("16-bit float", "bfloat16")."""
    bits: int
    exponent_bits: int
    fraction_bits: int
    infinities: bool = True
    """False for a format whose all-ones exponent holds finite numbers (FP8 E4M3: only
    all ones is a NaN)."""

    @property
    def bias(self) -> int:
        """The exponent bias."""
        return (1 << (self.exponent_bits - 1)) - 1

    # -- writing ---------------------------------------------------------------------
    def bits_of(self, value: int | float) -> int:
        """The bits of a Python number in this format (see the module's rules); EncodeError
        when the format cannot hold it."""
        text: str | None
        if isinstance(value, int):
            try:
                text = str(value)
                number = float(value)
            except (OverflowError, ValueError):
                raise self._too_big(value) from None
        else:
            number = value
            if math.isnan(number):
                return self._nan(number)
            if math.isinf(number):
                if not self.infinities:
                    raise EncodeError(f"{number!r} is not a {self.name}: it has no infinity")
                sign = 1 << (self.bits - 1) if number < 0 else 0
                return sign | self._exponent_mask
            text = None  # (repr(number), made only where the exact decimal decides)
        found = self.decimal_bits(text, number)
        if found is None:
            raise self._too_big(value)
        return found

    def _too_big(self, value: int | float) -> EncodeError:
        return EncodeError(f"{shown(value)} does not fit in a {self.name}")

    @property
    def _exponent_mask(self) -> int:
        return ((1 << self.exponent_bits) - 1) << self.fraction_bits

    def _nan(self, number: float) -> int:
        """A NaN: sign, all-ones exponent, the quiet bit and the double's top payload bits
        (FP8 E4M3's one NaN pattern)."""
        double = int(struct.unpack("<Q", struct.pack("<d", number))[0])
        sign = (double >> 63) << (self.bits - 1)
        if self.bits == 64:
            return double
        if not self.infinities:
            return sign | (1 << (self.bits - 1)) - 1
        payload = (double & ((1 << 52) - 1)) >> (52 - self.fraction_bits)
        return sign | self._exponent_mask | payload | 1 << (self.fraction_bits - 1)

    def decimal_bits(self, text: str | None, value: float | None = None) -> int | None:
        """The bits of the decimal literal ``text`` (``value`` is ``float(text)`` when
        known; a None ``text`` stands for ``repr(value)``), rounded as ``spirv-as``
        rounds; None when it overflows the format."""
        if value is None:
            assert text is not None
            number = float(text)
        else:
            number = value
        if math.isinf(number):
            return None
        if self.bits == 64:
            return int(struct.unpack("<Q", struct.pack("<d", number))[0])
        try:
            single_bits = int(_SINGLE_BITS.unpack(_SINGLE.pack(_nearest_f32(text, number)))[0])
        except OverflowError:
            return None
        if self.bits == 32:
            return single_bits
        single = float(_SINGLE.unpack(_SINGLE_BITS.pack(single_bits))[0])
        sign = 1 << (self.bits - 1) if single_bits >> 31 else 0
        magnitude = self._truncated(abs(single))
        return None if magnitude is None else sign | magnitude

    def _truncated(self, magnitude: float) -> int | None:
        """Bits of a magnitude truncated toward zero; None if it overflows the format."""
        if magnitude == 0.0:
            return 0
        exp_bits, frac_bits, bias = self.exponent_bits, self.fraction_bits, self.bias
        top = (1 << exp_bits) - 1
        if not self.infinities:
            largest = (top << frac_bits) | ((1 << frac_bits) - 2)
            if magnitude > self.value_of(largest):
                return None
            if magnitude >= math.ldexp(1.0, top - bias):  # the top binade saturates
                return largest
        unbiased = math.frexp(magnitude)[1] - 1  # magnitude = 1.f * 2**unbiased
        half = 1 << (self.bits - 1)
        wrapped = (unbiased + half) % (2 * half) - half
        if wrapped != unbiased:
            # spirv-as keeps the exponent in a signed integer as wide as the format: a
            # 32-bit subnormal's exponent (below -128) wraps around in an 8-bit format,
            # and lands, masked, in the exponent field.  Its words are matched.
            mantissa = int(math.ldexp(magnitude, frac_bits - unbiased)) - (1 << frac_bits)
            return (((wrapped + bias) & top) << frac_bits) | mantissa
        if self.infinities and unbiased + bias >= top:
            return None
        if unbiased + bias <= 0:  # subnormal: multiples of 2**(1 - bias - frac_bits)
            return int(math.ldexp(magnitude, bias - 1 + frac_bits))
        mantissa = int(math.ldexp(magnitude, frac_bits - unbiased)) - (1 << frac_bits)
        return ((unbiased + bias) << frac_bits) | mantissa

    # -- reading ---------------------------------------------------------------------
    def value_of(self, bits: int) -> float:
        """The number that ``bits`` of this format hold (exact: every format here fits a
        Python float; a NaN keeps its sign and the payload bits a double can hold)."""
        if self.bits == 64:
            return float(struct.unpack("<d", struct.pack("<Q", bits))[0])
        if self.bits == 32:
            return float(_SINGLE.unpack(_SINGLE_BITS.pack(bits))[0])
        frac_bits = self.fraction_bits
        negative = bits >> (self.bits - 1) & 1
        exponent = (bits >> frac_bits) & ((1 << self.exponent_bits) - 1)
        fraction = bits & ((1 << frac_bits) - 1)
        top = (1 << self.exponent_bits) - 1
        if exponent == top and (self.infinities or fraction == (1 << frac_bits) - 1):
            if self.infinities and fraction == 0:
                return -math.inf if negative else math.inf
            payload = fraction << (52 - frac_bits)
            double = negative << 63 | 0x7FF << 52 | payload
            return float(struct.unpack("<d", struct.pack("<Q", double))[0])
        if exponent == 0:
            magnitude = math.ldexp(fraction, 1 - self.bias - frac_bits)
        else:
            magnitude = math.ldexp(fraction | 1 << frac_bits, exponent - self.bias - frac_bits)
        return -magnitude if negative else magnitude


_SINGLE = struct.Struct("<f")
_SINGLE_BITS = struct.Struct("<I")


def _nearest_f32(text: str | None, value: float) -> float:
    """The 32-bit float nearest to the decimal ``text`` (ties to even), as a double.

    ``value`` is ``float(text)`` (a None ``text``: ``repr(value)``).  Rounding that double to 32 bits is right except when
    it sits exactly on a midpoint between two 32-bit floats; the exact decimal decides.
    """
    if value == 0.0 or math.isinf(value):
        return value
    _, exponent = math.frexp(value)
    half_ulp_exponent = max(exponent, -125) - 25
    scaled = math.ldexp(abs(value), -half_ulp_exponent)
    if scaled.is_integer() and int(scaled) % 2 == 1:
        # Exact, and free of int()'s limit on digit strings.
        exact = Decimal(text if text is not None else repr(value))
        if exact != Decimal(value):
            toward = math.inf if exact > Decimal(value) else -math.inf
            return math.nextafter(value, toward)
    return value


FLOAT16: Final = FloatFormat("16-bit float", 16, 5, 10)
FLOAT32_FORMAT: Final = FloatFormat("32-bit float", 32, 8, 23)
FLOAT64: Final = FloatFormat("64-bit float", 64, 11, 52)
BFLOAT16: Final = FloatFormat("bfloat16", 16, 8, 7)
FLOAT8_E4M3: Final = FloatFormat("E4M3 float", 8, 4, 3, infinities=False)
FLOAT8_E5M2: Final = FloatFormat("E5M2 float", 8, 5, 2)

IEEE_FORMATS: Final[dict[int, FloatFormat]] = {16: FLOAT16, 32: FLOAT32_FORMAT, 64: FLOAT64}
"""The IEEE 754 format of each width an OpTypeFloat without an encoding may have."""
class NumberType(NamedTuple):
    """The literal format of a numeric scalar type, and its codec."""

    width: int
    """Bits (a literal of more than 32 bits takes two words, low word first)."""
    is_float: bool
    signed: bool
    """An integer type's signedness; True for floats."""
    encoding: int | None = None
    """A float type's FPEncoding value (None: IEEE 754 binary16/32/64)."""
    encoded: FloatFormat | None = None
    """The format of that encoding, when spvbuild has its codec (see
    :func:`spvbuild.binary.number_types.declared_number_type`)."""

    @property
    def format(self) -> FloatFormat | None:
        """A float type's :class:`FloatFormat` (None: an integer or unsupported type)."""
        if not self.is_float:
            return None
        if self.encoding is None:
            return IEEE_FORMATS.get(self.width)
        encoded = self.encoded
        return encoded if encoded is not None and encoded.bits == self.width else None

    def words(self, value: Any) -> list[int]:
        """The words of the literal ``value`` of this type; EncodeError saying what is
        wrong (the caller names the operand)."""
        cls = value.__class__
        if cls is int and not self.is_float:  # the common case, first
            width = self.width
            if 0 < width <= 32 and (
                -(1 << (width - 1)) <= value < 1 << (width - 1)
                if self.signed
                else 0 <= value < 1 << width
            ):
                return [value & 0xFFFFFFFF]  # (a negative one sign-extended)
        elif cls is float and self.is_float and self.encoding is None and self.width == 32:
            single = _nearest_f32(None, value)
            if single - single == 0.0:  # finite (not a NaN or an infinity), in range once rounded
                try:
                    return [_SINGLE_BITS.unpack(_SINGLE.pack(single))[0]]
                except OverflowError:
                    pass  # (out of range: said below)
        if isinstance(value, bool) or not isinstance(value, int | float):
            wanted = "a number" if self.is_float else "an integer"
            raise EncodeError(f"expected {wanted}, got {shown(value)}")
        if self.is_float:
            fmt = self.format
            if fmt is None:
                raise EncodeError(f"{self.describe()} literals are not supported")
            return self.bits_words(fmt.bits_of(value))
        if not isinstance(value, int):
            raise EncodeError(f"expected an integer, got {shown(value)}")
        width = self.width
        if not 0 < width <= 64:
            raise EncodeError(f"{self.describe()} literals are not supported (1 to 64 bits are)")
        if self.signed:
            if not -(1 << (width - 1)) <= value < 1 << (width - 1):
                raise EncodeError(
                    f"Integer {shown(value)} does not fit in a {width}-bit signed integer"
                )
        elif value < 0:
            raise EncodeError(
                f"Cannot put a negative number in an unsigned literal ({shown(value)} for a "
                f"{width}-bit unsigned integer)"
            )
        elif value >> width:
            raise EncodeError(
                f"Integer {shown(value)} does not fit in a {width}-bit unsigned integer"
            )
        return self.bits_words(value)

    def bits_words(self, bits: int) -> list[int]:
        """The words of a literal of this type from its bits (a signed integer, or the
        bits of a negative one, sign-extended to fill its words)."""
        if not self.is_float and self.signed and bits >> (self.width - 1) & 1:
            bits |= -1 << self.width
        if self.width > 32:
            bits &= 0xFFFF_FFFF_FFFF_FFFF
            return [bits & 0xFFFFFFFF, bits >> 32]
        return [bits & 0xFFFFFFFF]

    def value(self, words: Sequence[int]) -> int | float:
        """The number the words of a literal of this type hold (a signed integer read by
        its low ``width`` bits as two's complement); EncodeError for an unsupported type."""
        bits = words[0] if self.width <= 32 else words[0] | words[1] << 32
        if self.is_float:
            fmt = self.format
            if fmt is None:
                raise EncodeError(f"{self.describe()} literals are not supported")
            return fmt.value_of(bits & ((1 << fmt.bits) - 1))
        if not 0 < self.width <= 64:
            raise EncodeError(f"{self.describe()} literals are not supported (1 to 64 bits are)")
        bits &= (1 << self.width) - 1
        if self.signed and bits >> (self.width - 1):
            return bits - (1 << self.width)
        return bits

    def describe(self) -> str:
        """The type in words ("16-bit signed integer", "bfloat16")."""
        if not self.is_float:
            return f"{self.width}-bit {'signed' if self.signed else 'unsigned'} integer"
        fmt = self.format
        if fmt is not None:
            return fmt.name
        if self.encoding is not None:
            return f"{self.width}-bit float of FPEncoding {self.encoding}"
        return f"{self.width}-bit float"


UINT32: Final = NumberType(32, False, False)
"""32-bit unsigned integers: how a literal is read when its type is unknown."""
FLOAT32: Final = NumberType(32, True, True)
"""``LiteralFloat``: one 32-bit IEEE float word."""
