"""Shader resources in one call each: uniform, storage and push-constant blocks, sampled
and storage images, with their storage class, layout, set and binding.

A block is a :class:`~spvbuild.constructs.layouts.Struct` declared with its layout
(:func:`~spvbuild.constructs.blocks.declare_struct`) behind a variable of the right
storage class; the :class:`BlockVariable` it gives makes pointers to members by name
(``params.member(m, "tint")``, ``data.member(m, "values", i)``).  A set or binding that
is no non-negative 32-bit int is an :class:`~spvbuild.errors.EncodeError` at the call, as
for any decoration.
"""

from __future__ import annotations

from dataclasses import dataclass

from spvbuild.constructs.blocks import DeclaredStruct, declare_struct
from spvbuild.constructs.layouts import STD140, STD430, Rule, Scalar, Struct, f32
from spvbuild.constructs.values import access_chain
from spvbuild.generated.core.enums import (
    DecorationBinding,
    DecorationDescriptorSet,
    DecorationLocation,
    Dim,
    ImageFormat,
    StorageClass,
)
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id, TypeId

__all__ = [
    "BlockVariable",
    "input_variable",
    "output_variable",
    "push_constant_block",
    "sampled_image",
    "storage_block",
    "storage_image",
    "uniform_block",
]


@dataclass(frozen=True)
class BlockVariable:
    """A block's variable, its declared struct and its storage class."""

    variable: Id
    declared: DeclaredStruct
    storage: StorageClass

    def member(self, m: Module, name: str, *indices: Id | int) -> Id:
        """A pointer to the member ``name`` (then into it by ``indices``: array elements,
        vector components, nested members by position)."""
        return access_chain(m, self.variable, [self.declared.index(name), *indices])


def _bind(m: Module, variable: Id, set: int, binding: int) -> None:
    m.decorate(variable, DecorationDescriptorSet(set)).decorate(
        variable, DecorationBinding(binding)
    )


def _block(
    m: Module, struct: Struct, rule: Rule, storage: StorageClass, name: str | None
) -> BlockVariable:
    declared = declare_struct(m, struct, rule)
    variable = m.variable(m.type_pointer(storage, declared.type), storage)
    if name is not None:
        m.name(variable, name)
    return BlockVariable(variable, declared, storage)


def uniform_block(
    m: Module,
    struct: Struct,
    set: int = 0,
    binding: int = 0,
    rule: Rule = STD140,
    name: str | None = None,
) -> BlockVariable:
    """``layout(std140, set, binding) uniform Struct { ... } name;``"""
    block = _block(m, struct, rule, StorageClass.Uniform, name)
    _bind(m, block.variable, set, binding)
    return block


def storage_block(
    m: Module,
    struct: Struct,
    set: int = 0,
    binding: int = 0,
    rule: Rule = STD430,
    name: str | None = None,
) -> BlockVariable:
    """``layout(std430, set, binding) buffer Struct { ... } name;`` (the StorageBuffer
    storage class)."""
    block = _block(m, struct, rule, StorageClass.StorageBuffer, name)
    _bind(m, block.variable, set, binding)
    return block


def push_constant_block(
    m: Module, struct: Struct, rule: Rule = STD430, name: str | None = None
) -> BlockVariable:
    """``layout(push_constant, std430) uniform Struct { ... } name;``"""
    return _block(m, struct, rule, StorageClass.PushConstant, name)


def _image_type(
    m: Module, sampled_type: Scalar, dim: Dim, sampled: int, format: ImageFormat
) -> TypeId:
    if sampled_type.kind == "float":
        component = m.type_float(sampled_type.width)
    else:
        component = m.type_int(sampled_type.width, 1 if sampled_type.kind == "sint" else 0)
    return m.type_image(component, dim, 0, 0, 0, sampled, format)


def sampled_image(
    m: Module,
    set: int = 0,
    binding: int = 0,
    dim: Dim = Dim.Dim2D,
    sampled_type: Scalar = f32,
    name: str | None = None,
) -> Id:
    """``layout(set, binding) uniform sampler2D name;``: a UniformConstant variable of an
    OpTypeSampledImage (``dim``, sampled as ``sampled_type``)."""
    image = m.type_sampled_image(_image_type(m, sampled_type, dim, 1, ImageFormat.Unknown))
    variable = m.variable(
        m.type_pointer(StorageClass.UniformConstant, image), StorageClass.UniformConstant
    )
    _bind(m, variable, set, binding)
    if name is not None:
        m.name(variable, name)
    return variable


def storage_image(
    m: Module,
    format: ImageFormat,
    set: int = 0,
    binding: int = 0,
    dim: Dim = Dim.Dim2D,
    sampled_type: Scalar = f32,
    name: str | None = None,
) -> Id:
    """``layout(format, set, binding) uniform image2D name;``: a UniformConstant variable
    of a storage image (``sampled`` 2) of ``format``."""
    image = _image_type(m, sampled_type, dim, 2, format)
    variable = m.variable(
        m.type_pointer(StorageClass.UniformConstant, image), StorageClass.UniformConstant
    )
    _bind(m, variable, set, binding)
    if name is not None:
        m.name(variable, name)
    return variable


def _located(m: Module, storage: StorageClass, type: TypeId, location: int, name: str | None) -> Id:
    variable = m.variable(m.type_pointer(storage, type), storage)
    m.decorate(variable, DecorationLocation(location))
    if name is not None:
        m.name(variable, name)
    return variable


def input_variable(m: Module, type: TypeId, location: int, name: str | None = None) -> Id:
    """``layout(location) in T name;``: an Input variable (entry points list it)."""
    return _located(m, StorageClass.Input, type, location, name)


def output_variable(m: Module, type: TypeId, location: int, name: str | None = None) -> Id:
    """``layout(location) out T name;``: an Output variable (entry points list it)."""
    return _located(m, StorageClass.Output, type, location, name)
