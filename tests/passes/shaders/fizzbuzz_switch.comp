// A switch with fallthrough, default in the middle, and breaks out of a loop body.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint code[]; };

uint classify(uint x) {
    uint r = 0u;
    switch (x % 15u) {
        case 0u:
            r += 100u;
        case 3u:
        case 6u:
            r += 10u;
            break;
        default:
            r += 1u;
            break;
        case 5u:
        case 10u:
            r += 1000u;
            break;
    }
    return r;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint total = 0u;
    for (uint k = 0u; k < 8u; k++) {
        uint x = v[i] + k;
        switch (x & 3u) {
            case 0u:
                total += classify(x);
                break;
            case 1u:
                continue;
            case 2u:
                total ^= x;
                break;
            default:
                total += 1u;
        }
        total = total * 3u + k;
    }
    code[i] = total;
}
