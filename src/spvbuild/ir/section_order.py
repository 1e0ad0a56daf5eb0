"""The canonical order of the layout sections whose order carries no meaning.

Execution modes, debug names and decorations are sorted when a module is laid out, so the
order of the calls that made them does not matter: by target, opcode, then the other
operands (:func:`operand_key` orders values of any mix of types).  Types, constants and
globals keep call order (definitions come before uses), and so do the debug strings and
sources (OpSourceContinued follows its OpSource) and module-processed.

Most such records keep the words their call made.  Where every record of a section does,
and no operand of any can hold more than plain 32-bit words (no string, no float, no mask,
no 64-bit literal), the words themselves are the key: they order exactly as the operand
key does (the target first, the opcode, then each operand's words in grammar order, an
enumerant's value before its parameters), without looking at the Python values.  The
grammar tables say which instructions and enumerants qualify (:data:`WORD_KEYS`).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from types import ModuleType
from typing import Any

from spvbuild.accel import engines
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import (
    OP_DECORATION_GROUP,
    OP_GROUP_DECORATE,
    OP_GROUP_MEMBER_DECORATE,
)
from spvbuild.generated.core.operand_classes import ID, LITERAL, RESULT_ID, VALUE_ENUM
from spvbuild.ir.layout_engine import Kept
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.tables import OperandInfo

_PLAIN_INTS = frozenset({int, Id, TypeId})
_GROUP_OPCODES = {OP_DECORATION_GROUP, OP_GROUP_DECORATE, OP_GROUP_MEMBER_DECORATE}
_SORTED_BY_TARGET = ("execution_modes", "debug_names", "annotations")


def operand_key(value: Any) -> Any:
    """A sort key for operand values of any mix of types (an enumerant sorts as its value).

    Every key is a tuple that starts with a tag, so keys of different types compare.
    """
    cls = value.__class__
    if cls in _PLAIN_INTS:  # the common cases first: ids, ints, tuples of them
        return (0, value)
    if cls is str:
        return (2, value)
    if cls is tuple:
        return (3, tuple([operand_key(v) for v in value]))
    if isinstance(value, EnumerantParameters):
        # As operand_key(value.parameters) gives them, without the tuple made first.
        fields = [operand_key(getattr(value, name)) for name in value.fields]
        return (0, int(value.enumerant), (3, tuple(fields)))
    if isinstance(value, int):  # ids, ints and IntEnum/IntFlag members: by value
        return (0, int(value))
    if isinstance(value, RawWords):
        return (4, tuple(value))
    if isinstance(value, Enum):
        return (0, int(value.value))
    if isinstance(value, float):
        return (1, value.hex())
    if isinstance(value, str):
        return (2, value)
    if isinstance(value, tuple | list):
        return (3, tuple(operand_key(v) for v in value))
    if value is None:
        return (-1,)
    return (5, repr(value))


def target_key(inst: Instruction) -> Any:
    """The order of execution modes, names and decorations: target, opcode, the rest
    (what ``(operand_key(operands[:1]), opcode, operand_key(operands[1:]))`` gives)."""
    operands = inst.operands
    if not operands:
        return ((3, ()), inst.opcode, (3, ()))
    first = operand_key(operands[0])
    return ((3, (first,)), inst.opcode, (3, tuple([operand_key(v) for v in operands[1:]])))


def _plain_words(operands: Iterable[OperandInfo]) -> bool:
    """Whether operands of these kinds are only single words the operand key orders as
    their values: ids, 32-bit literals, enumerants whose parameters are such too."""
    for op in operands:
        kind = tables.KINDS.get(op.kind)
        if kind is None or op.quantifier:
            return False
        if kind.operand_class == VALUE_ENUM:
            if not all(_plain_words(e.parameters) for e in kind.enumerants.values()):
                return False
        elif kind.operand_class not in (ID, LITERAL):
            return False
    return True


def _word_keys() -> dict[int, tuple[int, frozenset[int], int]]:
    """Per opcode of the sorted sections whose words may order a record: the word that
    holds its one enum operand (0: none), the enumerant values that qualify it (those
    whose parameters are plain words too; a value the grammar lacks does not), and -1
    where every operand is plain, else how many plain words follow the target before the
    first operand that is not (a string): such a record is ordered by those words alone,
    which decide its order only where no other record of the section has the same."""
    keys: dict[int, tuple[int, frozenset[int], int]] = {}
    for opcode, info in tables.INSTRUCTIONS.items():
        if info.section not in _SORTED_BY_TARGET or opcode in _GROUP_OPCODES:
            continue  # (decoration groups keep the section in call order)
        operands = [op for op in info.operands if tables.KINDS[op.kind].operand_class != RESULT_ID]
        if not operands or operands[0].quantifier or not _plain_words(operands[:1]):
            continue
        position, allowed, prefix = 0, frozenset[int](), -1
        for index, op in enumerate(operands):
            kind = tables.KINDS.get(op.kind)
            if kind is not None and kind.operand_class == VALUE_ENUM:
                if position or op.quantifier or index != len(operands) - 1:
                    break  # one enum, last: the words before it are one each
                position = 1 + index
                allowed = frozenset(
                    e.value for e in kind.enumerants.values() if _plain_words(e.parameters)
                )
            elif not _plain_words((op,)):
                if position:
                    break
                prefix = index - 1  # the plain single words after the target
                keys[opcode] = (0, allowed, prefix)
                break
        else:
            keys[opcode] = (position, allowed, prefix)
    return keys


WORD_KEYS = _word_keys()


def layout_engine() -> ModuleType:
    """The form of :mod:`spvbuild.ir.layout_engine` that runs: a compiled one when there is
    one (the wheel's, or a current development copy; see :mod:`spvbuild.accel.engines`;
    never with ``SPVBUILD_PURE_PYTHON`` set), else the module itself, interpreted."""
    return engines.running("layout_engine")


def canonical(section: str, items: list[Instruction], kept: Kept) -> list[Instruction]:
    """``items`` of ``section`` in the canonical order (the list itself where it keeps
    call order)."""
    if len(items) < 2:
        return items  # nothing to order
    if section in _SORTED_BY_TARGET:
        # (None where a decoration group is among them)
        found: list[Instruction] | None = layout_engine().by_words(items, kept, WORD_KEYS)
        if found is not None:
            return found
    return _by_values(section, items)


def laid_out(sections: dict[str, list[Instruction]], skip: frozenset[str], kept: Kept) -> list[Any]:
    """The records of every section but those in ``skip``, in layout order, each section
    in its canonical order (what :func:`canonical` gives, in one pass)."""
    out: list[Any] = layout_engine().lay_out(
        sections, skip, _REORDERED, _SORTED_SECTIONS, kept, WORD_KEYS, _by_values
    )
    return out


def _by_values(section: str, items: list[Instruction]) -> list[Instruction]:
    """``items`` (two or more) of ``section`` in the canonical order, by their operand
    values (where their words cannot say it)."""
    if section == "ext_inst_imports":
        return sorted(items, key=lambda i: int(i.result_id or 0))
    if section == "entry_points":
        return sorted(items, key=lambda i: (operand_key(i.operands[1:2]), operand_key(i.operands)))
    if section in _SORTED_BY_TARGET:
        if section == "annotations" and any(i.opcode in _GROUP_OPCODES for i in items):
            return items  # decoration groups: call order kept
        return sorted(items, key=target_key)
    return items


# The sections whose records canonical() may reorder (the others keep call order), and
# those of them ordered by target.
_SORTED_SECTIONS = frozenset(_SORTED_BY_TARGET)
_REORDERED = frozenset({"ext_inst_imports", "entry_points"}) | _SORTED_SECTIONS
