"""Run a SPIR-V compute shader on a Vulkan device (a GPU, or lavapipe) and read its buffers back.

An optional runtime helper for tests, examples and quick experiments::

    from spvbuild.vulkan_runner import run_compute

    out = run_compute(words, [xs, ys], group_count=(1, 1, 1))  # one list[bytes] per buffer

What it needs, none of which ``import spvbuild`` (or importing this module) loads:

* PyPI's ``vulkan`` package (a cffi binding; ``pip install vulkan``, in spvbuild's ``dev``
  extras), imported on first use;
* the Vulkan loader and a driver: Debian's ``libvulkan1``, and ``mesa-vulkan-drivers`` for
  lavapipe, Mesa's CPU driver (``make system-deps`` installs them), or a GPU's driver.

When one is missing, :class:`VulkanUnavailable` says which and how to install it.

Which device runs (``device=`` of :class:`ComputeDevice` and :func:`run_compute`; without
it the environment variable ``SPVBUILD_VULKAN_DEVICE``; without that ``"auto"``):

* ``"auto"``: a discrete GPU, else an integrated (or virtual) one, else lavapipe;
* ``"gpu"``: a discrete, integrated or virtual GPU, or :class:`VulkanUnavailable`;
* ``"lavapipe"``: lavapipe only.  The loader is shown lavapipe's ICD file alone
  (``VK_DRIVER_FILES`` / ``VK_ICD_FILENAMES``) while the instance is created, so results
  never depend on the other drivers of the machine: what tests want;
* any other text: the one device whose name contains it (case-insensitive);
  :class:`VulkanUnavailable` lists the devices when none or several do.

:func:`list_devices` says what the loader sees; ``ComputeDevice.properties`` gives the
chosen device's limits and features.  ``XDG_RUNTIME_DIR`` (which Mesa and the loader
want) is pointed at a private temporary folder if it is unset.

Buffers are bound as storage buffers in descriptor set 0, buffer ``i`` at binding ``i``;
push constants (if any) are one range at offset 0 visible to the compute stage.  Every
Vulkan object created is destroyed again, also when a call fails.  The shader is not
validated here: run ``spirv-val`` first (an invalid module may crash the driver).
"""

from __future__ import annotations

import atexit
import importlib
import os
import platform
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from spvbuild.errors import SpvbuildError
from spvbuild.generated.core.opcodes import OP_ENTRY_POINT

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

DEVICE_ENV = "SPVBUILD_VULKAN_DEVICE"
"""Environment variable: the device :class:`ComputeDevice` chooses when not told (see the
module's docstring: ``auto``, ``gpu``, ``lavapipe`` or part of a device's name)."""

INSTALL_SYSTEM = "apt-get install mesa-vulkan-drivers libvulkan1 (or: make system-deps)"
INSTALL_PYTHON = "pip install vulkan (or: make venv, which installs spvbuild's dev extras)"

DEFAULT_TIMEOUT = 60.0  # seconds to wait for one dispatch
_API_1_1 = (1 << 22) | (1 << 12)
_API_1_2 = (1 << 22) | (2 << 12)
_API_1_3 = (1 << 22) | (3 << 12)


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


# -- environment -------------------------------------------------------------------------------

_xdg_runtime_dir: str | None = None


def _ensure_xdg_runtime_dir() -> None:
    """Point ``XDG_RUNTIME_DIR`` at a private temporary folder if it is unset or unusable."""
    global _xdg_runtime_dir
    current = os.environ.get("XDG_RUNTIME_DIR")
    if current and os.path.isdir(current) and os.access(current, os.W_OK):
        return
    if _xdg_runtime_dir is None:
        _xdg_runtime_dir = tempfile.mkdtemp(prefix="spvbuild-xdg-")  # mode 0700
        atexit.register(shutil.rmtree, _xdg_runtime_dir, True)
    os.environ["XDG_RUNTIME_DIR"] = _xdg_runtime_dir


