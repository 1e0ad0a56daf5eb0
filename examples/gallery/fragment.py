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
    Value,
    combined,
    f32,
    for_range,
    if_else,
    if_then,
    input_variable,
    output_variable,
    sampler,
    texture,
    u32,
    uniform_block,
    vec,
)  # fmt: skip
from spvbuild.constructs.expressions import extract, load, store
from spvbuild.enums import AddressingModel, ExecutionMode, ExecutionModel, MemoryModel
from spvbuild.enums import StorageClass as SC

PARAMS = Struct("Params", (Field("tint", vec(4)), Field("offsets", Array(vec(2), 4)),
                           Field("taps", u32), Field("threshold", f32)))  # fmt: skip


def build(target_env: str = "vulkan1.1") -> Module:
    m = Module(target_env=target_env)  # result types inferred, each call type-checked
    v2, v4 = (m.type_vector(m.type_float(32), n) for n in (2, 4))
    params = uniform_block(m, PARAMS, binding=0, name="params")
    albedo, linear = texture(m, binding=1, name="albedo"), sampler(m, binding=2, name="linear")
    uv, color = input_variable(m, v2, 0, "uv"), output_variable(m, v4, 0, "color")
    main = m.define_function(m.type_void(), name="main")
    total = m.variable(m.type_pointer(SC.Function, v4), SC.Function)
    m.store(total, m.constant_null(v4))
    taps = load(m, params.member(m, "taps"))
    with for_range(m, taps.type, m.constant(taps.type, 0), taps.id) as (loop, i):
        at = load(m, uv) + load(m, params.member(m, "offsets", i))
        texel = Value(m, m.image_sample_implicit_lod(v4, combined(m, albedo, linear), at.id), v4)
        alpha = extract(texel, 3)
        with if_then(m, alpha.lt(load(m, params.member(m, "threshold"))).id):
            loop.continue_()
        store(m, total, load(m, total) + texel)
        with if_then(m, alpha.ge(1.0).id):
            loop.break_()
    summed, tint = load(m, total), load(m, params.member(m, "tint"))
    weight = extract(summed, 3)
    with if_else(m, weight.gt(0.0).id) as (yes, no):
        with yes:
            store(m, color, summed * (1.0 / weight) * tint)
        with no:
            store(m, color, tint)
    m.return_().function_end().memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.Fragment, main.id, "main")
    m.execution_mode(main.id, ExecutionMode.OriginUpperLeft)
    return m


if __name__ == "__main__":
    gallery_main("fragment", build, "vulkan1.1")
