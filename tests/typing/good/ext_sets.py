"""Extended instruction sets as the recorder's properties: GLSL.std.450 and DebugInfo."""

from __future__ import annotations

from spvbuild import FunctionControl, Recorder, StorageClass
from spvbuild.generated.extinst.debug_info import (
    DebugBaseTypeAttributeEncoding,
    DebugCompositeType,
    DebugInfoFlags,
    DebugOperation,
    DebugOperationBitPiece,
    DebugOperationPlusUconst,
)

b = Recorder()
void = b.type_void()
f32 = b.type_float(32)
vec3 = b.type_vector(f32, 3)
u32 = b.type_int(32, 0)

# GLSL.std.450 math.
main = b.function(void, FunctionControl.None_, b.type_function(void))
b.label()
v = b.undef(vec3)
lo = b.constant_composite(vec3, [b.constant(f32, 0.0)] * 3)
hi = b.constant_composite(vec3, [b.constant(f32, 1.0)] * 3)
glsl = b.glsl
n = glsl.normalize(vec3, v)
length = glsl.length(f32, n)
root = b.glsl.sqrt(f32, length)
clamped = b.glsl.f_clamp(vec3, n, lo, hi)
mixed = b.glsl.f_mix(vec3, clamped, v, glsl.fma(vec3, v, v, v))
b.glsl.pow(f32, root, b.glsl.inverse_sqrt(f32, root))
b.glsl.u_min(u32, b.constant(u32, 3), b.constant(u32, 4))
b.return_().function_end()

# DebugInfo: a compilation unit, a basic type, a struct and an expression.
file = b.string("shader.comp")
di = b.debug_info
cu = di.debug_compilation_unit(void, file, 2, 4)
size = b.constant(u32, 32)
float_ty = di.debug_type_basic(void, b.string("float"), size, DebugBaseTypeAttributeEncoding.Float)
di.debug_type_pointer(void, float_ty, StorageClass.Function, DebugInfoFlags.FlagIsLocal)
member = di.debug_type_member(
    void,
    b.string("x"),
    float_ty,
    file,
    3,
    5,
    cu,
    b.constant(u32, 0),
    size,
    DebugInfoFlags.FlagIsPublic,
)
di.debug_type_composite(
    void,
    b.string("S"),
    DebugCompositeType.Structure,
    file,
    1,
    1,
    cu,
    size,
    DebugInfoFlags.FlagIsPublic | DebugInfoFlags.FlagIsDefinition,
    [member],
)
deref = di.debug_operation(void, DebugOperation.Deref)
plus = di.debug_operation(void, DebugOperationPlusUconst(8))
piece = di.debug_operation(void, DebugOperationBitPiece(0, 16))
expr = di.debug_expression(void, [deref, plus, piece])
di.debug_lexical_block(void, file, 10, 1, cu)
di.debug_scope(void, cu)

# Each set is imported once, however many instructions use it.
imports = [inst for inst in b.instructions if inst.opcode == 11]
assert [inst.operands for inst in imports] == [("GLSL.std.450",), ("DebugInfo",)]
assert b.glsl.set_id == imports[0].result_id
ext = [inst for inst in b.instructions if inst.opcode == 12]
assert {inst.ext_set for inst in ext} == {"GLSL.std.450", "DebugInfo"}
assert mixed != clamped and expr > 0
assert b.to_words()[0] == 0x07230203  # the SPIR-V magic number
