// Atomic minimum, maximum, or, xor and exchange-free counters on global integers.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { int x[]; };
layout(std430, binding = 1) buffer Stats { int lo; int hi; uint bits; uint parity; uint count; };

void main() {
    int v = x[gl_GlobalInvocationID.x];
    atomicMin(lo, v);
    atomicMax(hi, v);
    atomicOr(bits, uint(v) & 0xF0F0F0F0u);
    atomicXor(parity, uint(v));
    if (v > 0) {
        atomicAdd(count, 1u);
    }
}
