// A small bytecode interpreter: a switch inside a loop, with continue, break and a return.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint program[]; };
layout(std430, binding = 1) buffer Out { int result[]; };

int interpret(uint code) {
    int acc = 1;
    int reg = 0;
    for (int pc = 0; pc < 16; pc++) {
        uint op = (code >> (2 * pc)) & 3u;
        switch (op) {
            case 0u:
                acc += pc;
                break;
            case 1u:
                acc *= 3;
                if (acc > 10000) {
                    return -acc;
                }
                break;
            case 2u:
                reg = acc;
                continue;
            default:
                if (reg != 0 && (pc & 1) == 1) {
                    pc = 16;
                    break;
                }
                acc -= reg;
                break;
        }
        acc ^= pc;
    }
    return acc + reg;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = interpret(program[i]);
}
