"""The ids an instruction uses and defines, and an instruction with its ids renamed.

The reader types every id operand as ``Id``/``TypeId`` by its kind's class (the grammar
decides, not the opcode), so an instruction's uses are its result type and the ``Id``
values among its operands, in tuples and enumerant parameters too.  Words the grammar
could not type (``RawWords``: an unknown opcode, an extended set the grammar lacks, an
unknown enumerant's parameters) may hide ids: :func:`hidden_words` lists them, and each
pass says what it does with them (dead-code elimination keeps whatever they could name;
id compaction refuses them).

Names and decorations *target* an id without using it (:data:`TARGETING`: the grammar's
``debug_names`` and ``annotations`` sections, operand 0): they go when their target goes.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from enum import Enum
from typing import Any

from spvbuild.generated.core import tables
from spvbuild.passes.opcode_sets import TARGETING as TARGETING
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "TARGETING",
    "IdMap",
    "hidden_words",
    "ids_in",
    "is_targeting",
    "rename",
    "used_ids",
    "uses_and_hidden",
    "uses_any",
]


class IdMap:
    """An id → the id it becomes, by a table (itself when the table lacks it): the
    function :func:`rename` takes.  (An object, not a closure: compiled, a closure and its
    scope hold each other until a collection, and all they hold with them.)"""

    __slots__ = ("table",)

    def __init__(self, table: dict[int, int]) -> None:
        self.table = table

    def __call__(self, rid: int) -> int:
        return self.table.get(rid, rid)


def is_targeting(inst: Instruction) -> bool:
    """True for a name or decoration whose operand 0 is an id (its target)."""
    return inst.opcode in TARGETING and bool(inst.operands) and isinstance(inst.operands[0], Id)


def ids_in(value: Any) -> list[int]:
    """The ids an operand value holds (in tuples and enumerant parameters too)."""
    out: list[int] = []
    _collect(value, out)
    return out


_NO_IDS: set[type] = {int, str, float, type(None)}
"""Operand value types that hold no id (and no raw words): these, and each enum class (a
ValueEnum's or a BitEnum's members) added on its first sight by :func:`_collect` or
:func:`_collect_raw`, so that the walks pass over an enumerant by one set lookup."""


def _collect(value: Any, out: list[int]) -> None:
    """Append the ids ``value`` holds to ``out`` (a list, not a generator: this runs for
    every operand of every instruction a pass reads)."""
    kind = type(value)
    if kind is Id or kind is TypeId:
        out.append(int(value))
    elif kind in _NO_IDS:
        return
    elif isinstance(value, Enum):
        _NO_IDS.add(kind)
    elif isinstance(value, Id):
        out.append(int(value))
    elif isinstance(value, tuple | list) and not isinstance(value, RawWords):
        for item in value:
            _collect(item, out)
    elif isinstance(value, EnumerantParameters):
        for item in value.parameters:
            _collect(item, out)


_TARGET_LISTS = {
    opcode: frozenset(n for n, op in enumerate(tables.INSTRUCTIONS[opcode].operands) if op.quantifier == "*")
    for opcode in TARGETING
}
"""The operands of a targeting instruction that list more targets (OpGroupDecorate's)."""


def used_ids(inst: Instruction, *, skip_target: bool = False) -> list[int]:
    """The ids ``inst`` uses: its result type, then its id operands in order (with
    ``skip_target``, a targeting instruction's targets left out: operand 0 and the lists
    of targets of the group decorations)."""
    out: list[int] = []
    if inst.result_type is not None:
        out.append(int(inst.result_type))
    if skip_target and is_targeting(inst):
        lists = _TARGET_LISTS[inst.opcode]
        for index, value in enumerate(inst.operands):
            if index and index not in lists:
                _collect(value, out)
        return out
    for value in inst.operands:
        kind = type(value)  # (_collect's commonest cases, inline: this runs per operand)
        if kind is Id or kind is TypeId:
            out.append(int(value))
        elif kind not in _NO_IDS:
            _collect(value, out)
    return out


def uses_any(inst: Instruction, ids: Container[int]) -> bool:
    """True when ``inst`` uses one of ``ids`` (its result type or an id operand): what
    ``not ids.isdisjoint(used_ids(inst))`` says, without the list, and stopping at the
    first."""
    result_type = inst.result_type
    if result_type is not None and result_type in ids:
        return True
    for value in inst.operands:
        kind = type(value)
        if kind is Id or kind is TypeId:
            if value in ids:
                return True
        elif kind not in _NO_IDS:
            found: list[int] = []
            _collect(value, found)
            if any(item in ids for item in found):
                return True
    return False


def uses_and_hidden(inst: Instruction, *, skip_target: bool = False) -> tuple[list[int], list[int]]:
    """``(used_ids(inst, skip_target=skip_target), hidden_words(inst))`` in one walk of the
    operands (two where ``skip_target`` leaves some out)."""
    if skip_target and is_targeting(inst):
        return used_ids(inst, skip_target=True), hidden_words(inst)
    out: list[int] = []
    raw: list[int] = []
    if inst.result_type is not None:
        out.append(int(inst.result_type))
    for value in inst.operands:
        kind = type(value)
        if kind is Id or kind is TypeId:
            out.append(int(value))
        elif kind not in _NO_IDS:
            _walk(value, out, raw)
    return out, raw


def _walk(value: Any, out: list[int], raw: list[int]) -> None:
    """:func:`_collect` and :func:`_collect_raw` at once."""
    kind = type(value)
    if kind is Id or kind is TypeId:
        out.append(int(value))
    elif kind in _NO_IDS:
        return
    elif isinstance(value, Enum):
        _NO_IDS.add(kind)
    elif isinstance(value, Id):
        out.append(int(value))
    elif isinstance(value, RawWords):
        raw.extend(value)
    elif isinstance(value, tuple | list):
        for item in value:
            _walk(item, out, raw)
    elif isinstance(value, EnumerantParameters):
        for item in value.parameters:
            _walk(item, out, raw)


def _collect_raw(value: Any, out: list[int]) -> None:
    if isinstance(value, Id):
        return
    if isinstance(value, Enum):
        _NO_IDS.add(type(value))
    elif isinstance(value, RawWords):
        out.extend(value)
    elif isinstance(value, tuple | list):
        for item in value:
            _collect_raw(item, out)
    elif isinstance(value, EnumerantParameters):
        for item in value.parameters:
            _collect_raw(item, out)


def hidden_words(inst: Instruction) -> list[int]:
    """The words of ``inst`` the grammar could not type (any of them could be an id)."""
    out: list[int] = []
    for value in inst.operands:
        kind = type(value)
        if kind is not Id and kind is not TypeId and kind not in _NO_IDS:
            _collect_raw(value, out)
    return out


def _renamed(value: Any, new: Callable[[int], int]) -> Any:
    """``value`` with its ids renamed: the same object where none changes."""
    if isinstance(value, Id):
        number = new(int(value))
        return value if number == value else type(value)(number)
    if isinstance(value, tuple | list) and not isinstance(value, RawWords):
        items = [_renamed(v, new) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items)
    if isinstance(value, EnumerantParameters):
        parameters = value.parameters
        renamed = [_renamed(v, new) for v in parameters]
        if all(a is b for a, b in zip(renamed, parameters, strict=True)):
            return value
        return type(value)(*renamed)
    return value


def _renamed_result(value: Any, new: Callable[[int], int], kind: Callable[[int], Any]) -> Any:
    """A result type or result id renamed (the same object where it does not change): an
    id by its place, whatever its class (a plain ``int`` given there becomes ``kind``)."""
    number = new(int(value))
    if number == value:
        return value
    return type(value)(number) if isinstance(value, Id) else kind(number)


def rename(inst: Instruction, new: Callable[[int], int]) -> Instruction:
    """``inst`` with every id it defines or uses ``i`` replaced by ``new(i)`` (the words
    :func:`hidden_words` lists excepted); ``inst`` itself when no id changes (so that a
    program read from words still writes it as the words it was read from)."""
    # (Any, not int | None: compiled, a variable narrowed to int holds a plain int, and
    # an Id kept as it is would come out an int; see spvbuild.accel.compiled_passes)
    result_type: Any = inst.result_type
    result_id: Any = inst.result_id
    new_type = None if result_type is None else _renamed_result(result_type, new, TypeId)
    new_id = None if result_id is None else _renamed_result(result_id, new, Id)
    operands = inst.operands
    new_operands: list[Any] | None = None  # (made at the first operand that changes)
    for index, value in enumerate(operands):
        kind = type(value)  # (_renamed's commonest cases, inline: this runs per operand)
        if kind is Id or kind is TypeId:
            number = new(int(value))
            changed = value if number == value else kind(number)
        elif kind in _NO_IDS:
            continue
        else:
            changed = _renamed(value, new)
        if changed is not value:
            if new_operands is None:
                new_operands = list(operands)
            new_operands[index] = changed
    if new_type is result_type and new_id is result_id and new_operands is None:
        return inst
    return inst._replace(
        result_type=new_type,
        result_id=new_id,
        operands=operands if new_operands is None else tuple(new_operands),
    )
