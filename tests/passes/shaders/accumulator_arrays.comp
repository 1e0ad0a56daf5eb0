// Several accumulator arrays updated in one loop and reduced in another.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uvec4 y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(x.length());
    uint sums[4] = uint[4](0u, 0u, 0u, 0u);
    uint maxima[4] = uint[4](0u, 0u, 0u, 0u);
    uint counts[4];
    for (int k = 0; k < 4; k++) {
        counts[k] = 0u;
    }
    for (uint k = 0u; k < 24u; k++) {
        uint v = x[(i * 7u + k * 13u) % n];
        uint bucket = v >> 30;
        sums[bucket] += v & 0xFFFFu;
        maxima[bucket] = max(maxima[bucket], v & 0xFFFFu);
        counts[bucket]++;
    }
    uvec4 r = uvec4(0u);
    for (int k = 0; k < 4; k++) {
        r[k] = sums[k] + maxima[k] * 3u + counts[k] * 100000u;
    }
    y[i] = r;
}
