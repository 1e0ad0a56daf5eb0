// 64-bit integers: full products, high halves, a 64-bit hash loop.
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec2 v[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };

uint64_t fnv1a(uint64_t h, uint word) {
    for (int k = 0; k < 4; k++) {
        h ^= uint64_t((word >> (8 * k)) & 0xFFu);
        h *= 1099511628211ul;
    }
    return h;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t a = uint64_t(v[i].x);
    uint64_t b = uint64_t(v[i].y);
    uint64_t p = a * b;
    uint64_t h = fnv1a(fnv1a(14695981039346656037ul, v[i].x), v[i].y);
    r[i] = uvec4(uint(p), uint(p >> 32), uint(h), uint(h >> 32));
}
