"""What the grammar's declarations say about numbers: the :class:`NumberType` an
``OpTypeInt`` / ``OpTypeFloat`` declares, the :class:`FloatFormat` of each FPEncoding.

The number model itself (:mod:`spvbuild.spirv.numbers`) knows no tables; this module
reads them (opcodes, the FPEncoding enumerants by name) for every tool that meets a
declaration: the encoder, the reader, the assembler, the disassembler and the builder.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from spvbuild.generated.core.opcodes import OP_TYPE_FLOAT, OP_TYPE_INT
from spvbuild.spirv.numbers import (
    BFLOAT16,
    FLOAT8_E4M3,
    FLOAT8_E5M2,
    IEEE_FORMATS,
    FloatFormat,
    NumberType,
)

__all__ = ["declared_number_type", "encoding_format", "float_format"]

_BY_ENCODING_NAME: Final[dict[str, FloatFormat]] = {
    "BFloat16KHR": BFLOAT16,
    "Float8E4M3EXT": FLOAT8_E4M3,
    "Float8E5M2EXT": FLOAT8_E5M2,
}
"""The format of each FPEncoding enumerant whose literals spvbuild reads and writes."""


@cache
def _encodings() -> dict[int, FloatFormat]:
    from spvbuild.generated.core import tables

    enumerants = tables.KINDS["FPEncoding"].enumerants
    return {
        value: _BY_ENCODING_NAME[e.name]
        for value, e in enumerants.items()
        if e.name in _BY_ENCODING_NAME
    }


def encoding_format(encoding: int | None) -> FloatFormat | None:
    """The format of an FPEncoding value (None: IEEE, or an encoding spvbuild lacks)."""
    return None if encoding is None else _encodings().get(encoding)


def float_format(width: int, encoding: int | None) -> FloatFormat | None:
    """The literal format of ``OpTypeFloat width [encoding]``; None when unsupported."""
    if encoding is not None:
        found = _encodings().get(encoding)
        return found if found is not None and found.bits == width else None
    return IEEE_FORMATS.get(width)




def declared_number_type(opcode: int, operands: Sequence[Any]) -> NumberType | None:
    """The :class:`NumberType` that an instruction declares, from its operands after the
    result id (words, or the reader's typed values; operands past these are ignored, as
    every tool sizes literals by the first ones): ``OpTypeInt`` width and signedness,
    ``OpTypeFloat`` width and optional FPEncoding (with its format, where spvbuild has its
    codec); None for any other instruction or too few operands."""
    count = len(operands)
    if opcode == OP_TYPE_INT and count >= 2:
        return NumberType(int(operands[0]), False, bool(operands[1]))
    if opcode == OP_TYPE_FLOAT and count >= 1:
        encoding = operands[1] if count >= 2 else None
        if encoding is None:
            return NumberType(int(operands[0]), True, True)
        if isinstance(encoding, tuple):  # the reader's RawWords of an unknown value
            return NumberType(int(operands[0]), True, True, encoding[0] if encoding else -1)
        value = int(encoding)
        return NumberType(int(operands[0]), True, True, value, encoding_format(value))
    return None
