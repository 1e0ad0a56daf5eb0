"""Typed values: expressions whose result types the type rules infer.

A :class:`Value` is an id of a module together with its type.  Its Python operators make
the instruction its operands' types call for and infer the result type from the grammar's
type rules (``grammars/type_rules.yaml``, the rule's ``same``/``like``/``pointer_to``/
``element_is`` relations to the result, a bool of the operands' shape for a comparison):
``x * x + glsl("sqrt", x)`` on a float ``x`` is ``OpFMul``, ``OpExtInst Sqrt`` and
``OpFAdd``, each of ``x``'s type, where the generated methods take the result type by hand
(``m.f_add(f32, m.f_mul(f32, x, x), m.glsl.sqrt(f32, x))``).  Those methods stay as they
are; this layer calls them.

* ``+ - * / %`` and unary ``-``: ``OpIAdd``/``OpFAdd`` and the like by the operands'
  component type (signed or unsigned division and remainder by the signedness); a float
  vector times a float scalar is ``OpVectorTimesScalar``; a Python ``int`` or ``float`` on
  either side becomes a constant of the other operand's component type (spread over a
  vector's components).
* ``lt``, ``le``, ``gt``, ``ge``, ``eq``, ``ne`` (methods, not Python's comparison
  operators, which must keep meaning what they mean for ids): ``OpFOrdLessThan`` /
  ``OpSLessThan`` / ``OpULessThan``... with a bool (vector) result.
* :func:`load` (the pointee's type), :func:`extract` (the member's type), :func:`glsl` (a
  GLSL.std.450 function, the result type as the set's rules say), :func:`value` (an id
  made elsewhere, its type read from the module).

Operands of kinds no rule covers, or of different types where the instruction needs one,
are :class:`~spvbuild.errors.BuildError` s at the call, ending with the user's line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spvbuild.constructs.values import type_of
from spvbuild.errors import BuildError
from spvbuild.generated.core.type_rules import EXT_RESULTS, TYPE_RULES
from spvbuild.ir.module import Module
from spvbuild.ir.type_shapes import shape_of, type_bits
from spvbuild.ir.value_types import value_types
from spvbuild.spirv.call_site import located
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.tables import (
    RESULT,
    TYPE_BOOL,
    TYPE_FLOAT,
    TYPE_SIGNED,
    TYPE_UNSIGNED,
    TYPE_VECTOR,
)

__all__ = ["Value", "extract", "glsl", "load", "store", "value"]


# The generated method for each operation, by the component kind of the operands:
# (float, signed int, unsigned int).
_ARITHMETIC: dict[str, tuple[str, str, str]] = {
    "+": ("f_add", "i_add", "i_add"),
    "-": ("f_sub", "i_sub", "i_sub"),
    "*": ("f_mul", "i_mul", "i_mul"),
    "/": ("f_div", "s_div", "u_div"),
    "%": ("f_mod", "s_mod", "u_mod"),
}
_COMPARISONS: dict[str, tuple[str, str, str]] = {
    "lt": ("f_ord_less_than", "s_less_than", "u_less_than"),
    "le": ("f_ord_less_than_equal", "s_less_than_equal", "u_less_than_equal"),
    "gt": ("f_ord_greater_than", "s_greater_than", "u_greater_than"),
    "ge": ("f_ord_greater_than_equal", "s_greater_than_equal", "u_greater_than_equal"),
    "eq": ("f_ord_equal", "i_equal", "i_equal"),
    "ne": ("f_ord_not_equal", "i_not_equal", "i_not_equal"),
}


def _error(message: str) -> BuildError:
    return BuildError(located(message))


class Value:
    """An id of a module with its type: ``module``, ``id`` (an :class:`~spvbuild.Id`) and
    ``type`` (its :class:`~spvbuild.TypeId`).  Pass ``value.id`` to the generated methods;
    the operators and functions of this module take Values (and Python numbers)."""

    __slots__ = ("id", "module", "type")

    def __init__(self, module: Module, id: Id, type: TypeId) -> None:  # noqa: A002
        self.module = module
        self.id = id
        self.type = type

    def __repr__(self) -> str:
        return f"Value({self.id!r}: {self.type!r})"

    # -- arithmetic --------------------------------------------------------------------------
    def __add__(self, other: Value | int | float) -> Value:
        return _arithmetic("+", self, other)

    def __radd__(self, other: int | float) -> Value:
        return _arithmetic("+", other, self)

    def __sub__(self, other: Value | int | float) -> Value:
        return _arithmetic("-", self, other)

    def __rsub__(self, other: int | float) -> Value:
        return _arithmetic("-", other, self)

    def __mul__(self, other: Value | int | float) -> Value:
        return _arithmetic("*", self, other)

    def __rmul__(self, other: int | float) -> Value:
        return _arithmetic("*", other, self)

    def __truediv__(self, other: Value | int | float) -> Value:
        return _arithmetic("/", self, other)

    def __rtruediv__(self, other: int | float) -> Value:
        return _arithmetic("/", other, self)

    def __mod__(self, other: Value | int | float) -> Value:
        return _arithmetic("%", self, other)

    def __neg__(self) -> Value:
        kind = _kind(self.module, self.type)
        method = "f_negate" if kind == "float" else "s_negate"
        return _made(self.module, method, self.type, self.id)

    # -- comparisons (methods: Python's operators keep their meaning for ids) ------------------
    def lt(self, other: Value | int | float) -> Value:
        """``self < other``: a bool (vector)."""
        return _compare("lt", self, other)

    def le(self, other: Value | int | float) -> Value:
        """``self <= other``: a bool (vector)."""
        return _compare("le", self, other)

    def gt(self, other: Value | int | float) -> Value:
        """``self > other``: a bool (vector)."""
        return _compare("gt", self, other)

    def ge(self, other: Value | int | float) -> Value:
        """``self >= other``: a bool (vector)."""
        return _compare("ge", self, other)

    def eq(self, other: Value | int | float) -> Value:
        """``self == other`` (ordered, for floats): a bool (vector)."""
        return _compare("eq", self, other)

    def ne(self, other: Value | int | float) -> Value:
        """``self != other`` (ordered, for floats): a bool (vector)."""
        return _compare("ne", self, other)


def value(m: Module, id: Id) -> Value:  # noqa: A002
    """The Value of ``id``, a value ``m`` defines (its type read from the module)."""
    return Value(m, id, type_of(m, id))


def load(m: Module, pointer: Value | Id) -> Value:
    """``OpLoad`` of ``pointer``, its result the pointee's type (the load rule's
    ``pointer_to``)."""
    if isinstance(pointer, Value):
        pointer_id, pointer_type = pointer.id, pointer.type
    else:
        pointer_id = pointer
        types = value_types(m)
        known = types.get(pointer) if types is not None else None
        pointer_type = known if known is not None else type_of(m, pointer_id)
    shape = shape_of(m, pointer_type)
    if shape is None or shape.category != "pointer":
        raise _error(f"load: {pointer_id!r} is of type {pointer_type!r}, no pointer")
    pointee = TypeId(shape.component)
    return Value(m, m.load(pointee, pointer_id), pointee)


def store(m: Module, pointer: Value | Id, stored: Value | Id) -> None:
    """``OpStore`` of ``stored`` through ``pointer``."""
    m.store(
        pointer.id if isinstance(pointer, Value) else pointer,
        stored.id if isinstance(stored, Value) else stored,
    )


def extract(composite: Value, *indexes: int) -> Value:
    """``OpCompositeExtract``: the member the literal ``indexes`` reach, of its type."""
    m = composite.module
    current = composite.type
    for index in indexes:
        found = m.definition(current)
        if found is None or not found.operands:
            raise _error(f"extract: {current!r} is no composite type")
        members = found.operands[0]
        current = TypeId(members[index] if isinstance(members, tuple) else members)
    return Value(m, m.composite_extract(current, composite.id, list(indexes)), current)


def glsl(name: str, *operands: Value | int | float) -> Value:
    """A GLSL.std.450 function by its name in the set (``glsl("sqrt", x)``,
    ``glsl("FMix", a, b, t)``; case and underscores aside, so the builder's ``f_mix``
    spelling works too), its result
    type the first operand's (or, for ``length``/``distance``, its component type), as the
    set's type rules say."""
    first = next((o for o in operands if isinstance(o, Value)), None)
    if first is None:
        raise _error(f"glsl({name!r}): give at least one Value operand")
    m = first.module
    number, attribute = _glsl_function(name)
    how = EXT_RESULTS.get(("GLSL.std.450", number)) if number is not None else None
    method: Callable[..., Id] | None = getattr(m.glsl, attribute) if attribute else None
    if method is None or how is None:
        raise _error(f"glsl: {name!r} is no GLSL.std.450 function whose result type is inferred")
    ids = [_operand(m, o, first.type) for o in operands]
    result = first.type if how == "like_first" else _component(m, first.type)
    return Value(m, method(result, *ids), result)


