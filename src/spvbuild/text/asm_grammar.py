"""Parse plans for the assembler, computed once from the generated grammar tables.

Nothing here knows a particular instruction: every plan is derived from
``spvbuild.generated.core.tables`` (or an extended set's table).  An operand is described
by a :data:`Desc` tuple ``(code, optional, arg, label)``:

* ``code`` says how to read the word(s) (an id, a literal, a named enumerant, ...);
* ``optional`` operands may be left out at the end of an instruction;
* ``arg`` is the enum table of an enum operand, or the element descriptors of a
  variadic operand (pushed in reverse, the first of them optional);
* ``label`` names the operand in error messages.

An instruction's plan holds its descriptors in reverse order, ready to be used as a
stack whose top is the next operand: enumerant parameters, mask parameters, the operands
of an extended instruction and of OpSpecConstantOp's embedded opcode are pushed on it as
they become known, exactly like the reference assembler's "expected operands" stack.
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Final, NamedTuple

from spvbuild.generated.core import operand_classes as _classes
from spvbuild.generated.core import tables
from spvbuild.generated.core import targets as _targets
from spvbuild.spirv.tables import IdRun, InstructionInfo, KindInfo, OperandInfo, id_run
from spvbuild.text.kind_scope import KindScope

__all__ = [
    "SPEC_CONSTANT_OP_OPCODES",
    "TARGET_ENVS",
    "Desc",
    "EnumTable",
    "ExtSet",
    "Plan",
    "core_plans",
    "ext_set",
]

# Operand codes: the classes of spvbuild.generated.core.operand_classes (the one
# classification of operand kinds), under the short names the engine uses, and two of
# the assembler's own past FIRST_FREE.
ID: Final = _classes.ID  # IdRef, IdScope, IdMemorySemantics
TYPE: Final = _classes.RESULT_TYPE  # IdResultType
RESULT: Final = (
    _classes.RESULT_ID
)  # IdResult (written before the '=', injected where the grammar puts it)
LIT: Final = _classes.LITERAL  # LiteralInteger: unsigned 32-bit
STR: Final = _classes.STRING  # LiteralString
FLOAT: Final = _classes.FLOAT32  # LiteralFloat: 32-bit float
CTXNUM: Final = _classes.CONTEXT_NUMBER  # typed by the instruction's result type
SWLIT: Final = (
    _classes.SWITCH_LITERAL
)  # the literal of an OpSwitch pair: typed by the selector's type
EXTNUM: Final = _classes.EXT_INST_NUMBER  # LiteralExtInstInteger: an extended instruction name
SPECOP: Final = _classes.SPEC_CONSTANT_OPCODE  # an opcode name without "Op"
VENUM: Final = _classes.VALUE_ENUM  # ValueEnum
MASK: Final = _classes.BIT_ENUM  # BitEnum: names joined by '|'
EXTSET: Final = _classes.EXT_SET  # the IdRef naming the extended instruction set (before EXTNUM)
CIV: Final = _classes.FIRST_FREE  # after an !<integer>: a literal, a string or an id, unchecked
VAR: Final = _classes.FIRST_FREE + 1  # variadic: arg = element descriptors

# (code, optional, arg, label)
Desc = tuple[int, bool, object, str]

CIV_DESC: Desc = (CIV, True, None, "word after !<integer>")
RESULT_DESC: Desc = (RESULT, False, None, "result id")

# target env → SPIR-V version, for every name spirv-as's --target-env accepts: the
# generated table (grammars/target_envs.yaml: its environments and its assembler_only names).
TARGET_ENVS: Final[Mapping[str, tuple[int, int]]] = _targets.ASSEMBLER_ENVS

# The opcodes OpSpecConstantOp may embed: grammar data (grammars/core.yaml:
# spec_constant_op_opcodes, the list SPIRV-Tools 2025.5 accepts), names without "Op".
SPEC_CONSTANT_OP_OPCODES: tuple[str, ...] = tuple(
    sorted(tables.INSTRUCTIONS[op].name[2:] for op in tables.SPEC_CONSTANT_OP_OPCODES)
)

_CODE_WHAT = {
    ID: "an id (%name)",
    TYPE: "a result type id (%name)",
    RESULT: "a result id",
    LIT: "an unsigned 32-bit integer literal",
    STR: 'a string literal ("...")',
    FLOAT: "a 32-bit float literal",
    CTXNUM: "a numeric literal of the result type",
    SWLIT: "an integer literal of the selector's type",
    EXTNUM: "an extended instruction name",
    SPECOP: "an opcode name without 'Op' (e.g. IAdd)",
    CIV: "a literal, a string or an id",
    EXTSET: "the id of an OpExtInstImport",
}


def describe(desc: Desc) -> str:
    """What an operand descriptor expects, for error messages."""
    code, _, arg, _ = desc
    if code == VENUM and isinstance(arg, EnumTable):
        return f"a {arg.kind} name"
    if code == MASK and isinstance(arg, EnumTable):
        return f"a {arg.kind} mask (names joined by '|')"
    if code == VAR and isinstance(arg, tuple) and arg:
        return describe(arg[-1])
    return _CODE_WHAT.get(code, "an operand")


class EnumTable:
    """Names, values and parameters of one enum operand kind (in one namespace)."""

    __slots__ = ("kind", "names", "params", "value_names", "_namespace", "_kind_info")

    def __init__(self, kind_info: KindInfo, namespace: _Namespace) -> None:
        """The names and values of ``kind_info``; parameters resolve in ``namespace``."""
        self.kind = kind_info.name
        self.names: dict[str, int] = {e.name: v for v, e in kind_info.enumerants.items()}
        self.value_names: dict[int, str] = {v: e.name for v, e in kind_info.enumerants.items()}
        # value → parameter descriptors in push order (reversed); filled lazily.
        self.params: dict[int, tuple[Desc, ...]] = {}
        self._namespace = namespace
        self._kind_info = kind_info

    def parameters(self, value: int) -> tuple[Desc, ...]:
        """Descriptors (push order) of the parameters that follow enumerant ``value``."""
        found = self.params.get(value)
        if found is None:
            enumerant = self._kind_info.enumerants.get(value)
            descs: list[Desc] = []
            if enumerant is not None:
                for op in enumerant.parameters:
                    label = f"{self.kind} {enumerant.name} parameter" + (
                        f" '{op.name}'" if op.name else ""
                    )
                    descs.extend(self._namespace.descs(op, label))
            found = tuple(reversed(descs))
            self.params[value] = found
        return found

    def add_aliases(self, aliases: dict[str, int]) -> None:
        """Accept extra names (grammar aliases) for existing values."""
        for name, value in aliases.items():
            self.names.setdefault(name, value)


class _Namespace(KindScope[EnumTable]):
    """Operand kinds of one grammar (core, or an extended set over core), with the
    assembler's :class:`EnumTable` of each enum kind."""

    def new_view(self, info: KindInfo) -> EnumTable:
        """The enum table of ``info``; its parameters resolve in this namespace."""
        return EnumTable(info, self)

    def table(self, kind: str) -> EnumTable | None:
        """The enum table of ``kind`` (built once), or None if it is not an enum."""
        return self.enum_view(kind)

    def _one(self, kind: str, label: str, optional: bool, in_pair: bool) -> list[Desc]:
        """Descriptors of one occurrence of ``kind`` (a pair gives two), by its class."""
        info = self.kind_info(kind)
        if info is None:
            raise ValueError(f"unknown operand kind {kind}")
        code = info.operand_class
        if code == LIT and in_pair:
            return [(SWLIT, optional, None, label)]
        if code == VENUM or code == MASK:
            return [(code, optional, self.table(kind), label)]
        if code == _classes.ID_PAIR or code == _classes.SWITCH_PAIR or code == _classes.PAIR:
            out: list[Desc] = []
            for index, base in enumerate(info.bases):
                out.extend(
                    self._one(base, label, optional and index == 0, code == _classes.SWITCH_PAIR)
                )
            return out
        return [(code, optional, None, label)]

    def descs(self, op: OperandInfo, label: str) -> list[Desc]:
        """Descriptors (consumption order) for one grammar operand."""
        if op.quantifier == "*":
            element = self._one(op.kind, label, True, False)
            if len(element) > 1 and all(d[0] == ID for d in element):
                # Like the reference assembler, a list of id pairs (OpPhi) is read as
                # a list of ids: an odd count is not an error of the text.
                element = element[:1]
            return [(VAR, True, tuple(reversed(element)), label)]
        return self._one(op.kind, label, op.quantifier == "?", False)


