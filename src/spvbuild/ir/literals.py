"""Literals whose size a type sets, in a module under construction.

The module's own numeric types decide how an OpConstant's or OpSwitch's literal is
written: :func:`type_widths` reads the declaration of a type id, :func:`number_words`
writes a value for a generated words path, :func:`encoder` is the general path's encoder
over the same lookup.
"""

from __future__ import annotations

import struct

from spvbuild.binary.encoder import Encoder
from spvbuild.generated.core.opcodes import OP_TYPE_FLOAT, OP_TYPE_INT
from spvbuild.ir.inspection import definition
from spvbuild.ir.state import ModuleState
from spvbuild.spirv.instruction import RawWords

__all__ = ["encoder", "number_words", "type_widths"]

_FLOAT32, _FLOAT32_PACK = struct.Struct("<I"), struct.Struct("<f")
_FLOAT64, _FLOAT64_PACK = struct.Struct("<II"), struct.Struct("<d")


def encoder(state: ModuleState) -> Encoder:
    """The general path's encoder (made on first use): literal widths from the module's
    types, the ids each call uses into ``_call_used``."""
    found = state._encoder
    if found is None:
        found = state._encoder = Encoder(lambda t: type_widths(state, t), state._call_used)
    return found


def number_words(state: ModuleState, type_id: int, value: object) -> list[int] | None:
    """The words of OpConstant's value when it is a plain int (or, for a 32- or 64-bit
    float type, a plain float) that fits the type defined as ``type_id``; None otherwise
    (the general path encodes it, or says what is wrong)."""
    widths = type_widths(state, type_id)
    if widths is None:
        return None
    width, is_float, signed = widths
    if value.__class__ is int and not is_float and 0 < width <= 64:
        if not -(1 << (width - 1)) <= value < (1 << width):
            return None
        if width > 32:
            bits = value & 0xFFFFFFFFFFFFFFFF
            return [bits & 0xFFFFFFFF, bits >> 32]
        return [value & 0xFFFFFFFF if signed else value & ((1 << width) - 1)]
    if value.__class__ is float and is_float and width in (32, 64):
        try:
            if width == 32:
                return [_FLOAT32.unpack(_FLOAT32_PACK.pack(value))[0]]
            low, high = _FLOAT64.unpack(_FLOAT64_PACK.pack(value))
        except (OverflowError, struct.error):
            return None
        return [low, high]
    return None


def type_widths(state: ModuleState, type_or_value: int) -> tuple[int, bool, bool] | None:
    """The literal format of a numeric type (of a value's type, if negative)."""
    if type_or_value < 0:
        value = definition(state, -type_or_value)
        if value is None or value.result_type is None:
            return None
        type_or_value = int(value.result_type)
    found = state._definitions.get(type_or_value)
    if found is None or not found.operands or isinstance(found.operands[0], RawWords):
        return None
    if found.opcode == OP_TYPE_INT and len(found.operands) > 1:
        return (int(found.operands[0]), False, bool(found.operands[1]))
    if found.opcode == OP_TYPE_FLOAT:
        return (int(found.operands[0]), True, True)
    return None
