// do-while loops: digit sums and digit reversal in base 10.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
struct Digits { uint sum; uint rev; };
layout(std430, binding = 1) buffer Out { Digits r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    uint s = 0u;
    uint back = 0u;
    do {
        uint digit = v % 10u;
        s += digit;
        back = back * 10u + digit;
        v /= 10u;
    } while (v != 0u);
    uint w = s;
    uint rounds = 0u;
    do {
        w = (w % 10u) + (w / 10u);
        rounds++;
    } while (w >= 10u);
    r[i].sum = s * 100u + w * 10u + rounds;
    r[i].rev = back;
}
