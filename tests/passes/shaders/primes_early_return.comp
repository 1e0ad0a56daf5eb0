// Primality by trial division: early returns before and inside a loop, a counting loop.
#version 450
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer In { uint n[]; };
layout(std430, binding = 1) buffer Out { uint total_primes; uvec2 result[]; };

bool is_prime(uint x) {
    if (x < 2u) return false;
    if (x < 4u) return true;
    if ((x & 1u) == 0u) return false;
    for (uint d = 3u; d * d <= x; d += 2u) {
        if (x % d == 0u) {
            return false;
        }
    }
    return true;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = n[i] & 0x3FFFu;
    uint below = 0u;
    for (uint k = x; k > x - min(x, 20u); k--) {
        if (is_prime(k)) below++;
    }
    result[i] = uvec2(is_prime(x) ? 1u : 0u, below);
}
