"""A compute module run on a Vulkan driver with seeded random inputs, as the reflection of
the module says to bind it: every storage and uniform block its entry point uses gets a
buffer of its host type (:func:`spvbuild.reflection.block_dtype`, runtime arrays of
:data:`TAIL` elements), every member filled with random numbers of its kind, and so do its
push constants; the dispatch has :data:`TAIL` invocations, its workgroups along x.

The shaders this drives index their runtime arrays with ``gl_GlobalInvocationID.x`` and
keep their loops bounded whatever the numbers (masks, minimums); one with a local size in
y as well indexes by its workgroup.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from spvbuild.generated.core.enums import Capability, ExecutionMode, ExecutionModel
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_ENTRY_POINT,
    OP_EXECUTION_MODE,
    OP_EXTENSION,
)
from spvbuild.reflection import Reflection, block_dtype, reflect
from spvbuild.spirv.strings import string_words
from spvbuild.vulkan_runner import ComputeDevice
from tests.passes.driver_process import DriverProcess

TAIL = 256
"""Elements of every runtime array, and invocations of a dispatch."""

FLOAT_RANGE = 16.0
"""Random floats are uniform in [-FLOAT_RANGE, FLOAT_RANGE] (no NaN or infinity in the
inputs; a shader may still make them)."""


@dataclass(frozen=True)
class Dispatch:
    """One run's arguments: ``buffers`` (bytes, in binding order), ``bindings`` (their
    (set, binding) pairs), ``groups`` (the workgroup count), ``push_constants`` (None
    without a push-constant block), ``entry_point``."""

    buffers: tuple[bytes, ...]
    bindings: tuple[tuple[int, int], ...]
    groups: tuple[int, int, int]
    push_constants: bytes | None
    entry_point: str


def _fill(view: Any, rng: np.random.Generator) -> None:
    """Every scalar of ``view`` (a numpy array of a block's dtype, or a field of one) set
    to a random number of its kind."""
    dtype = view.dtype
    if dtype.names is not None:
        for name in dtype.names:
            _fill(view[name], rng)
        return
    bits = 8 * dtype.itemsize
    if dtype.kind == "f":
        view[...] = rng.uniform(-FLOAT_RANGE, FLOAT_RANGE, view.shape).astype(dtype)
    elif dtype.kind == "u":
        view[...] = rng.integers(0, 1 << bits, view.shape, dtype=np.uint64).astype(dtype)
    elif dtype.kind == "i":
        view[...] = rng.integers(-(1 << (bits - 1)), 1 << (bits - 1), view.shape).astype(dtype)
    else:
        raise AssertionError(f"a block member of numpy kind {dtype.kind!r}")


def _random_block(dtype: Any, rng: np.random.Generator) -> bytes:
    data = np.zeros(1, dtype)
    _fill(data, rng)
    return data.tobytes()


def compute_entry_point(found: Reflection, name: str | None = None) -> str:
    """The GLCompute entry point named ``name`` (None: the module's first)."""
    for entry in found.entry_points:
        if entry.execution_model == "GLCompute" and name in (None, entry.name):
            return entry.name
    raise AssertionError(f"no GLCompute entry point {name or ''} in the module")


def random_dispatch(
    words: list[int] | tuple[int, ...], seed: str, entry_point: str | None = None
) -> Dispatch:
    """The arguments of a run of ``words`` with inputs drawn from ``seed``."""
    found = reflect(np.array(words, dtype="<u4").tobytes())
    name = compute_entry_point(found, entry_point)
    entry = found.entry_point(name)
    rng = np.random.default_rng(list(random.Random(seed).randbytes(16)))
    buffers = []
    for pair in entry.bindings:
        binding = found.binding(*pair)
        assert binding.block is not None, f"binding {pair} is not a block"
        count = TAIL if binding.block.runtime_array_stride is not None else None
        buffers.append(_random_block(block_dtype(binding.block, count), rng))
    push = None
    for block in found.push_constants:
        if block.variable_id in entry.push_constants:
            push = _random_block(block_dtype(block.block), rng)
    size = entry.workgroup_size
    assert size is not None, "no workgroup size"
    invocations = 1
    for dimension in (size.x, size.y, size.z):
        assert dimension.size is not None, "a workgroup size without a value"
        invocations *= dimension.size
    groups = (max(1, -(-TAIL // invocations)), 1, 1)
    return Dispatch(tuple(buffers), entry.bindings, groups, push, name)


HEADER = 5
"""Words of a module's header, before its first instruction."""

FLOAT_WIDTHS = {32: None, 64: Capability.Float64, 16: Capability.Float16}
"""Float widths the zero signs are kept for: 32 always, the others with the capability
that declares them (None: always)."""


def _instructions(words: list[int]) -> list[list[int]]:
    out = []
    at = HEADER
    while at < len(words):
        count = words[at] >> 16
        assert count > 0, f"an instruction of no words at word {at}"
        out.append(words[at : at + count])
        at += count
    return out


def keeping_zero_signs(words: list[int] | tuple[int, ...]) -> list[int]:
    """``words`` with every GLCompute entry point given the ``SignedZeroInfNanPreserve``
    execution mode (SPV_KHR_float_controls) for each float width the module declares.

    Vulkan lets a driver without that mode treat -0.0 and +0.0 (and NaN and infinity) as
    it pleases, and lavapipe does so differently in differently shaped code: a program whose
    output reads the sign of a zero then gives other buffers after a correct rewrite (issue
    26, seed 1692: ``v.w * max(v.w, -0.0 * v.x)`` with ``v.w = -0.0`` gives +0.0 from the
    compiler's module and -0.0 after ``ssa-rewrite`` passes ``v`` through a loop phi).
    With the mode the driver keeps IEEE zeros, infinities and NaNs, so a difference in the
    buffers is the rewrite's.  A module that already has the mode for a width is left so
    for that width."""
    body = _instructions(list(words))
    capabilities = {inst[1] for inst in body if inst[0] & 0xFFFF == OP_CAPABILITY}
    present = {
        (inst[1], inst[3])
        for inst in body
        if inst[0] & 0xFFFF == OP_EXECUTION_MODE
        and inst[2] == ExecutionMode.SignedZeroInfNanPreserve
    }
    widths = [
        width for width, needs in FLOAT_WIDTHS.items() if needs is None or needs in capabilities
    ]
    entries = [
        inst[2]
        for inst in body
        if inst[0] & 0xFFFF == OP_ENTRY_POINT and inst[1] == ExecutionModel.GLCompute
    ]
    modes = [
        [(4 << 16) | OP_EXECUTION_MODE, entry, ExecutionMode.SignedZeroInfNanPreserve, width]
        for entry in entries
        for width in widths
        if (entry, width) not in present
    ]
    if not modes:
        return list(words)
    capability = [(2 << 16) | OP_CAPABILITY, Capability.SignedZeroInfNanPreserve]
    name = string_words("SPV_KHR_float_controls")
    extension = [((1 + len(name)) << 16) | OP_EXTENSION, *name]
    last_capability = max(at for at, inst in enumerate(body) if inst[0] & 0xFFFF == OP_CAPABILITY)
    last_entry = max(at for at, inst in enumerate(body) if inst[0] & 0xFFFF == OP_ENTRY_POINT)
    out = list(words[:HEADER]) + capability
    for at, inst in enumerate(body):
        out += inst
        if at == last_capability:
            out += extension
        if at == last_entry:
            out += [word for mode in modes for word in mode]
    return out


def run_dispatch(
    device: ComputeDevice | DriverProcess, words: list[int] | tuple[int, ...], dispatch: Dispatch
) -> list[bytes]:
    """Every buffer's bytes after running ``words`` with ``dispatch`` on ``device``, the
    signs of zeros kept (:func:`keeping_zero_signs`)."""
    return device.run(
        keeping_zero_signs(words),
        list(dispatch.buffers),
        dispatch.groups,
        dispatch.entry_point,
        dispatch.push_constants,
        bindings=dispatch.bindings,
    )
