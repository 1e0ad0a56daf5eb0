"""Where a module's ids are, word by word, without typing its instructions.

:func:`id_words` frames a module and gives, for every instruction, the offsets (from its
first word) of the words that hold ids: its result type, its result id and every id among
its operands (in pairs, variadic operands and enumerant parameters too), in word order.
That is all a pass that only moves ids (shifts them past another module's, merges them,
renumbers them) needs to know of an instruction, and it costs a lookup per instruction
where typing it costs an object per operand.

The offsets come from the grammar's small tables
(:mod:`spvbuild.generated.core.word_layouts`), walked as the reader's general decoder
(:mod:`spvbuild.binary.general`) reads the operands: result type and result id, then each
operand of the layout in its place (an optional one while words are left, a repeated one
until none are), by its kind's class: an id, a one-word literal, a string, a pair of ids,
an enum value and then its parameters (a BitEnum's, bit by bit from the lowest).

* a first word (opcode and word count) whose operands are all one word has the same
  offsets in every instruction (remembered), once its enum words are values that take no
  parameters (checked per instruction; any other value is walked);
* a first word with a string, or with more words than one word an operand gives, is
  walked per instruction;
* a 32-bit constant (a result type, a result id and one literal sized by the type) holds
  no id past its result id where the reader reads its literal inline: a 32-bit integer
  type's, or a 32-bit float type's but a NaN (the types known once every instruction is
  seen).

Whatever the walk does not read as the reader would for certain (an extended set
imported, whose instructions the reader reads by the set's own grammar;
``OpSpecConstantOp``; any other literal sized by a type; a float literal; a string that
is not canonical; an enum value or an opcode the grammar lacks; words too few or left
over; a numeric type declared twice; an id of 0 or past the bound) leaves the whole module
to :mod:`spvbuild.binary.id_words_by_plans`: the reader's own plans and general decoder,
loaded on first need (linking the modules the walk reads loads none of the reader's
tables).

:func:`id_words` gives None where the reader would keep words it cannot type
(:class:`~spvbuild.spirv.instruction.RawWords`: an unknown opcode, enum value or extended
set, a string that is not UTF-8, words past the grammar's layout) or would refuse the
module (:class:`~spvbuild.errors.BinaryError`: a short instruction, an id of 0 or past the
bound, ...): a caller that must find every id then reads the module typed, which keeps
such words or says what is wrong.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Sequence
from operator import itemgetter
from typing import Final, NamedTuple

from spvbuild.generated.core import operand_classes as _classes
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT, OP_TYPE_FLOAT, OP_TYPE_INT
from spvbuild.generated.core.word_layouts import ENUMERANTS, INSTRUCTIONS, KINDS
from spvbuild.spirv.strings import string_at, string_in

__all__ = ["IdWords", "Offsets", "id_words"]

Offsets = tuple[int, ...]
"""The offsets of an instruction's id words from its first word, in word order."""


class IdWords(NamedTuple):
    """Where the ids of a module are.

    Fields: ``starts`` (the offset of each instruction in the module's words, header
    included), ``firsts`` (the first word of each: opcode and word count), ``ids`` (for
    each instruction, the offsets of its id words from its first word: :data:`Offsets`;
    instructions of one first word and shape share one tuple), ``positions`` (the offset
    of every id word in the module's words, in order).
    """

    starts: list[int]
    firsts: Sequence[int]
    ids: list[Offsets]
    positions: list[int]


def id_words(words: array[int]) -> IdWords | None:
    """Where the ids of the module in ``words`` (header included, as
    :func:`~spvbuild.binary.framing.words_of` gives them) are, or None where the reader
    would not type every word of it or would refuse it (see the module's docstring)."""
    try:
        return _find(words)
    except _Elsewhere:
        from spvbuild.binary import id_words_by_plans

        found = id_words_by_plans.id_words(words)
        return None if found is None else IdWords(*found)


class _Elsewhere(Exception):
    """What the walk does not read for certain: the reader's plans decide the module."""


class _Operand(NamedTuple):
    """An operand of a layout: its kind, its quantifier (``""``, ``"?"``, ``"*"``) and
    the kind's class (-1: a kind the tables lack)."""

    kind: str
    quantifier: str
    cls: int


class _Layout(NamedTuple):
    """An instruction's layout as the general decoder reads it: the offsets of its result
    type and result id (those it has) and its other operands."""

    head: Offsets
    operands: tuple[_Operand, ...]


