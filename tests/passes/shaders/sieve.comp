// A sieve of Eratosthenes in a Function bool array, then a count below the input.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint x[]; };
layout(std430, binding = 1) buffer Out { uint primes_below[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    bool composite[64];
    for (int k = 0; k < 64; k++) {
        composite[k] = k < 2;
    }
    for (int p = 2; p * p < 64; p++) {
        if (composite[p]) {
            continue;
        }
        for (int m = p * p; m < 64; m += p) {
            composite[m] = true;
        }
    }
    uint limit = x[i] & 63u;
    uint count = 0u;
    for (uint k = 0u; k < limit; k++) {
        if (!composite[k]) {
            count++;
        }
    }
    primes_below[i] = count;
}
