"""Stores into variables no one reads go with them (``write_only.py`` through
``eliminate-dead-code-aggressive``), and selections left doing nothing go
(``empty_selections.py``, in dead-code elimination and ``simplify-cfg``); what a read, a
volatile access, an export or an explicit workgroup layout keeps stays.  Every output
passes spirv-val."""

from __future__ import annotations

import pytest

from spvbuild import disassemble
from spvbuild.passes import Program, eliminate_dead_code, run
from tests.passes.helpers import program, val

pytestmark = pytest.mark.spirv_val

HEAD = """OpCapability Shader
{caps}OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %sink %priv %gid
OpExecutionMode %main LocalSize 1 1 1
OpName %sink "sink"
OpName %priv "priv"
OpName %local "local"
OpDecorate %gid BuiltIn GlobalInvocationId
{decorations}%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%arr = OpTypeArray %uint %uint_4
%ptr_w_arr = OpTypePointer Workgroup %arr
%ptr_w = OpTypePointer Workgroup %uint
%ptr_p = OpTypePointer Private %uint
%ptr_f_arr = OpTypePointer Function %arr
%ptr_f = OpTypePointer Function %uint
%ptr_in = OpTypePointer Input %v3uint
%bool = OpTypeBool
%sink = OpVariable %ptr_w_arr Workgroup
%priv = OpVariable %ptr_p Private
%gid = OpVariable %ptr_in Input
%main = OpFunction %void None %fn
%entry = OpLabel
%local = OpVariable %ptr_f_arr Function
%ids = OpLoad %v3uint %gid
%x = OpCompositeExtract %uint %ids 0
%y = OpIMul %uint %x %x
%at = OpAccessChain %ptr_w %sink %x
OpStore %at %y
OpStore %priv %x
%el = OpAccessChain %ptr_f %local %uint_1
OpStore %el %y
%again = OpLoad %uint %el
%big = OpUGreaterThan %bool %x %uint_4
OpSelectionMerge %merge None
OpBranchConditional %big %then %else
%then = OpLabel
%z = OpIAdd %uint %again %uint_1
%pz = OpAccessChain %ptr_w %sink %uint_0
OpStore %pz %z
OpBranch %merge
%else = OpLabel
OpBranch %merge
%merge = OpLabel
{tail}OpReturn
OpFunctionEnd
"""


def text_of(after: Program) -> str:
    """The disassembly, one instruction a line, ids by their names."""
    return disassemble(after.to_words(), header=False, indent=False)


def _module(caps: str = "", decorations: str = "", tail: str = "") -> str:
    return HEAD.format(caps=caps, decorations=decorations, tail=tail)


def test_stores_no_one_reads_go_with_their_variables_and_the_empty_selection() -> None:
    after = text_of(eliminate_dead_code(program(_module(), "spv1.4")))
    body = after[after.index("OpFunction ") :]
    assert "OpStore" not in body  # Workgroup through chains, Private, Function
    assert "OpVariable" not in body
    assert "%sink" not in after and "%priv" not in after and "%local" not in after
    assert "OpSelectionMerge" not in body and "OpBranchConditional" not in body
    assert "OpIMul" not in body and "OpUGreaterThan" not in body
    assert 'OpEntryPoint GLCompute %1 "main" %gl_GlobalInvocationID\n' in after  # (shrank)
    assert val(program_words(after), "spv1.4") == ""


def program_words(text: str) -> list[int]:
    return program(text, "spv1.4").to_words()


@pytest.mark.parametrize(
    ("what", "caps", "decorations", "tail", "kept"),
    [
        (
            "a load whose value is used",
            "",
            "",
            "%r = OpLoad %uint %priv\nOpStore %priv %r\n",
            "%priv",
        ),
        ("an atomic", "", "", "%old = OpAtomicIAdd %uint %at %uint_1 %uint_0 %uint_1\n", "%sink"),
        ("a volatile store", "", "", "OpStore %priv %x Volatile\n", "%priv"),
        (
            "an export",
            "OpCapability Linkage\n",
            'OpDecorate %priv LinkageAttributes "p" Export\n',
            "",
            "%priv",
        ),
        ("a volatile decoration", "", "OpDecorate %priv Volatile\n", "", "%priv"),
    ],
)
def test_what_reads_or_shares_a_variable_keeps_it(
    what: str, caps: str, decorations: str, tail: str, kept: str
) -> None:
    source = _module(caps, decorations, tail)
    after = text_of(eliminate_dead_code(program(source, "spv1.4")))
    assert f"{kept} = OpVariable" in after, what
    body = after[after.index("OpFunction ") :]
    assert "OpStore" in body, what
    assert val(program_words(after), "spv1.4") == "", what


def test_an_explicit_workgroup_layout_keeps_workgroup_variables() -> None:
    source = _module(
        "OpCapability WorkgroupMemoryExplicitLayoutKHR\n"
        'OpExtension "SPV_KHR_workgroup_memory_explicit_layout"\n'
    )
    after = text_of(eliminate_dead_code(program(source, "spv1.4")))
    assert "%sink = OpVariable" in after
    assert "%priv" not in after  # (Private variables still go)


SELECT = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %out %in
OpExecutionMode %main LocalSize 1 1 1
OpName %same "same"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%bool = OpTypeBool
%ptr_o = OpTypePointer Output %uint
%ptr_p = OpTypePointer Private %uint
%out = OpVariable %ptr_o Output
%in = OpVariable %ptr_p Private
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpLoad %uint %in
%c = OpUGreaterThan %bool %x %uint_1
OpSelectionMerge %m1 None
OpBranchConditional %c %a1 %m1
%a1 = OpLabel
OpBranch %m1
%m1 = OpLabel
%same = OpPhi %uint %uint_1 %entry %uint_1 %a1
OpSelectionMerge %m2 None
OpBranchConditional %c %a2 %b2
%a2 = OpLabel
OpBranch %m2
%b2 = OpLabel
OpBranch %m2
%m2 = OpLabel
%chosen = OpPhi %uint %uint_1 %a2 %uint_2 %b2
%sum = OpIAdd %uint %same %chosen
OpStore %out %sum
OpReturn
OpFunctionEnd
"""


def test_simplify_cfg_drops_a_selection_whose_phis_do_not_tell_its_arms_apart() -> None:
    after = text_of(run(program(SELECT, "spv1.4"), ["simplify-cfg"]))
    assert after.count("OpSelectionMerge") == 1  # the second, a select, stays
    assert "OpPhi %uint %uint_1 %uint_2" not in after
    assert val(program_words(after), "spv1.4") == ""
    assert "%same = OpPhi %uint %uint_1 %entry\n" in after or "%same" not in after
