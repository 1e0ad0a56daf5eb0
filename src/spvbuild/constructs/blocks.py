"""Declaring a laid-out struct in a module: its SPIR-V types with every layout decoration.

:func:`declare_struct` turns a :class:`~spvbuild.constructs.layouts.StructLayout` into
``OpTypeStruct`` and the types under it: ``OpMemberDecorate ... Offset`` for each member,
``MatrixStride`` and ``RowMajor``/``ColMajor`` on members holding matrices, ``ArrayStride``
on each array level, the nested structs' own offsets, debug names (``OpName``,
``OpMemberName``) and, for a block, ``Block``.  Scalars, vectors and matrices are the
module's usual (deduplicated) types; arrays and structs are made new for each layout,
since their decorations belong to one layout (the same struct laid out by std140 and
std430 are two SPIR-V types, as glslang makes them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spvbuild.constructs.layouts import (
    Array,
    DataType,
    Matrix,
    Rule,
    Scalar,
    Struct,
    StructLayout,
    Vector,
    lay_out,
)
from spvbuild.errors import LayoutError
from spvbuild.generated.core.enums import (
    Decoration,
    DecorationArrayStride,
    DecorationMatrixStride,
    DecorationOffset,
)
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import TypeId

__all__ = ["DeclaredStruct", "declare_struct"]


@dataclass(frozen=True)
class DeclaredStruct:
    """A struct declared by :func:`declare_struct`: its type id and its layout."""

    type: TypeId
    layout: StructLayout

    def index(self, name: str) -> int:
        """The member index of the member named ``name`` (for access chains)."""
        return self.layout.index(name)


@dataclass
class _Declaring:
    """One declare_struct call: the module and the structs declared so far."""

    module: Module
    names: bool
    structs: dict[Struct, TypeId] = field(default_factory=dict)

    def scalar(self, scalar: Scalar) -> TypeId:
        m = self.module
        if scalar.kind == "float":
            return m.type_float(scalar.width)
        return m.type_int(scalar.width, 1 if scalar.kind == "sint" else 0)

    def type(self, data: DataType, layout: StructLayout | None, strides: list[int]) -> TypeId:
        """The type of ``data``; an array's levels take ``strides`` (outermost first)."""
        m = self.module
        if isinstance(data, Scalar):
            return self.scalar(data)
        if isinstance(data, Vector):
            return m.type_vector(self.scalar(data.component), data.count)
        if isinstance(data, Matrix):
            column = m.type_vector(self.scalar(data.column.component), data.column.count)
            return m.type_matrix(column, data.columns)
        if isinstance(data, Array):
            element = self.type(data.element, layout, strides[1:])
            array = m.new_type_id()  # new: its ArrayStride belongs to this layout
            if data.length is None:
                m.type_runtime_array(element, result_id=array)
            else:
                m.type_array(element, m.constant(m.type_int(32, 0), data.length), result_id=array)
            m.decorate(array, DecorationArrayStride(strides[0]))
            return array
        assert layout is not None
        return self.struct(layout)

    def struct(self, layout: StructLayout) -> TypeId:
        found = self.structs.get(layout.struct)
        if found is not None:
            return found
        m = self.module
        members = [
            self.type(member.field.type, member.struct, [level.stride for level in member.arrays])
            for member in layout.members
        ]
        struct = self.structs[layout.struct] = m.new_type_id()
        m.type_struct(members, result_id=struct)
        if self.names:
            m.name(struct, layout.struct.name)
        for index, member in enumerate(layout.members):
            if self.names:
                m.member_name(struct, index, member.name)
            m.member_decorate(struct, index, DecorationOffset(member.offset))
            if member.matrix_stride:
                if member.field.row_major:
                    m.member_decorate(struct, index, Decoration.RowMajor)
                else:
                    m.member_decorate(struct, index, Decoration.ColMajor)
                m.member_decorate(struct, index, DecorationMatrixStride(member.matrix_stride))
        return struct


def declare_struct(
    m: Module,
    struct: Struct | StructLayout,
    rule: Rule | None = None,
    *,
    block: bool = True,
    names: bool = True,
    buffer_block: bool = False,
) -> DeclaredStruct:
    """Declare ``struct`` in ``m`` with its layout's decorations; ``Block`` too unless
    ``block`` is False (a struct used inside other data), or ``BufferBlock`` with
    ``buffer_block`` (a storage buffer in the Uniform storage class, before SPIR-V 1.3's
    StorageBuffer); debug names unless ``names`` is False.

    ``struct`` is a :class:`Struct` laid out here by ``rule``, or a :class:`StructLayout`
    made already (then ``rule``, if given, must be its rule).
    """
    if isinstance(struct, Struct):
        if rule is None:
            raise LayoutError(
                f"declare_struct: say the layout rule of struct {struct.name} "
                "(STD140, STD430 or SCALAR)"
            )
        layout = lay_out(struct, rule)
    elif isinstance(struct, StructLayout):
        layout = struct
        if rule is not None and rule is not layout.rule:
            raise LayoutError(
                f"declare_struct: struct {layout.struct.name} is laid out by "
                f"{layout.rule.value}, not {rule.value}"
            )
    else:
        raise LayoutError(
            f"declare_struct: a Struct or a StructLayout is declared, not {type(struct).__name__}"
        )
    declared = _Declaring(m, names).struct(layout)
    if buffer_block:
        m.decorate(declared, Decoration.BufferBlock)
    elif block:
        m.decorate(declared, Decoration.Block)
    return DeclaredStruct(declared, layout)
