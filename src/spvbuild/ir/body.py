"""The body of a module under construction: functions, their blocks, what a block holds.

A :class:`Block` holds instruction records and :class:`~spvbuild.spirv.emission.Run` s
(words the generated fast path appended at the call); :func:`decoded` turns such pieces
back into records.  Plain records: the module's jobs (routing, editing, writing) change
them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from spvbuild.generated.core.opcodes import OP_FUNCTION_END, OP_LABEL
from spvbuild.spirv.emission import Run
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "Block",
    "BlockItem",
    "Function",
    "FunctionHandle",
    "KeptWords",
    "decoded",
    "ids_in",
    "plain_id",
    "records",
]

_new_record = tuple.__new__  # Instruction._make's way: every field given, in order

BlockItem = Instruction | Run


@dataclass
class Block:
    """One basic block: its label and instructions (the terminator last).

    ``items`` holds instruction records and :class:`Run` s of words made by the fast
    path; :attr:`instructions` gives them all as records.  ``merge`` is the opcode of a
    merge instruction just added, which only its branch may follow (None otherwise).
    """

    label: Id
    items: list[BlockItem] = field(default_factory=list)
    terminated: bool = False
    merge: int | None = None

    @property
    def instructions(self) -> list[Instruction]:
        """Every instruction of the block in order, runs of words decoded (a new list)."""
        out: list[Instruction] = []
        for item in self.items:
            if isinstance(item, Run):
                out.extend(item.instructions())
            else:
                out.append(item)
        return out


@dataclass
class Function:
    """One function: OpFunction (``header``), its parameters (and what stands before its
    first label: debug lines, debug-info and non-semantic instructions), its blocks, its
    local variables, and ``after``: the non-semantic instructions that followed its
    OpFunctionEnd in a binary read back (written back after it)."""

    header: Instruction
    parameters: list[Instruction] = field(default_factory=list)
    variables: list[Instruction] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    ended: bool = False
    # For entry-point interfaces, noted as instructions are added (see spvbuild.ir.routing.note): the
    # global variables and reserved ids its records use, the ids its calls use (callees
    # among them), and whether every record was noted (else serialization walks them).
    uses: set[int] = field(default_factory=set)
    callees: set[int] = field(default_factory=set)
    noted: bool = True
    runs: list[Run] = field(default_factory=list)  # its blocks' runs of words, when noted
    # Non-semantic instructions read after its OpFunctionEnd (before the next function or
    # the module's end): written back there.
    after: list[Instruction] = field(default_factory=list)

    @property
    def id(self) -> Id:
        """The function's result id."""
        assert self.header.result_id is not None
        return Id(self.header.result_id)

    def instructions(self) -> Iterable[Instruction]:
        """The function's instructions in module order (locals first in the entry block)."""
        for item in self.pieces():
            if isinstance(item, Run):
                yield from item.instructions()
            else:
                yield item

    def pieces(self) -> list[BlockItem]:
        """:meth:`instructions` with runs of words left as they are (a new list)."""
        out: list[BlockItem] = [self.header, *self.parameters]
        for index, block in enumerate(self.blocks):
            out.append(_new_record(Instruction, (OP_LABEL, None, block.label, (), None)))
            if index == 0:
                out += self.variables
            out += block.items
        out.append(FUNCTION_END_RECORD)
        if self.after:
            out += self.after
        return out


@dataclass(frozen=True)
class FunctionHandle:
    """What :meth:`Module.define_function` returns: the function, its parameters, its entry."""

    id: Id
    type: TypeId
    parameters: tuple[Id, ...]
    entry: Id


Needs = tuple[tuple[Any, str], ...]
"""What an instruction needs, as its call listed it: (need, where) pairs."""


KeptWords = tuple[Instruction, list[int], dict[int, str] | None, Needs | None]
"""A record's words, encoded at its call, kept for serialization (which joins them):
``(record, words, used, needs)``, read by unpacking in that order.

* ``record``: the record the words are of (kept alive here, so its ``id()`` stays its own);
* ``words``: its words, word count and opcode first;
* ``used``: the ids its operands use, each with the first place that uses it (None: all
  were below the bound when the call was made);
* ``needs``: what it needs, listed at its call (None: found by walking it when written).

A plain tuple, not a NamedTuple: the words paths make one per call, and making a tuple
subclass there cost the README shader's build about 4 % (``bench/bench_builder.py``)."""


FUNCTION_END_RECORD = Instruction(OP_FUNCTION_END, None, None, ())
"""The OpFunctionEnd record every function's pieces end with."""


def records(body: list[BlockItem]) -> list[Instruction]:
    """The records among ``body``'s pieces (not the runs of words)."""
    return [piece for piece in body if piece.__class__ is not Run]  # type: ignore[misc]


def decoded(pieces: Iterable[BlockItem]) -> list[Instruction]:
    """Every instruction of ``pieces``, runs of words decoded."""
    out: list[Instruction] = []
    for piece in pieces:
        if isinstance(piece, Run):
            out.extend(piece.instructions())
        else:
            out.append(piece)
    return out


def ids_in(values: Iterable[Any]) -> Iterable[int]:
    """Every Id inside a tuple of operand values (nested tuples and parameters included)."""
    for value in values:
        if isinstance(value, Id):
            yield int(value)
        elif isinstance(value, tuple | list) and not isinstance(value, RawWords):
            yield from ids_in(value)
        elif isinstance(value, EnumerantParameters):
            yield from ids_in(value.parameters)


def plain_id(value: Any) -> int:
    """An operand that should be an id, as an int (0 when it is not one)."""
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else 0
