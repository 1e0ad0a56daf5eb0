"""Descriptor-set layouts from reflection: what ``vkCreateDescriptorSetLayout`` and WebGPU's
``createBindGroupLayout`` take, one plain record per set and per binding.

:func:`descriptor_set_layouts` groups a module's descriptor bindings by set: each
:class:`LayoutBinding` has the Vulkan descriptor type (name and ``VK_DESCRIPTOR_TYPE_*``
value), the descriptor count, the stages whose entry points use it statically (names and
``VkShaderStageFlags``), and where WebGPU can express it, the WebGPU binding
(:class:`WebGPUBinding`: buffer, sampler, texture or storage texture, with the minimum
binding size of a buffer) and visibility.  :meth:`SetLayout.vulkan_bindings` and
:meth:`SetLayout.webgpu_entries` write them as the dicts the two APIs' Python bindings
take (PyPI's ``vulkan``: ``VkDescriptorSetLayoutBinding(**entry)``; wgpu-py:
``device.create_bind_group_layout(entries=...)``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from spvbuild.errors import ReflectionError
from spvbuild.reflection.host import min_binding_size
from spvbuild.reflection.records import DescriptorBinding, DescriptorType, Reflection

__all__ = [
    "VK_DESCRIPTOR_TYPES",
    "VK_SHADER_STAGES",
    "WEBGPU_STAGES",
    "LayoutBinding",
    "SetLayout",
    "WebGPUBinding",
    "descriptor_set_layouts",
]

VK_DESCRIPTOR_TYPES: dict[str, int] = {
    "sampler": 0,
    "combined_image_sampler": 1,
    "sampled_image": 2,
    "storage_image": 3,
    "uniform_texel_buffer": 4,
    "storage_texel_buffer": 5,
    "uniform_buffer": 6,
    "storage_buffer": 7,
    "input_attachment": 10,
    "acceleration_structure": 1000150000,
}
"""Each descriptor type's ``VkDescriptorType`` value (the Vulkan specification's enum)."""

VK_SHADER_STAGES: dict[str, int] = {
    "vert": 0x1,
    "tesc": 0x2,
    "tese": 0x4,
    "geom": 0x8,
    "frag": 0x10,
    "comp": 0x20,
    "task": 0x40,
    "mesh": 0x80,
    "rgen": 0x100,
    "rahit": 0x200,
    "rchit": 0x400,
    "rmiss": 0x800,
    "rint": 0x1000,
    "rcall": 0x2000,
}
"""Each stage's ``VkShaderStageFlagBits`` value (``task``/``mesh``: the EXT bits)."""

WEBGPU_STAGES: dict[str, int] = {"vert": 0x1, "frag": 0x2, "comp": 0x4}
"""Each stage WebGPU has and its ``GPUShaderStage`` bit."""

_VIEW_DIMENSIONS = {
    ("Dim1D", False): "1d",
    ("Dim2D", False): "2d",
    ("Dim2D", True): "2d-array",
    ("Dim3D", False): "3d",
    ("Cube", False): "cube",
    ("Cube", True): "cube-array",
}
# SPIR-V ImageFormat → the WebGPU texture format of a storage texture.
_WEBGPU_FORMATS = {
    "Rgba32f": "rgba32float",
    "Rgba16f": "rgba16float",
    "R32f": "r32float",
    "Rg32f": "rg32float",
    "Rgba8": "rgba8unorm",
    "Rgba8Snorm": "rgba8snorm",
    "Rgba32i": "rgba32sint",
    "Rgba16i": "rgba16sint",
    "Rgba8i": "rgba8sint",
    "R32i": "r32sint",
    "Rg32i": "rg32sint",
    "Rgba32ui": "rgba32uint",
    "Rgba16ui": "rgba16uint",
    "Rgba8ui": "rgba8uint",
    "R32ui": "r32uint",
    "Rg32ui": "rg32uint",
}
_SAMPLE_TYPES = {"float": "float", "int": "sint", "uint": "uint"}