class Plan(NamedTuple):
    """How to parse one instruction."""

    info: InstructionInfo
    opcode: int
    has_type: bool
    has_result: bool
    stack: tuple[Desc, ...]  # reversed: the last element is the first operand


_KIND_LABELS = {"IdResultType": "Result Type", "IdResult": "Result"}


def _label(op: OperandInfo) -> str:
    """``operand 'Name'`` for messages (the kind when the grammar gives no name)."""
    name = " ".join(op.name.split()) if op.name else _KIND_LABELS.get(op.kind, op.kind)
    return f"operand '{name}'"


def _descs_of(operands: tuple[OperandInfo, ...], namespace: _Namespace) -> tuple[list[Desc], bool]:
    """Descriptors of an operand list; drops what follows LiteralExtInstInteger."""
    descs: list[Desc] = []
    cut = False
    for index, op in enumerate(operands):
        items = namespace.descs(op, _label(op))
        code = items[0][0]
        if code == EXTNUM and descs and descs[-1][0] == ID:
            previous = descs[-1]
            descs[-1] = (EXTSET, previous[1], previous[2], previous[3])
        descs.extend(items)
        if code == EXTNUM or code == SPECOP:
            # The operands that follow come from the named ext instruction / opcode.
            cut = index + 1 < len(operands)
            break
    return descs, cut


