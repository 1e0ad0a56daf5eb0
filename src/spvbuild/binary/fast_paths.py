"""The reader's fast-path decoders: one per first word, made from the plans.

For a first word whose operands the plans read word by word
(:meth:`spvbuild.binary.plans.CorePlan.reading`), the decoder is a function whose body is
one expression made for the reading's shape (:func:`_recipe`: source from word indices
and names only, compiled once per process per shape) in which each operand word indexes
the lookup of its operand: the ids, an :class:`_EnumTable` (value → exactly what the
general decoder gives, filled on first sight; KeyError for an unknown value or one with
parameters) or a :class:`_ParamTable` (value → a function of the parameter words making
the generated parameter object, or the list of a mask).  A decoder is made on the
``_SIGHTS``-th sight of its first word (:class:`_Decoders`; ``OpExtInst`` per set id,
instruction number and first word: :class:`_ExtPlans`); before, the general decoder or
:meth:`FastPaths.ids_only` take it.  :class:`FastPaths` is the general decoder with these
tables and the lookups they bind; the tables refer to it weakly (no reference cycle keeps
a decoded module's decoder alive).  See "Design for speed" in :mod:`spvbuild.binary.reader`.
"""

from __future__ import annotations

import operator
import struct
import sys
import weakref
from array import array
from collections.abc import Callable, Iterator
from typing import Any

from spvbuild.binary.general import GeneralDecoder
from spvbuild.binary.plans import (
    MEMO_LIMIT,
    PARAMS,
    SPEC_ID,
    SPEC_LITERAL,
    SPEC_PAIR,
    STRING,
    VARIADIC,
    InstructionSet,
    Reading,
    core_plan,
    ext_tables,
)
from spvbuild.generated.core import operand_classes as _classes
from spvbuild.spirv.ids import TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.strings import string_in
from spvbuild.spirv.tables import KindInfo, OperandInfo

__all__ = ["FastPaths", "type_definer"]

# A decoder of one first word: (offset, w0 ... w4) → the instruction.
_Decoder = Callable[[int, int, int, int, int, int], Instruction]
_LITTLE_ENDIAN = sys.byteorder == "little"  # then the words' bytes are little-endian
_WINDOW_WORDS = 5  # the words of an instruction the fast paths are given (w0 to w4)
_LITERALS = range(1 << 32)  # word → the word: a plain literal's lookup
_DIRECT = 8  # up to this many operand words (items) a decoder indexes one by one
# A first word's decoder is made on this sight of it (before, the general decoder takes
# it).  The recipes are compiled once per process, so binding one costs about what the
# general decoder spends on one instruction: on the first sight, the GLSL corpus's 228
# small modules read 10 % faster than on the third, the big modules alike.
_SIGHTS = 1
# What a name of a decoder's expression is bound to (see _recipe): the lookup of a spec,
# the lookups of the reading's one-word operands (more than _DIRECT), the _ParamTable of
# the reading's enum, struct's unpack_from of the reading's variadic words.
_LOOKUP, _LOOKUPS, _PARAM_TABLE, _UNPACK, _STRING = range(5)
_Names = tuple[tuple[str, int, str], ...]  # (name, what it is bound to, spec)
_Recipe = tuple[Callable[..., _Decoder], _Names]
_RECIPES: dict[tuple[bool, bool, bool, bool, Reading], _Recipe] = {}  # bounded by the grammar


