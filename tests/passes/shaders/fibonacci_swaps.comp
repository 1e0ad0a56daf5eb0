// Loop-carried values rotated every iteration (Fibonacci mod a prime, a three-way rotation).
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint n[]; };
layout(std430, binding = 1) buffer Out { uvec2 r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint count = n[i] & 127u;
    uint a = 0u;
    uint b = 1u;
    uint x = 1u, y = 2u, z = 3u;
    for (uint k = 0u; k < count; k++) {
        uint t = (a + b) % 1000003u;
        a = b;
        b = t;
        uint w = x;
        x = y;
        y = z;
        z = w + k;
    }
    r[i] = uvec2(a, x * 10000u + y * 100u + z);
}
