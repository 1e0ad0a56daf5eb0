// Mandelbrot escape counts: a float loop with an escape break; 2D local size.
#version 450
layout(local_size_x = 8, local_size_y = 1) in;
layout(std430, binding = 0) buffer In { vec2 c[]; };
layout(std430, binding = 1) buffer Out { uint iterations[]; };

uint escape(vec2 point) {
    vec2 z = vec2(0.0);
    for (uint k = 0u; k < 64u; k++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + point;
        if (dot(z, z) > 4.0) {
            return k;
        }
    }
    return 64u;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    iterations[i] = escape(c[i] * 0.15);
}
