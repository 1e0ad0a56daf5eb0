// A histogram by atomicAdd into a storage buffer, shared-memory bins first.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Bins { uint bins[16]; uint total; };
shared uint local_bins[16];

void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 16u) {
        local_bins[l] = 0u;
    }
    barrier();
    uint v = x[gl_GlobalInvocationID.x];
    atomicAdd(local_bins[v & 15u], 1u);
    if ((v & 0x100u) != 0u) {
        atomicAdd(local_bins[(v >> 4) & 15u], 2u);
    }
    barrier();
    if (l < 16u) {
        atomicAdd(bins[l], local_bins[l]);
        atomicAdd(total, local_bins[l]);
    }
}
