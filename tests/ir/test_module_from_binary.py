"""A binary read back into a Module: same words out, and it can keep being edited."""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Callable

import pytest

from spvbuild import TypeId
from spvbuild.enums import AddressingModel, MemoryModel
from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.ir.module import Module
from spvbuild.text.assembler import assemble
from tests.modules.catalogue import CATALOGUE, Entry

Validator = Callable[[list[int], str], "subprocess.CompletedProcess[str]"]
VALID = [e for e in CATALOGUE if e.val_rejects is None and e.xfail is None]


@pytest.mark.parametrize("entry", VALID, ids=[e.name for e in VALID])
def test_module_words_survive_a_trip_through_from_binary(entry: Entry) -> None:
    m = entry.module()
    entry.build(m)
    words = m.to_words()
    again = Module.from_binary(words, capabilities=m.capability_mode)
    assert again.to_words() == words


@pytest.mark.spirv_val
def test_a_read_module_keeps_being_edited(spirv_val: Validator) -> None:
    entry = next(e for e in VALID if e.name == "compute_storage_buffer")
    original = entry.module()
    entry.build(original)
    m = Module.from_binary(original.to_bytes())
    f32 = m.type_float(32)
    assert isinstance(f32, TypeId)
    assert f32 in {i.result_id for i in original.sections["types_globals"]}  # merged, not new
    helper = m.define_function(f32, [f32], name="halve")
    m.return_value(m.f_mul(f32, helper.parameters[0], m.constant(f32, 0.5))).function_end()
    words = m.to_words()
    assert len(words) > len(original.to_words())
    result = spirv_val(words, entry.target_env)
    assert result.returncode == 0, result.stderr


