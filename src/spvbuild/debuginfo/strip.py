"""Removal as the spec defines it (seed L68, review R6).

* :func:`strip_debug_info`: "All instructions in this extended set ... can be safely
  removed from the module all at once" — every OpExtInst of the debug-info sets, their
  OpExtInstImport, names and decorations on them and (by default) the OpStrings nothing
  uses any more.  OpSource/OpLine are core debug instructions and stay
  (:meth:`~spvbuild.ir.module.Module.strip_debug` removes those).
* :func:`remove_debug_instruction`: "a single debugging instruction can be removed from
  the module if all references to the Result <id> of this instruction are replaced with
  id of DebugInfoNone" — the set's DebugInfoNone (made if missing) is placed before the
  first instruction that now refers to it, so forward references stay legal; an operand
  naming a removed scope takes the scope around it instead (rule R45).

Both edit the module with :meth:`~spvbuild.ir.module.Module.rewrite`, which keeps its
definition index, hash-consing and import caches in sync (a later ``string()`` or layer
makes what was removed afresh).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from spvbuild.debuginfo.emitter import DebugInfoWriter
from spvbuild.debuginfo.flavors import DEBUG_SETS, FLAVORS, Flavor
from spvbuild.debuginfo.handles import Handle
from spvbuild.debuginfo.references import SCOPES
from spvbuild.debuginfo.rules import (
    EXT_INST_OPCODES,
    Ref,
    is_scope_operand,
    none_refused,
    set_name,
)
from spvbuild.debuginfo.spec_rules import REMOVAL, SCOPE_NOT_NONE, DebugInfoError
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT
from spvbuild.ir import editing
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

if TYPE_CHECKING:
    from spvbuild.ir.module import Module

_GLOBALS = "types_globals"  # where every non-body instruction of the debug-info sets goes


def strip_debug_info(
    module: Module, sets: Iterable[str] = DEBUG_SETS, *, unused_strings: bool = True
) -> int:
    """Remove all debug info of ``sets`` at once; returns how many instructions went.

    Goes: every OpExtInst of those sets, their OpExtInstImport, the OpName and decorations
    on them and, with ``unused_strings``, every OpString that no instruction kept uses as an
    id operand.  OpSource, OpLine and the strings they name stay.  The module's inferred
    extensions follow what is left: ``OpExtension "SPV_KHR_non_semantic_info"``, which only
    a NonSemantic import needed, is no longer written (harmless: nothing needs it; one the
    module declared itself with ``extension()`` stays).
    """
    wanted = set(sets)
    stripped: set[str] = set()
    doomed: set[int] = set()
    for inst in module.all_instructions():
        if inst.result_id is None:
            continue
        if inst.opcode == OP_EXT_INST_IMPORT and str(inst.operands[0]) in wanted:
            stripped.add(str(inst.operands[0]))
        elif not (inst.opcode in EXT_INST_OPCODES and set_name(inst, module.definition) in wanted):
            continue
        doomed.add(int(inst.result_id))
    if not stripped:
        return 0
    if unused_strings:
        doomed |= editing.unused_strings(module, lambda inst: _goes(inst, doomed))
    count = 0

    def drop(inst: Instruction) -> Instruction | None:
        nonlocal count
        if _goes(inst, doomed):
            count += 1
            return None
        return inst

    module.rewrite(drop)
    DebugInfoWriter.forget(module, stripped)
    return count


def remove_debug_instruction(module: Module, target: Id | Handle) -> None:
    """Remove one debug instruction, replacing every reference to it with DebugInfoNone.

    A removed scope (a DebugLexicalBlock, say) is replaced, where an operand names a
    lexical scope (the Parent of what it contained, a DebugScope's Scope), by its own
    enclosing scope (its Parent), as a compiler folds a dropped block into the block
    around it: the variables stay in scope and every set's validator accepts the result.
    With no enclosing scope to take its place (a DebugCompilationUnit), DebugInfoNone
    stands there in DebugInfo (seed L68); the newer sets require a scope there, and a type
    where an operand names a type (rule R45), so such a removal is refused there.
    """
    rid = int(target.id if isinstance(target, Handle) else target)
    inst, flavor = _debug_instruction(module, rid)
    set_id = int(inst.operands[0])
    info = flavor.tables.INSTRUCTIONS.get(inst.operands[1])
    if info is not None and info.name == "DebugInfoNone":
        raise DebugInfoError(f"%{rid} is DebugInfoNone, what references are replaced with", REMOVAL)
    enclosing = _enclosing_scope(module, flavor, inst)
    if not flavor.none_anywhere:
        for other in module.all_instructions():
            if other.opcode in EXT_INST_OPCODES and int(other.operands[0]) == set_id:
                named = _refused_operand_naming(other, flavor, rid, enclosing is not None)
                if named is not None:
                    raise DebugInfoError(
                        f"cannot remove %{rid}: {named} names it, and {flavor.name} wants a "
                        "scope or a type there, not DebugInfoNone (and no enclosing scope "
                        "can take its place)",
                        SCOPE_NOT_NONE,
                    )
    existing = next((i for i in module.sections[_GLOBALS] if _is_none(i, set_id)), None)
    none_id = int(existing.result_id) if existing and existing.result_id is not None else None
    referencing = 0

    def replacement(scope_operand: bool) -> Id:
        nonlocal none_id
        if scope_operand and enclosing is not None:
            return Id(enclosing)
        if none_id is None:
            none_id = int(module.new_id())
        return Id(none_id)

    def change(other: Instruction) -> Instruction | None:
        nonlocal referencing
        if other.result_id == rid or editing.targets(other, {rid}):
            return None
        if other.opcode in EXT_INST_OPCODES and int(other.operands[0]) == set_id:
            rewritten = _rewrite(other, flavor, rid, replacement)
            if rewritten is not other:
                referencing += 1
            return rewritten
        return other

    module.rewrite(change)
    if referencing and none_id is not None:
        if existing is None:
            assert inst.result_type is not None
            module.ext_inst(TypeId(inst.result_type), Id(set_id), 0, result_id=Id(none_id))
        _place_before_first_use(module, none_id, flavor)
    writer = DebugInfoWriter.existing(module, flavor.name)
    if writer is not None:
        _update(writer, rid, none_id)


def _debug_instruction(module: Module, rid: int) -> tuple[Instruction, Flavor]:
    inst = module.definition(rid)
    if inst is not None and inst.opcode in EXT_INST_OPCODES:
        flavor = FLAVORS.get(set_name(inst, module.definition) or "")
        if flavor is not None:
            return inst, flavor
    raise DebugInfoError(f"%{rid} is not a debug-info instruction of this module", REMOVAL)


def _place_before_first_use(module: Module, none_id: int, flavor: Flavor) -> None:
    """Move DebugInfoNone before the first global instruction referring to it.

    Module has no call to place an instruction, so this reorders the public section list;
    nothing is added or removed, so the module's index and caches stay valid.
    """
    section = module.sections[_GLOBALS]
    at = next(n for n, i in enumerate(section) if i.result_id == none_id)
    none = section.pop(at)
    first = next(
        (n for n, other in enumerate(section) if _refers(other, flavor, none_id)), len(section)
    )
    section.insert(first, none)


def _update(writer: DebugInfoWriter, removed: int, none_id: int | None) -> None:
    writer.known.pop(removed, None)
    if none_id is not None and writer.none_id is None:
        writer.none_id = Id(none_id)
        writer.known[none_id] = Ref("DebugInfoNone", id=none_id)
    if writer.unit is not None and int(writer.unit.id) == removed:
        writer.unit = None
    if writer.empty_expression is not None and int(writer.empty_expression.id) == removed:
        writer.empty_expression = None
    for key, source in list(writer.sources.items()):
        if int(source.id) == removed:
            del writer.sources[key]


def _is_none(inst: Instruction, set_id: int) -> bool:
    return (
        inst.opcode in EXT_INST_OPCODES
        and int(inst.operands[0]) == set_id
        and inst.operands[1] == 0
    )


def _goes(inst: Instruction, ids: set[int]) -> bool:
    """True when ``inst`` defines one of ``ids`` or names/decorates one of them."""
    return (inst.result_id is not None and int(inst.result_id) in ids) or editing.targets(inst, ids)


def _id_positions(inst: Instruction, flavor: Flavor) -> list[tuple[int, str, str]]:
    """(operand index, quantifier or 'pair', operand name) of every id operand of a debug
    instruction."""
    info = flavor.tables.INSTRUCTIONS.get(inst.operands[1])
    if info is None:
        return []
    out: list[tuple[int, str, str]] = []
    for index, op in enumerate(info.operands, start=2):
        if index >= len(inst.operands):
            break
        if op.kind == "IdRef":
            out.append((index, op.quantifier, op.name))
        elif op.kind == "PairIdRefIdRef":
            out.append((index, "pair", op.name))
    return out


def _enclosing_scope(module: Module, flavor: Flavor, inst: Instruction) -> int | None:
    """The scope around the scope ``inst`` (its Parent, when that is a scope), or None."""
    info = flavor.tables.INSTRUCTIONS.get(inst.operands[1])
    if info is None or info.name not in SCOPES:
        return None
    for index, how, name in _id_positions(inst, flavor):
        value = inst.operands[index]
        if name == "Parent" and how == "" and isinstance(value, int):
            parent = module.definition(int(value))
            if parent is not None and _debug_name(parent, flavor) in SCOPES:
                return int(value)
    return None


def _debug_name(inst: Instruction, flavor: Flavor) -> str | None:
    if inst.opcode not in EXT_INST_OPCODES or len(inst.operands) < 2:
        return None
    info = flavor.tables.INSTRUCTIONS.get(inst.operands[1])
    return info.name if info is not None else None


def _refused_operand_naming(
    inst: Instruction, flavor: Flavor, rid: int, enclosed: bool
) -> str | None:
    """``DebugLocalVariable %12 operand 'Parent'`` when an operand of ``inst`` names ``rid``
    where ``flavor`` refuses DebugInfoNone (a scope operand is fine when ``enclosed``: the
    enclosing scope takes the removed one's place); else None."""
    name = _debug_name(inst, flavor)
    if name is None or inst.result_id is not None and int(inst.result_id) == rid:
        return None
    for index, how, operand in _id_positions(inst, flavor):
        value = inst.operands[index]
        values = (
            value if how == "*" else [v for p in value for v in p] if how == "pair" else [value]
        )
        if any(isinstance(v, int) and int(v) == rid for v in values):
            if enclosed and is_scope_operand(flavor, name, operand):
                continue
            if none_refused(flavor, name, operand):
                return f"{name} %{int(inst.result_id or 0)} operand '{operand}'"
    return None


def _rewrite(inst: Instruction, flavor: Flavor, old: int, new: Callable[[bool], Id]) -> Instruction:
    """``inst`` with every reference to ``old`` replaced by ``new(scope_operand)`` (itself
    if none)."""
    operands = list(inst.operands)
    changed = False
    name = _debug_name(inst, flavor) or ""

    def swap(value: Any, scope_operand: bool = False) -> Any:
        nonlocal changed
        if isinstance(value, int) and int(value) == old:
            changed = True
            return new(scope_operand)
        return value

    for index, how, operand in _id_positions(inst, flavor):
        value = operands[index]
        if how == "*":
            operands[index] = tuple(swap(v) for v in value)
        elif how == "pair":
            operands[index] = tuple(tuple(swap(v) for v in pair) for pair in value)
        elif value is not None:
            operands[index] = swap(value, is_scope_operand(flavor, name, operand))
    return inst._replace(operands=tuple(operands)) if changed else inst


def _refers(inst: Instruction, flavor: Flavor, rid: int) -> bool:
    if inst.opcode not in EXT_INST_OPCODES:
        return False
    for index, how, _name in _id_positions(inst, flavor):
        value = inst.operands[index]
        values = (
            value
            if how == "*"
            else [v for pair in value for v in pair]
            if how == "pair"
            else [value]
        )
        if any(isinstance(v, int) and int(v) == rid for v in values):
            return True
    return False
