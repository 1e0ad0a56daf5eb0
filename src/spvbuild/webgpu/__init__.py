"""Run a SPIR-V compute shader through WebGPU (wgpu-py: wgpu-native, naga) and read its
buffers back: what a module built with ``Module(target_env="webgpu")`` runs on::

    from spvbuild.webgpu import run_compute

    out = run_compute(words, [xs, ys], group_count=(1, 1, 1))  # one bytes per buffer

The call has the shape of :func:`spvbuild.vulkan.run_compute`.  What it needs, none of
which ``import spvbuild`` (or importing this module) loads: PyPI's ``wgpu`` (wgpu-py, in
spvbuild's ``dev`` extras), imported on first use, and an adapter: a GPU, or lavapipe
(Debian's ``mesa-vulkan-drivers``) through Vulkan.  When one is missing,
:class:`WebGPUUnavailable` says which.  ``XDG_RUNTIME_DIR`` is pointed at a private
temporary folder if it is unset, as for the Vulkan runner.

Modules: :mod:`~spvbuild.webgpu.run` (:func:`run_compute`), :mod:`~spvbuild.webgpu.errors`.
"""

from __future__ import annotations

from spvbuild.webgpu.errors import WebGPUError, WebGPUUnavailable
from spvbuild.webgpu.run import run_compute

__all__ = ["WebGPUError", "WebGPUUnavailable", "run_compute"]
