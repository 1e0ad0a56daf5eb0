// A switch on a local that is constant once SSA: the taken case falls through into a default that comes first in the binary, so folding the switch leaves a block before its dominator.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint acc = x[i];
    int sel = -7;
    switch (acc & 7u) {
    case 0u:
        for (int k = 0; k < 2 && acc > 3u; k++) {
            switch (sel & 7) {
            case 1:
                for (int j = 0; j < 3 && (acc & 1u) == 0u; j++) {
                    acc = acc / 2u + uint(j);
                }
            default:
                acc = acc * 3u + 1u;
            }
        }
        break;
    default:
        acc ^= 0x5A5Au;
    }
    y[i] = acc;
}
