"""The binary reader: SPIR-V words → typed :class:`~spvbuild.ir.instruction.Instruction` records.

``read(data)`` is the inverse of :func:`spvbuild.binary.encoder.encode_module`.  Like the encoder it
is generic: every operand layout comes from ``spvbuild.generated.core.tables`` (or an
extended set's tables for ``OpExtInst``) and every operand is decoded by its kind's
class (``spvbuild.generated.core.operand_classes``); there is no code per instruction.

Typed values follow the encoder's conventions exactly: ids become :class:`Id` (the result
of a type declaration, a reference to a declared type and every result type a
:class:`TypeId`), literals ``int`` / ``float`` / ``str``, enum operands members of the
generated enums or instances of the generated parameter classes (a mask with parameters:
a list ``[flags of the other bits, Param(...), ...]`` in increasing bit order), pair kinds
tuples, absent optional operands ``None`` and variadic operands tuples.  ``OpExtInst`` of a
known set has ``ext_set`` set and operands ``(set_id, number, *set_operands)``;
``OpSpecConstantOp`` has ``(Op.X, (embedded operands...))``.

Losslessness
    A typed value is kept only when encoding it again gives back exactly the same words;
    anything else (a NaN with a payload, a non-canonical sign extension, invalid UTF-8 or
    non-zero string padding) is kept as :class:`RawWords`.  An enum value or mask bit the
    grammar does not know makes the rest of the instruction one :class:`RawWords` at that
    operand's position (its parameters cannot be known); later positions of the layout
    are then ``None`` (optional), ``()`` (variadic) or ``RawWords()`` (required: their
    words are in the raw operand).  An unknown opcode keeps its words as
    ``operands=(RawWords(...),)``; an ``OpExtInst`` of an unknown set (or instruction
    number) as ``(set_id, number, (RawWords(...),))``; words past the end of the grammar's
    layout are appended as one extra ``RawWords`` operand.  So ``to_words()`` of a module
    fresh from :func:`read` reproduces the input, always.

Errors
    Every problem is a :class:`~spvbuild.errors.BinaryError` carrying the word offset: a
    short or ragged input, a bad magic number, a word count of 0 or past the end, an
    instruction shorter than its grammar requires, a string without NUL, an id of 0 or not
    below the bound.  Nothing is allocated by a count the input claims.

Design for speed
    Full typed decoding creates a NamedTuple, an operand tuple and an id lookup per
    operand for every instruction; CPython does that at about one million instructions
    per second, not the several million a reader should manage.  So the work is split
    (``bench/bench_read.py`` reports both figures):

    * :func:`read` converts bytes to an ``array`` of words in C (``frombytes``,
      ``byteswap()`` for the other byte order; no Python int per word up front), checks
      the header and walks the word counts in one tight loop (the read engine's
      ``split``, see :mod:`spvbuild.binary.read_engine`) that counts the instructions and checks
      the framing once per distinct first word (opcode and
      word count): word count 0, shorter than the opcode's grammar minimum (that rare
      case goes to the general decoder for the exact message, or for an unknown enum
      value that leaves the length open), past the end (only the last instruction can
      be).  ``ReadModule`` keeps the words and the distinct first words.
    * ``ReadModule.instructions`` decodes them on first access (``read(data, lazy=False)``
      does it at once), with the garbage collector paused, in one loop over the
      instructions (the read engine's ``decode``).
      A plan per distinct first word, computed from the tables (``CorePlan.code``), gives
      the path of an instruction from one dict lookup.  The commonest layouts of ids only
      whose word count leaves every optional operand absent (``OpIAdd``, ``OpLoad``/
      ``OpStore`` without a memory-access mask, ``OpAccessChain`` of one index,
      ``OpLabel``, ``OpBranch``, ``OpReturn``, ...) have inline paths: the first five
      words in one read, ids looked up in a list of :class:`Id` objects
      indexed by word (made in bulk; a dict filled on first sight instead when the bound
      exceeds the number of words, so that nothing is allocated by the bound alone),
      ``tuple.__new__`` of the NamedTuple.
    * Every other layout of one-word operands takes a *one-word path*
      (``CorePlan.fit``, from the tables): ids; plain literals (``LiteralInteger`` and
      the like); enum values without parameters (a ValueEnum member, a BitEnum mask none
      of whose bits takes parameters: ``OpVariable``'s storage class, ``OpFunction``,
      ``OpSelectionMerge``, ``OpLoopMerge``, ``OpDecorate Block``); a variadic operand of
      such items (``OpCompositeExtract``, ``OpVectorShuffle``, ``OpBranchConditional``,
      ``OpCompositeConstruct``, ``OpFunctionCall``) or of pairs of ids (``OpPhi``); absent
      optional operands (None, ``()``); and, when the words are more than that, the last
      enum operand that has enumerants with parameters taking the rest as one-word
      parameters (``OpLoad``/``OpStore ... Aligned 4``, ``OpDecorate ... Location 0``,
      ``OpMemberDecorate ... Offset 16``, ``OpExecutionMode ... LocalSize 8 8 1``,
      image operands ``Lod %x``).  ``OpExtInst`` of a known set takes one too, by the
      set's grammar (``GLSL.std.450 Sqrt``/``FMix``, debug-info instructions), per set
      id, instruction number and word count (``_ExtPlans``; forgotten when an
      ``OpExtInstImport`` is decoded).  The path is a *decoder* made for the first word:
      a function whose body is one expression made for the reading's shape
      (``_recipe``: source from word indices and names only, compiled once per process
      per shape) in which each operand word, from the window or ``words[i + k]``, indexes
      the lookup of its operand: the ids, an ``_EnumTable`` (value → exactly what the
      general decoder gives, filled on first sight; KeyError for an unknown value or one
      with parameters) or a ``_ParamTable`` (value → a function of the parameter words
      making the generated parameter object, or the list of a mask; KeyError unless the
      value's parameters are exactly the words left).  Each enum lookup so checks the
      words its value takes, and the general decoder reads the words the same way
      whenever every lookup succeeds.  Making a decoder costs what decoding a few
      instructions saves, so it is made on the third sight of its first word (before:
      the general decoder, or ``_Reader.ids_only`` for ids).  The tables refer to the
      reader weakly: no reference cycle keeps a decoded module's reader alive.
    * A lookup of any path that fails (an id past the bound: IndexError; a result type
      not declared yet, an enum value the path does not take: KeyError) hands the
      instruction to the general decoder, which makes the value, keeps it raw or says
      where.  Id 0 does not fail a list lookup: it gives item 0, a marker.  Its reference
      count after the loop (or before an error of the general decoder propagates) tells
      whether an instruction holds it (anywhere: in a pair, a mask's list, a parameter);
      then the first one gets the general decoder's error, as it would have at once.
    * 32-bit ``OpConstant``/``OpSpecConstant`` of a type declared before are decoded
      inline too.  Other context-dependent literals (wider constants, ``OpSwitch``) wait
      until the loop has seen every ``OpTypeInt``/``OpTypeFloat``, so that they are sized
      exactly as the encoder will size them (``encode_module``: the last definition of
      an id wins; inline constants are redone if a numeric type id is defined twice).
    * Everything else (strings, floats, other composites, unknown opcodes, words past
      the layout) goes through the general, table-walking decoder.

    What the loop costs is mostly the objects it must make (the NamedTuple, the operand
    tuple, fresh memory for both), so it stays one sequential loop: decoding column-wise
    per layout (``map``/``zip`` over the offsets of each group, results scattered back)
    was measured no faster, the gathers by computed index cost what the loop's
    indexing does, and the order-dependent state (type ids, widths) stays simple.

    The two loops (framing and fast-path dispatch) are the read engine's ``split`` and
    ``decode`` (:mod:`spvbuild.binary.read_engine`), written once, with the codes of
    :mod:`spvbuild.binary.read_codes`, the lookups passed in and the fallback (``_fallback``)
    here; every decoder, table and the general decoder are the ones here.  Compiled (the
    wheel's, or a current development copy, and ``SPVBUILD_PURE_PYTHON`` not set) they
    read the module's bytes a byte at a time in C and take about half the time on a big
    module: what is left is mostly the objects themselves.  :func:`engine_kind`
    says which form runs.
"""

from __future__ import annotations

import functools
import gc
import operator
import struct
import sys
import weakref
from array import array
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, Literal, NamedTuple

from spvbuild.accel import engines
from spvbuild.binary import read_codes as _codes
from spvbuild.binary.encoder import MAGIC, _number_words, encode_module
from spvbuild.binary.number_types import FLOAT32, UINT32, NumberType, declared_number_type
from spvbuild.binary.strings import string_in
from spvbuild.errors import ArgumentError, BinaryError, EncodeError
from spvbuild.generated.core import operand_classes as _classes
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_EXT_INST_IMPORT,
    OP_SPEC_CONSTANT,
    OP_SPEC_CONSTANT_OP,
    OP_SWITCH,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
)
from spvbuild.ir.ids import Id, TypeId
from spvbuild.ir.instruction import Instruction, RawWords
from spvbuild.ir.params import EnumerantParameters
from spvbuild.ir.tables import InstructionInfo, KindInfo, OperandInfo, id_run

__all__ = ["ReadModule", "engine_kind", "read", "words_of"]

TYPE_DECLARATION = "Type-Declaration"

Endianness = Literal["little", "big"]
# (width, is_float, signed, typed): the encoder's number context plus whether a typed
# value may be produced at all (False for float types with an FPEncoding operand).
_Context = NumberType  # how a literal sized by a type is read
_DEFAULT_CONTEXT: _Context = UINT32
_FLOAT32: _Context = FLOAT32
_WINDOW_WORDS = 5  # the words of an instruction the fast paths are given (w0 to w4)

