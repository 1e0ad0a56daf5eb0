// Vector math: dot, cross, normalize, reflect, mix, clamp, swizzles and component writes.
#version 450
layout(local_size_x = 64) in;
struct Ray { vec3 origin; float t; vec3 dir; float weight; };
layout(std430, binding = 0) buffer In { Ray rays[]; };
layout(std430, binding = 1) buffer Out { vec4 hit[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    Ray ray = rays[i];
    vec3 d = ray.dir;
    if (dot(d, d) < 1e-4) {
        d = vec3(0.0, 0.0, 1.0);
    }
    d = normalize(d);
    vec3 n = normalize(vec3(0.25, 1.0, -0.5));
    vec3 refl = reflect(d, n);
    vec3 side = cross(refl, n);
    vec4 result;
    result.xyz = mix(refl, side, clamp(ray.weight * 0.0625 + 0.5, 0.0, 1.0));
    result.w = dot(ray.origin.zxy, refl) + ray.t;
    hit[i] = result;
}
