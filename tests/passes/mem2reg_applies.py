"""Where mem2reg applies: ``Function`` variables only loaded and stored whole.

A ``Function``-storage ``OpVariable`` is *promotable* when every instruction that uses it
is an ``OpLoad`` from it or an ``OpStore`` to it (as the pointer, not as the value stored),
without a ``Volatile`` memory access; its names and decorations and the instructions of the
DebugInfo sets (a ``DebugDeclare`` of it) do not count as uses.  An access chain into it, a
call taking it, an ``OpCopyMemory`` or any other use leaves it where it is: that is scalar
replacement's or inlining's work first.

:func:`check_mem2reg_applied` is the acceptance check of the main recipe: no promotable
variable left in its outputs.  spirv-opt ``-O``'s outputs pass it (the comparison test
checks that, which is how this definition is held to the reference tool).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spvbuild.debuginfo import DEBUG_SETS
from spvbuild.generated.core.enums import MemoryAccess, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_EXT_INST,
    OP_EXT_INST_IMPORT,
    OP_LOAD,
    OP_STORE,
    OP_VARIABLE,
)
from spvbuild.passes import Program
from spvbuild.passes.ids import ids_in, is_targeting
from spvbuild.spirv.instruction import Instruction

WHOLE_ACCESS = {OP_LOAD: 0, OP_STORE: 0}
"""The instructions that access a variable whole → the operand naming it."""


def _volatile(inst: Instruction) -> bool:
    return any(
        isinstance(value, MemoryAccess) and bool(value & MemoryAccess.Volatile)
        for value in inst.operands
    )


def promotable_variables(program: Program) -> list[int]:
    """The ids of ``program``'s promotable ``Function`` variables, in module order."""
    variables = [
        int(inst.result_id)
        for inst in program.instructions
        if inst.opcode == OP_VARIABLE
        and inst.result_id is not None
        and inst.operands
        and inst.operands[0] == StorageClass.Function
    ]
    candidates = set(variables)
    debug_sets = {
        int(inst.result_id)
        for inst in program.instructions
        if inst.opcode == OP_EXT_INST_IMPORT
        and inst.result_id is not None
        and inst.operands
        and inst.operands[0] in DEBUG_SETS
    }
    blocked: set[int] = set()
    for inst in program.instructions:
        if is_targeting(inst):
            continue
        if inst.opcode == OP_EXT_INST and inst.operands and int(inst.operands[0]) in debug_sets:
            continue
        whole = WHOLE_ACCESS.get(inst.opcode)
        for index, value in enumerate(inst.operands):
            used = candidates.intersection(ids_in(value))
            if not used:
                continue
            if index != whole or _volatile(inst):
                blocked |= used
    return [v for v in variables if v not in blocked]


def check_mem2reg_applied(outputs: Iterable[tuple[str, Sequence[int]]]) -> None:
    """AssertionError naming every output (name, words) that still holds a promotable
    variable, with their ids."""
    left = []
    for name, words in outputs:
        found = promotable_variables(Program.from_words(list(words)))
        if found:
            left.append(f"{name}: {', '.join(f'%{v}' for v in found)}")
    assert not left, f"Function variables mem2reg should have promoted: {'; '.join(left)}"
