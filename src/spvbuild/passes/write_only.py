"""Variables that are only written: what dead-code elimination may drop with their stores.

A variable of ``Function``, ``Private`` or ``Workgroup`` storage is seen by no one outside
the module: when no instruction reads it, its stores change nothing a program or a host
can observe.  :func:`write_only_pointers` finds such variables and the pointers into them:
each use of the variable, or of an access chain into it (``OpAccessChain``,
``OpInBoundsAccessChain``, ``OpPtrAccessChain``, as their base), is the pointer of an
``OpStore`` without a ``Volatile`` access, an ``OpLoad`` (not volatile) whose value nothing
uses, a name or a decoration, or an entry point's interface.  Any other use (a load, a copy, an atomic, a call, a phi or a select of pointers,
a DebugInfo instruction, a store *of* the pointer) keeps the variable as it is, and so does
a decoration that makes it visible or shared otherwise (``LinkageAttributes``,
``BuiltIn``, ``Volatile``, ``Aliased``, ``AliasedPointer``); ``Workgroup`` variables stay
when the module may lay them over each other
(``Capability.WorkgroupMemoryExplicitLayoutKHR``).
"""

from __future__ import annotations

from collections.abc import Iterable

from spvbuild.generated.core.enums import Capability, Decoration, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_ACCESS_CHAIN,
    OP_CAPABILITY,
    OP_ENTRY_POINT,
    OP_IN_BOUNDS_ACCESS_CHAIN,
    OP_LOAD,
    OP_PTR_ACCESS_CHAIN,
    OP_STORE,
    OP_VARIABLE,
)
from spvbuild.passes.effects import has_volatile
from spvbuild.passes.ids import ids_in, is_targeting, used_ids
from spvbuild.passes.program import Layout
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["UNSEEN_STORAGES", "write_only_pointers"]

UNSEEN_STORAGES = frozenset({StorageClass.Function, StorageClass.Private, StorageClass.Workgroup})
"""The storage classes no one outside the module reads."""

_CHAINS = frozenset({OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN, OP_PTR_ACCESS_CHAIN})

_KEEPING = frozenset(
    {
        Decoration.LinkageAttributes,
        Decoration.BuiltIn,
        Decoration.Volatile,
        Decoration.Aliased,
        Decoration.AliasedPointer,
    }
)
"""Decorations that keep a variable whatever its uses."""


def write_only_pointers(layout: Layout) -> frozenset[int]:
    """The ids of ``layout``'s write-only variables and of the access chains into them
    (see the module's docstring); empty when there is none."""
    overlaid = any(
        inst.opcode == OP_CAPABILITY
        and inst.operands
        and inst.operands[0] == Capability.WorkgroupMemoryExplicitLayoutKHR
        for inst in layout.head
    )
    candidates: set[int] = set()
    for inst in _everything(layout):
        if (
            inst.opcode == OP_VARIABLE
            and inst.result_id is not None
            and inst.operands
            and inst.operands[0] in UNSEEN_STORAGES
            and not (overlaid and inst.operands[0] == StorageClass.Workgroup)
        ):
            candidates.add(int(inst.result_id))
    if not candidates:
        return frozenset()
    root: dict[int, int] = {v: v for v in candidates}  # pointer → its variable
    for inst in _everything(layout):  # (a chain's base is defined before it, in order)
        if inst.opcode in _CHAINS and inst.result_id is not None and inst.operands:
            base = root.get(int(inst.operands[0]))
            if base is not None:
                root[int(inst.result_id)] = base
    kept: set[int] = set()
    loads: dict[int, int] = {}  # a load's result → the variable it reads
    everything_used: set[int] = set()
    for inst in _everything(layout):
        all_used = used_ids(inst, skip_target=True)
        everything_used.update(all_used)
        used = [i for i in all_used if i in root]
        if not used and not (is_targeting(inst) and inst.operands[0] in root):
            continue
        if is_targeting(inst):
            if _keeps(inst) and int(inst.operands[0]) in root:
                kept.add(root[int(inst.operands[0])])
            continue  # (a name or a decoration)
        if inst.opcode == OP_ENTRY_POINT:
            continue  # (the interface)
        if (
            inst.opcode == OP_LOAD
            and inst.result_id is not None
            and not has_volatile(inst)
            and used == [int(inst.operands[0])]
        ):
            loads[int(inst.result_id)] = root[used[0]]
            continue  # (a read only if its value is used)
        allowed = _pointer_operand(inst)
        for position, value in enumerate(inst.operands):
            if position != allowed:
                kept.update(root[rid] for rid in ids_in(value) if rid in root)
    kept.update(v for load, v in loads.items() if load in everything_used)
    return frozenset(p for p, v in root.items() if v not in kept)


def _everything(layout: Layout) -> Iterable[Instruction]:
    yield from layout.head
    for function in layout.functions:
        yield from function.instructions()


def _pointer_operand(inst: Instruction) -> int:
    """The operand through which ``inst`` may use a write-only pointer (-1: none): a
    store's pointer (not a volatile one), a chain's base."""
    if inst.opcode == OP_STORE:
        return -1 if has_volatile(inst) else 0
    if inst.opcode in _CHAINS:
        return 0
    return -1


def _keeps(inst: Instruction) -> bool:
    """True for a decoration of :data:`_KEEPING`."""
    for value in inst.operands[1:]:
        enumerant = value.enumerant if isinstance(value, EnumerantParameters) else value
        if isinstance(enumerant, Decoration) and enumerant in _KEEPING:
            return True
    return False
