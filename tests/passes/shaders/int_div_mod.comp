// Signed integer division and modulo with sign fix-ups, abs, sign, min/max, clamp.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { ivec2 v[]; };
layout(std430, binding = 1) buffer Out { ivec4 r[]; };

int floor_div(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) {
        q--;
    }
    return q;
}

int floor_mod(int a, int b) {
    return a - b * floor_div(a, b);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int a = v[i].x % 1000000;
    int b = (v[i].y % 200);
    if (b == 0) {
        b = 7;
    }
    r[i] = ivec4(floor_div(a, b), floor_mod(a, b), abs(a) % 97 * sign(b), clamp(a, -5000, max(b, 10)));
}
