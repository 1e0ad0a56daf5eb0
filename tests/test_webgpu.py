"""WebGPU through wgpu-py on lavapipe: the gallery built with ``target_env="webgpu"`` is read
by naga (``create_shader_module``) or refused at a named call; the compute programs give
the Vulkan runner's numbers through :func:`spvbuild.webgpu.run_compute`; the constructs'
read-only and write-only blocks, storage image access and separate texture and sampler are
what naga and WebGPU take.  These tests fail, never skip, under ``CI=true`` when wgpu or
the driver is missing (``make test`` installs both)."""

from __future__ import annotations

import importlib
import os
import random
import re
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from spvbuild import ArgumentError, BuildError, Module, disassemble
from spvbuild.constructs import (
    Array,
    Field,
    Struct,
    builtin,
    load,
    storage_block,
    storage_image,
    u32,
    uniform_block,
)
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    ExecutionModel,
    ExecutionModeLocalSize,
    ImageFormat,
    MemoryModel,
)
from spvbuild.webgpu import WebGPUError, run_compute
from spvbuild.webgpu.errors import WebGPUUnavailable

pytestmark = pytest.mark.vulkan

GALLERY = Path(__file__).resolve().parent.parent / "examples" / "gallery"


def _missing(why: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why} (CI=true: WebGPU tests must run)")
    pytest.skip(why)


@pytest.fixture(scope="module")
def device() -> Any:
    """A wgpu device (lavapipe here)."""
    try:
        from spvbuild.webgpu.run import _wgpu

        wgpu = _wgpu()
    except WebGPUUnavailable as exc:
        _missing(str(exc))
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    if adapter is None:
        _missing("no WebGPU adapter (apt-get install mesa-vulkan-drivers libvulkan1)")
    return adapter.request_device_sync()


def _accepted(device: Any, m: Module) -> None:
    """spirv-val (vulkan1.1, the webgpu validator) and naga both take ``m``."""
    m.validate("webgpu")
    device.create_shader_module(code=m.to_bytes())


@pytest.fixture(scope="module")
def gallery() -> Iterator[dict[str, ModuleType]]:
    sys.path.insert(0, str(GALLERY))
    try:
        yield {
            name: importlib.import_module(name)
            for name in ("reduction", "fragment", "vertex", "debuginfo_shader", "opencl_kernel")
        }
    finally:
        sys.path.remove(str(GALLERY))


@pytest.mark.parametrize("name", ["reduction", "fragment", "vertex", "debuginfo_shader"])
def test_gallery_built_for_webgpu_is_read_by_naga(
    device: Any, gallery: dict[str, ModuleType], name: str
) -> None:
    _accepted(device, gallery[name].build("webgpu"))


def test_gallery_kernel_refused_at_its_call(gallery: dict[str, ModuleType]) -> None:
    with pytest.raises(BuildError) as caught:
        gallery["opencl_kernel"].build("webgpu")
    assert re.search(
        r"^\w+ is not allowed by webgpu: .* \(at opencl_kernel\.py:\d+\)$", str(caught.value)
    ), str(caught.value)


def test_reduction_gives_the_vulkan_runners_numbers(
    device: Any, gallery: dict[str, ModuleType]
) -> None:
    from spvbuild.vulkan import run_compute as vulkan_run

    reduction = gallery["reduction"]
    words = reduction.build("webgpu").to_words()
    data = [random.Random(27).randrange(10_000) for _ in range(reduction.GROUP * reduction.GROUPS)]
    buffers = [struct.pack(f"<{len(data)}I", *data), bytes(4 * (1 + reduction.GROUPS))]
    groups = (reduction.GROUPS, 1, 1)
    through_webgpu = run_compute(words, buffers, groups)
    assert through_webgpu == vulkan_run(words, buffers, groups)
    total, *_ = struct.unpack(f"<{1 + reduction.GROUPS}I", through_webgpu[1])
    assert total == sum(data)


