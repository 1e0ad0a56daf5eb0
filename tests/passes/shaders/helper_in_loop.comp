// A helper with returns inside its loop and its if, called from a loop and a condition.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint y[]; };

uint first_set_after(uint v, uint start) {
    if (start >= 32u) {
        return 32u;
    }
    for (uint b = start; b < 32u; b++) {
        if (((v >> b) & 1u) != 0u) {
            if (b == 31u) {
                return 100u;
            }
            return b;
        }
    }
    return 32u;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    uint pos = 0u;
    uint hops = 0u;
    for (int k = 0; k < 40; k++) {
        uint next = first_set_after(v, pos);
        if (next >= 32u) {
            break;
        }
        hops += next;
        pos = next + 1u;
    }
    y[i] = hops + (first_set_after(v, 16u) == 100u ? 1000u : 0u);
}
