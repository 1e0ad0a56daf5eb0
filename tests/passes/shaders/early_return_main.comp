// main returns early on several conditions, before and inside a loop.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { int x[]; };
layout(std430, binding = 1) buffer Out { int y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int v = x[i];
    if ((v & 7) == 0) {
        y[i] = -1;
        return;
    }
    int acc = 0;
    for (int k = 0; k < 12; k++) {
        acc += (v >> k) & 15;
        if (acc > 60) {
            y[i] = acc * 100 + k;
            return;
        }
    }
    if (acc < 5) {
        return;
    }
    y[i] = acc;
}
