"""Stripping debug information (``strip-debug``): the core debug instructions and the
DebugInfo extended sets, as ``Module.strip_debug`` and
:func:`spvbuild.debuginfo.strip_debug_info` remove them, in one walk over the program.

Goes: every instruction of :data:`spvbuild.ir.debug_opcodes.STRIPPED_DEBUG_OPCODES` (``OpName``,
``OpMemberName``, ``OpSource*``, ``OpModuleProcessed``, ``OpLine``, ``OpNoLine``); every
``OpExtInst`` of the sets of :data:`spvbuild.debuginfo.DEBUG_SETS`, their
``OpExtInstImport`` and the names and decorations of all of them; then every ``OpString``
that no instruction left uses as an id operand.  Nothing else changes.
"""

from __future__ import annotations

from spvbuild.debuginfo.flavors import DEBUG_SETS
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT, OP_STRING
from spvbuild.ir.debug_opcodes import STRIPPED_DEBUG_OPCODES
from spvbuild.passes.ids import TARGETING, used_ids
from spvbuild.passes.program import Program
from spvbuild.spirv.instruction import Instruction

__all__ = ["NAME", "strip_debug"]

NAME = "strip-debug"

_DEBUG_SETS = frozenset(DEBUG_SETS)
_CHECKED = STRIPPED_DEBUG_OPCODES | tables.EXT_INST_OPCODES | TARGETING | {OP_EXT_INST_IMPORT}
"""The opcodes whose instructions may go with the debug information (OpString apart)."""


def strip_debug(program: Program) -> Program:
    """``program`` without debug information (a new program; ``program`` unchanged): every
    ``OpName``, ``OpMemberName``, ``OpSource*``, ``OpModuleProcessed``, ``OpLine``,
    ``OpNoLine``, every instruction of the DebugInfo, OpenCL.DebugInfo.100 and
    NonSemantic.Shader.DebugInfo.100 sets with its import, and the strings left unused."""
    doomed = _debug_info_ids(program.instructions)
    kept: list[Instruction] = [
        inst
        for inst in program.instructions
        if inst.opcode not in _CHECKED or not _goes(inst, doomed)
    ]
    strings = {int(i.result_id) for i in kept if i.opcode == OP_STRING and i.result_id is not None}
    if strings:
        used: set[int] = set()
        for inst in kept:
            if inst.opcode != OP_STRING:
                used.update(used_ids(inst))
        unused = strings - used
        if unused:
            kept = [
                inst
                for inst in kept
                if inst.opcode != OP_STRING or int(inst.result_id or 0) not in unused
            ]
    out = program.copy()
    out.instructions = kept
    return out


def _debug_info_ids(instructions: list[Instruction]) -> set[int]:
    """The ids of the debug-info sets' imports and of their instructions."""
    imports = {
        int(inst.result_id)
        for inst in instructions
        if inst.opcode == OP_EXT_INST_IMPORT
        and inst.result_id is not None
        and inst.operands
        and str(inst.operands[0]) in _DEBUG_SETS
    }
    if not imports:
        return imports
    ext_inst = tables.EXT_INST_OPCODES
    return imports | {
        int(inst.result_id)
        for inst in instructions
        if inst.opcode in ext_inst
        and inst.result_id is not None
        and inst.operands
        and isinstance(inst.operands[0], int)
        and int(inst.operands[0]) in imports
    }


def _goes(inst: Instruction, doomed: set[int]) -> bool:
    """True for a core debug instruction, or one that defines, names or decorates a
    debug-info id."""
    if inst.opcode in STRIPPED_DEBUG_OPCODES:
        return True
    if inst.result_id is not None:
        return int(inst.result_id) in doomed
    return (
        inst.opcode in TARGETING
        and bool(inst.operands)
        and isinstance(inst.operands[0], int)
        and int(inst.operands[0]) in doomed
    )
