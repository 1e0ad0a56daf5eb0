"""The one-call form of a compute run: a device opened, one dispatch, the device closed."""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild.vulkan.arguments import check_arguments
from spvbuild.vulkan.bindings import plan_bindings
from spvbuild.vulkan.compute_device import ComputeDevice

__all__ = ["run_compute"]


def run_compute(
    spirv_words: list[int],
    buffers: list[bytes | bytearray],
    group_count: tuple[int, int, int],
    entry_point: str = "main",
    push_constants: bytes | None = None,
    *,
    bindings: Sequence[tuple[int, int]] | None = None,
    device: str | None = None,
) -> list[bytes]:
    """Run one compute dispatch and return every buffer's contents after it.

    ``spirv_words`` is a SPIR-V module (e.g. ``Module.to_words()``) with a ``GLCompute``
    entry point named ``entry_point``.  Buffer ``i`` of ``buffers`` is bound at
    ``bindings[i]``, a (set, binding) pair (without ``bindings``: set 0, binding ``i``), of
    exactly ``len(buffers[i])`` bytes, initialised with those bytes; it is a uniform buffer
    where the module declares a uniform block at that pair, else a storage buffer (the
    module is reflected, :func:`spvbuild.reflect`).  Every binding the entry point uses must
    get a buffer.  ``group_count`` is the ``vkCmdDispatch`` workgroup count (x, y, z).
    ``push_constants``, if given, are the bytes of the module's push-constant block from
    offset 0 (as :func:`spvbuild.reflection.block_dtype` packs them; a multiple of 4 bytes,
    at most the device's limit, 128 on lavapipe); the range pushed starts at the block's
    first member, as the module declares it, and must reach the block's end.  ``device``
    chooses the device, as for :class:`ComputeDevice` (by default a GPU if there is one,
    else lavapipe).

    Returns one ``bytes`` per buffer, in order, read after the dispatch finished.

    Raises :class:`VulkanUnavailable` when the ``vulkan`` module, the Vulkan loader or a
    driver is missing (the message says how to install it) or no device is the one asked
    for and :class:`VulkanError` for
    unusable arguments or a failing Vulkan call.  Creates and destroys its own instance and
    device; use :class:`ComputeDevice` to reuse one across runs.
    """
    check_arguments(spirv_words, buffers, group_count, entry_point, push_constants)
    plan_bindings(spirv_words, len(buffers), bindings, entry_point, push_constants)
    with ComputeDevice(device) as chosen:
        return chosen.run(
            spirv_words, buffers, group_count, entry_point, push_constants, bindings=bindings
        )
