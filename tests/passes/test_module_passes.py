"""compact-ids, remove-duplicates, trim-capabilities and run() on small modules."""

from __future__ import annotations

import io

import pytest

from spvbuild import Module
from spvbuild.enums import (
    AddressingModel,
    Capability,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
)
from spvbuild.errors import ArgumentError, PassError
from spvbuild.passes import (
    PassReport,
    compact_ids,
    remove_duplicates,
    run,
    trim_capabilities,
)
from spvbuild.spirv.instruction import RawWords
from tests.passes.helpers import program, text_of, val

HEAD = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
"""


def test_compact_ids_numbers_in_order_and_sets_the_bound() -> None:
    src = HEAD.replace("OpCapability Shader\n", "OpCapability Shader\n%90 = OpExtInstImport \"GLSL.std.450\"\n") + """
%40 = OpTypeVoid
%41 = OpTypeFunction %40
%main = OpFunction %40 None %41
%70 = OpLabel
OpReturn
OpFunctionEnd
"""
    before = program(src)
    after = compact_ids(before)
    assert after.bound == 6
    assert text_of(after).split()[:6] == ["OpCapability", "Shader", "%1", "=", "OpExtInstImport", '"GLSL.std.450"']
    assert "%5 = OpLabel" in text_of(after)
    assert val(after.to_words(), "spv1.3") == ""


def test_compact_ids_refuses_words_it_cannot_type() -> None:
    src = HEAD.replace("OpCapability Shader\n", 'OpCapability Shader\nOpExtension "SPV_KHR_non_semantic_info"\n%9 = OpExtInstImport "NonSemantic.Unknown"\n') + """
%40 = OpTypeVoid
%41 = OpTypeFunction %40
%main = OpFunction %40 None %41
%70 = OpLabel
%71 = OpExtInst %40 %9 3 %41
OpReturn
OpFunctionEnd
"""
    with pytest.raises(PassError) as caught:
        compact_ids(program(src))
    assert caught.value.pass_name == "compact-ids"
    assert caught.value.opcode_name == "OpExtInst" and caught.value.result_id == 71


DUPLICATES = HEAD + """OpDecorate %arr_a ArrayStride 4
OpDecorate %arr_b ArrayStride 4
OpDecorate %arr_c ArrayStride 16
OpDecorate %int_a RelaxedPrecision
OpDecorate %int_a RelaxedPrecision
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%int_a = OpConstant %int 4
%int_b = OpConstant %int 4
%arr_a = OpTypeArray %int %int_a
%arr_b = OpTypeArray %int %int_b
%arr_c = OpTypeArray %int %int_a
%s1 = OpTypeStruct %arr_a
%s2 = OpTypeStruct %arr_b
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"""


def test_remove_duplicates_merges_what_is_equal_with_its_decorations() -> None:
    after = remove_duplicates(program(DUPLICATES))
    out = text_of(after)
    # %int_b merges into %int_a only if their decorations agree: they do not (RelaxedPrecision).
    assert out.count("OpConstant ") == 2
    assert out.count("RelaxedPrecision") == 1  # the repeated decoration went
    # %arr_a and %arr_b: same words once the constants are merged? no: their lengths differ
    # in decorations, so three arrays stay; the structs over them stay apart too.
    assert out.count("OpTypeArray") == 3
    assert val(after.to_words(), "spv1.3") == ""


def test_remove_duplicates_merges_transitively() -> None:
    src = DUPLICATES.replace("OpDecorate %int_a RelaxedPrecision\nOpDecorate %int_a RelaxedPrecision\n", "")
    after = remove_duplicates(program(src))
    out = text_of(after)
    assert out.count("OpConstant ") == 1
    assert out.count("OpTypeArray") == 2  # %arr_b = %arr_a (stride 4), %arr_c (stride 16) apart
    assert out.count("OpTypeStruct") == 1  # equal once their arrays are
    assert out.count("ArrayStride 4") == 1
    assert val(after.to_words(), "spv1.3") == ""


def test_trim_capabilities_keeps_what_is_needed_or_unseen() -> None:
    src = """OpCapability Shader
OpCapability Float64
OpCapability Int64
OpCapability StorageImageMultisample
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%long = OpTypeInt 64 1
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"""
    out = text_of(trim_capabilities(program(src)))
    assert "Float64" not in out  # declared, nothing needs it
    assert "OpCapability Int64" in out  # the 64-bit type needs it
    assert "OpCapability Shader" in out
    assert "StorageImageMultisample" in out  # only validation rules ask for it: kept
    assert "SPV_KHR_16bit_storage" not in out  # the grammar names it; nothing needs it


def _built() -> Module:
    m = Module((1, 3))
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    void = m.type_void()
    fn = m.define_function(void, name="main")
    m.return_()
    m.function_end()
    m.entry_point(ExecutionModel.GLCompute, fn.id, "main", [])
    m.execution_mode(fn.id, ExecutionModeLocalSize(1, 1, 1))
    m.type_float(64)  # unused
    return m


def test_run_on_a_module_reports_each_pass() -> None:
    m = _built()
    before = m.to_words()
    reports: list[PassReport] = []
    out = run(m, "size", report=reports)
    assert isinstance(out, Module) and out is not m
    assert m.to_words() == before  # the given module is unchanged
    assert [r.name for r in reports] == [
        "strip-debug", "remove-duplicates", "eliminate-dead-code-aggressive",
        "trim-capabilities", "compact-ids",
    ]
    assert reports[0].words_before == len(before)
    assert reports[-1].words_after == len(out.to_words())
    assert reports[0].removed > 0  # the OpName
    assert sum(r.removed for r in reports) == len(before) - len(out.to_words())
    stream = io.StringIO()
    run(m, ["eliminate-dead-code-aggressive"], report=stream)
    assert stream.getvalue().startswith("eliminate-dead-code-aggressive: ")
    assert "words removed" in stream.getvalue()
    assert val(out.to_words(), "vulkan1.1") == ""


def test_run_names_unknown_passes() -> None:
    with pytest.raises(ArgumentError, match="no pass or recipe 'mem2reg'"):
        run(_built(), ["mem2reg"])


def test_trim_capabilities_leaves_an_unknown_capability_alone() -> None:
    src = HEAD.replace("OpCapability Shader\n", "OpCapability Shader\nOpCapability Float64\n") + """
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"""
    before = program(src)
    # The reader keeps a capability the grammar lacks as raw words (value 88: none).
    unknown = before.instructions[0]._replace(operands=(RawWords((88,)),))
    before.instructions.insert(1, unknown)
    out = trim_capabilities(before).instructions
    assert unknown in out
    assert [i.operands[0] for i in out if i.opcode == 17] == [Capability.Shader, RawWords((88,))]
    # A module whose declarations miss a need (Float64 for the double) is left as it is.
    short = program(src.replace("%fn = OpTypeFunction %void", "%fn = OpTypeFunction %void\n%d = OpTypeFloat 64"))
    short.instructions[1] = unknown
    assert trim_capabilities(short).instructions == short.instructions
