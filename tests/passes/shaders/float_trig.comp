// GLSL.std.450 transcendental functions: sin, cos, atan, exp, log, pow, with branches.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { vec2 p[]; };
layout(std430, binding = 1) buffer Out { vec4 r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 q = p[i];
    float angle = atan(q.y, q.x);
    float radius = length(q);
    float s = sin(angle * 3.0) * cos(angle);
    float e = exp(-radius * 0.25);
    float l = radius > 0.0 ? log(radius + 1.0) : 0.0;
    float w = pow(abs(q.x) + 1.0, 0.75);
    if (s < 0.0) {
        s = -s * e;
    }
    r[i] = vec4(s, e + l, w, tanh(q.y * 0.1));
}
