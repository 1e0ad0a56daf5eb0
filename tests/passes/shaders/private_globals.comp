// Private globals written by helpers and read by main (state outside the functions).
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uvec2 r[]; };

uint calls = 0u;
uint last = 0u;
uint history[4];

uint step_state(uint v) {
    calls++;
    history[calls & 3u] = v;
    if ((v & 1u) == 1u) {
        last = v;
        return v * 3u + 1u;
    }
    return v >> 1;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i] & 0xFFFFu;
    for (int k = 0; k < 7; k++) {
        v = step_state(v);
    }
    r[i] = uvec2(v + last, calls + history[0] + history[1] * 2u + history[2] + history[3]);
}
