"""No-result instructions return the recorder itself (as its own subclass), so calls chain."""

from __future__ import annotations

from typing import assert_type

from spvbuild import (
    AddressingModel,
    Capability,
    ExecutionMode,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    Id,
    MemoryModel,
    Recorder,
    SourceLanguage,
    TypeId,
)
from spvbuild.generated.extinst.glsl import GlslInstructions


class ShaderRecorder(Recorder):
    """A user subclass: chained calls keep returning it."""

    def header(self) -> ShaderRecorder:
        return (
            self.capability(Capability.Shader)
            .extension("SPV_KHR_storage_buffer_storage_class")
            .memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        )


b = Recorder()
assert_type(
    b.capability(Capability.Shader).memory_model(AddressingModel.Logical, MemoryModel.GLSL450),
    Recorder,
)
assert_type(b.type_void(), TypeId)
assert_type(b.constant(b.type_int(32, 1), -1), Id)
assert_type(b.glsl, GlslInstructions)

sb = ShaderRecorder().header()
assert_type(sb, ShaderRecorder)
void = sb.type_void()
main = sb.function(void, FunctionControl.None_, sb.type_function(void))
chained = (
    sb.entry_point(ExecutionModel.GLCompute, main, "main")
    .execution_mode(main, ExecutionModeLocalSize(8, 8, 1))
    .execution_mode(main, ExecutionMode.DerivativeGroupQuadsKHR)
    .source(SourceLanguage.GLSL, 450)
    .source(SourceLanguage.GLSL, 450, sb.string("a.comp"), "void main() {}")
    .name(main, "main")
)
assert_type(chained, ShaderRecorder)
sb.label()
assert_type(sb.return_().function_end(), ShaderRecorder)
assert chained is sb
assert [inst.opcode for inst in sb.instructions[:3]] == [17, 10, 14]
assert sb.to_words()[0] == 0x07230203  # the SPIR-V magic number
