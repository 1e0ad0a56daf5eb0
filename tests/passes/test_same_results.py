"""The main recipe keeps what programs compute, on a real driver: every compute shader of
``tests/passes/shaders`` (glslangValidator, no optimization), every pykernel program of
``tests/test_pykernel.py`` and the gallery's compute programs run on lavapipe before and
after :func:`spvbuild.passes.main_recipe`'s recipe, with the same seeded random inputs,
give the same buffers, byte for byte (floats too: the recipe folds no float arithmetic);
every output passes spirv-val for its environment, and every run writes something.

One Vulkan device serves every run; spirv-val runs once per output
(:mod:`tests.passes.tool_runs`, shared with the spirv-opt comparison).
"""

from __future__ import annotations

import importlib.util
import re
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from spvbuild.reflection import reflect
from spvbuild.vulkan_runner import ComputeDevice
from tests.conftest import ROOT
from tests.passes.driver import Dispatch, random_dispatch, run_dispatch
from tests.passes.shader_corpus import compute_shaders
from tests.passes.tool_runs import ToolInput, after_recipe, validate_all

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val, pytest.mark.corpus]

GALLERY = ROOT / "examples" / "gallery"
PYKERNEL_ENV = "vulkan1.1"


@pytest.fixture(scope="module")
def device() -> Iterator[ComputeDevice]:
    with ComputeDevice() as opened:
        yield opened


def _differences(before: list[bytes], after: list[bytes], dispatch: Dispatch) -> list[str]:
    """What is wrong with a pair of runs: buffers that differ, or nothing written."""
    found = [
        f"buffer {pair} differs ({sum(a != b for a, b in zip(x, y, strict=True))} bytes)"
        for pair, x, y in zip(dispatch.bindings, before, after, strict=True)
        if x != y
    ]
    if before == list(dispatch.buffers):
        found.append("the run wrote nothing")
    return found


def test_shaders_give_the_same_buffers(device: ComputeDevice, tmp_path: Path) -> None:
    modules = compute_shaders(tmp_path)
    assert len(modules) >= 50
    outputs = [after_recipe(m.words) for m in modules]
    problems = validate_all(
        [ToolInput(w, m.target_env) for w, m in zip(outputs, modules, strict=True)]
    )
    failures = []
    for module, after, problem in zip(modules, outputs, problems, strict=True):
        if problem:
            failures.append(f"{module.name}: spirv-val: {problem}")
        dispatch = random_dispatch(module.words, module.name)
        before_run = run_dispatch(device, module.words, dispatch)
        after_run = run_dispatch(device, after, dispatch)
        failures += [f"{module.name}: {d}" for d in _differences(before_run, after_run, dispatch)]
    assert failures == []


def _bits(values: list[int] | list[float] | list[int | float]) -> bytes:
    """Numbers as their 32-bit patterns (a NaN equals itself)."""
    return b"".join(struct.pack("<f" if isinstance(v, float) else "<q", v) for v in values)


def test_pykernel_programs_give_the_same_numbers(device: ComputeDevice) -> None:
    from examples.pykernel import compile_kernel, run_on
    from tests.test_pykernel import CASES

    assert len(CASES) >= 13
    failures = []
    for name, make in CASES.items():
        function, n, values, _ = make()
        plain = compile_kernel(function, optimize=False)
        optimized = compile_kernel(function)
        if tuple(optimized.words) != after_recipe(tuple(plain.words)):
            failures.append(f"{name}: compile_kernel did not write the recipe's words")
        (problem,) = validate_all([ToolInput(tuple(optimized.words), PYKERNEL_ENV)])
        if problem:
            failures.append(f"{name}: spirv-val: {problem}")
        before = run_on(device, plain, n, **values)
        after = run_on(device, optimized, n, **values)
        failures += [
            f"{name}: {array} differs"
            for array in before
            if _bits(before[array]) != _bits(after[array])
        ]
    assert failures == []


def _gallery_programs() -> list[tuple[str, ModuleType, str]]:
    """Each gallery program with its target environment (from its ``gallery_main`` call)."""
    found = []
    sys.path.insert(0, str(GALLERY))
    try:
        for path in sorted(GALLERY.glob("*.py")):
            env = re.search(
                r'gallery_main\("\w+", build, "([\w.]+)"', path.read_text(encoding="utf-8")
            )
            if env is None:
                continue
            spec = importlib.util.spec_from_file_location(f"gallery_{path.stem}", path)
            assert spec is not None and spec.loader is not None
            program = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(program)
            found.append((path.stem, program, env.group(1)))
    finally:
        sys.path.remove(str(GALLERY))
    return found


def test_gallery_compute_programs_give_the_same_buffers(device: ComputeDevice) -> None:
    failures = []
    ran = []
    for name, program, env in _gallery_programs():
        words = tuple(program.build().to_words())
        if not any(
            e.execution_model == "GLCompute"
            for e in reflect(struct.pack(f"<{len(words)}I", *words)).entry_points
        ):
            continue
        after = after_recipe(words)
        (problem,) = validate_all([ToolInput(after, env)])
        if problem:
            failures.append(f"{name}: spirv-val: {problem}")
        dispatch = random_dispatch(words, name)
        before_run = run_dispatch(device, words, dispatch)
        after_run = run_dispatch(device, after, dispatch)
        failures += [f"{name}: {d}" for d in _differences(before_run, after_run, dispatch)]
        ran.append(name)
    assert ran == ["debuginfo_shader", "edit_binary", "reduction"]
    assert failures == []
