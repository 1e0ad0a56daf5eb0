// Structs holding arrays and structs, in Function storage, copied whole and in parts.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint seed[]; };
layout(std430, binding = 1) buffer Out { uint digest[]; };

struct Inner {
    uint values[4];
    uint count;
};

struct Outer {
    Inner left;
    Inner right;
    uint tag;
};

Inner fill(uint s) {
    Inner x;
    x.count = 0u;
    for (int k = 0; k < 4; k++) {
        x.values[k] = (s >> (8 * k)) & 0xFFu;
        if (x.values[k] > 127u) {
            x.count++;
        }
    }
    return x;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    Outer o;
    o.left = fill(seed[i]);
    o.right = fill(seed[i] * 2654435761u);
    o.tag = i;
    Outer copy = o;
    copy.left.values[1] = o.right.values[2];
    uint d = copy.tag;
    for (int k = 0; k < 4; k++) {
        d = d * 31u + copy.left.values[k] + 7u * copy.right.values[3 - k];
    }
    digest[i] = d + copy.left.count * 1000u + o.right.count;
}
