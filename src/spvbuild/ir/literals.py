"""Literals whose size a type sets, in a module under construction.

The module's own numeric types decide how an OpConstant's or OpSwitch's literal is
written: :func:`type_widths` reads the declaration of a type id, :func:`number_words`
writes a value for a generated words path, :func:`encoder` is the general path's encoder
over the same lookup.
"""

from __future__ import annotations

from spvbuild.binary.encoder import Encoder
from spvbuild.binary.number_types import declared_number_type
from spvbuild.errors import SpvbuildError
from spvbuild.generated.core.opcodes import OP_TYPE_FLOAT, OP_TYPE_INT
from spvbuild.ir.inspection import definition
from spvbuild.ir.state import ModuleState
from spvbuild.spirv.instruction import RawWords
from spvbuild.spirv.numbers import NumberType

__all__ = ["encoder", "number_words", "type_widths"]

def encoder(state: ModuleState) -> Encoder:
    """The general path's encoder (made on first use): literal widths from the module's
    types, the ids each call uses into ``_call_used``."""
    found = state._encoder
    if found is None:
        found = state._encoder = Encoder(lambda t: type_widths(state, t), state._call_used)
    return found


def number_words(state: ModuleState, type_id: int, value: object) -> list[int] | None:
    """The words of OpConstant's value in the format of the numeric type defined as
    ``type_id`` (its :class:`~spvbuild.spirv.numbers.NumberType`'s codec); None when the
    type is not numeric or the value does not fit (the general path encodes it, or says
    what is wrong)."""
    number = type_widths(state, type_id)
    if number is None:
        return None
    try:
        return number.words(value)
    except SpvbuildError:
        return None


def type_widths(state: ModuleState, type_or_value: int) -> NumberType | None:
    """The literal format of a numeric type (of a value's type, if negative)."""
    if type_or_value < 0:
        value = definition(state, -type_or_value)
        if value is None or value.result_type is None:
            return None
        type_or_value = int(value.result_type)
    found = state._definitions.get(type_or_value)
    if found is None:
        return None
    known = state._number_types.get(type_or_value)
    if known is not None and known[0] is found:
        return known[1]
    number = None
    if (
        (found.opcode == OP_TYPE_INT or found.opcode == OP_TYPE_FLOAT)
        and found.operands
        and not isinstance(found.operands[0], RawWords)
    ):
        number = declared_number_type(found.opcode, found.operands)
    state._number_types[type_or_value] = (found, number)  # (kept while it defines the id)
    return number