@cache
def _core_namespace() -> _Namespace:
    """The core grammar's operand kinds."""
    from spvbuild.generated.core import tables

    namespace = _Namespace(tables.KINDS, None)
    return namespace


@cache
def core_plans() -> dict[str, Plan]:
    """Plan of every core instruction, by name and alias."""
    from spvbuild.generated.core import tables

    namespace = _core_namespace()
    by_opcode: dict[int, Plan] = {}
    for opcode, info in tables.INSTRUCTIONS.items():
        descs, _ = _descs_of(info.operands, namespace)
        by_opcode[opcode] = Plan(
            info, opcode, info.has_result_type, info.has_result, tuple(reversed(descs))
        )
    return {name: by_opcode[opcode] for name, opcode in tables.OPCODES_BY_NAME.items()}


@cache
def spec_constant_op_plans() -> dict[str, Plan]:
    """Plans of the opcodes OpSpecConstantOp accepts, by name without ``Op``."""
    plans = core_plans()
    return {name: plans["Op" + name] for name in SPEC_CONSTANT_OP_OPCODES if "Op" + name in plans}


def _demangled(kind: str, member: str) -> list[str]:
    """Grammar spellings that the Python enum member name ``member`` may stand for."""
    if member.endswith("_") and (
        keyword.iskeyword(member[:-1]) or keyword.issoftkeyword(member[:-1])
    ):
        return [member[:-1]]
    if member.startswith(kind) and member[len(kind) : len(kind) + 1].isdigit():
        return [member, member[len(kind) :]]
    return [member]


def _add_aliases(namespace: _Namespace, enum_classes: dict[str, object]) -> None:
    """Enumerant aliases (e.g. Capability StorageUniformBufferBlock16) from the enums."""
    for kind, cls in enum_classes.items():
        table = namespace.table(kind)
        members = getattr(cls, "__members__", None)
        if table is None or not isinstance(members, Mapping):
            continue
        aliases: dict[str, int] = {}
        for member, value in members.items():
            if member in table.names:
                continue
            for name in _demangled(kind, member):
                aliases[name] = int(value)
        table.add_aliases(aliases)


@cache
def core_aliases_loaded() -> bool:
    """Load enumerant aliases of the core kinds (imports the generated enums once)."""
    from spvbuild.generated.core import enums

    _add_aliases(_core_namespace(), dict(enums.ENUM_CLASSES))
    return True


# Fast-path slot codes (see fast_slots).
F_ID = 0
F_LIT = 1
F_ENUM = 2
F_CONST = 3

FastSlot = tuple[int, "dict[str, int] | None"]


class FastShape(NamedTuple):
    """The fast-path shape of an instruction's operands (see :func:`fast_slots`)."""

    slots: tuple[FastSlot, ...]  # the required operands in order (the result id left out)
    ids_only: bool  # every slot is an id
    tail: str  # what may follow the slots: '', 'I', 'P', 'L', 'M' or 'O'
    tail_table: dict[str, tuple[int, int]] | None  # 'M': single name → (value, parameter count)


def _is_id(desc: Desc) -> bool:
    """An id operand, or a variadic one of single ids (what :func:`id_run` calls an id)."""
    code, _, arg, _ = desc
    if code == VAR:
        return isinstance(arg, tuple) and len(arg) == 1 and arg[0][0] == ID
    return code == ID or code == TYPE


def _id_run(descs: Sequence[Desc]) -> IdRun:
    """:func:`~spvbuild.spirv.tables.id_run` (the one fast-path shape classifier of id
    operands) over operand descriptors in consumption order, the result id left out."""
    return id_run([(_is_id(d), "*" if d[0] == VAR else "?" if d[1] else "") for d in descs])


