// Binary search in a sorted table: a helper that returns from inside its loop.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint keys[]; };
layout(std430, binding = 1) buffer Out { int found[]; };

const uint TABLE[16] = uint[16](3u, 8u, 15u, 22u, 40u, 41u, 57u, 63u,
                                 77u, 90u, 101u, 120u, 133u, 180u, 201u, 250u);

int search(uint key) {
    int lo = 0;
    int hi = 15;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        uint value = TABLE[mid];
        if (value == key) {
            return mid;
        } else if (value < key) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -lo - 1;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    found[i] = search(keys[i] & 0xFFu) * 3 + search(i);
}
