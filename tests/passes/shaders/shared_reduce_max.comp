// Workgroup maximum and its index by tree reduction in shared memory.
#version 450
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { vec2 best[]; };
shared float value[32];
shared uint where[32];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    value[l] = x[i];
    where[l] = i;
    barrier();
    for (uint stride = 16u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            float other = value[l + stride];
            if (other > value[l] || (other == value[l] && where[l + stride] < where[l])) {
                value[l] = other;
                where[l] = where[l + stride];
            }
        }
        barrier();
    }
    best[i] = vec2(value[0], float(where[0]) + float(l) * 0.001);
}
