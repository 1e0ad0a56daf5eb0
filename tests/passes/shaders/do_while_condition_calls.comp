// A do-while loop with an empty body whose condition calls a helper returning from a switch in an else-if chain on specialization constants: the condition is a continue construct of many blocks, which must not become the loop header's own (found by tests/passes/random_glsl.py).
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint SC0 = 5u;
layout(constant_id = 2) const int SC2 = 7;
layout(std430, binding = 0) buffer In { uvec4 u[]; } inp;
layout(std430, binding = 1) buffer Out { uvec4 r[]; } outp;
struct S2 { bvec2 m0; };
struct S17 { int m0; S2 m1; uint m2; vec3 m3; };
bool h8(in float p9, in int p10[5][3]) {
        if ((((false ? SC0 : SC0) * 0u) < 8u)) {
        } else if ((SC0 == SC0)) {
            switch (int(min(~(SC0), 0x80000000u)) & 7) {
            case 4:
                    return (!all(notEqual(uvec4(0x80000000u, 140u, 0xf2835b6cu, 0xFFFFFFFFu), uvec4(0x80000000u))));
            }
        } else if (bool(int(SC0))) {
        } else {
        }
        return p9 < p9;
}
void main() {
    uvec4 seed = inp.u[gl_GlobalInvocationID.x];
    S2 v16 = S2(bvec2(true, false));
    S17 v18 = S17(((!false) ? (-7) : SC2), v16, (SC0 + 0x80000000u), vec3(1.0));
    int g22 = 0;
    do {
    } while (g22 < int((((!v16.m0.y) ? v18.m2 : (SC0 - v18.m2))) % 5u) && h8(-(v18.m3[2]), int[5][3](int[3](6, v18.m0, (-7)), int[3]((-7), 0x7FFFFFFF, 0x7FFFFFFF), int[3](-629, 259, (-7)), int[3](0x7FFFFFFF, 0x7FFFFFFF, 1), int[3](4, 0x7FFFFFFF, -6))));
    outp.r[gl_GlobalInvocationID.x] = seed * 3u + uvec4(g22);
}
