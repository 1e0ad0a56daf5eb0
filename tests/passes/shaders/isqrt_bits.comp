// Integer square root, bit by bit, and a check with a helper returning early on equality.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uvec2 r[]; };

uint isqrt(uint n) {
    uint result = 0u;
    uint bit = 1u << 30;
    while (bit > n) {
        bit >>= 2;
    }
    while (bit != 0u) {
        if (n >= result + bit) {
            n -= result + bit;
            result = (result >> 1) + bit;
        } else {
            result >>= 1;
        }
        bit >>= 2;
    }
    return result;
}

uint is_square(uint n) {
    uint s = isqrt(n);
    if (s * s == n) {
        return 1u;
    }
    return 0u;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = x[i];
    r[i] = uvec2(isqrt(n), is_square(n & 0xFFFu) + is_square(i * i) * 2u);
}
