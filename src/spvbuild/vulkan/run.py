"""The one-call form of a compute run: a device opened, one dispatch, the device closed."""

from __future__ import annotations

from spvbuild.vulkan.arguments import check_arguments
from spvbuild.vulkan.compute_device import ComputeDevice

__all__ = ["run_compute"]


def run_compute(
    spirv_words: list[int],
    buffers: list[bytes | bytearray],
    group_count: tuple[int, int, int],
    entry_point: str = "main",
    push_constants: bytes | None = None,
    *,
    device: str | None = None,
) -> list[bytes]:
    """Run one compute dispatch and return every buffer's contents after it.

    ``spirv_words`` is a SPIR-V module (e.g. ``Module.to_words()``) with a ``GLCompute``
    entry point named ``entry_point``.  Buffer ``i`` of ``buffers`` becomes a storage buffer
    at descriptor set 0, binding ``i``, of exactly ``len(buffers[i])`` bytes, initialised
    with those bytes.  ``group_count`` is the ``vkCmdDispatch`` workgroup count (x, y, z).
    ``push_constants``, if given, is pushed as one range at offset 0 (a multiple of 4
    bytes, at most the device's limit, 128 on lavapipe).  ``device`` chooses the device,
    as for :class:`ComputeDevice` (by default a GPU if there is one, else lavapipe).

    Returns one ``bytes`` per buffer, in order, read after the dispatch finished.

    Raises :class:`VulkanUnavailable` when the ``vulkan`` module, the Vulkan loader or a
    driver is missing (the message says how to install it) or no device is the one asked
    for and :class:`VulkanError` for
    unusable arguments or a failing Vulkan call.  Creates and destroys its own instance and
    device; use :class:`ComputeDevice` to reuse one across runs.
    """
    check_arguments(spirv_words, buffers, group_count, entry_point, push_constants)
    with ComputeDevice(device) as chosen:
        return chosen.run(spirv_words, buffers, group_count, entry_point, push_constants)
