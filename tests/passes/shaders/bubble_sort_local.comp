// Bubble sort of a local array with an early exit when a pass swaps nothing.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 v[]; };
layout(std430, binding = 1) buffer Out { uint median[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint w[8];
    w[0] = v[i].x; w[1] = v[i].y; w[2] = v[i].z; w[3] = v[i].w;
    w[4] = v[i].x ^ v[i].y; w[5] = v[i].y ^ v[i].z; w[6] = v[i].z ^ v[i].w; w[7] = i;
    for (int pass = 0; pass < 8; pass++) {
        bool swapped = false;
        for (int k = 0; k < 7 - pass; k++) {
            if (w[k] > w[k + 1]) {
                uint t = w[k];
                w[k] = w[k + 1];
                w[k + 1] = t;
                swapped = true;
            }
        }
        if (!swapped) {
            break;
        }
    }
    median[i] = (w[3] >> 1) + (w[4] >> 1) + (w[0] & w[7] & 1u);
}
