// Doubles: a compensated (Kahan) sum over a loop, converted back to float at the end.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { vec2 r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    double sum = 0.0lf;
    double carry = 0.0lf;
    uint n = uint(x.length());
    for (uint k = 0u; k < 16u; k++) {
        double term = double(x[(i + k * 17u) % n]) * 1.0e-3lf;
        double y = term - carry;
        double t = sum + y;
        carry = (t - sum) - y;
        sum = t;
    }
    r[i] = vec2(float(sum), float(carry * 1.0e6lf));
}
