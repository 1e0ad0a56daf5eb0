// Booleans: bvec comparisons, any/all/not, bool arrays in Function storage, xor of bools.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { ivec4 v[]; };
layout(std430, binding = 1) buffer Out { uint r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 a = v[i];
    bvec4 positive = greaterThan(a, ivec4(0));
    bvec4 even = equal(a & ivec4(1), ivec4(0));
    bool flags[8];
    for (int k = 0; k < 4; k++) {
        flags[k] = positive[k];
        flags[k + 4] = even[k] != positive[k];
    }
    uint code = 0u;
    for (int k = 0; k < 8; k++) {
        if (flags[k] ^^ (k % 3 == 0)) {
            code |= 1u << k;
        }
    }
    code |= any(positive) ? 0x100u : 0u;
    code |= all(even) ? 0x200u : 0u;
    code |= all(not(positive)) ? 0x400u : 0u;
    r[i] = code;
}
