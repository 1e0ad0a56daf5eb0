"""What mem2reg must promote, stated apart from the pass: the Function variables that hold
plain values and that nothing but whole, non-volatile loads and stores (and a name or a
``RelaxedPrecision``) mention anywhere in the module."""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild.generated.core.enums import Decoration, MemoryAccess, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_DECORATE,
    OP_LOAD,
    OP_NAME,
    OP_STORE,
    OP_TYPE_ARRAY,
    OP_TYPE_BOOL,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
    OP_TYPE_MATRIX,
    OP_TYPE_POINTER,
    OP_TYPE_STRUCT,
    OP_TYPE_VECTOR,
    OP_VARIABLE,
)
from spvbuild.passes import Program
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

_VALUES = {OP_TYPE_BOOL, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_VECTOR, OP_TYPE_MATRIX}


def _mentions(value: object, target: int) -> bool:
    if isinstance(value, Id):
        return int(value) == target
    if isinstance(value, tuple | list):
        return any(_mentions(v, target) for v in value)
    if isinstance(value, EnumerantParameters):
        return _mentions(value.parameters, target)
    return False


def _volatile(value: object) -> bool:
    if isinstance(value, list | tuple):
        return any(_volatile(v) for v in value)
    if isinstance(value, EnumerantParameters):
        value = value.enumerant
    return isinstance(value, MemoryAccess) and bool(value & MemoryAccess.Volatile)


def _allowed(inst: Instruction, var: int) -> bool:
    ops = inst.operands
    if inst.opcode == OP_LOAD:
        return ops[0] == var and not any(_volatile(v) for v in ops[1:])
    if inst.opcode == OP_STORE:
        return ops[0] == var and ops[1] != var and not any(_volatile(v) for v in ops[2:])
    if inst.opcode == OP_NAME:
        return True
    if inst.opcode == OP_DECORATE:
        value = ops[1]
        value = value.enumerant if isinstance(value, EnumerantParameters) else value
        return value == Decoration.RelaxedPrecision
    return False


def promotable_variables(words: Sequence[int]) -> list[int]:
    """The ids of the Function variables of ``words`` mem2reg must promote."""
    program = Program.from_words(list(words))
    types = {int(i.result_id): i for i in program.instructions if i.result_id is not None}

    def plain(type_id: int) -> bool:
        inst = types[type_id]
        if inst.opcode in _VALUES:
            return True
        if inst.opcode == OP_TYPE_ARRAY:
            return plain(int(inst.operands[0]))
        if inst.opcode == OP_TYPE_STRUCT:
            return all(plain(int(m)) for m in inst.operands[0])
        if inst.opcode == OP_TYPE_POINTER:
            return bool(inst.operands[0] == StorageClass.PhysicalStorageBuffer)
        return False

    found = []
    for inst in program.instructions:
        if inst.opcode != OP_VARIABLE or inst.operands[0] != StorageClass.Function:
            continue
        var = int(inst.result_id)  # type: ignore[arg-type]
        pointee = int(types[int(inst.result_type)].operands[1])  # type: ignore[arg-type]
        if not plain(pointee):
            continue
        users = [
            other
            for other in program.instructions
            if other is not inst and (_mentions(other.operands, var) or other.result_type == var)
        ]
        if all(_allowed(other, var) for other in users):
            found.append(var)
    return found
