"""Dead-code elimination and unreachable blocks on small hand-written modules: what goes,
what must stay, and spirv-val on every result."""

from __future__ import annotations

import pytest

from spvbuild.errors import PassError
from spvbuild.passes import eliminate_dead_code, remove_unreachable_blocks
from tests.passes.helpers import program, text_of, val

HEAD = """OpCapability Shader
OpCapability Linkage
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
"""

TYPES = """%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%bool = OpTypeBool
%true = OpConstantTrue %bool
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%ptr_f_int = OpTypePointer Function %int
%ptr_f_float = OpTypePointer Function %float
"""


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_unused_function_global_and_their_names_go() -> None:
    src = (
        HEAD
        + """OpName %helper "helper"
OpName %unused_const "unused_const"
OpDecorate %unused_const SpecId 4
OpDecorate %exported LinkageAttributes "exported" Export
"""
        + TYPES
        + """%unused_const = OpSpecConstant %int 9
%v4 = OpTypeVector %float 4
%main = OpFunction %void None %fn
%l0 = OpLabel
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %fn
%l1 = OpLabel
OpReturn
OpFunctionEnd
%exported = OpFunction %void None %fn
%l2 = OpLabel
OpReturn
OpFunctionEnd
"""
    )
    before = program(src)
    after = eliminate_dead_code(before)
    out = text_of(after)
    assert "helper" not in out
    assert "SpecId" not in out and "OpSpecConstant" not in out
    assert "OpTypeVector" not in out and "OpTypeFloat" not in out
    assert "OpExtInstImport" not in out  # nothing uses GLSL.std.450
    assert 'LinkageAttributes "exported" Export' in out  # an export is a root
    assert out.count("OpFunction ") == 2
    assert len(before.instructions) == len(program(src).instructions)  # input unchanged
    assert val(after.to_words(), "spv1.3") == ""


def test_dead_pure_instructions_go_side_effects_stay() -> None:
    src = (
        HEAD
        + TYPES
        + """%main = OpFunction %void None %fn
%l0 = OpLabel
%v = OpVariable %ptr_f_int Function
%w = OpVariable %ptr_f_float Function
%dead_sum = OpIAdd %int %int_1 %int_2
%dead_chain = OpIMul %int %dead_sum %int_2
%dead_load = OpLoad %int %v
%kept_volatile = OpLoad %int %v Volatile
%ten = OpConstant %int 10
OpStore %v %int_1
%whole = OpExtInst %float %glsl Modf %float_0 %w
%dead_sqrt = OpExtInst %float %glsl Sqrt %float_0
OpReturn
OpFunctionEnd
""".replace("%ten = OpConstant %int 10\n", "")
    ).replace(
        "%ptr_f_float = OpTypePointer Function %float\n",
        "%ptr_f_float = OpTypePointer Function %float\n%float_0 = OpConstant %float 0\n",
    )
    after = eliminate_dead_code(program(src))
    out = lines(text_of(after))
    names = " ".join(out)
    assert "OpIAdd" not in names and "OpIMul" not in names
    assert "Sqrt" not in names  # a pure extended instruction
    assert any("Modf" in line for line in out)  # writes through its pointer
    assert any("OpLoad" in line and "Volatile" in line for line in out)
    assert sum("OpLoad" in line for line in out) == 1
    assert any(line.startswith("OpStore") for line in out)
    assert val(after.to_words(), "spv1.3") == ""


def test_stores_into_unread_function_variables_go() -> None:
    src = (
        HEAD
        + """OpName %unread "unread"
OpDecorate %out LinkageAttributes "out" Export
"""
        + TYPES
        + """%arr = OpTypeArray %int %int_2
%ptr_f_arr = OpTypePointer Function %arr
%ptr_p_int = OpTypePointer Private %int
%out = OpVariable %ptr_p_int Private
%main = OpFunction %void None %fn
%l0 = OpLabel
%unread = OpVariable %ptr_f_arr Function
%read = OpVariable %ptr_f_arr Function
%a = OpAccessChain %ptr_f_int %unread %int_1
OpStore %a %int_2
%b = OpAccessChain %ptr_f_int %read %int_1
OpStore %b %int_1
%c = OpAccessChain %ptr_f_int %read %int_1
%value = OpLoad %int %c
OpStore %out %value
OpReturn
OpFunctionEnd
"""
    )
    out = lines(text_of(eliminate_dead_code(program(src))))
    assert not any("unread" in line for line in out), out  # variable, chain, store, name
    assert sum(line.startswith("OpStore") for line in out) == 2, out  # into %read, %out
    assert sum("OpAccessChain" in line for line in out) == 2, out
    assert val(eliminate_dead_code(program(src)).to_words(), "spv1.3") == ""


def test_decoration_group_keeps_live_targets_only() -> None:
    src = (
        HEAD
        + """OpDecorate %grp RelaxedPrecision
OpDecorate %v LinkageAttributes "v" Export
%grp = OpDecorationGroup
OpGroupDecorate %grp %live %dead
"""
        + TYPES
        + """%ptr_p_int = OpTypePointer Private %int
%v = OpVariable %ptr_p_int Private
%main = OpFunction %void None %fn
%l0 = OpLabel
%live = OpIAdd %int %int_1 %int_2
%dead = OpISub %int %int_1 %int_2
OpStore %v %live
OpReturn
OpFunctionEnd
"""
    )
    out = lines(text_of(eliminate_dead_code(program(src))))
    group = [line for line in out if line.startswith("OpGroupDecorate")]
    assert len(group) == 1 and len(group[0].split()) == 3, group  # group and %live
    assert not any("OpISub" in line for line in out)