def _recipe(
    has_rt: bool, has_rid: bool, ext: bool, reading: Reading, define: bool = False
) -> _Recipe:
    """How to make the decoder of a reading (see FastPaths.decoder): a function of the
    values its expression names, and for each name what it is bound to.  ``define``: the
    instruction declares a type, its result id is defined as a TypeId (:func:`type_definer`).

    The decoder's body is one expression made for the reading's shape: each operand word,
    a local of the window or ``words[i + k]``, indexes the lookup of its operand; that is
    much faster than mapping lookups over a slice.  Its source is made from the shape
    only (word indices, names, None and () for absent operands), never from input data,
    and each distinct one is compiled once per process."""
    form, specs, spec, count, tail = reading
    # The source depends on the count of variadic words up to _DIRECT only.
    key = (has_rt, has_rid, ext, define, (form, specs, spec, _shown(form, count), tail))
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
    elif form == STRING:
        names.append(("S", _STRING, ""))
        parts.append(f"S(words, i + {pos}, i + (w0 >> 16))")
    parts.extend("None" if item is None else "()" for item in tail)
    if has_rt:
        header = "type_ids[w1], ids[w2]"
    elif has_rid:
        header = "None, define(w1)" if define else "None, ids[w1]"
    else:
        header = "None, None"
    operands = "(" + "".join(f"{part}, " for part in parts) + ")"
    params = ", ".join(
        ("new, inst, getitem, words, ids, type_ids, define, op, ext_set", *(n for n, _, _ in names))
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


def type_definer(
    ids: list[Any] | dict[int, Any], type_ids: dict[int, TypeId], bound: int
) -> Callable[[int], TypeId]:
    """What a type declaration's decoder calls on its result id word: the id's TypeId (made
    on first sight, kept in ``type_ids``), which from now on also stands in ``ids`` for
    the id, as the general decoder's ``_define`` does.  An id of 0 or not below the bound
    raises IndexError: the general decoder then takes the instruction and says where.
    It holds the tables, never the reader (no reference cycle)."""

    def define(word: int) -> TypeId:
        found = type_ids.get(word)
        if found is None:
            if not 0 < word < bound:
                raise IndexError(word)
            found = type_ids[word] = TypeId(word)
        ids[word] = found  # (a TypeId is an Id at run time)
        return found

    return define


def _string_to_end(words: array[int], start: int, end: int) -> str:
    """The string that fills ``words[start:end]``, read as the general decoder reads it;
    KeyError unless it ends exactly at ``end`` and its words are canonical (valid UTF-8,
    zero padding): the general decoder then takes the instruction (keeps its words, or
    says where the NUL is missing)."""
    if _LITTLE_ENDIAN:
        data = words[start:end].tobytes()
    else:  # pragma: no cover - big-endian hosts
        data = struct.pack(f"<{end - start}I", *words[start:end])
    found = string_in(data, 0)
    if found is None or found[1] != end - start or not found[2]:
        raise KeyError(start)
    return found[0]


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


_RecipeOf = tuple[Reading, Callable[..., _Decoder], _Names]
_BY_FIRST: dict[int, _RecipeOf] = {}  # memos (bounded: first words are input words)
_BY_EXT: dict[tuple[str | None, int, int], _RecipeOf | None] = {}


def _first_recipe(first: int) -> _RecipeOf:
    """The reading and the recipe (see _recipe) of a first word that takes the one-word
    path."""
    found = _BY_FIRST.get(first)
    if found is None:
        plan = core_plan()
        reading = plan.reading(first)
        assert reading is not None
        has_rt, has_rid, _ = plan.header[first & 0xFFFF]
        define = first & 0xFFFF in plan.defines
        found = (reading, *_recipe(has_rt, has_rid, False, reading, define))
        if len(_BY_FIRST) < MEMO_LIMIT:
            _BY_FIRST[first] = found
    return found


def _ext_recipe(ext: InstructionSet, number: int, first: int) -> _RecipeOf | None:
    """The reading and the recipe of an OpExtInst of a set (see CorePlan.ext_reading),
    or None."""
    key = (ext.name, number, first)
    if key in _BY_EXT:
        return _BY_EXT[key]
    reading = core_plan().ext_reading(ext, number, first)
    found = None if reading is None else (reading, *_recipe(True, True, True, reading))
    if len(_BY_EXT) < MEMO_LIMIT:
        _BY_EXT[key] = found
    return found


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
        elif not value & ~tables.known_bits(kind):  # BitEnum: as FastPaths._bit_enum
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

    def __init__(self, reader: FastPaths, tables: InstructionSet, kind: KindInfo, count: int):
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
        if kind.operand_class == _classes.VALUE_ENUM:  # as FastPaths._value_enum
            enumerant = kind.enumerants.get(value)
            if enumerant is None or tables.member(kind.name, value) is None:
                return None
            cls = classes.get(value)
            if not enumerant.parameters or cls is None:
                return None
            groups.append((cls, enumerant.parameters))
        else:  # as FastPaths._bit_enum
            if value & ~tables.known_bits(kind) or tables.member(kind.name, value) is None:
                return None
            param_bits = 0
            for bit, enumerant, found in tables.bits_with_parameters(kind, value):
                if found is None:
                    return None
                groups.append((found, enumerant.parameters))
                param_bits |= bit
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


_ENUM_TABLES: dict[tuple[str | None, str], _EnumTable] = {}
"""Every reader's _EnumTables, by (set name, kind name): what they hold is the grammar's,
so that each value is looked up once per process, not once per module."""


class _ExtPlans(dict[int, "_ExtSetPlans"]):
    """set id word → the one-word paths of the instructions of that extended set (the
    set's name known from its OpExtInstImport); KeyError for any other word.  Cleared
    when an OpExtInstImport is decoded."""

    __slots__ = ("reader",)

    def __init__(self, reader: FastPaths) -> None:
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

    def __init__(self, reader: FastPaths, name: str, ext: InstructionSet) -> None:
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
        made = _ext_recipe(self.ext, number, first)
        if made is None:
            raise KeyError(key)
        found = reader.bind(self.ext, first & 0xFFFF, self.name, *made)
        self[key] = found
        return found


class _Decoders(dict[int, _Decoder]):
    """first word → its decoder (see FastPaths.bind), made on the _SIGHTS-th sight of the
    word: before, the general decoder or FastPaths.ids_only take it."""

    __slots__ = ("reader", "seen", "ids_only")

    def __init__(self, reader: FastPaths) -> None:
        super().__init__()
        self.reader = reader
        self.seen: dict[int, int] = {}  # sightings before the decoder is made
        self.ids_only = reader.plan.ids_only

    def __missing__(self, first: int) -> _Decoder:
        seen = self.seen[first] = self.seen.get(first, 0) + 1
        if seen >= _SIGHTS:
            return self.reader.decoder  # makes the decoder and puts it here
        return self.reader.ids_only if first in self.ids_only else self.reader.general


class FastPaths(GeneralDecoder):
    """The general decoder with the fast paths' tables: what the decoders of one module
    look up, and the decoders themselves (made per first word)."""

    def __init__(self, words: array[int], bound: int) -> None:
        super().__init__(words, bound)
        # The tables below refer to the decoder by a weak proxy: no reference cycle, so
        # that it and what it holds are freed as soon as it is done.
        me = weakref.proxy(self)
        # what every decoder uses (see _recipe; ids replaced by decode.Reader.run)
        self.shared: tuple[Any, ...] = (
            tuple.__new__,
            Instruction,
            operator.getitem,
            words,
            self.ids,
            self.type_ids,
            type_definer(self.ids, self.type_ids, bound),
        )
        self.ext_plans = _ExtPlans(me)  # the one-word paths of OpExtInst
        self.decoders = _Decoders(me)  # the one-word paths of core
        # (set name, kind name) → its _EnumTable; (..., parameter words) → _ParamTable
        self.enum_tables = _ENUM_TABLES  # (shared: they hold nothing of a module)
        self.param_tables: dict[tuple[str | None, str, int], _ParamTable] = {}

    def imported(self) -> None:
        """An OpExtInstImport was decoded: the one-word paths of OpExtInst are made again."""
        self.ext_plans.clear()

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
        reading, make, names = _first_recipe(w0)
        decoder = self.bind(self.core, w0 & 0xFFFF, None, reading, make, names)
        self.decoders[w0] = decoder
        return decoder(i, w0, w1, w2, w3, w4)

    def ids_only(self, i: int, w0: int, w1: int, w2: int, w3: int, w4: int) -> Instruction:
        """Decode an instruction whose reading has ids only (a variadic one last) without
        a decoder: what a first sight costs."""
        form, specs, _, count, tail = _first_recipe(w0)[0]
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
            elif what == _STRING:
                values.append(_string_to_end)
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
