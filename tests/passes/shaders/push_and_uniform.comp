// A uniform block and push constants together, with an array member of the uniform block.
#version 450
layout(local_size_x = 32) in;
layout(std140, set = 0, binding = 2) uniform Table {
    uvec4 masks[4];
    uint shift;
} table;
layout(push_constant) uniform Push {
    uint select;
    uint salt;
} pc;
layout(std430, set = 0, binding = 0) buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 m = table.masks[pc.select & 3u];
    uint v = x[i] ^ pc.salt;
    uint s = table.shift & 15u;
    y[i] = ((v & m.x) >> s) | ((v & m.y) << s) | (v & m.z & ~m.w);
}