def _copy_module(access: str, with_uniform: bool) -> Module:
    """out[i] = in[i] * scale (+ the push constant's bias): ``in`` of ``access``."""
    m = Module(target_env="webgpu")
    uint = m.type_int(32, 0)
    values = Struct("Values", (Field("v", Array(u32, None)),))
    source = storage_block(m, values, binding=0, access=access)  # type: ignore[arg-type]
    # (WebGPU has no write-only storage buffer: naga refuses NonReadable on one)
    target = storage_block(m, Struct("Out", (Field("v", Array(u32, None)),)), binding=1)
    scale = (
        uniform_block(m, Struct("Params", (Field("scale", u32),)), binding=2)
        if with_uniform else None
    )
    gid = builtin(m, BuiltIn.GlobalInvocationId)
    main = m.define_function(m.type_void(), name="main")
    i = m.composite_extract(uint, load(m, gid), [0])
    value = load(m, source.member(m, "v", i))
    if scale is not None:
        value = m.i_mul(uint, value, load(m, scale.member(m, "scale")))
    m.store(target.member(m, "v", i), value)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(4, 1, 1))
    return m


def test_run_with_read_only_block_and_uniform(device: Any) -> None:
    m = _copy_module("read_only", with_uniform=True)
    text = disassemble(m.to_bytes())
    assert re.search(r"OpDecorate %\w+ NonWritable", text)  # the read-only block
    numbers = list(range(1, 9))
    given = [struct.pack("<8I", *numbers), bytes(32)]
    _, out = run_compute(m.to_words(), given, (2, 1, 1), uniforms={2: struct.pack("<I", 3)})
    assert struct.unpack("<8I", out) == tuple(3 * n for n in numbers)


def test_read_only_block_is_read_only_to_naga(device: Any) -> None:
    """A read-only block written to: naga refuses it (the decoration reached WebGPU)."""
    m = Module(target_env="webgpu")
    block = storage_block(m, Struct("B", (Field("v", u32),)), binding=0, access="read_only")
    main = m.define_function(m.type_void(), name="main")
    m.store(block.member(m, "v"), m.constant(m.type_int(32, 0), 1))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    with pytest.raises(WebGPUError, match="create_shader_module failed"):
        run_compute(m.to_words(), [bytes(4)], (1, 1, 1))


@pytest.mark.parametrize("access", ["write_only", "read_only"])
def test_storage_image_access_reaches_webgpu(device: Any, access: str) -> None:
    """A storage image of Rgba32f with an access: naga reads it and WebGPU lays it out
    (read-write would be refused by the profile, and by WebGPU's layout)."""
    m = Module(target_env="webgpu")
    image = storage_image(m, ImageFormat.Rgba32f, binding=0, access=access)  # type: ignore[arg-type]
    main = m.define_function(m.type_void(), name="main")
    float_ = m.type_float(32)
    v4, int_ = m.type_vector(float_, 4), m.type_int(32, 1)
    at = m.constant_composite(m.type_vector(int_, 2), [m.constant(int_, 0)] * 2)
    loaded = load(m, image)
    if access == "write_only":
        m.image_write(loaded, at, m.constant_null(v4))
    else:
        m.image_read(v4, loaded, at)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    m.validate("webgpu")
    module = device.create_shader_module(code=m.to_bytes())
    device.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": "main"})


def test_runner_names_a_missing_binding(device: Any) -> None:
    m = _copy_module("read_only", with_uniform=True)
    with pytest.raises(WebGPUError, match=r"binding\(s\) \[2\] that no buffer or uniform"):
        run_compute(m.to_words(), [bytes(32), bytes(32)], (1, 1, 1))


def test_access_is_checked_at_the_call() -> None:
    m = Module(target_env="webgpu")
    with pytest.raises(ArgumentError, match=r"^storage_block: access must be 'read_write', "
                       r"'read_only' or 'write_only', not 'readonly' \(at test_webgpu\.py:\d+\)$"):
        storage_block(m, Struct("B", (Field("v", u32),)), access="readonly")  # type: ignore[arg-type]
    assert m.sections["types_globals"] == []  # refused before any instruction
