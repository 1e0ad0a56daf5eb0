"""The one numeric-type model: what an ``OpTypeInt`` / ``OpTypeFloat`` declares.

Literals whose size a type sets (``OpConstant``/``OpSpecConstant``'s value, the literal of
each ``OpSwitch`` target) are read and written by the :class:`NumberType` of that type.
The encoder, the reader, the assembler and the disassembler each keep a ``dict`` of type
id → :class:`NumberType`, filled by :func:`declared_number_type` as declarations are seen,
and nothing else: one shape, one reading of the declarations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from spvbuild.generated.core.opcodes import OP_TYPE_FLOAT, OP_TYPE_INT

__all__ = ["FLOAT32", "UINT32", "NumberType", "declared_number_type"]


class NumberType(NamedTuple):
    """The literal format of a numeric scalar type."""

    width: int
    """Bits (a literal of more than 32 bits takes two words, low word first)."""
    is_float: bool
    signed: bool
    """An integer type's signedness; True for floats."""
    encoding: int | None = None
    """A float type's FPEncoding value (None: IEEE 754 binary16/32/64)."""


UINT32: Final = NumberType(32, False, False)
"""32-bit unsigned integers: how a literal is read when its type is unknown."""
FLOAT32: Final = NumberType(32, True, True)
"""``LiteralFloat``: one 32-bit IEEE float word."""


def declared_number_type(opcode: int, operands: Sequence[Any]) -> NumberType | None:
    """The :class:`NumberType` that an instruction declares, from its operands after the
    result id (words, or the reader's typed values; operands past these are ignored, as
    every tool sizes literals by the first ones): ``OpTypeInt`` width and signedness,
    ``OpTypeFloat`` width and optional FPEncoding; None for any other instruction or too
    few operands."""
    count = len(operands)
    if opcode == OP_TYPE_INT and count >= 2:
        return NumberType(int(operands[0]), False, bool(operands[1]))
    if opcode == OP_TYPE_FLOAT and count >= 1:
        encoding = operands[1] if count >= 2 else None
        if encoding is None:
            return NumberType(int(operands[0]), True, True)
        if isinstance(encoding, tuple):  # the reader's RawWords of an unknown value
            return NumberType(int(operands[0]), True, True, encoding[0] if encoding else -1)
        return NumberType(int(operands[0]), True, True, int(encoding))
    return None
