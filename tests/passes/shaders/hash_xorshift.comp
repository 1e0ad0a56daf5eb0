// Integer hashing: xorshift rounds in a fixed loop, multiplicative mixing, rotates.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint seed[]; };
layout(std430, binding = 1) buffer Out { uint hash[]; };

uint rotl(uint v, uint k) {
    k &= 31u;
    if (k == 0u) {
        return v;
    }
    return (v << k) | (v >> (32u - k));
}

uint mix(uint h) {
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint h = seed[i] ^ i;
    for (int round = 0; round < 5; round++) {
        h ^= h << 13;
        h ^= h >> 17;
        h ^= h << 5;
        h = rotl(h, uint(round) * 7u + (h & 3u));
    }
    hash[i] = mix(h);
}
