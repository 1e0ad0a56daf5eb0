// mat2/mat3 builtins: determinant, inverse where it exists, outerProduct, matrixCompMult.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { vec4 a[]; };
layout(std430, binding = 1) buffer Out { vec4 r[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i] * 0.25;
    mat2 m = mat2(v.x, v.y, v.z, v.w);
    float det = determinant(m);
    mat2 inv = abs(det) > 0.01 ? inverse(m) : mat2(1.0);
    mat3 o = outerProduct(v.xyz, v.wzy);
    mat3 c = matrixCompMult(o, mat3(2.0));
    vec2 p = inv * vec2(1.0, 0.5);
    r[i] = vec4(p, det, c[0][1] + c[2][2] - determinant(o + mat3(1.0)));
}