# Fast paths, one per first word (see CorePlan.code and spvbuild.binary.read_codes).
_GENERAL = _codes.GENERAL
_DEFERRED = _codes.DEFERRED
_BINARY = _codes.BINARY
_LOAD = _codes.LOAD
_STORE = _codes.STORE
_CHAIN = _codes.CHAIN
_CONSTANT = _codes.CONSTANT
_UNARY = _codes.UNARY
_LABEL = _codes.LABEL
_JUMP = _codes.JUMP
_BARE = _codes.BARE
_CALL = _codes.CALL
_EXT = _codes.EXT

# How CorePlan.fit reads the operand words of a layout (item 0 of a Reading).
FLAT = 0  # one-word operands, then absent ones
VARIADIC = 1  # one-word operands, a variadic operand (one-word items, id pairs), absent ones
PARAMS = 2  # one-word operands, an enum value with parameters to the end, absent ones
# How a one-word path reads an operand of a kind (its "spec"): an id, a plain literal or
# an enum value (the kind's name, see _EnumTable); a pair of ids (variadic only).
SPEC_ID = "@id"
SPEC_LITERAL = "@literal"
SPEC_PAIR = "@pair"
_IDS = (_classes.ID, _classes.RESULT_TYPE, _classes.RESULT_ID)
_ONE_WORD_LITERALS = (_classes.LITERAL, _classes.EXT_INST_NUMBER, _classes.SPEC_CONSTANT_OPCODE)
_ENUMS = (_classes.VALUE_ENUM, _classes.BIT_ENUM)
_ID_OR_LITERAL = (*_IDS, _classes.LITERAL)
# Classes whose words a type sizes: the literal of OpConstant and of an OpSwitch pair.
_SIZED_BY_A_TYPE = (_classes.CONTEXT_NUMBER, _classes.SWITCH_PAIR)
_LITERALS = range(1 << 32)  # word → the word: a plain literal's lookup
# (form, specs of the one-word operands, the variadic operand's spec or the kind of the
# enum with parameters, the words of that operand or its parameters, the absent tail)
Reading = tuple[int, tuple[str, ...], str, int, tuple[Any, ...]]
# A decoder of one first word: (offset, w0 ... w4) → the instruction.
_Decoder = Callable[[int, int, int, int, int, int], Instruction]


class ReadModule:
    """A module as read from a binary: header fields and typed instructions.

    ``instructions`` is decoded from the words on first access (a
    :class:`~spvbuild.errors.BinaryError` about an operand surfaces then, unless
    :func:`read` was called with ``lazy=False``).  ``to_words()`` encodes the module again
    with :func:`spvbuild.binary.encoder.encode_module`; for a module fresh from :func:`read` the
    words are identical to the input.
    """

    __slots__ = (
        "version",
        "generator",
        "bound",
        "schema",
        "endianness",
        "_instructions",
        "_words",
        "_framing",
        "_count",
        "_version_word",
    )

    def __init__(
        self,
        version: tuple[int, int],
        generator: int,
        bound: int,
        schema: int,
        endianness: Endianness,
        instructions: list[Instruction],
    ) -> None:
        self.version = version
        """(major, minor) of the header's version word."""
        self.generator = generator
        """The generator's magic number (header word 2)."""
        self.bound = bound
        """The id bound: every id is below it."""
        self.schema = schema
        """Header word 4 (0 in every SPIR-V version so far)."""
        self.endianness: Endianness = endianness
        """Byte order of the input ("little" for a sequence of words)."""
        self._instructions: list[Instruction] | None = instructions
        self._words: array[int] | None = None
        # until decoded: the offset of every instruction, the first words (see _split)
        self._framing: _Framing | None = None
        self._count = len(instructions)
        self._version_word: int | None = None

    @classmethod
    def _from_words(
        cls, words: array[int], framing: _Framing, endianness: Endianness
    ) -> ReadModule:
        module = cls(_version_of(words[1]), words[2], words[3], words[4], endianness, [])
        module._instructions = None
        module._words = words
        module._framing = framing
        module._count = framing[0]
        module._version_word = words[1]
        return module

    @property
    def instructions(self) -> list[Instruction]:
        """The instructions in module order (decoded from the words on first access)."""
        if self._instructions is None:
            assert self._words is not None and self._framing is not None
            self._instructions = _Reader(self._words, self.bound).run(*self._framing)
            self._words = self._framing = None
        return self._instructions

    @instructions.setter
    def instructions(self, value: list[Instruction]) -> None:
        self._instructions = value
        self._words = self._framing = None

    def __len__(self) -> int:
        """The number of instructions (known without decoding them)."""
        return len(self._instructions) if self._instructions is not None else self._count

    def to_words(self) -> list[int]:
        """The module as SPIR-V words (header included), through the encoder."""
        words = encode_module(
            self.instructions, self.bound, self.version, self.generator, schema=self.schema
        )
        # Bits of the version word outside major/minor survive while version is unchanged.
        if self._version_word is not None and self.version == _version_of(self._version_word):
            words[1] = self._version_word
        return words

    def to_bytes(self, endianness: Endianness | None = None) -> bytes:
        """The module as bytes, in the byte order it was read in unless told otherwise."""
        out = array(_WORD_CODE, self.to_words())
        if (endianness or self.endianness) != sys.byteorder:
            out.byteswap()
        return out.tobytes()

    def __repr__(self) -> str:
        return (
            f"ReadModule(version={self.version}, generator=0x{self.generator:08x}, "
            f"bound={self.bound}, schema={self.schema}, endianness={self.endianness!r}, "
            f"{len(self)} instructions)"
        )


def read(data: bytes | bytearray | memoryview | Sequence[int], *, lazy: bool = True) -> ReadModule:
    """Read a SPIR-V binary.

    ``data`` is bytes in either byte order (the magic number decides) or a sequence of
    32-bit words.  The header and the framing of every instruction are checked here;
    the operands are decoded on first access of ``instructions`` (at once with
    ``lazy=False``).  Either step raises :class:`~spvbuild.errors.BinaryError` (with the
    word offset) for input that is not a well-formed module; unknown opcodes, enum values
    and extended sets are not errors, they are kept as :class:`RawWords`.
    """
    words, endianness = _to_array(data, "read")
    _check_header(words)
    module = ReadModule._from_words(words, _split(words), endianness)
    if not lazy:
        module.instructions  # noqa: B018 - decode now
    return module


def words_of(
    data: bytes | bytearray | memoryview | Sequence[int], caller: str = "words_of"
) -> tuple[array[int], Endianness]:
    """The words of a binary (header included, in native byte order) and its byte order:
    only the byte count, the magic number and the 5-word header are checked here
    (BinaryError).  :func:`read` then checks the framing of every instruction with
    :func:`frame`, which a consumer of the words (the disassembler) calls too.  An array,
    not a list: four bytes a word instead of a Python int each (indexing it is as fast).
    ``caller`` names the public function in the message of an ArgumentError (data of a
    wrong type)."""
    words, endianness = _to_array(data, caller)
    _check_header(words)
    return words, endianness


def _check_header(words: array[int]) -> None:
    if len(words) < 5:
        raise BinaryError(len(words), f"a module has a 5-word header, got {len(words)} words")


def _version_of(word: int) -> tuple[int, int]:
    return ((word >> 16) & 0xFF, (word >> 8) & 0xFF)


# What _split gives: the number of instructions and the distinct first words.
_Framing = tuple[int, set[int]]


class Framing(NamedTuple):
    """What :func:`frame` finds: the framing of a module's instructions."""

    instructions: int
    """The number of instructions before ``end``."""
    firsts: set[int]
    """Their distinct first words (opcode and word count) that are at least the opcode's
    grammar minimum (those below it were handed to ``short``)."""
    end: int
    """The offset of the first instruction whose word count is 0 or runs past the end of
    the module; the number of words when there is none."""


class _Cut(Exception):
    """The instruction at ``args[0]`` has word count 0 or runs past the end."""


def frame(words: array[int], short: Callable[[int], None] | None = None) -> Framing:
    """Walk the word counts of a module's instructions (``words``: header included, as
    :func:`words_of` gives them) once, by the read engine's
    :func:`~spvbuild.binary.read_engine.split`: the one framing walk of every consumer
    (the reader, :class:`~spvbuild.ir.module.Module`'s ``from_binary`` through it, the
    disassembler).

    It stops at the first instruction whose word count is 0 or that runs past the end
    (``end``; what to say about it is the consumer's: the reader raises at once, the
    disassembler after printing what comes before).  ``short(offset)`` is called, in
    order, for each instruction before it whose word count is below its opcode's grammar
    minimum (it may raise); only the first words of the others are in ``firsts``.
    """
    engine = _engine()
    data, n = engine.prepare(words)
    lowest = core_plan().lowest

    def check(i: int) -> None:
        count = words[i] >> 16
        if not count or i + count > n:
            raise _Cut(i)
        if short is not None:
            short(i)

    try:
        count, firsts = engine.split(data, n, lowest, check)
        return Framing(count, firsts, n)
    except _Cut as cut:
        end: int = cut.args[0]
    # the instructions before the cut (they end exactly there): counted again, rare
    count, firsts = engine.split(data, end, lowest, check)
    return Framing(count, firsts, end)


def _split(words: array[int]) -> _Framing:
    """Check the framing of every instruction, by :func:`frame`: raise at a word count of
    0 or past the end, and let the general decoder check every instruction shorter than
    its grammar minimum (it names the missing operand, or keeps the instruction when an
    unknown enum value leaves its length open).

    Return their number and the distinct first words (opcode and word count) that are at
    least the opcode's grammar minimum: the decoder plans per first word.
    """
    framing = frame(words, functools.partial(_check_short, words))
    if framing.end < len(words):
        raise _framing_error(words, framing.end)
    return framing.instructions, framing.firsts


