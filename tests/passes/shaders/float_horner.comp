// Float polynomial evaluation by Horner's rule, coefficients from a global constant array.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { float y[]; };

const float COEFFS[6] = float[6](0.5, -1.25, 2.0, 0.125, -0.0625, 0.015625);

float horner(float t) {
    float acc = 0.0;
    for (int k = 5; k >= 0; k--) {
        acc = acc * t + COEFFS[k];
    }
    return acc;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    float t = x[i] * 0.125;
    y[i] = horner(t) - horner(-t) * 0.5;
}
