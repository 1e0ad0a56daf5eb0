"""The builder's fast path: block instructions of ids only are appended as words at the call.

``m.i_add(t, a, b)`` and every other ``%r = OpX %type %a ...`` of single ids goes straight
into the current block as words (a :class:`spvbuild.spirv.emission.Run`) when its operands are
ids the builder handed out.  Everything the module does must see those instructions as
it sees records: the words written, capability inference, the rules, entry-point
interfaces, OpSwitch literal widths, undefined ids, ``definition``, ``rewrite`` and the
block's ``instructions``.  Each test builds the same module twice where it can, once
through the fast path (``Id`` operands) and once through the general path (plain ``int``
operands, which the fast path leaves alone), and compares.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from spvbuild import BuildError, Id, Module
from spvbuild.binary.reader import read
from spvbuild.enums import (
    AddressingModel,
    Capability,
    Decoration,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    SelectionControl,
    StorageClass,
)
from spvbuild.spirv.emission import Run
from spvbuild.spirv.instruction import Instruction

Validator = Callable[[list[int], str], "subprocess.CompletedProcess[str]"]


def _plain(value: Id) -> Id:
    """The same id as a plain int: the fast path leaves it to the general path."""
    return int(value)  # type: ignore[return-value]


def _arithmetic(fast: bool) -> Module:
    """A compute shader whose entry block computes with ids only, then stores a result."""
    ids: Callable[[Id], Id] = (lambda value: value) if fast else _plain
    m = Module(version=(1, 3))
    u32 = m.type_int(32, 0)
    f32 = m.type_float(32)
    f64 = m.type_float(64)
    b = m.type_bool()
    v4 = m.type_vector(f32, 4)
    c = m.constant(u32, 7)
    k = m.constant(f32, 0.5)
    ptr = m.type_pointer(StorageClass.Private, u32)
    out = m.variable(ptr, StorageClass.Private)
    fn = m.define_function(m.type_void(), name="main")
    x = m.i_add(u32, ids(c), ids(c))
    y = m.i_mul(u32, ids(x), ids(c))
    z = m.bitwise_xor(u32, ids(y), ids(x))
    f = m.convert_u_to_f(f32, ids(z))
    g = m.f_mul(f32, ids(f), ids(k))
    d = m.f_convert(f64, ids(g))  # needs Float64
    vec = m.composite_construct(v4, [g, g, g, g])  # a record between runs
    dot = m.dot(f32, ids(vec), ids(vec))
    less = m.f_ord_less_than(b, ids(dot), ids(g))
    pick = m.select(u32, ids(less), ids(z), ids(c))
    m.store(out, pick)
    m.i_sub(u32, ids(pick), ids(c))
    del d
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, fn.id, "main")
    m.execution_mode(fn.id, ExecutionModeLocalSize(1, 1, 1))
    return m


def test_the_fast_path_takes_id_operands_and_writes_the_same_words() -> None:
    fast, general = _arithmetic(True), _arithmetic(False)
    fast_block = fast.functions[0].blocks[0]
    assert any(isinstance(item, Run) for item in fast_block.items)
    assert not any(isinstance(item, Run) for item in general.functions[0].blocks[0].items)
    assert fast.to_words() == general.to_words()
    assert fast.to_bytes("big") == general.to_bytes("big")
    assert fast_block.instructions == general.functions[0].blocks[0].instructions


@pytest.mark.spirv_val
def test_a_fast_path_module_is_valid_and_infers_its_capabilities(spirv_val: Validator) -> None:
    words = _arithmetic(True).to_words()
    done = spirv_val(words, "vulkan1.1")
    assert done.returncode == 0, done.stderr
    capabilities = {
        int(i.operands[0])
        for i in read(words).instructions
        if i.opcode == 17  # OpCapability
    }
    assert int(Capability.Float64) in capabilities  # from OpFConvert to a double, in a run


def test_definition_and_rewrite_see_instructions_of_runs() -> None:
    m = _arithmetic(True)
    runs = [item for item in m.functions[0].blocks[0].items if isinstance(item, Run)]
    first = next(runs[0].instructions())
    assert m.definition(first.result_id or 0) == first
    assert first.opcode == 128  # OpIAdd

    def to_sub(inst: Instruction) -> Instruction:
        return inst._replace(opcode=130) if inst.opcode == 128 else inst  # OpIAdd → OpISub

    m.rewrite(to_sub)
    assert not any(isinstance(i, Run) for i in m.functions[0].blocks[0].items)
    opcodes = [i.opcode for i in read(m.to_words()).instructions]
    assert 128 not in opcodes and 130 in opcodes


def _switch_module(selector_width: int) -> list[int]:
    m = Module(version=(1, 3), capabilities="infer")
    t = m.type_int(selector_width, 0)
    one = m.constant(t, 1)
    m.define_function(m.type_void(), name="main")
    selector = m.i_add(t, one, one)  # made by the fast path
    merge, case = m.new_id(), m.new_id()
    m.selection_merge(merge, SelectionControl.None_)
    m.switch(selector, merge, [(2**40 if selector_width == 64 else 5, case)])
    m.label(result_id=case)
    m.branch(merge)
    m.label(result_id=merge)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    return m.to_words()


@pytest.mark.parametrize("width", [32, 64])
def test_an_opswitch_on_a_value_of_a_run_gets_its_literal_width(width: int) -> None:
    switch = next(i for i in read(_switch_module(width)).instructions if i.opcode == 251)
    literal = switch.operands[2][0][0]
    assert literal == (2**40 if width == 64 else 5)


def test_a_decoration_rule_sees_the_decorated_instruction_in_a_run() -> None:
    m = Module(version=(1, 3))
    u32 = m.type_int(32, 0)
    f32 = m.type_float(32)
    c = m.constant(u32, 1)
    k = m.constant(f32, 1.0)
    m.define_function(m.type_void(), name="main")
    allowed = m.i_add(u32, c, c)
    m.decorate(allowed, Decoration.NoSignedWrap)
    not_allowed = m.f_mul(f32, k, k)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.to_words()  # NoSignedWrap on OpIAdd: allowed
    m.decorate(not_allowed, Decoration.NoSignedWrap)
    with pytest.raises(BuildError, match="NoSignedWrap"):
        m.to_words()


def test_a_global_used_only_in_a_run_is_in_the_entry_points_interface() -> None:
    m = Module(version=(1, 3))
    u32 = m.type_int(32, 0)
    ptr = m.type_pointer(StorageClass.Input, u32)
    seen = m.variable(ptr, StorageClass.Input)
    fn = m.define_function(m.type_void(), name="main")
    m.copy_object(ptr, seen)  # the only use of the Input variable: an id-only instruction
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, fn.id, "main")
    m.execution_mode(fn.id, ExecutionModeLocalSize(1, 1, 1))
    entry = next(i for i in read(m.to_words()).instructions if i.opcode == 15)
    assert int(seen) in [int(v) for v in entry.operands[3]]


def test_a_run_that_uses_an_id_defined_by_nothing_is_refused() -> None:
    m = Module()
    u32 = m.type_int(32, 0)
    c = m.constant(u32, 1)
    m.define_function(m.type_void())
    ghost = m.new_id()
    m.i_add(u32, c, ghost)  # fast path: ghost is below the bound, reserved, never defined
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    with pytest.raises(BuildError, match=rf"OpIAdd .*uses %{int(ghost)}, which no instruction"):
        m.to_words()


def test_no_fast_path_between_a_merge_and_its_branch() -> None:
    m = Module()
    u32 = m.type_int(32, 0)
    c = m.constant(u32, 1)
    m.define_function(m.type_void())
    m.selection_merge(m.new_id(), SelectionControl.None_)
    with pytest.raises(BuildError, match="between OpSelectionMerge and its branch"):
        m.i_add(u32, c, c)


@pytest.mark.parametrize("check_types", [True, False])
def test_ids_not_handed_out_yet_are_refused_at_the_call(check_types: bool) -> None:
    """An id at or above the bound is no forward reference (new_id() makes those): the
    general path, which the fast path hands it to, refuses it naming the operand."""
    m = Module(check_types=check_types)
    u32 = m.type_int(32, 0)
    c = m.constant(u32, 1)
    m.define_function(m.type_void())
    later = Id(m.bound + 5)
    before = m.bound
    with pytest.raises(BuildError, match=rf"OpIAdd operand 'Operand 2' is %{int(later)}, an id this module has not handed out"):
        m.i_add(u32, c, later)
    assert m.bound == before
    reserved = m.new_id()  # a forward reference: accepted
    assert m.i_add(u32, c, reserved) == before + 1


def test_a_use_of_an_instruction_that_rewrite_removed_is_an_undefined_id() -> None:
    m = Module()
    u32 = m.type_int(32, 0)
    c = m.constant(u32, 1)
    ptr = m.type_pointer(StorageClass.Private, u32)
    out = m.variable(ptr, StorageClass.Private)
    m.define_function(m.type_void())
    gone = m.i_add(u32, c, c)  # in a run
    m.store(out, gone)  # a record that uses it
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.to_words()
    assert m.rewrite(lambda inst: None if inst.result_id == gone else inst) == {int(gone)}
    with pytest.raises(BuildError, match=rf"OpStore .*uses %{int(gone)}, which no instruction"):
        m.to_words()


def test_from_binary_copies_id_only_instructions_into_runs_and_writes_them_back() -> None:
    words = _arithmetic(True).to_words()
    again = Module.from_binary(words)
    block = again.functions[0].blocks[0]
    assert any(isinstance(item, Run) for item in block.items)
    assert again.to_words() == words
    # The decoded view holds the binary's instructions of that block, in order.
    body = read(words).instructions
    start = next(k for k, i in enumerate(body) if i.opcode == 248) + 1  # after OpLabel
    decoded = block.instructions
    assert decoded == body[start : start + len(decoded)]
    assert decoded[-1].opcode == 253  # OpReturn: the whole block


def test_from_binary_still_refuses_an_id_only_instruction_outside_a_block() -> None:
    text = "%t = OpTypeInt 32 0\n%c = OpConstant %t 1\n%x = OpIAdd %t %c %c\n"
    from spvbuild.text.assembler import assemble

    with pytest.raises(BuildError, match="OpIAdd outside a function"):
        Module.from_binary(assemble(text))


def test_an_instruction_of_a_run_that_needs_a_capability_gets_it() -> None:
    def build(fast: bool) -> list[int]:
        ids: Callable[[Id], Id] = (lambda value: value) if fast else _plain
        m = Module(version=(1, 3))
        f32 = m.type_float(32)
        k = m.constant(f32, 2.0)
        m.define_function(m.type_void())
        m.d_pdx_fine(f32, ids(k))  # OpDPdxFine: capability DerivativeControl
        m.return_().function_end()
        m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        return m.to_words()

    fast = build(True)
    capabilities = {int(i.operands[0]) for i in read(fast).instructions if i.opcode == 17}
    assert int(Capability.DerivativeControl) in capabilities
    assert fast == build(False)
