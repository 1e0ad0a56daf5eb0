// RGB to HSV and back: chains of if/else on floats, a switch on the hue sector.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { vec4 color[]; };
layout(std430, binding = 1) buffer Out { vec4 result[]; };

vec3 to_hsv(vec3 c) {
    float hi = max(c.r, max(c.g, c.b));
    float lo = min(c.r, min(c.g, c.b));
    float delta = hi - lo;
    float h = 0.0;
    if (delta > 0.0) {
        if (hi == c.r) {
            h = mod((c.g - c.b) / delta, 6.0);
        } else if (hi == c.g) {
            h = (c.b - c.r) / delta + 2.0;
        } else {
            h = (c.r - c.g) / delta + 4.0;
        }
    }
    float s = hi > 0.0 ? delta / hi : 0.0;
    return vec3(h, s, hi);
}

vec3 to_rgb(vec3 hsv) {
    float c = hsv.z * hsv.y;
    float x = c * (1.0 - abs(mod(hsv.x, 2.0) - 1.0));
    float m = hsv.z - c;
    vec3 rgb;
    switch (int(hsv.x) % 6) {
        case 0: rgb = vec3(c, x, 0.0); break;
        case 1: rgb = vec3(x, c, 0.0); break;
        case 2: rgb = vec3(0.0, c, x); break;
        case 3: rgb = vec3(0.0, x, c); break;
        case 4: rgb = vec3(x, 0.0, c); break;
        default: rgb = vec3(c, 0.0, x); break;
    }
    return rgb + m;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec3 c = abs(color[i].rgb) * 0.0625;
    vec3 hsv = to_hsv(c);
    result[i] = vec4(to_rgb(hsv), hsv.x);
}