def _icd_dirs() -> list[Path]:
    """The folders the Vulkan loader searches for ICD manifests, in its order."""
    home = Path.home()
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(home / ".config")
    config_dirs = os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg"
    data_home = os.environ.get("XDG_DATA_HOME") or str(home / ".local" / "share")
    data_dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    roots = [config_home, *config_dirs.split(":"), "/etc", data_home, *data_dirs.split(":")]
    return [Path(root) / "vulkan" / "icd.d" for root in roots if root]


def find_lavapipe_icd() -> Path | None:
    """Path of lavapipe's ICD manifest (``lvp_icd.<arch>.json``), or ``None`` if not installed.

    Manifests already named by ``VK_DRIVER_FILES`` / ``VK_ICD_FILENAMES`` come first, then
    the loader's search folders (``/usr/share/vulkan/icd.d`` on Debian); a manifest for this
    machine's architecture is preferred.
    """
    candidates: list[Path] = []
    for variable in ("VK_DRIVER_FILES", "VK_ICD_FILENAMES"):
        for entry in os.environ.get(variable, "").split(os.pathsep):
            path = Path(entry)
            if entry and path.name.startswith("lvp_icd") and path.is_file():
                candidates.append(path)
    for folder in _icd_dirs():
        if folder.is_dir():
            candidates.extend(sorted(folder.glob("lvp_icd*.json")))
    if not candidates:
        return None
    machine = platform.machine()
    for path in candidates:
        if f".{machine}." in path.name:
            return path
    return candidates[0]


@contextmanager
def _only_driver(icd: Path | None) -> Iterator[None]:
    """Make the Vulkan loader see the ICD ``icd`` only (None: change nothing), for the
    duration of the block."""
    if icd is None:
        yield
        return
    names = ("VK_DRIVER_FILES", "VK_ICD_FILENAMES")
    saved = {name: os.environ.get(name) for name in names}
    for name in names:
        os.environ[name] = str(icd)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# -- the untyped binding, behind one typed door --------------------------------------------------

_vulkan_module: Any = None


def _load_vulkan() -> Any:
    """Import PyPI's ``vulkan`` (untyped; returned as ``Any``) or raise VulkanUnavailable."""
    global _vulkan_module
    if _vulkan_module is not None:
        return _vulkan_module
    _ensure_xdg_runtime_dir()
    try:
        module = importlib.import_module("vulkan")
    except ModuleNotFoundError as exc:
        missing = exc.name or "vulkan"
        if missing == "vulkan":
            raise VulkanUnavailable(
                f"the Python module 'vulkan' (PyPI's Vulkan binding) is not installed: "
                f"{INSTALL_PYTHON}"
            ) from None
        raise VulkanUnavailable(
            f"PyPI's 'vulkan' binding cannot load: the Python module {missing!r} is missing: "
            "pip install cffi vulkan (or: make venv)"
        ) from None
    except OSError:
        raise VulkanUnavailable(
            f"the Vulkan loader (libvulkan.so.1) is not installed: {INSTALL_SYSTEM}"
        ) from None
    _vulkan_module = module
    return module


def _version_text(version: int) -> str:
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


def _choice(device: str | None) -> str:
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
    index = _chosen_index(devices, choice)
    return None if index is None else devices[index]


def _chosen_index(devices: Sequence[DeviceInfo], choice: str) -> int | None:
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


def _device_list_text(devices: Sequence[DeviceInfo]) -> str:
    return ", ".join(f"{info.name!r} ({info.kind})" for info in devices) or "none"


def list_devices() -> list[DeviceInfo]:
    """Every physical device the Vulkan loader sees, through every installed driver.

    Raises :class:`VulkanUnavailable` when the ``vulkan`` module or the loader is missing.
    """
    vk = _load_vulkan()
    instance = _create_instance(vk, _instance_version(vk), None)
    try:
        return [_info(vk, physical) for physical in _physical_devices(vk, instance)]
    finally:
        vk.vkDestroyInstance(instance, None)


