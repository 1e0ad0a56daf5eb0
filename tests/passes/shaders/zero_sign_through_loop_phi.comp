// A struct holding -0.0 carried through a loop that never runs into arithmetic whose result's sign depends on zero signs (issue 26, seed 1692).
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 u[]; } inp;
layout(std430, binding = 1) buffer Out { uvec4 r[]; } outp;
struct S { float m0; int m1; vec4 m2; };
void main() {
    uvec4 seed = inp.u[gl_GlobalInvocationID.x];
    S v = S(1.0, 4, vec4(7.0, 0.5, 2.5, -0.0));
    for (int k = 0; k < 0; k++) {
        v.m1 = int(seed.x);
    }
    // -0.0 * max(-0.0, -0.0 * 1.0) = -0.0 * -0.0 = +0.0 in IEEE arithmetic
    outp.r[gl_GlobalInvocationID.x].w = floatBitsToUint(v.m2.w * max(v.m2.w, -0.0 * v.m0));
    outp.r[gl_GlobalInvocationID.x].x = seed.x + uint(v.m1);
}
