"""The in-memory form of one instruction, shared by the builder, encoder and reader."""

from __future__ import annotations

from typing import Any, NamedTuple


class Instruction(NamedTuple):
    """One instruction: opcode, result type, result id and the remaining operands.

    ``operands`` holds the values in grammar order *after* the result type and result id:
    ids, ints, floats, strings, enum members, enumerant-parameter objects, tuples for
    pair kinds, ``None`` for an absent optional operand and a tuple for a variadic one.
    For ``OpExtInst`` made through an extended-set builder, ``ext_set`` names the set.
    """

    opcode: int
    result_type: int | None
    result_id: int | None
    operands: tuple[Any, ...]
    ext_set: str | None = None


class RawWords(tuple[int, ...]):
    """Operand words kept exactly as they were read (or given), encoded verbatim.

    The reader uses it where a typed value could lose information: a NaN whose payload
    must survive, an enum value or opcode the grammar does not know, operands past the end
    of an instruction's grammar.  The encoder copies these words unchanged.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "RawWords(" + ", ".join(f"0x{w:08x}" for w in self) + ")"
