"""The binary reader: SPIR-V words → typed :class:`~spvbuild.spirv.instruction.Instruction` records.

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

Where the work is (one job a module)
    * this module: :func:`read` (words, header, the reader's policy on the framing) and
      the public names;
    * :mod:`spvbuild.binary.framing`: bytes → words, the header, the one framing walk
      (:func:`~spvbuild.binary.framing.frame`, also the disassembler's) and the choice of
      the read engine's form;
    * :mod:`spvbuild.binary.plans`: what the grammar says about each first word (the
      decoding loop's path, the reading of one-word operands, the grammar minimum);
    * :mod:`spvbuild.binary.general`: the general decoder, one instruction at a time;
    * :mod:`spvbuild.binary.fast_paths`: the fast-path decoders made from the plans;
    * :mod:`spvbuild.binary.decode`: the decoding loop over a module;
    * :mod:`spvbuild.binary.read_module`: :class:`ReadModule`;
    * :mod:`spvbuild.binary.read_engine` and :mod:`spvbuild.binary.read_codes`: the two hot
      loops, written once, compiled or not.

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
      the header and walks the word counts in one tight loop
      (:func:`~spvbuild.binary.framing.frame`: the read engine's ``split``, see
      :mod:`spvbuild.binary.read_engine`) that counts the instructions and checks the
      framing once per distinct first word (opcode and word count): word count 0,
      shorter than the opcode's grammar minimum (that rare case goes to the general
      decoder for the exact message, or for an unknown enum value that leaves the length
      open), past the end (only the last instruction can be).  ``ReadModule`` keeps the
      words and the distinct first words.
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
      ``tuple.__new__`` of the NamedTuple (with the compiled engine, the C twins of both
      allocations, :mod:`spvbuild.accel.records`).
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
      image operands ``Lod %x``); a string that is the layout's last operand and fills
      the instruction exactly, canonical (``OpName``, ``OpMemberName``, ``OpString``,
      ``OpExtension``; not ``OpExtInstImport``, which names a set).  Type declarations
      take one too (not ``OpTypeInt``/``OpTypeFloat``, which size later literals): their
      decoder defines the result id as a :class:`TypeId`, which from then on stands for
      the id among the ids, as the general decoder does.  ``OpExtInst`` of a known set
      takes one too, by the set's grammar (``GLSL.std.450 Sqrt``/``FMix``, debug-info
      instructions), per set id, instruction number and word count (``fast_paths._ExtPlans``; forgotten when an
      ``OpExtInstImport`` is decoded).  The path is a *decoder* made for the first word:
      a function whose body is one expression made for the reading's shape
      (``fast_paths._recipe``: source from word indices and names only, compiled once per process
      per shape) in which each operand word, from the window or ``words[i + k]``, indexes
      the lookup of its operand: the ids, an ``_EnumTable`` (value → exactly what the
      general decoder gives, filled on first sight; KeyError for an unknown value or one
      with parameters) or a ``_ParamTable`` (value → a function of the parameter words
      making the generated parameter object, or the list of a mask; KeyError unless the
      value's parameters are exactly the words left).  Each enum lookup so checks the
      words its value takes, and the general decoder reads the words the same way
      whenever every lookup succeeds.  Making a decoder costs what decoding a few
      instructions saves, so it is made on the third sight of its first word (before:
      the general decoder, or ``FastPaths.ids_only`` for ids).  The tables refer to the
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
    * Everything else (other strings, floats, other composites, unknown opcodes, words
      past the layout) goes through the general, table-walking decoder.

    What the loop costs is mostly the objects it must make (the NamedTuple, the operand
    tuple, fresh memory for both), so it stays one sequential loop: decoding column-wise
    per layout (``map``/``zip`` over the offsets of each group, results scattered back)
    was measured no faster, the gathers by computed index cost what the loop's
    indexing does, and the order-dependent state (type ids, widths) stays simple.

    The two loops (framing and fast-path dispatch) are the read engine's ``split`` and
    ``decode`` (:mod:`spvbuild.binary.read_engine`), written once, with the codes of
    :mod:`spvbuild.binary.read_codes`, the lookups passed in and the fallback
    (``decode.Reader._fallback``) in :mod:`spvbuild.binary.decode`; every decoder, table and
    the general decoder are the modules' above.  Compiled (the
    wheel's, or a current development copy, and ``SPVBUILD_PURE_PYTHON`` not set) they
    read the module's bytes a byte at a time in C and take about half the time on a big
    module.  What is left is the objects themselves: with the compiled engine the ids and
    the records are allocated by :mod:`spvbuild.accel.records` (C, one allocation each,
    where ``Id(n)`` and ``tuple.__new__`` go through generic calls: about a fifth of a
    typed read), and then about a third of what remains is the kernel handing the process
    fresh pages for them (some 240 bytes per instruction).  :func:`engine_kind` says which
    form runs.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Sequence

from spvbuild.binary.framing import engine_kind, frame, words_of
from spvbuild.binary.general import DEFAULT_CONTEXT, GeneralDecoder
from spvbuild.binary.read_module import ReadModule
from spvbuild.errors import BinaryError

__all__ = ["ReadModule", "engine_kind", "read", "words_of"]


def read(data: bytes | bytearray | memoryview | Sequence[int], *, lazy: bool = True) -> ReadModule:
    """Read a SPIR-V binary.

    ``data`` is bytes in either byte order (the magic number decides) or a sequence of
    32-bit words.  The header and the framing of every instruction are checked here;
    the operands are decoded on first access of ``instructions`` (at once with
    ``lazy=False``).  Either step raises :class:`~spvbuild.errors.BinaryError` (with the
    word offset) for input that is not a well-formed module; unknown opcodes, enum values
    and extended sets are not errors, they are kept as :class:`RawWords`.
    """
    words, endianness = words_of(data, "read")
    module = ReadModule._from_words(words, _split(words), endianness)
    if not lazy:
        module.instructions  # noqa: B018 - decode now
    return module


def _split(words: array[int]) -> tuple[int, set[int]]:
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


def _framing_error(words: array[int], i: int) -> BinaryError:
    """The error of an instruction whose word count is 0 or runs past the end."""
    count = words[i] >> 16
    name = GeneralDecoder(words, words[3])._name(words[i] & 0xFFFF)
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
    GeneralDecoder(words, words[3]).instruction(i, i + (w0 >> 16), w0 & 0xFFFF, DEFAULT_CONTEXT)
