// Insertion sort of an array of structs by key, a struct copied whole in the inner loop.
#version 450
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer In { uint seed[]; };
layout(std430, binding = 1) buffer Out { uint order[]; };

struct Item {
    uint key;
    uint index;
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    Item items[6];
    for (int k = 0; k < 6; k++) {
        items[k].key = (seed[i] >> (5 * k)) & 31u;
        items[k].index = uint(k);
    }
    for (int k = 1; k < 6; k++) {
        Item current = items[k];
        int j = k - 1;
        while (j >= 0 && items[j].key > current.key) {
            items[j + 1] = items[j];
            j--;
        }
        items[j + 1] = current;
    }
    uint packed = 0u;
    for (int k = 0; k < 6; k++) {
        packed = packed * 6u + items[k].index;
    }
    order[i] = packed;
}
