"""Which variables' stores dead-code elimination may hold back until something reads the
variable (``eliminate-dead-code-aggressive``).

A variable of ``Function``, ``Private`` or ``Workgroup`` storage is seen by no one outside
the module: until a live instruction reads it (a load whose value is live, an atomic, a
copy, a call taking it, a phi or select of pointers, a DebugInfo instruction), its stores
change nothing a program or a host can observe, and they go with it when nothing ever
does.  Its place in an entry point's interface is no read.  A decoration that makes a
variable visible or shared otherwise keeps its stores (:data:`KEEPING`:
``LinkageAttributes``, ``BuiltIn``, ``Volatile``, ``Aliased``, ``AliasedPointer``), and
``Workgroup`` variables keep theirs when the module may lay them over each other
(``Capability.WorkgroupMemoryExplicitLayoutKHR``).  A ``Volatile`` store is always kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild.generated.core.enums import Capability, Decoration, StorageClass
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_VARIABLE
from spvbuild.passes.ids import is_targeting
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["GLOBAL_STORAGES", "KEEPING", "deferrable_globals"]

GLOBAL_STORAGES = frozenset({StorageClass.Private, StorageClass.Workgroup})
"""The storage classes of the global variables no one outside the module reads
(``Function`` variables are the functions' own)."""

KEEPING = frozenset(
    {
        Decoration.LinkageAttributes,
        Decoration.BuiltIn,
        Decoration.Volatile,
        Decoration.Aliased,
        Decoration.AliasedPointer,
    }
)
"""Decorations that keep a variable's stores whatever reads it."""


def deferrable_globals(head: Sequence[Instruction]) -> set[int]:
    """The global variables of ``head`` (a module's instructions before its functions)
    whose stores may wait for a read (see the module's docstring)."""
    overlaid = False
    found: set[int] = set()
    for inst in head:
        if inst.opcode == OP_CAPABILITY:
            overlaid = overlaid or (
                bool(inst.operands)
                and inst.operands[0] == Capability.WorkgroupMemoryExplicitLayoutKHR
            )
        elif (
            inst.opcode == OP_VARIABLE
            and inst.result_id is not None
            and inst.operands
            and inst.operands[0] in GLOBAL_STORAGES
        ):
            found.add(int(inst.result_id))
    if not found:
        return found
    for inst in head:
        if is_targeting(inst) and int(inst.operands[0]) in found and _keeps(inst):
            found.discard(int(inst.operands[0]))
    if overlaid:
        storage = {
            int(i.result_id): i.operands[0]
            for i in head
            if i.opcode == OP_VARIABLE and i.result_id is not None and i.operands
        }
        found = {v for v in found if storage.get(v) != StorageClass.Workgroup}
    return found


def _keeps(inst: Instruction) -> bool:
    """True for a decoration of :data:`KEEPING`."""
    for value in inst.operands[1:]:
        enumerant = value.enumerant if isinstance(value, EnumerantParameters) else value
        if isinstance(enumerant, Decoration) and enumerant in KEEPING:
            return True
    return False
