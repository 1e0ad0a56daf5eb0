"""Trimming capabilities and extensions (``trim-capabilities``) to those the module uses.

What the instructions need is worked out by the module's own inference
(:mod:`spvbuild.ir.requirements`: the grammar's capabilities and extensions of every
opcode, operand kind, enumerant and extended instruction, any-of sets and implied
capabilities included).  Each declared capability, then each declared extension, in
module order, is dropped when what is left still meets every need (checked in the
inference's ``verify`` mode), so an any-of need keeps the declaration the module chose and
nothing is added.

Only the capabilities the grammar names as a requirement of something (an instruction, an
enumerant, a numeric type: :data:`TRIMMABLE`) can be dropped: the others are asked for by
the specification's validation rules alone (``StorageImageMultisample`` for a multisampled
storage image, ``RuntimeDescriptorArray``, ``ImageCubeArray``, ...), which inference does
not see, so they stay (and what they imply does not count as met: a ``Shader`` the module
needs stays beside them).  Likewise an extension stays unless the grammar names it
somewhere.
"""

from __future__ import annotations

from spvbuild.errors import SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Capability
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_EXTENSION
from spvbuild.ir.requirements import Requirements
from spvbuild.passes.program import Program
from spvbuild.spirv.instruction import Instruction

__all__ = ["NAME", "trim_capabilities"]

NAME = "trim-capabilities"

_DECLARATIONS = frozenset({OP_CAPABILITY, OP_EXTENSION})


def _named() -> tuple[frozenset[int], frozenset[str]]:
    capability = tables.KINDS["Capability"]
    by_name = {e.name: value for value, e in capability.enumerants.items()}
    caps: set[str] = set()
    exts: set[str] = set()
    for info in tables.INSTRUCTIONS.values():
        caps.update(info.capabilities)
        exts.update(info.extensions)
    for kind in tables.KINDS.values():
        for enumerant in kind.enumerants.values():
            exts.update(enumerant.extensions)
            if kind.name != "Capability":
                caps.update(enumerant.capabilities)
    values = {by_name[c] for c in caps if c in by_name}
    values.update(entry[3] for entry in tables.TYPE_CAPABILITIES)
    for entries in tables.RESULT_TYPE_CAPABILITIES.values():
        values.update(e[3] for e in entries)
    return frozenset(values), frozenset(exts)


TRIMMABLE, TRIMMABLE_EXTENSIONS = _named()
"""The capabilities (values) and extensions the grammar names as a requirement somewhere:
the only ones this pass may drop."""


def _meets(program: Program, declared: list[Instruction], body: list[Instruction]) -> bool:
    sections = {
        "capabilities": [i for i in declared if i.opcode == OP_CAPABILITY],
        "extensions": [i for i in declared if i.opcode == OP_EXTENSION],
    }
    requirements = Requirements(program.version, None, sections, "verify")
    collector = requirements.collector()
    assert collector is not None
    for inst in body:
        collector.walk(inst)
    try:
        requirements.resolution(collector)
    except SpvbuildError:
        return False
    return True


def _known(inst: Instruction) -> bool:
    value = inst.operands[0] if inst.operands else None
    if inst.opcode == OP_CAPABILITY:
        return isinstance(value, Capability)
    return isinstance(value, str)


def _trimmable(inst: Instruction) -> bool:
    value = inst.operands[0] if inst.operands else None
    if inst.opcode == OP_CAPABILITY:
        return isinstance(value, int) and int(value) in TRIMMABLE
    return isinstance(value, str) and value in TRIMMABLE_EXTENSIONS


def trim_capabilities(program: Program) -> Program:
    """``program`` without the capabilities and extensions nothing needs (a new program;
    ``program`` unchanged).  A module whose declarations do not meet its needs to begin
    with is returned as it is."""
    # A capability the grammar does not know stays, and is not looked at.
    declared = [i for i in program.instructions if i.opcode in _DECLARATIONS and _known(i)]
    body = [i for i in program.instructions if i.opcode not in _DECLARATIONS]
    out = program.copy()
    if not _meets(program, declared, body):
        return out
    # The declarations this pass cannot judge stay, but do not count as meeting a need: a
    # capability they imply (Shader, by StorageImageMultisample) is kept in its own right.
    kept = [i for i in declared if _trimmable(i)]
    body = [i for i in declared if not _trimmable(i)] + body  # what they need is needed
    if not _meets(program, kept, body):
        return out
    for inst in list(kept):
        trial = [i for i in kept if i is not inst]
        if _meets(program, trial, body):
            kept = trial
    kept += [i for i in declared if not _trimmable(i)]
    keep = {id(i) for i in kept}
    out.instructions = [
        i
        for i in program.instructions
        if i.opcode not in _DECLARATIONS or id(i) in keep or not _known(i)
    ]
    return out