class _Shape(NamedTuple):
    """The offsets of a first word whose operands are all one word: ``ids``, the
    ``enums`` (offset and kind of each enum word, whose value must take no parameters)
    and whether it declares a numeric type (whose 32-bit constants the reader reads
    inline)."""

    ids: Offsets
    enums: tuple[tuple[int, str], ...]
    numeric: bool


_WALK: Final = 1  # a first word walked per instruction
_CONSTANT: Final = 2  # a 32-bit constant (see _constants)
_MEMO_LIMIT: Final = 1 << 14  # entries of a memo keyed by first words (input words)
_IDS: Final = frozenset({_classes.ID, _classes.RESULT_TYPE, _classes.RESULT_ID})
_ONE_WORD: Final = _IDS | {_classes.LITERAL, _classes.VALUE_ENUM, _classes.BIT_ENUM}
_RESULT_KINDS: Final = ("IdResultType", "IdResult")
_RESULT_ONLY: Final = (1, 2)  # the offsets of a constant's result type and result id
_LITTLE_ENDIAN: Final = sys.byteorder == "little"
_WORD: Final = struct.Struct("=I")
_REAL: Final = struct.Struct("=f")

# opcode → its layout (None: an opcode the grammar lacks)
_LAYOUTS: dict[int, _Layout | None] = {}
# first word → its static offsets (one-word operands, no enum, no numeric type)
_STATIC: dict[int, Offsets] = {}
# first word → _Shape, _WALK or _CONSTANT (None: the reader's plans decide)
_SHAPES: dict[int, _Shape | int | None] = {}
# enum kind → the values found to take no parameters (see _plain)
_PLAIN: dict[str, set[int]] = {}
# BitEnum kind → (every bit an enumerant uses, the bits of enumerants with parameters)
_BITS: dict[str, tuple[int, int]] = {}


def _find(words: array[int]) -> IdWords:
    n = len(words)
    starts: list[int] = []
    append = starts.append
    i = 5
    while i < n:
        append(i)
        count = words[i] >> 16
        if not count:
            raise _Elsewhere
        i += count
    if i != n:
        raise _Elsewhere
    if not starts:
        return IdWords(starts, (), [], [])
    firsts: Sequence[int] = itemgetter(*starts)(words) if len(starts) > 1 else (words[5],)
    found: list[Offsets | None] = list(map(_STATIC.get, firsts))
    if None in found:
        _fill(words, starts, firsts, found)
    ids: list[Offsets] = found  # type: ignore[assignment]  # (every entry filled)
    positions = [
        start + offset for start, offsets in zip(starts, ids, strict=True) for offset in offsets
    ]
    if positions:  # every id in range, as the reader asks
        values = itemgetter(*positions)(words) if len(positions) > 1 else (words[positions[0]],)
        if min(values) == 0 or max(values) >= words[3]:
            raise _Elsewhere
    return IdWords(starts, firsts, ids, positions)


def _fill(
    words: array[int], starts: list[int], firsts: Sequence[int], found: list[Offsets | None]
) -> None:
    """Put the offsets of each instruction whose entry in ``found`` is None."""
    numeric: dict[int, tuple[int, bool, bool]] = {}  # type id → width, float, encoded
    constants: list[int] = []
    shapes = _SHAPES
    plain = _PLAIN
    for k in [k for k, offsets in enumerate(found) if offsets is None]:
        first = firsts[k]
        start = starts[k]
        shape = shapes[first] if first in shapes else _shape(first)
        if type(shape) is _Shape:
            for offset, kind in shape.enums:
                value = words[start + offset]
                known = plain.get(kind)
                if (known is None or value not in known) and not _plain(kind, value):
                    found[k] = _walk(words, start, first)
                    break
            else:
                found[k] = shape.ids
            if shape.numeric:
                _declared(words, start, first, numeric)
        elif shape == _WALK:
            found[k] = _walk(words, start, first)
        elif shape == _CONSTANT:
            constants.append(k)
        else:
            raise _Elsewhere
    for k in constants:
        start = starts[k]
        number = numeric.get(words[start + 1])
        if number is None or not _inline(number, words[start + 3]):
            raise _Elsewhere
        found[k] = _RESULT_ONLY


