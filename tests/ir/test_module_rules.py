"""Module builder: layout, deduplication, capability inference modes and build-time errors."""

from __future__ import annotations

import pytest

from spvbuild import BuildError, Id
from spvbuild.enums import (
    AddressingModel,
    Capability,
    Decoration,
    DecorationArrayStride,
    MemoryModel,
    StorageClass,
)
from spvbuild.ir.module import Module

OP_CAPABILITY, OP_EXTENSION = 17, 10


def _kernel_with_no_signed_wrap(version: tuple[int, int]) -> Module:
    m = Module(version)
    m.capability(Capability.Kernel).capability(Capability.Addresses)
    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
    i32 = m.type_int(32, 1)
    fn = m.define_function(i32, [i32, i32])
    total = m.i_add(i32, *fn.parameters)
    m.decorate(total, Decoration.NoSignedWrap)
    m.return_value(total).function_end()
    return m


def _heads(m: Module) -> tuple[list[object], list[object]]:
    ordered = m.ordered_instructions()
    caps = [i.operands[0] for i in ordered if i.opcode == OP_CAPABILITY]
    exts = [i.operands[0] for i in ordered if i.opcode == OP_EXTENSION]
    return caps, exts


def test_no_signed_wrap_needs_the_extension_below_1_4_only() -> None:
    assert _heads(_kernel_with_no_signed_wrap((1, 3)))[1] == ["SPV_KHR_no_integer_wrap_decoration"]
    assert _heads(_kernel_with_no_signed_wrap((1, 4)))[1] == []


def test_no_signed_wrap_on_f_add_breaks_the_extension_rule() -> None:
    m = Module((1, 4))
    f32 = m.type_float(32)
    fn = m.define_function(f32, [f32, f32])
    total = m.f_add(f32, *fn.parameters)
    m.decorate(total, Decoration.NoSignedWrap)
    m.return_value(total).function_end()
    with pytest.raises(BuildError, match=r"is OpFAdd, but rule no-signed-wrap-targets"):
        m.to_words()


def test_type_driven_and_implied_capabilities() -> None:
    m = Module()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.type_int(64, 1)
    m.type_float(16)
    caps, _ = _heads(m)
    # GLSL450 needs Shader; Matrix is implied by Shader and not declared again.
    assert caps == [Capability.Shader, Capability.Float16, Capability.Int64]


def test_verify_mode_names_the_instruction_that_needs_a_capability() -> None:
    m = Module(capabilities="verify")
    m.capability(Capability.Shader)
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.type_int(64, 1)
    with pytest.raises(
        BuildError, match=r"OpTypeInt 64 needs capability Int64 \(declared: Shader\)"
    ):
        m.to_words()


def test_off_mode_adds_nothing() -> None:
    m = Module(capabilities="off")
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.type_int(64, 1)
    assert _heads(m) == ([], [])


def test_types_and_constants_are_merged_structs_are_not() -> None:
    m = Module()
    f32 = m.type_float(32)
    assert m.type_float(32) == f32
    assert m.type_vector(f32, 4) == m.type_vector(f32, 4)
    assert m.constant(f32, 1.0) == m.constant(f32, 1.0)
    assert m.constant(f32, 0.0) != m.constant(f32, -0.0)
    assert m.type_struct([f32]) != m.type_struct([f32])
    merged = Module(merge_aggregates=True)
    g32 = merged.type_float(32)
    assert merged.type_struct([g32]) == merged.type_struct([g32])


def test_duplicate_decorations_are_dropped() -> None:
    m = Module()
    arr = m.type_runtime_array(m.type_float(32))
    m.decorate(arr, DecorationArrayStride(4)).decorate(arr, DecorationArrayStride(4))
    assert len(m.sections["annotations"]) == 1


def test_function_variables_go_to_the_entry_block() -> None:
    m = Module()
    void = m.type_void()
    f32 = m.type_float(32)
    ptr = m.type_pointer(StorageClass.Function, f32)
    fn = m.define_function(void)
    second = m.new_id()
    m.branch(second)
    m.label(result_id=second)
    local = m.variable(ptr, StorageClass.Function)
    m.return_().function_end()
    body = list(m.functions[0].instructions())
    labels = [i for i, inst in enumerate(body) if inst.opcode == 248]
    var_index = next(i for i, inst in enumerate(body) if inst.result_id == local)
    assert labels[0] < var_index < labels[1]
    assert body[labels[0]].result_id == fn.entry


