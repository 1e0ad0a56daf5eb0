"""WebGPU through wgpu-py on lavapipe: the gallery built with ``target_env="webgpu"`` is read
by naga (``create_shader_module``) or refused at a named call; the compute programs give
the Vulkan runner's numbers through :func:`spvbuild.webgpu.run_compute`; the fragment and
vertex programs render, through a render pipeline, the pixels their math gives in Python;
the constructs' read-only and write-only blocks, storage image access and separate texture
and sampler are what naga and WebGPU take.  These tests fail, never skip, under ``CI=true`` when wgpu or
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
    Decoration,
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
            for name in (
                "reduction", "fragment", "vertex", "debuginfo_shader", "opencl_kernel",
                "edit_binary",
            )
        }
    finally:
        sys.path.remove(str(GALLERY))


def _built(gallery: dict[str, ModuleType], name: str) -> Module:
    """The gallery program's module for webgpu (edit_binary edits a given binary: it has
    no environment to build for, its edit is what naga must read)."""
    if name == "edit_binary":
        module: Module = gallery[name].build()
        return module
    built: Module = gallery[name].build("webgpu")
    return built


@pytest.mark.parametrize(
    "name", ["reduction", "fragment", "vertex", "debuginfo_shader", "edit_binary"]
)
def test_gallery_built_for_webgpu_is_read_by_naga(
    device: Any, gallery: dict[str, ModuleType], name: str
) -> None:
    _accepted(device, _built(gallery, name))


@pytest.mark.parametrize("name", ["debuginfo_shader", "edit_binary"])
def test_gallery_compute_gives_the_vulkan_runners_numbers(
    device: Any, gallery: dict[str, ModuleType], name: str
) -> None:
    """The gallery's other compute programs (one storage buffer of uints, workgroups of
    64) through wgpu and through the Vulkan runner: the same words, and what their
    math gives in Python (doubled; tripled and clamped at 1000)."""
    from spvbuild.vulkan import run_compute as vulkan_run

    words = _built(gallery, name).to_words()
    values = [random.Random(name).randrange(600) for _ in range(128)]
    given = [struct.pack(f"<{len(values)}I", *values)]
    (through_webgpu,) = run_compute(words, given, (2, 1, 1))
    assert through_webgpu == vulkan_run(words, given, (2, 1, 1))[0]
    limit = getattr(gallery[name], "LIMIT", None)
    expected = [2 * v for v in values] if limit is None else [min(3 * v, limit) for v in values]
    assert list(struct.unpack(f"<{len(values)}I", through_webgpu)) == expected


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
    # (WebGPU has no write-only storage buffer: the profile's rule no-write-only-storage-buffer)
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


def _write_only_copy(where: str) -> Module:
    """out.v[i] = in.v[i], ``out`` write-only by NonReadable on its ``variable`` or on its
    ``member``, built for vulkan1.1 (the webgpu profile refuses the first)."""
    m = Module(target_env="vulkan1.1")
    uint = m.type_int(32, 0)
    source = storage_block(m, Struct("In", (Field("v", Array(u32, None)),)), binding=0)
    access = "write_only" if where == "variable" else "read_write"
    target = storage_block(m, Struct("Out", (Field("v", Array(u32, None)),)), binding=1,
                           access=access)  # type: ignore[arg-type]
    if where == "member":
        m.member_decorate(target.declared.type, 0, Decoration.NonReadable)
    gid = builtin(m, BuiltIn.GlobalInvocationId)
    main = m.define_function(m.type_void(), name="main")
    i = m.composite_extract(uint, load(m, gid), [0])
    m.store(target.member(m, "v", i), load(m, source.member(m, "v", i)))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    m.validate("vulkan1.1")
    return m


def test_naga_has_no_write_only_storage_buffer(device: Any) -> None:
    """What the webgpu rule no-write-only-storage-buffer stands on: naga refuses a storage
    buffer variable decorated NonReadable, and takes one whose members are (it runs)."""
    refused = _write_only_copy("variable")
    assert re.search(r"OpDecorate %\w+ NonReadable", disassemble(refused.to_bytes()))
    with pytest.raises(Exception, match="Storage address space doesn't support write-only"):
        device.create_shader_module(code=refused.to_bytes())
    taken = _write_only_copy("member")
    _, out = run_compute(taken.to_words(), [struct.pack("<4I", 5, 6, 7, 8), bytes(16)], (4, 1, 1))
    assert struct.unpack("<4I", out) == (5, 6, 7, 8)


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


# -- the gallery's fragment and vertex programs rendered through wgpu --------------------------

SIZE = 8  # the render target is SIZE x SIZE pixels, rgba32float

_FULLSCREEN_WGSL = """
struct Out { @builtin(position) position: vec4f, @location(0) uv: vec2f };
@vertex fn main(@builtin(vertex_index) i: u32) -> Out {
    let xy = vec2f(f32((i << 1u) & 2u), f32(i & 2u));  // (0,0) (2,0) (0,2)
    var out: Out;
    out.position = vec4f(xy * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2f(xy.x, 1.0 - xy.y);  // (0,0) at the top-left pixel's corner
    return out;
}
"""

_NORMAL_WGSL = """
@fragment fn main(@location(0) world_normal: vec3f) -> @location(0) vec4f {
    return vec4f(world_normal, 1.0);
}
"""


def _render(device: Any, vertex: Any, fragment: Any, draw: Any, clear: float) -> Any:
    """A SIZE x SIZE rgba32float target cleared to ``clear``, ``draw(pass_, pipeline)``
    run in one render pass; the pixels as a (SIZE, SIZE, 4) float32 array, row 0 on top."""
    import numpy as np

    from spvbuild.webgpu.run import _wgpu

    wgpu = _wgpu()
    pipeline = device.create_render_pipeline(
        layout="auto",
        vertex=vertex,
        fragment={**fragment, "targets": [{"format": "rgba32float"}]},
        primitive={"topology": "triangle-list", "cull_mode": "none"},
    )
    target = device.create_texture(
        size=(SIZE, SIZE, 1), format="rgba32float",
        usage=wgpu.TextureUsage.RENDER_ATTACHMENT | wgpu.TextureUsage.COPY_SRC,
    )
    encoder = device.create_command_encoder()
    render = encoder.begin_render_pass(color_attachments=[{
        "view": target.create_view(), "load_op": "clear", "store_op": "store",
        "clear_value": (clear, clear, clear, clear),
    }])
    render.set_pipeline(pipeline)
    draw(render, pipeline)
    render.end()
    device.queue.submit([encoder.finish()])
    data = device.queue.read_texture(
        {"texture": target}, {"bytes_per_row": SIZE * 16}, (SIZE, SIZE, 1)
    )
    return np.frombuffer(bytes(data), np.float32).reshape(SIZE, SIZE, 4)


def _fragment_expected(
    texels: Any, offsets: list[tuple[float, float]], taps: int, threshold: float,
    tint: tuple[float, ...],
) -> tuple[Any, set[str]]:
    """The fragment program's math per pixel in Python (nearest texel, repeat), with the
    ways each pixel ended: 'skipped' (a tap under the threshold), 'opaque' (a break),
    'tint' (no tap counted)."""
    import numpy as np

    side = texels.shape[0]
    expected = np.zeros((SIZE, SIZE, 4))
    ways: set[str] = set()
    for y in range(SIZE):
        for x in range(SIZE):
            u, v = (x + 0.5) / SIZE, (y + 0.5) / SIZE
            total = np.zeros(4)
            for du, dv in offsets[:taps]:
                texel = texels[int((v + dv) * side) % side, int((u + du) * side) % side]
                if texel[3] < threshold:
                    ways.add("skipped")
                    continue
                total += texel
                if texel[3] >= 1.0:
                    ways.add("opaque")
                    break
            if total[3] > 0.0:
                expected[y, x] = total / total[3] * np.array(tint)
            else:
                ways.add("tint")
                expected[y, x] = tint
    return expected, ways


def test_fragment_renders_its_pixels(device: Any, gallery: dict[str, ModuleType]) -> None:
    """The gallery's fragment program (texture and sampler apart, a std140 uniform block, a
    loop with continue and break) behind a full-screen triangle: each pixel is what the
    shader's math gives in Python for a 4x4 texture sampled nearest."""
    import numpy as np

    from spvbuild.constructs import STD140, lay_out, numpy_dtype
    from spvbuild.webgpu.run import _wgpu

    wgpu = _wgpu()
    fragment = gallery["fragment"]
    rng = random.Random(2727)
    side = 4
    alphas = (26, 128, 255)  # under the threshold, over it, opaque
    raw = np.array([[[rng.randrange(256) for _ in range(3)] + [rng.choice(alphas)]
                     for _ in range(side)] for _ in range(side)], np.uint8)
    raw[0, 0, 3] = raw[0, 1, 3] = raw[2, 0, 3] = 26  # the top-left pixel's taps: none counts
    texels = raw.astype(np.float64) / 255.0
    offsets = [(0.0, 0.0), (0.25, 0.0), (0.0, 0.5), (0.75, 0.25)]  # texel-sized steps
    taps, threshold, tint = 3, 0.3, (0.5, 1.0, 2.0, 1.0)
    params = np.zeros(1, numpy_dtype(lay_out(fragment.PARAMS, STD140)))
    params["tint"] = tint
    params["offsets"]["value"] = offsets
    params["taps"], params["threshold"] = taps, threshold
    uniform = device.create_buffer_with_data(data=params.tobytes(),
                                             usage=wgpu.BufferUsage.UNIFORM)
    texture = device.create_texture(
        size=(side, side, 1), format="rgba8unorm",
        usage=wgpu.TextureUsage.TEXTURE_BINDING | wgpu.TextureUsage.COPY_DST,
    )
    device.queue.write_texture({"texture": texture}, raw.tobytes(),
                               {"bytes_per_row": side * 4}, (side, side, 1))
    sampler = device.create_sampler(mag_filter="nearest", min_filter="nearest",
                                    address_mode_u="repeat", address_mode_v="repeat")
    module = fragment.build("webgpu")
    module.validate("webgpu")

    def draw(render: Any, pipeline: Any) -> None:
        group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
            {"binding": 0, "resource": {"buffer": uniform}},
            {"binding": 1, "resource": texture.create_view()},
            {"binding": 2, "resource": sampler},
        ])
        render.set_bind_group(0, group)
        render.draw(3)

    pixels = _render(
        device,
        {"module": device.create_shader_module(code=_FULLSCREEN_WGSL), "entry_point": "main"},
        {"module": device.create_shader_module(code=module.to_bytes()), "entry_point": "main"},
        draw, clear=-1.0,
    )
    expected, ways = _fragment_expected(texels, offsets, taps, threshold, tint)
    assert ways == {"skipped", "opaque", "tint"}  # every path of the shader is taken
    np.testing.assert_allclose(pixels, expected, rtol=1e-5, atol=1e-5)


