"""A Vulkan device opened for compute runs: instance, device, queue and command pool."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import Any

from spvbuild.vulkan.arguments import check_arguments
from spvbuild.vulkan.bindings import plan_bindings
from spvbuild.vulkan.devices import (
    DEVICE_ENV,
    DeviceProperties,
    chosen_index,
    device_choice,
    device_info,
    device_list_text,
    enabled_features,
    three,
    version_text,
)
from spvbuild.vulkan.dispatch import DEFAULT_TIMEOUT, DeviceHandles, dispatch
from spvbuild.vulkan.errors import INSTALL_SYSTEM, VulkanError, VulkanUnavailable, vk_call
from spvbuild.vulkan.loader import (
    API_1_1,
    API_1_2,
    API_1_3,
    create_instance,
    find_lavapipe_icd,
    instance_version,
    load_vulkan,
    physical_devices,
)

__all__ = ["ComputeDevice"]


class ComputeDevice:
    """A Vulkan instance, device, compute queue and command pool, reusable for runs.

    ``device`` chooses the device: ``"auto"`` (a GPU if there is one, else lavapipe),
    ``"gpu"``, ``"lavapipe"`` or part of a device's name; without it
    ``$SPVBUILD_VULKAN_DEVICE``, else ``"auto"`` (see the module's docstring).  Use as a
    context manager (or call :meth:`close`)::

        with ComputeDevice("lavapipe") as device:
            print(device.name)                   # llvmpipe (LLVM 15.0.6, 256 bits)
            print(device.properties.subgroup_size)   # 8
            out = device.run(words, [data], (4, 1, 1))

    Every feature the device supports (``shaderInt64``, ``shaderFloat64``, the Vulkan
    1.1/1.2/1.3 feature sets) is enabled, so shaders may use any capability it has.

    Raises :class:`VulkanUnavailable` if the ``vulkan`` module, the loader or a driver is
    missing or no device is the one asked for, :class:`VulkanError` if a Vulkan call fails.
    """

    def __init__(self, device: str | None = None) -> None:
        self.choice = device_choice(device)
        """What was asked for (``"auto"``, ``"gpu"``, ``"lavapipe"`` or a name part)."""
        self._vk = load_vulkan()
        self._stack = ExitStack()
        self._closed = False
        try:
            self._open()
        except BaseException:
            self._stack.close()
            raise

    # -- lifetime --------------------------------------------------------------------------
    def _open(self) -> None:
        vk = self._vk
        icd: Path | None = None
        if self.choice.lower() == "lavapipe":
            icd = find_lavapipe_icd()
            if icd is None:
                raise VulkanUnavailable(
                    "lavapipe, Mesa's CPU Vulkan driver (lvp_icd.*.json), is not installed: "
                    f"{INSTALL_SYSTEM}"
                )
        self.api_version = instance_version(vk)
        instance = create_instance(vk, self.api_version, icd)
        self._instance = instance
        self._stack.callback(vk.vkDestroyInstance, instance, None)

        physical, properties = self._pick(instance, icd)
        self.name: str = str(properties.deviceName)
        self.device_api_version: int = int(properties.apiVersion)
        #: The device's Vulkan version, e.g. ``"1.3.230"``.
        self.vulkan_version: str = version_text(self.device_api_version)
        self.max_push_constants_size: int = int(properties.limits.maxPushConstantsSize)
        self._memory_properties = vk.vkGetPhysicalDeviceMemoryProperties(physical)
        self._family = self._compute_family(physical)

        features, keep_alive = self._all_features(physical)
        #: The device's name, kind, limits and enabled features.
        self.properties: DeviceProperties = self._properties(
            physical, properties, [features.features, *keep_alive]
        )
        queue_info = vk.VkDeviceQueueCreateInfo(
            queueFamilyIndex=self._family, queueCount=1, pQueuePriorities=[1.0]
        )
        device = self._call(
            "vkCreateDevice",
            physical,
            vk.VkDeviceCreateInfo(pNext=features, pQueueCreateInfos=[queue_info]),
            None,
        )
        del keep_alive
        self._device = device
        self._stack.callback(vk.vkDestroyDevice, device, None)
        self._queue = vk.vkGetDeviceQueue(device, self._family, 0)
        pool = self._call(
            "vkCreateCommandPool",
            device,
            vk.VkCommandPoolCreateInfo(queueFamilyIndex=self._family),
            None,
        )
        self._command_pool = pool
        self._stack.callback(vk.vkDestroyCommandPool, device, pool, None)

    def close(self) -> None:
        """Destroy every Vulkan object of this device (idempotent)."""
        if not self._closed:
            self._closed = True
            self._stack.close()

    def __enter__(self) -> ComputeDevice:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- helpers ---------------------------------------------------------------------------
    def _call(self, function: str, *args: Any) -> Any:
        """Call ``vk.<function>(*args)``; a Vulkan error becomes a :class:`VulkanError`."""
        return vk_call(self._vk, function, *args)

    def _pick(self, instance: Any, icd: Path | None) -> tuple[Any, Any]:
        """The physical device asked for, and its properties."""
        vk = self._vk
        physicals = physical_devices(vk, instance)
        infos = [device_info(vk, physical) for physical in physicals]
        index = chosen_index(infos, self.choice)
        if index is None:
            key = self.choice.lower()
            if key == "lavapipe":
                what = f"no lavapipe (llvmpipe) device through {icd}"
            elif key == "gpu":
                what = "no GPU (discrete, integrated or virtual)"
            elif key == "auto":
                what = "no GPU (discrete, integrated or virtual) and no lavapipe"
            else:
                what = f"no device named like {self.choice!r}"
            hint = f": {INSTALL_SYSTEM}" if key in ("auto", "lavapipe") else ""
            raise VulkanUnavailable(
                f"{what}; devices seen: {device_list_text(infos)} (choose with device= or "
                f"${DEVICE_ENV}: auto, gpu, lavapipe or part of a name){hint}"
            )
        physical = physicals[index]
        return physical, vk.vkGetPhysicalDeviceProperties(physical)

    def _properties(self, physical: Any, properties: Any, features: list[Any]) -> DeviceProperties:
        """The record of ``properties`` (and the subgroup size), with the features enabled."""
        vk = self._vk
        limits = properties.limits
        subgroup_size = 1
        if min(self.api_version, self.device_api_version) >= API_1_1:
            subgroup = vk.VkPhysicalDeviceSubgroupProperties()
            vk.vkGetPhysicalDeviceProperties2(
                physical, vk.VkPhysicalDeviceProperties2(pNext=subgroup)
            )
            subgroup_size = int(subgroup.subgroupSize)
        return DeviceProperties(
            info=device_info(vk, physical),
            subgroup_size=subgroup_size,
            max_workgroup_size=three(limits.maxComputeWorkGroupSize),
            max_workgroup_invocations=int(limits.maxComputeWorkGroupInvocations),
            max_workgroup_count=three(limits.maxComputeWorkGroupCount),
            max_shared_memory_size=int(limits.maxComputeSharedMemorySize),
            max_push_constants_size=int(limits.maxPushConstantsSize),
            max_storage_buffer_range=int(limits.maxStorageBufferRange),
            features=frozenset(enabled_features(vk, features)),
        )

    def _compute_family(self, physical: Any) -> int:
        vk = self._vk
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(physical)
        for index, family in enumerate(families):
            if family.queueFlags & vk.VK_QUEUE_COMPUTE_BIT:
                return index
        raise VulkanUnavailable(f"the device {self.name!r} has no compute queue")

    def _all_features(self, physical: Any) -> tuple[Any, list[Any]]:
        """A VkPhysicalDeviceFeatures2 chain with every supported feature switched on."""
        vk = self._vk
        chain: list[Any] = []
        api = min(self.api_version, self.device_api_version)
        next_struct: Any = None
        if api >= API_1_3:
            next_struct = vk.VkPhysicalDeviceVulkan13Features()
            chain.append(next_struct)
        if api >= API_1_2:
            next_struct = vk.VkPhysicalDeviceVulkan12Features(pNext=next_struct)
            chain.append(next_struct)
            next_struct = vk.VkPhysicalDeviceVulkan11Features(pNext=next_struct)
            chain.append(next_struct)
        features = vk.VkPhysicalDeviceFeatures2(pNext=next_struct)
        vk.vkGetPhysicalDeviceFeatures2(physical, features)
        return features, chain

    # -- one dispatch ----------------------------------------------------------------------
    def run(
        self,
        spirv_words: Sequence[int],
        buffers: Sequence[bytes | bytearray],
        group_count: tuple[int, int, int],
        entry_point: str = "main",
        push_constants: bytes | None = None,
        *,
        bindings: Sequence[tuple[int, int]] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> list[bytes]:
        """Dispatch ``entry_point`` once with ``group_count`` workgroups; the buffers after it.

        See :func:`run_compute` for the arguments.
        """
        if self._closed:
            raise VulkanError("this ComputeDevice is closed")
        check_arguments(spirv_words, buffers, group_count, entry_point, push_constants)
        if push_constants is not None and len(push_constants) > self.max_push_constants_size:
            raise VulkanError(
                f"push constants are {len(push_constants)} bytes; the device allows at most "
                f"{self.max_push_constants_size}"
            )
        plan = plan_bindings(spirv_words, len(buffers), bindings, entry_point, push_constants)
        handles = DeviceHandles(
            self._vk, self._device, self._queue, self._command_pool, self._memory_properties
        )
        return dispatch(
            handles, spirv_words, buffers, group_count, entry_point, push_constants, timeout, plan
        )
