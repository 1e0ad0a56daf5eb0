"""The Vulkan runner's errors, the install hints they give, and the one door through which
a Vulkan call's error becomes a :class:`VulkanError`."""

from __future__ import annotations

from typing import Any

from spvbuild.errors import SpvbuildError

__all__ = ["VulkanError", "VulkanUnavailable"]

INSTALL_SYSTEM = "apt-get install mesa-vulkan-drivers libvulkan1 (or: make system-deps)"
INSTALL_PYTHON = "pip install vulkan (or: make venv, which installs spvbuild's dev extras)"


class VulkanUnavailable(SpvbuildError):
    """Vulkan cannot be used here: the ``vulkan`` module, the loader or a driver is missing,
    or no device is the one asked for (the message then lists the devices seen).

    The message names what is missing and how to install it, e.g. ``the Vulkan loader
    (libvulkan.so.1) is not installed: apt-get install mesa-vulkan-drivers libvulkan1``.
    """


class VulkanError(SpvbuildError):
    """A compute run that could not be done.

    Either the arguments are unusable (no buffers, an empty buffer, a push-constant block
    that is not a multiple of 4 bytes, ...) or a Vulkan call failed; the message names the
    call and Vulkan's error (``vkCreateComputePipelines failed: VkErrorUnknown``).
    """


def vk_call(vk: Any, function: str, *args: Any) -> Any:
    """Call ``vk.<function>(*args)``; a Vulkan error becomes a :class:`VulkanError`."""
    try:
        return getattr(vk, function)(*args)
    except vk.VkError as exc:
        raise VulkanError(f"{function} failed: {type(exc).__name__}") from None
