// Much that nothing uses: helpers never called, locals never read, unused globals and types.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint y[]; };
layout(std430, binding = 2) buffer Unused { vec4 nothing[]; };

struct NeverUsed { mat4 m; vec3 v; double d; };
shared vec4 unused_shared[32];
const float UNUSED_TABLE[4] = float[4](1.0, 2.0, 3.0, 4.0);

float never_called(float a) {
    float b = a * a;
    for (int k = 0; k < 4; k++) {
        b += UNUSED_TABLE[k];
    }
    return sqrt(b);
}

uint also_never(uint v) { return v * 3u; }

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint dead_a = x[i] * 17u;
    float dead_b = float(dead_a) * 0.5;
    vec4 dead_c = vec4(dead_b, 1.0, 2.0, 3.0);
    uint kept = x[i] + 1u;
    uint dead_d = kept << 3;
    y[i] = kept;
}
