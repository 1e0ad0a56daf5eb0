// Float selection: step, smoothstep, min/max chains, sign, fract, a piecewise function.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { vec4 y[]; };

float piecewise(float t) {
    if (t < -4.0) {
        return -1.0;
    } else if (t < 0.0) {
        return t * 0.25;
    } else if (t < 4.0) {
        return smoothstep(0.0, 4.0, t);
    }
    return 1.0 + fract(t);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    float t = x[i];
    float a = step(0.5, t) * sign(t);
    float b = max(min(t, 3.0), min(-t, 2.0));
    y[i] = vec4(piecewise(t), a, b, piecewise(t * 0.5) - piecewise(-t));
}
