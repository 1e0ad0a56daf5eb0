"""``scalar-replacement`` on small hand-written modules: structs and arrays split into
one variable per element named, whole loads and stores split, initializers split, what
must stay whole, spirv-val on every result; then ``ssa-rewrite`` leaves no Function
variable."""

from __future__ import annotations

import pytest

from spvbuild.passes import run
from spvbuild.passes.scalar_replacement import MAX_ELEMENTS
from tests.passes.helpers import program, text_of, val

pytestmark = [pytest.mark.spirv_val]

HEAD = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 1
%5 = OpTypeFloat 32
%6 = OpTypeStruct %4 %5
%7 = OpConstant %4 0
%8 = OpConstant %4 1
%9 = OpConstant %4 2
%10 = OpConstant %4 3
%11 = OpTypeArray %4 %10
%12 = OpTypeStruct %11 %6
%13 = OpTypePointer Function %4
%14 = OpTypePointer Function %5
%15 = OpTypePointer Function %6
%16 = OpTypePointer Function %11
%17 = OpTypePointer Function %12
%18 = OpTypePointer Private %4
%19 = OpVariable %18 Private
%20 = OpConstant %5 1.5
%21 = OpConstantComposite %6 %9 %20
%22 = OpTypePointer Private %6
%23 = OpVariable %22 Private
"""
"""Ids: %4 int, %5 float, %6 {int, float}, %7..%10 the ints 0..3, %11 int[3],
%12 {int[3], {int, float}}, %13..%17 Function pointers to them, %19 a Private int, %21 the
constant {2, 1.5}, %23 a Private {int, float}."""


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def split_up(src: str, passes: tuple[str, ...] = ("scalar-replacement",)) -> list[str]:
    out = run(program(src), list(passes))
    assert val(out.to_words(), "spv1.3") == ""
    return lines(text_of(out))


def function_variables(got: list[str]) -> list[str]:
    return [line for line in got if line.endswith(("Function", "Function %9", "Function %20"))]


NESTED = (
    HEAD
    + """%1 = OpFunction %2 None %3
%200 = OpLabel
%100 = OpVariable %17 Function
%300 = OpAccessChain %13 %100 %7 %8
OpStore %300 %9
%301 = OpAccessChain %14 %100 %8 %8
OpStore %301 %20
%302 = OpAccessChain %13 %100 %7 %8
%303 = OpLoad %4 %302
OpStore %19 %303
OpReturn
OpFunctionEnd
"""
)


def test_nested_struct_split_level_by_level() -> None:
    got = split_up(NESTED)
    kept = function_variables(got)
    # element 1 of the array (int) and member 1 of the inner struct (float): only what
    # a chain names
    assert [line.split()[3:] for line in kept] == [["%13", "Function"], ["%14", "Function"]]
    assert not any("OpAccessChain" in line for line in got)
    int_var, float_var = (line.split()[0] for line in kept)
    assert f"OpStore {int_var} %9" in got and f"OpStore {float_var} %20" in got
    assert f"%303 = OpLoad %4 {int_var}" in got
    after = split_up(NESTED, ("scalar-replacement", "ssa-rewrite"))
    assert function_variables(after) == [] and "OpStore %19 %9" in after


def test_whole_loads_and_stores_and_an_initializer() -> None:
    got = split_up(
        HEAD
        + """%1 = OpFunction %2 None %3
%200 = OpLabel
%100 = OpVariable %15 Function %21
%101 = OpVariable %15 Function
%300 = OpAccessChain %13 %100 %7
%301 = OpLoad %4 %300
OpStore %19 %301
%302 = OpLoad %6 %23
OpStore %101 %302
%303 = OpAccessChain %14 %101 %8
OpStore %303 %20
%304 = OpLoad %6 %101
OpStore %23 %304
OpReturn
OpFunctionEnd
"""
    )
    kept = function_variables(got)
    assert len(kept) == 3  # %100's member 0; both members of %101 (stored and loaded whole)
    assert kept[0].endswith("OpVariable %13 Function %9")  # 2, from the constant {2, 1.5}
    extracts = [line for line in got if "OpCompositeExtract" in line]
    assert [e.split()[-2:] for e in extracts] == [["%302", "0"], ["%302", "1"]]
    construct = next(line for line in got if "OpCompositeConstruct" in line)
    assert construct.startswith("%304 = OpCompositeConstruct %6 ")


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("%300 = OpLoad %4 %19\n%301 = OpAccessChain %13 %102 %300\nOpStore %301 %9", "dynamic"),
        ("%301 = OpAccessChain %13 %102 %10\nOpStore %301 %9", "out of bounds"),
        ("%301 = OpAccessChain %16 %103 %7\nOpCopyMemory %301 %102", "element copied"),
        ("%301 = OpAccessChain %13 %102 %7\n%302 = OpFunctionCall %2 %50 %301", "passed on"),
    ],
)
def test_stays_whole(body: str, why: str) -> None:
    src = (
        HEAD
        + """%24 = OpTypeFunction %2 %13
%50 = OpFunction %2 None %24
%51 = OpFunctionParameter %13
%52 = OpLabel
OpReturn
OpFunctionEnd
%1 = OpFunction %2 None %3
%200 = OpLabel
%102 = OpVariable %16 Function
%103 = OpVariable %17 Function
"""
        + body
        + """
OpReturn
OpFunctionEnd
"""
    )
    before = lines(text_of(program(src)))
    got = lines(text_of(run(program(src), "scalar-replacement")))
    assert got == before, why


def test_arrays_longer_than_the_limit_stay_whole() -> None:
    long = HEAD + (
        f"%30 = OpConstant %4 {MAX_ELEMENTS + 1}\n%31 = OpTypeArray %4 %30\n"
        "%32 = OpTypePointer Function %31\n"
        """%1 = OpFunction %2 None %3
%200 = OpLabel
%100 = OpVariable %32 Function
%300 = OpAccessChain %13 %100 %8
OpStore %300 %9
OpReturn
OpFunctionEnd
"""
    )
    assert lines(text_of(run(program(long), "scalar-replacement"))) == lines(text_of(program(long)))
    short = long.replace(f"OpConstant %4 {MAX_ELEMENTS + 1}", f"OpConstant %4 {MAX_ELEMENTS}")
    assert len(function_variables(split_up(short))) == 1
