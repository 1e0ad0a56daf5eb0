"""The main recipe keeps what programs compute, on a real driver: every compute shader of
``tests/passes/shaders`` (glslangValidator, no optimization), every pykernel program of
``tests/test_pykernel.py`` and the gallery's compute programs run on lavapipe before and
after :func:`spvbuild.passes.main_recipe`'s recipe, with the same seeded random inputs,
give the same buffers, byte for byte (floats too: what the recipe folds must be what the
driver computes, as IEEE rounds + - * / on float32);
every output passes spirv-val for its environment (one that does not is not run: a driver
may crash on it), and every run writes something.

One Vulkan device, in a child process (:mod:`tests.passes.driver_process`: a module that
crashes the driver fails its test, not the session), serves every run; spirv-val runs once
per output (:mod:`tests.passes.tool_runs`, shared with the spirv-opt comparison).
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
from tests.conftest import ROOT
from tests.passes.driver import Dispatch, random_dispatch, run_dispatch
from tests.passes.driver_process import DriverProcess
from tests.passes.shader_corpus import compute_shaders
from tests.passes.tool_runs import ToolInput, after_recipe, validate_all

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val, pytest.mark.corpus]

GALLERY = ROOT / "examples" / "gallery"
PYKERNEL_ENV = "vulkan1.1"


@pytest.fixture(scope="module")
def device() -> Iterator[DriverProcess]:
    with DriverProcess() as opened:
        yield opened


def _runs(
    device: DriverProcess,
    name: str,
    before: tuple[int, ...],
    after: tuple[int, ...],
    dispatch: Dispatch,
) -> list[str]:
    """What is wrong with running ``before`` and ``after`` alike (see :func:`_differences`),
    or the crash of a run."""
    try:
        before_run = run_dispatch(device, before, dispatch)
        after_run = run_dispatch(device, after, dispatch)
    except AssertionError as crash:
        return [f"{name}: {crash}"]
    return [f"{name}: {d}" for d in _differences(before_run, after_run, dispatch)]


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


def test_shaders_give_the_same_buffers(device: DriverProcess, tmp_path: Path) -> None:
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
            continue  # (a driver may crash on what is not valid)
        dispatch = random_dispatch(module.words, module.name)
        failures += _runs(device, module.name, module.words, after, dispatch)
    assert failures == []


def _bits(values: list[int] | list[float] | list[int | float]) -> bytes:
    """Numbers as their 32-bit patterns (a NaN equals itself)."""
    return b"".join(struct.pack("<f" if isinstance(v, float) else "<q", v) for v in values)


def test_pykernel_programs_give_the_same_numbers(device: DriverProcess) -> None:
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
            continue
        try:
            before = run_on(device, plain, n, **values)  # type: ignore[arg-type]
            after = run_on(device, optimized, n, **values)  # type: ignore[arg-type]
        except AssertionError as crash:
            failures.append(f"{name}: {crash}")
            continue
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


def test_gallery_compute_programs_give_the_same_buffers(device: DriverProcess) -> None:
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
        ran.append(name)
        if problem:
            failures.append(f"{name}: spirv-val: {problem}")
            continue
        failures += _runs(device, name, words, after, random_dispatch(words, name))
    assert ran == ["debuginfo_shader", "edit_binary", "reduction"]
    assert failures == []
