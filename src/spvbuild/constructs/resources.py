"""Shader resources in one call each: uniform, storage and push-constant blocks, sampled
and storage images, textures and samplers apart (WebGPU's way), with their storage class,
layout, set, binding and access.

An ``access`` of ``"read_only"`` decorates the variable NonWritable and ``"write_only"``
NonReadable (glslang's ``readonly`` / ``writeonly``); ``"read_write"`` adds neither.  WebGPU
(``Module(target_env="webgpu")``) takes a read-write storage image only of the r32 formats.

A block is a :class:`~spvbuild.constructs.layouts.Struct` declared with its layout
(:func:`~spvbuild.constructs.blocks.declare_struct`) behind a variable of the right
storage class; the :class:`BlockVariable` it gives makes pointers to members by name
(``params.member(m, "tint")``, ``data.member(m, "values", i)``).  A set or binding that
is no non-negative 32-bit int is an :class:`~spvbuild.errors.EncodeError` at the call, as
for any decoration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from spvbuild.constructs.blocks import DeclaredStruct, declare_struct
from spvbuild.constructs.layouts import STD140, STD430, Rule, Scalar, Struct, f32
from spvbuild.constructs.values import access_chain, load, pointee, type_of
from spvbuild.errors import ArgumentError
from spvbuild.generated.core.enums import (
    Decoration,
    DecorationBinding,
    DecorationDescriptorSet,
    DecorationLocation,
    Dim,
    ImageFormat,
    StorageClass,
)
from spvbuild.ir.module import Module
from spvbuild.spirv.arguments import shown
from spvbuild.spirv.call_site import located
from spvbuild.spirv.ids import Id, TypeId

__all__ = [
    "Access",
    "BlockVariable",
    "combined",
    "input_variable",
    "output_variable",
    "push_constant_block",
    "sampled_image",
    "sampler",
    "storage_block",
    "storage_image",
    "texture",
    "uniform_block",
]

Access = Literal["read_write", "read_only", "write_only"]
"""A storage block's or storage image's access: ``read_only`` decorates its variable
NonWritable, ``write_only`` NonReadable (glslang's ``readonly`` / ``writeonly``)."""

_ACCESS_DECORATIONS: dict[
    str, tuple[Literal[Decoration.NonWritable, Decoration.NonReadable], ...]
] = {
    "read_write": (),
    "read_only": (Decoration.NonWritable,),
    "write_only": (Decoration.NonReadable,),
}


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


def _access(m: Module, function: str, variable: Id, access: object) -> None:
    """Decorate ``variable`` for ``access`` (see :data:`Access`); ArgumentError for a
    value that is none."""
    decorations = _ACCESS_DECORATIONS.get(access) if isinstance(access, str) else None
    if decorations is None:
        raise ArgumentError(
            located(
                f"{function}: access must be 'read_write', 'read_only' or 'write_only', not "
                f"{shown(access)}"
            )
        )
    for decoration in decorations:
        m.decorate(variable, decoration)


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
    access: Access = "read_write",
) -> BlockVariable:
    """``layout(std430, set, binding) buffer Struct { ... } name;`` (the StorageBuffer
    storage class); ``access="read_only"`` is ``readonly buffer`` (the variable decorated
    NonWritable), ``"write_only"`` ``writeonly buffer`` (NonReadable; WebGPU has no
    write-only storage buffer: refused under ``target_env="webgpu"``, rule
    ``no-write-only-storage-buffer``)."""
    if not isinstance(access, str) or access not in _ACCESS_DECORATIONS:
        _access(m, "storage_block", Id(0), access)  # (the ArgumentError, before any call)
    block = _block(m, struct, rule, StorageClass.StorageBuffer, name)
    _bind(m, block.variable, set, binding)
    _access(m, "storage_block", block.variable, access)
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
    access: Access = "read_write",
) -> Id:
    """``layout(format, set, binding) uniform image2D name;``: a UniformConstant variable
    of a storage image (``sampled`` 2) of ``format``; ``access="read_only"`` is
    ``readonly image2D`` (NonWritable), ``"write_only"`` ``writeonly image2D``
    (NonReadable).  WebGPU takes read-write access only for the R32f, R32i and R32ui
    formats."""
    if not isinstance(access, str) or access not in _ACCESS_DECORATIONS:
        _access(m, "storage_image", Id(0), access)  # (the ArgumentError, before any call)
    image = _image_type(m, sampled_type, dim, 2, format)
    variable = m.variable(
        m.type_pointer(StorageClass.UniformConstant, image), StorageClass.UniformConstant
    )
    _bind(m, variable, set, binding)
    _access(m, "storage_image", variable, access)
    if name is not None:
        m.name(variable, name)
    return variable


def _uniform_constant(m: Module, type: TypeId, set: int, binding: int, name: str | None) -> Id:
    variable = m.variable(
        m.type_pointer(StorageClass.UniformConstant, type), StorageClass.UniformConstant
    )
    _bind(m, variable, set, binding)
    if name is not None:
        m.name(variable, name)
    return variable


def texture(
    m: Module,
    set: int = 0,
    binding: int = 0,
    dim: Dim = Dim.Dim2D,
    sampled_type: Scalar = f32,
    name: str | None = None,
) -> Id:
    """``layout(set, binding) uniform texture2D name;``: a UniformConstant variable of an
    OpTypeImage sampled with a sampler (``sampled`` 1), without one: WebGPU's
    ``texture_2d<f32>``, which :func:`combined` joins with a :func:`sampler` to sample."""
    return _uniform_constant(
        m, _image_type(m, sampled_type, dim, 1, ImageFormat.Unknown), set, binding, name
    )


def sampler(m: Module, set: int = 0, binding: int = 0, name: str | None = None) -> Id:
    """``layout(set, binding) uniform sampler name;``: a UniformConstant variable of
    OpTypeSampler (WebGPU's ``sampler``)."""
    return _uniform_constant(m, m.type_sampler(), set, binding, name)


def combined(m: Module, texture: Id, sampler: Id) -> Id:
    """``sampler2D(texture, sampler)`` in a function: the texture and the sampler loaded
    and joined by OpSampledImage, a value to sample with (``image_sample_implicit_lod``,
    ...).  BuildError when ``texture`` is no variable of an image type."""
    _, image = pointee(m, type_of(m, texture))
    return m.sampled_image(m.type_sampled_image(image), load(m, texture), load(m, sampler))


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
