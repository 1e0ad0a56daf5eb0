// CRC-32 of four words: a 16-entry table built in a Function array, then a nibble loop.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 data[]; };
layout(std430, binding = 1) buffer Out { uint crc[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint table[16];
    for (uint n = 0u; n < 16u; n++) {
        uint c = n;
        for (int k = 0; k < 4; k++) {
            c = ((c & 1u) != 0u) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
        }
        table[n] = c;
    }
    uint value = 0xFFFFFFFFu;
    uvec4 d = data[i];
    for (int w = 0; w < 4; w++) {
        uint word = d[w];
        for (int nib = 0; nib < 8; nib++) {
            value = table[(value ^ (word >> (4 * nib))) & 15u] ^ (value >> 4);
        }
    }
    crc[i] = ~value;
}
