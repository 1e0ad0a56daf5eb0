"""The values of a program's constants and of instructions over them: what constant
folding reads, works out and writes back (:class:`ConstantFolder`).

Only constants whose value no specialization can change have a value here (``OpConstant``,
``OpConstantTrue``/``False``, ``OpConstantComposite``, ``OpConstantNull`` and what folding
made); a specialization constant has none, nor does what depends on one.  A value is a
scalar (:mod:`spvbuild.passes.scalar_ops`' model: integer bits, a float, a bool) or a tuple
of values (a composite, one per member, element, column or component).  A float constant
holding a NaN has no value (its payload would not survive), nor does a number type the
folding does not take (an integer wider than :data:`~spvbuild.passes.scalar_ops.WIDEST`
bits, a float of another width or encoding).

An instruction is worked out (:meth:`ConstantFolder.evaluate`) when every id operand has a
value: the instructions of :data:`~spvbuild.passes.scalar_ops.SCALAR_OPS` and of
:data:`~spvbuild.passes.scalar_ops.EXT_OPS` component by component, and ``OpSelect``,
``OpCompositeConstruct``, ``OpCompositeExtract``, ``OpCompositeInsert``,
``OpVectorShuffle``, ``OpCopyObject``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Decoration, ExecutionMode
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_CONSTANT_COMPOSITE,
    OP_CONSTANT_FALSE,
    OP_CONSTANT_NULL,
    OP_CONSTANT_TRUE,
    OP_EXECUTION_MODE,
    OP_EXECUTION_MODE_ID,
    OP_TYPE_ARRAY,
    OP_TYPE_BOOL,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
    OP_TYPE_MATRIX,
    OP_TYPE_STRUCT,
    OP_TYPE_VECTOR,
)
from spvbuild.generated.extinst import set_module
from spvbuild.passes.declarations import DeclarationPool
from spvbuild.passes.scalar_ops import EXT_OPS, SCALAR_OPS, WIDEST, ScalarOp, ScalarType
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["FOLDED", "LONGEST", "ConstantFolder", "FoldType", "flat"]

LONGEST = 4096
"""The longest array whose constants are worked out (a longer one, as a tuple of values,
would cost memory a module of a few words can ask for)."""

ConstantValue = Any
"""A scalar (bool, int bits, float) or a tuple of values."""


def _opcode(name: str) -> int:
    return next(op for op, info in tables.INSTRUCTIONS.items() if info.name == name)


_SCALAR: dict[int, ScalarOp] = {_opcode(name): op for name, op in SCALAR_OPS.items()}
_SELECT = _opcode("OpSelect")
_CONSTRUCT = _opcode("OpCompositeConstruct")
_EXTRACT = _opcode("OpCompositeExtract")
_INSERT = _opcode("OpCompositeInsert")
_SHUFFLE = _opcode("OpVectorShuffle")
_COPY = _opcode("OpCopyObject")
_SHAPES = frozenset({_SELECT, _CONSTRUCT, _EXTRACT, _INSERT, _SHUFFLE, _COPY})
_EXT_INST = tables.EXT_INST_OPCODES

FOLDED = frozenset(_SCALAR) | _SHAPES | _EXT_INST
"""The opcodes :meth:`ConstantFolder.evaluate` may work out."""

_EXACT_FLOAT = frozenset(
    _opcode(name)
    for name in SCALAR_OPS
    if name.startswith(("OpFOrd", "OpFUnord"))
    or name in ("OpFNegate", "OpIsInf", "OpIsNan", "OpBitcast")
)
"""Float instructions whose result no rounding mode or contraction changes."""

_FLOAT_CONTROLS = frozenset(
    mode
    for mode in ExecutionMode
    if mode.name.startswith(
        ("RoundingMode", "Denorm", "SignedZeroInfNanPreserve", "FPFastMath", "FloatControls2")
    )
)
"""Execution modes that change how floats are rounded or flushed: with any of them, float
arithmetic is not folded."""


class FoldType(NamedTuple):
    """A type as folding reads it: ``scalar`` (a number or bool type's :class:`ScalarType`,
    else None), ``elements`` (a composite's type of each member, element, column or
    component, in order), ``vector`` (True for a vector)."""

    scalar: ScalarType | None
    elements: tuple[int, ...] = ()
    vector: bool = False


def flat(operands: Sequence[Any]) -> list[Any]:
    """The operands with their lists spread (``(a, (b, c))`` → ``[a, b, c]``)."""
    out: list[Any] = []
    for value in operands:
        if isinstance(value, tuple):
            out.extend(value)
        else:
            out.append(value)
    return out


class ConstantFolder:
    """The types and constant values of a program, read in module order
    (:meth:`observe`), instructions over them worked out (:meth:`evaluate`), values made
    constants (:meth:`materialize`, :meth:`place`)."""

    def __init__(self, declarations: DeclarationPool) -> None:
        self.declarations = declarations
        self.types: dict[int, FoldType] = {}
        self.values: dict[int, ConstantValue] = {}
        self.value_types: dict[int, int] = {}
        self.imports: dict[int, str] = {}
        self.no_contraction: set[int] = set()
        self.float_arithmetic = True

    # -- reading -----------------------------------------------------------------------
    def observe(self, inst: Instruction) -> None:
        """Read a global instruction: a type, a constant, a decoration, an execution mode."""
        opcode = inst.opcode
        if opcode in (OP_EXECUTION_MODE, OP_EXECUTION_MODE_ID) and len(inst.operands) > 1:
            mode = inst.operands[1]
            mode = mode.enumerant if isinstance(mode, EnumerantParameters) else mode
            if mode in _FLOAT_CONTROLS:
                self.float_arithmetic = False
            return
        if (
            opcode == _opcode_decorate
            and len(inst.operands) > 1
            and inst.operands[1] == Decoration.NoContraction
        ):
            self.no_contraction.add(int(inst.operands[0]))
            return
        if inst.result_id is None:
            return
        rid = int(inst.result_id)
        shape = self._shape(inst)
        if shape is not None:
            self.types[rid] = shape
            return
        if inst.result_type is not None:
            value = self._constant(inst)
            if value is not None:
                self.set(rid, int(inst.result_type), value)

    def set(self, rid: int, type_id: int, value: ConstantValue) -> None:
        """Give ``rid`` (of type ``type_id``) a value."""
        self.values[rid] = value
        self.value_types[rid] = type_id

    def _shape(self, inst: Instruction) -> FoldType | None:
        opcode, operands = inst.opcode, inst.operands
        if opcode == OP_TYPE_BOOL:
            return FoldType(ScalarType("bool", 1))
        if opcode == OP_TYPE_INT and len(operands) >= 2:
            width = int(operands[0])
            return FoldType(
                ScalarType("int", width, bool(operands[1])) if 0 < width <= WIDEST else None
            )
        if opcode == OP_TYPE_FLOAT and operands:
            width = int(operands[0])
            plain = len(operands) < 2 or operands[1] is None
            return FoldType(
                ScalarType("float", width, True) if plain and width in (16, 32, 64) else None
            )
        if opcode in (OP_TYPE_VECTOR, OP_TYPE_MATRIX) and len(operands) >= 2:
            return FoldType(None, (int(operands[0]),) * int(operands[1]), opcode == OP_TYPE_VECTOR)
        if opcode == OP_TYPE_ARRAY and len(operands) >= 2:
            length = self.values.get(int(operands[1]))
            if isinstance(length, int) and not isinstance(length, bool) and 0 < length <= LONGEST:
                return FoldType(None, (int(operands[0]),) * length)
            return FoldType(None)
        if opcode == OP_TYPE_STRUCT:
            return FoldType(None, tuple(int(m) for m in flat(operands)))
        if tables.INSTRUCTIONS.get(opcode, _NO_INFO).cls == "Type-Declaration":
            return FoldType(None)
        return None

    def _constant(self, inst: Instruction) -> ConstantValue | None:
        opcode = inst.opcode
        type_id = int(inst.result_type or 0)
        if opcode == OP_CONSTANT_TRUE:
            return True
        if opcode == OP_CONSTANT_FALSE:
            return False
        if opcode == OP_CONSTANT_NULL:
            return self.zero(type_id)
        if opcode == OP_CONSTANT and inst.operands:
            return self._literal(type_id, inst.operands[0])
        if opcode == OP_CONSTANT_COMPOSITE:
            parts = [self.values.get(int(c)) for c in flat(inst.operands)]
            shape = self.types.get(type_id)
            if shape is None or len(parts) != len(shape.elements) or any(p is None for p in parts):
                return None
            return tuple(parts)
        return None

    def _literal(self, type_id: int, literal: Any) -> ConstantValue | None:
        shape = self.types.get(type_id)
        scalar = shape.scalar if shape is not None else None
        if scalar is None or isinstance(literal, bool):
            return None
        if scalar.kind == "int" and isinstance(literal, int):
            return literal & ((1 << scalar.width) - 1)
        if scalar.kind == "float" and isinstance(literal, float) and not math.isnan(literal):
            return literal
        return None

    def zero(self, type_id: int) -> ConstantValue | None:
        """The value of ``OpConstantNull`` of a type (None for one without a value here)."""
        shape = self.types.get(type_id)
        if shape is None:
            return None
        if shape.scalar is not None:
            return {"bool": False, "int": 0, "float": 0.0}[shape.scalar.kind]
        if not shape.elements:
            return None
        parts = [self.zero(e) for e in shape.elements]
        return None if any(p is None for p in parts) else tuple(parts)

    # -- working out -------------------------------------------------------------------
    def evaluate(
        self, inst: Instruction, operands: Sequence[Any] | None = None, opcode: int | None = None
    ) -> ConstantValue | None:
        """The value of ``inst`` (``operands`` and ``opcode``: those it computes with, when
        they are not its own: an OpSpecConstantOp's); None when it is not worked out."""
        if inst.result_type is None:
            return None
        opcode = inst.opcode if opcode is None else opcode
        args = flat(inst.operands if operands is None else operands)
        values = self.values
        first = 1 if opcode in _EXT_INST else 0  # (an OpExtInst's set)
        if any(isinstance(a, Id) and a not in values for a in args[first:]):
            return None  # an operand that is no constant
        result_type = int(inst.result_type)
        if opcode in _SHAPES:
            return self._shaped(opcode, result_type, args)
        if opcode in _EXT_INST:
            op = self._ext_op(inst, args)
            args = args[2:]
        else:
            op = _SCALAR.get(opcode)
        if op is None:
            return None
        if not self._float_allowed(opcode, result_type, args, inst.result_id):
            return None
        return self._componentwise(op, result_type, args)

    def _ext_op(self, inst: Instruction, args: list[Any]) -> ScalarOp | None:
        if len(args) < 2 or inst.ext_set is None:
            return None
        module = set_module(inst.ext_set)
        info = module.INSTRUCTIONS.get(int(args[1])) if module is not None else None
        return EXT_OPS.get((inst.ext_set, info.name)) if info is not None else None

    def _float_allowed(self, opcode: int, result_type: int, args: list[Any], rid: Any) -> bool:
        if opcode in _EXACT_FLOAT:
            return True
        types = [result_type, *(self.value_types.get(int(a), 0) for a in args if isinstance(a, Id))]
        if not any((scalar := self._scalar_of(t)) and scalar.kind == "float" for t in types):
            return True
        return self.float_arithmetic and (rid is None or int(rid) not in self.no_contraction)

    def _scalar_of(self, type_id: int) -> ScalarType | None:
        """A scalar type's :class:`ScalarType`, or a vector's components'."""
        shape = self.types.get(type_id)
        if shape is None:
            return None
        if shape.vector:
            shape = self.types.get(shape.elements[0]) if shape.elements else None
        return shape.scalar if shape is not None else None

    def _is_vector(self, arg: Any) -> bool:
        return self.types.get(self.value_types.get(int(arg), 0), _NO_SHAPE).vector

    def _operand(self, arg: Any) -> tuple[ConstantValue, ScalarType] | None:
        if not isinstance(arg, Id):
            return None
        value = self.values.get(int(arg))
        scalar = self._scalar_of(self.value_types.get(int(arg), 0))
        if value is None or scalar is None:
            return None
        return value, scalar

    def _componentwise(
        self, op: ScalarOp, result_type: int, args: list[Any]
    ) -> ConstantValue | None:
        result = self.types.get(result_type)
        result_scalar = self._scalar_of(result_type)
        operands = [known for a in args if (known := self._operand(a)) is not None]
        if result is None or result_scalar is None or len(operands) != len(args):
            return None
        values = [o[0] for o in operands]
        scalars = [o[1] for o in operands]
        if not result.vector:
            if any(isinstance(v, tuple) for v in values):
                return None
            return _applied(op, result_scalar, scalars, values)
        count = len(result.elements)
        out = []
        for index in range(count):
            parts = []
            for value in values:
                if isinstance(value, tuple):
                    if len(value) != count:
                        return None
                    value = value[index]
                parts.append(value)
            found = _applied(op, result_scalar, scalars, parts)
            if found is None:
                return None
            out.append(found)
        return tuple(out)

    def _shaped(self, opcode: int, result_type: int, args: list[Any]) -> ConstantValue | None:
        ids = [self.values.get(int(a)) if isinstance(a, Id) else None for a in args]
        if opcode == _COPY:
            return ids[0] if ids else None
        if opcode == _SELECT:
            if len(ids) != 3 or any(v is None for v in ids):
                return None
            condition, first, second = ids
            if not isinstance(condition, tuple):
                return first if condition else second
            if not (isinstance(first, tuple) and isinstance(second, tuple)) or not len(
                condition
            ) == len(first) == len(second):
                return None
            return tuple(f if c else s for c, f, s in zip(condition, first, second, strict=True))
        shape = self.types.get(result_type)
        if opcode == _CONSTRUCT:
            if shape is None or any(v is None for v in ids) or not ids:
                return None
            parts: list[ConstantValue] = []
            for arg, value in zip(args, ids, strict=True):
                if shape.vector and isinstance(value, tuple) and self._is_vector(arg):
                    parts.extend(value)
                else:
                    parts.append(value)
            return tuple(parts) if len(parts) == len(shape.elements) else None
        if opcode == _EXTRACT:
            if not ids or ids[0] is None:
                return None
            return _extract(ids[0], args[1:])
        if opcode == _INSERT:
            if len(ids) < 2 or ids[0] is None or ids[1] is None:
                return None
            return _insert(ids[1], args[2:], ids[0])
        # OpVectorShuffle: two vectors, then component literals (0xFFFFFFFF: undefined)
        if len(ids) < 2 or not isinstance(ids[0], tuple) or not isinstance(ids[1], tuple):
            return None
        joined = ids[0] + ids[1]
        picks = args[2:]
        if not all(
            isinstance(p, int) and not isinstance(p, Id) and 0 <= p < len(joined) for p in picks
        ):
            return None
        return tuple(joined[p] for p in picks)

    # -- writing -----------------------------------------------------------------------
    def words_of(self, type_id: int, value: ConstantValue) -> tuple[int, tuple[Any, ...]] | None:
        """The opcode and operands of a constant of that type and value (the constants of a
        composite's parts found or added first); None when it cannot be written."""
        shape = self.types.get(type_id)
        if shape is None:
            return None
        scalar = shape.scalar
        if scalar is not None:
            if scalar.kind == "bool":
                return (OP_CONSTANT_TRUE if value else OP_CONSTANT_FALSE), ()
            if scalar.kind == "int":
                literal = (
                    value - (1 << scalar.width)
                    if scalar.signed and value >> (scalar.width - 1)
                    else value
                )
                return OP_CONSTANT, (literal,)
            return None if math.isnan(value) else (OP_CONSTANT, (value,))
        if not isinstance(value, tuple) or len(value) != len(shape.elements):
            return None
        parts = []
        for element, part in zip(shape.elements, value, strict=True):
            found = self.materialize(element, part)
            if found is None:
                return None
            parts.append(Id(found))
        return OP_CONSTANT_COMPOSITE, (tuple(parts),)

    def materialize(self, type_id: int, value: ConstantValue) -> int | None:
        """The id of a constant of that type and value, found or added."""
        words = self.words_of(type_id, value)
        if words is None:
            return None
        rid = self.declarations.get(words[0], type_id, words[1])
        self.set(rid, type_id, value)
        return rid

    def place(
        self, type_id: int, value: ConstantValue, rid: int, *, keep_id: bool = False
    ) -> tuple[int, Instruction | None] | None:
        """A constant of that value for the instruction ``rid`` holds: (the id of one found,
        None), or (``rid``, the constant to put in its place: always, with ``keep_id``);
        None when it cannot be written."""
        words = self.words_of(type_id, value)
        if words is None:
            return None
        found = None if keep_id else self.declarations.find(words[0], type_id, words[1])
        self.set(rid, type_id, value)
        if found is not None:
            return found, None
        inst = Instruction(words[0], TypeId(type_id), Id(rid), words[1])
        self.declarations.adopt(inst)
        return rid, inst


_opcode_decorate = _opcode("OpDecorate")
_NO_INFO = tables.INSTRUCTIONS[_opcode("OpNop")]
_NO_SHAPE = FoldType(None)


_KINDS = {"bool": (bool,), "int": (int,), "float": (float,)}


def _applied(
    op: ScalarOp, result: ScalarType, scalars: list[ScalarType], values: list[ConstantValue]
) -> ConstantValue | None:
    """``op`` over one component: None when its operands are not what it reads (a module
    whose types do not match its instruction) or its result is not of the result's kind."""
    if any(isinstance(v, tuple) for v in values):
        return None
    try:
        found = op(result, scalars, values)
    except (ArithmeticError, ValueError, TypeError, IndexError):
        return None
    if found is None or type(found) not in _KINDS[result.kind]:
        return None
    return found


def _extract(value: ConstantValue, indexes: list[Any]) -> ConstantValue | None:
    for index in indexes:
        if (
            not isinstance(value, tuple)
            or isinstance(index, Id)
            or not 0 <= int(index) < len(value)
        ):
            return None
        value = value[int(index)]
    return value


def _insert(whole: ConstantValue, indexes: list[Any], part: ConstantValue) -> ConstantValue | None:
    if not indexes:
        return part
    index = indexes[0]
    if not isinstance(whole, tuple) or isinstance(index, Id) or not 0 <= int(index) < len(whole):
        return None
    inner = _insert(whole[int(index)], indexes[1:], part)
    if inner is None:
        return None
    return (*whole[: int(index)], inner, *whole[int(index) + 1 :])