@dataclass(frozen=True, slots=True)
class WebGPUBinding:
    """How a binding is declared in a WebGPU bind group layout entry."""

    resource: Literal["buffer", "sampler", "texture", "storageTexture"]
    """Which member of ``GPUBindGroupLayoutEntry`` describes it."""
    type: str
    """For a buffer its ``type`` (``uniform``, ``storage``, ``read-only-storage``: a storage
    block that is NonWritable); for a sampler its ``type`` (``filtering``: SPIR-V does not
    say whether a sampler compares); for a texture its ``sampleType`` (``float``, ``sint``,
    ``uint``, ``depth``); for a storage texture its ``access`` (``read-only`` when
    NonWritable, ``write-only`` when NonReadable, else ``read-write``)."""
    view_dimension: str | None = None
    """A texture's or storage texture's ``viewDimension`` (``2d``, ``2d-array``, ``cube``, ...)."""
    multisampled: bool = False
    format: str | None = None
    """A storage texture's format (``rgba8unorm``, ``r32float``, ...); ``None`` when the
    image's format is ``Unknown`` or has no WebGPU counterpart."""
    min_binding_size: int | None = None
    """A buffer's minimum binding size (:func:`~spvbuild.reflection.host.min_binding_size`)."""


@dataclass(frozen=True, slots=True)
class LayoutBinding:
    """One binding of a descriptor-set layout."""

    binding: int
    name: str
    """The variable's debug name (the first, when several variables share the binding)."""
    descriptor_type: DescriptorType
    vk_descriptor_type: int
    """The ``VkDescriptorType`` value."""
    descriptor_count: int
    """How many descriptors: 1, or the length of an array of resources (its dimensions
    multiplied); 0 for a runtime-sized array, whose count the application chooses."""
    stages: tuple[str, ...]
    """The stages (``comp``, ``frag``, ...) of the entry points that use it statically."""
    vk_stage_flags: int
    """Those stages as ``VkShaderStageFlags``."""
    webgpu: WebGPUBinding | None
    """The WebGPU binding, ``None`` where WebGPU has none (combined image samplers, texel
    buffers, input attachments, acceleration structures, arrays of resources)."""
    webgpu_visibility: int
    """The stages WebGPU has as ``GPUShaderStage`` bits."""

    def vulkan(self) -> dict[str, int]:
        """The ``VkDescriptorSetLayoutBinding`` fields: ``binding``, ``descriptorType``,
        ``descriptorCount``, ``stageFlags``."""
        return {
            "binding": self.binding,
            "descriptorType": self.vk_descriptor_type,
            "descriptorCount": self.descriptor_count,
            "stageFlags": self.vk_stage_flags,
        }

    def webgpu_entry(self) -> dict[str, Any] | None:
        """The ``GPUBindGroupLayoutEntry`` as wgpu-py takes it (snake_case keys), or
        ``None`` where WebGPU has no such binding."""
        found = self.webgpu
        if found is None:
            return None
        body: dict[str, Any]
        if found.resource == "buffer":
            body = {"type": found.type, "has_dynamic_offset": False}
            body["min_binding_size"] = found.min_binding_size or 0
            key = "buffer"
        elif found.resource == "sampler":
            body, key = {"type": found.type}, "sampler"
        elif found.resource == "texture":
            body = {
                "sample_type": found.type,
                "view_dimension": found.view_dimension,
                "multisampled": found.multisampled,
            }
            key = "texture"
        else:
            body = {"access": found.type, "view_dimension": found.view_dimension}
            if found.format is not None:
                body["format"] = found.format
            key = "storage_texture"
        return {"binding": self.binding, "visibility": self.webgpu_visibility, key: body}


@dataclass(frozen=True, slots=True)
class SetLayout:
    """The bindings of one descriptor set (bind group), sorted by binding."""

    number: int
    """The set's number (``set = n`` in GLSL; its index in the tuple of layouts)."""
    bindings: tuple[LayoutBinding, ...]

    def vulkan_bindings(self) -> list[dict[str, int]]:
        """Each binding's :meth:`LayoutBinding.vulkan` (``pBindings`` of
        ``VkDescriptorSetLayoutCreateInfo``)."""
        return [b.vulkan() for b in self.bindings]

    def webgpu_entries(self) -> list[dict[str, Any]]:
        """Each binding's :meth:`LayoutBinding.webgpu_entry` (``entries`` of
        ``createBindGroupLayout``); ReflectionError naming a binding WebGPU cannot take."""
        entries = []
        for found in self.bindings:
            entry = found.webgpu_entry()
            if entry is None:
                raise ReflectionError(
                    f"set {self.number}, binding {found.binding} ({found.name!r}): WebGPU has no "
                    f"{found.descriptor_type} binding"
                    + (" array" if found.descriptor_count != 1 else "")
                )
            entries.append(entry)
        return entries


