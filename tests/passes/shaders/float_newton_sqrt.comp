// Newton's method for square roots with a convergence break and an iteration cap.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { float x[]; };
layout(std430, binding = 1) buffer Out { vec2 root[]; };

float newton_sqrt(float v, out int steps) {
    steps = 0;
    if (v <= 0.0) {
        return 0.0;
    }
    float guess = v > 1.0 ? v * 0.5 : 1.0;
    for (int k = 0; k < 40; k++) {
        float next = 0.5 * (guess + v / guess);
        steps = k + 1;
        if (abs(next - guess) <= 1e-6 * next) {
            return next;
        }
        guess = next;
    }
    return guess;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int steps;
    float r = newton_sqrt(abs(x[i]) * 37.0, steps);
    root[i] = vec2(r, float(steps));
}