LOOP = (
    HEAD
    + TYPES
    + """%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
%phi = OpPhi %int %int_1 %entry %next %continue
OpLoopMerge %merge %continue None
OpBranch %body
%body = OpLabel
OpReturn
%continue = OpLabel
%next = OpIAdd %int %phi %int_1
OpBranch %header
%merge = OpLabel
%after = OpIAdd %int %int_1 %int_2
OpReturn
%orphan = OpLabel
OpBranch %merge
OpFunctionEnd
"""
)


def blocks_of(text: str) -> dict[str, list[str]]:
    """The function's blocks: label → the instructions after it."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in lines(text):
        if line.endswith("= OpLabel"):
            current = found.setdefault(line.split()[0], [])
        elif line == "OpFunctionEnd":
            current = None
        elif current is not None:
            current.append(line)
    return found


def test_unreachable_merge_and_continue_are_emptied_phis_fixed() -> None:
    before = program(LOOP)
    # Numeric ids: %13 entry, %14 header, %19 body, %17 continue, %18 merge, %21 orphan.
    after = remove_unreachable_blocks(before)
    out = text_of(after)
    blocks = blocks_of(out)
    assert list(blocks) == ["%13", "%14", "%19", "%17", "%18"], out  # the orphan went
    assert blocks["%18"] == ["OpUnreachable"]  # the loop's merge block, unreachable
    assert blocks["%17"] == ["OpBranch %14"]  # its continue target branches to the header
    undef = next(line for line in lines(out) if "OpUndef" in line).split()[0]
    phi = blocks["%14"][0].split()
    assert phi[2:] == ["OpPhi", "%5", "%9", "%13", undef, "%17"], out
    assert val(after.to_words(), "spv1.3") == ""
    assert val(eliminate_dead_code(before).to_words(), "spv1.3") == ""


def test_unreachable_block_use_is_a_located_pass_error() -> None:
    src = (
        HEAD
        + TYPES
        + """%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr_f_int Function
OpStore %v %x
OpReturn
%island = OpLabel
%x = OpIAdd %int %int_1 %int_2
OpReturn
OpFunctionEnd
"""
    )
    with pytest.raises(PassError) as caught:
        remove_unreachable_blocks(program(src))
    error = caught.value
    assert error.pass_name == "remove-unreachable-blocks"
    assert error.opcode_name == "OpStore"
    assert "OpStore" in str(error) and "%" in str(error)


def test_builtin_workgroup_size_constant_stays() -> None:
    src = (
        HEAD
        + """OpDecorate %x SpecId 0
OpDecorate %size BuiltIn WorkgroupSize
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%one = OpConstant %uint 1
%x = OpSpecConstant %uint 64
%size = OpSpecConstantComposite %v3 %x %one %one
%unused = OpSpecConstantComposite %v3 %one %one %one
"""
        + TYPES
        + """%main = OpFunction %void None %fn
%l0 = OpLabel
OpReturn
OpFunctionEnd
"""
    )
    out = text_of(eliminate_dead_code(program(src)))
    assert out.count("OpSpecConstantComposite") == 1  # the workgroup size, used by nothing
    assert "BuiltIn WorkgroupSize" in out and "SpecId 0" in out


def test_unreachable_merge_in_a_continue_construct_branches_past_a_removed_loop() -> None:
    # In the continue construct of %header's loop: a one-trip loop (%w, as inlining makes
    # of a function with early returns) whose selection returns on both arms, so that the
    # selection's merge %sm and the loop %lh after it are unreachable.  %sm must not end in
    # OpUnreachable there (the construct must reach its back edge %wm): it branches where
    # its paths led, past the removed loop, to %wm (random GLSL seed 800210, vulkan1.0).
    src = (
        HEAD
        + TYPES
        + """%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %merge %cont None
OpBranch %body
%body = OpLabel
OpBranch %cont
%cont = OpLabel
%v = OpIAdd %int %int_1 %int_2
%c = OpSLessThan %bool %v %int_2
OpBranch %w
%w = OpLabel
OpLoopMerge %wm %wc None
OpBranch %s
%s = OpLabel
OpSelectionMerge %sm None
OpBranchConditional %c %a %b
%a = OpLabel
OpBranch %wm
%b = OpLabel
OpBranch %wm
%sm = OpLabel
OpBranch %lh
%lh = OpLabel
OpLoopMerge %lm %lc None
OpBranch %lc
%lc = OpLabel
OpBranchConditional %c %lh %lm
%lm = OpLabel
OpBranch %wm
%wc = OpLabel
OpBranch %w
%wm = OpLabel
OpBranchConditional %c %header %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
"""
    )
    before = program(src)
    assert val(before.to_words(), "spv1.3") == ""
    after = remove_unreachable_blocks(before)
    out = text_of(after)
    blocks = blocks_of(out)
    (sm,) = [line.split()[1] for line in lines(out) if line.startswith("OpSelectionMerge")]
    loops = [line.split()[1] for line in lines(out) if line.startswith("OpLoopMerge")]
    assert len(loops) == 2, out  # %header's and %w's (%lh's went)
    assert blocks[sm] == [f"OpBranch {loops[1]}"], out
    assert len(blocks) == 15 - 3, out  # %lh, %lc and %lm went
    assert val(after.to_words(), "spv1.3") == ""
