// Collatz step counts: a while loop with a compound condition and an early break.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint starts[]; };
layout(std430, binding = 1) buffer Out { uint steps[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = (starts[i] & 0xFFFFu) | 1u;
    uint count = 0u;
    while (n != 1u) {
        if ((n & 1u) == 0u) {
            n = n / 2u;
        } else {
            n = 3u * n + 1u;
        }
        count++;
        if (count >= 500u) {
            break;
        }
    }
    steps[i] = count;
}
