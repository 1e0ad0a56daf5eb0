"""A fragment shader interface: decorations with and without parameters."""

from __future__ import annotations

from spvbuild import Recorder
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Capability,
    Decoration,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationDescriptorSet,
    DecorationLinkageAttributes,
    DecorationLocation,
    DecorationMatrixStride,
    DecorationOffset,
    DecorationSpecId,
    ExecutionMode,
    ExecutionModel,
    FunctionControl,
    LinkageType,
    MemoryModel,
    StorageClass,
)

b = Recorder()
b.capability(Capability.Shader).capability(Capability.Linkage)
b.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)

void = b.type_void()
f32 = b.type_float(32)
vec4 = b.type_vector(f32, 4)
mat4 = b.type_matrix(vec4, 4)
ubo = b.type_struct([mat4, vec4])
ptr_ubo = b.type_pointer(StorageClass.Uniform, ubo)
ptr_in_vec4 = b.type_pointer(StorageClass.Input, vec4)
ptr_out_vec4 = b.type_pointer(StorageClass.Output, vec4)

# A uniform block: member offsets, a matrix layout and a parameterless Block.
b.decorate(ubo, Decoration.Block)
b.member_decorate(ubo, 0, Decoration.ColMajor)
b.member_decorate(ubo, 0, DecorationOffset(0)).member_decorate(ubo, 0, DecorationMatrixStride(16))
b.member_decorate(ubo, 1, DecorationOffset(64))
b.member_name(ubo, 0, "mvp").member_name(ubo, 1, "tint")
uniforms = b.variable(ptr_ubo, StorageClass.Uniform)
b.decorate(uniforms, DecorationDescriptorSet(0)).decorate(uniforms, DecorationBinding(1))

# Inputs and outputs.
frag_coord = b.variable(ptr_in_vec4, StorageClass.Input)
b.decorate(frag_coord, DecorationBuiltIn(BuiltIn.FragCoord))
color_in = b.variable(ptr_in_vec4, StorageClass.Input)
b.decorate(color_in, DecorationLocation(0)).decorate(color_in, Decoration.Flat)
color_out = b.variable(ptr_out_vec4, StorageClass.Output)
b.decorate(color_out, DecorationLocation(0)).decorate(color_out, Decoration.Invariant)

# A specialization constant and an exported function.
spec = b.spec_constant(f32, 0.5)
b.decorate(spec, DecorationSpecId(7)).decorate(spec, Decoration.RelaxedPrecision)
helper = b.function(void, FunctionControl.Inline, b.type_function(void))
b.decorate(helper, DecorationLinkageAttributes("helper", LinkageType.Export))
b.label()
b.return_().function_end()

main = b.function(void, FunctionControl.None_, b.type_function(void))
b.entry_point(ExecutionModel.Fragment, main, "main", [frag_coord, color_in, color_out])
b.execution_mode(main, ExecutionMode.OriginUpperLeft)
b.label()
b.store(color_out, b.load(vec4, color_in))
b.return_().function_end()

# A parameter object compares by value and exposes its enumerant.
assert DecorationBuiltIn(BuiltIn.FragCoord) == DecorationBuiltIn(BuiltIn.FragCoord)
assert DecorationBuiltIn(BuiltIn.FragCoord).enumerant is Decoration.BuiltIn
assert DecorationLinkageAttributes("helper", LinkageType.Export).parameters == (
    "helper",
    LinkageType.Export,
)
assert b.to_words()[0] == 0x07230203  # the SPIR-V magic number
