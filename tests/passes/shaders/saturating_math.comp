// Saturating and clamped integer arithmetic, unsigned overflow checks, mixed selects.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec2 v[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };

uint add_sat(uint a, uint b) {
    uint s = a + b;
    return s < a ? 0xFFFFFFFFu : s;
}

uint sub_sat(uint a, uint b) {
    return a > b ? a - b : 0u;
}

uint mul_sat(uint a, uint b) {
    if (a == 0u || b == 0u) return 0u;
    if (a > 0xFFFFFFFFu / b) return 0xFFFFFFFFu;
    return a * b;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = v[i].x;
    uint b = v[i].y;
    r[i] = uvec4(add_sat(a, b), sub_sat(a, b), mul_sat(a >> 8, b >> 12), clamp(a, b >> 1, max(b, b >> 1)));
}
