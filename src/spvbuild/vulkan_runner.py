"""Run a SPIR-V compute shader on a Vulkan device (a GPU, or lavapipe): the names of
:mod:`spvbuild.vulkan`, where the runner lives and is documented, under their first home::

    from spvbuild.vulkan_runner import run_compute

Importing it loads neither PyPI's ``vulkan`` binding nor the Vulkan loader.
"""

from __future__ import annotations

from spvbuild.vulkan.compute_device import ComputeDevice
from spvbuild.vulkan.devices import (
    DEVICE_ENV,
    DeviceInfo,
    DeviceProperties,
    choose_device,
    list_devices,
)
from spvbuild.vulkan.errors import VulkanError, VulkanUnavailable
from spvbuild.vulkan.loader import find_lavapipe_icd
from spvbuild.vulkan.run import run_compute

__all__ = [
    "DEVICE_ENV",
    "ComputeDevice",
    "DeviceInfo",
    "DeviceProperties",
    "VulkanError",
    "VulkanUnavailable",
    "choose_device",
    "find_lavapipe_icd",
    "list_devices",
    "run_compute",
]