def offsets(words: Sequence[int], start: int = 5, stop: int | None = None) -> list[int]:
    """The offset of every instruction from ``start`` (an instruction's offset) up to the
    first at ``stop`` or later (the end by default), whose framing :func:`frame` checked."""
    found: list[int] = []
    append = found.append
    n = len(words) if stop is None else stop
    i = start
    while i < n:
        append(i)
        i += words[i] >> 16
    return found


# The read engine the reader runs (spvbuild.binary.read_engine: its compiled copy when current,
# else the module itself), looked up on first use: a 1-tuple.
_engine_found: tuple[ModuleType] | None = None


def _engine() -> ModuleType:
    """The form of :mod:`spvbuild.binary.read_engine` that runs: a compiled one when there is
    one (the wheel's, or a current development copy; see :mod:`spvbuild.accel.engines`;
    never with ``SPVBUILD_PURE_PYTHON`` set), else the module itself, interpreted."""
    global _engine_found
    if _engine_found is None:
        _engine_found = (engines.load("read_engine"),)
    return _engine_found[0]


def engine_kind() -> str:
    """``"mypyc"`` when the reader runs a compiled form of :mod:`spvbuild.binary.read_engine`,
    ``"python"`` when it runs it interpreted."""
    return engines.kind(_engine())


def _framing_error(words: array[int], i: int) -> BinaryError:
    """The error of an instruction whose word count is 0 or runs past the end."""
    count = words[i] >> 16
    name = _Reader(words, words[3])._name(words[i] & 0xFFFF)
    if not count:
        return BinaryError(i, f"{name}: word count 0")
    return BinaryError(
        i, f"{name}: word count {count} runs past the end of the module ({len(words) - i} left)"
    )


def _check_short(words: array[int], i: int) -> None:
    """Decode an instruction shorter than its grammar minimum with the general decoder
    (rare: out of the tight loop): it raises the error that names the missing operand,
    unless an unknown enum value leaves the instruction's length open."""
    w0 = words[i]
    _Reader(words, words[3]).instruction(i, i + (w0 >> 16), w0 & 0xFFFF, _DEFAULT_CONTEXT)


# -- bytes → words -----------------------------------------------------------------------

_WORD_CODE = "I"  # 32 bits on every platform CPython supports
assert array(_WORD_CODE).itemsize == 4


