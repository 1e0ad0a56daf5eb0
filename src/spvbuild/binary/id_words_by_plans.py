"""Where a module's ids are, by the reader's own plans and general decoder: the answer of
:func:`spvbuild.binary.id_words.id_words` for the modules its walk of the grammar's small
tables leaves here (an extended instruction, a literal sized by a type, words the reader
would not type or would refuse, ...).

The offsets come from the grammar as the reader reads it (:mod:`spvbuild.binary.plans`):

* a first word (opcode and word count) whose operands are one-word operands (ids, plain
  literals, enum values without parameters, then maybe a variadic operand of such items
  or of id pairs: :meth:`~spvbuild.binary.plans.CorePlan.fit`) has the same offsets in
  every instruction; its enum words are checked as the reader's fast paths check them
  (a value the grammar lacks, or one that takes parameters, is not read so);
* one whose last enum operand takes the rest as one-word parameters has them per enum
  value;
* any other instruction is read by the general decoder, which notes where it reads an id
  (:class:`_Noting`); its literals sized by a type, as the reader sizes them, once every
  numeric type is known.

:func:`id_words` gives None where the reader would keep words it cannot type
(:class:`~spvbuild.spirv.instruction.RawWords`: an unknown opcode, enum value or extended
set, a string that is not UTF-8, words past the grammar's layout) or would refuse the
module (:class:`~spvbuild.errors.BinaryError`: a short instruction, an id of 0 or past the
bound, ...).
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections import defaultdict
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final, NamedTuple

from spvbuild.binary.framing import frame, offsets
from spvbuild.binary.general import DEFAULT_CONTEXT, Context, Defer, GeneralDecoder
from spvbuild.binary.number_types import declared_number_type
from spvbuild.binary.plans import (
    MEMO_LIMIT,
    PARAMS,
    SPEC_ID,
    SPEC_LITERAL,
    SPEC_PAIR,
    STRING,
    VARIADIC,
    CorePlan,
    InstructionSet,
    core_plan,
)
from spvbuild.binary.read_codes import CONSTANT
from spvbuild.errors import SpvbuildError
from spvbuild.generated.core import operand_classes as _classes
from spvbuild.generated.core.opcodes import (
    OP_SPEC_CONSTANT_OP,
    OP_SWITCH,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
)
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import RawWords
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.strings import string_at, string_in
from spvbuild.spirv.tables import KindInfo

__all__ = ["Found", "id_words"]

_Offsets = tuple[int, ...]  # (spvbuild.binary.id_words.Offsets)

Found = tuple[list[int], Sequence[int], list[_Offsets], list[int]]
"""What :func:`id_words` finds: the fields of :class:`spvbuild.binary.id_words.IdWords`
(``starts``, ``firsts``, ``ids``, ``positions``), in order."""


class _Untyped(Exception):
    """Words the reader would not type, or would refuse: the module has no offsets."""


class _Checked(NamedTuple):
    """The plan of a first word whose operands are one-word operands: its id offsets,
    the (offset, kind) of each enum word, for a last enum operand with parameters
    (offset, kind, parameter words) else None, and whether it declares a numeric type
    (whose literal size the module's constants need)."""

    ids: _Offsets
    enums: tuple[tuple[int, KindInfo], ...]
    params: tuple[int, KindInfo, int] | None
    numeric: bool


_GENERAL: Final = 0  # a first word the general decoder reads (see _plan)
# first word → its static offsets (the commonest: one dict lookup an instruction)
_STATIC: dict[int, _Offsets] = {}
# first word → _Checked, or _GENERAL
_PLANS: dict[int, _Checked | int] = {}
# (kind name, value) → how the value's parameters are read (see _param_specs)
_PARAMS: dict[tuple[str, int], tuple[Any, ...] | None] = {}
_STRING: Final = "@string"  # a string parameter (see _param_specs)
_RESULT_ONLY: Final = (1, 2)  # the offsets of a constant's result type and result id
_LITTLE_ENDIAN: Final = sys.byteorder == "little"
_WORD: Final = struct.Struct("=I")
_REAL: Final = struct.Struct("=f")
# kind name → the values a one-word path takes (see _plain_value)
_PLAIN: defaultdict[str, set[int]] = defaultdict(set)
# (instruction words, context, extended set) → the offsets the general decoder found
_GENERAL_MEMO: dict[tuple[tuple[int, ...], Context | None, str | None], _Offsets] = {}


def id_words(words: array[int]) -> Found | None:
    """Where the ids of the module in ``words`` (header included, as
    :func:`~spvbuild.binary.framing.words_of` gives them) are, or None where the reader
    would not type every word of it or would refuse it (see the module's docstring)."""
    try:
        return _find(words)
    except (_Untyped, SpvbuildError):
        return None


def _short(offset: int) -> None:
    raise _Untyped(offset)


def _find(words: array[int]) -> Found:
    framing = frame(words, _short)
    if framing.end < len(words):
        raise _Untyped(framing.end)
    starts = offsets(words)
    if not starts:
        return starts, (), [], []
    firsts: Sequence[int] = itemgetter(*starts)(words) if len(starts) > 1 else (words[5],)
    found: list[Any] = list(map(_STATIC.get, firsts))
    if None in found:
        _Dynamic(words, starts, firsts).fill(found)
    ids: list[_Offsets] = found
    positions = [
        start + offset for start, offsets_ in zip(starts, ids, strict=True) for offset in offsets_
    ]
    if positions:  # every id in range, as the reader asks
        values = itemgetter(*positions)(words) if len(positions) > 1 else (words[positions[0]],)
        if min(values) == 0 or max(values) >= words[3]:
            raise _Untyped(0)
    return starts, firsts, ids, positions


class _Dynamic:
    """The instructions of one module whose offsets are not static (see _plan)."""

    def __init__(self, words: array[int], starts: list[int], firsts: Sequence[int]) -> None:
        self.words = words
        self.starts = starts
        self.firsts = firsts
        self.plan = core_plan()
        self.decoder: _Noting | None = None
        self.widths: dict[int, Context] = {}  # numeric type id → how its literals are sized

    def noting(self) -> _Noting:
        if self.decoder is None:
            self.decoder = _Noting(self.words, self.words[3])
        return self.decoder

    def fill(self, found: list[Any]) -> None:
        """Put the offsets of each instruction whose entry in ``found`` is None."""
        words, starts, firsts = self.words, self.starts, self.firsts
        deferred = self.plan.deferred
        later: list[int] = []  # instructions read once every numeric type is known
        plans = _PLANS
        plain = _PLAIN
        for k in [k for k, offsets_ in enumerate(found) if offsets_ is None]:
            first = firsts[k]
            start = starts[k]
            plan = plans.get(first)
            if plan is None:
                plan = _plan(self.plan, first)
            if type(plan) is _Checked:
                for offset, kind in plan.enums:
                    value = words[start + offset]
                    if value not in plain[kind.name] and not _plain_value(kind, value):
                        break
                else:
                    if plan.params is None:
                        found[k] = plan.ids
                    else:
                        result = _with_params(plan, words, start, True)
                        if result is None:
                            result = self.general(start, first, None)
                        found[k] = result
                if plan.numeric:
                    self.declared(start, first)
                if found[k] is not None:
                    continue
            elif first & 0xFFFF in deferred:
                later.append(k)
                continue
            result = self.general(start, first, None)
            if result is None:
                later.append(k)
            else:
                found[k] = result
        if later:
            self.later(found, later)

    def declared(self, start: int, first: int) -> None:
        """Note the literal size of a numeric type (the reader sizes by the last of two
        definitions of an id: such a module is taken typed)."""
        words = self.words
        number = declared_number_type(first & 0xFFFF, words[start + 2 : start + (first >> 16)])
        if number is None or words[start + 1] in self.widths:
            raise _Untyped(start)
        self.widths[words[start + 1]] = number

    def general(self, start: int, first: int, context: Context | None) -> _Offsets | None:
        """The offsets the general decoder finds (None: it needs the number context),
        remembered by the instruction's words."""
        opcode = first & 0xFFFF
        words = self.words
        end = start + (first >> 16)
        ext_name = None
        if opcode in self.plan.ext_inst and end - start > 3:
            ext_name = self.noting().ext_names.get(words[start + 3])
        key = (tuple(words[start:end]), context, ext_name)
        found = _GENERAL_MEMO.get(key)
        if found is not None:
            return found
        decoder = self.noting()
        decoder.noted = []
        try:
            inst = decoder.instruction(start, end, opcode, context)
        except Defer:
            return None
        if _holds_raw(inst.operands):
            raise _Untyped(start)
        found = tuple(pos - start for pos in decoder.noted)
        if not decoder.changed and len(_GENERAL_MEMO) < MEMO_LIMIT:
            _GENERAL_MEMO[key] = found
        decoder.changed = False
        return found

    def later(self, found: list[Any], later: list[int]) -> None:
        """The instructions whose literals a type sizes, by the context the reader gives
        them (see decode.Reader._decode_later)."""
        words, starts, firsts = self.words, self.starts, self.firsts
        header = self.plan.header
        widths = self.widths
        code = self.plan.code
        selectors = {words[starts[k] + 1] for k in later if firsts[k] & 0xFFFF == OP_SWITCH}
        value_types: dict[int, int] = {}
        if selectors:
            for start, first in zip(starts, firsts, strict=True):
                has_rt, has_rid, _ = header.get(first & 0xFFFF, (False, False, False))
                if has_rt and has_rid and (first >> 16) >= 3 and words[start + 2] in selectors:
                    value_types[words[start + 2]] = words[start + 1]
        for k in later:
            start, first = starts[k], firsts[k]
            opcode = first & 0xFFFF
            context: Context | None = None
            if opcode == OP_SWITCH:
                selector_type = value_types.get(words[start + 1])
                if selector_type is not None:
                    context = widths.get(selector_type)
            elif header[opcode][0]:
                context = widths.get(words[start + 1])
                if code(first) == CONSTANT and _inline(context, words[start + 3]):
                    found[k] = _RESULT_ONLY
                    continue
            result = self.general(start, first, context or DEFAULT_CONTEXT)
            if result is None:  # pragma: no cover - a context is given
                raise _Untyped(start)
            found[k] = result


def _inline(context: Context | None, word: int) -> bool:
    """True when a 32-bit constant of this type reads as the reader's inline path reads
    it (read_engine.decode: an int, or a float but a NaN): its one literal word holds no
    id and reads back the same."""
    if context is None or context.width != 32 or context.encoding is not None:
        return False
    if not context.is_float:
        return True
    real: float = _REAL.unpack(_WORD.pack(word))[0]
    return real == real


def _with_params(plan: _Checked, words: array[int], start: int, walk: bool) -> _Offsets | None:
    """The offsets of an instruction whose last enum operand takes the rest as parameters:
    one-word operands (then the same for every instruction of the value), or, with
    ``walk``, strings too (walked); None where the general decoder must read them."""
    assert plan.params is not None
    offset, kind, count = plan.params
    value = words[start + offset]
    key = (kind.name, value)
    if key in _PARAMS:
        specs = _PARAMS[key]
    else:
        specs = _param_specs(core_plan(), kind, value)
        if len(_PARAMS) < MEMO_LIMIT:
            _PARAMS[key] = specs
    if specs is None:
        return None
    if all(spec == SPEC_ID or spec == SPEC_LITERAL for spec in specs):
        if len(specs) != count:
            return None
        return plan.ids + tuple(offset + 1 + k for k, spec in enumerate(specs) if spec == SPEC_ID)
    if not walk:
        return None
    found = _walk(specs, words, start + offset + 1, start + (words[start] >> 16))
    return None if found is None else plan.ids + tuple(p - start for p in found)


def _string(words: array[int], pos: int, end: int) -> tuple[str, int, bool] | None:
    """The string in ``words[pos:end]`` as :func:`~spvbuild.spirv.strings.string_in` reads
    it (its stop counted from ``pos``), from the words' bytes as they lie where they are
    little-endian."""
    if _LITTLE_ENDIAN:
        return string_in(words[pos:end].tobytes(), 0)
    found = string_at(words, pos, end)  # pragma: no cover - big-endian hosts
    return None if found is None else (found[0], found[1] - pos, found[2])


def _walk(specs: tuple[Any, ...], words: array[int], pos: int, end: int) -> list[int] | None:
    """The positions of the ids among parameters of one-word operands and strings from
    ``pos`` to the instruction's ``end``, or None where the reader would not read them
    so (a string without NUL or that is not canonical, an enum value it does not take,
    words too few or left over)."""
    found: list[int] = []
    for spec in specs:
        if pos >= end:
            return None
        if spec is _STRING:
            string = _string(words, pos, end)
            if string is None or not string[2]:
                return None
            pos += string[1]
            continue
        if spec == SPEC_ID:
            found.append(pos)
        elif spec != SPEC_LITERAL:
            value = words[pos]
            if value not in _PLAIN[spec.name] and not _plain_value(spec, value):
                return None
        pos += 1
    return found if pos == end else None


def _plan(plan: CorePlan, first: int) -> _Checked | int:
    """How the offsets of a first word are found: static ones go into _STATIC; a
    _Checked; or _GENERAL."""
    found = _make_plan(plan, first)
    if len(_PLANS) < MEMO_LIMIT:
        _PLANS[first] = found
        if type(found) is _Checked and not (found.enums or found.params or found.numeric):
            _STATIC[first] = found.ids
    return found


def _make_plan(plan: CorePlan, first: int) -> _Checked | int:
    opcode, count = first & 0xFFFF, first >> 16
    core = plan.set
    info = core.instructions.get(opcode)
    if (
        info is None
        or opcode in plan.deferred
        or opcode in plan.ext_inst
        or opcode == OP_SPEC_CONSTANT_OP
    ):
        return _GENERAL
    has_rt, has_rid, _ = plan.header[opcode]
    if has_rt and not has_rid:
        return _GENERAL
    reading = plan.fit(core, core.layout(opcode, info), count - 1 - has_rt - has_rid)
    if reading is None or reading[0] == STRING:  # a string's words: the general walk
        return _GENERAL
    form, specs, spec, words, _ = reading
    ids: list[int] = [1] if has_rt else []
    if has_rid:
        ids.append(1 + has_rt)
    enums: list[tuple[int, KindInfo]] = []
    pos = 1 + has_rt + has_rid
    for item in specs:
        if item == SPEC_ID:
            ids.append(pos)
        elif item != SPEC_LITERAL:
            enums.append((pos, core.kinds[item]))
        pos += 1
    params = None
    if form == VARIADIC:
        if spec == SPEC_ID or spec == SPEC_PAIR:
            ids.extend(range(pos, pos + words))
        elif spec != SPEC_LITERAL:
            enums.extend((p, core.kinds[spec]) for p in range(pos, pos + words))
    elif form == PARAMS:
        params = (pos, core.kinds[spec], words)
    numeric = opcode == OP_TYPE_INT or opcode == OP_TYPE_FLOAT
    return _Checked(tuple(ids), tuple(enums), params, numeric)


def _plain_value(kind: KindInfo, value: int) -> bool:
    """True when a one-word path takes ``value`` of ``kind`` (as the reader's enum
    tables: a ValueEnum enumerant without parameters, a BitEnum mask of known bits none
    of which takes parameters); remembered."""
    tables = core_plan().set
    if kind.operand_class == _classes.VALUE_ENUM:
        enumerant = kind.enumerants.get(value)
        plain = enumerant is not None and not enumerant.parameters
    else:
        plain = not value & ~tables.known_bits(kind) and not tables.bits_with_parameters(
            kind, value
        )
    plain = plain and tables.member(kind.name, value) is not None
    if plain:
        _PLAIN[kind.name].add(value)
    return plain


def _param_specs(plan: CorePlan, kind: KindInfo, value: int) -> tuple[Any, ...] | None:
    """How the parameters of ``value`` are read word by word: each an id, a plain
    literal, the kind of an enum value without parameters, or a string (:data:`_STRING`);
    None where the general decoder must read them (an optional or variadic parameter, a
    float, a pair, an enum value the grammar or its parameter classes lack)."""
    tables: InstructionSet = plan.set
    classes = tables.parameter_classes.get(kind.name, {})
    if tables.member(kind.name, value) is None:
        return None
    layouts = []
    if kind.operand_class == _classes.VALUE_ENUM:
        enumerant = kind.enumerants.get(value)
        if enumerant is None or not enumerant.parameters or classes.get(value) is None:
            return None
        layouts.append(enumerant.parameters)
    else:
        if value & ~tables.known_bits(kind):
            return None
        for _, enumerant, cls in tables.bits_with_parameters(kind, value):
            if cls is None:
                return None
            layouts.append(enumerant.parameters)
        if not layouts:
            return None
    specs: list[Any] = []
    for layout in layouts:
        for op in layout:
            found = tables.kinds.get(op.kind)
            if op.quantifier != "" or found is None:
                return None
            spec = plan.spec(tables, op.kind)
            if found.operand_class == _classes.STRING:
                specs.append(_STRING)
            elif spec == SPEC_ID or spec == SPEC_LITERAL:
                specs.append(spec)
            elif (
                spec is not None
                and spec != SPEC_PAIR
                and not any(e.parameters for e in found.enumerants.values())
            ):
                specs.append(found)  # an enum whose values take no parameters
            else:
                return None
    return tuple(specs)


class _Noting(GeneralDecoder):
    """The general decoder, noting the offset of every id word it reads; ``changed``:
    the last instruction changed what later ones are read by (an extended set imported)."""

    def __init__(self, words: array[int], bound: int) -> None:
        super().__init__(words, bound)
        self.noted: list[int] = []
        self.changed = False

    def imported(self) -> None:
        self.changed = True

    def _id(self, pos: int) -> Id:
        self.noted.append(pos)
        return super()._id(pos)

    def _type_ref(self, pos: int) -> Any:
        self.noted.append(pos)
        return super()._type_ref(pos)


def _holds_raw(values: Sequence[Any]) -> bool:
    """True if an operand is, or holds, words the reader could not type."""
    for value in values:
        kind = type(value)
        if kind is RawWords:
            return True
        if kind is tuple or kind is list:
            if _holds_raw(value):
                return True
        elif isinstance(value, EnumerantParameters) and _holds_raw(value.parameters):
            return True
    return False
