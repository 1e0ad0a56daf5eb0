"""Types as reflection describes them: :class:`~spvbuild.reflection.records.TypeInfo` per
type id, with GLSL spellings, array dimensions (specialization constants followed), the
layout decorations and the sizes they give.

Sizes follow the explicit layout the decorations state, never a layout rule: a member's
size is what its type takes with its own strides (a matrix: columns, or rows when
row-major, times its MatrixStride; an array: length times ArrayStride), a struct's size is
where its last-ending member ends.  A member that another member starts inside the padding
of (an array's or matrix's bytes past its last element, which the scalar layout lets a
member use) ends, for that purpose, where that member starts or where its own last element
ends, whichever is later.  Where a decoration a size needs is missing the size is
``None``.
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import Any

from spvbuild.errors import ReflectionError
from spvbuild.generated.core import opcodes as op
from spvbuild.generated.core.enums import Decoration
from spvbuild.reflection.constants import ConstantValues
from spvbuild.reflection.module_facts import ModuleFacts, enum_name, word
from spvbuild.reflection.records import ArraySize, ImageInfo, Member, TypeInfo

__all__ = ["TypeTable", "struct_end"]

_INT_NAMES = {8: "int8_t", 16: "int16_t", 32: "int", 64: "int64_t"}
_UINT_NAMES = {8: "uint8_t", 16: "uint16_t", 32: "uint", 64: "uint64_t"}
_FLOAT_NAMES = {16: "float16_t", 32: "float", 64: "double"}
# Vector and matrix prefixes by (kind, width, signed).
_VECTOR_PREFIX = {
    ("bool", 1, False): "bvec",
    ("float", 32, False): "vec",
    ("float", 64, False): "dvec",
    ("float", 16, False): "f16vec",
    ("int", 32, True): "ivec",
    ("int", 32, False): "uvec",
    ("int", 64, True): "i64vec",
    ("int", 64, False): "u64vec",
    ("int", 16, True): "i16vec",
    ("int", 16, False): "u16vec",
    ("int", 8, True): "i8vec",
    ("int", 8, False): "u8vec",
}
_MATRIX_PREFIX = {32: "mat", 64: "dmat", 16: "f16mat"}
_DIM_SPELLING = {
    "Dim1D": "1D",
    "Dim2D": "2D",
    "Dim3D": "3D",
    "Cube": "Cube",
    "Rect": "2DRect",
    "Buffer": "Buffer",
}


class TypeTable:
    """The :class:`TypeInfo` of each type id, made once."""

    def __init__(self, facts: ModuleFacts, constants: ConstantValues) -> None:
        self.facts = facts
        self.constants = constants
        self._made: dict[int, TypeInfo] = {}
        self._making: set[int] = set()

    def info(self, type_id: int) -> TypeInfo:
        """The description of type ``type_id``; ReflectionError when no type has that id."""
        found = self._made.get(type_id)
        if found is not None:
            return found
        inst = self.facts.types.get(type_id)
        if inst is None:
            raise ReflectionError(f"%{type_id} is used as a type but declares none")
        if type_id in self._making:  # a type reached again through a pointer (a cycle)
            return self._cycle(type_id, inst.opcode, inst.operands)
        self._making.add(type_id)
        try:
            made = self._make(type_id, inst.opcode, inst.operands)
        finally:
            self._making.discard(type_id)
        self._made[type_id] = made
        return made

    def _cycle(self, type_id: int, code: int, operands: tuple[Any, ...]) -> TypeInfo:
        """A type met again while it is being described (``struct Node { Node* next; }``
        through a physical storage buffer pointer): described without what it contains."""
        if code == op.OP_TYPE_POINTER:
            storage = enum_name(operands[0])
            pointee = self.facts.types.get(word(operands[1]))
            glsl = self._struct_name(word(operands[1])) if pointee is not None else "void"
            size = 8 if storage == "PhysicalStorageBuffer" else None
            return TypeInfo(type_id, "pointer", glsl, storage_class=storage, size=size)
        return TypeInfo(type_id, "struct", self._struct_name(type_id))

    def _struct_name(self, type_id: int) -> str:
        return self.facts.names.get(type_id) or f"_{type_id}"

    def _make(self, tid: int, code: int, operands: tuple[Any, ...]) -> TypeInfo:
        if code == op.OP_TYPE_VOID:
            return TypeInfo(tid, "void", "void")
        if code == op.OP_TYPE_BOOL:
            return TypeInfo(tid, "bool", "bool")
        if code == op.OP_TYPE_INT:
            width, signed = word(operands[0]), bool(operands[1])
            names = _INT_NAMES if signed else _UINT_NAMES
            glsl = names.get(width, f"{'' if signed else 'u'}int{width}_t")
            return TypeInfo(tid, "int", glsl, width=width, signed=signed, size=width // 8)
        if code == op.OP_TYPE_FLOAT:
            width = word(operands[0])
            glsl = _FLOAT_NAMES.get(width, f"float{width}_t")
            return TypeInfo(tid, "float", glsl, width=width, size=width // 8)
        if code == op.OP_TYPE_VECTOR:
            component = self.info(word(operands[0]))
            count = word(operands[1])
            key = (component.kind, component.width or 1, bool(component.signed))
            prefix = _VECTOR_PREFIX.get(key, f"{component.glsl}vec")
            size = component.size * count if component.size is not None else None
            return TypeInfo(
                tid,
                "vector",
                f"{prefix}{count}",
                width=component.width,
                signed=component.signed,
                components=count,
                element=component,
                size=size,
            )
        if code == op.OP_TYPE_MATRIX:
            column = self.info(word(operands[0]))
            columns = word(operands[1])
            rows = column.components or 0
            prefix = _MATRIX_PREFIX.get(column.width or 32, "mat")
            glsl = f"{prefix}{columns}" if columns == rows else f"{prefix}{columns}x{rows}"
            return TypeInfo(
                tid,
                "matrix",
                glsl,
                width=column.width,
                signed=column.signed,
                columns=columns,
                rows=rows,
                element=column.element,
            )
        if code in (op.OP_TYPE_ARRAY, op.OP_TYPE_RUNTIME_ARRAY):
            return self._array(tid, code, operands)
        if code == op.OP_TYPE_STRUCT:
            return self._struct(tid, operands)
        if code == op.OP_TYPE_POINTER:
            pointee = self.info(word(operands[1]))
            storage = enum_name(operands[0])
            size = 8 if storage == "PhysicalStorageBuffer" else None
            return TypeInfo(
                tid, "pointer", pointee.glsl, element=pointee, storage_class=storage, size=size
            )
        if code == op.OP_TYPE_IMAGE:
            image = self._image(operands)
            return TypeInfo(tid, "image", self._image_spelling(image, False), image=image)
        if code == op.OP_TYPE_SAMPLED_IMAGE:
            inner = self.info(word(operands[0]))
            glsl = self._image_spelling(inner.image, True) if inner.image else "sampler"
            return TypeInfo(tid, "sampled_image", glsl, element=inner, image=inner.image)
        if code == op.OP_TYPE_SAMPLER:
            return TypeInfo(tid, "sampler", "sampler")
        if code == op.OP_TYPE_ACCELERATION_STRUCTURE_KHR:
            return TypeInfo(tid, "acceleration_structure", "accelerationStructureEXT")
        if code == op.OP_TYPE_FUNCTION:
            return TypeInfo(tid, "function", "function")
        return TypeInfo(tid, "other", f"_{tid}")

    def array_size(self, length_id: int) -> ArraySize:
        """One array dimension from the id of its length."""
        value = self.constants.value(length_id)
        length = value if isinstance(value, int) and not isinstance(value, bool) else None
        if not self.constants.is_spec(length_id):
            return ArraySize(length)
        spec = self.facts.decoration(length_id, int(Decoration.SpecId))
        return ArraySize(length, length_id, word(spec[0]) if spec else None)

    def _array(self, tid: int, code: int, operands: tuple[Any, ...]) -> TypeInfo:
        element = self.info(word(operands[0]))
        if code == op.OP_TYPE_ARRAY:
            dimension = self.array_size(word(operands[1]))
        else:
            dimension = ArraySize(0)
        stride_found = self.facts.decoration(tid, Decoration.ArrayStride)
        stride = int(stride_found[0]) if stride_found else None
        if stride is not None:
            dimension = dataclasses.replace(dimension, stride=stride)
        inner = element if element.kind in ("array", "runtime_array") else None
        dimensions = (dimension, *(inner.dimensions if inner else ()))
        size = None
        if stride is not None and dimension.length is not None:
            size = stride * dimension.length
        return TypeInfo(
            tid,
            "array" if code == op.OP_TYPE_ARRAY else "runtime_array",
            element.glsl,
            width=element.width,
            signed=element.signed,
            element=inner.element if inner else element,
            dimensions=dimensions,
            array_stride=stride,
            size=size,
            image=element.image,
        )

    def _struct(self, tid: int, operands: tuple[Any, ...]) -> TypeInfo:
        member_ids = operands[0] if operands and isinstance(operands[0], tuple) else operands
        members = tuple(self.member(tid, index, word(m)) for index, m in enumerate(member_ids))
        size: int | None = None
        if members and all(m.offset is not None and m.size is not None for m in members):
            size = struct_end(members)
        return TypeInfo(tid, "struct", self._struct_name(tid), members=members, size=size)

    def member(self, struct_id: int, index: int, type_id: int) -> Member:
        """Member ``index`` of struct ``struct_id``, of type ``type_id``."""
        facts = self.facts
        kind = self.info(type_id)
        decorations = facts.member_decorations.get((struct_id, index), {})

        def literal(number: int) -> int | None:
            found = decorations.get(number)
            return word(found[0]) if found else None

        matrix_stride = literal(Decoration.MatrixStride)
        row_major = Decoration.RowMajor in decorations
        size = self.member_size(kind, matrix_stride, row_major)
        builtin = decorations.get(Decoration.BuiltIn)
        return Member(
            index=index,
            name=facts.member_names.get((struct_id, index), ""),
            type=kind,
            offset=literal(Decoration.Offset),
            size=size,
            array_stride=kind.array_stride,
            matrix_stride=matrix_stride,
            row_major=row_major,
            builtin=enum_name(builtin[0]) if builtin else None,
            location=literal(Decoration.Location),
            component=literal(Decoration.Component),
            readonly=Decoration.NonWritable in decorations,
            writeonly=Decoration.NonReadable in decorations,
        )

    @staticmethod
    def member_size(kind: TypeInfo, matrix_stride: int | None, row_major: bool) -> int | None:
        """What a member of type ``kind`` takes with its member decorations."""
        if kind.kind == "runtime_array":
            return 0
        if kind.kind == "array":
            if kind.size is not None:
                return kind.size
            return None
        if kind.kind == "matrix":
            if matrix_stride is None:
                return None
            vectors = kind.rows if row_major else kind.columns
            return (vectors or 0) * matrix_stride
        return kind.size

    @staticmethod
    def member_extent(member: Member) -> int | None:
        """Bytes from a member's offset to the end of its last element, row or column:
        its size less the padding an array's or a matrix's stride leaves after it."""
        if member.size is None:
            return None
        kind = member.type
        if kind.kind == "array" and kind.array_stride is not None and kind.dimensions:
            length = kind.dimensions[0].length
            element = kind.element
            if not length or element is None or element.size is None:
                return member.size
            if len(kind.dimensions) > 1 or element.kind == "matrix":
                return member.size  # nested arrays and arrays of matrices: padded sizes
            return (length - 1) * kind.array_stride + min(element.size, kind.array_stride)
        if kind.kind == "matrix" and member.matrix_stride is not None:
            vectors = (kind.rows if member.row_major else kind.columns) or 0
            components = (kind.columns if member.row_major else kind.rows) or 0
            if vectors == 0 or kind.width is None:
                return member.size
            last = components * (kind.width // 8)
            return (vectors - 1) * member.matrix_stride + min(last, member.matrix_stride)
        return member.size

    def _image(self, operands: tuple[Any, ...]) -> ImageInfo:
        sampled_type = self.info(word(operands[0]))
        return ImageInfo(
            dim=enum_name(operands[1]),
            depth=word(operands[2]),
            arrayed=bool(operands[3]),
            multisampled=bool(operands[4]),
            sampled=word(operands[5]),
            format=enum_name(operands[6]),
            sampled_type=sampled_type.glsl,
        )

    @staticmethod
    def _image_spelling(image: ImageInfo | None, with_sampler: bool) -> str:
        """``sampler2DArrayShadow``, ``texture2D``, ``uimage3D``, ``subpassInputMS``, ..."""
        if image is None:
            return "image"
        prefix = {"int": "i", "uint": "u", "int64_t": "i64", "uint64_t": "u64"}.get(
            image.sampled_type, ""
        )
        if image.dim == "SubpassData":
            return f"{prefix}subpassInput{'MS' if image.multisampled else ''}"
        if image.dim == "Buffer":
            base = "image" if image.sampled == 2 else "sampler"
        elif with_sampler:
            base = "sampler"
        else:
            base = "image" if image.sampled == 2 else "texture"
        spelling = f"{prefix}{base}{_DIM_SPELLING.get(image.dim, image.dim)}"
        if image.multisampled:
            spelling += "MS"
        if image.arrayed:
            spelling += "Array"
        if with_sampler and image.depth == 1:
            spelling += "Shadow"
        return spelling


def struct_end(members: tuple[Member, ...]) -> int:
    """Where the members that have an offset and a size end (the largest end; see the
    module's docstring for a member whose padding holds another)."""
    placed = sorted(m.offset for m in members if m.offset is not None and m.size is not None)
    end = 0
    for member in members:
        if member.offset is None:
            continue
        padded = member.offset + (member.size or 0)
        extent = TypeTable.member_extent(member)
        tight = padded if extent is None else member.offset + extent
        inside = bisect.bisect_left(placed, tight)
        if tight < padded and inside < len(placed) and placed[inside] < padded:
            padded = max(tight, placed[inside])
        end = max(end, padded)
    return end
