// A storage buffer of structs (vec3, float, uint, ivec2) updated in place.
#version 450
layout(local_size_x = 64) in;
struct Particle {
    vec3 position;
    float mass;
    vec3 velocity;
    uint flags;
    ivec2 cell;
};
layout(std430, binding = 0) buffer Particles { Particle particles[]; };
layout(std430, binding = 1) buffer Params { vec4 gravity; float dt; uint steps; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    Particle p = particles[i];
    float step = clamp(dt, -0.5, 0.5);
    for (uint k = 0u; k < (steps & 3u); k++) {
        p.velocity += gravity.xyz * step;
        p.position += p.velocity * step;
        if (p.position.y < 0.0) {
            p.position.y = -p.position.y;
            p.velocity.y = -p.velocity.y * 0.5;
            p.flags |= 1u;
        }
    }
    p.cell = ivec2(floor(p.position.xz));
    particles[i] = p;
}
