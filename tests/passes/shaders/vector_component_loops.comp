// A vector's component updated in for and while loops of a run-time trip count (lavapipe 22.3 ran such a loop once too often after its continue target took the body's end, as spirv-opt -O's output of it does).
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 u[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 seed = u[i];
    uvec3 v = uvec3(9u);
    for (int k = 0; k < int(seed.z % 5u); k++) {
        v.z = v.z - 654879133u;
    }
    ivec2 w = ivec2(int(seed.x & 255u), -3);
    int n = 0;
    while (n < int(seed.y & 3u)) {
        w.y = w.y * 3 + n;
        n++;
    }
    r[i] = uvec4(v.z, uint(w.x), uint(w.y), uint(n));
}
