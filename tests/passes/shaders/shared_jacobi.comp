// Jacobi relaxation in shared memory: a barrier-separated loop of neighbour averages.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { float y[]; };
shared float grid[2][66];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x + 1u;
    grid[0][l] = x[i];
    grid[1][l] = 0.0;
    if (l == 1u) {
        grid[0][0] = 0.0;
        grid[1][0] = 0.0;
        grid[0][65] = 0.0;
        grid[1][65] = 0.0;
    }
    barrier();
    int cur = 0;
    for (int step = 0; step < 6; step++) {
        float v = 0.25 * grid[cur][l - 1u] + 0.5 * grid[cur][l] + 0.25 * grid[cur][l + 1u];
        grid[1 - cur][l] = v;
        barrier();
        cur = 1 - cur;
    }
    y[i] = grid[cur][l];
}
