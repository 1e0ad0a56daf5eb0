"""Block layouts: the offsets, array strides and matrix strides of a buffer's data.

A block's data is described once, in Python, with :class:`Scalar`, :class:`Vector`,
:class:`Matrix`, :class:`Array` and :class:`Struct` (whose :class:`Field` s may be
row-major or carry an offset the user chose), and laid out by one of the Vulkan rules
(the Vulkan specification, "Offset and Stride Assignment"):

* ``STD140``: *extended* alignment (arrays and structures round up to 16 bytes), what
  GLSL's ``layout(std140)`` gives, the rule of uniform buffers;
* ``STD430``: *base* alignment (a 3- or 4-vector aligns to 4 components, a 2-vector to 2),
  ``layout(std430)``, the rule of storage buffers and push constants;
* ``SCALAR``: *scalar* alignment (everything aligns to its component),
  ``layout(scalar)`` (``VK_EXT_scalar_block_layout``); a struct or an array there ends
  with its last member or element, unpadded (the next member may follow at once, as
  glslang lays it out), while an array's stride still rounds its element up.

:func:`lay_out` gives a :class:`StructLayout`: every member's offset, array strides
(outermost first) and matrix stride, the size and the alignment.  The same record
declares the SPIR-V types with their decorations (:mod:`spvbuild.constructs.blocks`) and
the host-side ``ctypes``/numpy types that fill the buffer (:mod:`spvbuild.constructs.host`),
so the shader and the host cannot disagree.  An offset given in a :class:`Field` is kept
when the rule allows it there, else :class:`~spvbuild.errors.LayoutError` names the
member, the offset given, the lowest one allowed and the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from spvbuild.errors import LayoutError

__all__ = [
    "SCALAR",
    "STD140",
    "STD430",
    "Array",
    "ArrayLayout",
    "DataType",
    "Field",
    "MemberLayout",
    "Matrix",
    "Rule",
    "Scalar",
    "Struct",
    "StructLayout",
    "Vector",
    "f16",
    "f32",
    "f64",
    "i8",
    "i16",
    "i32",
    "i64",
    "lay_out",
    "mat",
    "u8",
    "u16",
    "u32",
    "u64",
    "vec",
]


class Rule(Enum):
    """A layout rule of the Vulkan specification."""

    STD140 = "std140"
    STD430 = "std430"
    SCALAR = "scalar"


STD140, STD430, SCALAR = Rule.STD140, Rule.STD430, Rule.SCALAR

ScalarKind = Literal["float", "sint", "uint"]


@dataclass(frozen=True, slots=True)
class Scalar:
    """A float, signed or unsigned integer of ``width`` bits (8, 16, 32 or 64)."""

    kind: ScalarKind
    width: int

    def __post_init__(self) -> None:
        if self.kind not in ("float", "sint", "uint"):
            raise LayoutError(f"Scalar: kind must be 'float', 'sint' or 'uint', not {self.kind!r}")
        allowed = (16, 32, 64) if self.kind == "float" else (8, 16, 32, 64)
        if self.width not in allowed:
            raise LayoutError(
                f"Scalar: a {self.kind} is {', '.join(map(str, allowed))} bits wide, "
                f"not {self.width!r}"
            )

    @property
    def bytes(self) -> int:
        """Its size in bytes."""
        return self.width // 8


@dataclass(frozen=True, slots=True)
class Vector:
    """``count`` (2, 3 or 4) components of one scalar type."""

    component: Scalar
    count: int

    def __post_init__(self) -> None:
        if self.count not in (2, 3, 4):
            raise LayoutError(f"Vector: 2, 3 or 4 components, not {self.count!r}")


@dataclass(frozen=True, slots=True)
class Matrix:
    """``columns`` (2, 3 or 4) column vectors of a float type (``mat3x2`` in GLSL: 3
    columns of 2 rows).  Row- or column-major is said by the :class:`Field` holding it."""

    column: Vector
    columns: int

    def __post_init__(self) -> None:
        if self.columns not in (2, 3, 4):
            raise LayoutError(f"Matrix: 2, 3 or 4 columns, not {self.columns!r}")
        if self.column.component.kind != "float":
            raise LayoutError("Matrix: the columns must be float vectors")


@dataclass(frozen=True, slots=True)
class Array:
    """``length`` elements (None: a runtime array, the last member of a block only)."""

    element: DataType
    length: int | None

    def __post_init__(self) -> None:
        if self.length is not None and (
            isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 1
        ):
            raise LayoutError(
                f"Array: the length must be a positive int or None, not {self.length!r}"
            )


@dataclass(frozen=True, slots=True)
class Field:
    """A member of a :class:`Struct`: its name, its type, whether its matrices (also in
    arrays) are row-major, and an offset chosen by the user (None: the rule's)."""

    name: str
    type: DataType
    row_major: bool = False
    offset: int | None = None


@dataclass(frozen=True, slots=True)
class Struct:
    """A structure: its name (for the SPIR-V debug names and the host type) and fields
    (any sequence of :class:`Field`, kept as a tuple so that the struct is hashable)."""

    name: str
    fields: Sequence[Field]

    def __post_init__(self) -> None:
        if isinstance(self.fields, str | bytes) or not isinstance(self.fields, Sequence):
            raise LayoutError(
                f"Struct {self.name}: fields must be a sequence of Field, "
                f"not {type(self.fields).__name__}"
            )
        object.__setattr__(self, "fields", tuple(self.fields))
        strays = [f for f in self.fields if not isinstance(f, Field)]
        if strays:
            raise LayoutError(f"Struct {self.name}: fields must be Field, not {strays[0]!r}")
        names = [f.name for f in self.fields]
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise LayoutError(f"Struct {self.name}: member names used twice: {', '.join(doubled)}")
        for index, field in enumerate(self.fields):
            if _has_runtime_array(field.type) and (
                index != len(self.fields) - 1 or not isinstance(field.type, Array)
            ):
                raise LayoutError(
                    f"Struct {self.name}: member {field.name!r} holds a runtime array; only "
                    "the last member may be one (not nested in another array)"
                )


DataType = Scalar | Vector | Matrix | Array | Struct

f16, f32, f64 = Scalar("float", 16), Scalar("float", 32), Scalar("float", 64)
i8, i16, i32, i64 = (Scalar("sint", w) for w in (8, 16, 32, 64))
u8, u16, u32, u64 = (Scalar("uint", w) for w in (8, 16, 32, 64))


def vec(count: int, component: Scalar = f32) -> Vector:
    """``vec3`` is ``vec(3)``; ``ivec2`` is ``vec(2, i32)``."""
    return Vector(component, count)


def mat(columns: int, rows: int | None = None, component: Scalar = f32) -> Matrix:
    """``mat4`` is ``mat(4)``; GLSL's ``mat3x2`` (3 columns, 2 rows) is ``mat(3, 2)``."""
    return Matrix(Vector(component, columns if rows is None else rows), columns)


def _has_runtime_array(data: DataType) -> bool:
    while isinstance(data, Array):
        if data.length is None:
            return True
        data = data.element
    return False


# -- what a laid-out struct is ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ArrayLayout:
    """One array level: its length (None: runtime) and stride in bytes."""

    length: int | None
    stride: int


@dataclass(frozen=True, slots=True)
class MemberLayout:
    """A laid-out member: its field, offset and size in bytes (a runtime array: 0), its
    array levels (outermost first), the innermost element's matrix stride
    (0 where it is no matrix) and the layout of the innermost element where it is a
    struct."""

    field: Field
    offset: int
    size: int
    arrays: tuple[ArrayLayout, ...]
    matrix_stride: int
    struct: StructLayout | None

    @property
    def name(self) -> str:
        """The member's name."""
        return self.field.name


@dataclass(frozen=True, slots=True)
class StructLayout:
    """A struct laid out by a rule: its members, size and alignment in bytes (the size of
    a struct ending in a runtime array is that array's offset: its elements follow)."""

    struct: Struct
    rule: Rule
    members: tuple[MemberLayout, ...]
    size: int
    alignment: int

    def member(self, name: str) -> MemberLayout:
        """The member named ``name`` (LayoutError if there is none)."""
        for member in self.members:
            if member.name == name:
                return member
        raise LayoutError(f"struct {self.struct.name} has no member {name!r}")

    def index(self, name: str) -> int:
        """The position of the member named ``name`` (its OpAccessChain index)."""
        return self.members.index(self.member(name))


# -- the rules -------------------------------------------------------------------------------
def _round_up(value: int, multiple: int) -> int:
    return (value + multiple - 1) // multiple * multiple


def _scalar_alignment(data: DataType) -> int:
    if isinstance(data, Scalar):
        return data.bytes
    if isinstance(data, Vector):
        return data.component.bytes
    if isinstance(data, Matrix):
        return data.column.component.bytes
    if isinstance(data, Array):
        return _scalar_alignment(data.element)
    return max((_scalar_alignment(f.type) for f in data.fields), default=1)


def _vector_base(component: Scalar, count: int) -> int:
    return component.bytes * (2 if count == 2 else 4 if count > 2 else 1)


def _alignment(data: DataType, rule: Rule, row_major: bool) -> int:
    """The alignment of ``data`` under ``rule`` (a matrix's: by its majorness)."""
    if rule is SCALAR:
        return _scalar_alignment(data)
    if isinstance(data, Scalar):
        return data.bytes
    if isinstance(data, Vector):
        return _vector_base(data.component, data.count)
    if isinstance(data, Matrix):
        # Column-major: a column's alignment; row-major: a row's (a vector of `columns`).
        count = data.columns if row_major else data.column.count
        base = _vector_base(data.column.component, count)
        return _round_up(base, 16) if rule is STD140 else base
    if isinstance(data, Array):
        inner = _alignment(data.element, rule, row_major)
        return _round_up(inner, 16) if rule is STD140 else inner
    inner = max((_alignment(f.type, rule, f.row_major) for f in data.fields), default=1)
    return _round_up(inner, 16) if rule is STD140 else inner


def _matrix_stride(matrix: Matrix, rule: Rule, row_major: bool) -> int:
    count = matrix.columns if row_major else matrix.column.count
    component = matrix.column.component
    if rule is SCALAR:
        return component.bytes * count
    return _alignment(matrix, rule, row_major)


def _size(data: DataType, rule: Rule, row_major: bool) -> int:
    """The bytes ``data`` takes (arrays and structs with their padding)."""
    if isinstance(data, Scalar):
        return data.bytes
    if isinstance(data, Vector):
        return data.component.bytes * data.count
    if isinstance(data, Matrix):
        vectors = data.column.count if row_major else data.columns
        return _matrix_stride(data, rule, row_major) * vectors
    if isinstance(data, Array):
        if not data.length:
            return 0
        stride = _array_stride(data, rule, row_major)
        if rule is SCALAR:  # the last element without its padding (as glslang lays it out)
            return stride * (data.length - 1) + _size(data.element, rule, row_major)
        return stride * data.length
    return _struct(data, rule).size


def _array_stride(array: Array, rule: Rule, row_major: bool) -> int:
    element = _size(array.element, rule, row_major)
    return _round_up(element, _alignment(array, rule, row_major))


def _struct(struct: Struct, rule: Rule) -> StructLayout:
    members: list[MemberLayout] = []
    end = 0  # where the previous member ends (its padding to its alignment included)
    previous = ""
    for field in struct.fields:
        data, row_major = field.type, field.row_major
        alignment = _alignment(data, rule, row_major)
        lowest = _round_up(end, alignment)
        offset = lowest
        if field.offset is not None:
            given = field.offset
            if isinstance(given, bool) or not isinstance(given, int) or given < 0:
                raise LayoutError(
                    f"struct {struct.name} member {field.name!r}: the offset must be an int "
                    f"of 0 or more, not {given!r}"
                )
            if given < lowest or given % alignment:
                after = f" after {previous!r}" if previous and given < lowest else ""
                raise LayoutError(
                    f"struct {struct.name} member {field.name!r}: offset {given} breaks the "
                    f"{rule.value} layout: the lowest offset allowed{after} is {lowest} "
                    f"(a multiple of its {rule.value} alignment {alignment})"
                )
            offset = given
        arrays: list[ArrayLayout] = []
        inner = data
        while isinstance(inner, Array):
            arrays.append(ArrayLayout(inner.length, _array_stride(inner, rule, row_major)))
            inner = inner.element
        matrix_stride = _matrix_stride(inner, rule, row_major) if isinstance(inner, Matrix) else 0
        nested = _struct(inner, rule) if isinstance(inner, Struct) else None
        size = _size(data, rule, row_major)
        members.append(MemberLayout(field, offset, size, tuple(arrays), matrix_stride, nested))
        end = offset + size
        if isinstance(data, (Array, Matrix, Struct)) and rule is not SCALAR:
            end = _round_up(end, alignment)  # nothing goes in a composite's tail padding
        previous = field.name
    alignment = _alignment(struct, rule, False)
    # The scalar layout pads a struct only where it is an array's element (its stride).
    size = end if rule is SCALAR else _round_up(end, alignment)
    if members and members[-1].arrays and members[-1].arrays[0].length is None:
        size = members[-1].offset  # the fixed part: a runtime array's elements follow
    return StructLayout(struct, rule, tuple(members), size, alignment)


def lay_out(struct: Struct, rule: Rule) -> StructLayout:
    """``struct`` laid out by ``rule``: every member's offset and strides (an offset its
    field gives is kept if the rule allows it, else LayoutError)."""
    if not isinstance(struct, Struct):
        raise LayoutError(f"lay_out: a Struct is laid out, not {type(struct).__name__}")
    if not isinstance(rule, Rule):
        raise LayoutError(f"lay_out: the rule is STD140, STD430 or SCALAR, not {rule!r}")
    return _struct(struct, rule)
