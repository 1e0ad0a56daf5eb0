"""Where a compute run's buffers and push constants go, as the module declares them.

:func:`plan_bindings` reflects the module (:func:`spvbuild.reflect`) and gives each buffer
its descriptor set, binding and descriptor type (a uniform buffer where the module declares
a uniform block there, a storage buffer otherwise), the number of descriptor sets the
pipeline layout needs, and the push-constant range of the entry point's push-constant
block.  Everything a dispatch cannot bind is a :class:`VulkanError` before any Vulkan object
is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from spvbuild.errors import SpvbuildError
from spvbuild.reflection import reflect
from spvbuild.vulkan.errors import VulkanError

__all__ = ["BindingPlan", "BufferSlot", "plan_bindings"]

BufferKind = Literal["uniform_buffer", "storage_buffer"]


class BufferSlot(NamedTuple):
    """Where one buffer is bound."""

    set: int
    binding: int
    kind: BufferKind


class BindingPlan(NamedTuple):
    """A dispatch's bindings: one slot per buffer, in order, the sets and the push range."""

    slots: tuple[BufferSlot, ...]
    set_count: int
    """Descriptor sets the pipeline layout has (0 to the highest set used)."""
    push_range: tuple[int, int] | None
    """The push-constant range (offset, size), or ``None`` without push constants."""


def _pairs(count: int, bindings: Sequence[tuple[int, int]] | None) -> list[tuple[int, int]]:
    if bindings is None:
        return [(0, index) for index in range(count)]
    pairs = [tuple(pair) for pair in bindings]
    if len(pairs) != count or any(
        len(pair) != 2 or any(not isinstance(v, int) or v < 0 for v in pair) for pair in pairs
    ):
        raise VulkanError(
            f"bindings must give one (set, binding) pair of ints >= 0 per buffer ({count}), "
            f"not {bindings!r}"
        )
    if len(set(pairs)) != len(pairs):
        raise VulkanError(f"bindings names a (set, binding) pair twice: {bindings!r}")
    return [(pair[0], pair[1]) for pair in pairs]


def plan_bindings(
    spirv_words: Sequence[int],
    buffer_count: int,
    bindings: Sequence[tuple[int, int]] | None,
    entry_point: str,
    push_constants: bytes | None,
) -> BindingPlan:
    """Buffer ``i`` at ``bindings[i]`` (default: set 0, binding ``i``), typed as the module
    declares it there; the entry point's push-constant range.

    VulkanError when the module does not reflect, declares something other than a buffer at
    a pair given, uses a binding no buffer is given for, or uses a push-constant block that
    ``push_constants`` does not cover (the bytes are the block's from offset 0, as
    :func:`spvbuild.reflection.block_dtype` packs them).
    """
    pairs = _pairs(buffer_count, bindings)
    try:
        reflection = reflect(list(spirv_words))
    except SpvbuildError as exc:
        raise VulkanError(f"the module does not reflect: {exc}") from None
    point = reflection.entry_point(entry_point)
    declared = {(b.set, b.binding): b for b in reflection.descriptor_bindings}
    slots = []
    for pair in pairs:
        found = declared.get(pair)
        kind: BufferKind = "storage_buffer"
        if found is not None:
            if found.descriptor_type not in ("uniform_buffer", "storage_buffer"):
                raise VulkanError(
                    f"set {pair[0]}, binding {pair[1]} ({found.name!r}) is a "
                    f"{found.descriptor_type} in the module, not a buffer"
                )
            kind = "uniform_buffer" if found.descriptor_type == "uniform_buffer" else kind
        slots.append(BufferSlot(pair[0], pair[1], kind))
    missing = [p for p in point.bindings if p not in pairs]
    if missing:
        names = ", ".join(
            f"set {s}, binding {b} ({declared[s, b].descriptor_type} {declared[s, b].name!r})"
            for s, b in missing
        )
        raise VulkanError(f"{entry_point!r} uses {names}, but no buffer is given for it")
    push_range = None
    if push_constants is not None:
        push_range = (0, len(push_constants))
    blocks = [p for p in reflection.push_constants if p.variable_id in point.push_constants]
    if blocks:
        block = blocks[0]
        end = block.offset + block.size
        if push_constants is None or len(push_constants) < end:
            given = "none" if push_constants is None else f"{len(push_constants)} bytes"
            raise VulkanError(
                f"{entry_point!r} uses the push-constant block {block.block.name!r}, bytes "
                f"{block.offset} to {end}; push_constants gives {given}"
            )
        start = block.offset - block.offset % 4
        push_range = (start, len(push_constants) - start)
    set_count = max((s for s, _ in pairs), default=-1) + 1
    return BindingPlan(tuple(slots), set_count, push_range)