def test_instruction_outside_a_block() -> None:
    m = Module()
    m.type_void()
    with pytest.raises(BuildError, match="OpReturn outside a function"):
        m.return_()


def test_second_terminator() -> None:
    m = Module()
    m.define_function(m.type_void())
    m.return_()
    with pytest.raises(BuildError, match=r"OpReturn after the terminator of block %\d+"):
        m.return_()


def test_block_without_terminator() -> None:
    m = Module()
    m.define_function(m.type_void())
    with pytest.raises(BuildError, match=r"block %\d+ has no terminator"):
        m.label()
    with pytest.raises(BuildError, match=r"OpFunctionEnd: block %\d+ has no terminator"):
        m.function_end()


def test_undefined_id_is_reported_at_serialization() -> None:
    m = Module()
    i32 = m.type_int(32, 1)
    m.define_function(i32)
    later = m.new_id()  # reserved, never defined
    m.return_value(later).function_end()
    with pytest.raises(
        BuildError,
        match=rf"OpReturnValue operand.* uses %{int(later)}, which no instruction defines",
    ):
        m.to_words()


def test_unended_function_is_reported() -> None:
    m = Module()
    m.define_function(m.type_void())
    m.return_()
    with pytest.raises(BuildError, match="is not ended"):
        m.to_words()


def test_to_bytes_big_endian_and_write(tmp_path: object) -> None:
    m = Module()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    little = m.to_bytes()
    big = m.to_bytes("big")
    assert little[:4] == bytes.fromhex("03022307") and big[:4] == bytes.fromhex("07230203")
    assert len(little) == len(big)


def _interface_module(version: tuple[int, int]) -> tuple[Module, Id, Id]:
    from spvbuild.enums import ExecutionModel

    m = Module(version)
    void = m.type_void()
    u32 = m.type_int(32, 0)
    buf = m.variable(m.type_pointer(StorageClass.Private, u32), StorageClass.Private)
    gid = m.variable(m.type_pointer(StorageClass.Input, u32), StorageClass.Input)
    helper = m.define_function(void)
    m.store(buf, m.constant(u32, 7)).return_().function_end()
    main = m.define_function(void)
    m.load(u32, gid)
    m.function_call(void, helper.id, [])
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main", [])
    return m, buf, gid


def test_entry_point_interfaces_are_completed_through_calls() -> None:
    m, buf, gid = _interface_module((1, 4))
    entry = next(i for i in m.ordered_instructions() if i.opcode == 15)
    assert set(entry.operands[3]) == {buf, gid}  # from 1.4 every global used, even via a call
    m, buf, gid = _interface_module((1, 3))
    entry = next(i for i in m.ordered_instructions() if i.opcode == 15)
    assert entry.operands[3] == (gid,)  # before 1.4 only Input/Output


def test_named_keeps_the_id_type() -> None:
    from spvbuild import TypeId

    m = Module()
    s = m.named(m.type_struct([m.type_float(32)]), "S")
    assert isinstance(s, TypeId)


def test_rewrite_removes_and_keeps_caches_in_sync() -> None:
    m = Module()
    f32 = m.type_float(32)
    one = m.constant(f32, 1.0)
    assert m.definition(one) is not None
    removed = m.rewrite(lambda i: None if i.result_id == one else i)
    assert removed == {int(one)} and m.definition(one) is None
    again = m.constant(f32, 1.0)
    assert again != one and m.definition(again) is not None  # not handed out from the cache


def test_raw_ext_inst_is_routed_by_its_set() -> None:
    m = Module()
    void = m.type_void()
    m.define_function(void)
    m.ext_inst(void, m.debug_info.set_id, 0)  # DebugInfoNone: a global instruction
    m.return_().function_end()
    assert any(i.opcode == 12 for i in m.sections["types_globals"])
    assert all(i.opcode != 12 for b in m.functions[0].blocks for i in b.instructions)


