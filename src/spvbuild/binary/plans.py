"""What the grammar says about the words of each first word: the reader's plans.

A *first word* is an instruction's opcode and word count.  From the tables of
``spvbuild.generated.core`` (and of an extended set for ``OpExtInst``) this decides, once
per process and per first word, what every consumer of the words needs to know before it
looks at the operands:

* ``CorePlan.lowest``: the grammar's minimum word count of each opcode (the framing walk,
  :func:`spvbuild.binary.framing.frame`, hands the instructions below it to its caller);
* :meth:`CorePlan.code`: the path of the reader's decoding loop (one of the codes of
  :mod:`spvbuild.binary.read_codes`);
* :meth:`CorePlan.reading` (and :meth:`CorePlan.ext_reading` for the operands of an
  ``OpExtInst``): how the operand words are read when each is one word (an id, a plain
  literal, an enum value without parameters), maybe a variadic operand of such words
  last, or the parameters of the last enum operand: the *reading* (see :meth:`CorePlan.fit`),
  from which the reader makes its fast-path decoders (:mod:`spvbuild.binary.fast_paths`) and
  the disassembler its line makers (:mod:`spvbuild.text.dis_lines`).

Nothing here is per instruction: operands are classified by their kind's class
(``spvbuild.generated.core.operand_classes``).  :class:`InstructionSet` is the view of the
tables of core, or of one extended set over core's kinds, that the general decoder reads.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

from spvbuild.binary import read_codes as _codes
from spvbuild.generated.core import operand_classes as _classes
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_EXT_INST_IMPORT,
    OP_SPEC_CONSTANT,
    OP_SPEC_CONSTANT_OP,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
)
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.tables import EnumerantInfo, InstructionInfo, KindInfo, OperandInfo, id_run

__all__ = [
    "FLAT",
    "ID_CLASSES",
    "ID_OR_LITERAL",
    "MEMO_LIMIT",
    "PARAMS",
    "SPEC_ID",
    "SPEC_LITERAL",
    "SPEC_PAIR",
    "VARIADIC",
    "CorePlan",
    "InstructionSet",
    "Reading",
    "core_plan",
    "ext_tables",
]

_TYPE_DECLARATION = "Type-Declaration"

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
FLAT: Final = 0  # one-word operands, then absent ones
VARIADIC: Final = 1  # one-word operands, a variadic operand (one-word items, id pairs), absent ones
PARAMS: Final = 2  # one-word operands, an enum value with parameters to the end, absent ones
STRING: Final = 3  # one-word operands, then the layout's last operand: a string to the end
# How a one-word path reads an operand of a kind (its "spec"): an id, a plain literal or
# an enum value (the kind's name); a pair of ids (variadic only).
SPEC_ID: Final = "@id"
SPEC_LITERAL: Final = "@literal"
SPEC_PAIR: Final = "@pair"
# Operand classes, as the reader groups them.
ID_CLASSES: Final = (_classes.ID, _classes.RESULT_TYPE, _classes.RESULT_ID)
_ONE_WORD_LITERALS: Final = (
    _classes.LITERAL,
    _classes.EXT_INST_NUMBER,
    _classes.SPEC_CONSTANT_OPCODE,
)
_ENUMS: Final = (_classes.VALUE_ENUM, _classes.BIT_ENUM)
ID_OR_LITERAL: Final = (*ID_CLASSES, _classes.LITERAL)
# Classes whose words a type sizes: the literal of OpConstant and of an OpSwitch pair.
_SIZED_BY_A_TYPE: Final = (_classes.CONTEXT_NUMBER, _classes.SWITCH_PAIR)
# (form, specs of the one-word operands, the variadic operand's spec or the kind of the
# enum with parameters, the words of that operand or its parameters, the absent tail)
Reading = tuple[int, tuple[str, ...], str, int, tuple[Any, ...]]
MEMO_LIMIT: Final = 1 << 14  # entries of a memo keyed by input words (first words)


def _is_id(kinds: dict[str, KindInfo], name: str) -> bool:
    """True if operands of kind ``name`` are single ids."""
    kind = kinds.get(name)
    return kind is not None and kind.operand_class in ID_CLASSES


_SIZING_TYPES: Final = frozenset({OP_TYPE_INT, OP_TYPE_FLOAT})
"""Type declarations that size later literals: the general decoder records their widths."""


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

    def bits_with_parameters(
        self, kind: KindInfo, mask: int
    ) -> list[tuple[int, EnumerantInfo, type[EnumerantParameters] | None]]:
        """The set bits of a BitEnum mask whose enumerants take parameters, lowest first
        (the order their parameters follow the mask in): each bit, its enumerant and the
        parameter class of its value (None where the set has none)."""
        classes = self.parameter_classes.get(kind.name, {})
        found = []
        bit = 1
        while bit <= mask:
            if mask & bit:
                enumerant = kind.enumerants.get(bit)
                if enumerant is not None and enumerant.parameters:
                    found.append((bit, enumerant, classes.get(bit)))
            bit <<= 1
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
        # The grammar's minimum word count of each opcode (1 for one the grammar lacks):
        # small ints, which CPython shares, so the table costs a pointer per opcode.
        self.lowest: list[int] = [1] * size
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
        # Type declarations the one-word paths take: their result id is defined as a
        # TypeId (OpTypeInt and OpTypeFloat, which size later literals, stay general).
        self.defines: set[int] = set()
        ext_inst = self.ext_inst
        for opcode, info in tables.INSTRUCTIONS.items():
            layout = self.set.layout(opcode, info)
            has_rt, has_rid = info.has_result_type, info.has_result
            is_type = info.cls == _TYPE_DECLARATION
            self.header[opcode] = (has_rt, has_rid, is_type)
            required = sum(1 for op in layout if op.quantifier == "")
            self.lowest[opcode] = 1 + has_rt + has_rid + required
            if self.set.uses_context(layout):
                self.deferred.add(opcode)
            elif not is_type and opcode != OP_SPEC_CONSTANT_OP and opcode not in ext_inst:
                self._plan(opcode, layout, has_rt, has_rid, tables.KINDS)
                if (has_rid or not has_rt) and opcode != OP_EXT_INST_IMPORT:  # it names a set
                    self.word_layouts[opcode] = layout
            elif is_type and has_rid and not has_rt and opcode not in _SIZING_TYPES:
                self.word_layouts[opcode] = layout
                self.defines.add(opcode)

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
            if len(self.codes) < MEMO_LIMIT:
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
        if len(self.readings) < MEMO_LIMIT:
            self.readings[first] = found
            if found is not None and _ids_only(found) and opcode not in self.defines:
                self.ids_only.add(first)
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
        a variadic operand takes the words left (one-word items or pairs of ids), and so
        does a string that is the layout's last operand (its lookup fails unless it fills
        them exactly, canonical: valid UTF-8, zero padding).  When
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
            if op.quantifier == "" and index == len(layout) - 1 and _is_string(tables, op.kind):
                return (STRING, tuple(specs), "", left, ())
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
        if code in ID_CLASSES:
            return SPEC_ID
        if code in _ONE_WORD_LITERALS:
            return SPEC_LITERAL
        if code in _ENUMS:
            return name
        if code == _classes.ID_PAIR:
            return SPEC_PAIR
        return None


def _is_string(tables: InstructionSet, name: str) -> bool:
    """True for an operand kind that is a literal string."""
    kind = tables.kinds.get(name)
    return kind is not None and kind.operand_class == _classes.STRING


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
