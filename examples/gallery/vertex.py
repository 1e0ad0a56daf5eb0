"""A vertex shader: per-vertex inputs, a std140 uniform block of matrices, gl_Position and
a varying out."""

from __future__ import annotations

from common import gallery_main

from spvbuild import Module
from spvbuild.constructs import (
    Field,
    Struct,
    builtin,
    input_variable,
    load,
    mat,
    output_variable,
    uniform_block,
)  # fmt: skip
from spvbuild.enums import AddressingModel, BuiltIn, ExecutionModel, MemoryModel

TRANSFORM = Struct("Transform", (Field("mvp", mat(4)), Field("normal_matrix", mat(3))))


def build(target_env: str = "vulkan1.1") -> Module:
    m = Module(target_env=target_env)
    f32 = m.type_float(32)
    v3, v4 = m.type_vector(f32, 3), m.type_vector(f32, 4)
    transform = uniform_block(m, TRANSFORM, binding=0, name="transform")
    position = input_variable(m, v3, 0, "position")
    normal = input_variable(m, v3, 1, "normal")
    world_normal = output_variable(m, v3, 0, "world_normal")
    main = m.define_function(m.type_void(), name="main")
    p = load(m, position)
    homogeneous = m.composite_construct(v4, [*(m.composite_extract(f32, p, [i]) for i in range(3)),
                                             m.constant(f32, 1.0)])  # fmt: skip
    mvp = load(m, transform.member(m, "mvp"))
    m.store(builtin(m, BuiltIn.Position), m.matrix_times_vector(v4, mvp, homogeneous))
    turned = m.matrix_times_vector(v3, load(m, transform.member(m, "normal_matrix")), load(m, normal))
    m.store(world_normal, m.glsl.normalize(v3, turned))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.Vertex, main.id, "main")
    return m


if __name__ == "__main__":
    gallery_main("vertex", build, "vulkan1.1")
