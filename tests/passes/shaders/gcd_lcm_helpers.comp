// Helper functions with early returns, one inside a loop.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint a[]; };
layout(std430, binding = 1) buffer Out { uint g[]; };

uint gcd(uint x, uint y) {
    if (x == 0u) return y;
    if (y == 0u) return x;
    while (true) {
        uint r = x % y;
        if (r == 0u) {
            return y;
        }
        x = y;
        y = r;
    }
    return 0u;
}

uint lcm(uint x, uint y) {
    if (x == 0u || y == 0u) {
        return 0u;
    }
    return (x / gcd(x, y)) * y;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i] & 0xFFFu;
    uint y = (a[i] >> 12) & 0xFFFu;
    g[i] = gcd(x, y) + 7u * lcm(x & 0xFFu, y & 0xFFu);
}
