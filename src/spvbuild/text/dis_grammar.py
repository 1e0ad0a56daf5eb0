"""The grammar tables compiled into the plans the disassembler walks.

Every instruction of ``spvbuild.generated.core.tables`` (and of each extended set, on first
use) becomes a :class:`Plan`: its operands as *slots*, the unit ``spirv-dis``'s parser
works with.  A slot is ``(code, quantifier, payload)``; the parser keeps the expected slots
on a stack, takes one per operand, re-pushes a ``MANY`` slot after taking it, pushes the
parameters of an enumerant (or of each set bit of a mask, in increasing bit order) right
after parsing it, the operands of an extended instruction after its number, and the
operands of the embedded opcode after ``OpSpecConstantOp``'s opcode.  Nothing here is per
instruction: the codes come from operand kinds and their categories.

The printer's fast paths do not classify instructions here: they print the words as the
binary room reads them (:mod:`spvbuild.text.dis_lines`).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from spvbuild.generated.core import operand_classes as _classes
from spvbuild.spirv.tables import InstructionInfo, KindInfo, OperandInfo
from spvbuild.text.dis_data import (
    OPERAND_LAYOUTS,
    SPEC_CONSTANT_OPCODES,
    UNHANDLED_KINDS,
    UNKNOWN_ENUMERANTS,
)
from spvbuild.text.kind_scope import KindScope

__all__ = ["CoreGrammar", "EnumKind", "ExtGrammar", "Plan", "core_grammar", "ext_grammar"]

# slot codes: the classes of spvbuild.generated.core.operand_classes (the one
# classification of operand kinds) under the printer's short names, and its own one.
RT: Final = _classes.RESULT_TYPE  # result type id
RID: Final = _classes.RESULT_ID  # result id
ID: Final = _classes.ID  # an id operand (payload: the message for id 0)
EXTSET: Final = _classes.EXT_SET  # OpExtInst's set id
LIT: Final = _classes.LITERAL  # one-word unsigned literal
CTX: Final = _classes.CONTEXT_NUMBER  # literal sized by the result type (OpConstant)
FLT: Final = _classes.FLOAT32  # LiteralFloat: one 32-bit float word
STR: Final = _classes.STRING  # literal string
EXTNUM: Final = _classes.EXT_INST_NUMBER  # OpExtInst's instruction number
SPECOP: Final = _classes.SPEC_CONSTANT_OPCODE  # OpSpecConstantOp's opcode
ENUM: Final = _classes.VALUE_ENUM  # value enum (payload: EnumKind)
MASK: Final = _classes.BIT_ENUM  # bit enum (payload: EnumKind)
CASE: Final = (
    _classes.SWITCH_PAIR
)  # OpSwitch pair: literal sized by the selector's type, then an id
PAIR: Final = _classes.PAIR  # strict pair (payload: (first slot, second slot))
UNHANDLED: Final = _classes.FIRST_FREE  # a kind spirv-dis cannot print (payload: the kind's name)

# quantifiers
ONE: Final = 0
OPT: Final = 1
MANY: Final = 2
_QUANTIFIERS = {"": ONE, "?": OPT, "*": MANY}

Slot = tuple[int, int, Any]

_ID_ZERO_MESSAGES = {
    "IdScope": "scope ID is 0",
    "IdMemorySemantics": "memory semantics ID is 0",
}


class EnumKind:
    """One enum operand kind: names by value and the parameter slots of enumerants."""

    __slots__ = ("name", "is_mask", "names", "params", "bits", "simple")

    def __init__(self, name: str, is_mask: bool) -> None:
        self.name = name
        self.is_mask = is_mask
        self.names: dict[int, str] = {}
        self.params: dict[int, tuple[Slot, ...]] = {}
        self.bits = 0  # single bits that name an enumerant (masks)
        self.simple: dict[int, str] = {}
        """Text of every value without parameters (masks: filled as values are seen)."""

    def mask_text(self, value: int) -> str | None:
        """The ``A|B`` text of a mask, or None if a set bit names no enumerant."""
        if value & ~self.bits:
            return None
        if not value:
            return self.names.get(0, "")
        names = self.names
        parts = []
        bit = 1
        while bit <= value:
            if value & bit:
                parts.append(names[bit])
            bit <<= 1
        return "|".join(parts)


class Plan:
    """One instruction: name, slots, whether it has a result type and a result id, whether
    it declares a type."""

    __slots__ = (
        "name",
        "number",
        "slots",
        "stack",
        "has_rt",
        "has_rid",
        "is_type",
    )

    def __init__(self, name: str, number: int, slots: tuple[Slot, ...]) -> None:
        self.name = name
        self.number = number
        self.slots = slots
        self.stack = tuple(reversed(slots))
        self.has_rt = bool(slots) and slots[0][0] == RT
        self.has_rid = any(slot[0] == RID for slot in slots[:2])
        self.is_type = False


class _Namespace(KindScope[EnumKind]):
    """Operand kinds of one grammar unit (core, or an extended set over core), with the
    disassembler's :class:`EnumKind` of each enum kind."""

    def enum(self, name: str) -> EnumKind | None:
        """The EnumKind of ``name`` (made once), or None if it is not an enum."""
        return self.enum_view(name)

    def new_view(self, info: KindInfo) -> EnumKind:
        """An EnumKind of ``info``, its names and parameters filled by :meth:`fill_view`."""
        return EnumKind(info.name, info.operand_class == MASK)

    def fill_view(self, kind: EnumKind, info: KindInfo) -> None:
        """The names, bits and parameter slots of ``kind`` (registered: they may refer
        back to it)."""
        name = info.name
        for value, enumerant in info.enumerants.items():
            if (name, enumerant.name) in UNKNOWN_ENUMERANTS:
                continue
            kind.names.setdefault(value, enumerant.name)
            if kind.is_mask and value and not value & (value - 1):
                kind.bits |= value
            if enumerant.parameters:
                kind.params[value] = tuple(self.slot(op) for op in enumerant.parameters)
            elif not kind.is_mask:
                kind.simple[value] = enumerant.name
        if kind.is_mask and 0 not in kind.params:
            kind.simple[0] = kind.names.get(0, "")

    def slot(self, op: OperandInfo) -> Slot:
        """The slot of one operand of the grammar."""
        quant = _QUANTIFIERS[op.quantifier]
        name = op.kind
        info = self.kind_info(name)
        if info is None:
            raise ValueError(f"operand kind {name!r} is not in the grammar")
        code = info.operand_class
        if code == RT:
            return (RT, quant, "Error: Type Id is 0")
        if code == RID:
            return (RID, quant, "Error: Result Id is 0")
        if code == ID or code == _classes.ID_PAIR:
            # spirv-dis reads a list of id pairs as a list of ids (OpPhi: an odd count is
            # accepted).
            return (ID, quant, _ID_ZERO_MESSAGES.get(name, "Id is 0"))
        if name in UNHANDLED_KINDS:
            return (UNHANDLED, quant, name)
        if code == CASE:
            return (CASE, quant, (ID, ONE, "Id is 0"))
        if code == PAIR:
            first, second = (self.slot(OperandInfo(base, "", "")) for base in info.bases)
            return (PAIR, quant, (first, second))
        if code == ENUM or code == MASK:
            kind = self.enum(name)
            assert kind is not None
            return (code, quant, kind)
        return (code, quant, None)

    def slots(self, operands: tuple[OperandInfo, ...]) -> tuple[Slot, ...]:
        out = [self.slot(op) for op in operands]
        # The id just before an extended instruction number is the set.
        for index in range(1, len(out)):
            if out[index][0] == EXTNUM and out[index - 1][0] == ID:
                out[index - 1] = (EXTSET, out[index - 1][1], out[index - 1][2])
        return tuple(out)


