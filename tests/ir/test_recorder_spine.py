"""The generated methods, the tables and the generic encoder work together.

Modules built through the typed API are checked by spirv-val and read back by spirv-dis;
individual operand encodings (strings, 64-bit literals, enum parameters, masks with
parameters) are checked against spirv-dis's reading of the words.
"""

from __future__ import annotations

import struct
import subprocess
from collections.abc import Callable

import pytest

from spvbuild import EncodeError, Id, Recorder, TypeId
from spvbuild.binary.encoder import string_words
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Capability,
    Decoration,
    DecorationArrayStride,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationDescriptorSet,
    DecorationOffset,
    ExecutionMode,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryModel,
    SelectionControl,
    StorageClass,
)

Validator = Callable[[list[int], str], "subprocess.CompletedProcess[str]"]


def compute_shader(b: Recorder) -> None:
    """A sqrt-and-double compute kernel over a storage buffer, built out of layout order."""
    void = b.type_void()
    fnty = b.type_function(void)
    u32 = b.type_int(32, 0)
    f32 = b.type_float(32)
    v3u = b.type_vector(u32, 3)
    rta = b.type_runtime_array(f32)
    block = b.type_struct([rta])
    p_block = b.type_pointer(StorageClass.StorageBuffer, block)
    p_f32 = b.type_pointer(StorageClass.StorageBuffer, f32)
    p_in = b.type_pointer(StorageClass.Input, v3u)
    buf = b.variable(p_block, StorageClass.StorageBuffer)
    gid = b.variable(p_in, StorageClass.Input)
    zero = b.constant(u32, 0)
    two = b.constant(f32, 2.0)
    main = b.function(void, FunctionControl.None_, fnty)
    b.label()
    g = b.load(v3u, gid)
    x = b.composite_extract(u32, g, [0])
    p = b.access_chain(p_f32, buf, [zero, x])
    v = b.load(f32, p, [MemoryAccess.Volatile, MemoryAccessAligned(4)])
    s = b.glsl.sqrt(f32, v)
    b.store(p, b.f_mul(f32, s, two))
    b.return_().function_end()
    # Module-level instructions after the body: the builder sorts them into place.
    b.capability(Capability.Shader).memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    b.entry_point(ExecutionModel.GLCompute, main, "main", [gid])
    b.execution_mode(main, ExecutionModeLocalSize(64, 1, 1))
    b.decorate(gid, DecorationBuiltIn(BuiltIn.GlobalInvocationId))
    b.decorate(block, Decoration.Block).member_decorate(block, 0, DecorationOffset(0))
    b.decorate(rta, DecorationArrayStride(4))
    b.decorate(buf, DecorationDescriptorSet(0)).decorate(buf, DecorationBinding(0))
    b.name(main, "main")


@pytest.mark.spirv_val
def test_compute_shader_validates(
    spirv_val: Validator, spirv_dis: Callable[[list[int]], str]
) -> None:
    b = Recorder()
    compute_shader(b)
    words = b.to_words((1, 3))
    result = spirv_val(words, "vulkan1.1")
    assert result.returncode == 0, result.stderr
    text = spirv_dis(words)
    assert 'OpExtInstImport "GLSL.std.450"' in text
    assert "OpExecutionMode %15 LocalSize 64 1 1" in text
    assert "OpLoad %4 %19 Volatile|Aligned 4" in text
    assert "OpExtInst %4 %21 Sqrt %20" in text
    assert "OpDecorate %6 ArrayStride 4" in text


@pytest.mark.spirv_val
def test_structured_selection_and_phi(
    spirv_val: Validator, spirv_dis: Callable[[list[int]], str]
) -> None:
    b = Recorder()
    b.capability(Capability.Shader).capability(Capability.Int64)
    b.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    void = b.type_void()
    fnty = b.type_function(void)
    i64 = b.type_int(64, 1)
    boolean = b.type_bool()
    big = b.constant(i64, -(2**62))
    one = b.constant(i64, 1)
    yes = b.constant_true(boolean)
    main = b.function(void, FunctionControl.None_, fnty)
    b.entry_point(ExecutionModel.GLCompute, main, "main")
    b.execution_mode(main, ExecutionModeLocalSize(1, 1, 1))
    entry = b.label()
    then_label, merge_label, case_label = b.new_id(), b.new_id(), b.new_id()
    b.selection_merge(merge_label, SelectionControl.None_)
    b.branch_conditional(yes, then_label, merge_label)
    b.label(result_id=then_label)
    b.branch(merge_label)
    b.label(result_id=merge_label)
    phi = b.phi(i64, [(big, then_label), (one, entry)])
    switch_merge = b.new_id()
    b.selection_merge(switch_merge, SelectionControl.None_)
    b.switch(phi, switch_merge, [(2**40, case_label), (-5, switch_merge)])
    b.label(result_id=case_label)
    b.branch(switch_merge)
    b.label(result_id=switch_merge)
    b.return_().function_end()
    words = b.to_words((1, 3))
    result = spirv_val(words, "vulkan1.1")
    assert result.returncode == 0, result.stderr
    text = spirv_dis(words)
    assert "OpConstant %3 -4611686018427387904" in text
    assert "OpSwitch %" in text and "1099511627776 %" in text and "-5 %" in text


