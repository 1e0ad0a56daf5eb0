"""Reading a module under construction: the definition of an id, every instruction."""

from __future__ import annotations

from collections.abc import Iterator

from spvbuild.ir.state import ModuleState
from spvbuild.spirv.emission import Run
from spvbuild.spirv.instruction import Instruction

__all__ = ["all_instructions", "definition"]


def definition(state: ModuleState, result_id: int) -> Instruction | None:
    """The instruction that defines ``result_id`` (None if nothing does yet)."""
    value = int(result_id)
    found = state._definitions.get(value)
    if found is not None:
        return found
    for function in state.functions:
        for block in function.blocks:
            for item in block.items:
                if isinstance(item, Run) and value in item.result_ids():
                    return next(i for i in item.instructions() if i.result_id == value)
    return None


def all_instructions(state: ModuleState) -> Iterator[Instruction]:
    """Every stored instruction: module sections, then each function's instructions."""
    for items in state.sections.values():
        yield from items
    for function in state.functions:
        yield function.header
        yield from function.parameters
        yield from function.variables
        for block in function.blocks:
            yield from block.instructions
        yield from function.after
