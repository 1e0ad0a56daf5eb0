"""Running a compiled kernel on a Vulkan device through :mod:`spvbuild.vulkan_runner`, or
through WebGPU (:mod:`spvbuild.webgpu`)."""

from __future__ import annotations

import atexit
import struct
from collections.abc import Sequence

from spvbuild.vulkan_runner import ComputeDevice

from .codegen import CompiledKernel
from .typesys import Scalar

Number = int | float
FORMATS: dict[Scalar, str] = {
    Scalar.INT: "i",
    Scalar.UINT: "I",
    Scalar.FLOAT: "f",
    Scalar.BOOL: "I",
}

_shared: ComputeDevice | None = None


def shared_device() -> ComputeDevice:
    """One device for every :func:`run` in this process (closed at exit): the default of
    :class:`~spvbuild.vulkan_runner.ComputeDevice`, a GPU if there is one, else lavapipe
    (``SPVBUILD_VULKAN_DEVICE`` chooses another)."""
    global _shared
    if _shared is None:
        _shared = ComputeDevice()
        atexit.register(_shared.close)
    return _shared


def run(
    kernel: CompiledKernel, n: int, /, **values: Sequence[Number] | Number
) -> dict[str, list[Number]]:
    """Run ``kernel`` for indices ``0 .. n-1``; every array's contents afterwards, by name.

    ``values`` gives each parameter but the index, by name: a sequence of numbers for an
    ``Array[T]`` (its length is the buffer's length) and a number for a scalar.  Runs on
    a lavapipe device shared by the process; see :func:`run_on` to pass one.
    """
    return run_on(shared_device(), kernel, n, **values)


def run_on(
    device: ComputeDevice, kernel: CompiledKernel, n: int, /, **values: Sequence[Number] | Number
) -> dict[str, list[Number]]:
    """:func:`run` on a given :class:`~spvbuild.vulkan_runner.ComputeDevice`."""
    buffers, groups, push = _arguments(kernel, n, values)
    out = device.run(kernel.words, buffers, groups, kernel.entry_point, push)
    return _results(kernel, out)


def run_webgpu(
    kernel: CompiledKernel, n: int, /, **values: Sequence[Number] | Number
) -> dict[str, list[Number]]:
    """:func:`run` through WebGPU (:func:`spvbuild.webgpu.run_compute`: wgpu-py, whose naga
    reads the module; build the kernel with ``compile_kernel(..., target_env="webgpu")``).
    The push constants are given as WebGPU's immediate data."""
    from spvbuild.webgpu import run_compute

    buffers, groups, push = _arguments(kernel, n, values)
    given: list[bytes | bytearray] = list(buffers)
    out = run_compute(kernel.words, given, groups, kernel.entry_point, push)
    return _results(kernel, out)


def _arguments(
    kernel: CompiledKernel, n: int, values: dict[str, Sequence[Number] | Number]
) -> tuple[list[bytes], tuple[int, int, int], bytes]:
    """The storage buffers, workgroup count and push-constant bytes of a run."""
    expected = set(kernel.parameters)
    missing = [name for name in kernel.parameters if name not in values]
    unknown = sorted(set(values) - expected)
    if missing or unknown:
        parts = [
            f"missing {', '.join(missing)}" if missing else "",
            f"unknown {', '.join(unknown)}" if unknown else "",
        ]
        raise TypeError(
            f"{kernel.name}: {'; '.join(p for p in parts if p)} (takes: {', '.join(kernel.parameters)})"
        )
    if not 0 <= n < 2**31:  # the index may be a (signed) int
        raise ValueError(f"n must be in 0 .. 2**31-1, not {n}")
    buffers: list[bytes] = []
    for binding in kernel.bindings:
        data = values[binding.name]
        if not isinstance(data, Sequence) or len(data) == 0:
            raise ValueError(f"{binding.name} must be a non-empty sequence of numbers")
        buffers.append(_pack(binding.name, FORMATS[binding.element], list(data)))
    push = bytearray(struct.pack("<I", n))
    for constant in kernel.push_constants:
        value = values[constant.name]
        if isinstance(value, Sequence):
            raise TypeError(f"{constant.name} is a {constant.type} scalar, not a sequence")
        push += _pack(constant.name, FORMATS[constant.type], [value])
    groups = (max(1, -(-n // kernel.local_size)), 1, 1)
    return buffers, groups, bytes(push)


def _results(kernel: CompiledKernel, out: list[bytes]) -> dict[str, list[Number]]:
    """Every array's numbers, by name, from the buffers read back."""
    results: dict[str, list[Number]] = {}
    for binding, data in zip(kernel.bindings, out, strict=True):
        fmt = FORMATS[binding.element]
        results[binding.name] = list(struct.unpack(f"<{len(data) // 4}{fmt}", data))
    return results


def _pack(name: str, fmt: str, numbers: list[Number]) -> bytes:
    if fmt != "f":
        numbers = [int(x) for x in numbers]
    try:
        return struct.pack(f"<{len(numbers)}{fmt}", *numbers)
    except struct.error as exc:
        raise ValueError(f"{name}: {exc}") from None
