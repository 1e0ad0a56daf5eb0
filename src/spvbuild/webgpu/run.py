"""One compute dispatch through wgpu-py: an adapter and a device opened, the module read by
naga, its set-0 bindings laid out from reflection, one dispatch, the buffers read back."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

from spvbuild.vulkan.arguments import check_arguments
from spvbuild.vulkan.errors import VulkanError
from spvbuild.webgpu.errors import INSTALL_WGPU, WebGPUError, WebGPUUnavailable

__all__ = ["run_compute"]


def _wgpu() -> Any:
    """The ``wgpu`` module, with ``XDG_RUNTIME_DIR`` set for Mesa; WebGPUUnavailable
    without it."""
    from spvbuild.vulkan.loader import ensure_xdg_runtime_dir

    ensure_xdg_runtime_dir()
    try:
        import wgpu  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise WebGPUUnavailable(
            f"the wgpu module (wgpu-py) is not installed: {INSTALL_WGPU}"
        ) from None
    return wgpu


def _call(what: str, function: Any, *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``; what wgpu raises becomes a WebGPUError naming
    ``what``."""
    try:
        return function(*args, **kwargs)
    except Exception as exc:  # wgpu raises GPUValidationError, RuntimeError, ValueError...
        text = " ".join(str(exc).split())
        raise WebGPUError(f"{what} failed: {text}") from None


def _padded(data: bytes | bytearray, multiple: int) -> bytes:
    return bytes(data) + bytes(-len(data) % multiple)


def run_compute(
    spirv_words: list[int],
    buffers: list[bytes | bytearray],
    group_count: tuple[int, int, int],
    entry_point: str = "main",
    push_constants: bytes | None = None,
    *,
    uniforms: Mapping[int, bytes | bytearray] | None = None,
) -> list[bytes]:
    """Run one compute dispatch through WebGPU and return every buffer's contents after it.

    The arguments are :func:`spvbuild.vulkan.run_compute`'s: buffer ``i`` of ``buffers``
    is the storage buffer at descriptor set 0, binding ``i`` (bound read-only where the
    module decorates it NonWritable); ``group_count`` the workgroup count;
    ``entry_point`` the GLCompute entry point's name (WebGPU keeps the module's names);
    ``push_constants`` the bytes of the push-constant block, given as WebGPU's immediate
    data (wgpu's ``immediates`` feature).  ``uniforms`` maps further set-0 bindings to the
    bytes of a uniform buffer each (padded to a multiple of 16 bytes, WGSL's size of a
    uniform struct).  A buffer the entry point does not use is returned as it was given.

    Raises :class:`WebGPUUnavailable` without wgpu-py or an adapter, and
    :class:`WebGPUError` for unusable arguments (an entry point's binding given no
    buffer, ...) or a failing call: ``create_shader_module failed: ...`` holds naga's
    error for a module it does not read.
    """
    try:
        check_arguments(spirv_words, buffers, group_count, entry_point, push_constants)
    except VulkanError as exc:
        raise WebGPUError(str(exc)) from None
    uniforms = dict(uniforms or {})
    for binding, data in uniforms.items():
        if not isinstance(data, bytes | bytearray) or not data or binding < len(buffers):
            raise WebGPUError(
                f"uniform {binding} must be non-empty bytes at a binding after the "
                f"{len(buffers)} storage buffers"
            )
    from spvbuild.reflection import reflect

    reflection = reflect(spirv_words)
    entry = next(e for e in reflection.entry_points if e.name == entry_point)
    used = sorted(binding for set, binding in entry.bindings if set == 0)
    kinds = {
        d.binding: ("read-only-storage" if d.readonly else "storage")
        if d.descriptor_type == "storage_buffer"
        else d.descriptor_type
        for d in reflection.descriptor_bindings
        if d.set == 0
    }
    missing = [b for b in used if b >= len(buffers) and b not in uniforms]
    if missing:
        raise WebGPUError(
            f"entry point {entry_point!r} uses set 0 binding(s) {missing} that no buffer or "
            "uniform is given for"
        )
    wgpu = _wgpu()
    adapter = _call("request_adapter", wgpu.gpu.request_adapter_sync,
                    power_preference="high-performance")
    if adapter is None:
        raise WebGPUUnavailable(
            "no WebGPU adapter: install a GPU's Vulkan driver or lavapipe (apt-get install "
            "mesa-vulkan-drivers libvulkan1)"
        )
    features = ["immediates"] if push_constants else []
    limits = {"max-immediate-size": len(push_constants)} if push_constants else {}
    device = _call("request_device", adapter.request_device_sync,
                   required_features=features, required_limits=limits)
    module = _call("create_shader_module", device.create_shader_module,
                   code=struct.pack(f"<{len(spirv_words)}I", *spirv_words))
    storage = wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST
    made: dict[int, Any] = {}
    layout_entries: list[dict[str, Any]] = []
    group_entries: list[dict[str, Any]] = []
    for binding in used:
        kind = kinds.get(binding)
        if binding < len(buffers):
            if kind not in ("storage", "read-only-storage"):
                raise WebGPUError(f"binding {binding} is a {kind}, not a storage buffer")
            data = _padded(buffers[binding], 4)
            usage = storage
        else:
            if kind != "uniform_buffer":
                raise WebGPUError(f"binding {binding} is a {kind}, not a uniform buffer")
            kind = "uniform"
            data = _padded(uniforms[binding], 16)
            usage = wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST
        made[binding] = _call("create_buffer_with_data", device.create_buffer_with_data,
                              data=data, usage=usage)
        layout_entries.append({"binding": binding, "visibility": wgpu.ShaderStage.COMPUTE,
                               "buffer": {"type": kind}})
        group_entries.append({"binding": binding, "resource": {"buffer": made[binding]}})
    group_layout = _call("create_bind_group_layout", device.create_bind_group_layout,
                         entries=layout_entries)
    pipeline_layout = _call("create_pipeline_layout", device.create_pipeline_layout,
                            bind_group_layouts=[group_layout],
                            immediate_size=len(push_constants or b""))
    pipeline = _call("create_compute_pipeline", device.create_compute_pipeline,
                     layout=pipeline_layout,
                     compute={"module": module, "entry_point": entry_point})
    bind_group = _call("create_bind_group", device.create_bind_group,
                       layout=group_layout, entries=group_entries)
    encoder = device.create_command_encoder()
    compute = encoder.begin_compute_pass()
    compute.set_pipeline(pipeline)
    compute.set_bind_group(0, bind_group)
    if push_constants:
        _call("set_immediates", compute.set_immediates, 0, push_constants, 0,
              len(push_constants))
    compute.dispatch_workgroups(*group_count)
    compute.end()
    _call("submit", device.queue.submit, [encoder.finish()])
    out: list[bytes] = []
    for index, data in enumerate(buffers):
        if index in made:
            read = _call("read_buffer", device.queue.read_buffer, made[index])
            out.append(bytes(read)[: len(data)])
        else:
            out.append(bytes(data))
    return out