def _instance_version(vk: Any) -> int:
    try:
        return min(int(vk.vkEnumerateInstanceVersion()), _API_1_3)
    except Exception:
        return _API_1_1


def _create_instance(vk: Any, api_version: int, icd: Path | None) -> Any:
    """A Vulkan instance; with ``icd``, the loader sees that driver only."""
    app = vk.VkApplicationInfo(
        pApplicationName="spvbuild",
        applicationVersion=1,
        pEngineName="spvbuild",
        engineVersion=1,
        apiVersion=api_version,
    )
    with _only_driver(icd):
        try:
            return vk.vkCreateInstance(vk.VkInstanceCreateInfo(pApplicationInfo=app), None)
        except (vk.VkErrorIncompatibleDriver, vk.VkErrorInitializationFailed) as exc:
            where = f"lavapipe from {icd}" if icd is not None else "any Vulkan driver"
            raise VulkanUnavailable(
                f"the Vulkan loader cannot start {where} ({type(exc).__name__}): {INSTALL_SYSTEM}"
            ) from None
        except vk.VkError as exc:
            raise VulkanError(f"vkCreateInstance failed: {type(exc).__name__}") from None


def _physical_devices(vk: Any, instance: Any) -> list[Any]:
    try:
        return list(vk.vkEnumeratePhysicalDevices(instance))
    except vk.VkError:
        return []


def _info(vk: Any, physical: Any) -> DeviceInfo:
    properties = vk.vkGetPhysicalDeviceProperties(physical)
    return DeviceInfo(
        name=str(properties.deviceName),
        kind=_DEVICE_KINDS.get(int(properties.deviceType), "other"),
        vendor_id=int(properties.vendorID),
        vulkan_version=_version_text(int(properties.apiVersion)),
    )