_LINES_BETWEEN_BLOCKS = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %file 3 1
OpBranch %next
OpLine %file 4 1
OpNoLine
%next = OpLabel
OpLine %file 5 1
OpReturn
OpNoLine
OpFunctionEnd
"""


# -- what from_binary accepts, to_bytes writes back ----------------------------------------
_GLOBALS = """OpCapability Shader
%ext = OpExtInstImport "{name}"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%f32 = OpTypeFloat 32
%fn = OpTypeFunction %void
%one = OpConstant %f32 1
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpExtInst %f32 %ext {number} %one
OpReturn
OpFunctionEnd
"""


@pytest.mark.spirv_val
def test_debug_lines_between_a_terminator_and_the_next_label(spirv_val: Validator) -> None:
    from spvbuild import assemble

    words = assemble(_LINES_BETWEEN_BLOCKS)
    assert spirv_val(words, "vulkan1.3").returncode == 0
    m = Module.from_binary(words)
    again = m.to_words()
    assert again[5:] == words[5:] and again[:4] == words[:4]
    assert Module.from_binary(again).to_words() == again


def _with_ext_inst(name: bytes, number: int) -> list[int]:
    """The module above with its import's name and its OpExtInst's number replaced in the
    words (the assembler refuses both where the tables do not know them)."""
    data = bytearray(struct.pack(f"<{len(_WORDS)}I", *_WORDS))
    data = data.replace(b"GLSL.std.450", name.ljust(12, b"\0"))
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    at = next(i for i, w in enumerate(words) if i > 4 and w == (6 << 16) | OP_EXT_INST)
    words[at + 4] = number
    return words


@pytest.mark.parametrize(
    ("name", "number"),
    [(b"GLSL.std.452", 31), (b"GLSL.std.450", 255), (b"NonSemantic", 7)],
    ids=["unknown set", "unknown instruction of a known set", "unknown non-semantic set"],
)
def test_an_ext_inst_the_tables_do_not_know_is_written_back_as_read(
    name: bytes, number: int
) -> None:
    """An OpExtInst of a set (or an instruction number) the tables lack is read raw; the
    module keeps it raw and writes the same words back (it used to look the set up by its
    import's name and refuse to write it)."""
    words = _with_ext_inst(name, number)
    assert Module.from_binary(words).to_words() == words


_WORDS = assemble(_GLOBALS.format(name="GLSL.std.450", number=31))  # Sqrt
OP_EXT_INST = tables.OPCODES_BY_NAME["OpExtInst"]


def test_a_known_ext_inst_read_raw_is_typed_again() -> None:
    words = assemble(_GLOBALS.format(name="GLSL.std.450", number=31))  # Sqrt
    m = Module.from_binary(words)
    ext = [i for i in m.all_instructions() if i.ext_set is not None]
    assert [(i.ext_set, i.operands[1]) for i in ext] == [("GLSL.std.450", 31)]
    assert m.to_words() == list(words)


def test_an_id_defined_twice_is_refused_naming_both_definitions() -> None:
    """%f32 defined again by OpConstantFalse: the constant %one of type %f32 could not be
    written (its value's width comes from its type); from_binary refuses it, naming both."""
    text = _GLOBALS.format(name="GLSL.std.450", number=31).replace(
        "%one = OpConstant %f32 1\n",
        "%one = OpConstant %f32 1\n%bool = OpTypeBool\n%f32 = OpConstantFalse %bool\n",
    )
    words = assemble(text)
    with pytest.raises(BuildError) as info:
        Module.from_binary(words)
    message = str(info.value)
    assert "is defined by OpTypeFloat and again by OpConstantFalse" in message
    assert "an id is defined once" in message


def test_a_label_defining_an_id_again_is_refused() -> None:
    text = _GLOBALS.format(name="GLSL.std.450", number=31).replace(
        "%entry = OpLabel", "%one = OpLabel"
    )
    with pytest.raises(BuildError, match=r"defined by OpConstant and again by OpLabel"):
        Module.from_binary(assemble(text))


# Where instructions may stand that are not in a block: a non-semantic instruction after an
# OpFunctionEnd (between functions, after the last), a debug-info instruction after a
# terminator and before a function's first label, OpSamplerImageAddressingModeNV after
# OpMemoryModel.  Each module is one spirv-val accepts (texts like SPIRV-Tools' own tests).
_PLACES = {
    "non-semantic after functions": """
               OpCapability Shader
               OpExtension "SPV_KHR_non_semantic_info"
        %ext = OpExtInstImport "NonSemantic.Test"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
    %void_fn = OpTypeFunction %void
       %main = OpFunction %void None %void_fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
    %between = OpExtInst %void %ext 1 %main
        %foo = OpFunction %void None %void_fn
  %foo_entry = OpLabel
               OpReturn
               OpFunctionEnd
       %last = OpExtInst %void %ext 2 %foo
""",
    "debug info after a terminator and before a first label": """
               OpCapability Shader
          %1 = OpExtInstImport "OpenCL.DebugInfo.100"
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main"
               OpExecutionMode %main OriginUpperLeft
          %3 = OpString "simple.hlsl"
               OpSource HLSL 600 %3
       %void = OpTypeVoid
          %5 = OpTypeFunction %void
          %6 = OpExtInst %void %1 DebugSource %3
          %7 = OpExtInst %void %1 DebugCompilationUnit 2 4 %6 HLSL
       %main = OpFunction %void None %5
         %20 = OpExtInst %void %1 DebugNoScope
          %8 = OpLabel
         %21 = OpExtInst %void %1 DebugScope %7
               OpBranch %10
         %22 = OpExtInst %void %1 DebugNoScope
         %10 = OpLabel
         %23 = OpExtInst %void %1 DebugScope %7
               OpReturn
         %24 = OpExtInst %void %1 DebugNoScope
               OpFunctionEnd
""",
    "OpSamplerImageAddressingModeNV": """
               OpCapability Shader
               OpCapability BindlessTextureNV
               OpExtension "SPV_NV_bindless_texture"
               OpMemoryModel Logical GLSL450
               OpSamplerImageAddressingModeNV 64
               OpEntryPoint GLCompute %func "main"
               OpExecutionMode %func LocalSize 1 1 1
      %voidt = OpTypeVoid
      %funct = OpTypeFunction %voidt
       %func = OpFunction %voidt None %funct
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
""",
}


def _assembled(text: str) -> list[int]:
    """``text`` assembled by spirv-as (which takes a set the tables lack, as ours does not)."""
    from tests.conftest import spirv_tool

    tool = spirv_tool("spirv-as")
    assert tool is not None
    done = subprocess.run(
        [str(tool), "--target-env", "spv1.3", "-o", "-", "-"],
        input=text.encode(),
        capture_output=True,
        check=True,
    )
    return list(struct.unpack(f"<{len(done.stdout) // 4}I", done.stdout))


@pytest.mark.spirv_val
@pytest.mark.parametrize("place", sorted(_PLACES))
def test_instructions_outside_blocks_are_read_and_written_back_in_place(
    place: str, spirv_val: Validator
) -> None:
    words = _assembled(_PLACES[place])
    assert spirv_val(words, "vulkan1.1").returncode == 0
    again = Module.from_binary(words).to_words()
    assert again[5:] == words[5:] and again[:4] == words[:4]  # (the generator word aside)
    assert spirv_val(again, "vulkan1.1").returncode == 0


def test_a_module_without_op_memory_model_is_told_so_beside_another_model_instruction() -> None:
    m = Module(version=(1, 3))
    m.sampler_image_addressing_mode_nv(64)
    m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    with pytest.raises(BuildError, match="no OpMemoryModel"):
        m.to_words()


def test_a_debug_scope_after_a_function_is_still_refused_at_the_call() -> None:
    m = Module(version=(1, 3))
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    debug_info = m.ext_inst_import("NonSemantic.Shader.DebugInfo.100")
    with pytest.raises(BuildError, match="outside a function"):
        m.ext_inst(m.type_void(), debug_info, 24)  # DebugNoScope: in a function body only


@pytest.mark.spirv_val
def test_what_stands_after_a_function_is_seen_and_edited_like_the_rest(
    spirv_val: Validator,
) -> None:
    m = Module.from_binary(_assembled(_PLACES["non-semantic after functions"]))
    after = [i for i in m.all_instructions() if i.opcode == OP_EXT_INST]
    assert [i.operands[1] for i in after] == [1, 2]  # (numbers of the set's instructions)
    m.remove(after[-1])  # (an edit reaches what stands after a function too)
    words = m.to_words()
    assert spirv_val(words, "vulkan1.1").returncode == 0
    again = [i for i in Module.from_binary(words).all_instructions() if i.opcode == OP_EXT_INST]
    assert [i.operands[1] for i in again] == [1]
