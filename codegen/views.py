"""View records: what a generated method, parameter or enum looks like in Python.

Built from the merged grammar model (:mod:`codegen.model`) and the naming rule
(:mod:`codegen.naming`); laid out as Python modules by :mod:`codegen.render` and as
reference pages by :mod:`codegen.docs`, so both show the same signatures.  Nothing here
renders text or touches files.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from codegen.model import (
    Enumerant,
    ExtensionNote,
    Instruction,
    Operand,
    OperandKind,
    ResolvedRule,
)
from codegen.naming import enum_member_name, method_name, parameter_name, unique_names

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
"""The Jinja2 templates that lay the views out (Python modules at the top, docs/ pages)."""

SCALAR_ANNOTATIONS = {
    "IdResultType": "TypeId",
    "IdRef": "Id",
    "IdScope": "Id",
    "IdMemorySemantics": "Id",
    "LiteralInteger": "int",
    "LiteralString": "str",
    "LiteralFloat": "float",
    "LiteralContextDependentNumber": "int | float",
    "LiteralExtInstInteger": "int",
}


@dataclass
class ParamView:
    """One Python parameter of a generated method or enumerant-parameter class."""

    name: str
    annotation: str
    default: str | None
    value: str  # expression passed on to the InstructionSink
    doc: str


@dataclass
class MethodView:
    """One generated builder method.

    ``fast`` is set for a block instruction of ids only: the method then first tries the
    module's fast path, written out in the method (see :class:`FastPathView`).
    """

    name: str
    params: list[ParamView]
    returns: str  # "Id", "TypeId" or "Self"
    call: str
    doc_lines: list[str]
    fast: FastPathView | None = None
    words: WordsView | None = None


@dataclass
class FastPathView:
    """The words of ``%r = OpX %type %a ...`` (ids only), appended to the current run of
    the module's open block when every operand is an id handed out already (below the
    bound); otherwise the method takes the general path (``call``)."""

    first: str  # the first word, in hex
    ids: list[str]  # the operand parameters, in order
    needs: bool  # the instruction needs a capability, an extension or a later version
    opcode: int = 0
    operands: str = "()"  # the operand tuple the type rule is asked about
    typed: bool = False  # the instruction has a type rule (grammars/type_rules.yaml)
    accept: str = ""  # the TYPE_* bits its result type needs when the call is accepted
    # at once (its operands values of exactly the result type); "": the rule is asked
    streak: str = ""  # the module attribute of the streak's type for ``accept`` (streak_attribute)


@dataclass
class WordsView:
    """The words of an instruction whose operands are ids, 32-bit literals, strings and
    enumerants without parameters, made in its method at the call: when the module takes
    words (``_put_words``) and every operand passes the checks written out here, the
    words go to the module as they are; anything else takes the general path (``call``),
    which checks it and says what is wrong."""

    opcode: int
    sequences: list[tuple[str, str]]  # (parameter, operand_sequence(...)) made first
    operands: str  # the operand tuple, as both paths take it
    checks: list[str]  # boolean expressions, all true for the words path
    head: list[str]  # the first items of the word list (the first word a placeholder)
    build: list[str]  # statements that append the other operands to ``words``
    first: str | None  # the first word when the count is fixed (else set after building)
    result_type: str  # "result_type" or "None"
    slot: int  # where the module puts the result id (0: no result)
    call: str  # the general path, given ``operands``
    wrap: str  # "Id", "TypeId" or "" (Self)
    value_kinds: list[str] = field(default_factory=list)  # ValueEnum kinds checked
    bit_kinds: list[str] = field(default_factory=list)  # BitEnum kinds checked
    # The needs key: the opcode and every operand value that can decide what the
    # instruction needs (literals, enumerants with their parameters; no id, no string, no
    # context number), as a tuple expression; "None" where a list of values is among the
    # operands or the instruction is OpExtInstImport, whose string names a set that may
    # need an extension (the module works the needs out when it writes the module).
    needs_key: str = "None"


@dataclass
class EnumerantView:
    """One enum member and, when it takes parameters, its parameter class."""

    member: str
    value: int
    hex_value: str
    params_class: str | None
    params: list[ParamView]
    doc: str
    alias_class: str | None = None  # for an alias of an enumerant with parameters
    alias_target: str | None = None  # ... the parameter class it names

    @property
    def bare(self) -> bool:
        """True when the member may be passed without parameters."""
        return self.params_class is None and self.alias_class is None


@dataclass
class KindView:
    """One enum operand kind."""

    name: str
    category: str
    base_class: str  # IntEnum or IntFlag
    enumerants: list[EnumerantView]
    operand_type: str  # name of the type users pass (the enum or an alias)
    alias_members: list[str] = field(default_factory=list)
    alias_classes: list[str] = field(default_factory=list)

    @property
    def has_params(self) -> bool:
        """True when some enumerant takes parameters."""
        return any(e.params_class for e in self.enumerants)


class Namer:
    """Type annotations for operand kinds within one namespace (core or an ext set)."""

    def __init__(
        self, kinds: dict[str, OperandKind], core_kinds: dict[str, OperandKind], local: set[str]
    ):
        self.kinds = kinds
        self.core_kinds = core_kinds
        self.local = local  # kinds defined in the module being rendered
        self.core_used: set[str] = set()

    def kind_type(self, kind_name: str) -> str:
        if kind_name in SCALAR_ANNOTATIONS:
            return SCALAR_ANNOTATIONS[kind_name]
        if kind_name == "LiteralSpecConstantOpInteger":
            return self._ref("Op", core=True)
        kind = self.kinds[kind_name]
        if kind.category == "Composite":
            return "tuple[" + ", ".join(self.kind_type(b) for b in kind.bases) + "]"
        if kind.is_enum:
            has_params = any(e.parameters for e in kind.enumerants)
            name = f"{kind.name}Operand" if has_params else kind.name
            return self._ref(name, core=kind.name not in self.local)
        raise ValueError(f"no Python type for operand kind {kind_name}")

    def _ref(self, name: str, core: bool) -> str:
        if core and self.local != set(self.core_kinds):
            self.core_used.add(name)
        return name

    def operand_type(self, op: Operand, type_rule: bool) -> str:
        base = self.kind_type(op.kind)
        if type_rule and op.kind == "IdRef" and _names_a_type(op.name):
            base = "TypeId"
        elif type_rule and op.kind == "IdRef" and op.name.strip("'") in ("Target", "Targets"):
            base = "Id | TypeId"  # a name or a decoration targets a value or a type
        return base


def _names_a_type(name: str) -> bool:
    first = name.split(",")[0].strip().strip("'").lower()
    return first == "type" or first.endswith(" type")


def _params(operands: list[Operand], namer: Namer, type_rule: bool, where: str) -> list[ParamView]:
    """The parameters of a method or parameter class; ``where`` names it in errors."""
    names = unique_names([parameter_name(op.name, op.kind, op.quantifier) for op in operands])
    params = []
    for op, name in zip(operands, names, strict=True):
        annotation = namer.operand_type(op, type_rule)
        described = f"{op.kind}{op.quantifier}" + (f" '{op.name}'" if op.name else "")
        if op.quantifier == "?":
            params.append(ParamView(name, f"{annotation} | None", "None", name, described))
        elif op.quantifier == "*":
            value = f"operand_sequence({name}, {where!r}, {name!r})"
            params.append(ParamView(name, f"Sequence[{annotation}]", "()", value, described))
        else:
            params.append(ParamView(name, annotation, None, name, described))
    return params


def _requirement_lines(item: Instruction | Enumerant) -> list[str]:
    lines = []
    if item.capabilities:
        lines.append("Capabilities (any of): " + ", ".join(item.capabilities) + ".")
    if item.extensions:
        lines.append("Extensions (any of): " + ", ".join(item.extensions) + ".")
    if item.version == "None":
        lines.append("Version: not core in any SPIR-V version (extension only).")
    else:
        text = f"Version: SPIR-V {item.version}"
        text += f" to {item.last_version}." if item.last_version else " and later."
        if item.extensions:
            text += " Below that, one of the extensions is needed."
        lines.append(text)
    if item.aliases:
        lines.append("Aliases: " + ", ".join(item.aliases) + ".")
    if item.provisional:
        lines.append("Provisional: may change without notice.")
    return lines


# Block instructions with a result type, a result and ids only, that still need the
# general path: a parameter is routed apart, OpCopyObject-like ones are fine.
_NOT_IDS_ONLY = frozenset({"OpFunctionParameter", "OpUndef", "OpLabel", "OpFunction"})


def _ids_only(inst: Instruction, section: str, rest: list[Operand]) -> bool:
    """True for a function-body instruction ``%r = OpX %type %a %b ...`` of single ids."""
    return (
        section == "functions"
        and inst.has_result
        and inst.has_result_type
        and bool(rest)
        and inst.name not in _NOT_IDS_ONLY
        and all(op.kind == "IdRef" and op.quantifier == "" for op in rest)
    )


_U32 = "4294967296"
# OpExtInst names its set by id (the module finds the set); the general path routes it.
_NOT_WORDS = frozenset({"OpExtInst", "OpExtInstWithForwardRefsKHR"})


def _word_check(op: Operand, name: str, kinds: dict[str, OperandKind]) -> tuple[str, str] | None:
    """(check, append) for one operand value ``name``, or None if the kind needs the
    general path (context-dependent or float literals, pairs, ...)."""
    kind = kinds.get(op.kind)
    category = kind.category if kind is not None else ""
    if category == "Id":
        return f"{name}.__class__ in FAST_IDS and 0 < {name} < _bound", f"_words.append({name})"
    if op.kind == "LiteralInteger":
        return f"{name}.__class__ is int and 0 <= {name} < {_U32}", f"_words.append({name})"
    if op.kind == "LiteralContextDependentNumber":
        # OpConstant's value: the module writes it by its result type (or says None).
        check = f"(_{name}_words := self._number_words(result_type, {name})) is not None"
        return check, f"_words += _{name}_words"
    if op.kind == "LiteralString":
        check = f'{name}.__class__ is str and {name}.isascii() and "\\0" not in {name}'
        return check, f"_words += string_words({name})"
    if kind is None or category not in ("ValueEnum", "BitEnum"):
        return None
    # A plain int or a member of the kind's own enum class (not a bool, not another kind's;
    # isinstance first, which tells a type checker it is an int).
    same = f"isinstance({name}, int) and {name}.__class__ in _CLASSES_{kind.name}"
    if category == "ValueEnum" and any(e.parameters for e in kind.enumerants):
        # A bare enumerant here; one with parameters: spvbuild.spirv.word_checks.enumerant_words
        # checks and writes it.
        check = (
            f"(_{name}_words := [{name}] if {same} and {name} in _BARE_{kind.name} "
            f'else enumerant_words({name}, _KINDS, "{kind.name}", _bound)) is not None'
        )
        return check, f"_words += _{name}_words"
    if category == "ValueEnum":
        return f"{same} and {name} in _BARE_{kind.name}", f"_words.append({name})"
    return (
        # int(): a flag member's own ``&`` makes a new member through the enum machinery.
        f"{same} and 0 <= {name} < {_U32} and not int({name}) & _PARAMETER_BITS_{kind.name}",
        f"_words.append({name})",
    )


def _words_view(
    inst: Instruction, rest: list[Operand], params: list[ParamView], kinds: dict[str, OperandKind]
) -> WordsView | None:
    """The words path of a core instruction, or None where only the general path fits."""
    if inst.name in _NOT_WORDS or any(p.name == "operands" for p in params):
        return None
    checks: list[str] = []
    head: list[str] = ["0"]
    build: list[str] = []
    sequences: list[tuple[str, str]] = []
    value_kinds: list[str] = []
    bit_kinds: list[str] = []
    key_parts: list[str] | None = [str(inst.opcode)]
    fixed = True
    if inst.has_result_type:
        checks.append("result_type.__class__ in FAST_IDS and 0 < result_type < _bound")
        head.append("result_type")
    for op, param in zip(rest, params, strict=True):
        name = param.name
        found = _word_check(op, "_item" if op.quantifier == "*" else name, kinds)
        if found is None:
            return None
        check, append = found
        kind = kinds.get(op.kind)
        key_parts = _needs_key_parts(key_parts, op, name, kind, "_words :=" in check)
        if inst.name == "OpExtInstImport":
            key_parts = [str(inst.opcode), name]  # (its string names the set: what it needs)
        if "_words :=" in check:
            if op.quantifier:
                return None  # (rare) the general path
            if kind is not None and kind.category == "ValueEnum":
                value_kinds.append(kind.name)
        elif kind is not None and kind.category == "ValueEnum":
            value_kinds.append(kind.name)
        elif kind is not None and kind.category == "BitEnum":
            bit_kinds.append(kind.name)
        if op.quantifier == "*":
            if op.kind == "LiteralString":
                return None
            sequences.append((name, param.value))
            if op.kind == "LiteralInteger":
                checks.append(f"literals32({name})")
            elif kind is not None and kind.category == "Id":
                checks.append(f"ids_below({name}, _bound)")
            else:
                checks.append(f"all({check} for _item in {name})")
            build.append(f"_words += {name}")
            fixed = False
        elif op.quantifier == "?":
            checks.append(f"({name} is None or ({check}))")
            build.append(f"if {name} is not None:")
            build.append(f"    {append}")
            fixed = False
        else:
            checks.append(check)
            if build or append.startswith("_words +="):  # an enumerant's words: any count
                build.append(append)
                fixed = False
            else:
                head.append(name)
    values = ", ".join(p.name for p in params)
    operands = f"({values},)" if len(params) == 1 else f"({values})"
    slot = (2 if inst.has_result_type else 1) if inst.has_result else 0
    needs_key = "None"
    if key_parts is not None:
        if key_parts[-1].startswith("tuple("):  # the last part may be spread: one length
            key_parts[-1] = "*" + key_parts[-1].removeprefix("tuple(").removesuffix(")")
        needs_key = (
            f"({', '.join(key_parts)},)" if len(key_parts) == 1 else f"({', '.join(key_parts)})"
        )
    first = None
    if fixed:
        first = f"0x{((len(head) + (1 if slot else 0)) << 16) | inst.opcode:x}"
        head[0] = first
    return WordsView(
        inst.opcode,
        sequences,
        operands,
        checks,
        head,
        build,
        first,
        "result_type" if inst.has_result_type else "None",
        slot,
        "",
        "",
        value_kinds,
        bit_kinds,
        needs_key,
    )


def _needs_key_parts(
    parts: list[str] | None, op: Operand, name: str, kind: OperandKind | None, with_words: bool
) -> list[str] | None:
    """``parts`` of the needs key with the operand ``name`` added (see WordsView.needs_key).

    Ids, strings, context-dependent numbers and lists of plain integers (indexes,
    components) never decide a need (capability inference reads enumerants, the single
    literals of the type declarations the grammar's type capabilities name, and an
    OpExtInstImport's string, which its key holds); any other list makes no key (None).
    """
    if parts is None or (kind is not None and kind.category == "Id"):
        return parts
    if op.kind in ("LiteralContextDependentNumber", "LiteralString"):
        return parts
    if op.quantifier == "*":
        return parts if op.kind == "LiteralInteger" else None
    parts.append(f"tuple(_{name}_words)" if with_words else name)
    return parts


_RESULT_BITS = {
    ("is_", "int"): "TYPE_INT",
    ("is_", "float"): "TYPE_FLOAT",
    ("is_", "bool"): "TYPE_BOOL",
    ("shape", "scalar"): "TYPE_SCALAR",
    ("shape", "vector"): "TYPE_VECTOR",
    ("shape", "scalar_or_vector"): "",
    ("signedness", 0): "TYPE_UNSIGNED",
    ("signedness", 1): "TYPE_SIGNED",
}


def _accept_bits(rule: ResolvedRule) -> str:
    """The TYPE_* bits (an expression) a fast path asks of the result type to accept a
    call at once, when the rule allows that: its result constraint says only a scalar
    category (and shape, signedness), and every operand must be of the result's type or
    like it (which a value of exactly the result type is).  "": the rule is asked."""
    if rule.result is None or "is_" not in rule.result or rule.indexes or rule.shuffle:
        return ""
    names = []
    for item in rule.result.items():
        name = _RESULT_BITS.get(item)
        if name is None:
            return ""
        if name:
            names.append(name)
    if any(c not in ({"same": -1}, {"like": -1}) for _, _, c in rule.operands):
        return ""
    return " | ".join(names)


def streak_attribute(accept: str) -> str:
    """The module attribute that holds the type of the current streak of fast-path values
    while that type has the ``accept`` bits, else ``NO_STREAK`` (``TYPE_INT | TYPE_UNSIGNED`` →
    ``_streak_int_unsigned``): see :mod:`spvbuild.ir.value_types`."""
    return "_streak_" + "_".join(
        name.strip().removeprefix("TYPE_").lower() for name in accept.split("|")
    )


def core_method(
    inst: Instruction,
    namer: Namer,
    section: str,
    type_rule: ResolvedRule | None = None,
    notes: Sequence[ExtensionNote] = (),
) -> MethodView:
    """The builder method of a core instruction (``type_rule``: its type rule, if any;
    ``notes``: the extensions' notes that name it, shown in its docstring)."""
    ops = inst.operands
    result_type = inst.has_result_type
    has_result = inst.has_result
    rest = [op for op in ops if op.kind not in ("IdResultType", "IdResult")]
    params = _params(rest, namer, type_rule=True, where=inst.name)
    if rest and rest[-1].kind == "LiteralSpecConstantOpInteger":
        # Grammar wart: the embedded opcode's operands follow but the grammar lists none.
        params.append(
            ParamView(
                "operands",
                "Sequence[Id | int]",
                "()",
                f"operand_sequence(operands, {inst.name!r}, 'operands')",
                "the embedded opcode's operands (ids or literals)",
            )
        )
    values = ", ".join(p.value for p in params)
    operands = f"({values},)" if len(params) == 1 else f"({values})"
    is_type = inst.cls == "Type-Declaration" and has_result and not result_type
    fast: FastPathView | None = None
    if is_type:
        returns, call = "TypeId", f"self._type({inst.opcode}, {operands}, result_id)"
    elif _ids_only(inst, section, rest):
        # A block instruction of ids only: its first word is known here, the module's
        # fast path appends its words as they are (method.py.j2).
        first = ((3 + len(rest)) << 16) | inst.opcode
        returns = "Id"
        call = f"self._value({inst.opcode}, result_type, {operands}, result_id)"
        needs = bool(inst.capabilities or inst.extensions or inst.version != "1.0")
        fast = FastPathView(
            f"0x{first:x}",
            [p.value for p in params],
            needs,
            inst.opcode,
            operands,
            type_rule is not None,
            _accept_bits(type_rule) if type_rule is not None else "",
        )
        fast.streak = streak_attribute(fast.accept) if fast.accept else ""
    elif has_result:
        rt = "result_type" if result_type else "None"
        returns, call = "Id", f"self._value({inst.opcode}, {rt}, {operands}, result_id)"
    else:
        returns, call = "Self", f"self._void({inst.opcode}, {operands})"
    words = None if fast is not None else _words_view(inst, rest, params, namer.kinds)
    if words is not None:
        words.call = call.replace(operands, "_operands", 1)
        words.wrap = "" if returns == "Self" else returns
    if result_type:
        params.insert(0, ParamView("result_type", "TypeId", None, "result_type", "IdResultType"))
    if has_result:
        # Keyword-only: an id reserved earlier with new_id()/new_type_id() (forward references).
        params.append(
            ParamView(
                "*, result_id",
                f"{returns} | None",
                "None",
                "result_id",
                "an id reserved earlier (new_id / new_type_id) to define here",
            )
        )
    doc = [f"{inst.name} (opcode {inst.opcode}, class {inst.cls or 'none'}, section {section})."]
    doc.append("")
    if params:
        doc.append("Operands:")
        doc.extend(f"    {p.name.removeprefix('*, ')}: {p.doc}" for p in params)
        doc.append("")
    else:
        doc.append("Operands: none.")
    doc.extend(_requirement_lines(inst))
    for note in notes:
        for text in (f"Known problem: {note.title} {note.text}", f"Source: {note.source}."):
            doc.extend(textwrap.wrap(text, 84, break_on_hyphens=False))
    if returns == "Self":
        doc.append("Returns the builder, so calls chain.")
    elif returns == "TypeId":
        doc.append("Returns the new type's id.")
    else:
        doc.append("Returns the result id.")
    return MethodView(method_name(inst.name), params, returns, call, doc, fast, words)


def ext_method(inst: Instruction, namer: Namer, import_name: str) -> MethodView:
    """The method of an extended-set instruction (always has a result)."""
    params = _params(inst.operands, namer, type_rule=False, where=f"{import_name} {inst.name}")
    values = ", ".join(p.value for p in params)
    operands = f"({values},)" if len(params) == 1 else f"({values})"
    params.insert(0, ParamView("result_type", "TypeId", None, "result_type", "IdResultType"))
    params.append(
        ParamView(
            "*, result_id",
            "Id | None",
            "None",
            "result_id",
            "an id reserved earlier (new_id) to define here",
        )
    )
    doc = [f"{import_name} {inst.name} (instruction {inst.opcode}), emitted as OpExtInst.", ""]
    doc.append("Operands:")
    doc.extend(f"    {p.name.removeprefix('*, ')}: {p.doc}" for p in params)
    doc.append("")
    if inst.capabilities:
        doc.append("Capabilities (any of): " + ", ".join(inst.capabilities) + ".")
    if inst.extensions:
        doc.append("Extensions (any of): " + ", ".join(inst.extensions) + ".")
    doc.append("Returns the result id.")
    return MethodView(
        method_name(inst.name),
        params,
        "Id",
        f"self._inst({inst.opcode}, result_type, {operands}, result_id)",
        doc,
    )


def kind_view(kind: OperandKind, namer: Namer) -> KindView:
    """The enum class (and parameter classes) of an enum operand kind."""
    enumerants = []
    members_seen: set[str] = set()
    alias_members: list[str] = []
    for e in kind.enumerants:
        member = enum_member_name(kind.name, e.name)
        params = _params(e.parameters, namer, type_rule=False, where=f"{kind.name}.{e.name}")
        params_class = f"{kind.name}{member.rstrip('_')}" if e.parameters else None
        doc_parts = _requirement_lines(e)
        if e.parameters:
            doc_parts.insert(
                0, "Parameters: " + "; ".join(f"{p.name}: {p.doc}" for p in params) + "."
            )
        enumerants.append(
            EnumerantView(
                member, e.value, f"0x{e.value:x}", params_class, params, " ".join(doc_parts)
            )
        )
        members_seen.add(member)
        for alias in e.aliases:
            alias_member = enum_member_name(kind.name, alias)
            if alias_member not in members_seen:
                members_seen.add(alias_member)
                alias_members.append(alias_member)
                view_alias = EnumerantView(
                    alias_member, e.value, f"0x{e.value:x}", None, [], f"Alias of {member}."
                )
                if params_class is not None:
                    view_alias.alias_class = f"{kind.name}{alias_member.rstrip('_')}"
                    view_alias.alias_target = params_class
                enumerants.append(view_alias)
    view = KindView(
        name=kind.name,
        category=kind.category,
        base_class="IntFlag" if kind.category == "BitEnum" else "IntEnum",
        enumerants=enumerants,
        operand_type=kind.name,
    )
    if view.has_params:
        view.operand_type = f"{kind.name}Operand"
    return view


def instructions_class_name(python_name: str) -> str:
    """The class of an extended set's methods: ``amd_shader_ballot`` → ``AmdShaderBallotInstructions``."""
    return "".join(w.capitalize() for w in python_name.split("_")) + "Instructions"


__all__ = [
    "SCALAR_ANNOTATIONS",
    "TEMPLATES_DIR",
    "EnumerantView",
    "KindView",
    "MethodView",
    "Namer",
    "ParamView",
    "core_method",
    "ext_method",
    "instructions_class_name",
    "kind_view",
]
