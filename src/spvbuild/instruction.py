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
