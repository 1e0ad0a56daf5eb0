// Bit manipulation: bitCount, findMSB/findLSB, bitfieldExtract/Insert/Reverse, a popcount loop.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };

uint popcount_loop(uint v) {
    uint c = 0u;
    while (v != 0u) {
        v &= v - 1u;
        c++;
    }
    return c;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    uint a = uint(bitCount(v)) * 1000u + popcount_loop(v);
    uint b = uint(findMSB(v) + 1) * 64u + uint(findLSB(v) + 1);
    uint c = bitfieldExtract(v, 3, 9) | bitfieldInsert(v, 0x5u, 20, 3);
    uint d = bitfieldReverse(v) ^ (v << 7) ^ (v >> 11);
    r[i] = uvec4(a, b, c, d);
}
