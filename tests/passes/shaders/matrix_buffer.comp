// Matrices in a std430 buffer, column- and row-major, multiplied with vectors and each other.
#version 450
layout(local_size_x = 64) in;
struct Transform {
    mat4 model;
    vec4 tint;
};
layout(std430, binding = 0) buffer In { Transform transforms[]; };
layout(std430, binding = 1) buffer Out { vec4 r[]; };
layout(std430, binding = 2) buffer Normals { layout(row_major) mat3 normals[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    Transform t = transforms[i];
    mat4 scaled = t.model * 0.0625;
    vec4 p = scaled * vec4(1.0, -2.0, 0.5, 1.0);
    mat3 normal = normals[i];
    vec3 n = transpose(normal) * vec3(0.0, 0.125, 0.25);
    mat3 both = normal * mat3(scaled);
    r[i] = p + vec4(n, both[1][2]) * t.tint.w * 0.0625;
}
