// Integer vectors: component-wise arithmetic, shifts, comparisons to masks, conversions.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { ivec4 a[]; };
layout(std430, binding = 1) buffer Out { ivec4 b[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 v = a[i] >> 8;
    ivec4 w = v.wzyx * ivec4(3, -1, 2, 5) + ivec4(i);
    uvec4 u = uvec4(w) >> uvec4(1u, 2u, 3u, 4u);
    ivec4 m = ivec4(lessThan(v, w)) * 7 - ivec4(equal(v & 3, ivec4(1)));
    b[i] = (w ^ ivec4(u)) + m + min(v, w) - max(v, -w) + abs(v % 13);
}
