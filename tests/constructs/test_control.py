"""Structured control flow: every construct, nested, in modules spirv-val accepts; one
kernel of them all run on lavapipe against the same loop in Python; a test per misuse."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from collections.abc import Callable

import pytest

from spvbuild import BuildError, Id, TypeId
from spvbuild.constructs import (
    STD430,
    Array,
    Field,
    Struct,
    declare_struct,
    do_while,
    for_range,
    if_else,
    if_then,
    phi,
    switch,
    u32,
    while_loop,
)
from spvbuild.enums import (
    AddressingModel,
    DecorationBinding,
    DecorationDescriptorSet,
    ExecutionModel,
    ExecutionModeLocalSize,
    LoopControl,
    MemoryModel,
    StorageClass,
)
from spvbuild.ir.module import Module
from spvbuild.vulkan_runner import run_compute

Validate = Callable[[list[int], str], subprocess.CompletedProcess[str]]


class Kernel:
    """A compute shader whose one storage buffer is ``uint values[]``; ``store(i, v)``
    writes ``values[i]``."""

    def __init__(self) -> None:
        m = self.m = Module(version=(1, 3))
        self.u32: TypeId = m.type_int(32, 0)
        self.bool: TypeId = m.type_bool()
        block = declare_struct(m, Struct("Values", (Field("values", Array(u32, None)),)), STD430)
        pointer = m.type_pointer(StorageClass.StorageBuffer, block.type)
        self.buffer = m.variable(pointer, StorageClass.StorageBuffer)
        m.decorate(self.buffer, DecorationDescriptorSet(0)).decorate(
            self.buffer, DecorationBinding(0)
        )
        self.main = m.define_function(m.type_void(), name="main")
        self.element = m.type_pointer(StorageClass.StorageBuffer, self.u32)

    def const(self, value: int) -> Id:
        return self.m.constant(self.u32, value)

    def at(self, index: Id) -> Id:
        return self.m.access_chain(self.element, self.buffer, [self.const(0), index])

    def load(self, index: Id) -> Id:
        return self.m.load(self.u32, self.at(index))

    def store(self, index: Id, value: Id) -> None:
        self.m.store(self.at(index), value)

    def finish(self) -> list[int]:
        m = self.m
        m.return_().function_end()
        m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        m.entry_point(ExecutionModel.GLCompute, self.main.id, "main")
        m.execution_mode(self.main.id, ExecutionModeLocalSize(1, 1, 1))
        words: list[int] = m.to_words()
        return words


def everything() -> Kernel:
    """values[0..7] from every construct, nested:

    total = 0
    for i in range(values[0]):             # for_range
        if i % 2 == 0: total += i          # if_then in a loop
        else:                              # if_else
            j = 0
            while j < i:                   # a loop in an if in a loop
                total += 1; j += 1
        switch i % 4:                      # a switch in a loop
            case 1: continue
            case 3: if total > values[3]: break
            default: total += 100
    values[1] = total
    k = 0; do { k += 3 } while k < 10      # do_while
    values[2] = k
    """
    k = Kernel()
    m, t, b = k.m, k.u32, k.bool
    zero, one, two = k.const(0), k.const(1), k.const(2)
    total_var = m.variable(m.type_pointer(StorageClass.Function, t), StorageClass.Function)
    m.store(total_var, zero)
    count = k.load(zero)
    limit = k.load(k.const(3))
    with for_range(m, t, zero, count) as (loop, i):
        even = m.i_equal(b, m.u_mod(t, i, two), zero)
        with if_then(m, even):
            m.store(total_var, m.i_add(t, m.load(t, total_var), i))
        with if_else(m, m.logical_not(b, even)) as (then, otherwise):
            with then:
                j_var = m.variable(m.type_pointer(StorageClass.Function, t), StorageClass.Function)
                m.store(j_var, zero)
                with while_loop(m, lambda: m.u_less_than(b, m.load(t, j_var), i)):
                    m.store(total_var, m.i_add(t, m.load(t, total_var), one))
                    m.store(j_var, m.i_add(t, m.load(t, j_var), one))
            with otherwise:
                pass
        with switch(m, m.u_mod(t, i, k.const(4)), cases=[1, 3]) as cases:
            with cases.case(1):
                loop.continue_()
            with cases.case(3):
                with if_then(m, m.u_greater_than(b, m.load(t, total_var), limit)):
                    loop.break_()
            with cases.default():
                m.store(total_var, m.i_add(t, m.load(t, total_var), k.const(100)))
    k.store(one, m.load(t, total_var))
    k_var = m.variable(m.type_pointer(StorageClass.Function, t), StorageClass.Function)
    m.store(k_var, zero)
    with do_while(m, lambda: m.u_less_than(b, m.load(t, k_var), k.const(10))):
        m.store(k_var, m.i_add(t, m.load(t, k_var), k.const(3)))
    k.store(two, m.load(t, k_var))
    return k


def python_everything(count: int, limit: int) -> tuple[int, int, set[str]]:
    """What ``everything`` computes, and the paths it takes on the way."""
    paths: set[str] = set()
    total = 0
    for i in range(count):
        paths.add("loop body")
        if i % 2 == 0:
            paths.add("even")
            total += i
        else:
            paths.add("odd")
            j = 0
            while j < i:
                paths.add("inner loop body")
                total += 1
                j += 1
        if i % 4 == 1:
            paths.add("case 1: continue")
            continue
        if i % 4 == 3:
            if total > limit:
                paths.add("case 3: break")
                break
            paths.add("case 3: no break")
        else:
            paths.add("default")
            total += 100
    else:
        paths.add("no loop" if count == 0 else "loop ends by its count")
    k = 0
    while True:
        k += 3
        if not k < 10:
            break
    return total, k, paths


PATHS = {
    "no loop", "loop body", "even", "odd", "inner loop body", "case 1: continue",
    "case 3: break", "case 3: no break", "default", "loop ends by its count",
}  # fmt: skip
# (values[0], values[3]): no loop; two iterations; past two case 3s to the count; a break
# at the first case 3; a break at a later one (total at i = 3, 7, 11: 206, 428, 666).
INPUTS = [(0, 0), (2, 1000), (8, 1000), (8, 150), (30, 600)]


def test_the_inputs_take_every_path() -> None:
    taken = [python_everything(count, limit)[2] for count, limit in INPUTS]
    assert set().union(*taken) == PATHS
    assert "case 3: no break" in taken[4] and "case 3: break" in taken[4]


@pytest.mark.spirv_val
def test_every_construct_nested_validates(spirv_val: Validate) -> None:
    words = everything().finish()
    done = spirv_val(words, "vulkan1.1")
    assert done.returncode == 0, done.stderr


@pytest.mark.vulkan
@pytest.mark.parametrize(("count", "limit"), INPUTS)
def test_every_construct_computes_what_python_does(count: int, limit: int) -> None:
    words = everything().finish()
    data = struct.pack("<8I", count, 0, 0, limit, 0, 0, 0, 0)
    (out,) = run_compute(words, [data], (1, 1, 1))
    assert struct.unpack("<8I", out)[1:3] == python_everything(count, limit)[:2]


@pytest.mark.spirv_val
@pytest.mark.vulkan
def test_phi_pairs_added_later_validate_and_run(spirv_val: Validate) -> None:
    k = Kernel()
    m, t, b = k.m, k.u32, k.bool
    zero, one = k.const(0), k.const(1)
    limit = k.load(zero)
    entry = m.current_block
    assert entry is not None
    header, body, merge, cont = m.new_id(), m.new_id(), m.new_id(), m.new_id()
    m.branch(header)
    m.label(result_id=header)
    total = phi(m, t, [(zero, entry)])
    going = m.u_less_than(b, total.id, limit)  # (before the merge instruction)
    m.loop_merge(merge, cont, LoopControl.None_)
    m.branch_conditional(going, body, merge)
    m.label(result_id=body)
    m.branch(cont)
    m.label(result_id=cont)
    total.add(m.i_add(t, total.id, one))  # parent: the current block, the continue target
    m.branch(header)
    m.label(result_id=merge)
    k.store(one, total.id)
    words = k.finish()
    assert spirv_val(words, "vulkan1.1").returncode == 0
    (out,) = run_compute(words, [struct.pack("<2I", 5, 0)], (1, 1, 1))
    assert struct.unpack("<2I", out) == (5, 5)


# -- misuse: a BuildError at the call -------------------------------------------------------
def test_break_after_its_loop_ended() -> None:
    k = Kernel()
    m = k.m
    with while_loop(m, lambda: m.u_less_than(k.bool, k.const(0), k.const(1))) as loop:
        pass
    with pytest.raises(BuildError, match=r"break_: the loop with header %\d+ has ended \(at "):
        loop.break_()
    with pytest.raises(BuildError, match="continue_: the loop with header"):
        loop.continue_()


def test_break_after_the_block_ended() -> None:
    k = Kernel()
    m = k.m
    with for_range(m, k.u32, k.const(0), k.const(3)) as (loop, _):
        loop.break_()
        with pytest.raises(BuildError, match="break_: no open block to branch from"):
            loop.break_()


def test_code_after_a_break_in_the_same_block() -> None:
    k = Kernel()
    m = k.m
    with for_range(m, k.u32, k.const(0), k.const(3)) as (loop, i):
        loop.break_()
        with pytest.raises(BuildError, match="after the terminator"):
            m.i_add(k.u32, i, i)


def test_a_branch_opened_twice_or_code_between_branches() -> None:
    k = Kernel()
    m = k.m
    with if_else(m, m.constant_true(k.bool)) as (then, otherwise):
        with then:
            pass
        with pytest.raises(BuildError, match="the then branch was opened already"):
            with then:
                pass
        with pytest.raises(BuildError, match="after the terminator"):
            m.i_add(k.u32, k.const(1), k.const(2))
        with otherwise:
            pass


def test_a_case_not_listed_and_cases_not_distinct() -> None:
    k = Kernel()
    m = k.m
    with pytest.raises(BuildError, match=r"the cases must be distinct ints, not \[1, 1\]"):
        with switch(m, k.const(1), cases=[1, 1]):
            pass
    with switch(m, k.const(1), cases=[1, 2]) as cases:
        with pytest.raises(BuildError, match=r"case 7 is not among the cases listed \(1, 2\)"):
            cases.case(7)
        with cases.case(2):
            pass
        with pytest.raises(BuildError, match="case 2 was opened already"):
            with cases.case(2):
                pass


def test_a_construct_outside_a_block() -> None:
    m = Module()
    condition = m.constant_true(m.type_bool())
    with pytest.raises(BuildError, match="if_then: no open block to start it in"):
        with if_then(m, condition):
            pass
    with pytest.raises(BuildError, match="for_range: .* is no integer type of this module"):
        with for_range(m, m.type_float(32), Id(1), Id(1)):
            pass


def test_phi_misuse() -> None:
    k = Kernel()
    m = k.m
    with pytest.raises(BuildError, match="add_phi_incoming: .* is not defined by an OpPhi"):
        m.add_phi_incoming(k.const(1), k.const(1), k.main.entry)
    m.branch(header := m.new_id())
    m.label(result_id=header)
    p = phi(m, k.u32, [(k.const(0), k.main.entry)])
    with pytest.raises(BuildError):
        p.add("x", header)  # type: ignore[arg-type]
    p.add(k.const(1), header)  # still fine after a refused pair


_LINE = r"\(at test_control\.py:(\d+)\)"


def _line_of(error: pytest.ExceptionInfo[BuildError]) -> int:
    found = re.search(_LINE, str(error.value))
    assert found is not None, str(error.value)
    return int(found.group(1))


def test_an_outer_loop_left_from_an_inner_loop() -> None:
    k = Kernel()
    m = k.m
    with while_loop(m, lambda: m.constant_true(k.bool)) as outer:
        with while_loop(m, lambda: m.constant_true(k.bool)) as inner:
            with pytest.raises(BuildError, match=r"break_: the loop with header %\d+ is not "
                               r"the innermost open loop .*no structured exit.* \(at test_"):
                outer.break_()
            with pytest.raises(BuildError, match="continue_: .* not the innermost open loop"):
                outer.continue_()
            with if_then(m, m.constant_true(k.bool)):
                inner.break_()  # the innermost loop, from inside a selection: allowed
        outer.break_()  # the inner loop has ended: outer is innermost again


def test_a_switch_selector_that_is_no_integer() -> None:
    k = Kernel()
    m = k.m
    with pytest.raises(BuildError, match=r"switch: the selector %\d+ must be an integer "
                       r"scalar, not of type %\d+ \(at test_control\.py"):
        with switch(m, m.constant_true(k.bool), cases=[1]):
            pass
    with switch(m, k.const(1), cases=[1]):  # nothing was made by the refused switch
        pass


def test_for_range_bounds_of_another_type() -> None:
    k = Kernel()
    m = k.m
    i32 = m.type_int(32, 1)
    for start, stop, step, name in (
        (m.constant(i32, 0), k.const(4), None, "start"),
        (k.const(0), m.constant(i32, 4), None, "stop"),
        (k.const(0), k.const(4), m.constant(i32, 1), "step"),
    ):
        with pytest.raises(BuildError, match=rf"for_range: {name} %\d+ is of type %\d+, not "
                           r"of the loop's type %\d+ \(at test_control\.py"):
            with for_range(m, k.u32, start, stop, step):
                pass
    with for_range(m, k.u32, k.const(0), k.const(4)):
        pass


def test_a_phi_left_without_pairs_is_refused_at_its_call() -> None:
    k = Kernel()
    m = k.m
    m.branch(header := m.new_id())
    m.label(result_id=header)
    line = sys._getframe().f_lineno + 1
    p = phi(m, k.u32, [])
    with pytest.raises(BuildError) as refused:
        k.finish()
    assert f"phi: the OpPhi {p.id!r} has no incoming (value, parent) pairs" in str(refused.value)
    assert _line_of(refused) == line


def test_a_phi_given_its_pairs_later_is_written(spirv_val: Validate) -> None:
    k = Kernel()
    m = k.m
    entry = k.main.entry
    m.branch(header := m.new_id())
    m.label(result_id=header)
    p = phi(m, k.u32, [])
    p.add(k.const(1), entry)
    k.store(k.const(0), p.id)
    assert spirv_val(k.finish(), "vulkan1.1").returncode == 0


def test_an_error_after_the_body_names_the_users_with_line() -> None:
    k = Kernel()
    m = k.m
    with pytest.raises(BuildError, match="the then branch is still open") as refused:
        line = sys._getframe().f_lineno + 1
        with if_else(m, m.constant_true(k.bool)) as (then, _):
            then.__enter__()
    assert _line_of(refused) == line
