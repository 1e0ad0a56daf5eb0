"""The host side of a block layout: ``ctypes`` and numpy types with the shader's offsets.

:func:`ctypes_type` and :func:`numpy_dtype` make, from one
:class:`~spvbuild.constructs.layouts.StructLayout`, a type whose bytes are what the
shader reads: every member at its offset, array elements and matrix columns (rows, when
row-major) at their strides, the padding between as zero bytes.  Where a stride is longer
than what it steps over (a ``float`` array in std140, a ``mat3``'s columns), each step is
a record of one field, ``value``, followed by its padding.  A runtime array, the last
member of a block, takes no room in the host type (``sizeof`` is its offset, as the
shader's data starts with one element there): allocate ``offset + count * stride`` bytes
(:meth:`~spvbuild.constructs.layouts.StructLayout.member` gives both).

numpy is optional: :func:`numpy_dtype` imports it when called.
"""

from __future__ import annotations

import ctypes
import importlib
from typing import Any

from spvbuild.constructs.layouts import (
    Array,
    ArrayLayout,
    DataType,
    Matrix,
    MemberLayout,
    Scalar,
    StructLayout,
    Vector,
)
from spvbuild.errors import LayoutError

__all__ = ["ctypes_type", "numpy_dtype"]

# float16 has no ctypes type: its bits, as an unsigned 16-bit integer.
_CTYPES: dict[tuple[str, int], Any] = {
    ("float", 16): ctypes.c_uint16,
    ("float", 32): ctypes.c_float,
    ("float", 64): ctypes.c_double,
    ("sint", 8): ctypes.c_int8,
    ("sint", 16): ctypes.c_int16,
    ("sint", 32): ctypes.c_int32,
    ("sint", 64): ctypes.c_int64,
    ("uint", 8): ctypes.c_uint8,
    ("uint", 16): ctypes.c_uint16,
    ("uint", 32): ctypes.c_uint32,
    ("uint", 64): ctypes.c_uint64,
}
_NUMPY = {"float": "f", "sint": "i", "uint": "u"}


def _padded_ctype(inner: Any, size: int, stride: int, name: str) -> Any:
    """``inner`` (``size`` bytes) as one step of ``stride`` bytes."""
    if stride == size:
        return inner
    fields = [("value", inner), ("_padding", ctypes.c_ubyte * (stride - size))]
    return type(name, (ctypes.Structure,), {"_pack_": 1, "_fields_": fields})


def _vectors(matrix: Matrix, row_major: bool) -> tuple[Vector, int]:
    """The vectors a matrix is stored as (columns, or rows when row-major) and how many."""
    if row_major:
        return Vector(matrix.column.component, matrix.columns), matrix.column.count
    return matrix.column, matrix.columns


def _member_ctype(member: MemberLayout, data: DataType, arrays: tuple[ArrayLayout, ...]) -> Any:
    if isinstance(data, Array):
        element = _member_ctype(member, data.element, arrays[1:])
        size = ctypes.sizeof(element)
        step = _padded_ctype(element, size, arrays[0].stride, f"{member.name}_element")
        return step * (arrays[0].length or 0)
    if isinstance(data, Scalar):
        return _CTYPES[data.kind, data.width]
    if isinstance(data, Vector):
        return _CTYPES[data.component.kind, data.component.width] * data.count
    if isinstance(data, Matrix):
        vector, count = _vectors(data, member.field.row_major)
        inner = _CTYPES[vector.component.kind, vector.component.width] * vector.count
        size = ctypes.sizeof(inner)
        return _padded_ctype(inner, size, member.matrix_stride, f"{member.name}_vector") * count
    assert member.struct is not None
    return ctypes_type(member.struct)


def ctypes_type(layout: StructLayout) -> type[ctypes.Structure]:
    """A ``ctypes.Structure`` with the layout's bytes (``_pack_ = 1``, explicit padding).

    Members keep their names; a padded step is a record whose ``value`` is the element.
    """
    fields: list[tuple[str, Any]] = []
    at = 0
    for index, member in enumerate(layout.members):
        if member.offset > at:
            fields.append((f"_padding{index}", ctypes.c_ubyte * (member.offset - at)))
        member_type = _member_ctype(member, member.field.type, member.arrays)
        fields.append((member.name, member_type))
        at = member.offset + ctypes.sizeof(member_type)
    if layout.size > at:
        fields.append(("_padding", ctypes.c_ubyte * (layout.size - at)))
    made: type[ctypes.Structure] = type(
        layout.struct.name, (ctypes.Structure,), {"_pack_": 1, "_fields_": fields}
    )
    return made


def _padded_dtype(inner: Any, size: int, stride: int) -> Any:
    if stride == size:
        return inner
    return {"names": ["value"], "formats": [inner], "offsets": [0], "itemsize": stride}


def _member_dtype(
    np: Any, member: MemberLayout, data: DataType, arrays: tuple[ArrayLayout, ...]
) -> Any:
    if isinstance(data, Array):
        element = np.dtype(_member_dtype(np, member, data.element, arrays[1:]))
        step = np.dtype(_padded_dtype(element, element.itemsize, arrays[0].stride))
        return (step, (arrays[0].length or 0,))
    if isinstance(data, Scalar):
        return np.dtype(f"<{_NUMPY[data.kind]}{data.width // 8}")
    if isinstance(data, Vector):
        return np.dtype(
            (f"<{_NUMPY[data.component.kind]}{data.component.width // 8}", (data.count,))
        )
    if isinstance(data, Matrix):
        vector, count = _vectors(data, member.field.row_major)
        inner = np.dtype(
            (f"<{_NUMPY[vector.component.kind]}{vector.component.width // 8}", (vector.count,))
        )
        step = np.dtype(_padded_dtype(inner, inner.itemsize, member.matrix_stride))
        return np.dtype((step, (count,)))
    assert member.struct is not None
    return numpy_dtype(member.struct)


def numpy_dtype(layout: StructLayout) -> Any:
    """A numpy structured dtype (``numpy.dtype``) with the layout's bytes (``itemsize`` is the layout's
    size; a runtime array takes no room).  LayoutError when numpy is not installed."""
    try:
        np: Any = importlib.import_module("numpy")  # optional: imported only here
    except ImportError:
        raise LayoutError("numpy_dtype: numpy is not installed (pip install numpy)") from None
    names, formats, offsets = [], [], []
    for member in layout.members:
        if member.arrays and member.arrays[0].length is None:
            continue  # a runtime array: its elements follow, allocated by the user
        names.append(member.name)
        formats.append(_member_dtype(np, member, member.field.type, member.arrays))
        offsets.append(member.offset)
    dtype = np.dtype(
        {"names": names, "formats": formats, "offsets": offsets, "itemsize": layout.size}
    )
    return dtype
