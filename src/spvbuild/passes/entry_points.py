"""Splitting a module by entry point (:func:`split_entry_points`): one module per
``OpEntryPoint``, holding only what that entry point reaches.

Each module keeps its one entry point and the execution modes of its function, loses the
others and every export's ``LinkageAttributes`` (it is a module to run, not a library;
imports it reaches stay imports), the ``Linkage`` capability when no LinkageAttributes is
left, and then what is dead (:func:`~spvbuild.passes.dead_code.eliminate_dead_code`: the
functions, globals, types, constants and names nothing reaches from the entry point; and
the global variables nothing uses that the dead-code pass keeps for their ``BuiltIn``
decoration, another stage's ``Position``) and the capabilities and extensions nothing needs any more
(:func:`~spvbuild.passes.capabilities.trim_capabilities`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, overload

from spvbuild.errors import ArgumentError
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Capability, LinkageType, StorageClass
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_ENTRY_POINT, OP_VARIABLE
from spvbuild.passes.capabilities import trim_capabilities
from spvbuild.passes.dead_code import eliminate_dead_code
from spvbuild.passes.ids import is_targeting, used_ids
from spvbuild.passes.linkage import linkage_of
from spvbuild.passes.program import Program
from spvbuild.spirv.instruction import Instruction

if TYPE_CHECKING:
    from collections.abc import Sequence

    from spvbuild.ir.module import Module

__all__ = ["split_entry_points"]

_MODES = frozenset(
    opcode for opcode, info in tables.INSTRUCTIONS.items() if info.section == "execution_modes"
)
"""OpExecutionMode, OpExecutionModeId: operand 0 is the entry point's function."""


@overload
def split_entry_points(module: Module) -> dict[str, Module]: ...


@overload
def split_entry_points(module: Program | Sequence[int] | bytes) -> dict[str, Program]: ...


def split_entry_points(
    module: Module | Program | Sequence[int] | bytes,
) -> dict[str, Module] | dict[str, Program]:
    """One module per entry point of ``module`` (a ``Module``, a ``Program`` or a binary;
    unchanged), each with only what its entry point reaches (see the module's docstring),
    by the entry point's name; where two entry points share a name (of different
    execution models), each is keyed ``name:Model`` (``main:Vertex``).  Modules come back
    as the kind given (a binary gives programs); none for a module without entry points.
    PassError for a module the dead-code pass cannot handle."""
    from spvbuild.ir.module import Module

    if isinstance(module, Module):
        program = Program.from_module(module)
    elif isinstance(module, Program):
        program = module
    elif isinstance(module, bytes | bytearray | memoryview) or not isinstance(module, str):
        program = Program.from_words(module)
    else:
        raise ArgumentError(
            f"split_entry_points: module must be a Module, a Program or a binary, not {type(module).__name__}"
        )
    entries = [
        i for i in program.instructions if i.opcode == OP_ENTRY_POINT and len(i.operands) >= 3
    ]
    counts = Counter(str(e.operands[2]) for e in entries)
    programs: dict[str, Program] = {}
    for entry in entries:
        name = str(entry.operands[2])
        if counts[name] > 1:
            model = entry.operands[0]
            name = f"{name}:{getattr(model, 'name', model)}"
        programs[name] = _only(program, entry)
    if isinstance(module, Module):
        return {name: p.to_module() for name, p in programs.items()}
    return programs


def _unused_variables(instructions: list[Instruction]) -> set[int]:
    """The global variables nothing uses but their names and decorations (the dead-code
    pass keeps every one decorated ``BuiltIn``: another entry point's ``Position``)."""
    variables = {
        int(i.result_id)
        for i in instructions
        if i.opcode == OP_VARIABLE
        and i.result_id is not None
        and i.operands
        and i.operands[0] != StorageClass.Function
    }
    for inst in instructions:
        if variables:
            variables.difference_update(used_ids(inst, skip_target=True))
    return variables


def _only(program: Program, entry: Instruction) -> Program:
    """``program`` cut down to ``entry``."""
    function = int(entry.operands[1])

    def kept(inst: Instruction) -> bool:
        if inst.opcode == OP_ENTRY_POINT:
            return inst is entry
        if inst.opcode in _MODES:
            return bool(inst.operands) and int(inst.operands[0]) == function
        found = linkage_of(inst)
        return found is None or found[1] != LinkageType.Export

    out = program.copy()
    out.instructions = [i for i in program.instructions if kept(i)]
    out = eliminate_dead_code(out)
    unused = _unused_variables(out.instructions)
    if unused:
        out.instructions = [
            i
            for i in out.instructions
            if not (i.result_id is not None and int(i.result_id) in unused)
            and not (is_targeting(i) and int(i.operands[0]) in unused)
        ]
        out = eliminate_dead_code(out)
    if not any(linkage_of(i) is not None for i in out.instructions):
        out.instructions = [
            i
            for i in out.instructions
            if not (
                i.opcode == OP_CAPABILITY and i.operands and i.operands[0] == Capability.Linkage
            )
        ]
    return trim_capabilities(out)
