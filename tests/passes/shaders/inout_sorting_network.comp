// inout parameters: a compare-exchange helper sorting eight values in Function storage.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint sorted[]; };

void exchange(inout uint x, inout uint y) {
    if (x > y) {
        uint t = x;
        x = y;
        y = t;
    }
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint w[8];
    for (int k = 0; k < 8; k++) {
        w[k] = (v[i] >> (4 * k)) & 15u;
    }
    for (int pass = 0; pass < 8; pass++) {
        for (int k = pass & 1; k + 1 < 8; k += 2) {
            exchange(w[k], w[k + 1]);
        }
    }
    uint packed = 0u;
    for (int k = 7; k >= 0; k--) {
        packed = (packed << 4) | w[k];
    }
    sorted[i] = packed;
}
