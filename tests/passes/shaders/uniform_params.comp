// A std140 uniform block of parameters steering a loop and a choice of formula.
#version 450
layout(local_size_x = 64) in;
layout(std140, binding = 0) uniform Params {
    uint rounds;
    uint mode;
    float scale;
    vec4 bias;
    ivec2 window;
} params;
layout(std430, binding = 1) buffer Data { float values[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = values[i];
    uint n = params.rounds & 7u;
    for (uint k = 0u; k < n; k++) {
        if ((params.mode & 1u) != 0u) {
            v = v * 0.5 + params.bias[k & 3u];
        } else {
            v = v - params.scale * 0.001 * float(k);
        }
    }
    int lo = min(params.window.x, params.window.y) % 1000;
    int hi = max(params.window.x, params.window.y) % 1000;
    if (int(i) >= min(lo, hi) && int(i) <= max(lo, hi)) {
        v = -v;
    }
    values[i] = v;
}