# -- the device ---------------------------------------------------------------------------------


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
        self.choice = _choice(device)
        """What was asked for (``"auto"``, ``"gpu"``, ``"lavapipe"`` or a name part)."""
        self._vk = _load_vulkan()
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
        self.api_version = _instance_version(vk)
        instance = _create_instance(vk, self.api_version, icd)
        self._instance = instance
        self._stack.callback(vk.vkDestroyInstance, instance, None)

        physical, properties = self._pick(instance, icd)
        self.name: str = str(properties.deviceName)
        self.device_api_version: int = int(properties.apiVersion)
        #: The device's Vulkan version, e.g. ``"1.3.230"``.
        self.vulkan_version: str = _version_text(self.device_api_version)
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
        vk = self._vk
        try:
            return getattr(vk, function)(*args)
        except vk.VkError as exc:
            raise VulkanError(f"{function} failed: {type(exc).__name__}") from None

    def _pick(self, instance: Any, icd: Path | None) -> tuple[Any, Any]:
        """The physical device asked for, and its properties."""
        vk = self._vk
        physicals = _physical_devices(vk, instance)
        infos = [_info(vk, physical) for physical in physicals]
        index = _chosen_index(infos, self.choice)
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
                f"{what}; devices seen: {_device_list_text(infos)} (choose with device= or "
                f"${DEVICE_ENV}: auto, gpu, lavapipe or part of a name){hint}"
            )
        physical = physicals[index]
        return physical, vk.vkGetPhysicalDeviceProperties(physical)

    def _properties(self, physical: Any, properties: Any, features: list[Any]) -> DeviceProperties:
        """The record of ``properties`` (and the subgroup size), with the features enabled."""
        vk = self._vk
        limits = properties.limits
        subgroup_size = 1
        if min(self.api_version, self.device_api_version) >= _API_1_1:
            subgroup = vk.VkPhysicalDeviceSubgroupProperties()
            vk.vkGetPhysicalDeviceProperties2(
                physical, vk.VkPhysicalDeviceProperties2(pNext=subgroup)
            )
            subgroup_size = int(subgroup.subgroupSize)
        return DeviceProperties(
            info=_info(vk, physical),
            subgroup_size=subgroup_size,
            max_workgroup_size=_three(limits.maxComputeWorkGroupSize),
            max_workgroup_invocations=int(limits.maxComputeWorkGroupInvocations),
            max_workgroup_count=_three(limits.maxComputeWorkGroupCount),
            max_shared_memory_size=int(limits.maxComputeSharedMemorySize),
            max_push_constants_size=int(limits.maxPushConstantsSize),
            max_storage_buffer_range=int(limits.maxStorageBufferRange),
            features=frozenset(_enabled_features(vk, features)),
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
        if api >= _API_1_3:
            next_struct = vk.VkPhysicalDeviceVulkan13Features()
            chain.append(next_struct)
        if api >= _API_1_2:
            next_struct = vk.VkPhysicalDeviceVulkan12Features(pNext=next_struct)
            chain.append(next_struct)
            next_struct = vk.VkPhysicalDeviceVulkan11Features(pNext=next_struct)
            chain.append(next_struct)
        features = vk.VkPhysicalDeviceFeatures2(pNext=next_struct)
        vk.vkGetPhysicalDeviceFeatures2(physical, features)
        return features, chain

    def _host_memory_type(self, type_bits: int) -> int:
        vk = self._vk
        wanted = vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
        props = self._memory_properties
        for index in range(int(props.memoryTypeCount)):
            flags = int(props.memoryTypes[index].propertyFlags)
            if type_bits & (1 << index) and flags & wanted == wanted:
                return index
        raise VulkanError("no host-visible, host-coherent memory type for a storage buffer")

    # -- one dispatch ----------------------------------------------------------------------
    def run(
        self,
        spirv_words: Sequence[int],
        buffers: Sequence[bytes | bytearray],
        group_count: tuple[int, int, int],
        entry_point: str = "main",
        push_constants: bytes | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> list[bytes]:
        """Dispatch ``entry_point`` once with ``group_count`` workgroups; the buffers after it.

        See :func:`run_compute` for the arguments.
        """
        if self._closed:
            raise VulkanError("this ComputeDevice is closed")
        _check_arguments(spirv_words, buffers, group_count, entry_point, push_constants)
        if push_constants is not None and len(push_constants) > self.max_push_constants_size:
            raise VulkanError(
                f"push constants are {len(push_constants)} bytes; the device allows at most "
                f"{self.max_push_constants_size}"
            )
        with ExitStack() as stack:
            return self._run(
                stack, spirv_words, buffers, group_count, entry_point, push_constants, timeout
            )

    def _run(
        self,
        stack: ExitStack,
        spirv_words: Sequence[int],
        buffers: Sequence[bytes | bytearray],
        group_count: tuple[int, int, int],
        entry_point: str,
        push_constants: bytes | None,
        timeout: float,
    ) -> list[bytes]:
        vk = self._vk
        device = self._device
        call = self._call

        def destroy(function: str, handle: Any) -> None:
            destroyer: Callable[..., Any] = getattr(vk, function)
            stack.callback(destroyer, device, handle, None)

        code = b"".join(int(word).to_bytes(4, "little") for word in spirv_words)
        shader = call(
            "vkCreateShaderModule",
            device,
            vk.VkShaderModuleCreateInfo(codeSize=len(code), pCode=code),
            None,
        )
        destroy("vkDestroyShaderModule", shader)

        bindings = [
            vk.VkDescriptorSetLayoutBinding(
                binding=index,
                descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                descriptorCount=1,
                stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT,
            )
            for index in range(len(buffers))
        ]
        set_layout = call(
            "vkCreateDescriptorSetLayout",
            device,
            vk.VkDescriptorSetLayoutCreateInfo(pBindings=bindings),
            None,
        )
        destroy("vkDestroyDescriptorSetLayout", set_layout)

        ranges: list[Any] = []
        if push_constants is not None:
            ranges.append(
                vk.VkPushConstantRange(
                    stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT, offset=0, size=len(push_constants)
                )
            )
        layout = call(
            "vkCreatePipelineLayout",
            device,
            vk.VkPipelineLayoutCreateInfo(
                pSetLayouts=[set_layout], pPushConstantRanges=ranges or None
            ),
            None,
        )
        destroy("vkDestroyPipelineLayout", layout)

        stage = vk.VkPipelineShaderStageCreateInfo(
            stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=shader, pName=entry_point
        )
        pipelines = call(
            "vkCreateComputePipelines",
            device,
            vk.VK_NULL_HANDLE,
            1,
            [vk.VkComputePipelineCreateInfo(stage=stage, layout=layout)],
            None,
        )
        pipeline = pipelines[0]
        destroy("vkDestroyPipeline", pipeline)

        memories: list[Any] = []
        buffer_handles: list[Any] = []
        for data in buffers:
            handle = call(
                "vkCreateBuffer",
                device,
                vk.VkBufferCreateInfo(
                    size=len(data),
                    usage=vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                    sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE,
                ),
                None,
            )
            destroy("vkDestroyBuffer", handle)
            needs = vk.vkGetBufferMemoryRequirements(device, handle)
            memory = call(
                "vkAllocateMemory",
                device,
                vk.VkMemoryAllocateInfo(
                    allocationSize=needs.size,
                    memoryTypeIndex=self._host_memory_type(int(needs.memoryTypeBits)),
                ),
                None,
            )
            destroy("vkFreeMemory", memory)
            call("vkBindBufferMemory", device, handle, memory, 0)
            mapped = call("vkMapMemory", device, memory, 0, len(data), 0)
            mapped[:] = bytes(data)
            vk.vkUnmapMemory(device, memory)
            memories.append(memory)
            buffer_handles.append(handle)

        pool = call(
            "vkCreateDescriptorPool",
            device,
            vk.VkDescriptorPoolCreateInfo(
                maxSets=1,
                pPoolSizes=[
                    vk.VkDescriptorPoolSize(
                        type=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, descriptorCount=len(buffers)
                    )
                ],
            ),
            None,
        )
        destroy("vkDestroyDescriptorPool", pool)  # frees its sets too
        descriptor_set = call(
            "vkAllocateDescriptorSets",
            device,
            vk.VkDescriptorSetAllocateInfo(
                descriptorPool=pool, descriptorSetCount=1, pSetLayouts=[set_layout]
            ),
        )[0]
        writes = [
            vk.VkWriteDescriptorSet(
                dstSet=descriptor_set,
                dstBinding=index,
                descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=handle, offset=0, range=len(data))],
            )
            for index, (handle, data) in enumerate(zip(buffer_handles, buffers, strict=True))
        ]
        vk.vkUpdateDescriptorSets(device, len(writes), writes, 0, None)

        command = call(
            "vkAllocateCommandBuffers",
            device,
            vk.VkCommandBufferAllocateInfo(
                commandPool=self._command_pool,
                level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                commandBufferCount=1,
            ),
        )[0]
        stack.callback(vk.vkFreeCommandBuffers, device, self._command_pool, 1, [command])
        call(
            "vkBeginCommandBuffer",
            command,
            vk.VkCommandBufferBeginInfo(flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT),
        )
        vk.vkCmdBindPipeline(command, vk.VK_PIPELINE_BIND_POINT_COMPUTE, pipeline)
        vk.vkCmdBindDescriptorSets(
            command, vk.VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, [descriptor_set], 0, None
        )
        if push_constants is not None:
            vk.vkCmdPushConstants(
                command,
                layout,
                vk.VK_SHADER_STAGE_COMPUTE_BIT,
                0,
                len(push_constants),
                vk.ffi.new("char[]", bytes(push_constants)),
            )
        vk.vkCmdDispatch(command, *group_count)
        to_host = vk.VkMemoryBarrier(
            srcAccessMask=vk.VK_ACCESS_SHADER_WRITE_BIT, dstAccessMask=vk.VK_ACCESS_HOST_READ_BIT
        )
        vk.vkCmdPipelineBarrier(
            command,
            vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            vk.VK_PIPELINE_STAGE_HOST_BIT,
            0,
            1,
            [to_host],
            0,
            None,
            0,
            None,
        )
        call("vkEndCommandBuffer", command)

        fence = call("vkCreateFence", device, vk.VkFenceCreateInfo(), None)
        destroy("vkDestroyFence", fence)
        call(
            "vkQueueSubmit",
            self._queue,
            1,
            [vk.VkSubmitInfo(pCommandBuffers=[command])],
            fence,
        )
        try:
            vk.vkWaitForFences(device, 1, [fence], vk.VK_TRUE, int(timeout * 1e9))
        except vk.VkTimeout:
            vk.vkDeviceWaitIdle(device)  # objects in use cannot be destroyed
            raise VulkanError(f"the dispatch did not finish within {timeout:g} s") from None
        except vk.VkError as exc:
            raise VulkanError(f"vkWaitForFences failed: {type(exc).__name__}") from None

        results: list[bytes] = []
        for memory, data in zip(memories, buffers, strict=True):
            mapped = call("vkMapMemory", device, memory, 0, len(data), 0)
            results.append(bytes(mapped))
            vk.vkUnmapMemory(device, memory)
        return results