def test_checks_run_at_serialization() -> None:
    m = Module()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    seen: list[int] = []
    m.add_check(lambda instructions: seen.append(len(instructions)))
    m.to_words()
    assert seen and seen[0] >= 2


def test_raw_ext_inst_with_operands_encodes_like_the_typed_call() -> None:
    def build(raw: bool) -> list[int]:
        m = Module()
        m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        f32 = m.type_float(32)
        fn = m.define_function(f32, [f32])
        x = fn.parameters[0]
        root = m.ext_inst(f32, m.glsl.set_id, 31, [x]) if raw else m.glsl.sqrt(f32, x)
        m.return_value(root).function_end()
        return m.to_words()

    assert build(raw=True) == build(raw=False)


def test_constant_literals_are_range_checked_by_width() -> None:
    import struct

    from spvbuild import EncodeError

    # The error is raised by the call that makes the constant, and names the caller's line;
    # the range is the type's, by its signedness, as spirv-as reads the same decimal text.
    for ty_args, value, kind in (
        ((32, 1), 2**32, "signed"),
        ((32, 1), 2**31, "signed"),
        ((32, 0), 2**32, "unsigned"),
        ((16, 1), 2**16, "signed"),
    ):
        m = Module()
        ty = m.type_int(*ty_args)
        with pytest.raises(
            EncodeError,
            match=rf"Integer {value} does not fit in a {ty_args[0]}-bit {kind} integer \(at ",
        ):
            m.constant(ty, value)
        m.to_words()  # the failed call left nothing behind
    m = Module()
    with pytest.raises(EncodeError, match="Cannot put a negative number in an unsigned literal"):
        m.constant(m.type_int(32, 0), -1)
    m.constant(m.type_int(32, 0), 2**32 - 1)
    m.constant(m.type_int(32, 1), -(2**31))
    m.to_words()
    m = Module()
    f32 = m.type_float(32)
    with pytest.raises(
        EncodeError, match=r"OpConstant operand 'Value': 1e\+39 does not fit in a 32-bit float"
    ):
        m.constant(f32, 1e39)
    m = Module()
    f32 = m.type_float(32)
    rounded = struct.unpack("<f", struct.pack("<f", 0.1))[0]
    assert m.constant(f32, 0.1) == m.constant(f32, rounded)  # same encoded bits, same id


def _entry_interface(m: Module) -> set[int]:
    entry = next(i for i in m.ordered_instructions() if i.opcode == 15)
    return {int(v) for v in entry.operands[3]}


def test_a_global_defined_after_its_use_is_in_the_interface() -> None:
    """A function notes what its calls use at the call: a reserved id used before the
    global variable defines it is noted too (globals are noted by their definition)."""
    from spvbuild.enums import ExecutionModel

    m = Module((1, 3))
    void = m.type_void()
    u32 = m.type_int(32, 0)
    pointer = m.type_pointer(StorageClass.Input, u32)
    later = m.new_id()
    main = m.define_function(void)
    m.load(u32, later)
    m.return_().function_end()
    m.variable(pointer, StorageClass.Input, result_id=later)
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    assert _entry_interface(m) == {int(later)}


def test_interfaces_of_a_read_module_and_of_a_rewritten_one() -> None:
    """Functions read from a binary, or rewritten, were not noted at calls: their
    records and runs are walked when the module is written, and new calls still count."""
    m, buf, gid = _interface_module((1, 4))
    read_back = Module.from_binary(m.to_bytes())
    assert _entry_interface(read_back) == {int(buf), int(gid)}
    m, buf, gid = _interface_module((1, 3))
    m.rewrite(lambda i: i)
    assert _entry_interface(m) == {int(gid)}
    # A rewritten module keeps noting the functions made after the rewrite.
    from spvbuild.enums import ExecutionModel

    extra = m.variable(m.type_pointer(StorageClass.Output, m.type_int(32, 0)), StorageClass.Output)
    other = m.define_function(m.type_void())
    m.store(extra, m.constant(m.type_int(32, 0), 1)).return_().function_end()
    m.entry_point(ExecutionModel.Fragment, other.id, "other")
    entries = [i for i in m.ordered_instructions() if i.opcode == 15]
    assert [{int(v) for v in e.operands[3]} for e in entries] == [{int(gid)}, {int(extra)}]
