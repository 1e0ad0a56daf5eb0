// Specialization constants at their defaults: a loop bound, a switch and an array size.
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int ROUNDS = 5;
layout(constant_id = 1) const uint SALT = 0x9E3779B9u;
layout(constant_id = 2) const bool INVERT = true;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint y[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint keep[ROUNDS + 1];
    uint v = x[i];
    for (int k = 0; k < ROUNDS; k++) {
        v = (v ^ SALT) * 16777619u + uint(k);
        keep[k] = v >> 24;
    }
    keep[ROUNDS] = INVERT ? ~v : v;
    uint sum = 0u;
    for (int k = 0; k <= ROUNDS; k++) {
        sum += keep[k] << (k & 7);
    }
    y[i] = sum;
}
