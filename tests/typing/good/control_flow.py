"""Structured control flow: OpPhi pairs, OpSwitch pairs, loop and selection merges.

Blocks referenced before they are emitted (merge blocks, the loop's continue target)
get ids from ``new_id()``; ``label(result_id=...)`` places them later.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spvbuild import (
    AddressingModel,
    Capability,
    FunctionControl,
    Id,
    LoopControl,
    LoopControlDependencyLength,
    LoopControlMinIterations,
    MemoryModel,
    Recorder,
    SelectionControl,
)

if TYPE_CHECKING:
    from spvbuild.generated.core.enums import LoopControlOperand

b = Recorder()
b.capability(Capability.Shader).capability(Capability.Linkage)
b.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
i32 = b.type_int(32, 1)
boolean = b.type_bool()
fn = b.type_function(i32, [i32])
zero = b.constant(i32, 0)
one = b.constant(i32, 1)
ten = b.constant(i32, 10)

f = b.function(i32, FunctionControl.DontInline | FunctionControl.Pure, fn)
n = b.function_parameter(i32)
b.label()

# t = n < 10 ? n + 1 : 0
then_block, else_block, merge = b.new_id(), b.new_id(), b.new_id()
cond = b.s_less_than(boolean, n, ten)
b.selection_merge(merge, SelectionControl.None_)
b.branch_conditional(cond, then_block, else_block, [90, 10])
b.label(result_id=then_block)
then_value = b.i_add(i32, n, one)
b.branch(merge)
b.label(result_id=else_block)
b.branch(merge)
b.label(result_id=merge)
t = b.phi(i32, [(then_value, then_block), (zero, else_block)])

# switch (t) { case 0: case 1: s = 1; case 7: s = 10; default: s = 0 }
case_a, case_b, default, after = b.new_id(), b.new_id(), b.new_id(), b.new_id()
targets: list[tuple[int, Id]] = [(0, case_a), (1, case_a)]
targets.append((7, case_b))
b.selection_merge(after, SelectionControl.Flatten)
b.switch(t, default, targets)
for block in (case_a, case_b, default):
    b.label(result_id=block)
    b.branch(after)
b.label(result_id=after)
s = b.phi(i32, ((one, case_a), (ten, case_b), (zero, default)))
trivial = b.new_id()
b.selection_merge(trivial, SelectionControl.None_)
b.switch(s, trivial)  # no case pairs at all
b.label(result_id=trivial)


def counted_loop(b: Recorder, bound: Id, control: LoopControlOperand) -> Id:
    """for (i = 0; i < bound; ++i) {}, entered by a branch from the current block."""
    pre, header, body, cont, done = (b.new_id() for _ in range(5))
    b.branch(pre)
    b.label(result_id=pre)
    b.branch(header)
    b.label(result_id=header)
    next_i = b.new_id()  # the back edge's value, computed in the continue block
    i = b.phi(i32, [(zero, pre), (next_i, cont)])
    keep_going = b.s_less_than(boolean, i, bound)
    b.loop_merge(done, cont, control)
    b.branch_conditional(keep_going, body, done)
    b.label(result_id=body)
    b.branch(cont)
    b.label(result_id=cont)
    b.i_add(i32, i, one, result_id=next_i)
    b.branch(header)
    b.label(result_id=done)
    return i


# Loop controls: a bare bit, a bit with its parameter, and a sequence mixing both.
counted_loop(b, s, LoopControl.Unroll)
counted_loop(b, s, LoopControlDependencyLength(4))
last = counted_loop(b, s, [LoopControl.DontUnroll, LoopControlMinIterations(2)])
b.return_value(last).function_end()

phis = [inst for inst in b.instructions if inst.opcode == 245]
assert len(phis) == 5
assert phis[0].operands == (((then_value, then_block), (zero, else_block)),)
switches = [inst for inst in b.instructions if inst.opcode == 251]
assert switches[0].operands[2] == ((0, case_a), (1, case_a), (7, case_b))
assert switches[1].operands == (s, trivial, ())
assert b.to_words((1, 4))[0] == 0x07230203