def test_vertex_renders_its_pixels(device: Any, gallery: dict[str, ModuleType]) -> None:
    """The gallery's vertex program (an mvp and a normal matrix in a std140 block) draws a
    triangle: the covered pixels (by edge functions at the pixel centres) hold the
    world normals interpolated as the rasterizer does; the others the clear value."""
    import numpy as np

    from spvbuild.constructs import STD140, lay_out, numpy_dtype
    from spvbuild.webgpu.run import _wgpu

    wgpu = _wgpu()
    vertex = gallery["vertex"]
    angle = 0.3
    turn = np.array([[np.cos(angle), -np.sin(angle), 0.0],
                     [np.sin(angle), np.cos(angle), 0.0], [0.0, 0.0, 1.0]])
    mvp = np.eye(4)
    mvp[:3, :3] = turn @ np.diag([0.9, 0.7, 0.5])
    mvp[:3, 3] = (0.05, -0.1, 0.25)  # an affine map: w stays 1
    normal_matrix = np.diag([1.0, 2.0, 0.5]) @ turn
    positions = np.array([[-0.8, -0.9, 0.2], [0.95, -0.6, 0.4], [-0.3, 1.1, 0.6]])
    normals = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.2], [0.3, -0.4, 1.0]])
    transform = np.zeros(1, numpy_dtype(lay_out(vertex.TRANSFORM, STD140)))
    transform["mvp"] = mvp.T  # column by column
    transform["normal_matrix"]["value"] = normal_matrix.T
    uniform = device.create_buffer_with_data(data=transform.tobytes(),
                                             usage=wgpu.BufferUsage.UNIFORM)
    vertex_usage = wgpu.BufferUsage.VERTEX
    position_buffer = device.create_buffer_with_data(
        data=positions.astype(np.float32).tobytes(), usage=vertex_usage)
    normal_buffer = device.create_buffer_with_data(
        data=normals.astype(np.float32).tobytes(), usage=vertex_usage)
    module = vertex.build("webgpu")
    module.validate("webgpu")

    def draw(render: Any, pipeline: Any) -> None:
        group = device.create_bind_group(layout=pipeline.get_bind_group_layout(0), entries=[
            {"binding": 0, "resource": {"buffer": uniform}},
        ])
        render.set_bind_group(0, group)
        render.set_vertex_buffer(0, position_buffer)
        render.set_vertex_buffer(1, normal_buffer)
        render.draw(3)

    layouts = [
        {"array_stride": 12, "step_mode": "vertex",
         "attributes": [{"format": "float32x3", "offset": 0, "shader_location": location}]}
        for location in (0, 1)
    ]
    pixels = _render(
        device,
        {"module": device.create_shader_module(code=module.to_bytes()), "entry_point": "main",
         "buffers": layouts},
        {"module": device.create_shader_module(code=_NORMAL_WGSL), "entry_point": "main"},
        draw, clear=-7.0,
    )
    clip = (mvp @ np.c_[positions, np.ones(3)].T).T[:, :2]  # NDC: w is 1
    turned = (normal_matrix @ normals.T).T
    world = turned / np.linalg.norm(turned, axis=1, keepdims=True)

    def edge(a: Any, b: Any, p: Any) -> float:
        return float((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))

    area = edge(clip[0], clip[1], clip[2])
    expected = np.full((SIZE, SIZE, 4), -7.0)
    covered = 0
    for y in range(SIZE):
        for x in range(SIZE):
            p = (2 * (x + 0.5) / SIZE - 1, 1 - 2 * (y + 0.5) / SIZE)
            weights = [edge(clip[1], clip[2], p) / area, edge(clip[2], clip[0], p) / area,
                       edge(clip[0], clip[1], p) / area]
            assert min(abs(w) for w in weights) > 1e-3  # no pixel centre on an edge
            if min(weights) > 0:
                covered += 1
                expected[y, x, :3] = sum(w * n for w, n in zip(weights, world, strict=True))
                expected[y, x, 3] = 1.0
    assert 10 < covered < SIZE * SIZE - 10  # a triangle, not the whole target
    np.testing.assert_allclose(pixels, expected, rtol=1e-4, atol=1e-4)