def _three(values: Any) -> tuple[int, int, int]:
    first, second, third = (int(value) for value in values)
    return first, second, third


def _enabled_features(vk: Any, structs: list[Any]) -> list[str]:
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


def _check_arguments(
    spirv_words: Sequence[int],
    buffers: Sequence[bytes | bytearray],
    group_count: tuple[int, int, int],
    entry_point: str,
    push_constants: bytes | None,
) -> None:
    if len(spirv_words) < 5 or spirv_words[0] != 0x07230203:
        raise VulkanError("spirv_words is not a SPIR-V module (no 0x07230203 magic word first)")
    if any(not 0 <= int(word) <= 0xFFFF_FFFF for word in spirv_words):
        raise VulkanError("spirv_words holds a value that is not a 32-bit word")
    if not buffers:
        raise VulkanError("run_compute needs at least one buffer")
    for index, data in enumerate(buffers):
        if not isinstance(data, bytes | bytearray) or len(data) == 0:
            raise VulkanError(f"buffer {index} must be non-empty bytes or bytearray")
    if len(group_count) != 3 or any(int(n) < 1 for n in group_count):
        raise VulkanError(f"group_count must be three counts >= 1, not {group_count!r}")
    if push_constants is not None and (len(push_constants) == 0 or len(push_constants) % 4):
        raise VulkanError(
            f"push constants must be a non-empty multiple of 4 bytes, not {len(push_constants)}"
        )
    found = _compute_entry_points(spirv_words)
    if entry_point not in found:
        raise VulkanError(
            f"the module has no GLCompute entry point named {entry_point!r} "
            f"(it has: {', '.join(map(repr, found)) or 'none'})"
        )


def _compute_entry_points(words: Sequence[int]) -> list[str]:
    """Names of the module's GLCompute entry points (a scan of OpEntryPoint instructions)."""
    from spvbuild.generated.core.enums import ExecutionModel

    gl_compute = int(ExecutionModel.GLCompute)
    names: list[str] = []
    index = 5
    while index < len(words):
        count, opcode = words[index] >> 16, words[index] & 0xFFFF
        if count == 0:
            break
        if opcode == OP_ENTRY_POINT and count > 3 and words[index + 1] == gl_compute:
            raw = b"".join(int(w).to_bytes(4, "little") for w in words[index + 3 : index + count])
            names.append(raw.split(b"\0", 1)[0].decode("utf-8", errors="replace"))
        index += count
    return names


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
    _check_arguments(spirv_words, buffers, group_count, entry_point, push_constants)
    with ComputeDevice(device) as chosen:
        return chosen.run(spirv_words, buffers, group_count, entry_point, push_constants)
