// An 8x8 tile transposed through shared memory, with a 2D local size.
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint y[]; };
shared uint tile[8][9];

void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uint base = gl_WorkGroupID.x * 64u;
    uint index = base + l.y * 8u + l.x;
    if (index < uint(x.length())) {
        tile[l.y][l.x] = x[index];
    }
    barrier();
    if (index < uint(y.length())) {
        y[index] = tile[l.x][l.y] + l.x * 100u + l.y;
    }
}
