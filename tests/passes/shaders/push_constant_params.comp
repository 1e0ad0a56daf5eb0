// Push constants: a scale, an offset and a count read in the loop and the branches.
#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Push {
    int offset;
    uint count;
    float scale;
    uint flags;
} pc;
layout(std430, binding = 0) buffer In { int src[]; };
layout(std430, binding = 1) buffer Out { float dst[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int acc = 0;
    for (uint k = 0u; k < (pc.count & 15u); k++) {
        uint j = (i + k) % uint(src.length());
        acc += (src[j] >> 8) + pc.offset % 100;
    }
    float v = float(acc) * (pc.scale * 0.01);
    if ((pc.flags & 2u) != 0u) {
        v = floor(v);
    }
    dst[i] = v;
}
