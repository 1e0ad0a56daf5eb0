"""The passes leave no reference cycles: what a pass made and dropped is freed as soon as
it is dropped, by reference counting, not at the next collection of the cyclic garbage
collector (the main recipe's peak memory over a corpus depends on it, ``bench opt``).
Compiled by mypyc (:mod:`spvbuild.accel.compiled_passes`), a nested function and the scope
it closes over hold each other: the compiled modules use none."""

from __future__ import annotations

import gc

import pytest

from spvbuild.passes import PASSES, RECIPES, Program, run
from tests.passes.corpus import RealModule, real_modules
from tests.passes.shader_corpus import compute_shaders


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[RealModule, ...]:
    workdir = tmp_path_factory.mktemp("no-cycles")
    found = compute_shaders(workdir) + real_modules(workdir)[:60]
    assert len(found) > 100
    return found


@pytest.mark.parametrize("passes", [*RECIPES, *([name] for name in PASSES)], ids=str)
def test_a_pass_leaves_no_garbage_cycles(
    modules: tuple[RealModule, ...], passes: str | list[str]
) -> None:
    gc.collect()
    before = gc.isenabled()
    gc.disable()
    try:
        for module in modules:
            run(Program.from_words(module.words), passes).to_words()
        unreachable = gc.collect()
    finally:
        if before:
            gc.enable()
    assert unreachable == 0, f"{unreachable} objects in reference cycles after {passes}"
