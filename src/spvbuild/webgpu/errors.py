"""The WebGPU runner's errors and the install hint they give."""

from __future__ import annotations

from spvbuild.errors import SpvbuildError

__all__ = ["INSTALL_WGPU", "WebGPUError", "WebGPUUnavailable"]

INSTALL_WGPU = "pip install wgpu (or: make venv, which installs spvbuild's dev extras)"


class WebGPUUnavailable(SpvbuildError):
    """WebGPU cannot be used here: the ``wgpu`` module (wgpu-py) is missing, or no adapter
    (a GPU, or lavapipe through Vulkan) is found; the message says how to install it."""


class WebGPUError(SpvbuildError):
    """A compute run that could not be done: unusable arguments, or a WebGPU call that
    failed; the message names the call and what wgpu said (naga's error for a module it
    does not read: ``create_shader_module failed: ... unsupported capability Kernel``)."""
