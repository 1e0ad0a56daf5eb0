// A local array initialised from a constant array, indexed by data, partly overwritten.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint sbox[16] = uint[16](12u, 5u, 6u, 11u, 9u, 0u, 10u, 13u, 3u, 14u, 15u, 8u, 4u, 7u, 1u, 2u);
    if ((x[i] & 0x80000000u) != 0u) {
        sbox[x[i] & 15u] = sbox[(x[i] >> 4) & 15u];
    }
    uint v = x[i];
    uint out_value = 0u;
    for (int k = 0; k < 8; k++) {
        out_value |= sbox[(v >> (4 * k)) & 15u] << (4 * ((k * 3) & 7));
    }
    y[i] = out_value;
}
