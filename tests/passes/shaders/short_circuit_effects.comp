// && and || around calls with side effects on a buffer: only the evaluated ones write.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Log { uvec4 calls[]; };

bool probe(uint i, uint lane, bool answer) {
    calls[i][lane] += 1u + lane;
    return answer;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    bool a = probe(i, 0u, (v & 1u) != 0u) && probe(i, 1u, (v & 2u) != 0u);
    bool b = probe(i, 2u, (v & 4u) != 0u) || probe(i, 3u, (v & 8u) != 0u);
    bool c = (v & 16u) != 0u ? probe(i, 0u, true) : probe(i, 1u, false);
    calls[i].w = calls[i].w * 8u + (a ? 4u : 0u) + (b ? 2u : 0u) + (c ? 1u : 0u);
}
