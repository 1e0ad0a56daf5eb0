"""The one generic encoder: instruction records → SPIR-V words, driven by the tables.

Nothing here knows a particular instruction.  The operand layout comes from
``spvbuild.generated.core.tables`` (or an extended set's table for ``OpExtInst``); each
operand is encoded by its kind's class (``spvbuild.generated.core.operand_classes``).  Context-dependent literals (OpConstant,
OpSpecConstant, OpSwitch) take their width from a :class:`TypeWidths` lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import Enum
from typing import Any

from spvbuild.binary.header import GENERATOR as GENERATOR
from spvbuild.binary.header import MAGIC as MAGIC
from spvbuild.binary.header import header_words as header_words
from spvbuild.binary.number_types import declared_number_type
from spvbuild.errors import EncodeError
from spvbuild.generated.core import operand_classes as _classes
from spvbuild.generated.core.opcodes import OP_SWITCH
from spvbuild.spirv.arguments import shown
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.numbers import FLOAT32, UINT32, NumberType
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.strings import string_words
from spvbuild.spirv.tables import InstructionInfo, KindInfo, OperandInfo

# The literal format of a numeric scalar type id, or None if unknown.
Context = NumberType
TypeWidths = Callable[[int], "NumberType | None"]


def _core_tables() -> tuple[dict[int, InstructionInfo], dict[str, KindInfo], frozenset[int]]:
    from spvbuild.generated.core import tables

    return tables.INSTRUCTIONS, tables.KINDS, tables.EXT_INST_OPCODES


def _ext_tables(import_name: str) -> tuple[dict[int, InstructionInfo], dict[str, KindInfo]]:
    from spvbuild.generated.extinst import set_module

    module = set_module(import_name)
    if module is None:
        raise EncodeError(f"OpExtInst: unknown extended instruction set {import_name!r}")
    return module.INSTRUCTIONS, module.KINDS


_Plan = tuple[bool, bool, tuple[tuple[bool, str], ...]]
"""A layout of plain operands: whether the instruction has a result type and a result id,
then per operand whether it is an id (else a 32-bit literal) and its quantifier."""

_UNPLANNED: Any = object()
_PLAIN_PLANS: dict[int, _Plan | None] = {}
"""Opcode → its plain layout, or None where some operand is of another kind (made on
first use from the tables)."""


def _plain_plan(info: InstructionInfo | None, kinds: dict[str, KindInfo]) -> _Plan | None:
    """The plain layout of an instruction whose operands are all ids and 32-bit integer
    literals (``OpIAdd``, ``OpLoad`` without a memory-access mask is not one: its mask
    operand is an enumerant), or None."""
    if info is None or info.name == "OpExtInst":
        return None
    steps: list[tuple[bool, str]] = []
    for op in info.operands:
        if op.kind in ("IdResultType", "IdResult"):
            continue
        kind = kinds.get(op.kind)
        if kind is None:
            return None
        if kind.operand_class == _classes.ID:
            steps.append((True, op.quantifier))
        elif kind.operand_class == _classes.LITERAL:
            steps.append((False, op.quantifier))
        else:
            return None
    return info.has_result_type, info.has_result, tuple(steps)


def _plain_value(value: Any, is_id: bool) -> bool:
    """Whether ``value`` is written as itself: an id (``Id``/``TypeId``) of 1 to 2**32-1
    for an id, a plain ``int`` of 0 to 2**32-1 for a literal."""
    if is_id:
        return (value.__class__ is Id or value.__class__ is TypeId) and 0 < value < 4294967296
    return value.__class__ is int and 0 <= value < 4294967296


def _plain_words(inst: Instruction, plan: _Plan) -> list[int] | None:
    """The words of ``inst`` by its plain layout: what the general path writes, at less
    cost; None where some value is not plain (the general path writes it or says what is
    wrong)."""
    has_result_type, has_result, steps = plan
    words = [0]
    if has_result_type:
        if not _plain_value(inst.result_type, True):
            return None
        words.append(int(inst.result_type))  # type: ignore[arg-type]
    if has_result:
        if not _plain_value(inst.result_id, True):
            return None
        words.append(int(inst.result_id))  # type: ignore[arg-type]
    operands = inst.operands
    count = len(operands)
    if count > len(steps):
        return None  # (operands beyond the layout)
    absent = False  # an optional operand was absent: every later one must be too
    for index, (is_id, quantifier) in enumerate(steps):
        value = operands[index] if index < count else None
        if value is None:
            if quantifier:
                absent = True
                continue
            return None
        if absent:
            return None
        if quantifier == "*":
            if value.__class__ is not tuple and value.__class__ is not list:
                return None
            for item in value:
                if not _plain_value(item, is_id):
                    return None
                words.append(int(item))
        elif _plain_value(value, is_id):
            words.append(int(value))
        else:
            return None
    if len(words) > 0xFFFF:
        return None
    words[0] = (len(words) << 16) | inst.opcode
    return words


class Encoder:
    """Encodes one instruction record at a time (:meth:`instruction`).

    ``type_widths`` gives the literal format of a numeric type id (a negative argument
    asks for the type *of a value*, for OpSwitch); ``used_ids``, if given, collects each
    id an operand uses with the first place that uses it.
    """

    def __init__(self, type_widths: TypeWidths, used_ids: dict[int, str] | None = None) -> None:
        """Bind the tables, the type lookup and the optional used-id record."""
        self.instructions, self.kinds, self.ext_inst_opcodes = _core_tables()
        self.type_widths = type_widths
        self.used_ids = used_ids  # id → first instruction using it (for undefined-id checks)

    def instruction(self, inst: Instruction) -> list[int]:
        """The words of ``inst``; EncodeError names the instruction, operand and value."""
        if self.used_ids is None:
            plan = _PLAIN_PLANS.get(inst.opcode, _UNPLANNED)
            if plan is _UNPLANNED:
                plan = _plain_plan(self.instructions.get(inst.opcode), self.kinds)
                _PLAIN_PLANS[inst.opcode] = plan
            if plan is not None:
                found = _plain_words(inst, plan)
                if found is not None:
                    return found
        info = self.instructions.get(inst.opcode)
        if info is None:
            return self._unknown(inst)
        words: list[int] = [0]
        layout = [op for op in info.operands if op.kind not in ("IdResultType", "IdResult")]
        if info.has_result_type:
            words.append(self._id(inst.result_type, info.name, "result_type"))
        if info.has_result:
            words.append(self._id(inst.result_id, info.name, "result id"))
        kinds = self.kinds
        operands: Sequence[Any] = inst.operands
        if inst.opcode in self.ext_inst_opcodes and inst.ext_set is not None:
            ext_instructions, ext_kinds = _ext_tables(inst.ext_set)
            number = operands[1]
            ext_info = ext_instructions.get(number)
            if ext_info is None:
                raise EncodeError(f"{info.name}: {inst.ext_set} has no instruction {number}")
            words.append(self._id(operands[0], info.name, "set"))
            words.append(self._literal(number, info.name, "instruction"))
            layout = list(ext_info.operands)
            operands = operands[2:]
            kinds = {**kinds, **ext_kinds}
            where = f"{inst.ext_set} {ext_info.name}"
        else:
            where = info.name
        context_width = self._context_width(inst)
        for index, op in enumerate(layout):
            value = operands[index] if index < len(operands) else None
            if op.quantifier == "?":
                if value is not None:
                    self._operand(words, op, value, kinds, where, context_width)
            elif op.quantifier == "*":
                if value is not None and not isinstance(value, tuple | list):
                    raise EncodeError(
                        f"{where} operand '{op.name or op.kind}': expected a sequence, got "
                        f"{shown(value)}"
                    )
                for item in value or ():
                    self._operand(words, op, item, kinds, where, context_width)
            else:
                self._operand(words, op, value, kinds, where, context_width)
        if len(operands) > len(layout):
            # Operands beyond the grammar's list: OpSpecConstantOp's embedded operands.
            for extra in operands[len(layout) :]:
                for item in extra if isinstance(extra, tuple) else (extra,):
                    words.append(self._literal(item, where, "operands"))
        if len(words) > 0xFFFF:
            raise EncodeError(f"{where}: {len(words)} words is more than one instruction may hold")
        words[0] = (len(words) << 16) | inst.opcode
        return words

    @staticmethod
    def _unknown(inst: Instruction) -> list[int]:
        """An opcode the grammar lacks: only raw words can say what it holds."""
        words = [0]
        if inst.result_type is not None:
            words.append(int(inst.result_type))
        if inst.result_id is not None:
            words.append(int(inst.result_id))
        for value in inst.operands:
            if not isinstance(value, RawWords):
                raise EncodeError(
                    f"opcode {inst.opcode}: not in the grammar, so operands must be RawWords"
                )
            words.extend(value)
        words[0] = (len(words) << 16) | inst.opcode
        return words

    def _context_width(self, inst: Instruction) -> Context:
        type_id: int | None = inst.result_type
        if inst.opcode == OP_SWITCH and inst.operands:
            type_id = None
            selector_type = self._selector_type(inst.operands[0])
            if selector_type is not None:
                return selector_type
        if type_id is not None:
            found = self.type_widths(type_id)
            if found is not None:
                return found
        return UINT32

    def _selector_type(self, selector: int) -> Context | None:
        return self.type_widths(-selector)  # negative: ask for the type *of a value*

    def _id(self, value: Any, where: str, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**32:
            hint = ""
            if hasattr(value, "id") and isinstance(getattr(value, "id", None), int):
                hint = f" (did you mean its .id, {value.id!r}?)"
            raise EncodeError(f"{where} operand '{name}': expected an id, got {shown(value)}{hint}")
        if self.used_ids is not None and name != "result id":
            self.used_ids.setdefault(int(value), f"{where} operand '{name}'")
        return int(value)

    @staticmethod
    def _literal(value: Any, where: str, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise EncodeError(f"{where} operand '{name}': expected an integer, got {shown(value)}")
        if not 0 <= value < 2**32:
            raise EncodeError(
                f"{where} operand '{name}': {shown(value)} does not fit in 32 bits (0 to 2**32-1)"
            )
        return int(value)

    def _operand(
        self,
        words: list[int],
        op: OperandInfo,
        value: Any,
        kinds: dict[str, KindInfo],
        where: str,
        context: Context,
    ) -> None:
        if isinstance(value, RawWords):
            words.extend(value)
            return
        name = op.name or op.kind
        kind = kinds.get(op.kind)
        if value is None:
            raise EncodeError(f"{where} operand '{name}': a value is required, got None")
        if kind is None:
            raise EncodeError(f"{where} operand '{name}': unknown operand kind {op.kind}")
        code = kind.operand_class
        if code == _classes.ID or code == _classes.RESULT_TYPE or code == _classes.RESULT_ID:
            words.append(self._id(value, where, name))
        elif code == _classes.STRING:
            if not isinstance(value, str):
                raise EncodeError(f"{where} operand '{name}': expected a string, got {value!r}")
            try:
                words.extend(string_words(value))
            except EncodeError as exc:
                raise EncodeError(f"{where} operand '{name}': {exc}") from None
        elif code == _classes.FLOAT32:
            words.extend(_operand_literal_words(value, FLOAT32, where, name))
        elif code == _classes.CONTEXT_NUMBER:
            words.extend(_operand_literal_words(value, context, where, name))
        elif code == _classes.VALUE_ENUM or code == _classes.BIT_ENUM:
            self._enum(words, kind, value, kinds, where, name, context)
        elif code == _classes.ID_PAIR or code == _classes.SWITCH_PAIR or code == _classes.PAIR:
            if not isinstance(value, tuple) or len(value) != len(kind.bases):
                raise EncodeError(
                    f"{where} operand '{name}': expected a {len(kind.bases)}-tuple, got {value!r}"
                )
            for index, (base, item) in enumerate(zip(kind.bases, value, strict=True)):
                if index == 0 and code == _classes.SWITCH_PAIR:  # sized by the selector
                    words.extend(_operand_literal_words(item, context, where, name))
                else:
                    self._operand(words, OperandInfo(base, name, ""), item, kinds, where, context)
        else:  # LITERAL, EXT_INST_NUMBER, SPEC_CONSTANT_OPCODE: one word
            words.append(self._literal(value, where, name))

    def _enum_value(self, kind: KindInfo, value: Any, where: str, name: str) -> int:
        if isinstance(value, Enum) and type(value).__name__ != kind.name:
            raise EncodeError(
                f"{where} operand '{name}': expected a {kind.name}, got {type(value).__name__}.{value.name}"
            )
        if isinstance(value, bool) or not isinstance(value, int):
            raise EncodeError(
                f"{where} operand '{name}': expected a {kind.name}, got {shown(value)}"
            )
        if not 0 <= value < 2**32:
            raise EncodeError(
                f"{where} operand '{name}': {shown(value)} is not a {kind.name} value "
                "(a 32-bit word)"
            )
        return int(value)

    def _params(
        self,
        words: list[int],
        kind: KindInfo,
        number: int,
        params: Sequence[Any],
        kinds: dict[str, KindInfo],
        where: str,
        name: str,
        context: Context,
    ) -> None:
        enumerant = kind.enumerants.get(number)
        layout = enumerant.parameters if enumerant is not None else ()
        if len(params) != len(layout):
            raise EncodeError(
                f"{where} operand '{name}': {len(layout)} parameters expected, got {len(params)}"
            )
        for op, item in zip(layout, params, strict=True):
            labelled = op._replace(name=f"{name}.{op.name or op.kind}")
            if op.quantifier == "*":
                for element in item:
                    self._operand(words, labelled, element, kinds, where, context)
            elif op.quantifier != "?" or item is not None:
                self._operand(words, labelled, item, kinds, where, context)

    def _check_no_params_needed(self, kind: KindInfo, number: int, where: str, name: str) -> None:
        enumerant = kind.enumerants.get(number)
        if enumerant is not None and enumerant.parameters:
            raise EncodeError(
                f"{where} operand '{name}': {kind.name}.{enumerant.name} needs its parameters: "
                f"pass {kind.name}{enumerant.name}(...)"
            )

    def _enum(
        self,
        words: list[int],
        kind: KindInfo,
        value: Any,
        kinds: dict[str, KindInfo],
        where: str,
        name: str,
        context: Context,
    ) -> None:
        """A ValueEnum (one enumerant) or a BitEnum (a mask of several) and the parameters
        of each enumerant in it, those of a BitEnum's bits in the order of the bits."""
        is_mask = kind.operand_class == _classes.BIT_ENUM
        parts: Iterable[Any] = value if is_mask and isinstance(value, list | tuple) else (value,)
        number = 0
        with_params: dict[int, EnumerantParameters] = {}
        for part in parts:
            if isinstance(part, EnumerantParameters):
                enumerant = self._enum_value(kind, part.enumerant, where, name)
                with_params[enumerant] = part
            else:
                enumerant = self._enum_value(kind, part, where, name)
            number |= enumerant
        words.append(number)
        for enumerant in _bits(number) if is_mask else (number,):
            if enumerant in with_params:
                params = with_params[enumerant].parameters
                self._params(words, kind, enumerant, params, kinds, where, name, context)
            else:
                self._check_no_params_needed(kind, enumerant, where, name)


def _operand_literal_words(value: Any, number: NumberType, where: str, name: str) -> list[int]:
    """The words of a literal of ``number``'s type, its codec's error naming the operand."""
    try:
        return number.words(value)
    except EncodeError as exc:
        raise EncodeError(f"{where} operand '{name}': {exc}") from None


def _bits(mask: int) -> Iterator[int]:
    """The bits set in ``mask``, lowest first."""
    bit = 1
    while bit <= mask:
        if mask & bit:
            yield bit
        bit <<= 1


def encode_module(
    instructions: Sequence[Instruction],
    bound: int,
    version: tuple[int, int] = (1, 0),
    generator: int = GENERATOR,
    used_ids: dict[int, str] | None = None,
    schema: int = 0,
) -> list[int]:
    """Header plus every instruction in the given order, as words.

    ``schema`` is the header's schema word (0 for every SPIR-V module so far; the reader
    passes the value it read so that reading then writing gives the same words).
    """
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

    encoder = Encoder(lookup, used_ids)
    words = header_words(version, bound, generator, schema)
    for inst in instructions:
        words.extend(encoder.instruction(inst))
    return words
