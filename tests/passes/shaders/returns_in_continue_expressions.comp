// Helpers whose every path returns inside a construct (an if/else, a switch, a loop), called in a for loop's continue expression: their inlined copies must reach the back edge.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 x[]; };
layout(std430, binding = 1) buffer Out { uvec4 y[]; };

uint halve_or_grow(uint v, uint salt) {
    if ((v & 1u) == 0u) {
        return v / 2u;
    } else {
        return v * 3u + salt;
    }
}

uint by_case(uint v) {
    switch (v & 3u) {
    case 0u:
        return v + 7u;
    case 1u:
        return v ^ 0xFFu;
    default:
        return v >> 1;
    }
}

uint first_return_in_loop(uint v) {
    do {
        y[gl_GlobalInvocationID.x].w += 1u;
        return v + 0x9E37u;
    } while (v > 3u);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 v = x[i];
    uint a = v.x;
    uint b = v.y;
    uint c = v.z;
    y[i].w = 0u;
    for (int k = 0; k < int(v.w % 6u); k++, a = halve_or_grow(a, v.z), b = by_case(b), c = first_return_in_loop(c)) {
        a += b;
    }
    y[i].xyz = uvec3(a, b, c);
}
