// out parameters: a helper returning quotient and remainder, another filling a struct.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { int a[]; } src;
layout(std430, binding = 1) buffer Out { int q[]; };
layout(std430, binding = 2) buffer Out2 { int m[]; };

void divmod(int x, int y, out int quot, out int rem) {
    if (y == 0) {
        quot = 0;
        rem = x;
        return;
    }
    quot = x / y;
    rem = x - quot * y;
    if (rem != 0 && ((rem < 0) != (y < 0))) {
        quot -= 1;
        rem += y;
    }
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = src.a[i] % 100000;
    int y = (src.a[i] >> 20) % 97;
    int quot;
    int rem;
    divmod(x, y, quot, rem);
    q[i] = quot;
    m[i] = rem;
}
