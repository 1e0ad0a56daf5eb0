"""A binary read back into a Module: same words out, and it can keep being edited."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from spvbuild import TypeId
from spvbuild.ir.module import Module
from tests.modules.catalogue import CATALOGUE, Entry

Validator = Callable[[list[int], str], "subprocess.CompletedProcess[str]"]
VALID = [e for e in CATALOGUE if e.val_rejects is None and e.xfail is None]


@pytest.mark.parametrize("entry", VALID, ids=[e.name for e in VALID])
def test_module_words_survive_a_trip_through_from_binary(entry: Entry) -> None:
    m = entry.module()
    entry.build(m)
    words = m.to_words()
    again = Module.from_binary(words, capabilities=m.capability_mode)
    assert again.to_words() == words


@pytest.mark.spirv_val
def test_a_read_module_keeps_being_edited(spirv_val: Validator) -> None:
    entry = next(e for e in VALID if e.name == "compute_storage_buffer")
    original = entry.module()
    entry.build(original)
    m = Module.from_binary(original.to_bytes())
    f32 = m.type_float(32)
    assert isinstance(f32, TypeId)
    assert f32 in {i.result_id for i in original.sections["types_globals"]}  # merged, not new
    helper = m.define_function(f32, [f32], name="halve")
    m.return_value(m.f_mul(f32, helper.parameters[0], m.constant(f32, 0.5))).function_end()
    words = m.to_words()
    assert len(words) > len(original.to_words())
    result = spirv_val(words, entry.target_env)
    assert result.returncode == 0, result.stderr


_LINES_BETWEEN_BLOCKS = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpLine %file 3 1
OpBranch %next
OpLine %file 4 1
OpNoLine
%next = OpLabel
OpLine %file 5 1
OpReturn
OpNoLine
OpFunctionEnd
"""


@pytest.mark.spirv_val
def test_debug_lines_between_a_terminator_and_the_next_label(spirv_val: Validator) -> None:
    from spvbuild import assemble

    words = assemble(_LINES_BETWEEN_BLOCKS)
    assert spirv_val(words, "vulkan1.3").returncode == 0
    m = Module.from_binary(words)
    again = m.to_words()
    assert again[5:] == words[5:] and again[:4] == words[:4]
    assert Module.from_binary(again).to_words() == again
