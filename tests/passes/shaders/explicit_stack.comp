// An explicit stack in a Function array: depth-first walk of an implicit binary tree.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint mask[]; };
layout(std430, binding = 1) buffer Out { uint visited[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint m = mask[i];
    uint stack[16];
    int top = 0;
    stack[top++] = 1u;
    uint count = 0u;
    uint checksum = 0u;
    while (top > 0) {
        uint node = stack[--top];
        count++;
        checksum = checksum * 3u + node;
        if (node >= 32u) {
            continue;
        }
        uint left = node * 2u;
        uint right = left + 1u;
        if (((m >> (node & 31u)) & 1u) != 0u && top < 15) {
            stack[top++] = right;
        }
        if (((m >> (left & 31u)) & 1u) != 0u && top < 15) {
            stack[top++] = left;
        }
    }
    visited[i] = count * 1000003u + checksum;
}
