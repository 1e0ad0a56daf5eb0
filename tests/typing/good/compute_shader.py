"""A GLSL-style compute shader skeleton: out[gid] = sqrt(in[gid]) + 1.0."""

from __future__ import annotations

from spvbuild import (
    AddressingModel,
    BuiltIn,
    Capability,
    Decoration,
    DecorationArrayStride,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationDescriptorSet,
    DecorationOffset,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    Id,
    MemoryModel,
    Recorder,
    StorageClass,
    TypeId,
)

b = Recorder()
b.capability(Capability.Shader).memory_model(AddressingModel.Logical, MemoryModel.GLSL450)

# Types.
void: TypeId = b.type_void()
fn_void: TypeId = b.type_function(void)
f32 = b.type_float(32)
u32 = b.type_int(32, 0)
uvec3 = b.type_vector(u32, 3)
rt_f32 = b.type_runtime_array(f32)
buf = b.type_struct([rt_f32])
ptr_buf = b.type_pointer(StorageClass.StorageBuffer, buf)
ptr_f32 = b.type_pointer(StorageClass.StorageBuffer, f32)
ptr_in_uvec3 = b.type_pointer(StorageClass.Input, uvec3)

# Constants.
zero: Id = b.constant(u32, 0)
one_f = b.constant(f32, 1.0)

# Interface variables.
gid_var = b.variable(ptr_in_uvec3, StorageClass.Input)
src = b.variable(ptr_buf, StorageClass.StorageBuffer)
dst = b.variable(ptr_buf, StorageClass.StorageBuffer)

# Decorations (with and without parameters).
b.decorate(gid_var, DecorationBuiltIn(BuiltIn.GlobalInvocationId))
b.decorate(rt_f32, DecorationArrayStride(4))
b.decorate(buf, Decoration.Block).member_decorate(buf, 0, DecorationOffset(0))
for binding, var in enumerate((src, dst)):
    b.decorate(var, DecorationDescriptorSet(0)).decorate(var, DecorationBinding(binding))
b.name(gid_var, "gl_GlobalInvocationID").name(src, "src").name(dst, "dst")

# The entry point.
main = b.function(void, FunctionControl.None_, fn_void)
b.entry_point(ExecutionModel.GLCompute, main, "main", [gid_var, src, dst])
b.execution_mode(main, ExecutionModeLocalSize(64, 1, 1))
b.label()
gid = b.load(uvec3, gid_var)
x = b.composite_extract(u32, gid, [0])
src_ptr = b.access_chain(ptr_f32, src, [zero, x])
dst_ptr = b.access_chain(ptr_f32, dst, [zero, x])
value = b.load(f32, src_ptr)
root = b.glsl.sqrt(f32, value)
result = b.f_add(f32, root, one_f)
b.store(dst_ptr, result).return_().function_end()

assert isinstance(result, Id) and not isinstance(result, TypeId)
assert isinstance(buf, TypeId)
assert b.instructions[-1].opcode == 56  # OpFunctionEnd
assert b.to_words((1, 5))[0] == 0x07230203  # the SPIR-V magic number
