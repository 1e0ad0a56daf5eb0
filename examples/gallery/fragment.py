"""A fragment shader: a std140 uniform block, a texture, a loop with break and continue,
an if/else; no block id by hand, no offset computed on paper.

    layout(set = 0, binding = 0) uniform Params {
        vec4 tint; vec2 offsets[4]; uint taps; float threshold;
    } params;
    layout(set = 0, binding = 1) uniform texture2D albedo;  // texture and sampler apart,
    layout(set = 0, binding = 2) uniform sampler linear;    // as WebGPU binds them
    layout(location = 0) in vec2 uv;
    layout(location = 0) out vec4 color;
    void main() {
        vec4 total = vec4(0);
        for (uint i = 0; i < params.taps; i++) {
            vec4 texel = texture(sampler2D(albedo, linear), uv + params.offsets[i]);
            if (texel.a < params.threshold) continue;  // a transparent tap adds nothing
            total += texel;
            if (texel.a >= 1.0) break;  // an opaque tap ends the blur
        }
        if (total.a > 0.0) color = total / total.a * params.tint; else color = params.tint;
    }
"""

from __future__ import annotations

from common import gallery_main

from spvbuild import Module
from spvbuild.constructs import (
    Array,
    Field,
    Struct,
    combined,
    f32,
    for_range,
    if_else,
    if_then,
    input_variable,
    load,
    output_variable,
    sampler,
    texture,
    u32,
    uniform_block,
    vec,
)  # fmt: skip
from spvbuild.enums import AddressingModel, ExecutionMode, ExecutionModel, MemoryModel
from spvbuild.enums import StorageClass as SC

PARAMS = Struct("Params", (Field("tint", vec(4)), Field("offsets", Array(vec(2), 4)),
                           Field("taps", u32), Field("threshold", f32)))  # fmt: skip


def build(target_env: str = "vulkan1.1") -> Module:
    m = Module(target_env=target_env)
    float_, uint, boolean = m.type_float(32), m.type_int(32, 0), m.type_bool()
    v2, v4 = m.type_vector(float_, 2), m.type_vector(float_, 4)
    params = uniform_block(m, PARAMS, binding=0, name="params")
    albedo, linear = texture(m, binding=1, name="albedo"), sampler(m, binding=2, name="linear")
    uv, color = input_variable(m, v2, 0, "uv"), output_variable(m, v4, 0, "color")
    main = m.define_function(m.type_void(), name="main")
    total = m.variable(m.type_pointer(SC.Function, v4), SC.Function)
    m.store(total, m.constant_null(v4))
    with for_range(m, uint, m.constant(uint, 0), load(m, params.member(m, "taps"))) as (loop, i):
        at = m.f_add(v2, load(m, uv), load(m, params.member(m, "offsets", i)))
        texel = m.image_sample_implicit_lod(v4, combined(m, albedo, linear), at)
        alpha = m.composite_extract(float_, texel, [3])
        with if_then(m, m.f_ord_less_than(boolean, alpha, load(m, params.member(m, "threshold")))):
            loop.continue_()
        m.store(total, m.f_add(v4, m.load(v4, total), texel))
        with if_then(m, m.f_ord_greater_than_equal(boolean, alpha, m.constant(float_, 1.0))):
            loop.break_()
    summed = m.load(v4, total)
    weight = m.composite_extract(float_, summed, [3])
    tint = load(m, params.member(m, "tint"))
    with if_else(m, m.f_ord_greater_than(boolean, weight, m.constant(float_, 0.0))) as (yes, no):
        with yes:
            scale = m.f_div(float_, m.constant(float_, 1.0), weight)
            m.store(color, m.f_mul(v4, m.vector_times_scalar(v4, summed, scale), tint))
        with no:
            m.store(color, tint)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.Fragment, main.id, "main")
    m.execution_mode(main.id, ExecutionMode.OriginUpperLeft)
    return m


if __name__ == "__main__":
    gallery_main("fragment", build, "vulkan1.1")
