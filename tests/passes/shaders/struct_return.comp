// Helpers taking and returning structs, a struct local modified member by member.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec2 p[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };

struct Range {
    uint lo;
    uint hi;
    bool empty;
};

Range make_range(uint a, uint b) {
    Range r;
    r.lo = min(a, b);
    r.hi = max(a, b);
    r.empty = a == b;
    return r;
}

Range intersect(Range x, Range y) {
    Range r;
    r.lo = max(x.lo, y.lo);
    r.hi = min(x.hi, y.hi);
    r.empty = x.empty || y.empty || r.lo >= r.hi;
    if (r.empty) {
        r.lo = 0u;
        r.hi = 0u;
    }
    return r;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    Range a = make_range(p[i].x & 0xFFFFu, p[i].y & 0xFFFFu);
    Range b = make_range(p[i].x >> 16, p[i].y >> 16);
    Range c = intersect(a, b);
    r[i] = uvec4(c.lo, c.hi, c.empty ? 1u : 0u, a.hi - a.lo);
}