def test_string_words_pad_and_terminate() -> None:
    assert string_words("") == [0]
    assert string_words("abc") == [0x00636261]
    assert string_words("abcd") == [0x64636261, 0]
    assert len(string_words("é" * 3)) == 2  # 6 UTF-8 bytes + NUL → 2 words


def test_missing_enumerant_parameter_is_an_encode_error() -> None:
    b = Recorder()
    f32 = b.type_float(32)
    var = b.undef(f32)
    b.decorate(var, Decoration.BuiltIn)  # type: ignore[arg-type]
    with pytest.raises(
        EncodeError, match=r"OpDecorate operand 'Decoration': Decoration.BuiltIn needs"
    ):
        b.to_words()


def test_mask_bit_without_parameter_is_an_encode_error() -> None:
    b = Recorder()
    f32 = b.type_float(32)
    ptr = b.type_pointer(StorageClass.Function, f32)
    var = b.undef(ptr)
    b.load(f32, var, MemoryAccess.Aligned)
    with pytest.raises(EncodeError, match="MemoryAccess.Aligned needs its parameters"):
        b.to_words()


def test_wrong_enum_kind_is_an_encode_error() -> None:
    b = Recorder()
    f32 = b.type_float(32)
    b.type_pointer(BuiltIn.Position, f32)  # type: ignore[arg-type]
    with pytest.raises(EncodeError, match="expected a StorageClass, got BuiltIn.Position"):
        b.to_words()


def test_constant_out_of_range_names_instruction_and_operand() -> None:
    b = Recorder()
    u8 = b.type_int(8, 0)
    b.constant(u8, 256)
    with pytest.raises(EncodeError, match="OpConstant operand 'Value': Integer 256 does not fit in a 8-bit unsigned integer"):
        b.to_words()


def test_ids_are_distinct_types() -> None:
    b = Recorder()
    t = b.type_float(32)
    v = b.undef(t)
    assert isinstance(t, TypeId) and isinstance(t, Id)
    assert isinstance(v, Id) and not isinstance(v, TypeId)
    assert repr(v) == "%2"
    assert b.name(v, "x") is b  # no-result instructions chain


def test_ext_inst_import_created_once() -> None:
    b = Recorder()
    f32 = b.type_float(32)
    x = b.undef(f32)
    b.glsl.sqrt(f32, x)
    b.glsl.f_abs(f32, x)
    imports = [i for i in b.instructions if i.opcode == 11]
    assert len(imports) == 1 and imports[0].operands == ("GLSL.std.450",)


def test_execution_mode_without_parameters_encodes_one_word() -> None:
    b = Recorder()
    void = b.type_void()
    fn = b.function(void, FunctionControl.None_, b.type_function(void))
    b.execution_mode(fn, ExecutionMode.OriginUpperLeft)
    words = b.to_words()
    # OpExecutionMode: word count 3, opcode 16, entry id, mode 7 (right after the header).
    assert words[5:8] == [(3 << 16) | 16, fn, 7]


def test_a_string_operand_with_a_lone_surrogate_is_an_encode_error() -> None:
    from spvbuild.errors import EncodeError

    b = Recorder()
    b.string("ok\udcff")  # a surrogate escape: the byte 0xFF, kept
    words = b.to_words()
    assert struct.pack("<I", words[-1]) == b"ok\xff\0"
    b.string("bad\ud800")
    with pytest.raises(
        EncodeError, match=r"OpString operand '.*': string 'bad\\ud800'.*lone surrogate"
    ):
        b.to_words()
