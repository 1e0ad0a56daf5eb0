"""Walking a :class:`~spvbuild.module.Module`'s instruction lists (shared by the rules,
the emitter's id look-ups and removal).

The lists are the module's own (``sections``, and per function its parameters, local
variables and block bodies), so removal can edit them in place.  OpFunction headers and
block labels are not in any list; they are yielded for look-ups only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from spvbuild.generated.core import tables
from spvbuild.instruction import Instruction

if TYPE_CHECKING:
    from spvbuild.module import Module

OP_LABEL = tables.OPCODES_BY_NAME["OpLabel"]
OP_EXT_INST = tables.OPCODES_BY_NAME["OpExtInst"]
OP_EXT_INST_IMPORT = tables.OPCODES_BY_NAME["OpExtInstImport"]


def lists(module: Module) -> Iterator[tuple[list[Instruction], bool]]:
    """Every editable instruction list, with True when it is inside a function body."""
    for items in module.sections.values():
        yield items, False
    for function in module.functions:
        yield function.parameters, True
        yield function.variables, True
        for block in function.blocks:
            yield block.instructions, True


def instructions(module: Module) -> Iterator[tuple[Instruction, bool]]:
    """Every instruction (OpFunction headers and labels too), with its in-function flag."""
    for items in module.sections.values():
        for inst in items:
            yield inst, False
    for function in module.functions:
        yield function.header, False
        for inst in function.parameters:
            yield inst, True
        for index, block in enumerate(function.blocks):
            yield Instruction(OP_LABEL, None, block.label, ()), True
            if index == 0:
                for inst in function.variables:
                    yield inst, True
            for inst in block.instructions:
                yield inst, True


def find(module: Module, result_id: int) -> Instruction | None:
    """The instruction defining ``result_id`` (current function first), or None."""
    current = module.current_block
    if current is not None:
        for function in reversed(module.functions):
            if any(block.label == current for block in function.blocks):
                for inst in (function.header, *function.variables, *function.parameters):
                    if inst.result_id == result_id:
                        return inst
                break
    for inst, _ in instructions(module):
        if inst.result_id == result_id:
            return inst
    return None


def entry_block_of_current(module: Module) -> tuple[int, int] | None:
    """(OpFunction id, entry label) of the function owning the current block, or None."""
    current = module.current_block
    if current is None:
        return None
    for function in reversed(module.functions):
        if any(block.label == current for block in function.blocks):
            return int(function.id), int(function.blocks[0].label)
    return None


def imports(module: Module) -> dict[int, str]:
    """OpExtInstImport result ids → import names."""
    return {
        int(inst.result_id): str(inst.operands[0])
        for inst in module.sections.get("ext_inst_imports", ())
        if inst.opcode == OP_EXT_INST_IMPORT and inst.result_id is not None
    }
