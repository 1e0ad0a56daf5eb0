// sign() and abs() of -0.0 held in a local vector (issue 26, seed 3098): lavapipe gives -0.0 for both, so folding leaves them.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 u[]; } inp;
layout(std430, binding = 1) buffer Out { uvec4 r[]; } outp;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 seed = inp.u[i];
    vec4 k = vec4(-0.0, -1.0, 0.0, 2.5);
    float s = sign(k[0]);
    float a = abs(k[0]);
    float b = abs(clamp(k[0], -64.0, 64.0));
    float p = sign(k[2]) + abs(k[1]);
    outp.r[i] = uvec4(floatBitsToUint(s), floatBitsToUint(a), floatBitsToUint(b), floatBitsToUint(p)) ^ seed;
}
