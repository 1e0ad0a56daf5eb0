// Run-length encoding of sixteen 2-bit symbols into a Function array of runs.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uvec2 r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    uint symbols[16];
    for (int k = 0; k < 16; k++) {
        symbols[k] = (v >> (2 * k)) & 3u;
    }
    uint runs[16];
    uint lengths[16];
    int count = 0;
    int k = 0;
    while (k < 16) {
        uint s = symbols[k];
        int start = k;
        do {
            k++;
        } while (k < 16 && symbols[k] == s);
        runs[count] = s;
        lengths[count] = uint(k - start);
        count++;
    }
    uint code = 0u;
    uint longest = 0u;
    for (int j = 0; j < count; j++) {
        code = code * 5u + runs[j] + lengths[j];
        longest = max(longest, lengths[j]);
    }
    r[i] = uvec2(code, uint(count) * 100u + longest);
}
