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
an enum value and then its parameters (a BitEnum's, bit by bit from the lowest); an
extended instruction's operands by its set's grammar, the set named by the
``OpExtInstImport`` of its set id; ``OpSpecConstantOp``'s by the layout of the opcode it
embeds (ids and one-word literals).

* a first word (opcode and word count) whose operands are all one word has the same
  offsets in every instruction (remembered), once its enum words are values that take no
  parameters (checked per instruction; any other value is walked);
* a first word with a string, or with more words than one word an operand gives, is
  walked per instruction;
* a constant (a result type, a result id and one literal sized by the type) holds no id
  past its result id where the reader reads its literal back as the same words: a 32- or
  64-bit integer type's, or a 32- or 64-bit float type's but a NaN (the types known once
  every instruction is seen).

Whatever the walk does not read as the reader would for certain (any other literal
sized by a type; a float literal; a string that is not canonical; an
enum value, an opcode, an extended set or an extended instruction the grammars lack;
words too few or left over; a numeric type declared twice; an id of 0 or past the bound)
leaves the whole module to :mod:`spvbuild.binary.id_words_by_plans`: the reader's own
plans and general decoder, loaded on first need (linking the modules the walk reads loads
none of the reader's tables).

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
from spvbuild.generated.core.word_layouts import (
    ENUMERANTS,
    EXT_ENUMERANTS,
    EXT_INSTRUCTIONS,
    EXT_KINDS,
    INSTRUCTIONS,
    KINDS,
)
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
    and whether it declares a numeric type (which sizes its constants' literals)."""

    ids: Offsets
    enums: tuple[tuple[int, str], ...]
    numeric: bool


_WALK: Final = 1  # a first word walked per instruction
_CONSTANT: Final = 2  # a constant whose literal a type sizes (see _exact)
_MEMO_LIMIT: Final = 1 << 14  # entries of a memo keyed by first words (input words)
_IDS: Final = frozenset({_classes.ID, _classes.RESULT_TYPE, _classes.RESULT_ID})
_ID_OR_LITERAL: Final = _IDS | {_classes.LITERAL}
_ONE_WORD: Final = _ID_OR_LITERAL | {_classes.VALUE_ENUM, _classes.BIT_ENUM}
_RESULT_KINDS: Final = ("IdResultType", "IdResult")
_RESULT_ONLY: Final = (1, 2)  # the offsets of a constant's result type and result id
_LITTLE_ENDIAN: Final = sys.byteorder == "little"
_REAL: Final = struct.Struct("=f")
_DOUBLE: Final = struct.Struct("=d")

# opcode → its layout (None: an opcode the grammar lacks)
_LAYOUTS: dict[int, _Layout | None] = {}
# (extended set, instruction number) → its operands (None: a number the set lacks)
_EXT_LAYOUTS: dict[tuple[str, int], tuple[_Operand, ...] | None] = {}
# first word → its static offsets (one-word operands, no enum, no numeric type)
_STATIC: dict[int, Offsets] = {}
# first word → _Shape, _WALK or _CONSTANT (None: the reader's plans decide)
_SHAPES: dict[int, _Shape | int | None] = {}
# enum kind → the values found to take no parameters (see _plain)
_PLAIN: dict[str, set[int]] = {}
# (set or None, BitEnum kind) → (every bit an enumerant uses, those of enumerants with
# parameters)
_BITS: dict[tuple[str | None, str], tuple[int, int]] = {}


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
    sets: dict[int, str] = {}  # OpExtInstImport result id → its string
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
                    found[k] = _walk(words, start, first, sets)
                    break
            else:
                found[k] = shape.ids
            if shape.numeric:
                _declared(words, start, first, numeric)
        elif shape == _WALK:
            found[k] = _walk(words, start, first, sets)
        elif shape == _CONSTANT:
            constants.append(k)
        else:
            raise _Elsewhere
    for k in constants:
        start = starts[k]
        number = numeric.get(words[start + 1])
        if number is None or not _exact(number, words[start + 3 : start + (firsts[k] >> 16)]):
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


def _exact(number: tuple[int, bool, bool], literal: array[int]) -> bool:
    """True when the literal of a constant of this type holds no id and the reader reads
    it back as the same words: an integer's or an IEEE float's but a NaN, of 32 bits (one
    word: the reader's inline path) or 64 (two words, low first)."""
    width, is_float, encoded = number
    if encoded or width != 32 * len(literal) or width not in (32, 64):
        return False
    if not is_float:
        return True
    real: float = (_REAL if width == 32 else _DOUBLE).unpack(literal.tobytes())[0]
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
        found = _Layout(head, _operands(_without_results(kinds), KINDS))
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
    if layout is None:
        return None
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
                return _CONSTANT if count in (4, 5) else None
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
    """True when ``value`` of core's enum ``kind`` is one word without parameters: a
    ValueEnum value the grammar has, without parameters; a BitEnum mask of known bits none
    of which takes parameters (remembered)."""
    enumerants = ENUMERANTS.get(kind)
    if enumerants is None:
        return False
    if KINDS[kind] == _classes.VALUE_ENUM:
        enumerant = enumerants.get(value)
        plain = enumerant is not None and not enumerant[1]
    else:
        known, with_parameters = _bits(_CORE, kind)
        plain = not value & ~known and not value & with_parameters
    if plain:
        _PLAIN.setdefault(kind, set()).add(value)
    return plain


class _Scope(NamedTuple):
    """The operand kinds an instruction's operands are read by: core's, or an extended
    set's over core's (``name``: the set's import string, None for core)."""

    name: str | None
    kinds: dict[str, int]
    enumerants: dict[str, dict[int, tuple[str, tuple[str, ...]]]]


_CORE: Final = _Scope(None, KINDS, ENUMERANTS)
# an extended set's import string → its scope (None: a set the grammars lack)
_SETS: dict[str, _Scope | None] = {}


def _set_scope(import_name: str) -> _Scope | None:
    """The scope of the set ``OpExtInstImport import_name`` names (remembered), or None."""
    if import_name in _SETS:
        return _SETS[import_name]
    from spvbuild.generated.extinst import known_import_name

    known = known_import_name(import_name)
    found = None
    if known is not None and known in EXT_INSTRUCTIONS:
        found = _Scope(
            known,
            {**KINDS, **EXT_KINDS.get(known, {})},
            {**ENUMERANTS, **EXT_ENUMERANTS.get(known, {})},
        )
    if len(_SETS) < _SETS_KEPT:  # (bounded: import strings come from the input)
        _SETS[import_name] = found
    return found


_SETS_KEPT: Final = 256


def _bits(scope: _Scope, kind: str) -> tuple[int, int]:
    """Every bit an enumerant of BitEnum ``kind`` uses, and those of enumerants with
    parameters (remembered)."""
    key = (scope.name, kind)
    found = _BITS.get(key)
    if found is None:
        known = with_parameters = 0
        for value, (_, parameters) in scope.enumerants[kind].items():
            known |= value
            if parameters:
                with_parameters |= value
        found = _BITS[key] = (known, with_parameters)
    return found


def _operands(kinds: tuple[str, ...], classes: dict[str, int]) -> tuple[_Operand, ...]:
    """Operands written as the tables write them (a kind, then its quantifier) as
    :class:`_Operand` records, each kind's class from ``classes``."""
    found = []
    for text in kinds:
        kind = text.rstrip("?*")
        found.append(_Operand(kind, text[len(kind) :], classes.get(kind, -1)))
    return tuple(found)


def _without_results(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Operand kinds without the result type and result id (the general decoder reads
    them apart)."""
    return tuple(k for k in kinds if k.rstrip("?*") not in _RESULT_KINDS)


def _ext_layout(scope: _Scope, number: int) -> tuple[_Operand, ...] | None:
    """The operands of instruction ``number`` of an extended set (remembered), or None
    for a number the set lacks."""
    assert scope.name is not None
    key = (scope.name, number)
    if key in _EXT_LAYOUTS:
        return _EXT_LAYOUTS[key]
    kinds = EXT_INSTRUCTIONS[scope.name].get(number)
    found = None if kinds is None else _operands(_without_results(kinds), scope.kinds)
    if len(_EXT_LAYOUTS) < _MEMO_LIMIT:
        _EXT_LAYOUTS[key] = found
    return found


def _walk(words: array[int], start: int, first: int, sets: dict[int, str]) -> Offsets:
    """The offsets of one instruction, its operands walked as the general decoder reads
    them (see the module's docstring); _Elsewhere where the walk cannot say.  ``sets``:
    each extended set imported so far, by its OpExtInstImport's result id (an
    OpExtInstImport walked here adds its own)."""
    layout = _layout(first & 0xFFFF)
    if layout is None:
        raise _Elsewhere
    end = start + (first >> 16)
    walk = _Walk(words, start, end, list(layout.head), sets)
    pos = walk.operands(_CORE, layout.operands, start + 1 + len(layout.head))
    if pos != end:
        raise _Elsewhere
    if first & 0xFFFF == OP_EXT_INST_IMPORT and walk.text is not None:
        sets[words[start + 1]] = walk.text
    return tuple(walk.ids)


class _Walk:
    """The operands of one instruction, ``words[start:end]``, read in order; ``ids``: the
    offsets of the id words read so far; ``text``: the last string read."""

    def __init__(
        self, words: array[int], start: int, end: int, ids: list[int], sets: dict[int, str]
    ) -> None:
        self.words = words
        self.start = start
        self.end = end
        self.ids = ids
        self.sets = sets
        self.text: str | None = None

    def operands(self, scope: _Scope, layout: Sequence[_Operand], pos: int) -> int:
        """Read ``layout`` from ``pos`` (optional operands while words are left, repeated
        ones until none are); the position after them.  An extended instruction's number
        ends the layout: the operands after it are the set's instruction's; so does the
        opcode ``OpSpecConstantOp`` embeds."""
        end = self.end
        if pos > end:
            raise _Elsewhere
        for operand in layout:
            if operand.cls == _classes.EXT_INST_NUMBER:
                return self.extended(pos)
            if operand.cls == _classes.SPEC_CONSTANT_OPCODE:
                return self.embedded(pos)
            if operand.quantifier == "":
                pos = self.value(scope, operand, pos)
            elif operand.quantifier == "?":
                if pos < end:
                    pos = self.value(scope, operand, pos)
            else:
                while pos < end:
                    pos = self.value(scope, operand, pos)
        return pos

    def extended(self, pos: int) -> int:
        """An extended instruction's number at ``pos`` (its set's id before it), then its
        operands by the set's grammar."""
        if pos >= self.end or pos - 1 - self.start not in self.ids:
            raise _Elsewhere
        name = self.sets.get(self.words[pos - 1])
        scope = _set_scope(name) if name is not None else None
        if scope is None or scope.name is None:
            raise _Elsewhere  # (a set the grammars lack: the reader keeps its words)
        layout = _ext_layout(scope, self.words[pos])
        if layout is None:
            raise _Elsewhere
        return self.operands(scope, layout, pos + 1)

    def embedded(self, pos: int) -> int:
        """The opcode ``OpSpecConstantOp`` embeds at ``pos``, then that instruction's
        operands after its result, each an id or a one-word literal (any other: the reader
        keeps the words)."""
        if pos >= self.end:
            raise _Elsewhere
        layout = _layout(self.words[pos])
        if layout is None or any(op.cls not in _ID_OR_LITERAL for op in layout.operands):
            raise _Elsewhere
        return self.operands(_CORE, layout.operands, pos + 1)

    def value(self, scope: _Scope, operand: _Operand, pos: int) -> int:
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
            found = scope.enumerants[operand.kind].get(self.words[pos])
            if found is None:
                raise _Elsewhere
            return self.parameters(scope, found[1], pos + 1)
        if cls == _classes.BIT_ENUM:
            return self.bits(scope, operand.kind, pos)
        if cls == _classes.ID_PAIR:
            if pos + 1 >= self.end:
                raise _Elsewhere
            self.ids += (pos - self.start, pos + 1 - self.start)
            return pos + 2
        raise _Elsewhere

    def bits(self, scope: _Scope, kind: str, pos: int) -> int:
        """A BitEnum mask, then the parameters of each set bit that takes some, lowest
        first."""
        mask = self.words[pos]
        known, with_parameters = _bits(scope, kind)
        if mask & ~known:
            raise _Elsewhere
        pos += 1
        bits = mask & with_parameters
        enumerants = scope.enumerants[kind]
        bit = 1
        while bit <= bits:
            if bits & bit:
                pos = self.parameters(scope, enumerants[bit][1], pos)
            bit <<= 1
        return pos

    def parameters(self, scope: _Scope, kinds: tuple[str, ...], pos: int) -> int:
        """An enumerant's parameters (kinds with their quantifiers, as the tables write
        them) from ``pos``."""
        if not kinds:
            return pos
        return self.operands(scope, _operands(kinds, scope.kinds), pos)

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
        self.text = found[0]
        return stop