def _declared(
    words: array[int], start: int, first: int, numeric: dict[int, tuple[int, bool, bool]]
) -> None:
    """Note the numeric type an OpTypeInt / OpTypeFloat declares: its width, whether it is
    a float and whether it names an encoding (a type declared twice: elsewhere)."""
    type_id = words[start + 1]
    if type_id in numeric:
        raise _Elsewhere
    is_float = first & 0xFFFF == OP_TYPE_FLOAT
    numeric[type_id] = (words[start + 2], is_float, is_float and (first >> 16) > 3)


def _inline(number: tuple[int, bool, bool], word: int) -> bool:
    """True when a 32-bit constant of this type reads as the reader's inline path reads
    it (an int, or a float but a NaN, of 32 bits and no encoding): its one literal word
    holds no id and reads back the same."""
    width, is_float, encoded = number
    if width != 32 or encoded:
        return False
    if not is_float:
        return True
    real: float = _REAL.unpack(_WORD.pack(word))[0]
    return real == real


def _layout(opcode: int) -> _Layout | None:
    """The layout of ``opcode`` as the general decoder reads it (remembered), or None."""
    if opcode in _LAYOUTS:
        return _LAYOUTS[opcode]
    entry = INSTRUCTIONS.get(opcode)
    found = None
    if entry is not None:
        kinds = entry[2]
        has_rt = bool(kinds) and kinds[0] == _RESULT_KINDS[0]
        has_rid = _RESULT_KINDS[1] in kinds[:2]
        head = ((1,) if has_rt else ()) + ((1 + has_rt,) if has_rid else ())
        operands = []
        for text in kinds:
            kind = text.rstrip("?*")
            if kind not in _RESULT_KINDS:
                operands.append(_Operand(kind, text[len(kind) :], KINDS.get(kind, -1)))
        found = _Layout(head, tuple(operands))
    if len(_LAYOUTS) < _MEMO_LIMIT:
        _LAYOUTS[opcode] = found
    return found


def _shape(first: int) -> _Shape | int | None:
    """How the offsets of a first word are found (remembered; static offsets go into
    _STATIC): a _Shape where every operand is one word, _CONSTANT, _WALK, or None."""
    found = _make_shape(first)
    if len(_SHAPES) < _MEMO_LIMIT:
        _SHAPES[first] = found
        if type(found) is _Shape and not found.enums and not found.numeric:
            _STATIC[first] = found.ids
    return found


def _make_shape(first: int) -> _Shape | int | None:
    opcode, count = first & 0xFFFF, first >> 16
    layout = _layout(opcode)
    if layout is None or opcode == OP_EXT_INST_IMPORT:
        return None  # (an extended set's instructions: read by its own grammar)
    head, operands = layout
    pos = 1 + len(head)
    if pos > count:
        return None
    ids = list(head)
    enums: list[tuple[int, str]] = []
    for operand in operands:
        cls = operand.cls
        if cls not in _ONE_WORD:
            if cls == _classes.CONTEXT_NUMBER and len(operands) == 1 and len(head) == 2:
                return _CONSTANT if count == 4 else None
            return _WALK
        taken = (
            1
            if operand.quantifier == ""
            else (count - pos)
            if operand.quantifier == "*"
            else min(1, count - pos)
        )
        if pos + taken > count or (taken == 0 and operand.quantifier == ""):
            return None
        for at in range(pos, pos + taken):
            if cls in _IDS:
                ids.append(at)
            elif cls != _classes.LITERAL:
                enums.append((at, operand.kind))
        pos += taken
    if pos != count:
        return _WALK  # (words left: an enum value's parameters, or the walk says no)
    numeric = opcode == OP_TYPE_INT or opcode == OP_TYPE_FLOAT
    return _Shape(tuple(ids), tuple(enums), numeric)


def _plain(kind: str, value: int) -> bool:
    """True when ``value`` of enum ``kind`` is one word without parameters: a ValueEnum
    value the grammar has, without parameters; a BitEnum mask of known bits none of which
    takes parameters (remembered)."""
    enumerants = ENUMERANTS.get(kind)
    if enumerants is None:
        return False
    if KINDS[kind] == _classes.VALUE_ENUM:
        enumerant = enumerants.get(value)
        plain = enumerant is not None and not enumerant[1]
    else:
        known, with_parameters = _bits(kind)
        plain = not value & ~known and not value & with_parameters
    if plain:
        _PLAIN.setdefault(kind, set()).add(value)
    return plain


