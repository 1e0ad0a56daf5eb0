"""The plain form every pass works on: a module's header and its instructions in module
order (:class:`Program`), and its functions split into blocks (:func:`split`, :func:`join`).

A :class:`~spvbuild.ir.module.Module` becomes a program through its words (``to_words``,
then the one reader), and a program becomes a module again through the one encoder and
``Module.from_binary``: the passes see every instruction as the reader types it (ids as
``Id``/``TypeId``, enumerants, parameter objects, ``RawWords`` where the grammar cannot say),
whatever made the module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spvbuild.binary.encoder import Encoder, encode_module
from spvbuild.binary.number_types import declared_number_type
from spvbuild.binary.reader import read
from spvbuild.errors import PassError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import (
    OP_FUNCTION,
    OP_FUNCTION_END,
    OP_FUNCTION_PARAMETER,
    OP_LABEL,
)
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.numbers import NumberType

if TYPE_CHECKING:
    from collections.abc import Sequence

    from spvbuild.ir.module import Module

__all__ = ["Block", "Function", "Layout", "Program", "join", "opcode_name", "split"]


_LINES = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.cls == "Debug" and info.section == "functions"
)
"""``OpLine``, ``OpNoLine``: the debug instructions that may stand between functions."""


def opcode_name(opcode: int) -> str:
    """The grammar's name of ``opcode`` (``opcode 4242`` for one it lacks)."""
    info = tables.INSTRUCTIONS.get(opcode)
    return info.name if info is not None else f"opcode {opcode}"


@dataclass(slots=True)
class Program:
    """A module as the passes see it.

    Fields: ``version`` (the header's (major, minor)), ``generator`` (header word 2),
    ``bound`` (every id is below it), ``instructions`` (in module order, as read),
    ``capability_mode`` (the ``capabilities=`` of the module it came from, given to the
    module it becomes).
    """

    version: tuple[int, int]
    generator: int
    bound: int
    instructions: list[Instruction]
    capability_mode: str = "infer"

    @classmethod
    def from_words(cls, words: Sequence[int] | bytes, capability_mode: str = "infer") -> Program:
        """The program of a binary (BinaryError when it does not read)."""
        parsed = read(words, lazy=False)
        return cls(parsed.version, parsed.generator, parsed.bound, list(parsed.instructions), capability_mode)

    @classmethod
    def from_module(cls, module: Module) -> Program:
        """The program of ``module`` (through its words: what writing it would give)."""
        return cls.from_words(module.to_words(), module.capability_mode)

    def to_words(self) -> list[int]:
        """The program's words, header included (EncodeError for an operand that cannot be
        written)."""
        return encode_module(self.instructions, self.bound, self.version, self.generator)

    def to_module(self) -> Module:
        """A new module holding the program (``Module.from_binary`` of its words)."""
        from spvbuild.ir.module import Module

        return Module.from_binary(self.to_words(), capabilities=self.capability_mode)  # type: ignore[arg-type]

    def word_count(self) -> int:
        """How many words the program writes (the header's five included)."""
        return len(self.to_words())

    def new_id(self) -> int:
        """A fresh id (the bound grows by one)."""
        self.bound += 1
        return self.bound - 1

    def copy(self) -> Program:
        """A program of the same header whose instruction list can change apart."""
        return Program(self.version, self.generator, self.bound, list(self.instructions), self.capability_mode)


def encoder_of(instructions: Sequence[Instruction]) -> Encoder:
    """The one encoder, sizing literals by the numeric types ``instructions`` declare."""
    widths: dict[int, NumberType] = {}
    value_types: dict[int, int] = {}
    for inst in instructions:
        if inst.result_id is not None:
            number = declared_number_type(inst.opcode, inst.operands)
            if number is not None:
                widths[inst.result_id] = number
            if inst.result_type is not None:
                value_types[inst.result_id] = inst.result_type

    def lookup(type_or_value: int) -> NumberType | None:
        if type_or_value < 0:
            type_id = value_types.get(-type_or_value)
            return widths.get(type_id) if type_id is not None else None
        return widths.get(type_or_value)

    return Encoder(lookup)


@dataclass(slots=True)
class Block:
    """A block: ``label`` (its OpLabel) and ``body`` (what follows, terminator included)."""

    label: Instruction
    body: list[Instruction] = field(default_factory=list)

    @property
    def id(self) -> int:
        """The block's label id."""
        assert self.label.result_id is not None
        return int(self.label.result_id)


@dataclass(slots=True)
class Function:
    """A function: ``start`` (OpFunction and its parameters), ``blocks``, ``end`` (its
    OpFunctionEnd, None when the module ends first), ``lines`` (the ``OpLine``/``OpNoLine``
    between the function before and its OpFunction)."""

    start: list[Instruction]
    blocks: list[Block] = field(default_factory=list)
    end: Instruction | None = None
    lines: list[Instruction] = field(default_factory=list)

    @property
    def id(self) -> int:
        """The function's id."""
        result = self.start[0].result_id
        assert result is not None
        return int(result)

    def instructions(self) -> list[Instruction]:
        """Every instruction of the function, in order."""
        out = [*self.lines, *self.start]
        for block in self.blocks:
            out.append(block.label)
            out += block.body
        if self.end is not None:
            out.append(self.end)
        return out


@dataclass(slots=True)
class Layout:
    """A program split: ``head`` (everything before the first function) and ``functions``."""

    head: list[Instruction]
    functions: list[Function]


def split(program: Program, pass_name: str) -> Layout:
    """The program's functions and blocks; PassError (of ``pass_name``) for an instruction
    outside a function after the first one, or one between a function's parameters and its
    first block."""
    head: list[Instruction] = []
    functions: list[Function] = []
    current: Function | None = None
    lines: list[Instruction] = []  # OpLine/OpNoLine after a function, for the next one
    for inst in program.instructions:
        opcode = inst.opcode
        if opcode == OP_FUNCTION:
            if current is not None and current.end is None:
                raise PassError(pass_name, "a function starts before the last one ended", opcode_name(opcode), inst.result_id)
            if inst.result_id is None:
                raise PassError(pass_name, "a function without its id", opcode_name(opcode))
            current = Function([inst], lines=lines)
            lines = []
            functions.append(current)
        elif current is None:
            if functions:
                raise PassError(pass_name, "an instruction after the functions, outside any", opcode_name(opcode), inst.result_id)
            head.append(inst)
        elif current.end is not None and opcode in _LINES:
            lines.append(inst)
        elif current.end is not None:
            raise PassError(pass_name, "an instruction between functions", opcode_name(opcode), inst.result_id)
        elif opcode == OP_FUNCTION_END:
            current.end = inst
        elif opcode == OP_LABEL:
            if inst.result_id is None:
                raise PassError(pass_name, "a label without its id", opcode_name(opcode))
            current.blocks.append(Block(inst))
        elif current.blocks:
            current.blocks[-1].body.append(inst)
        elif opcode == OP_FUNCTION_PARAMETER:
            current.start.append(inst)
        else:
            raise PassError(pass_name, "an instruction before the function's first block", opcode_name(opcode), inst.result_id)
    if lines:
        reason = "an instruction after the functions, outside any"
        raise PassError(pass_name, reason, opcode_name(lines[0].opcode))
    return Layout(head, functions)


def join(layout: Layout) -> list[Instruction]:
    """The instructions of ``layout`` in module order."""
    out = list(layout.head)
    for function in layout.functions:
        out += function.instructions()
    return out
