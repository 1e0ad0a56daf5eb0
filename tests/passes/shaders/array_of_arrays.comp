// Two-dimensional arrays in Function storage: a 4x4 integer matrix product and trace.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint seed[]; };
layout(std430, binding = 1) buffer Out { int trace[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    int a[4][4];
    int b[4][4];
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 4; c++) {
            a[r][c] = int((seed[i] >> uint(r * 4 + c)) & 7u) - 3;
            b[r][c] = (r == c) ? 2 : int((seed[i] >> uint(c * 4 + r + 8)) & 3u);
        }
    }
    int p[4][4];
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 4; c++) {
            int s = 0;
            for (int k = 0; k < 4; k++) {
                s += a[r][k] * b[k][c];
            }
            p[r][c] = s;
        }
    }
    int t = 0;
    for (int k = 0; k < 4; k++) {
        t += p[k][k] * (k + 1) - p[k][3 - k];
    }
    trace[i] = t;
}
