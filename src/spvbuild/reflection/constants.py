"""The values of a module's constants at their defaults: literals as written, composites
of their constituents, and OpSpecConstantOp worked out for the integer, boolean and
composite operations the specification allows there.

An operation outside :data:`_OPERATIONS` (or over a value not worked out) gives ``None``:
reflection says it does not know rather than guess.  So does a shift by the operand's width
or more (undefined in SPIR-V) and any integer operation on a type wider than
:data:`WIDEST_WORKED_OUT` bits: the work stays bounded by the operands' width, whatever a
hostile module declares.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from spvbuild.generated.core import opcodes as op
from spvbuild.reflection.module_facts import ModuleFacts, enum_name, word
from spvbuild.reflection.records import SpecValue
from spvbuild.spirv.ids import Id

__all__ = ["SPEC_OPCODES", "WIDEST_WORKED_OUT", "ConstantValues"]

WIDEST_WORKED_OUT = 1024
"""The widest integer type (in bits) whose OpSpecConstantOp results are worked out; wider
ones (SPV_INTEL_arbitrary_precision_integers allows them, a hostile module declares
``OpTypeInt 4294967295``) give ``None``."""

SPEC_OPCODES = frozenset(
    (
        op.OP_SPEC_CONSTANT_TRUE,
        op.OP_SPEC_CONSTANT_FALSE,
        op.OP_SPEC_CONSTANT,
        op.OP_SPEC_CONSTANT_COMPOSITE,
        op.OP_SPEC_CONSTANT_OP,
        op.OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT,
    )
)
"""The opcodes of specialization constants."""

_Scalar = bool | int | float
_SHIFTS = frozenset(("ShiftRightLogical", "ShiftRightArithmetic", "ShiftLeftLogical"))


def _signed(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _unsigned(value: int, width: int) -> int:
    return value & ((1 << width) - 1)


def _sdiv(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _srem(a: int, b: int) -> int:
    return a - b * _sdiv(a, b)


# An integer operation: (name, how its operands are read: "s" signed, "u" unsigned, the
# function). Division by zero gives None (undefined in SPIR-V).
_INTEGER: dict[str, tuple[str, Callable[[int, int], _Scalar]]] = {
    "IAdd": ("u", operator.add),
    "ISub": ("u", operator.sub),
    "IMul": ("u", operator.mul),
    "UDiv": ("u", operator.floordiv),
    "SDiv": ("s", _sdiv),
    "UMod": ("u", operator.mod),
    "SRem": ("s", _srem),
    "SMod": ("s", operator.mod),  # Python's % takes the divisor's sign, as SMod does
    "ShiftRightLogical": ("u", lambda a, b: a >> b),
    "ShiftRightArithmetic": ("s", lambda a, b: a >> b),
    "ShiftLeftLogical": ("u", lambda a, b: a << b),
    "BitwiseOr": ("u", operator.or_),
    "BitwiseXor": ("u", operator.xor),
    "BitwiseAnd": ("u", operator.and_),
    "IEqual": ("u", operator.eq),
    "INotEqual": ("u", operator.ne),
    "ULessThan": ("u", operator.lt),
    "SLessThan": ("s", operator.lt),
    "UGreaterThan": ("u", operator.gt),
    "SGreaterThan": ("s", operator.gt),
    "ULessThanEqual": ("u", operator.le),
    "SLessThanEqual": ("s", operator.le),
    "UGreaterThanEqual": ("u", operator.ge),
    "SGreaterThanEqual": ("s", operator.ge),
}
# Floating-point operations (allowed in OpSpecConstantOp with the Kernel capability) and
# conversions, over Python floats.
_FLOAT: dict[str, Callable[[float, float], float]] = {
    "FAdd": operator.add,
    "FSub": operator.sub,
    "FMul": operator.mul,
    "FDiv": operator.truediv,
}
_CONVERSIONS: dict[str, Callable[[_Scalar], _Scalar]] = {
    "FConvert": float,
    "ConvertSToF": float,
    "ConvertUToF": float,
    "FNegate": lambda a: -a,
}
_LOGICAL: dict[str, Callable[[bool, bool], bool]] = {
    "LogicalOr": operator.or_,
    "LogicalAnd": operator.and_,
    "LogicalEqual": operator.eq,
    "LogicalNotEqual": operator.ne,
}


class ConstantValues:
    """Every constant's value at the defaults, worked out in module order."""

    def __init__(self, facts: ModuleFacts) -> None:
        self.facts = facts
        self.values: dict[int, SpecValue] = {}
        for cid in facts.constant_order:
            self.values[cid] = self._value(cid)

    def value(self, cid: int) -> SpecValue:
        """The value of constant ``cid`` (None: not a constant, or not worked out)."""
        return self.values.get(cid)

    def is_spec(self, cid: int) -> bool:
        """Whether ``cid`` is a specialization constant (or an operation on some)."""
        inst = self.facts.constants.get(cid)
        return inst is not None and inst.opcode in SPEC_OPCODES

    def scalar_type(self, type_id: int) -> tuple[str, int, bool]:
        """(``int``/``float``/``bool``/other kind, width, signed) of a scalar type, or of a
        vector's components."""
        inst = self.facts.types.get(type_id)
        if inst is None:
            return ("other", 0, False)
        if inst.opcode == op.OP_TYPE_VECTOR:
            return self.scalar_type(word(inst.operands[0]))
        if inst.opcode == op.OP_TYPE_INT:
            return ("int", word(inst.operands[0]), bool(inst.operands[1]))
        if inst.opcode == op.OP_TYPE_FLOAT:
            return ("float", word(inst.operands[0]), True)
        if inst.opcode == op.OP_TYPE_BOOL:
            return ("bool", 1, False)
        return ("other", 0, False)

    def _value(self, cid: int) -> SpecValue:
        inst = self.facts.constants[cid]
        code = inst.opcode
        if code in (op.OP_CONSTANT_TRUE, op.OP_SPEC_CONSTANT_TRUE):
            return True
        if code in (op.OP_CONSTANT_FALSE, op.OP_SPEC_CONSTANT_FALSE):
            return False
        if code in (op.OP_CONSTANT, op.OP_SPEC_CONSTANT):
            value = inst.operands[0]
            if isinstance(value, bool | int | float):
                return value
            return None
        if code in (op.OP_CONSTANT_COMPOSITE, op.OP_SPEC_CONSTANT_COMPOSITE):
            return tuple(self.values.get(word(c)) for c in inst.operands[0])
        if code == op.OP_CONSTANT_NULL and inst.result_type is not None:
            kind, _, _ = self.scalar_type(word(inst.result_type))
            return {"int": 0, "float": 0.0, "bool": False}.get(kind)
        if code == op.OP_SPEC_CONSTANT_OP and inst.result_type is not None:
            try:
                return self._operation(inst.operands, word(inst.result_type))
            except (ZeroDivisionError, TypeError, ValueError, IndexError):
                return None
        return None

    def _operand(self, value: Any) -> SpecValue:
        return self.values.get(word(value)) if isinstance(value, Id) else value

    def _operation(self, operands: tuple[Any, ...], result_type: int) -> SpecValue:
        """OpSpecConstantOp at the defaults (raises on what Python cannot work out)."""
        name = enum_name(operands[0])
        rest = operands[1]
        args = [self._operand(v) for v in (rest if isinstance(rest, tuple) else (rest,))]
        args += [self._operand(v) for v in operands[2:]]
        kind, width, signed = self.scalar_type(result_type)
        if kind == "int" and not 0 < width <= WIDEST_WORKED_OUT:
            return None
        if name in ("CompositeExtract", "CompositeInsert", "VectorShuffle", "Select"):
            return self._shape(name, args)
        if any(a is None for a in args):
            return None
        if name in _LOGICAL:
            return self._map(lambda a, b: _LOGICAL[name](bool(a), bool(b)), args[0], args[1])
        if name == "LogicalNot":
            return self._map1(lambda a: not a, args[0])
        if name in ("SNegate", "Not"):
            negate = name == "SNegate"
            return self._map1(
                lambda a: self._fit(-int(a) if negate else ~int(a), width, signed), args[0]
            )
        if name in _CONVERSIONS:
            return self._map1(_CONVERSIONS[name], args[0])
        if name in _FLOAT and len(args) == 2:
            return self._map(lambda a, b: _FLOAT[name](float(a), float(b)), args[0], args[1])
        if name in ("UConvert", "SConvert"):
            return self._map1(lambda a: self._fit(int(a), width, signed), args[0])
        found = _INTEGER.get(name)
        if found is None or len(args) != 2:
            return None
        reading, function = found
        operand_width = width if kind == "int" else self._width_of(args[0])

        shift = name in _SHIFTS

        def apply(a: _Scalar, b: _Scalar) -> _Scalar | None:
            if reading == "s":
                x, y = _signed(int(a), operand_width), _signed(int(b), operand_width)
            else:
                x, y = _unsigned(int(a), operand_width), _unsigned(int(b), operand_width)
            if shift and not 0 <= _unsigned(int(b), operand_width) < operand_width:
                return None  # undefined in SPIR-V; computing it could take any memory
            result = function(x, y)
            if isinstance(result, bool):
                return result
            return self._fit(int(result), width, signed)

        return self._map(apply, args[0], args[1])

    @staticmethod
    def _width_of(value: SpecValue) -> int:
        return 32 if not isinstance(value, int) or -(2**31) <= value < 2**32 else 64

    @staticmethod
    def _fit(value: int, width: int, signed: bool) -> int:
        return _signed(value, width) if signed else _unsigned(value, width)

    @staticmethod
    def _map(
        function: Callable[[_Scalar, _Scalar], _Scalar | None], a: SpecValue, b: SpecValue
    ) -> SpecValue:
        if isinstance(a, tuple) and isinstance(b, tuple):
            return tuple(ConstantValues._map(function, x, y) for x, y in zip(a, b, strict=True))
        if a is None or b is None or isinstance(a, tuple) or isinstance(b, tuple):
            return None
        return function(a, b)

    @staticmethod
    def _map1(function: Callable[[_Scalar], _Scalar], a: SpecValue) -> SpecValue:
        if isinstance(a, tuple):
            return tuple(ConstantValues._map1(function, x) for x in a)
        return None if a is None else function(a)

    @staticmethod
    def _shape(name: str, args: list[SpecValue]) -> SpecValue:
        if name == "Select":
            condition, first, second = args
            if isinstance(condition, tuple):
                if not (isinstance(first, tuple) and isinstance(second, tuple)):
                    return None
                return tuple(
                    x if c else y for c, x, y in zip(condition, first, second, strict=True)
                )
            return None if condition is None else (first if condition else second)
        if name == "CompositeExtract":
            value = args[0]
            for index in args[1:]:
                if not isinstance(value, tuple) or not isinstance(index, int):
                    return None
                value = value[index]
            return value
        if name == "CompositeInsert":
            part, whole = args[0], args[1]
            indexes = args[2:]
            return ConstantValues._insert(whole, indexes, part)
        # VectorShuffle: two vectors, then component literals (0xFFFFFFFF: undefined)
        first, second = args[0], args[1]
        if not (isinstance(first, tuple) and isinstance(second, tuple)):
            return None
        joined = first + second
        return tuple(
            joined[i] if isinstance(i, int) and 0 <= i < len(joined) else None for i in args[2:]
        )

    @staticmethod
    def _insert(whole: SpecValue, indexes: list[SpecValue], part: SpecValue) -> SpecValue:
        if not indexes:
            return part
        index = indexes[0]
        if not isinstance(whole, tuple) or not isinstance(index, int):
            return None
        items = list(whole)
        items[index] = ConstantValues._insert(items[index], indexes[1:], part)
        return tuple(items)
