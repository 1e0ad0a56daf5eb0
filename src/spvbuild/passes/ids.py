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

from collections.abc import Callable, Iterator
from typing import Any

from spvbuild.generated.core import tables
from spvbuild.passes.opcode_sets import TARGETING as TARGETING
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "TARGETING",
    "hidden_words",
    "ids_in",
    "is_targeting",
    "rename",
    "used_ids",
]


def is_targeting(inst: Instruction) -> bool:
    """True for a name or decoration whose operand 0 is an id (its target)."""
    return inst.opcode in TARGETING and bool(inst.operands) and isinstance(inst.operands[0], Id)


def ids_in(value: Any) -> Iterator[int]:
    """The ids an operand value holds (in tuples and enumerant parameters too)."""
    if isinstance(value, Id):
        yield int(value)
    elif isinstance(value, tuple | list) and not isinstance(value, RawWords):
        for item in value:
            yield from ids_in(item)
    elif isinstance(value, EnumerantParameters):
        yield from ids_in(value.parameters)


_TARGET_LISTS = {
    opcode: frozenset(n for n, op in enumerate(tables.INSTRUCTIONS[opcode].operands) if op.quantifier == "*")
    for opcode in TARGETING
}
"""The operands of a targeting instruction that list more targets (OpGroupDecorate's)."""


def used_ids(inst: Instruction, *, skip_target: bool = False) -> Iterator[int]:
    """The ids ``inst`` uses: its result type, then its id operands in order (with
    ``skip_target``, a targeting instruction's targets left out: operand 0 and the lists
    of targets of the group decorations)."""
    if inst.result_type is not None:
        yield int(inst.result_type)
    if skip_target and is_targeting(inst):
        lists = _TARGET_LISTS[inst.opcode]
        for index, value in enumerate(inst.operands):
            if index and index not in lists:
                yield from ids_in(value)
        return
    for value in inst.operands:
        yield from ids_in(value)


def _raw_in(value: Any) -> Iterator[int]:
    if isinstance(value, RawWords):
        yield from value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _raw_in(item)
    elif isinstance(value, EnumerantParameters):
        yield from _raw_in(value.parameters)


def hidden_words(inst: Instruction) -> list[int]:
    """The words of ``inst`` the grammar could not type (any of them could be an id)."""
    return [*_raw_in(inst.operands)]


def _renamed(value: Any, new: Callable[[int], int]) -> Any:
    if isinstance(value, Id):
        return type(value)(new(int(value)))
    if isinstance(value, tuple | list) and not isinstance(value, RawWords):
        return type(value)(_renamed(v, new) for v in value)
    if isinstance(value, EnumerantParameters):
        return type(value)(*(_renamed(v, new) for v in value.parameters))
    return value


def rename(inst: Instruction, new: Callable[[int], int]) -> Instruction:
    """``inst`` with every id it defines or uses ``i`` replaced by ``new(i)`` (the words
    :func:`hidden_words` lists excepted)."""
    result_type = inst.result_type
    result_id = inst.result_id
    return inst._replace(
        result_type=None if result_type is None else type(result_type)(new(int(result_type))),
        result_id=None if result_id is None else type(result_id)(new(int(result_id))),
        operands=tuple(_renamed(v, new) for v in inst.operands),
    )
