"""Removal as the spec defines it (seed L68, review R6).

* :func:`strip_debug_info`: "All instructions in this extended set ... can be safely
  removed from the module all at once" — every OpExtInst of the debug-info sets, their
  OpExtInstImport, names and decorations on them and (by default) the OpStrings nothing
  uses any more.  OpSource/OpLine are core debug instructions and stay.
* :func:`remove_debug_instruction`: "a single debugging instruction can be removed from
  the module if all references to the Result <id> of this instruction are replaced with
  id of DebugInfoNone" — the set's DebugInfoNone (made if missing) is placed before the
  first instruction that now refers to it, so forward references stay legal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from spvbuild.debuginfo import walk
from spvbuild.debuginfo.emitter import _EMITTERS, SetEmitter
from spvbuild.debuginfo.flavors import DEBUG_SETS, FLAVORS, Flavor
from spvbuild.debuginfo.handles import Handle
from spvbuild.debuginfo.rules import REMOVAL, DebugInfoError, Ref
from spvbuild.debuginfo.walk import OP_EXT_INST, OP_EXT_INST_IMPORT
from spvbuild.generated.core import tables
from spvbuild.ids import Id
from spvbuild.instruction import Instruction
from spvbuild.params import EnumerantParameters

if TYPE_CHECKING:
    from spvbuild.module import Module

OP_STRING = tables.OPCODES_BY_NAME["OpString"]
_TARGETED = {"debug_names", "annotations"}  # OpName, OpDecorate ...: operand 0 is the target


def strip_debug_info(
    module: Module, sets: Iterable[str] = DEBUG_SETS, *, unused_strings: bool = True
) -> int:
    """Remove all debug info of ``sets`` at once; returns how many instructions went."""
    wanted = set(sets)
    imports = {rid: name for rid, name in walk.imports(module).items() if name in wanted}
    if not imports:
        return 0
    removed: set[int] = set(imports)
    count = 0
    for items, _ in walk.lists(module):
        keep: list[Instruction] = []
        for inst in items:
            ours = inst.opcode == OP_EXT_INST and int(inst.operands[0]) in imports
            if ours or (inst.opcode == OP_EXT_INST_IMPORT and inst.result_id in imports):
                count += 1
                if inst.result_id is not None:
                    removed.add(int(inst.result_id))
            else:
                keep.append(inst)
        items[:] = keep
    count += _drop_targeting(module, removed)
    if unused_strings:
        strings = _unused_strings(module)
        count += _drop_ids(module, strings)
        removed |= strings
    _forget(module, removed, imports.values())
    for name in imports.values():
        _EMITTERS.get(module, {}).pop(name, None)
    return count


def remove_debug_instruction(module: Module, target: Id | Handle) -> None:
    """Remove one debug instruction, replacing every reference to it with DebugInfoNone."""
    rid = int(target.id if isinstance(target, Handle) else target)
    imports = {i: n for i, n in walk.imports(module).items() if n in FLAVORS}
    found = _locate(module, rid)
    inst = found[0][found[1]] if found else None
    if inst is None or inst.opcode != OP_EXT_INST or int(inst.operands[0]) not in imports:
        raise DebugInfoError(f"%{rid} is not a debug-info instruction of this module", REMOVAL)
    set_id = int(inst.operands[0])
    flavor = FLAVORS[imports[set_id]]
    info = flavor.tables.INSTRUCTIONS.get(inst.operands[1])
    if info is not None and info.name == "DebugInfoNone":
        raise DebugInfoError(f"%{rid} is DebugInfoNone, what references are replaced with", REMOVAL)
    items, index = found  # type: ignore[misc]
    del items[index]
    _drop_targeting(module, {rid})
    section = module.sections["types_globals"]
    none = next((i for i in section if _is_none(i, set_id)), None)
    none_id = int(none.result_id) if none is not None and none.result_id is not None else None
    new_id = none_id if none_id is not None else int(module.new_id())
    referencing = 0
    for lst, _ in walk.lists(module):
        for position, other in enumerate(lst):
            if other.opcode == OP_EXT_INST and int(other.operands[0]) == set_id:
                rewritten = _rewrite(other, flavor, rid, new_id)
                if rewritten is not other:
                    lst[position] = rewritten
                    referencing += 1
    if referencing:
        if none is None:
            none = Instruction(OP_EXT_INST, inst.result_type, Id(new_id), (set_id, 0), flavor.name)
        else:
            section.remove(none)
        first = next(
            (n for n, other in enumerate(section) if _refers(other, flavor, new_id)), len(section)
        )
        section.insert(first, none)
    emitter = _EMITTERS.get(module, {}).get(flavor.name)
    if emitter is not None:
        _update(emitter, rid, new_id if referencing or none_id is not None else None)


def _update(emitter: SetEmitter, removed: int, none_id: int | None) -> None:
    emitter.known.pop(removed, None)
    if none_id is not None and emitter.none_id is None:
        emitter.none_id = Id(none_id)
        emitter.known[none_id] = Ref("DebugInfoNone", id=none_id)
    if emitter.unit is not None and int(emitter.unit.id) == removed:
        emitter.unit = None
    if emitter.empty_expression is not None and int(emitter.empty_expression.id) == removed:
        emitter.empty_expression = None
    for key, source in list(emitter.sources.items()):
        if int(source.id) == removed:
            del emitter.sources[key]


def _locate(module: Module, rid: int) -> tuple[list[Instruction], int] | None:
    for items, _ in walk.lists(module):
        for index, inst in enumerate(items):
            if inst.result_id == rid:
                return items, index
    return None


def _is_none(inst: Instruction, set_id: int) -> bool:
    return inst.opcode == OP_EXT_INST and int(inst.operands[0]) == set_id and inst.operands[1] == 0


def _id_positions(inst: Instruction, flavor: Flavor) -> list[tuple[int, str]]:
    """(operand index, quantifier or 'pair') of every id operand of a debug instruction."""
    info = flavor.tables.INSTRUCTIONS.get(inst.operands[1])
    if info is None:
        return []
    out: list[tuple[int, str]] = []
    for index, op in enumerate(info.operands, start=2):
        if index >= len(inst.operands):
            break
        if op.kind == "IdRef":
            out.append((index, op.quantifier))
        elif op.kind == "PairIdRefIdRef":
            out.append((index, "pair"))
    return out


def _rewrite(inst: Instruction, flavor: Flavor, old: int, new: int) -> Instruction:
    operands = list(inst.operands)
    changed = False

    def swap(value: Any) -> Any:
        nonlocal changed
        if isinstance(value, int) and int(value) == old:
            changed = True
            return Id(new)
        return value

    for index, how in _id_positions(inst, flavor):
        value = operands[index]
        if how == "*":
            operands[index] = tuple(swap(v) for v in value)
        elif how == "pair":
            operands[index] = tuple(tuple(swap(v) for v in pair) for pair in value)
        elif value is not None:
            operands[index] = swap(value)
    return inst._replace(operands=tuple(operands)) if changed else inst


def _refers(inst: Instruction, flavor: Flavor, rid: int) -> bool:
    if inst.opcode != OP_EXT_INST:
        return False
    for index, how in _id_positions(inst, flavor):
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


def _drop_targeting(module: Module, ids: set[int]) -> int:
    """Remove OpName/OpDecorate/... whose target is one of ``ids``."""
    count = 0
    for name in _TARGETED:
        items = module.sections.get(name, [])
        keep = [i for i in items if not (i.operands and _as_int(i.operands[0]) in ids)]
        count += len(items) - len(keep)
        items[:] = keep
    return count


def _drop_ids(module: Module, ids: set[int]) -> int:
    count = 0
    for items, _ in walk.lists(module):
        keep = [i for i in items if i.result_id is None or int(i.result_id) not in ids]
        count += len(items) - len(keep)
        items[:] = keep
    return count


def _unused_strings(module: Module) -> set[int]:
    strings = {
        int(i.result_id)
        for i in module.sections.get("debug_strings", [])
        if i.opcode == OP_STRING and i.result_id is not None
    }
    used: set[int] = set()
    for inst, _ in walk.instructions(module):
        if inst.opcode != OP_STRING:
            _collect_ints(inst.operands, used)
    return strings - used


def _collect_ints(value: Any, out: set[int]) -> None:
    if isinstance(value, EnumerantParameters):
        _collect_ints(value.parameters, out)
    elif isinstance(value, tuple | list):
        for item in value:
            _collect_ints(item, out)
    elif isinstance(value, int):
        out.add(int(value))


def _as_int(value: Any) -> int | None:
    return int(value) if isinstance(value, int) else None


def _forget(module: Module, ids: set[int], import_names: Iterable[str]) -> None:
    """Drop the module's hash-consing entries for removed ids (see the report: a Module
    API for removal would keep these caches itself)."""
    interned = getattr(module, "_interned", None)
    if isinstance(interned, dict):
        for key, value in list(interned.items()):
            if value is not None and int(value) in ids:
                del interned[key]
    ext_imports = getattr(module, "_ext_imports", None)
    if isinstance(ext_imports, dict):
        for name in import_names:
            ext_imports.pop(name, None)
