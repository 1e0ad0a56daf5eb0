// Vectors indexed by run-time values, read and written, inside a loop.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 x[]; };
layout(std430, binding = 1) buffer Out { uvec4 y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 v = x[i];
    uvec4 w = uvec4(0u);
    for (int k = 0; k < 8; k++) {
        uint from = v[k & 3] & 3u;
        uint to = (v[(k + 1) & 3] >> 2) & 3u;
        w[to] += v[from] >> 16;
        v[from] ^= uint(k) * 0x01010101u;
    }
    y[i] = w + v;
}