def _bits(kind: str) -> tuple[int, int]:
    """Every bit an enumerant of BitEnum ``kind`` uses, and those of enumerants with
    parameters."""
    found = _BITS.get(kind)
    if found is None:
        known = with_parameters = 0
        for value, (_, parameters) in ENUMERANTS[kind].items():
            known |= value
            if parameters:
                with_parameters |= value
        found = _BITS[kind] = (known, with_parameters)
    return found


def _walk(words: array[int], start: int, first: int) -> Offsets:
    """The offsets of one instruction, its operands walked as the general decoder reads
    them (see the module's docstring); _Elsewhere where the walk cannot say."""
    layout = _layout(first & 0xFFFF)
    if layout is None:
        raise _Elsewhere
    end = start + (first >> 16)
    walk = _Walk(words, start, end, list(layout.head))
    pos = walk.operands(layout.operands, start + 1 + len(layout.head))
    if pos != end:
        raise _Elsewhere
    return tuple(walk.ids)


class _Walk:
    """The operands of one instruction, ``words[start:end]``, read in order; ``ids``: the
    offsets of the id words read so far."""

    def __init__(self, words: array[int], start: int, end: int, ids: list[int]) -> None:
        self.words = words
        self.start = start
        self.end = end
        self.ids = ids

    def operands(self, layout: Sequence[_Operand], pos: int) -> int:
        """Read ``layout`` from ``pos`` (optional operands while words are left, repeated
        ones until none are); the position after them."""
        end = self.end
        if pos > end:
            raise _Elsewhere
        for operand in layout:
            if operand.quantifier == "":
                pos = self.value(operand, pos)
            elif operand.quantifier == "?":
                if pos < end:
                    pos = self.value(operand, pos)
            else:
                while pos < end:
                    pos = self.value(operand, pos)
        return pos

    def value(self, operand: _Operand, pos: int) -> int:
        """Read one operand at ``pos``; the position after it."""
        if pos >= self.end:
            raise _Elsewhere  # (the reader: too few words)
        cls = operand.cls
        if cls in _IDS:
            self.ids.append(pos - self.start)
            return pos + 1
        if cls == _classes.LITERAL:
            return pos + 1
        if cls == _classes.STRING:
            return self.string(pos)
        if cls == _classes.VALUE_ENUM:
            found = ENUMERANTS[operand.kind].get(self.words[pos])
            if found is None:
                raise _Elsewhere
            return self.parameters(found[1], pos + 1)
        if cls == _classes.BIT_ENUM:
            return self.bits(operand.kind, pos)
        if cls == _classes.ID_PAIR:
            if pos + 1 >= self.end:
                raise _Elsewhere
            self.ids += (pos - self.start, pos + 1 - self.start)
            return pos + 2
        raise _Elsewhere

    def bits(self, kind: str, pos: int) -> int:
        """A BitEnum mask, then the parameters of each set bit that takes some, lowest
        first."""
        mask = self.words[pos]
        known, with_parameters = _bits(kind)
        if mask & ~known:
            raise _Elsewhere
        pos += 1
        bits = mask & with_parameters
        enumerants = ENUMERANTS[kind]
        bit = 1
        while bit <= bits:
            if bits & bit:
                pos = self.parameters(enumerants[bit][1], pos)
            bit <<= 1
        return pos

    def parameters(self, kinds: tuple[str, ...], pos: int) -> int:
        """An enumerant's parameters (kinds with their quantifiers, as the tables write
        them) from ``pos``."""
        if not kinds:
            return pos
        layout = []
        for text in kinds:
            kind = text.rstrip("?*")
            layout.append(_Operand(kind, text[len(kind) :], KINDS.get(kind, -1)))
        return self.operands(layout, pos)

    def string(self, pos: int) -> int:
        """A string the reader reads as text (NUL-terminated, canonical words)."""
        words, end = self.words, self.end
        if _LITTLE_ENDIAN:
            found = string_in(words[pos:end].tobytes(), 0)
            stop = found[1] + pos if found is not None else 0
        else:  # pragma: no cover - big-endian hosts
            found = string_at(words, pos, end)
            stop = found[1] if found is not None else 0
        if found is None or not found[2]:
            raise _Elsewhere
        return stop