def _webgpu(binding: DescriptorBinding) -> WebGPUBinding | None:
    if binding.dimensions:
        return None
    kind = binding.descriptor_type
    if kind == "uniform_buffer" or kind == "storage_buffer":
        assert binding.block is not None
        if kind == "uniform_buffer":
            buffer_type = "uniform"
        else:
            buffer_type = "read-only-storage" if binding.readonly else "storage"
        return WebGPUBinding("buffer", buffer_type, min_binding_size=min_binding_size(binding))
    if kind == "sampler":
        return WebGPUBinding("sampler", "filtering")
    image = binding.image
    if image is None or kind not in ("sampled_image", "storage_image"):
        return None
    view = _VIEW_DIMENSIONS.get((image.dim, image.arrayed))
    if view is None:
        return None
    if kind == "sampled_image":
        sample = "depth" if image.depth == 1 else _SAMPLE_TYPES.get(image.sampled_type)
        if sample is None:
            return None
        return WebGPUBinding("texture", sample, view, image.multisampled)
    access = "read-write"
    if binding.readonly:
        access = "read-only"
    elif binding.writeonly:
        access = "write-only"
    return WebGPUBinding("storageTexture", access, view, False, _WEBGPU_FORMATS.get(image.format))


def _count(binding: DescriptorBinding) -> int:
    count = 1
    for dimension in binding.dimensions:
        count *= dimension.length or 0
    return count


def descriptor_set_layouts(
    reflection: Reflection, entry_point: str | None = None
) -> tuple[SetLayout, ...]:
    """The descriptor-set layouts of ``reflection`` (from :func:`spvbuild.reflect`), one per
    set from 0 to the highest set used, at the index of its set (a set no binding uses has
    no bindings: a pipeline layout still needs it).

    Without ``entry_point`` every descriptor binding of the module is in, each visible to
    the stages of the entry points that use it statically; with it, only the bindings that
    entry point uses, visible to its stage (KeyError when the module has no such entry
    point).  Variables that share a binding (aliases) are one binding, of the largest
    minimum size; ReflectionError when they are of different descriptor types.
    """
    points = reflection.entry_points
    if entry_point is not None:
        points = (reflection.entry_point(entry_point),)
    users: dict[tuple[int, int], set[str]] = {}
    for point in points:
        for pair in point.bindings:
            users.setdefault(pair, set()).add(point.stage)
    merged: dict[tuple[int, int], LayoutBinding] = {}
    for found in reflection.descriptor_bindings:
        pair = (found.set, found.binding)
        if entry_point is not None and pair not in users:
            continue
        stages = tuple(sorted(users.get(pair, ()), key=list(VK_SHADER_STAGES).index))
        made = LayoutBinding(
            binding=found.binding,
            name=found.name,
            descriptor_type=found.descriptor_type,
            vk_descriptor_type=VK_DESCRIPTOR_TYPES[found.descriptor_type],
            descriptor_count=_count(found),
            stages=stages,
            vk_stage_flags=_flags(stages, VK_SHADER_STAGES),
            webgpu=_webgpu(found),
            webgpu_visibility=_flags(stages, WEBGPU_STAGES),
        )
        before = merged.get(pair)
        if before is not None:
            made = _merge(before, made, pair)
        merged[pair] = made
    top = max((s for s, _ in merged), default=-1)
    return tuple(
        SetLayout(index, tuple(merged[p] for p in sorted(merged) if p[0] == index))
        for index in range(top + 1)
    )


def _flags(stages: tuple[str, ...], bits: dict[str, int]) -> int:
    flags = 0
    for stage in stages:
        flags |= bits.get(stage, 0)
    return flags


def _merge(before: LayoutBinding, made: LayoutBinding, pair: tuple[int, int]) -> LayoutBinding:
    if before.descriptor_type != made.descriptor_type:
        raise ReflectionError(
            f"set {pair[0]}, binding {pair[1]}: variables {before.name!r} and {made.name!r} "
            f"share it as a {before.descriptor_type} and a {made.descriptor_type}"
        )
    web, other = before.webgpu, made.webgpu
    if web is not None and other is not None and web.min_binding_size is not None:
        size = max(web.min_binding_size, other.min_binding_size or 0)
        web = dataclasses.replace(web, min_binding_size=size)
    return LayoutBinding(
        before.binding,
        before.name,
        before.descriptor_type,
        before.vk_descriptor_type,
        max(before.descriptor_count, made.descriptor_count),
        before.stages,
        before.vk_stage_flags,
        web,
        before.webgpu_visibility,
    )