class CoreGrammar:
    """Plans of every core instruction, by opcode."""

    def __init__(self) -> None:
        from spvbuild.generated.core import tables

        self.namespace = _Namespace(tables.KINDS)
        self.plans: dict[int, Plan] = {}
        self.by_name: dict[str, int] = {}
        for opcode, info in tables.INSTRUCTIONS.items():
            operands = info.operands
            layout = OPERAND_LAYOUTS.get(info.name)
            if layout is not None:
                operands = tuple(OperandInfo(kind, "", quantifier) for kind, quantifier in layout)
            plan = Plan(info.name, opcode, self.namespace.slots(operands))
            plan.is_type = info.cls == "Type-Declaration" and plan.has_rid
            self.plans[opcode] = plan
            self.by_name[info.name] = opcode
        self.spec_constant_ops: dict[int, Plan] = {}
        for name in SPEC_CONSTANT_OPCODES:
            embedded = self.by_name.get(name)
            if embedded is not None:
                plan = self.plans[embedded]
                body = tuple(slot for slot in plan.slots if slot[0] not in (RT, RID))
                self.spec_constant_ops[embedded] = Plan(name[2:], embedded, body)
        self.kinds = tables.KINDS

    def enum(self, name: str) -> EnumKind:
        """A core enum kind by name (it must exist)."""
        kind = self.namespace.enum(name)
        assert kind is not None, name
        return kind


class ExtGrammar:
    """Plans of one extended instruction set, by instruction number."""

    def __init__(self, import_name: str, core: CoreGrammar) -> None:
        from spvbuild.generated.extinst import set_module

        module = set_module(import_name)
        assert module is not None, import_name  # callers pass known import names
        instructions: dict[int, InstructionInfo] = module.INSTRUCTIONS
        namespace = _Namespace(module.KINDS, core.namespace)
        self.name = import_name
        self.namespace = namespace
        self.plans: dict[int, Plan] = {
            number: Plan(info.name, number, namespace.slots(info.operands))
            for number, info in instructions.items()
        }


@cache
def core_grammar() -> CoreGrammar:
    """The core plans, built once per process."""
    return CoreGrammar()


@cache
def ext_grammar(import_name: str) -> ExtGrammar:
    """The plans of the extended set imported as ``import_name`` (a key of
    ``spvbuild.generated.extinst.IMPORT_NAMES``), built on first use."""
    return ExtGrammar(import_name, core_grammar())