def _to_array(
    data: bytes | bytearray | memoryview | Sequence[int], caller: str
) -> tuple[array[int], Endianness]:
    """The words in native byte order (an array: the reader indexes it without making a
    Python int of every word up front) and the byte order of the input.  Data that is
    neither bytes nor an iterable of words (None, a number, a str) is an ArgumentError
    naming ``caller``."""
    if isinstance(data, bytes | bytearray | memoryview):
        view = memoryview(data)
        if view.format != "B" or view.ndim != 1 or not view.c_contiguous:
            view = memoryview(view.tobytes())
        size = view.nbytes
        if size >= 4:
            head = bytes(view[:4])
            if int.from_bytes(head, "little") == MAGIC:
                endianness: Endianness = "little"
            elif int.from_bytes(head, "big") == MAGIC:
                endianness = "big"
            else:
                raise BinaryError(
                    0,
                    f"bad magic 0x{int.from_bytes(head, 'little'):08x} "
                    f"(expected 0x{MAGIC:08x} in either byte order)",
                )
        if size % 4:
            raise BinaryError(size // 4, f"{size} bytes is not a whole number of 32-bit words")
        buffer = array(_WORD_CODE)
        if size < 4:
            return buffer, "little"
        buffer.frombytes(view)
        if endianness != sys.byteorder:
            buffer.byteswap()
        return buffer, endianness
    if isinstance(data, str) or not hasattr(data, "__iter__"):
        hint = "; assemble text with spvbuild.text.assembler.assemble" if isinstance(data, str) else ""
        raise ArgumentError(
            f"{caller}: expected a SPIR-V binary (bytes, bytearray, memoryview or a sequence "
            f"of 32-bit words), not {type(data).__name__}{hint}"
        )
    try:
        words = array(_WORD_CODE, data)
    except (TypeError, OverflowError, ValueError):
        for index, value in enumerate(data):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32:
                raise BinaryError(index, f"{value!r} is not a 32-bit word") from None
        raise BinaryError(0, "not a sequence of 32-bit words") from None
    if words and words[0] != MAGIC:
        raise BinaryError(0, f"bad magic 0x{words[0]:08x} (expected 0x{MAGIC:08x})")
    return words, "little"


# -- tables, prepared once ---------------------------------------------------------------


def _is_id(kinds: dict[str, KindInfo], name: str) -> bool:
    """True if operands of kind ``name`` are single ids."""
    kind = kinds.get(name)
    return kind is not None and kind.operand_class in _IDS


class InstructionSet:
    """The tables of core (or of one extended set with core's kinds under its own)."""

    def __init__(
        self,
        name: str | None,
        instructions: dict[int, InstructionInfo],
        kinds: dict[str, KindInfo],
        enum_classes: dict[str, Any],
        parameter_classes: dict[str, dict[int, type[EnumerantParameters]]],
    ) -> None:
        self.name = name
        self.instructions = instructions
        self.kinds = kinds
        self.enum_classes = enum_classes
        self.parameter_classes = parameter_classes
        self._members: dict[str, dict[int, Any]] = {}
        self._known_bits: dict[str, int] = {}
        self._layouts: dict[int, tuple[OperandInfo, ...]] = {}

    def layout(self, number: int, info: InstructionInfo) -> tuple[OperandInfo, ...]:
        """The operands after result type and result id (as the encoder strips them)."""
        found = self._layouts.get(number)
        if found is None:
            found = tuple(op for op in info.operands if op.kind not in ("IdResultType", "IdResult"))
            self._layouts[number] = found
        return found

    def member(self, kind: str, value: int) -> Any:
        """The enum member of ``value`` in ``kind``'s class, or None."""
        members = self._members.setdefault(kind, {})
        found = members.get(value)
        if found is None:
            cls = self.enum_classes.get(kind)
            if cls is None:
                return None
            try:
                found = cls(value)
            except (ValueError, TypeError):
                return None
            members[value] = found
        return found

    def known_bits(self, kind: KindInfo) -> int:
        """Every bit some enumerant of a BitEnum kind uses."""
        found = self._known_bits.get(kind.name)
        if found is None:
            found = 0
            for value in kind.enumerants:
                found |= value
            self._known_bits[kind.name] = found
        return found

    def uses_context(self, layout: Sequence[OperandInfo]) -> bool:
        """True if decoding needs the number context (a literal sized by a type)."""
        seen: set[str] = set()
        todo = [op.kind for op in layout]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            kind = self.kinds.get(name)
            if kind is not None:
                if kind.operand_class in _SIZED_BY_A_TYPE:
                    return True
                todo.extend(kind.bases)
                for enumerant in kind.enumerants.values():
                    todo.extend(p.kind for p in enumerant.parameters)
        return False


class CorePlan:
    """Core tables plus the plans of the fast paths (built on first read).

    A fast path is chosen per first word (opcode and word count, see :meth:`code`), so
    the decoder's loop knows the exact layout of an instruction from one dict lookup.
    """

    def __init__(self) -> None:
        from spvbuild.generated.core import enums, tables

        self.set = InstructionSet(
            None, tables.INSTRUCTIONS, tables.KINDS, enums.ENUM_CLASSES, enums.PARAMETER_CLASSES
        )
        self.op_enum: dict[int, Any] = {int(m): m for m in enums.Op}
        size = 0x10000
        # The smallest first word of each opcode: its grammar minimum as word count.
        self.lowest: list[int] = [(1 << 16) | opcode for opcode in range(size)]
        # Layouts of ids only: (result type, result id, ids, variadic tail, optionals).
        self.shapes: dict[int, tuple[bool, bool, int, bool, int]] = {}
        self.deferred: set[int] = set()  # opcodes with context-dependent literals
        self.header: dict[int, tuple[bool, bool, bool]] = {}
        self.ext_inst: frozenset[int] = tables.EXT_INST_OPCODES  # OpExtInst and its like
        # Layouts the one-word paths may read (see reading()); first word → its reading.
        self.word_layouts: dict[int, tuple[OperandInfo, ...]] = {}
        # memos (of a bounded size: the first words of the input are any words)
        self.codes: dict[int, int] = {}
        self.readings: dict[int, Reading | None] = {}
        self.ids_only: set[int] = set()  # first words of readings of ids only
        self.recipes: dict[int, tuple[Reading, Callable[..., _Decoder], _Names]] = {}
        self.ext_recipes: dict[
            tuple[str | None, int, int], tuple[Reading, Callable[..., _Decoder], _Names] | None
        ] = {}
        ext_inst = self.ext_inst
        for opcode, info in tables.INSTRUCTIONS.items():
            layout = self.set.layout(opcode, info)
            has_rt, has_rid = info.has_result_type, info.has_result
            is_type = info.cls == TYPE_DECLARATION
            self.header[opcode] = (has_rt, has_rid, is_type)
            required = sum(1 for op in layout if op.quantifier == "")
            self.lowest[opcode] = ((1 + has_rt + has_rid + required) << 16) | opcode
            if self.set.uses_context(layout):
                self.deferred.add(opcode)
            elif not is_type and opcode != OP_SPEC_CONSTANT_OP and opcode not in ext_inst:
                self._plan(opcode, layout, has_rt, has_rid, tables.KINDS)
                if has_rid or not has_rt:
                    self.word_layouts[opcode] = layout

    def _plan(
        self,
        opcode: int,
        layout: tuple[OperandInfo, ...],
        has_rt: bool,
        has_rid: bool,
        kinds: dict[str, KindInfo],
    ) -> None:
        """Record a layout of ids (then a variadic id, or absent optionals)."""
        run = id_run([(_is_id(kinds, op.kind), op.quantifier) for op in layout])
        if not run.plain:
            return
        if has_rt and not has_rid or has_rid and not has_rt and run.variadic:
            return
        self.shapes[opcode] = (has_rt, has_rid, run.required, run.variadic, run.optional)

    def code(self, first: int) -> int:
        """The fast path for instructions with this first word (opcode, word count)."""
        found = self.codes.get(first)
        if found is None:
            found = self._code(first)
            if len(self.codes) < _MEMO_LIMIT:
                self.codes[first] = found
        return found

    def _code(self, first: int) -> int:
        opcode, count = first & 0xFFFF, first >> 16
        if opcode == OP_CONSTANT or opcode == OP_SPEC_CONSTANT:
            return _CONSTANT if count == 4 else _DEFERRED
        if opcode in self.deferred:
            return _DEFERRED
        if opcode in self.ext_inst:
            has_rt, has_rid, _ = self.header[opcode]
            return _EXT if has_rt and has_rid and count >= 5 else _GENERAL
        shape = self.shapes.get(opcode)
        if shape is not None:
            found = self._shape_code(shape, count)
            if found != _GENERAL:
                return found
        return _GENERAL if self.reading(first) is None else _CALL

    def _shape_code(self, shape: tuple[bool, bool, int, bool, int], count: int) -> int:
        """The inline path of a layout of ids only (see _plan) for this word count, or
        _GENERAL (then a one-word path may take it)."""
        has_rt, has_rid, fixed, variadic, optional = shape
        ids = count - 1 - has_rt - has_rid  # words after the result id
        if variadic:
            return _CHAIN if has_rt and fixed == 1 and ids == 2 else _GENERAL
        if ids != fixed:  # an optional operand is present
            return _GENERAL
        if has_rt:
            found = {(2, 0): _BINARY, (1, 1): _LOAD, (1, 0): _UNARY}.get((fixed, optional))
            return _GENERAL if found is None else found
        if has_rid:
            return _LABEL if fixed == 0 and not optional else _GENERAL
        found = {(2, 1): _STORE, (1, 0): _JUMP, (0, 0): _BARE}.get((fixed, optional))
        return _GENERAL if found is None else found

    def reading(self, first: int) -> Reading | None:
        """How the one-word path of a first word reads its operands (see fit), or None."""
        if first in self.readings:
            return self.readings[first]
        opcode, count = first & 0xFFFF, first >> 16
        layout = self.word_layouts.get(opcode)
        found = None
        if layout is not None:
            has_rt, has_rid, _ = self.header[opcode]
            found = self.fit(self.set, layout, count - 1 - has_rt - has_rid)
        if len(self.readings) < _MEMO_LIMIT:
            self.readings[first] = found
            if found is not None and _ids_only(found):
                self.ids_only.add(first)
        return found

    def recipe(self, first: int) -> tuple[Reading, Callable[..., _Decoder], _Names]:
        """The reading and the recipe (see _recipe) of a first word that takes the
        one-word path."""
        found = self.recipes.get(first)
        if found is None:
            reading = self.reading(first)
            assert reading is not None
            has_rt, has_rid, _ = self.header[first & 0xFFFF]
            found = (reading, *_recipe(has_rt, has_rid, False, reading))
            if len(self.recipes) < _MEMO_LIMIT:
                self.recipes[first] = found
        return found

    def ext_recipe(
        self, ext: InstructionSet, number: int, first: int
    ) -> tuple[Reading, Callable[..., _Decoder], _Names] | None:
        """The reading and the recipe of an OpExtInst of a set (see fit), or None."""
        key = (ext.name, number, first)
        if key in self.ext_recipes:
            return self.ext_recipes[key]
        reading = self.ext_reading(ext, number, first)
        found = None if reading is None else (reading, *_recipe(True, True, True, reading))
        if len(self.ext_recipes) < _MEMO_LIMIT:
            self.ext_recipes[key] = found
        return found

    def ext_reading(self, ext: InstructionSet, number: int, first: int) -> Reading | None:
        """How a one-word path reads the operands of an OpExtInst (``first``: its first
        word) of instruction ``number`` of a set (see fit) after the set and the number,
        or None."""
        info = ext.instructions.get(number)
        if info is None:
            return None
        layout = ext.layout(number, info)
        return None if ext.uses_context(layout) else self.fit(ext, layout, (first >> 16) - 5)

    def fit(
        self, tables: InstructionSet, layout: Sequence[OperandInfo], count: int
    ) -> Reading | None:
        """How a one-word path reads ``count`` operand words of ``layout``, or None.

        Each operand is one word read by one lookup: an id, a plain literal, an enum value
        without parameters (a ValueEnum member, a BitEnum mask of bits without parameters:
        any other value fails the lookup, and the general decoder takes the instruction);
        a variadic operand takes the words left (one-word items or pairs of ids).  When
        the words are more than that reading takes, the last enum operand that has
        enumerants with parameters may take the rest as parameters (its lookup fails
        unless the value's parameters are exactly those words).  Whenever every lookup
        succeeds, the general decoder reads the words the same way: each enum lookup
        checks the words its value takes.
        """
        specs: list[str] = []
        for index, op in enumerate(layout):
            left = count - len(specs)
            if left == 0:
                tail = _absent(layout[index:])
                return None if tail is None else (FLAT, tuple(specs), "", 0, tail)
            spec = self.spec(tables, op.kind)
            if op.quantifier == "*":
                if spec is None or left % (2 if spec == SPEC_PAIR else 1):
                    return None
                tail = _absent(layout[index + 1 :])
                return None if tail is None else (VARIADIC, tuple(specs), spec, left, tail)
            if spec is None or spec == SPEC_PAIR:
                return None
            specs.append(spec)
        if count == len(specs):
            return (FLAT, tuple(specs), "", 0, ())
        # Words left: the parameters of the last enum operand that can take some.
        for index in range(len(specs) - 1, -1, -1):
            op = layout[index]
            kind = tables.kinds[op.kind]
            if kind.operand_class in _ENUMS and any(
                enumerant.parameters for enumerant in kind.enumerants.values()
            ):
                tail = _absent(layout[index + 1 :])
                if tail is None:
                    return None
                return (PARAMS, tuple(specs[:index]), op.kind, count - index - 1, tail)
        return None

    def spec(self, tables: InstructionSet, name: str) -> str | None:
        """How a one-word path reads an operand of kind ``name`` (see SPEC_ID), or None."""
        kind = tables.kinds.get(name)
        if kind is None:
            return None
        code = kind.operand_class
        if code in _IDS:
            return SPEC_ID
        if code in _ONE_WORD_LITERALS:
            return SPEC_LITERAL
        if code in _ENUMS:
            return name
        if code == _classes.ID_PAIR:
            return SPEC_PAIR
        return None


_DIRECT = 8  # up to this many operand words (items) a decoder indexes one by one
_MEMO_LIMIT = 1 << 14  # entries of a memo keyed by input words (see CorePlan)
# A first word's decoder is made on this sight of it (before, the general decoder takes
# it): making one costs what decoding a few instructions with it saves.
_SIGHTS = 3
# What a name of a decoder's expression is bound to (see _recipe): the lookup of a spec,
# the lookups of the reading's one-word operands (more than _DIRECT), the _ParamTable of
# the reading's enum, struct's unpack_from of the reading's variadic words.
_LOOKUP, _LOOKUPS, _PARAM_TABLE, _UNPACK = range(4)
_Names = tuple[tuple[str, int, str], ...]  # (name, what it is bound to, spec)
_Recipe = tuple[Callable[..., _Decoder], _Names]
_RECIPES: dict[tuple[bool, bool, bool, Reading], _Recipe] = {}  # bounded by the grammar


def _recipe(has_rt: bool, has_rid: bool, ext: bool, reading: Reading) -> _Recipe:
    """How to make the decoder of a reading (see _Reader._decoder): a function of the
    values its expression names, and for each name what it is bound to.

    The decoder's body is one expression made for the reading's shape: each operand word,
    a local of the window or ``words[i + k]``, indexes the lookup of its operand; that is
    much faster than mapping lookups over a slice.  Its source is made from the shape
    only (word indices, names, None and () for absent operands), never from input data,
    and each distinct one is compiled once per process."""
    form, specs, spec, count, tail = reading
    # The source depends on the count of variadic words up to _DIRECT only.
    key = (has_rt, has_rid, ext, (form, specs, spec, _shown(form, count), tail))
    found = _RECIPES.get(key)
    if found is not None:
        return found
    names: list[tuple[str, int, str]] = []
    parts = ["ids[w3]", "w4"] if ext else []
    pos = 1 + has_rt + has_rid + len(parts)  # word index of the next operand
    if len(specs) <= _DIRECT:
        for index, item in enumerate(specs):
            if item == SPEC_LITERAL:  # the word itself
                parts.append(_word(pos + index))
            else:
                names.append((f"L{index}", _LOOKUP, item))
                parts.append(f"L{index}[{_word(pos + index)}]")
    else:
        names.append(("LS", _LOOKUPS, ""))
        parts.append(f"*map(getitem, LS, words[i + {pos} : i + {pos + len(specs)}])")
    pos += len(specs)
    if form == VARIADIC:
        parts.append(_items(spec, pos, count, names))
    elif form == PARAMS:
        names.append(("P", _PARAM_TABLE, spec))
        parts.append(f"P[{_word(pos)}](words, i + {pos + 1})")
    parts.extend("None" if item is None else "()" for item in tail)
    header = "type_ids[w1], ids[w2]" if has_rt else "None, ids[w1]" if has_rid else "None, None"
    operands = "(" + "".join(f"{part}, " for part in parts) + ")"
    params = ", ".join(
        ("new, inst, getitem, words, ids, type_ids, op, ext_set", *(n for n, _, _ in names))
    )
    source = (
        f"def make({params}):\n"
        "    def decoder(i, w0, w1, w2, w3, w4):\n"
        f"        return new(inst, (op, {header}, {operands}, ext_set))\n"
        "    return decoder\n"
    )
    namespace: dict[str, Any] = {"_pairs": _pairs}
    exec(compile(source, "<spvbuild.binary.reader decoder>", "exec"), namespace)
    found = _RECIPES[key] = (namespace["make"], tuple(names))
    return found


def _shown(form: int, count: int) -> int:
    """What a decoder's source shows of a reading's count (see _items)."""
    return count if form == VARIADIC and count <= _DIRECT else -1


def _items(spec: str, pos: int, count: int, names: list[tuple[str, int, str]]) -> str:
    """The expression of a variadic operand of ``count`` words at word index ``pos``
    (a tuple of its items, pairs of ids as tuples, as the general decoder makes)."""
    if spec == SPEC_LITERAL:
        if pos + count <= _WINDOW_WORDS or count <= 2:
            return "(" + "".join(f"{_word(pos + k)}, " for k in range(count)) + ")"
        names.append(("V", _UNPACK, ""))
        return f"V(words, (i + {pos}) << 2)"
    names.append(("V", _LOOKUP, SPEC_ID if spec == SPEC_PAIR else spec))
    if count > _DIRECT:
        slice_ = f"words[i + {pos} : i + (w0 >> 16)]"  # the last operand
        if spec == SPEC_PAIR:
            return f"_pairs(map(V.__getitem__, {slice_}))"
        return f"tuple(map(V.__getitem__, {slice_}))"
    items = [f"V[{_word(pos + k)}]" for k in range(count)]
    if spec == SPEC_PAIR:
        items = [f"({items[k]}, {items[k + 1]})" for k in range(0, count, 2)]
    return "(" + "".join(f"{item}, " for item in items) + ")"


_UNPACKERS: dict[int, Callable[[array[int], int], tuple[int, ...]]] = {}


def _unpacker(count: int) -> Callable[[array[int], int], tuple[int, ...]]:
    """unpack_from of ``count`` words in native order (as the reader's array holds them)."""
    found = _UNPACKERS.get(count)
    if found is None:
        found = _UNPACKERS[count] = struct.Struct(f"={count}I").unpack_from
    return found


def _word(index: int) -> str:
    """The expression of an instruction's word in a decoder: a local of the window or
    an index of the words."""
    return f"w{index}" if index < _WINDOW_WORDS else f"words[i + {index}]"


def _pairs(items: Iterator[Any]) -> tuple[tuple[Any, Any], ...]:
    return tuple(zip(items, items, strict=False))


def _ids_only(reading: Reading) -> bool:
    """True for a reading of ids (then a variadic id)."""
    form, specs, spec, _, _ = reading
    ids = all(item == SPEC_ID for item in specs)
    return ids and (form == FLAT or form == VARIADIC and spec == SPEC_ID)


def _absent(layout: Sequence[OperandInfo]) -> tuple[Any, ...] | None:
    """What the general decoder gives for operands past the last word (None, ()), or None
    if one is required."""
    tail: list[Any] = []
    for op in layout:
        if op.quantifier == "":
            return None
        tail.append(None if op.quantifier == "?" else ())
    return tuple(tail)


@functools.cache
def core_plan() -> CorePlan:
    """The core plan, made once per process."""
    return CorePlan()


@functools.cache
def ext_tables(import_name: str) -> InstructionSet | None:
    """The tables of the set imported as ``import_name`` over core's, made once; None for
    a set the grammars do not have."""
    from spvbuild.generated.extinst import set_module

    module = set_module(import_name)
    if module is None:
        return None
    core = core_plan().set
    return InstructionSet(
        import_name,
        module.INSTRUCTIONS,
        {**core.kinds, **module.KINDS},
        {**core.enum_classes, **module.ENUM_CLASSES},
        {**core.parameter_classes, **module.PARAMETER_CLASSES},
    )


# -- the decoder -------------------------------------------------------------------------


class _BadId(KeyError):
    """An id of 0 or not below the bound (the caller knows where)."""


class _RestRaw(Exception):
    """An enum value the grammar lacks: the rest of the instruction cannot be typed."""


class _Defer(Exception):
    """A context-dependent literal before the contexts are final."""


class _IdTable(dict[int, Id]):
    """word → the one Id (or TypeId) object for it, created on first sight."""

    __slots__ = ("bound", "make")

    def __init__(self, bound: int, make: Callable[[int], Id]) -> None:
        super().__init__()
        self.bound = bound
        self.make = make

    def __missing__(self, word: int) -> Id:
        if 0 < word < self.bound:
            value = self.make(word)
            self[word] = value
            return value
        raise _BadId(word)


class _EnumTable(dict[int, Any]):
    """value → what the general decoder gives for a one-word operand of an enum kind (a
    ValueEnum member without parameters, the flags of a BitEnum mask none of whose bits
    takes parameters), filled on first sight; KeyError for any other value."""

    __slots__ = ("tables", "kind")

    def __init__(self, tables: InstructionSet, kind: KindInfo) -> None:
        super().__init__()
        self.tables = tables
        self.kind = kind

    def __missing__(self, value: int) -> Any:
        tables, kind = self.tables, self.kind
        found = None
        if kind.operand_class == _classes.VALUE_ENUM:
            enumerant = kind.enumerants.get(value)
            if enumerant is not None and not enumerant.parameters:
                found = tables.member(kind.name, value)
        elif not value & ~tables.known_bits(kind):  # BitEnum: as _Reader._bit_enum
            found = tables.member(kind.name, value)
            bit = 1
            while found is not None and bit <= value:
                if value & bit:
                    enumerant = kind.enumerants.get(bit)
                    if enumerant is not None and enumerant.parameters:
                        found = None
                bit <<= 1
        if found is None:
            raise KeyError(value)
        self[value] = found
        return found


# A _ParamTable entry: (words, offset of the first parameter word) → the operand.
_ParamMaker = Callable[["array[int]", int], Any]


class _ParamTable(dict[int, _ParamMaker]):
    """value → a function that gives what the general decoder gives for an enum operand
    of this value taking exactly ``count`` words of one-word parameters (an instance of
    the generated parameter class; for a BitEnum the list of the flags of the other bits
    and the instances), filled on first sight; KeyError for any other value."""

    __slots__ = ("reader", "tables", "kind", "count")

    def __init__(self, reader: _Reader, tables: InstructionSet, kind: KindInfo, count: int):
        super().__init__()
        self.reader = reader
        self.tables = tables
        self.kind = kind
        self.count = count

    def __missing__(self, value: int) -> _ParamMaker:
        found = self._make(value)
        if found is None:
            raise KeyError(value)
        self[value] = found
        return found

    def _make(self, value: int) -> _ParamMaker | None:
        tables, kind = self.tables, self.kind
        classes = tables.parameter_classes.get(kind.name, {})
        groups: list[tuple[type[EnumerantParameters], tuple[OperandInfo, ...]]] = []
        prefix: list[Any] | None = None
        if kind.operand_class == _classes.VALUE_ENUM:  # as _Reader._value_enum
            enumerant = kind.enumerants.get(value)
            if enumerant is None or tables.member(kind.name, value) is None:
                return None
            cls = classes.get(value)
            if not enumerant.parameters or cls is None:
                return None
            groups.append((cls, enumerant.parameters))
        else:  # as _Reader._bit_enum
            if value & ~tables.known_bits(kind) or tables.member(kind.name, value) is None:
                return None
            param_bits = 0
            bit = 1
            while bit <= value:
                if value & bit:
                    enumerant = kind.enumerants.get(bit)
                    if enumerant is not None and enumerant.parameters:
                        cls = classes.get(bit)
                        if cls is None:
                            return None
                        groups.append((cls, enumerant.parameters))
                        param_bits |= bit
                bit <<= 1
            if not groups:
                return None
            rest = value & ~param_bits
            prefix = [tables.member(kind.name, rest)] if rest else []
        lookups: list[Any] = []
        sizes: list[tuple[Callable[..., EnumerantParameters], int]] = []
        for cls, parameters in groups:
            for op in parameters:
                spec = self.reader.plan.spec(tables, op.kind)
                if op.quantifier != "" or spec is None or spec == SPEC_PAIR:
                    return None
                lookups.append(self.reader.lookup(tables, spec))
            sizes.append((cls, len(parameters)))
        if len(lookups) != self.count:
            return None
        return _param_maker(prefix, sizes, tuple(lookups))


def _param_maker(
    prefix: list[Any] | None,
    sizes: list[tuple[Callable[..., EnumerantParameters], int]],
    lookups: tuple[Any, ...],
) -> _ParamMaker:
    """The function of a _ParamTable entry (see there)."""
    if len(lookups) == 1:  # one class, one word (MemoryAccess.Aligned, Decoration.Location)
        cls = sizes[0][0]
        (lookup,) = lookups
        if prefix is None:
            return lambda words, pos: cls(lookup[words[pos]])
        if not prefix:
            return lambda words, pos: [cls(lookup[words[pos]])]
        (flags,) = prefix
        return lambda words, pos: [flags, cls(lookup[words[pos]])]
    getitem = operator.getitem
    count = len(lookups)

    def make(words: array[int], pos: int) -> Any:
        values = list(map(getitem, lookups, words[pos : pos + count]))
        if prefix is None:
            return sizes[0][0](*values)
        out = list(prefix)
        at = 0
        for cls, size in sizes:
            out.append(cls(*values[at : at + size]))
            at += size
        return out

    return make


class _ExtPlans(dict[int, "_ExtSetPlans"]):
    """set id word → the one-word paths of the instructions of that extended set (the
    set's name known from its OpExtInstImport); KeyError for any other word.  Cleared
    when an OpExtInstImport is decoded."""

    __slots__ = ("reader",)

    def __init__(self, reader: _Reader) -> None:
        super().__init__()
        self.reader = reader

    def __missing__(self, word: int) -> _ExtSetPlans:
        name = self.reader.ext_names.get(word)
        ext = ext_tables(name) if name is not None else None
        if name is None or ext is None:
            raise KeyError(word)
        found = self[word] = _ExtSetPlans(self.reader, name, ext)
        return found


class _ExtSetPlans(dict[int, _Decoder]):
    """(instruction number << 32 | first word) → the decoder of an OpExtInst of one set
    whose operands take the one-word path (see CorePlan.fit), made on the second sight
    of the key (see _Decoders); KeyError if they do not, or on the first sight."""

    __slots__ = ("reader", "name", "ext", "seen")

    def __init__(self, reader: _Reader, name: str, ext: InstructionSet) -> None:
        super().__init__()
        self.reader = reader
        self.name = name
        self.ext = ext
        self.seen: dict[int, int] = {}  # sightings before the decoder is made

    def __missing__(self, key: int) -> _Decoder:
        seen = self.seen[key] = self.seen.get(key, 0) + 1
        if seen < _SIGHTS:
            raise KeyError(key)
        number, first = key >> 32, key & 0xFFFFFFFF
        reader = self.reader
        recipe = reader.plan.ext_recipe(self.ext, number, first)
        if recipe is None:
            raise KeyError(key)
        found = reader.bind(self.ext, first & 0xFFFF, self.name, *recipe)
        self[key] = found
        return found


class _Decoders(dict[int, _Decoder]):
    """first word → its decoder (see _Reader.bind), made on the _SIGHTS-th sight of the
    word: before, the general decoder or _Reader.ids_only take it (making a decoder costs
    more than decoding an instruction or two with it saves)."""

    __slots__ = ("reader", "seen", "ids_only")

    def __init__(self, reader: _Reader) -> None:
        super().__init__()
        self.reader = reader
        self.seen: dict[int, int] = {}  # sightings before the decoder is made
        self.ids_only = reader.plan.ids_only

    def __missing__(self, first: int) -> _Decoder:
        seen = self.seen[first] = self.seen.get(first, 0) + 1
        if seen >= _SIGHTS:
            return self.reader.decoder  # makes the decoder and puts it here
        return self.reader.ids_only if first in self.ids_only else self.reader.general


class _Reader:
    """Decodes the instructions of one module (the words after the header)."""

    def __init__(self, words: array[int], bound: int) -> None:
        self.words = words
        self.bound = bound
        self.plan = core_plan()
        self.core = self.plan.set
        # word → the one Id object of that id (a TypeId once declared as a type): a dict
        # filled on first sight, or a list filled in bulk by run() (see _zero_error)
        self.ids: list[Id] | dict[int, Id] = _IdTable(bound, Id)
        self.zero: Id | None = None  # item 0 of the bulk list
        self.zero_refs: int | None = None  # references to it before the first instruction
        # word → TypeId, for result types; filled by type declarations and on first use
        self.type_ids: dict[int, TypeId] = {}
        self.ext_names: dict[int, str] = {}  # OpExtInstImport result id → set name
        # The tables below refer to the reader by a weak proxy: no reference cycle, so
        # that the reader and what it holds are freed as soon as it is done.
        me = weakref.proxy(self)
        # what every decoder uses (see _recipe; ids replaced by run())
        self.shared: tuple[Any, ...] = (
            tuple.__new__,
            Instruction,
            operator.getitem,
            words,
            self.ids,
            self.type_ids,
        )
        self.ext_plans = _ExtPlans(me)  # the one-word paths of OpExtInst
        self.decoders = _Decoders(me)  # the one-word paths of core
        # (set name, kind name) → its _EnumTable; (..., parameter words) → _ParamTable
        self.enum_tables: dict[tuple[str | None, str], _EnumTable] = {}
        self.param_tables: dict[tuple[str | None, str, int], _ParamTable] = {}
        self.widths: dict[int, _Context] = {}  # numeric type id → number context
        # 32-bit numeric type id → (its TypeId, 0 unsigned / 1 signed / 2 float), for the
        # constants decoded inline
        self.inline: dict[int, tuple[TypeId, int]] = {}
        self.redefined = False  # a numeric type id defined twice (then constants wait)
        # per instruction
        self.start = 0
        self.end = 0
        self.where = ""
        self.operand_name = ""
        self.inexact = False
        self.context: _Context | None = None
        self.instruction_bytes: bytes | None = None

    # -- the main loop --------------------------------------------------------------------
    def run(self, count: int, firsts: set[int]) -> list[Instruction]:
        """Decode every instruction (``_split`` has checked the framing and returned the
        number of instructions and the first words)."""
        paused = gc.isenabled()
        gc.disable()  # a million new tuples trigger collections that would find nothing
        try:
            if self.bound <= len(self.words):  # every id in bulk (else each on first sight)
                ids = list(map(Id, range(max(self.bound, 1))))
                self.ids = ids
                self.zero = ids[0]  # a marker for id 0, see _zero_error
                del ids
                self.zero_refs = self._zero_refs()
                self.shared = (*self.shared[:4], self.ids, self.type_ids)
            code = self.plan.code
            codes = {first: code(first) for first in firsts}
            out: list[Any] = []
            later: list[int] = []  # indices in out of deferred instructions (their offset)
            # The compiled form indexes the ids as a list: with ids made on first sight
            # (an id table) the interpreted form runs.
            engine = _engine() if type(self.ids) is list else engines.plain("read_engine")
            # the offsets of the instructions: made only where an error or a redo needs them
            starts: list[int] | None = None
            try:
                self._engine_loop(engine, out, later, codes)
            except BinaryError:
                zero = self._zero_error(out, starts)  # an earlier instruction has id 0
                if zero is not None:
                    raise zero from None
                raise
            zero = self._zero_error(out, starts)
            if zero is not None:
                raise zero
            if self.redefined:
                # A numeric type id defined twice: constants decoded inline may have used a
                # width the encoder will not (it takes the last definition).  Redo them all.
                inline = (OP_CONSTANT, OP_SPEC_CONSTANT)
                again = [
                    k for k, inst in enumerate(out) if type(inst) is not int and inst[0] in inline
                ]
                if again:
                    if starts is None:
                        starts = offsets(self.words)
                    for k in again:
                        out[k] = starts[k]
                    later = sorted(set(later).union(again))
            if later:
                self._decode_later(out, later)
            return out
        finally:
            if paused:
                gc.enable()

    def lookup(self, tables: InstructionSet, spec: str) -> Any:
        """What a one-word path indexes by the word for an operand of this spec: the ids,
        _LITERALS or an _EnumTable."""
        if spec == SPEC_ID:
            return self.ids
        if spec == SPEC_LITERAL:
            return _LITERALS
        key = (tables.name, spec)
        found = self.enum_tables.get(key)
        if found is None:
            found = self.enum_tables[key] = _EnumTable(tables, tables.kinds[spec])
        return found

    def decoder(self, i: int, w0: int, w1: int, w2: int, w3: int, w4: int) -> Instruction:
        """Decode an instruction whose first word takes the one-word path (_CALL) with
        the decoder that this makes for the first word (see _Decoders)."""
        reading, make, names = self.plan.recipe(w0)
        decoder = self.bind(self.core, w0 & 0xFFFF, None, reading, make, names)
        self.decoders[w0] = decoder
        return decoder(i, w0, w1, w2, w3, w4)

    def ids_only(self, i: int, w0: int, w1: int, w2: int, w3: int, w4: int) -> Instruction:
        """Decode an instruction whose reading has ids only (a variadic one last) without
        a decoder: what a first sight costs."""
        form, specs, _, count, tail = self.plan.recipe(w0)[0]
        ids, words = self.ids, self.words
        end = i + (w0 >> 16)
        start = end - count - len(specs)  # the first operand word
        operands: tuple[Any, ...] = tuple(map(ids.__getitem__, words[start : end - count]))
        if form == VARIADIC:
            operands += (tuple(map(ids.__getitem__, words[end - count : end])),)
        operands += tail
        if start == i + 3:
            found: tuple[Any, ...] = (w0 & 0xFFFF, self.type_ids[w1], ids[w2], operands, None)
        else:
            found = (w0 & 0xFFFF, None, ids[w1] if start == i + 2 else None, operands, None)
        return tuple.__new__(Instruction, found)

    def general(self, i: int, w0: int, w1: int, w2: int, w3: int, w4: int) -> Instruction:
        """Decode an instruction with the general decoder (a decoder's signature; not for
        context-dependent literals)."""
        return self.instruction(i, i + (w0 >> 16), w0 & 0xFFFF, None)

    def bind(
        self,
        tables: InstructionSet,
        op: int,
        ext_set: str | None,
        reading: Reading,
        make: Callable[..., _Decoder],
        names: tuple[tuple[str, int, str], ...],
    ) -> _Decoder:
        """The decoder of a recipe (see _recipe) with this reader's lookups: for a first
        word, or for an OpExtInst (``ext_set``: its set's name)."""
        values: list[Any] = [op, ext_set]
        for _, what, spec in names:
            if what == _LOOKUP:
                values.append(self.ids if spec == SPEC_ID else self.lookup(tables, spec))
            elif what == _LOOKUPS:
                values.append(tuple(self.lookup(tables, item) for item in reading[1]))
            elif what == _PARAM_TABLE:
                values.append(self.param_table(tables, spec, reading[3]))
            else:  # _UNPACK
                values.append(_unpacker(reading[3]))
        return make(*self.shared, *values)

    def param_table(self, tables: InstructionSet, kind: str, count: int) -> _ParamTable:
        """The _ParamTable of an enum kind and a number of parameter words."""
        key = (tables.name, kind, count)
        found = self.param_tables.get(key)
        if found is None:
            found = _ParamTable(weakref.proxy(self), tables, tables.kinds[kind], count)
            self.param_tables[key] = found
        return found

    def _zero_error(self, out: list[Any], starts: list[int] | None) -> BinaryError | None:
        """The error of the first instruction in ``out`` that a fast path gave id 0.

        With the ids in bulk (a list indexed by word), a fast path's lookup of an id past
        the bound fails (IndexError) but one of id 0 puts item 0, the ``zero`` marker, into
        the instruction.  The marker's reference count says whether any instruction holds
        it (CPython; elsewhere they are searched); the general decoder then gives for the
        first one the error it would have raised at once.
        """
        if self.zero is None:
            return None
        refs = self._zero_refs()
        if refs is not None and refs == self.zero_refs:
            return None
        words = self.words
        if starts is None:
            starts = offsets(words)
        for i, inst in zip(starts, out, strict=False):  # out stops at an error
            if type(inst) is not int and _holds(inst, self.zero):
                try:
                    self.instruction(i, i + (words[i] >> 16), words[i] & 0xFFFF, None)
                except BinaryError as error:
                    return error
                raise AssertionError(f"word {i}: id 0 was not refused")  # pragma: no cover
        return None

    def _zero_refs(self) -> int | None:
        """References to the ``zero`` marker (None if the platform cannot tell)."""
        count: Callable[[object], int] | None = getattr(sys, "getrefcount", None)
        return None if count is None else count(self.zero)

    def _fallback(self, i: int, out: list[Any], later: list[int], codes: dict[int, int]) -> None:
        """Decode the instruction at ``i`` whose fast path failed (a lookup), or whose
        first word is below the grammar's minimum, with the general decoder, or defer it."""
        w0 = self.words[i]
        if w0 not in codes and self.plan.code(w0) == _DEFERRED:
            later.append(len(out))
            out.append(i)
            return
        try:
            out.append(self.instruction(i, i + (w0 >> 16), w0 & 0xFFFF, None))
        except _Defer:
            later.append(len(out))
            out.append(i)

    def _engine_loop(
        self,
        engine: ModuleType,
        out: list[Any],
        later: list[int],
        codes: dict[int, int],
    ) -> None:
        """Decode every instruction into ``out`` (a deferred one: its offset, in ``later``)
        by the read engine's :func:`~spvbuild.binary.read_engine.decode`: each takes the fast path
        of its first word (``codes``: an inline one, or the decoder of its one-word path,
        see _Decoders and _ExtPlans) or the general decoder.  A fast path's lookup that
        fails (an id past the bound: IndexError; a result type not declared before, an enum
        value the path does not take: KeyError) hands its instruction to the general
        decoder (``_fallback``), which makes the value, keeps it raw or says where; so does
        a first word below the grammar's minimum (not in ``codes``, see _split)."""
        words = self.words
        general = self.instruction

        def general_or_none(i: int) -> Instruction | None:
            w0 = words[i]
            try:
                return general(i, i + (w0 >> 16), w0 & 0xFFFF, None)
            except _Defer:
                return None

        lookups = (
            self.ids,
            self.type_ids,
            self.inline,
            self.decoders,
            self.ext_plans,
            general_or_none,
            Instruction,
            [-1] * engine.SEEN,
            [0] * engine.SEEN,
        )
        data, n = engine.prepare(words)
        i: int = engine.decode(data, n, 5, codes, lookups, out, later)
        while i:
            self._fallback(i, out, later, codes)
            i = engine.decode(data, n, i + (words[i] >> 16), codes, lookups, out, later)

    def _name(self, opcode: int) -> str:
        info = self.core.instructions.get(opcode)
        return info.name if info is not None else f"opcode {opcode}"

    # -- context-dependent literals, once the types are known -----------------------------
    def _decode_later(self, out: list[Any], later: list[int]) -> None:
        """Decode the deferred instructions with the number context the encoder will use.

        ``encode_module`` sizes a literal by the *last* OpTypeInt/OpTypeFloat defining
        the result type (for OpSwitch: the type of the selector, as given by the last
        instruction defining the selector), so the contexts come from the whole module.
        """
        words = self.words
        header = self.plan.header
        widths = self.widths
        value_types: dict[int, int] = {}
        selectors = {words[out[k] + 1] for k in later if words[out[k]] & 0xFFFF == OP_SWITCH}
        if selectors:
            for inst in out:
                if type(inst) is int:
                    has_rt, has_rid, _ = header.get(words[inst] & 0xFFFF, (False, False, False))
                    if not (has_rt and has_rid):
                        continue
                    result_type, result_id = words[inst + 1], words[inst + 2]
                else:
                    result_type, result_id = inst[1], inst[2]
                    if result_type is None or result_id is None:
                        continue
                if result_id in selectors:
                    value_types[result_id] = result_type
        for k in later:
            i = out[k]
            w0 = words[i]
            op = w0 & 0xFFFF
            context: _Context | None = None
            if op == OP_SWITCH:
                selector_type = value_types.get(words[i + 1])
                if selector_type is not None:
                    context = widths.get(selector_type)
            elif header[op][0]:
                context = widths.get(words[i + 1])
            out[k] = self.instruction(i, i + (w0 >> 16), op, context or _DEFAULT_CONTEXT)

    # -- one instruction ------------------------------------------------------------------
    def _begin(self, start: int, end: int, where: str) -> None:
        self.start = start
        self.end = end
        self.where = where
        self.instruction_bytes = None

    def instruction(self, start: int, end: int, op: int, context: _Context | None) -> Instruction:
        """Decode the instruction in ``words[start:end]`` (word count already checked)."""
        words = self.words
        info = self.core.instructions.get(op)
        if info is None:
            return Instruction(op, None, None, (RawWords(words[start + 1 : end]),))
        self._begin(start, end, info.name)
        self.context = context
        has_rt, has_rid, is_type = self.plan.header[op]
        pos = start + 1
        result_type = result_id = None
        if has_rt:
            self.operand_name = "result type"
            result_type = self._type_ref(pos)
            pos += 1
        if has_rid:
            self.operand_name = "result id"
            result_id = self._define(pos, is_type)
            pos += 1
        if op in self.plan.ext_inst:
            return self._ext_inst(op, result_type, result_id, pos)
        if op == OP_SPEC_CONSTANT_OP:
            return self._spec_constant_op(result_type, result_id, pos)
        operands = self._operands(self.core, self.core.layout(op, info), pos)
        if op == OP_EXT_INST_IMPORT and isinstance(operands[0], str) and result_id is not None:
            self.ext_names[result_id] = operands[0]
            self.ext_plans.clear()
        elif (op == OP_TYPE_INT or op == OP_TYPE_FLOAT) and result_id is not None:
            # As encode_module will size literals; a float with an FPEncoding operand is
            # not IEEE, so its constants keep their words.
            width = declared_number_type(op, operands)
            assert width is not None  # the grammar's layout gives both their operands
            self.redefined = self.redefined or result_id in self.widths
            self.widths[result_id] = width
            if width.width == 32 and width.encoding is None:
                kind = 2 if width.is_float else 1 if width.signed else 0
                self.inline[result_id] = (self.type_ids[result_id], kind)
            else:
                self.inline.pop(result_id, None)
        return Instruction(op, result_type, result_id, tuple(operands))

    def _ext_inst(self, op: int, result_type: Any, result_id: Any, pos: int) -> Instruction:
        """OpExtInst (or OpExtInstWithForwardRefsKHR): operands by the set's own grammar."""
        words = self.words
        self.operand_name = "Set"
        set_id = self._id(pos)
        self.operand_name = "Instruction"
        self._need(pos + 1)
        number = words[pos + 1]
        pos += 2
        name = self.ext_names.get(set_id)
        ext = ext_tables(name) if name is not None else None
        info = ext.instructions.get(number) if ext is not None else None
        if ext is None or info is None or name is None:
            tail = RawWords(words[pos : self.end])
            operands: tuple[Any, ...] = (set_id, number, (tail,) if tail else ())
            return Instruction(op, result_type, result_id, operands)
        layout = ext.layout(number, info)
        if self.context is None and ext.uses_context(layout):
            raise _Defer
        self.where = f"{name} {info.name}"
        ext_operands = self._operands(ext, layout, pos)
        return Instruction(op, result_type, result_id, (set_id, number, *ext_operands), name)

    def _spec_constant_op(self, result_type: Any, result_id: Any, pos: int) -> Instruction:
        words = self.words
        end = self.end
        self.operand_name = "Opcode"
        self._need(pos)
        number = words[pos]
        pos += 1
        opcode = self.plan.op_enum.get(number, number)
        info = self.core.instructions.get(number)
        layout = self.core.layout(number, info) if info is not None else ()
        kinds = self.core.kinds
        if info is None or not all(
            op.kind in kinds and kinds[op.kind].operand_class in _ID_OR_LITERAL for op in layout
        ):
            tail = RawWords(words[pos:end])
            return Instruction(OP_SPEC_CONSTANT_OP, result_type, result_id, (opcode, tail))
        self.where = f"OpSpecConstantOp {info.name}"
        values: list[Any] = []
        for op in layout:
            self.operand_name = op.name or op.kind
            is_id = kinds[op.kind].operand_class != _classes.LITERAL
            if op.quantifier == "":
                self._need(pos)
                values.append(self._id(pos) if is_id else words[pos])
                pos += 1
            else:
                stop = end if op.quantifier == "*" else min(end, pos + 1)
                while pos < stop:
                    values.append(self._id(pos) if is_id else words[pos])
                    pos += 1
        operands: tuple[Any, ...] = (opcode, tuple(values))
        if pos < end:
            operands += (RawWords(words[pos:end]),)
        return Instruction(OP_SPEC_CONSTANT_OP, result_type, result_id, operands)

    # -- operands -------------------------------------------------------------------------
    def _operands(
        self, tables: InstructionSet, layout: tuple[OperandInfo, ...], pos: int
    ) -> list[Any]:
        words = self.words
        end = self.end
        out: list[Any] = []
        for index, op in enumerate(layout):
            self.operand_name = op.name or op.kind
            quantifier = op.quantifier
            start = pos
            items: list[Any] = []
            try:
                if quantifier == "":
                    value, pos = self._exact(tables, op.kind, pos)
                elif quantifier == "?":
                    if pos < end:
                        value, pos = self._exact(tables, op.kind, pos)
                    else:
                        value = None
                else:
                    while pos < end:
                        start = pos
                        item, pos = self._exact(tables, op.kind, pos)
                        items.append(item)
                    value = tuple(items)
            except _RestRaw:
                raw = RawWords(words[start:end])
                out.append((*items, raw) if quantifier == "*" else raw)
                for rest in layout[index + 1 :]:
                    q = rest.quantifier
                    out.append(None if q == "?" else () if q == "*" else RawWords())
                return out
            out.append(value)
        if pos < end:
            out.append(RawWords(words[pos:end]))
        return out

    def _exact(self, tables: InstructionSet, kind: str, pos: int) -> tuple[Any, int]:
        """One operand; RawWords if its typed value would not encode to the same words."""
        self.inexact = False
        value, after = self._value(tables, kind, pos)
        if self.inexact:
            return RawWords(self.words[pos:after]), after
        return value, after

    def _value(self, tables: InstructionSet, kind_name: str, pos: int) -> tuple[Any, int]:
        self._need(pos)
        words = self.words
        kind = tables.kinds.get(kind_name)
        if kind is None:
            raise _RestRaw
        code = kind.operand_class
        if code in _IDS:
            return self._id(pos), pos + 1
        if code == _classes.STRING:
            return self._string(pos)
        if code == _classes.FLOAT32:
            return self._number(pos, _FLOAT32)
        if code == _classes.CONTEXT_NUMBER:
            return self._number(pos, self._context())
        if code == _classes.VALUE_ENUM:
            return self._value_enum(tables, kind, pos)
        if code == _classes.BIT_ENUM:
            return self._bit_enum(tables, kind, pos)
        if code == _classes.ID_PAIR or code == _classes.SWITCH_PAIR or code == _classes.PAIR:
            items: list[Any] = []
            for index, base in enumerate(kind.bases):
                if index == 0 and code == _classes.SWITCH_PAIR:  # sized by the selector
                    item, pos = self._number(pos, self._context())
                else:
                    item, pos = self._value(tables, base, pos)
                items.append(item)
            return tuple(items), pos
        return words[pos], pos + 1  # LITERAL, EXT_INST_NUMBER, SPEC_CONSTANT_OPCODE

    def _context(self) -> _Context:
        if self.context is None:
            raise _Defer
        return self.context

    def _value_enum(self, tables: InstructionSet, kind: KindInfo, pos: int) -> tuple[Any, int]:
        value = self.words[pos]
        enumerant = kind.enumerants.get(value)
        member = tables.member(kind.name, value) if enumerant is not None else None
        if enumerant is None or member is None:
            raise _RestRaw
        pos += 1
        if not enumerant.parameters:
            return member, pos
        cls = tables.parameter_classes.get(kind.name, {}).get(value)
        if cls is None:
            raise _RestRaw
        params, pos = self._params(tables, enumerant.parameters, pos)
        return _make(cls, params), pos

    def _bit_enum(self, tables: InstructionSet, kind: KindInfo, pos: int) -> tuple[Any, int]:
        mask = self.words[pos]
        pos += 1
        if mask & ~tables.known_bits(kind):
            raise _RestRaw
        flags = tables.member(kind.name, mask)
        if flags is None:
            raise _RestRaw
        with_params: list[Any] = []
        param_bits = 0
        bit = 1
        while bit <= mask:
            if mask & bit:
                enumerant = kind.enumerants.get(bit)
                if enumerant is not None and enumerant.parameters:
                    cls = tables.parameter_classes.get(kind.name, {}).get(bit)
                    if cls is None:
                        raise _RestRaw
                    params, pos = self._params(tables, enumerant.parameters, pos)
                    with_params.append(_make(cls, params))
                    param_bits |= bit
            bit <<= 1
        if not with_params:
            return flags, pos
        rest = mask & ~param_bits
        parts: list[Any] = [tables.member(kind.name, rest)] if rest else []
        return parts + with_params, pos

    def _params(
        self, tables: InstructionSet, layout: tuple[OperandInfo, ...], pos: int
    ) -> tuple[list[Any], int]:
        end = self.end
        values: list[Any] = []
        for op in layout:
            if op.quantifier == "":
                value, pos = self._value(tables, op.kind, pos)
            elif op.quantifier == "?":
                value = None
                if pos < end:
                    value, pos = self._value(tables, op.kind, pos)
            else:
                items: list[Any] = []
                while pos < end:
                    item, pos = self._value(tables, op.kind, pos)
                    items.append(item)
                value = tuple(items)
            values.append(value)
        return values, pos

    # -- words ----------------------------------------------------------------------------
    def _need(self, pos: int) -> None:
        if pos >= self.end:
            raise BinaryError(
                self.start,
                f"{self.where}: word count {self.end - self.start} ends the instruction "
                f"before operand '{self.operand_name}'",
            )

    def _id(self, pos: int) -> Id:
        self._need(pos)
        word = self.words[pos]
        if 0 < word < self.bound:
            return self.ids[word]
        raise self._bad_id(pos, word)

    def _type_ref(self, pos: int) -> TypeId:
        self._need(pos)
        word = self.words[pos]
        found = self.type_ids.get(word)
        if found is None:
            if not 0 < word < self.bound:
                raise self._bad_id(pos, word)
            found = self.type_ids[word] = TypeId(word)
        return found

    def _define(self, pos: int, is_type: bool) -> Id:
        if not is_type:
            return self._id(pos)
        found = self._type_ref(pos)
        self.ids[int(found)] = found  # from now on references to it are TypeIds too
        return found

    def _bad_id(self, pos: int, word: int) -> BinaryError:
        if word == 0:
            what = "id 0 is not a valid id"
        else:
            what = f"id {word} is not below the bound {self.bound}"
        return BinaryError(pos, f"{self.where} operand '{self.operand_name}': {what}")

    def _string(self, pos: int) -> tuple[Any, int]:
        data = self.instruction_bytes
        start = self.start
        if data is None:
            count = self.end - start
            data = struct.pack(f"<{count}I", *self.words[start : self.end])
            self.instruction_bytes = data
        found = string_in(data, (pos - start) * 4)
        if found is None:
            raise BinaryError(
                pos, f"{self.where} operand '{self.operand_name}': string without NUL terminator"
            )
        text, stop, canonical = found
        if not canonical:  # kept as its words (RawWords)
            self.inexact = True
        return text, start + stop

    def _number(self, pos: int, context: _Context) -> tuple[Any, int]:
        width, is_float, signed, encoding = context
        count = 1 if width <= 32 else 2
        self._need(pos + count - 1)
        words = self.words[pos : pos + count].tolist()
        after = pos + count
        value: int | float
        if encoding is not None:  # not IEEE: the words are kept
            self.inexact = True
            return None, after
        if is_float:
            if width == 16 and words[0] <= 0xFFFF:
                value = struct.unpack("<e", struct.pack("<H", words[0]))[0]
            elif width == 32:
                value = struct.unpack("<f", struct.pack("<I", words[0]))[0]
            elif width == 64:
                value = struct.unpack("<d", struct.pack("<II", words[0], words[1]))[0]
            else:
                self.inexact = True
                return None, after
        else:
            if not 0 < width <= 64:
                self.inexact = True
                return None, after
            bits = (words[0] if count == 1 else words[0] | words[1] << 32) & ((1 << width) - 1)
            value = bits - (1 << width) if signed and bits >> (width - 1) else bits
        try:
            same = _number_words(value, context, "", "") == words
        except (EncodeError, OverflowError, ValueError):
            same = False
        if not same:
            self.inexact = True
        return value, after


def _holds(inst: Instruction, marker: Id) -> bool:
    """True if the result id or an operand is ``marker``, or holds it (an item of a
    variadic operand, of a pair, of a mask's list, a parameter)."""
    return inst[2] is marker or _within(inst[3], marker)


def _within(values: Sequence[Any], marker: Id) -> bool:
    for value in values:
        if value is marker:
            return True
        if type(value) is tuple or type(value) is list:
            if _within(value, marker):
                return True
        elif isinstance(value, EnumerantParameters) and _within(value.parameters, marker):
            return True
    return False


def _make(cls: type[EnumerantParameters], params: list[Any]) -> EnumerantParameters:
    try:
        return cls(*params)
    except (TypeError, ValueError):  # pragma: no cover - generated classes take the layout
        raise _RestRaw from None
