// Three levels of helper calls, each with several returns, one called twice per level.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { int x[]; };
layout(std430, binding = 1) buffer Out { int y[]; };

int leaf(int v) {
    if (v < -100) return -100;
    if (v > 100) return 100;
    return v;
}

int middle(int v, int w) {
    int a = leaf(v);
    if (a == 0) {
        return leaf(w);
    }
    int b = leaf(w - a);
    if (b < 0) {
        return a - b;
    }
    return a * 2 + b;
}

int top(int v) {
    int r = middle(v % 300, v / 300 % 300);
    for (int k = 0; k < 3; k++) {
        if (r > 150) {
            return r + k;
        }
        r += middle(r, k - v % 7);
    }
    return r;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = top(x[i]) + top(x[i] >> 9);
}
