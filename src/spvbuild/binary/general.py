"""The general decoder: one instruction's words → its typed :class:`Instruction`, by
walking the grammar's layout.

Every operand is decoded by its kind's class (``spvbuild.generated.core.operand_classes``)
from the tables of core, or of the extended set an ``OpExtInst`` names; there is no code
per instruction.  It makes exactly what :func:`spvbuild.binary.encoder.encode_module` encodes
back to the same words (else :class:`RawWords`, see :mod:`spvbuild.binary.reader`), and says
where an instruction is malformed (:class:`~spvbuild.errors.BinaryError` with the word
offset).  It keeps the state decoding needs in module order: the one :class:`Id` object
per word, the :class:`TypeId` of every declared type, the extended sets imported, the
numeric types (the width of context-dependent literals).  The reader's fast paths
(:mod:`spvbuild.binary.fast_paths`) and its loop (:mod:`spvbuild.binary.decode`) build on it.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable
from typing import Any

from spvbuild.binary.number_types import declared_number_type
from spvbuild.binary.plans import (
    ID_CLASSES,
    ID_OR_LITERAL,
    InstructionSet,
    core_plan,
    ext_tables,
)
from spvbuild.errors import BinaryError, EncodeError
from spvbuild.generated.core import operand_classes as _classes
from spvbuild.generated.core.opcodes import (
    OP_EXT_INST_IMPORT,
    OP_SPEC_CONSTANT_OP,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
)
from spvbuild.spirv.ids import Id, TypeId, as_id
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.numbers import FLOAT32, UINT32, NumberType
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.strings import string_in
from spvbuild.spirv.tables import KindInfo, OperandInfo

__all__ = ["DEFAULT_CONTEXT", "Context", "Defer", "GeneralDecoder"]

Context = NumberType  # how a literal sized by a type is read
DEFAULT_CONTEXT: Context = UINT32
_FLOAT32: Context = FLOAT32


class _BadId(KeyError):
    """An id of 0 or not below the bound (the caller knows where)."""


class _RestRaw(Exception):
    """An enum value the grammar lacks: the rest of the instruction cannot be typed."""


class Defer(Exception):
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


class GeneralDecoder:
    """Decodes the instructions of one module (the words after the header), one at a time
    (:meth:`instruction`), in module order."""

    def __init__(self, words: array[int], bound: int) -> None:
        self.words = words
        self.bound = bound
        self.plan = core_plan()
        self.core = self.plan.set
        # word → the one Id object of that id (a TypeId once declared as a type): a dict
        # filled on first sight, or a list filled in bulk (see decode.Reader.run)
        self.ids: list[Id] | dict[int, Id] = _IdTable(bound, Id)
        # word → TypeId, for result types; filled by type declarations and on first use
        self.type_ids: dict[int, TypeId] = {}
        self.ext_names: dict[int, str] = {}  # OpExtInstImport result id → set name
        self.widths: dict[int, Context] = {}  # numeric type id → number context
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
        self.context: Context | None = None
        self.instruction_bytes: bytes | None = None

    def imported(self) -> None:
        """An OpExtInstImport was decoded: what depends on the import names is stale (the
        fast paths override this)."""

    def _name(self, opcode: int) -> str:
        info = self.core.instructions.get(opcode)
        return info.name if info is not None else f"opcode {opcode}"

    # -- one instruction ------------------------------------------------------------------
    def _begin(self, start: int, end: int, where: str) -> None:
        self.start = start
        self.end = end
        self.where = where
        self.instruction_bytes = None

    def instruction(self, start: int, end: int, op: int, context: Context | None) -> Instruction:
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
            self.imported()
        elif (op == OP_TYPE_INT or op == OP_TYPE_FLOAT) and result_id is not None:
            # As encode_module will size literals, by the one NumberType of the type.
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
            raise Defer
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
            op.kind in kinds and kinds[op.kind].operand_class in ID_OR_LITERAL for op in layout
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
        if code in ID_CLASSES:
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

    def _context(self) -> Context:
        if self.context is None:
            raise Defer
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
        for bit, enumerant, cls in tables.bits_with_parameters(kind, mask):
            if cls is None:
                raise _RestRaw
            params, pos = self._params(tables, enumerant.parameters, pos)
            with_params.append(_make(cls, params))
            param_bits |= bit
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
        found = as_id(self._type_ref(pos))
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

    def _number(self, pos: int, context: Context) -> tuple[Any, int]:
        """The literal at ``pos`` read by its type's codec; the instruction keeps its words
        (``inexact``) where the codec cannot read them or would write other words."""
        count = 1 if context.width <= 32 else 2
        self._need(pos + count - 1)
        words = self.words[pos : pos + count].tolist()
        after = pos + count
        try:
            value = context.value(words)
        except EncodeError:
            self.inexact = True
            return None, after
        try:
            same = context.words(value) == words
        except EncodeError:
            same = False
        if not same:
            self.inexact = True
        return value, after


def _make(cls: type[EnumerantParameters], params: list[Any]) -> EnumerantParameters:
    try:
        return cls(*params)
    except (TypeError, ValueError):  # pragma: no cover - generated classes take the layout
        raise _RestRaw from None
