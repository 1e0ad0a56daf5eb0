"""Small conveniences for compute shaders, built only on :class:`~spvbuild.ir.module.Module`.

A storage buffer of a runtime array needs a struct, a Block decoration, member offsets, an
array stride, a pointer type, a variable and its descriptor set and binding; the global
invocation index needs a builtin input variable.  These helpers emit exactly that through
the typed methods (so the usual deduplication and capability inference apply).
"""

from __future__ import annotations

from dataclasses import dataclass

from spvbuild.enums import (
    BuiltIn,
    Decoration,
    DecorationArrayStride,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationDescriptorSet,
    DecorationOffset,
    StorageClass,
)
from spvbuild.errors import BuildError
from spvbuild.generated.core.opcodes import OP_TYPE_FLOAT, OP_TYPE_INT
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id, TypeId


@dataclass(frozen=True)
class StorageBuffer:
    """A ``buffer { T data[]; }`` at (set, binding): its variable and element pointer type."""

    variable: Id
    block: TypeId
    element: TypeId
    element_pointer: TypeId

    def at(self, m: Module, index: Id) -> Id:
        """A pointer to element ``index`` (OpAccessChain through member 0)."""
        zero = m.constant(m.type_int(32, 0), 0)
        return m.access_chain(self.element_pointer, self.variable, [zero, index])


def _scalar_bytes(m: Module, element: TypeId) -> int:
    definition = m.definition(element)
    if definition is None or definition.opcode not in (OP_TYPE_INT, OP_TYPE_FLOAT):
        raise BuildError(
            f"storage_buffer: element type {element!r} must be an OpTypeInt or OpTypeFloat"
        )
    return int(definition.operands[0]) // 8


def storage_buffer(
    m: Module, element: TypeId, binding: int, set: int = 0, name: str | None = None
) -> StorageBuffer:
    """Declare ``layout(set, binding) buffer { element data[]; }`` (StorageBuffer class)."""
    array = m.type_runtime_array(element)
    m.decorate(array, DecorationArrayStride(_scalar_bytes(m, element)))
    block = m.type_struct([array])
    m.decorate(block, Decoration.Block).member_decorate(block, 0, DecorationOffset(0))
    variable = m.variable(
        m.type_pointer(StorageClass.StorageBuffer, block), StorageClass.StorageBuffer
    )
    m.decorate(variable, DecorationDescriptorSet(set)).decorate(
        variable, DecorationBinding(binding)
    )
    if name is not None:
        m.name(variable, name)
    return StorageBuffer(
        variable, block, element, m.type_pointer(StorageClass.StorageBuffer, element)
    )


def invocation_index(m: Module, component: int = 0) -> Id:
    """``gl_GlobalInvocationID[component]`` as a 32-bit unsigned value (in the current block)."""
    u32 = m.type_int(32, 0)
    v3u = m.type_vector(u32, 3)
    pointer = m.type_pointer(StorageClass.Input, v3u)
    builtin = DecorationBuiltIn(BuiltIn.GlobalInvocationId)
    found = next(
        (
            Id(i.operands[0])
            for i in m.sections["annotations"]
            if i.operands[1:2]
            and i.operands[1].__class__ is DecorationBuiltIn  # cheap first
            and i.operands[1:] == (builtin,)
        ),
        None,
    )
    if found is None:
        found = m.variable(pointer, StorageClass.Input)
        m.decorate(found, builtin)
        m.name(found, "gl_GlobalInvocationID")
    return m.composite_extract(u32, m.load(v3u, found), [component])
