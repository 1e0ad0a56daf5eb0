"""PyPI's ``vulkan`` binding, the Vulkan loader and an instance: found, loaded and started.

The binding is imported on first use (:func:`load_vulkan`), never by importing spvbuild;
``XDG_RUNTIME_DIR`` is pointed at a private temporary folder first if it is unset.
:func:`only_driver` shows the loader one ICD (lavapipe's, :func:`find_lavapipe_icd`) while
an instance is created.
"""

from __future__ import annotations

import atexit
import importlib
import os
import platform
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from spvbuild.vulkan.errors import INSTALL_PYTHON, INSTALL_SYSTEM, VulkanError, VulkanUnavailable

__all__ = ["find_lavapipe_icd"]

API_1_1 = (1 << 22) | (1 << 12)
API_1_2 = (1 << 22) | (2 << 12)
API_1_3 = (1 << 22) | (3 << 12)
"""Vulkan API versions as ``VK_MAKE_API_VERSION`` packs them."""

_xdg_runtime_dir: str | None = None


def ensure_xdg_runtime_dir() -> None:
    """Point ``XDG_RUNTIME_DIR`` at a private temporary folder if it is unset or unusable."""
    global _xdg_runtime_dir
    current = os.environ.get("XDG_RUNTIME_DIR")
    if current and os.path.isdir(current) and os.access(current, os.W_OK):
        return
    if _xdg_runtime_dir is None:
        _xdg_runtime_dir = tempfile.mkdtemp(prefix="spvbuild-xdg-")  # mode 0700
        atexit.register(shutil.rmtree, _xdg_runtime_dir, True)
    os.environ["XDG_RUNTIME_DIR"] = _xdg_runtime_dir


def icd_dirs() -> list[Path]:
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
    for folder in icd_dirs():
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
def only_driver(icd: Path | None) -> Iterator[None]:
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


def load_vulkan() -> Any:
    """Import PyPI's ``vulkan`` (untyped; returned as ``Any``) or raise VulkanUnavailable."""
    global _vulkan_module
    if _vulkan_module is not None:
        return _vulkan_module
    ensure_xdg_runtime_dir()
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


def instance_version(vk: Any) -> int:
    """The instance's Vulkan version: the loader's, at most 1.3."""
    try:
        return min(int(vk.vkEnumerateInstanceVersion()), API_1_3)
    except Exception:
        return API_1_1


def create_instance(vk: Any, api_version: int, icd: Path | None) -> Any:
    """A Vulkan instance; with ``icd``, the loader sees that driver only."""
    app = vk.VkApplicationInfo(
        pApplicationName="spvbuild",
        applicationVersion=1,
        pEngineName="spvbuild",
        engineVersion=1,
        apiVersion=api_version,
    )
    with only_driver(icd):
        try:
            return vk.vkCreateInstance(vk.VkInstanceCreateInfo(pApplicationInfo=app), None)
        except (vk.VkErrorIncompatibleDriver, vk.VkErrorInitializationFailed) as exc:
            where = f"lavapipe from {icd}" if icd is not None else "any Vulkan driver"
            raise VulkanUnavailable(
                f"the Vulkan loader cannot start {where} ({type(exc).__name__}): {INSTALL_SYSTEM}"
            ) from None
        except vk.VkError as exc:
            raise VulkanError(f"vkCreateInstance failed: {type(exc).__name__}") from None


def physical_devices(vk: Any, instance: Any) -> list[Any]:
    """The physical devices of ``instance`` (none when enumerating fails)."""
    try:
        return list(vk.vkEnumeratePhysicalDevices(instance))
    except vk.VkError:
        return []