# -- the machinery ----------------------------------------------------------------------------
_GLSL: dict[str, tuple[int | None, str]] = {}  # a spelling → (number, the builder's method)


def _glsl_function(name: str) -> tuple[int | None, str]:
    """The number and the builder method name of a GLSL.std.450 function (case and
    underscores aside); (None, "") for none."""
    found = _GLSL.get(name)
    if found is None:
        from spvbuild.generated.extinst import glsl as glsl_set

        spelled = name.replace("_", "").lower()
        number = next(
            (n for n, info in glsl_set.INSTRUCTIONS.items() if info.name.lower() == spelled), None
        )
        attribute = next(
            (
                a
                for a in dir(glsl_set.GlslInstructions)
                if not a.startswith("_") and a.replace("_", "") == spelled
            ),
            "",
        )
        found = (number, attribute)
        if len(_GLSL) < 256:  # (spellings come from users)
            _GLSL[name] = found
    return found


def _kind(m: Module, type_id: TypeId) -> str:
    """float, int (signed), uint or bool: the component kind of a scalar or vector type
    (from the type's ``TYPE_*`` bits, which the module keeps)."""
    kind = _KINDS.get(_bits(m, type_id) & _KIND_BITS)
    if kind is None:
        if m.definition(type_id) is None:
            raise _error(f"{type_id!r} is no type of this module")
        raise _error(f"{type_id!r} is no scalar or vector of numbers")
    return kind


