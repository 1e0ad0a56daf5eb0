// Loops with constant trip counts over constants only: what folding and unrolling see.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint y[]; };

uint table_sum() {
    uint s = 0u;
    for (uint k = 1u; k <= 10u; k++) {
        s += k * k;
    }
    return s;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint f = 1u;
    for (int k = 1; k <= 6; k++) {
        f *= uint(k);
    }
    const uint shift = 3u + 2u * 2u;
    uint mask = (1u << shift) - 1u;
    bool flag = (f > 700u) && !(table_sum() == 0u);
    y[i] = (x[i] & mask) + f + table_sum() + (flag ? 11u : 22u);
}
