"""GLSL compute kernels whose helper functions return early from inside loops, switches and
selections, take out/inout parameters, call each other and are called in loops, loop
conditions and continue blocks: the input of the inlining tests (glslangValidator, no
optimization).  Each reads ``a`` and writes ``b``, one element per invocation."""

from __future__ import annotations

PRELUDE = """#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer In { uint a[]; };
layout(std430, binding = 1) buffer Out { uint b[]; };
"""

KERNELS: dict[str, str] = {
    "top_level_returns": """
uint clampy(uint x) {
    if (x > 100u) return 100u;
    if (x < 5u) { return 5u; } else { x += 1u; }
    return x;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = clampy(a[i]) + clampy(a[i] >> 4); }""",
    "return_in_loop": """
uint find_bit(uint x) {
    for (uint k = 0u; k < 32u; ++k) {
        if ((x & (1u << k)) != 0u) return k;
    }
    return 99u;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = find_bit(a[i]) * 3u + find_bit(a[i] >> 2); }""",
    "return_in_nested_loops": """
uint pairsum(uint x) {
    uint acc = 0u;
    for (uint p = 0u; p < 8u; ++p) {
        for (uint q = 0u; q < 8u; ++q) {
            acc += p * q + x;
            if (acc > x * 7u) return acc + p;
            if (q == p) break;
        }
        if (acc > 5000u) return 1u;
    }
    return acc;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = pairsum(a[i] & 255u); }""",
    "return_in_switch": """
uint pick(uint x) {
    switch (x & 3u) {
        case 0u: return x * 2u;
        case 1u: if (x > 50u) { return 1u; } break;
        default: x += 3u; break;
    }
    return x;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = pick(a[i]) + pick(a[i] + 1u); }""",
    "switch_in_loop_return": """
uint walk(uint x) {
    uint s = 0u;
    for (int k = 0; k < 10; ++k) {
        switch ((x + uint(k)) % 4u) {
            case 0u: s += 1u; break;
            case 1u: if (s > 3u) return s * 100u; s += 2u; break;
            case 2u: continue;
            default: s ^= x;
        }
        s += 1u;
    }
    return s;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = walk(a[i]); }""",
    "out_inout_params": """
void split(uint x, out uint hi, out uint lo) { hi = x >> 8; lo = x & 255u; if (lo == 0u) { return; } lo += 1u; }
void bump(inout uint v, uint by) { for (uint k = 0u; k < by; ++k) { if (v > 1000u) return; v += k; } }
void main() {
    uint i = gl_GlobalInvocationID.x; uint h; uint l;
    split(a[i], h, l);
    bump(h, l & 7u);
    b[i] = h * 1000u + l;
}""",
    "calls_in_loops": """
uint first_set(uint x) {
    for (uint k = 0u; k < 32u; ++k) { if (((x >> k) & 1u) == 1u) return k; }
    return 32u;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = 0u; uint v = a[i] | 1u;
    for (uint n = 0u; n < 6u; ++n) { acc += first_set(v); v = v * 3u + n; }
    uint k = 0u;
    while (first_set(v + k) < 2u) { k += 1u; }
    b[i] = acc + k;
}""",
    "helpers_calling_helpers": """
struct Pair { uint x; uint y; };
Pair make(uint v) { Pair p; p.x = v; p.y = v * 2u; if (v > 10u) { p.y = 7u; return p; } return p; }
uint sumpair(Pair p) { return p.x + p.y; }
uint twice(uint v) { return sumpair(make(v)) + sumpair(make(v + 1u)); }
void main() { uint i = gl_GlobalInvocationID.x; b[i] = twice(a[i] & 31u); }""",
    "arrays_in_function": """
uint table_lookup(uint idx) {
    uint t[8] = uint[8](3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u);
    for (int k = 0; k < 8; ++k) { if (t[k] == idx) return uint(k); }
    return t[idx & 7u];
}
void main() { uint i = gl_GlobalInvocationID.x; uint s = 0u; for (uint n = 0u; n < 3u; ++n) s += table_lookup(a[i] + n); b[i] = s; }""",
    "void_early_return": """
void store_if(uint i, uint v) {
    if (v == 0u) return;
    for (uint k = 0u; k < 4u; ++k) { if (v < k) { b[i] = 77u; return; } }
    b[i] = v;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = 5u; store_if(i, a[i] & 7u); }""",
    "short_circuit_phi": """
uint choose(uint x, uint y) { if (x > 3u && y < 50u || x == 7u) return x; return (x > y) ? y : x + y; }
void main() { uint i = gl_GlobalInvocationID.x; b[i] = choose(a[i] & 15u, a[i] >> 4); }""",
    "do_while_return": """
uint collatz(uint x) {
    uint n = 0u;
    do { if (x == 1u) return n; x = (x & 1u) == 0u ? x / 2u : 3u * x + 1u; n++; } while (n < 200u);
    return 999u;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = collatz(a[i] | 1u); }""",
    "call_in_continue": """
uint step(uint k) { if (k > 100u) return k + 1u; for (uint j = 0u; j < k; ++j) { if (j == 3u) return k + 2u; } return k + 1u; }
void main() { uint i = gl_GlobalInvocationID.x; uint s = 0u; for (uint k = 0u; k < (a[i] & 15u); k = step(k)) { s += k; } b[i] = s; }""",
    "returning_constructs_in_continue": """
uint either(uint x) { if ((x & 1u) == 0u) { return x / 2u; } else { return x * 3u + 1u; } }
uint by_case(uint x) { switch (x & 3u) { case 0u: return x + 7u; default: return x >> 1; } }
uint in_do(uint x) { do { return x + 9u; } while (x > 3u); }
void main() {
    uint i = gl_GlobalInvocationID.x; uint x = a[i], y = a[i] >> 3, z = 1u;
    for (uint k = 0u; k < (a[i] & 7u); ++k, x = either(x), y = by_case(y), z = in_do(z)) { z += x; }
    b[i] = x + y * 5u + z * 11u;
}""",
    "float_helpers": """
float smoothy(float x) { if (x < 0.0) return 0.0; if (x > 1.0) return 1.0; return x * x * (3.0 - 2.0 * x); }
vec2 rot(vec2 v, float c) { return vec2(v.x * c - v.y, v.y * c + v.x); }
void main() { uint i = gl_GlobalInvocationID.x; float f = float(a[i] & 255u) / 200.0; vec2 r = rot(vec2(f, smoothy(f)), 0.5); b[i] = floatBitsToUint(r.x + r.y); }""",
    "loop_returns_nested_in_calls": """
uint inner(uint x) {
    for (uint k = 0u; k < 8u; ++k) { if (((x >> k) & 3u) == 3u) return k; }
    return 8u;
}
uint outer(uint x) {
    uint s = 0u;
    for (uint j = 0u; j < 4u; ++j) { uint r = inner(x + j); if (r == 0u) return s + 100u; s += r; }
    return s;
}
void main() { uint i = gl_GlobalInvocationID.x; b[i] = outer(a[i]) + inner(a[i] * 7u); }""",
    "inout_struct_with_array": """
struct Acc { uint n; uint vals[4]; };
void push(inout Acc acc, uint v) { if (acc.n >= 4u) return; acc.vals[acc.n] = v; acc.n += 1u; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    Acc acc; acc.n = 0u;
    for (uint k = 0u; k < 6u; ++k) push(acc, a[i] + k * (a[i] & 3u));
    b[i] = acc.vals[0] + acc.vals[3] * 2u + acc.n;
}""",
}
