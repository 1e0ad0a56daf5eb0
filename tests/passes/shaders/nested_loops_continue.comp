// Nested for loops with continue in the inner one and break from both levels.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint seed[]; };
layout(std430, binding = 1) buffer Out { uint acc[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint s = seed[i];
    uint total = 0u;
    bool done = false;
    for (uint a = 0u; a < 10u && !done; a++) {
        for (uint b = 0u; b < 10u; b++) {
            uint mix = (s >> ((a + b) & 31u)) & 7u;
            if (mix == 3u) {
                continue;
            }
            if (mix == 6u && a > 4u) {
                done = true;
                break;
            }
            total += mix * (a + 1u) + b;
        }
        if (total > 900u) {
            break;
        }
    }
    acc[i] = total + (done ? 1000000u : 0u);
}
