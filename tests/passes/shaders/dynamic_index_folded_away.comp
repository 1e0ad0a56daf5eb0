// Locals read by run-time indices only in branches that fold away (a vector, an array, an array in a struct): once those reads go, the locals are loaded and stored whole, and must become SSA values too.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uvec4 x[]; };
layout(std430, binding = 1) buffer Out { uvec4 y[]; };

struct Table { uint slots[8]; uint count; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 seed = x[i];
    uint keep[4] = uint[4](seed.x, seed.y, 3u, 9u);
    Table t = Table(uint[8](1u, 2u, 3u, 4u, 5u, 6u, 7u, seed.w), 8u);
    bool never = false;
    uint sum = 0u;
    if (never) {
        sum = seed[seed.z & 3u] + keep[seed.x & 3u] + t.slots[seed.y & 7u];
    }
    uint unused = seed[seed.w & 3u] * t.slots[seed.x & 7u];
    uint[4] copy = keep;
    Table t2 = t;
    y[i] = uvec4(sum + copy[1], seed.y, t2.slots[7], t2.count) + seed;
}
