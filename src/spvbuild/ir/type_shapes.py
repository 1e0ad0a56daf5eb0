"""The facts of the types the type rules model, read from their declarations.

A type declaration keeps its facts where its :class:`~spvbuild.spirv.tables.TypeForm`
(``grammars/type_rules.yaml``'s ``types:``) says: :func:`shape_of` reads them into a
:class:`TypeShape` (cached per module, and across modules by declaration), :func:`type_bits`
and :func:`declared_bits` sum a scalar's or vector's up as the ``TYPE_*`` bits the generated
fast paths test, :func:`describe` says a type in words for the messages.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from spvbuild.generated.core.enums import StorageClass
from spvbuild.generated.core.type_rules import TYPE_FORMS
from spvbuild.ir.state import ModuleState, name_of
from spvbuild.spirv.tables import (
    TYPE_BOOL,
    TYPE_FLOAT,
    TYPE_INT,
    TYPE_SCALAR,
    TYPE_SIGNED,
    TYPE_UNSIGNED,
    TYPE_VECTOR,
    TypeForm,
)

__all__ = [
    "SCALARS",
    "TypeShape",
    "declared_bits",
    "describe",
    "scalar_of",
    "shape_of",
    "storage_name",
    "type_bits",
]

SCALARS = ("int", "float", "bool")
"""The scalar categories (a vector's components are one of them)."""


class TypeShape(NamedTuple):
    """The facts of a type the rules model, read from its declaration.

    ``category`` (void, bool, int, float, vector, matrix, array, struct, pointer),
    ``width`` and ``signedness`` (an int or float; 0 and -1 otherwise), ``component`` (the
    component, column, element or pointee type id; 0: none), ``number`` (components or
    columns; 0: none), ``storage`` (a pointer's storage class; -1: none), ``members`` (a
    struct's member type ids).
    """

    category: str
    width: int
    signedness: int
    component: int
    number: int
    storage: int
    members: tuple[int, ...]


def shape_of(state: ModuleState, type_id: int) -> TypeShape | None:
    """The facts of type ``type_id`` (None: not a type the rules model, or no type)."""
    shapes = state._type_shapes
    if shapes is None:
        shapes = state._type_shapes = {}
    found: TypeShape | None = shapes.get(type_id, _NOT_YET)
    if found is not _NOT_YET:
        return found
    declaration = state._definitions.get(type_id)
    if declaration is None:
        return None  # (not cached: an id not defined yet may be a type later)
    key = (declaration.opcode, declaration.operands)
    shape = _SHAPES.get(key, _NOT_YET)
    if shape is _NOT_YET:
        form = TYPE_FORMS.get(declaration.opcode)
        shape = None if form is None else _shape(form, declaration.operands)
        if len(_SHAPES) < 4096:  # bounded: declarations come from users
            _SHAPES[key] = shape
    shapes[type_id] = shape
    return shape


# Every module's declarations → their shapes: a shape depends on its declaration alone, and
# modules built alike declare alike (a new module need not read its types again).
_SHAPES: dict[tuple[int, tuple[Any, ...]], Any] = {}


_NOT_YET: Any = object()  # shape_of's cache: not looked at yet


def _shape(form: TypeForm, operands: tuple[Any, ...]) -> TypeShape:
    """The facts ``form`` says where to find in a declaration's ``operands``."""
    n = len(operands)

    def at(position: int, absent: int) -> int:
        value = operands[position] if 0 <= position < n else None
        return int(value) if isinstance(value, int) else absent

    members = operands[form.members] if 0 <= form.members < n else ()
    return TypeShape(
        form.category,
        at(form.width, 0),
        at(form.signedness, -1),
        at(form.component, 0),
        at(form.number, 0),
        at(form.storage, -1),
        tuple(map(int, members)) if isinstance(members, tuple) else (),
    )


def scalar_of(state: ModuleState, shape: TypeShape) -> TypeShape | None:
    """A scalar's own shape, a vector's component's (None: neither)."""
    if shape.category in SCALARS:
        return shape
    if shape.category == "vector":
        component = shape_of(state, shape.component)
        if component is not None and component.category in SCALARS:
            return component
    return None


def type_bits(state: ModuleState, type_id: int) -> int:
    """The ``TYPE_*`` bits of a type (0 for any type but a scalar or vector of a scalar),
    remembered in ``state._type_bits`` for the generated fast paths."""
    bits = 0
    shape = shape_of(state, type_id)
    scalar = scalar_of(state, shape) if shape is not None else None
    if shape is not None and scalar is not None:
        bits = TYPE_VECTOR if shape.category == "vector" else TYPE_SCALAR
        bits |= {"int": TYPE_INT, "float": TYPE_FLOAT, "bool": TYPE_BOOL}[scalar.category]
        if scalar.category == "int":
            bits |= TYPE_SIGNED if scalar.signedness == 1 else TYPE_UNSIGNED
    state._type_bits[int(type_id)] = bits
    return bits


def declared_bits(state: ModuleState, type_id: int, opcode: int, operands: tuple[Any, ...]) -> int:
    """:func:`type_bits` of a scalar or vector type as it is declared (``opcode``,
    ``operands``): read by its type form, a vector's from its component's bits."""
    form = TYPE_FORMS.get(opcode)
    if form is None:
        return type_bits(state, type_id)
    category = form.category
    if category == "vector":
        component = operands[form.component] if 0 <= form.component < len(operands) else None
        known = state._type_bits.get(component) if isinstance(component, int) else None
        if known is None:
            return type_bits(state, type_id)
        bits = (known & ~TYPE_SCALAR) | TYPE_VECTOR if known & TYPE_SCALAR else 0
    elif category in _CATEGORY_BITS:
        bits = _CATEGORY_BITS[category]
        if category == "int":
            signed = operands[form.signedness] if 0 <= form.signedness < len(operands) else 0
            bits |= TYPE_SIGNED if signed == 1 else TYPE_UNSIGNED
    else:
        return type_bits(state, type_id)
    state._type_bits[type_id] = bits
    return bits


_CATEGORY_BITS = {
    "int": TYPE_SCALAR | TYPE_INT,
    "float": TYPE_SCALAR | TYPE_FLOAT,
    "bool": TYPE_SCALAR | TYPE_BOOL,
}


def describe(state: ModuleState, type_id: int, depth: int = 0) -> str:
    """A type in words: ``%5 (vector of 4 float32)``."""
    return f"%{int(type_id)} ({_words(state, type_id, depth)})"


def _words(state: ModuleState, type_id: int, depth: int = 0) -> str:
    shape = shape_of(state, type_id)
    if shape is None:
        declaration = state._definitions.get(int(type_id))
        return name_of(declaration.opcode) if declaration is not None else "undefined"
    category = shape.category
    if category == "int":
        return f"{'u' if shape.signedness == 0 else ''}int{shape.width}"
    if category == "float":
        return f"float{shape.width}"
    if category in ("bool", "void", "struct", "image", "sampler", "sampled_image", "function"):
        return category.replace("_", " ")
    if category == "opaque":
        declaration = state._definitions.get(int(type_id))
        return name_of(declaration.opcode) if declaration is not None else category
    inner = "..." if depth > 2 else _words(state, shape.component, depth + 1)
    if category == "vector":
        return f"vector of {shape.number} {inner}"
    if category == "matrix":
        return f"matrix of {shape.number} {inner}"
    if category == "array":
        return f"array of {inner}"
    storage = storage_name(shape.storage)
    return f"pointer to {storage} {inner}"


def storage_name(value: int) -> str:
    """A storage class's name (``storage class 4242`` for one the grammar lacks)."""
    try:
        return StorageClass(value).name
    except ValueError:
        return f"storage class {value}"
