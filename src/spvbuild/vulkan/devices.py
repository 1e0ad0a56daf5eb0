"""What Vulkan devices there are, which one a choice names, and the records that describe them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from spvbuild.vulkan.errors import VulkanError, VulkanUnavailable
from spvbuild.vulkan.loader import create_instance, instance_version, load_vulkan, physical_devices

__all__ = ["DEVICE_ENV", "DeviceInfo", "DeviceProperties", "choose_device", "list_devices"]

DEVICE_ENV = "SPVBUILD_VULKAN_DEVICE"
"""Environment variable: the device :class:`~spvbuild.vulkan.ComputeDevice` chooses when not
told (``auto``, ``gpu``, ``lavapipe`` or part of a device's name; see :mod:`spvbuild.vulkan`)."""


def version_text(version: int) -> str:
    """``"1.3.230"`` for a packed Vulkan version."""
    return f"{version >> 22}.{(version >> 12) & 0x3FF}.{version & 0xFFF}"


# -- what devices there are --------------------------------------------------------------------

_DEVICE_KINDS = {0: "other", 1: "integrated-gpu", 2: "discrete-gpu", 3: "virtual-gpu", 4: "cpu"}
_GPU_ORDER = ("discrete-gpu", "integrated-gpu", "virtual-gpu")  # what "gpu" and "auto" prefer


class DeviceInfo(NamedTuple):
    """A physical device the Vulkan loader sees (see :func:`list_devices`)."""

    name: str  #: ``"llvmpipe (LLVM 15.0.6, 256 bits)"``, ``"NVIDIA H100 80GB HBM3"``
    kind: (
        str  #: ``"discrete-gpu"``, ``"integrated-gpu"``, ``"virtual-gpu"``, ``"cpu"``, ``"other"``
    )
    vendor_id: int  #: PCI vendor id (0x10DE NVIDIA, 0x1002 AMD, 0x8086 Intel, 0x10005 Mesa)
    vulkan_version: str  #: the device's Vulkan version, ``"1.3.230"``

    @property
    def is_lavapipe(self) -> bool:
        """True for Mesa's CPU driver (a CPU device named ``llvmpipe ...``)."""
        return self.kind == "cpu" and "llvmpipe" in self.name


@dataclass(frozen=True)
class DeviceProperties:
    """The chosen device's name, kind, limits and enabled features (``ComputeDevice.properties``)."""

    info: DeviceInfo
    subgroup_size: int  #: invocations per subgroup (``VkPhysicalDeviceSubgroupProperties``)
    max_workgroup_size: tuple[int, int, int]  #: ``maxComputeWorkGroupSize``
    max_workgroup_invocations: int  #: ``maxComputeWorkGroupInvocations``
    max_workgroup_count: tuple[int, int, int]  #: ``maxComputeWorkGroupCount``
    max_shared_memory_size: int  #: ``maxComputeSharedMemorySize`` (bytes)
    max_push_constants_size: int  #: ``maxPushConstantsSize`` (bytes)
    max_storage_buffer_range: int  #: ``maxStorageBufferRange`` (bytes)
    features: frozenset[str]  #: the enabled features, by Vulkan name (``shaderInt64``, ...)


def device_choice(device: str | None) -> str:
    """The device asked for: ``device``, else ``$SPVBUILD_VULKAN_DEVICE``, else ``"auto"``."""
    if device is None:
        device = os.environ.get(DEVICE_ENV, "").strip() or "auto"
    if not isinstance(device, str) or not device.strip():
        raise VulkanError(
            f"device must be 'auto', 'gpu', 'lavapipe' or part of a device's name, not {device!r}"
        )
    return device.strip()


def choose_device(devices: Sequence[DeviceInfo], choice: str) -> DeviceInfo | None:
    """The device of ``devices`` that ``choice`` names (``"auto"``, ``"gpu"``,
    ``"lavapipe"`` or part of a name, see the module's docstring), None when there is none.

    Raises :class:`VulkanUnavailable` when a name part matches several devices.
    """
    index = chosen_index(devices, choice)
    return None if index is None else devices[index]


def chosen_index(devices: Sequence[DeviceInfo], choice: str) -> int | None:
    """The index in ``devices`` of the one ``choice`` names (see :func:`choose_device`)."""
    key = choice.lower()
    if key in ("auto", "gpu"):
        for kind in _GPU_ORDER:
            for index, info in enumerate(devices):
                if info.kind == kind:
                    return index
        if key == "gpu":
            return None
        key = "lavapipe"
    if key == "lavapipe":
        return next((k for k, info in enumerate(devices) if info.is_lavapipe), None)
    matches = [k for k, info in enumerate(devices) if key in info.name.lower()]
    if len(matches) > 1:
        names = ", ".join(repr(devices[k].name) for k in matches)
        raise VulkanUnavailable(f"device {choice!r} names several devices: {names}; say more")
    return matches[0] if matches else None


def device_list_text(devices: Sequence[DeviceInfo]) -> str:
    """The devices, for a message: ``'llvmpipe ...' (cpu), ...`` or ``none``."""
    return ", ".join(f"{info.name!r} ({info.kind})" for info in devices) or "none"


def list_devices() -> list[DeviceInfo]:
    """Every physical device the Vulkan loader sees, through every installed driver.

    Raises :class:`VulkanUnavailable` when the ``vulkan`` module or the loader is missing.
    """
    vk = load_vulkan()
    instance = create_instance(vk, instance_version(vk), None)
    try:
        return [device_info(vk, physical) for physical in physical_devices(vk, instance)]
    finally:
        vk.vkDestroyInstance(instance, None)


def device_info(vk: Any, physical: Any) -> DeviceInfo:
    """The record of a physical device."""
    properties = vk.vkGetPhysicalDeviceProperties(physical)
    return DeviceInfo(
        name=str(properties.deviceName),
        kind=_DEVICE_KINDS.get(int(properties.deviceType), "other"),
        vendor_id=int(properties.vendorID),
        vulkan_version=version_text(int(properties.apiVersion)),
    )


def three(values: Any) -> tuple[int, int, int]:
    """Three Vulkan counts (a ``uint32_t[3]``) as ints."""
    first, second, third = (int(value) for value in values)
    return first, second, third


def enabled_features(vk: Any, structs: list[Any]) -> list[str]:
    """The names of the features switched on in ``structs`` (VkPhysicalDeviceFeatures and
    the Vulkan 1.1/1.2/1.3 feature structs), by Vulkan name."""
    names: list[str] = []
    for struct in structs:
        for field in dir(struct):
            if field[:1].islower() and field not in ("sType", "pNext"):
                value = getattr(struct, field, None)
                if isinstance(value, int) and not isinstance(value, bool) and value == 1:
                    names.append(field)
    return sorted(set(names))