def fast_slots(stack: tuple[Desc, ...]) -> FastShape | None:
    """The fast-path shape of an operand stack, or None if it has no fast path.

    The required operands, as :func:`id_run` counts them, are the fixed slots in order
    (the result id left out: it is injected); whether they are all ids is its word too.
    A slot is an id, a plain literal integer, an enumerant without parameters, or an
    OpConstant literal.  The tail is what the first of the other operands allows: ''
    (nothing may follow), 'I' (any number of ids), 'P' (pairs of ids), 'L' (plain
    integers), 'M' (an optional enumerant or mask whose parameters are plain integers,
    e.g. OpLoad's ``Aligned 4``, with ``tail_table``) or 'O' (something optional: only
    the next instruction may follow on the fast path).
    """
    operands = [desc for desc in reversed(stack) if desc[0] != RESULT]
    run = _id_run(operands)
    fixed, rest = operands[: run.required], operands[run.required :]
    if any(not desc[1] for desc in rest):
        return None  # a required operand after an optional one: not a fast-path shape
    slots: list[FastSlot] = []
    for desc in fixed:
        code, _, arg, _ = desc
        if _is_id(desc):
            slots.append((F_ID, None))
        elif code == LIT:
            slots.append((F_LIT, None))
        elif code == CTXNUM:
            slots.append((F_CONST, None))
        elif code in (VENUM, MASK) and isinstance(arg, EnumTable):
            plain = {n: v for n, v in arg.names.items() if not arg.parameters(v)}
            slots.append((F_ENUM, plain))
        else:
            return None
    tail = ""
    tail_table: dict[str, tuple[int, int]] | None = None
    if rest:
        code, _, arg, _ = rest[0]
        tail = "O"
        if code == VAR:
            assert isinstance(arg, tuple)
            inner = [d[0] for d in reversed(arg)]
            tail = {(ID,): "I", (ID, ID): "P", (LIT,): "L"}.get(tuple(inner), "O")
        elif code in (VENUM, MASK) and isinstance(arg, EnumTable):
            tail = "M"
            tail_table = {}
            for name, value in arg.names.items():
                params = arg.parameters(value)
                if all(p[0] == LIT and not p[1] for p in params):
                    tail_table[name] = (value, len(params))
    return FastShape(tuple(slots), run.ids >= run.required, tail, tail_table)


class ExtSet(NamedTuple):
    """An extended instruction set, as the assembler needs it."""

    import_name: str
    known: bool  # False: an unknown NonSemantic.* set (numbers and ids only)
    by_name: dict[str, tuple[int, str, tuple[Desc, ...]]]  # name → (number, name, push)
    by_number: dict[int, tuple[int, str, tuple[Desc, ...]]]
    fast: dict[str, tuple[int, int]]  # name → (number, id count) when all are fixed ids


_UNKNOWN_OPERANDS: tuple[Desc, ...] = ((VAR, True, ((ID, True, None, "operand"),), "operand"),)


@cache
def ext_set(import_name: str) -> ExtSet | None:
    """The set imported by ``OpExtInstImport "import_name"``; None if not importable."""
    from spvbuild.generated.extinst import set_module

    module = set_module(import_name)  # a set's import_prefix matches too, like spirv-as
    if module is None:
        if import_name.startswith("NonSemantic."):
            return ExtSet(import_name, False, {}, {}, {})
        return None
    namespace = _Namespace(module.KINDS, _core_namespace())
    _add_aliases(namespace, dict(getattr(module, "ENUM_CLASSES", {})))
    by_name: dict[str, tuple[int, str, tuple[Desc, ...]]] = {}
    by_number: dict[int, tuple[int, str, tuple[Desc, ...]]] = {}
    fast: dict[str, tuple[int, int]] = {}
    for number, info in module.INSTRUCTIONS.items():
        descs: list[Desc] = []
        for op in info.operands:
            descs.extend(namespace.descs(op, _label(op)))
        entry = (number, info.name, tuple(reversed(descs)))
        by_name[info.name] = entry
        by_number[number] = entry
        run = _id_run(descs)
        if run.ids == run.required == len(descs):  # fixed ids only
            fast[info.name] = (number, run.required)
    return ExtSet(import_name, True, by_name, by_number, fast)


def ext_operands_text(ext: ExtSet, number: int) -> str:
    """The operands of instruction ``number`` of ``ext`` in their order, for messages
    (``Local Variable, Value, Expression, Indexes...``); empty when unknown."""
    from spvbuild.generated.extinst import set_module

    module = set_module(ext.import_name) if ext.known else None
    info = module.INSTRUCTIONS.get(number) if module is not None else None
    if info is None:
        return ""
    marks = {"*": "...", "?": " (optional)"}
    return ", ".join(f"{op.name}{marks.get(op.quantifier, '')}" for op in info.operands)


def unknown_ext_operands() -> tuple[Desc, ...]:
    """Operands of an instruction of an unknown NonSemantic set: any number of ids."""
    return _UNKNOWN_OPERANDS
