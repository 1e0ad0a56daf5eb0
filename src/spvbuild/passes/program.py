"""The plain form every pass works on: a module's header and its instructions in module
order (:class:`Program`), and its functions split into blocks (:func:`split`, :func:`join`).

A :class:`~spvbuild.ir.module.Module` becomes a program through its words (``to_words``,
then the one reader), and a program becomes a module again through the one encoder and
``Module.from_binary``: the passes see every instruction as the reader types it (ids as
``Id``/``TypeId``, enumerants, parameter objects, ``RawWords`` where the grammar cannot say),
whatever made the module.  A program read from words keeps them (:class:`SourceWords`):
an instruction no pass replaced is written again as the words it was read from, and only
the others go through the encoder.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, NoReturn

from spvbuild.binary.encoder import Encoder, encode_module, header_words
from spvbuild.binary.framing import offsets, words_of
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

__all__ = [
    "Block",
    "Function",
    "Layout",
    "Program",
    "SourceWords",
    "join",
    "opcode_name",
    "split",
]


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


@dataclass(frozen=True, slots=True)
class SourceWords:
    """The binary a program was read from: ``instructions`` (the reader's list, in module
    order, never changed: it keeps them alive, so that an instruction of the program that
    *is* one of them was read from these words) and ``words`` (the module's words)."""

    instructions: list[Instruction]
    words: array[int]


class _SourceFinder:
    """Where an instruction is in the source's list (-1: not there): the place after the
    last one found, as passes keep the instructions they do not change in order, and else
    by its ``id()`` in a table made on first need (in C: cheaper than looking a few places
    further in Python)."""

    def __init__(self, read_list: list[Instruction]) -> None:
        self.read_list = read_list
        self.next = 0
        self.table: dict[int, int] | None = None

    def find(self, inst: Instruction) -> int:
        read_list = self.read_list
        k = self.next
        if k < len(read_list) and read_list[k] is inst:
            self.next = k + 1
            return k
        if self.table is None:
            self.table = dict(zip(map(id, read_list), range(len(read_list)), strict=True))
        k = self.table.get(id(inst), -1)
        if k >= 0 and read_list[k] is inst:
            self.next = k + 1
            return k
        return -1


@dataclass(slots=True)
class Program:
    """A module as the passes see it.

    Fields: ``version`` (the header's (major, minor)), ``generator`` (header word 2),
    ``bound`` (every id is below it), ``instructions`` (in module order, as read),
    ``capability_mode`` (the ``capabilities=`` of the module it came from, given to the
    module it becomes), ``source`` (the words it was read from, :class:`SourceWords`, or
    None).
    """

    version: tuple[int, int]
    generator: int
    bound: int
    instructions: list[Instruction]
    capability_mode: str = "infer"
    source: SourceWords | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_words(cls, words: Sequence[int] | bytes, capability_mode: str = "infer") -> Program:
        """The program of a binary (BinaryError when it does not read)."""
        native, _ = words_of(words, "Program.from_words")
        parsed = read(native, lazy=False)
        read_list = parsed.instructions
        return cls(
            parsed.version,
            parsed.generator,
            parsed.bound,
            list(read_list),
            capability_mode,
            SourceWords(read_list, native),
        )

    @classmethod
    def from_module(cls, module: Module) -> Program:
        """The program of ``module`` (through its words: what writing it would give)."""
        return cls.from_words(module.to_words(), module.capability_mode)

    def to_words(self) -> list[int]:
        """The program's words, header included (EncodeError for an operand that cannot be
        written): the instructions of :attr:`source` as their words (while enough of them
        are left for that to be quicker), any other encoded."""
        source = self.source
        if source is None or not self.reuses_source():
            return encode_module(self.instructions, self.bound, self.version, self.generator)
        starts = offsets(source.words)
        read_list = source.instructions
        if len(starts) != len(read_list):  # (words that do not frame these instructions)
            return encode_module(self.instructions, self.bound, self.version, self.generator)
        starts.append(len(source.words))
        finder = _SourceFinder(read_list)
        source_words = source.words
        words = array("I", header_words(self.version, self.bound, self.generator))
        encoder: Encoder | None = None
        first = last = -2  # a run of consecutive source instructions: [first, last]
        count = len(read_list)
        for inst in self.instructions:
            k = finder.next
            if k < count and read_list[k] is inst:  # (the next one: most often)
                finder.next = k + 1
            else:
                k = finder.find(inst)
            if k >= 0:
                if k == last + 1:
                    last = k
                    continue
                if first >= 0:
                    words += source_words[starts[first] : starts[last + 1]]
                first = last = k
                continue
            if first >= 0:
                words += source_words[starts[first] : starts[last + 1]]
                first = last = -2
            if encoder is None:
                encoder = encoder_of(self.instructions)
            words.extend(encoder.instruction(inst))
        if first >= 0:
            words += source_words[starts[first] : starts[last + 1]]
        return words.tolist()

    def reuses_source(self) -> bool:
        """True when :meth:`to_words` copies the source's words: the program still holds
        at least a sixteenth as many instructions (else encoding them is quicker than
        finding them)."""
        source = self.source
        return source is not None and 16 * len(self.instructions) >= len(source.instructions)

    def holds(self, opcode: int, first: object = None) -> bool:
        """True when an instruction of ``opcode`` (whose operand 0 is ``first``, unless
        None) is in the program: a quick look a pass takes before it splits the program."""
        if first is None:
            return any(inst.opcode == opcode for inst in self.instructions)
        return any(
            inst.opcode == opcode and inst.operands and inst.operands[0] == first
            for inst in self.instructions
        )

    def read_words(self) -> Callable[[Instruction], tuple[int, ...] | None]:
        """A function giving the words an instruction of the program was read from (None
        for one no source holds: a pass made it, or the program was not read from words),
        for a pass that keys instructions by their words without encoding them again."""
        source = self.source
        if source is None:
            return _no_words
        starts = offsets(source.words)
        if len(starts) != len(source.instructions):
            return _no_words
        starts.append(len(source.words))
        return _ReadWords(_SourceFinder(source.instructions), source.words, starts)

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
        return Program(
            self.version,
            self.generator,
            self.bound,
            list(self.instructions),
            self.capability_mode,
            self.source,
        )


def _no_words(inst: Instruction) -> tuple[int, ...] | None:
    return None


class _ReadWords:
    """:meth:`Program.read_words`'s function (an object, not a closure: compiled, a
    closure and its scope hold each other until a collection)."""

    def __init__(self, finder: _SourceFinder, words: array[int], starts: list[int]) -> None:
        self.finder = finder
        self.words = words
        self.starts = starts

    def __call__(self, inst: Instruction) -> tuple[int, ...] | None:
        k = self.finder.find(inst)
        return None if k < 0 else tuple(self.words[self.starts[k] : self.starts[k + 1]])


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


_BOUNDARIES = frozenset({OP_FUNCTION, OP_FUNCTION_END, OP_LABEL})
_OPCODE = itemgetter(0)  # an instruction's opcode (field 0), for a scan in C


def split(program: Program, pass_name: str) -> Layout:
    """The program's functions and blocks; PassError (of ``pass_name``) for an instruction
    outside a function after the first one, or one between a function's parameters and its
    first block.

    One scan finds the instructions that open or close a function or a block; what lies
    between two of them is taken as one slice."""
    instructions = program.instructions
    boundaries = [k for k, op in enumerate(map(_OPCODE, instructions)) if op in _BOUNDARIES]
    first = next(
        (k for k in boundaries if instructions[k].opcode == OP_FUNCTION), len(instructions)
    )
    functions: list[Function] = []
    current: Function | None = None
    lines: list[Instruction] = []  # OpLine/OpNoLine after a function, for the next one
    done = first  # instructions[:done] are placed

    for k in boundaries:
        if k < first:
            continue
        if current is not None:
            _place(pass_name, instructions[done:k], current, lines)
        inst = instructions[k]
        opcode = inst.opcode
        if opcode == OP_FUNCTION:
            if current is not None and current.end is None:
                _refuse(pass_name, "a function starts before the last one ended", inst)
            if inst.result_id is None:
                raise PassError(pass_name, "a function without its id", opcode_name(opcode))
            current = Function([inst], lines=list(lines))
            lines.clear()
            functions.append(current)
        else:
            assert current is not None
            if current.end is not None:
                _refuse(pass_name, "an instruction between functions", inst)
            if opcode == OP_FUNCTION_END:
                current.end = inst
            elif inst.result_id is None:
                raise PassError(pass_name, "a label without its id", opcode_name(opcode))
            else:
                current.blocks.append(Block(inst))
        done = k + 1
    if current is not None:
        _place(pass_name, instructions[done:], current, lines)
    if lines:
        _refuse(pass_name, "an instruction after the functions, outside any", lines[0])
    return Layout(instructions[:first], functions)


def _place(
    pass_name: str, between: list[Instruction], current: Function, lines: list[Instruction]
) -> None:
    """Give ``between`` (the instructions after ``current``'s last boundary, none of them
    one) to where they belong: its last block, its parameters, or ``lines`` after its end.
    (A module-level function, not a closure: compiled, a closure and its scope hold each
    other until a collection.)"""
    if not between:
        return
    if current.end is not None:
        for inst in between:
            if inst.opcode not in _LINES:
                _refuse(pass_name, "an instruction between functions", inst)
        lines.extend(between)
    elif current.blocks:
        current.blocks[-1].body += between
    else:
        for inst in between:
            if inst.opcode != OP_FUNCTION_PARAMETER:
                _refuse(pass_name, "an instruction before the function's first block", inst)
            current.start.append(inst)


def _refuse(pass_name: str, what: str, inst: Instruction) -> NoReturn:
    raise PassError(pass_name, what, opcode_name(inst.opcode), inst.result_id)


def join(layout: Layout) -> list[Instruction]:
    """The instructions of ``layout`` in module order."""
    out = list(layout.head)
    for function in layout.functions:
        out += function.instructions()
    return out