def _bits(m: Module, type_id: TypeId) -> int:
    """The type's ``TYPE_*`` bits (0: no scalar or vector of numbers or bools)."""
    bits = m._type_bits.get(type_id)
    return type_bits(m, type_id) if bits is None else bits


_KIND_BITS = TYPE_FLOAT | TYPE_BOOL | TYPE_SIGNED | TYPE_UNSIGNED
_KINDS = {
    TYPE_FLOAT: "float",
    TYPE_SIGNED: "int",
    TYPE_UNSIGNED: "uint",
    TYPE_BOOL: "bool",
}


def _component(m: Module, type_id: TypeId) -> TypeId:
    shape = shape_of(m, type_id)
    if shape is not None and shape.category == "vector":
        return TypeId(shape.component)
    return type_id


def _count(m: Module, type_id: TypeId) -> int:
    shape = shape_of(m, type_id)
    return shape.number if shape is not None and shape.category == "vector" else 1


def _operand(m: Module, operand: Value | int | float, like: TypeId) -> Id:
    """An operand's id: a Value's own, or a constant of ``like`` (spread over a vector)."""
    if isinstance(operand, Value):
        if operand.module is not m:
            raise _error("an expression mixes values of two modules")
        return operand.id
    if isinstance(operand, bool) or not isinstance(operand, int | float):
        raise _error(f"{operand!r} is no Value, int or float")
    component = _component(m, like)
    scalar = m.constant(component, operand)
    count = _count(m, like)
    return scalar if count == 1 else m.constant_composite(like, [scalar] * count)


