"""What the instructions constant folding works out do to one scalar (component), by the
grammar's instruction names: :data:`SCALAR_OPS` (core instructions) and :data:`EXT_OPS`
(GLSL.std.450 instructions, by their names in that set).

Values: an integer is its bits, unsigned (``0 <= v < 2**width``), read as signed where the
instruction reads it so; a float is the Python float its bits hold; a bool is a bool.
Each operation takes the :class:`ScalarType` type of its result, those of its operands and
their values, and gives the result, or None where SPIR-V leaves it undefined (a division
by zero, a shift by the width or more, a conversion out of range, a signed division that
overflows) or where the value could differ on a device:

* floats only of IEEE binary16/32/64 (no other encoding);
* float arithmetic only where operands and result are finite and not subnormal (a device
  may flush subnormals to zero, and folds nothing where its rounding could differ); each
  result is the exact one rounded once to nearest-even in the result's format (the
  operation done in binary64 and rounded again, which is exact for ``+ - * /`` on formats
  of at most 26 significant bits, and exact by itself for binary64);
* integers of at most :data:`WIDEST` bits;
* no FAbs or FSign of -0.0 (the sign of their zero is left open, and devices differ).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["EXT_OPS", "SCALAR_OPS", "WIDEST", "ScalarOp", "ScalarType", "float_ok", "rounded"]

WIDEST = 64
"""The widest integer type folded (in bits)."""


class ScalarType(NamedTuple):
    """A scalar type: ``kind`` (``int``, ``float`` or ``bool``), ``width`` (bits; 1 for a
    bool), ``signed`` (an integer type's signedness)."""

    kind: str
    width: int
    signed: bool = False


ScalarValue = bool | int | float
ScalarOp = Callable[[ScalarType, list[ScalarType], list[ScalarValue]], ScalarValue | None]
"""(result type, operand types, operand values) → the result, or None: not folded."""

_PACK = {16: struct.Struct("<e"), 32: struct.Struct("<f"), 64: struct.Struct("<d")}
_SIGNIFICANT = {16: 11, 32: 24, 64: 53}
_SMALLEST_NORMAL = {16: 2.0**-14, 32: 2.0**-126, 64: 2.0**-1022}


def rounded(value: float, width: int) -> float:
    """``value`` rounded to nearest-even in the IEEE format of ``width`` bits (an
    infinity when it overflows)."""
    packer = _PACK[width]
    try:
        return float(packer.unpack(packer.pack(value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def float_ok(value: float, width: int) -> bool:
    """True for a finite value that is zero or normal in that format."""
    return math.isfinite(value) and (value == 0.0 or abs(value) >= _SMALLEST_NORMAL[width])


def _mask(width: int) -> int:
    return (1 << width) - 1


def _signed(bits: int, width: int) -> int:
    return bits - (1 << width) if bits >> (width - 1) & 1 else bits


def _int_to_float(number: int, width: int) -> float:
    """``number`` rounded once, to nearest-even, to the format of ``width`` bits."""
    if abs(number) < 1 << 53:
        return rounded(float(number), width)
    keep = _SIGNIFICANT[width]
    magnitude = abs(number)
    shift = magnitude.bit_length() - keep
    top, rest = magnitude >> shift, magnitude & _mask(shift)
    half = 1 << (shift - 1)
    if rest > half or (rest == half and top & 1):
        top += 1
    try:
        result = math.ldexp(float(top), shift)
    except OverflowError:
        result = math.inf
    return rounded(math.copysign(result, number), width)


# -- integers ------------------------------------------------------------------------
def _integer(function: Callable[[int, int], int | None], *, signed: bool) -> ScalarOp:
    """A two-operand integer operation, operands read signed or unsigned by their width."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        a, b = int(args[0]), int(args[1])
        if signed:
            a, b = _signed(a, types[0].width), _signed(b, types[1].width)
        value = function(a, b)
        return None if value is None else value & _mask(result.width)

    return op


def _compare(function: Callable[[int, int], bool], *, signed: bool) -> ScalarOp:
    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        a, b = int(args[0]), int(args[1])
        if signed:
            a, b = _signed(a, types[0].width), _signed(b, types[1].width)
        return function(a, b)

    return op


def _division(kind: str) -> ScalarOp:
    """SDiv, SRem, SMod: None for a zero divisor or the overflow of ``min / -1``."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        width = types[0].width
        a, b = _signed(int(args[0]), width), _signed(int(args[1]), types[1].width)
        if b == 0 or (b == -1 and a == -(1 << (width - 1))):
            return None
        quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        remainder = a - b * quotient  # the dividend's sign
        if kind == "div":
            value = quotient
        elif kind == "rem" or remainder == 0 or (remainder < 0) == (b < 0):
            value = remainder
        else:
            value = remainder + b  # SMod: the divisor's sign
        return value & _mask(result.width)

    return op


def _unsigned_division(function: Callable[[int, int], int]) -> ScalarOp:
    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        b = int(args[1])
        return None if b == 0 else function(int(args[0]), b) & _mask(result.width)

    return op


def _shift(kind: str) -> ScalarOp:
    """A shift: None for a shift by the width or more."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        width = result.width
        amount = int(args[1])
        if amount >= width:
            return None
        base = int(args[0])
        if kind == "left":
            return (base << amount) & _mask(width)
        if kind == "arithmetic":
            return (_signed(base, types[0].width) >> amount) & _mask(width)
        return base >> amount

    return op


def _unary(function: Callable[[int, int], int]) -> ScalarOp:
    """A one-operand integer operation (bits, width → bits)."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        return function(int(args[0]), types[0].width) & _mask(result.width)

    return op


def _bit_reverse(bits: int, width: int) -> int:
    return int(format(bits, f"0{width}b")[::-1], 2)


def _bitfield(kind: str) -> ScalarOp:
    """BitFieldInsert (base, insert, offset, count), BitFieldSExtract / UExtract (base,
    offset, count): None where offset + count exceeds the width."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        width = result.width
        offset, count = (
            (int(args[2]), int(args[3])) if kind == "insert" else (int(args[1]), int(args[2]))
        )
        if offset + count > width:
            return None
        base = int(args[0])
        field = _mask(count) << offset
        if kind == "insert":
            return (base & ~field | (int(args[1]) << offset) & field) & _mask(width)
        value = (base >> offset) & _mask(count)
        if kind == "sextract" and count and value >> (count - 1) & 1:
            value |= _mask(width) & ~_mask(count)
        return value

    return op


# -- conversions ---------------------------------------------------------------------
def _u_convert(
    result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
) -> ScalarValue | None:
    return int(args[0]) & _mask(result.width)


def _s_convert(
    result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
) -> ScalarValue | None:
    return _signed(int(args[0]), types[0].width) & _mask(result.width)


def _to_float(*, signed: bool) -> ScalarOp:
    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        number = _signed(int(args[0]), types[0].width) if signed else int(args[0])
        value = _int_to_float(number, result.width)
        return value if float_ok(value, result.width) else None

    return op


def _to_integer(*, signed: bool) -> ScalarOp:
    """ConvertFToS / ConvertFToU: toward zero; None when out of the result's range."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        value = float(args[0])
        if not math.isfinite(value):
            return None
        number = math.trunc(value)
        low, high = (
            (-(1 << (result.width - 1)), 1 << (result.width - 1))
            if signed
            else (0, 1 << result.width)
        )
        if not low <= number < high:
            return None
        return number & _mask(result.width)

    return op


def _f_convert(
    result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
) -> ScalarValue | None:
    value = rounded(float(args[0]), result.width)
    return value if float_ok(value, result.width) else None


def _bitcast(
    result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
) -> ScalarValue | None:
    """Bits kept, between integers and floats of one width."""
    source, value = types[0], args[0]
    if source.width != result.width or source.kind == "bool" or result.kind == "bool":
        return None
    if source.kind == "float":
        bits = int.from_bytes(_PACK[source.width].pack(float(value)), "little")
    else:
        bits = int(value)
    if result.kind == "int":
        return bits
    out = float(_PACK[result.width].unpack(bits.to_bytes(result.width // 8, "little"))[0])
    return out if float_ok(out, result.width) else None


# -- floats --------------------------------------------------------------------------
def _float(function: Callable[..., float]) -> ScalarOp:
    """A float operation: None unless its operands and its rounded result are finite and
    not subnormal."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        values = [float(a) for a in args]
        if not all(float_ok(v, t.width) for v, t in zip(values, types, strict=True)):
            return None
        try:
            value = rounded(function(*values), result.width)
        except (ZeroDivisionError, OverflowError, ValueError):
            return None
        return value if float_ok(value, result.width) else None

    return op


def _float_compare(function: Callable[[float, float], bool]) -> ScalarOp:
    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        return function(float(args[0]), float(args[1]))

    return op


def _negate_float(
    result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
) -> ScalarValue | None:
    value = -float(args[0])
    return value if math.isfinite(value) else None


def _logical(function: Callable[..., bool]) -> ScalarOp:
    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        return function(*(bool(a) for a in args))

    return op


def _same_type(function: Callable[[ScalarType, list[ScalarValue]], ScalarValue | None]) -> ScalarOp:
    """An operation whose operands and result share one type (GLSL.std.450's)."""

    def op(
        result: ScalarType, types: list[ScalarType], args: list[ScalarValue]
    ) -> ScalarValue | None:
        if any(t != result for t in types):
            return None
        if result.kind == "float" and not all(float_ok(float(a), result.width) for a in args):
            return None
        return function(result, list(args))

    return op


def _s(
    function: Callable[..., int | None],
) -> Callable[[ScalarType, list[ScalarValue]], ScalarValue | None]:
    """A signed integer function over values read signed, the result as bits."""

    def op(t: ScalarType, args: list[ScalarValue]) -> ScalarValue | None:
        if t.kind != "int":
            return None
        value = function(*(_signed(int(a), t.width) for a in args))
        return None if value is None else value & _mask(t.width)

    return op


def _u(
    function: Callable[..., int | None],
) -> Callable[[ScalarType, list[ScalarValue]], ScalarValue | None]:
    def op(t: ScalarType, args: list[ScalarValue]) -> ScalarValue | None:
        return function(*(int(a) for a in args)) if t.kind == "int" else None

    return op


def _f(
    function: Callable[..., float | None],
) -> Callable[[ScalarType, list[ScalarValue]], ScalarValue | None]:
    def op(t: ScalarType, args: list[ScalarValue]) -> ScalarValue | None:
        if t.kind != "float":
            return None
        values = [float(a) for a in args]
        found = function(*values)
        if found is None:
            return None
        value = float(found)
        return value if float_ok(value, t.width) else None

    return op


def _clamp(x: float, low: float, high: float) -> float | None:
    if low > high:
        return None
    above = _most(x, low)
    return None if above is None else _least(above, high)


def _to_whole(function: Callable[[float], float]) -> Callable[[float], float]:
    """Floor, Ceil, Trunc, RoundEven: a zero result keeps the operand's sign, as IEEE's."""

    def whole(x: float) -> float:
        value = float(function(x))
        return value if value != 0.0 else math.copysign(0.0, x)

    return whole


def _sign(x: float) -> float:
    return 0.0 if x == 0 else math.copysign(1.0, x)


def _not_of_negative_zero(function: Callable[[float], float]) -> Callable[[float], float | None]:
    """FAbs, FSign: None for -0.0, whose result's sign GLSL.std.450 leaves open (FAbs is
    ``x`` for ``x >= 0``, FSign ``0.0`` for ``x = 0``) and devices differ on: lavapipe
    gives -0.0 for both where it knows the operand (issue 26, seed 3098)."""

    def op(x: float) -> float | None:
        return None if x == 0.0 and math.copysign(1.0, x) < 0 else function(x)

    return op


def _ssign(x: int) -> int:
    return (x > 0) - (x < 0)


def _s_clamp(x: int, low: int, high: int) -> int | None:
    return None if low > high else min(max(x, low), high)


def _least(*values: float) -> float | None:
    """FMin (None between zeros of two signs, which a device may order either way)."""
    if values[0] == values[1] and math.copysign(1, values[0]) != math.copysign(1, values[1]):
        return None
    return min(values)


def _most(*values: float) -> float | None:
    """FMax (None between zeros of two signs)."""
    if values[0] == values[1] and math.copysign(1, values[0]) != math.copysign(1, values[1]):
        return None
    return max(values)


SCALAR_OPS: dict[str, ScalarOp] = {
    "OpIAdd": _integer(lambda a, b: a + b, signed=False),
    "OpISub": _integer(lambda a, b: a - b, signed=False),
    "OpIMul": _integer(lambda a, b: a * b, signed=False),
    "OpUDiv": _unsigned_division(lambda a, b: a // b),
    "OpUMod": _unsigned_division(lambda a, b: a % b),
    "OpSDiv": _division("div"),
    "OpSRem": _division("rem"),
    "OpSMod": _division("mod"),
    "OpBitwiseOr": _integer(lambda a, b: a | b, signed=False),
    "OpBitwiseXor": _integer(lambda a, b: a ^ b, signed=False),
    "OpBitwiseAnd": _integer(lambda a, b: a & b, signed=False),
    "OpShiftLeftLogical": _shift("left"),
    "OpShiftRightLogical": _shift("logical"),
    "OpShiftRightArithmetic": _shift("arithmetic"),
    "OpSNegate": _unary(lambda a, w: -a),
    "OpNot": _unary(lambda a, w: ~a),
    "OpBitCount": _unary(lambda a, w: bin(a).count("1")),
    "OpBitReverse": _unary(_bit_reverse),
    "OpBitFieldInsert": _bitfield("insert"),
    "OpBitFieldSExtract": _bitfield("sextract"),
    "OpBitFieldUExtract": _bitfield("uextract"),
    "OpIEqual": _compare(lambda a, b: a == b, signed=False),
    "OpINotEqual": _compare(lambda a, b: a != b, signed=False),
    "OpUGreaterThan": _compare(lambda a, b: a > b, signed=False),
    "OpUGreaterThanEqual": _compare(lambda a, b: a >= b, signed=False),
    "OpULessThan": _compare(lambda a, b: a < b, signed=False),
    "OpULessThanEqual": _compare(lambda a, b: a <= b, signed=False),
    "OpSGreaterThan": _compare(lambda a, b: a > b, signed=True),
    "OpSGreaterThanEqual": _compare(lambda a, b: a >= b, signed=True),
    "OpSLessThan": _compare(lambda a, b: a < b, signed=True),
    "OpSLessThanEqual": _compare(lambda a, b: a <= b, signed=True),
    "OpUConvert": _u_convert,
    "OpSConvert": _s_convert,
    "OpConvertUToF": _to_float(signed=False),
    "OpConvertSToF": _to_float(signed=True),
    "OpConvertFToU": _to_integer(signed=False),
    "OpConvertFToS": _to_integer(signed=True),
    "OpFConvert": _f_convert,
    "OpBitcast": _bitcast,
    "OpFAdd": _float(lambda a, b: a + b),
    "OpFSub": _float(lambda a, b: a - b),
    "OpFMul": _float(lambda a, b: a * b),
    "OpFDiv": _float(lambda a, b: a / b),
    "OpFNegate": _negate_float,
    "OpFOrdEqual": _float_compare(lambda a, b: a == b),
    "OpFUnordEqual": _float_compare(lambda a, b: a == b),
    "OpFOrdNotEqual": _float_compare(lambda a, b: a != b),
    "OpFUnordNotEqual": _float_compare(lambda a, b: a != b),
    "OpFOrdLessThan": _float_compare(lambda a, b: a < b),
    "OpFUnordLessThan": _float_compare(lambda a, b: a < b),
    "OpFOrdGreaterThan": _float_compare(lambda a, b: a > b),
    "OpFUnordGreaterThan": _float_compare(lambda a, b: a > b),
    "OpFOrdLessThanEqual": _float_compare(lambda a, b: a <= b),
    "OpFUnordLessThanEqual": _float_compare(lambda a, b: a <= b),
    "OpFOrdGreaterThanEqual": _float_compare(lambda a, b: a >= b),
    "OpFUnordGreaterThanEqual": _float_compare(lambda a, b: a >= b),
    "OpIsInf": lambda result, types, args: math.isinf(float(args[0])),
    "OpIsNan": lambda result, types, args: False,
    "OpLogicalEqual": _logical(lambda a, b: a == b),
    "OpLogicalNotEqual": _logical(lambda a, b: a != b),
    "OpLogicalOr": _logical(lambda a, b: a or b),
    "OpLogicalAnd": _logical(lambda a, b: a and b),
    "OpLogicalNot": _logical(lambda a: not a),
}
"""Core instructions worked out component by component (NaNs never reach them: a NaN
constant is not read)."""

EXT_OPS: dict[tuple[str, str], ScalarOp] = {
    ("GLSL.std.450", name): _same_type(function)
    for name, function in {
        "SAbs": _s(abs),
        "SSign": _s(_ssign),
        "SMin": _s(min),
        "SMax": _s(max),
        "SClamp": _s(_s_clamp),
        "UMin": _u(min),
        "UMax": _u(max),
        "UClamp": _u(_s_clamp),
        "FAbs": _f(_not_of_negative_zero(math.fabs)),
        "FSign": _f(_not_of_negative_zero(_sign)),
        "FMin": _f(_least),
        "FMax": _f(_most),
        "FClamp": _f(_clamp),
        "Floor": _f(_to_whole(math.floor)),
        "Ceil": _f(_to_whole(math.ceil)),
        "Trunc": _f(_to_whole(math.trunc)),
        "RoundEven": _f(_to_whole(round)),
    }.items()
}
"""GLSL.std.450 instructions of exact results worked out component by component."""
