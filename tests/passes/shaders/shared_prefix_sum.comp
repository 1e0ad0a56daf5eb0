// Workgroup inclusive prefix sum in shared memory (Hillis-Steele), barriers in the loop.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint prefix[]; };
shared uint scratch[2][64];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    scratch[0][l] = x[i] & 0xFFFFu;
    barrier();
    uint from = 0u;
    for (uint offset = 1u; offset < 64u; offset *= 2u) {
        uint to = 1u - from;
        uint v = scratch[from][l];
        if (l >= offset) {
            v += scratch[from][l - offset];
        }
        scratch[to][l] = v;
        barrier();
        from = to;
    }
    prefix[i] = scratch[from][l];
}
