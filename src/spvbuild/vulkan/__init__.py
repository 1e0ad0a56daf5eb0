"""Run a SPIR-V compute shader on a Vulkan device (a GPU, or lavapipe) and read its buffers back.

An optional runtime helper for tests, examples and quick experiments::

    from spvbuild.vulkan import run_compute

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

Buffers are bound as the module declares them (reflected): buffer ``i`` at set 0, binding
``i`` (or at the pair ``bindings=`` gives it), a uniform buffer where the module has a
uniform block there, else a storage buffer; push constants (if any) are the bytes of the
module's push-constant block, pushed as one range visible to the compute stage.  Every
Vulkan object created is destroyed again, also when a call fails.  The shader is not
validated here: run ``spirv-val`` first (an invalid module may crash the driver).

Modules: :mod:`~spvbuild.vulkan.loader` (the binding, the loader, an instance),
:mod:`~spvbuild.vulkan.devices` (what devices there are, which one a choice names),
:mod:`~spvbuild.vulkan.compute_device` (:class:`ComputeDevice`),
:mod:`~spvbuild.vulkan.dispatch` (one dispatch), :mod:`~spvbuild.vulkan.arguments`,
:mod:`~spvbuild.vulkan.bindings` (where each buffer goes, from reflection),
:mod:`~spvbuild.vulkan.run` (:func:`run_compute`), :mod:`~spvbuild.vulkan.errors`.
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