def _made(m: Module, method: str, result: TypeId, *ids: Id) -> Value:
    made: Callable[..., Id] = getattr(m, method)
    return Value(m, made(result, *ids), result)


def _pair(left: Value | int | float, right: Value | int | float) -> tuple[Module, TypeId]:
    """The module and the type that decides an operation (the first Value's)."""
    first = left if isinstance(left, Value) else right
    assert isinstance(first, Value)
    return first.module, first.type


def _method(table: dict[str, tuple[str, str, str]], op: str, kind: str) -> str:
    if kind == "bool":
        raise _error(f"'{op}' takes numbers, not bools")
    return table[op][{"float": 0, "int": 1, "uint": 2}[kind]]


def _arithmetic(op: str, left: Value | int | float, right: Value | int | float) -> Value:
    m, decided = _pair(left, right)
    # A float vector times a float scalar: OpVectorTimesScalar (in either order).
    if op == "*" and isinstance(left, Value) and isinstance(right, Value):
        left_bits, right_bits = _bits(m, left.type), _bits(m, right.type)
        vector, scalar = (left, right) if left_bits & TYPE_VECTOR else (right, left)
        if (left_bits ^ right_bits) & TYPE_VECTOR and (left_bits | right_bits) & TYPE_VECTOR and (
            _bits(m, vector.type) & TYPE_FLOAT
        ):
            return _made(m, "vector_times_scalar", vector.type, vector.id, scalar.id)
    method = _method(_ARITHMETIC, op, _kind(m, decided))
    ids = (_operand(m, left, decided), _operand(m, right, decided))
    result = _inferred(m, method, decided, ids)
    return _made(m, method, result, *ids)


def _compare(op: str, left: Value, right: Value | int | float) -> Value:
    m, decided = _pair(left, right)
    method = _method(_COMPARISONS, op, _kind(m, decided))
    ids = (_operand(m, left, decided), _operand(m, right, decided))
    boolean = m.type_bool()
    count = _count(m, decided)
    result = boolean if count == 1 else m.type_vector(boolean, count)
    return _made(m, method, result, *ids)


def _inferred(m: Module, method: str, decided: TypeId, ids: Sequence[Id]) -> TypeId:
    """The result type the rule of ``method``'s instruction gives for operands of type
    ``decided``: an operand its rule ties to the result (``same``/``like``) decides it."""
    tied = _TIED.get(method)
    if tied is None:
        opcode = _opcode_of(method)
        rule = TYPE_RULES.get(opcode) if opcode is not None else None
        tied = _TIED[method] = rule is not None and any(
            RESULT in (c.same, c.like) for _, _, c in rule.operands
        )
    if tied:
        return decided
    raise _error(f"{method}: no type rule gives its result type from its operands")


_TIED: dict[str, bool] = {}  # a generated method's name → whether an operand's type is its result's


_OPCODES: dict[str, int | None] = {}  # a generated method's name → its opcode


def _opcode_of(method: str) -> int | None:
    found = _OPCODES.get(method, -1)
    if found == -1:
        from spvbuild.generated.core import tables

        found = next(
            (i.opcode for i in tables.INSTRUCTIONS.values() if _snake(i.name) == method), None
        )
        _OPCODES[method] = found
    return found


def _snake(name: str) -> str:
    out = []
    for index, char in enumerate(name[2:]):
        if char.isupper() and index:
            out.append("_")
        out.append(char.lower())
    return "".join(out)
