"""The DebugInfo spec's rules, as data, checked at build time.

Every rule (:mod:`spvbuild.debuginfo.spec_rules`; what operands may refer to:
:mod:`spvbuild.debuginfo.references`) cites the DebugInfo spec's section and the line of
its text ("L616" = line 616); rule ids are the ones of the review (R1-R42, D10) and R43-R47
(the enumeration tables, the newer sets' validator's demands).  The same checks run in
several places:

* the layer (:mod:`spvbuild.debuginfo.emitter`) checks each instruction *before* it is
  emitted, from what it knows about the operands it is given;
* each call of a generated method of a set a layer writes (``m.debug_info.*``) is checked
  at the call (:meth:`~spvbuild.debuginfo.emitter.DebugInfoWriter.check_call`, registered
  with :meth:`~spvbuild.ir.module.Module.add_set_check`), through :func:`check_one`;
* :func:`check_module` checks every debug instruction already in a module (made through
  the layer, the generated methods or raw ``OpExtInst``);
* :func:`check_serialized`, which the layer registers once per module with
  :meth:`~spvbuild.ir.module.Module.add_check`, runs the same whole-module check on the
  ordered instructions each time the module is serialized.

Both describe an operand as a :class:`Ref` and call :func:`check_instruction`.  The
references the seed only describes ("parent lexical scope") are checked against a set the
review marks non-normative (R17-R21): the four scopes L616 enumerates plus
DebugLexicalBlockDiscriminator.  Any reference to a debug instruction may be DebugInfoNone
(L68: that is how one instruction is removed).  The rules apply to OpenCL.DebugInfo.100
and NonSemantic.Shader.DebugInfo.100 where those sets have the operand; their ``Source``
operands name a DebugSource instead of an OpString.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from spvbuild.debuginfo.flavors import FLAVORS, Flavor
from spvbuild.debuginfo.references import (
    ALIASES,
    ANY,
    COMPOSITE,
    ENUM_IDS,
    INTEGRAL,
    NUMBERS,
    REFERENCES,
    SCOPES,
    SCOPES_L616,
    SOURCE,
    TYPES,
)
from spvbuild.debuginfo.spec_rules import (
    ARRAY_COUNT,
    ENUM_TABLES,
    ENUMERANT,
    ENUMERATORS,
    GLOBAL_ONLY,
    IN_FUNCTION,
    INHERITANCE_TAG,
    NUMBER_IDS,
    OPAQUE,
    OPERATION_CODE,
    OPERATION_COUNT,
    PACK_COUNT,
    RESULT_TYPE,
    SCOPE_NOT_NONE,
    SET,
    TEMPLATE_COUNT,
    VECTOR_COUNT,
    DebugInfoError,
    Rule,
)
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import StorageClass
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_EXT_INST_IMPORT,
    OP_FUNCTION,
    OP_FUNCTION_END,
    OP_SPEC_CONSTANT,
    OP_STRING,
    OP_TYPE_INT,
    OP_TYPE_VOID,
    OP_VARIABLE,
)
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.tables import KindInfo, OperandInfo

if TYPE_CHECKING:
    from spvbuild.ir.module import Module

EXT_INST_OPCODES = tables.EXT_INST_OPCODES  # OpExtInst, OpExtInstWithForwardRefsKHR


# -- operand descriptions -------------------------------------------------------------------
@dataclass(frozen=True)
class Ref:
    """What one operand value is, as far as the rules care.

    ``kind`` is the name of the instruction an id refers to (``OpString``,
    ``DebugTypeBasic``, ``DebugInfoNone``, ...), None for a literal or an unknown id;
    ``value`` is a literal's number, an OpString's text or an OpConstant's value; ``tag``
    a composite's tag name; ``params`` the parameters carried by an enumerant;
    ``integral`` whether a constant's type is an integer type (None: not a constant, or
    unknown); ``storage`` an OpVariable's storage class.
    """

    kind: str | None
    value: object = None
    tag: str | None = None
    params: int = 0
    id: int | None = None
    integral: bool | None = None
    storage: int | None = None
    int_type: tuple[int, int] | None = None
    """An integer constant's type: (width, signedness)."""

    def show(self) -> str:
        """How the operand reads in a message."""
        what = self.kind or "a literal"
        return f"{what} %{int(self.id)}" if self.id is not None else what


Operands = Mapping[str, Sequence[Ref]]
"""Grammar operand name → the Refs it holds (one, none if absent, many if variadic)."""


def check_instruction(flavor: Flavor, instruction: str, operands: Operands, where: str) -> None:
    """Every rule about the operands of one instruction; raises :class:`DebugInfoError`."""
    for name, refs in operands.items():
        _check_number_ids(flavor, instruction, name, refs, where)
        _check_enumerated(flavor, instruction, name, refs, where)
        entry = _reference(flavor, instruction, name)
        if entry is None:
            continue
        seed_name, allowed, none_ok, rule = entry
        integral = (instruction, seed_name) in INTEGRAL
        for ref in refs:
            if ref.kind is None or ref.kind in allowed:
                if integral and ref.kind == "OpConstant" and ref.integral is False:
                    raise DebugInfoError(
                        f"{where} operand '{seed_name}' is {ref.show()} of a floating-point "
                        "type; it must be an OpConstant of an integer type",
                        rule,
                    )
                continue
            if ref.kind == "DebugInfoNone" and none_ok:
                if _none_refused(flavor, allowed):
                    raise DebugInfoError(
                        f"{where} operand '{seed_name}' is {ref.show()}; in {flavor.name} it "
                        f"must be {' or '.join(sorted(allowed))}",
                        SCOPE_NOT_NONE,
                    )
                continue  # L68: any reference to a debug instruction may become DebugInfoNone
            raise DebugInfoError(
                f"{where} operand '{seed_name}' is {ref.show()}; it must be "
                f"{' or '.join(sorted(allowed))}",
                rule,
            )
    special = _SPECIAL.get(instruction)
    if special is not None:
        special(flavor, operands, where)


def _check_number_ids(
    flavor: Flavor, instruction: str, operand: str, refs: Sequence[Ref], where: str
) -> None:
    """R46: where NonSemantic.Shader.DebugInfo.100 writes a number as an id, the id is a
    32-bit unsigned integer OpConstant's."""
    key = (flavor.name, instruction, operand)
    numeric = _NUMBER_CACHE.get(key)
    if numeric is None:
        info = flavor.by_name.get(instruction)
        kind = next((op.kind for op in info.operands if op.name == operand), None) if info else None
        numeric = _NUMBER_CACHE[key] = kind == "IdRef" and any(
            pair in table
            for pair in ((instruction, operand), (ANY, operand))
            for table in (NUMBERS, ENUM_IDS)
        )
    if not numeric:
        return
    for ref in refs:
        if ref.kind is not None and (ref.kind != "OpConstant" or ref.int_type != (32, 0)):
            what = ref.show() if ref.kind != "OpConstant" else f"{ref.show()} of another type"
            raise DebugInfoError(
                f"{where} operand '{operand}' is {what}; it must be a 32-bit unsigned integer "
                "OpConstant",
                NUMBER_IDS,
            )


_NUMBER_CACHE: dict[tuple[str, str, str], bool] = {}


def _check_enumerated(
    flavor: Flavor, instruction: str, operand: str, refs: Sequence[Ref], where: str
) -> None:
    """An enumerated operand (a literal of an enum kind; in NonSemantic.Shader.DebugInfo.100
    the id of an OpConstant, :data:`~spvbuild.debuginfo.references.ENUM_IDS`) holds a value
    of its table: one enumerant, or for flags an OR of the table's bits."""
    found = _enumerated_kind(flavor, instruction, operand)
    if found is None:
        return
    kind, by_id = found
    rule = ENUM_TABLES.get(kind.name, ENUMERANT)
    for ref in refs:
        if by_id and ref.kind is not None and (ref.kind != "OpConstant" or ref.integral is False):
            raise DebugInfoError(
                f"{where} operand '{operand}' is {ref.show()}; it must be an integer "
                f"OpConstant holding a {kind.name} value",
                rule,
            )
        value = ref.value
        if isinstance(value, bool) or not isinstance(value, int) or _is_enumerant(kind, value):
            continue
        if kind.category == "BitEnum":
            stray = value & ~_all_bits(kind) if value >= 0 else value
            detail = f"bits {stray:#x} are in no entry of the {kind.name} table"
        else:
            detail = f"not a value of the {kind.name} table"
        raise DebugInfoError(f"{where} operand '{operand}' is {value}: {detail}", rule)


_ENUM_CACHE: dict[tuple[str, str, str], tuple[KindInfo, bool] | None] = {}


def _enumerated_kind(
    flavor: Flavor, instruction: str, operand: str
) -> tuple[KindInfo, bool] | None:
    """(the operand's enum kind, whether the operand is an id of an OpConstant holding the
    value) for an enumerated operand; None for any other (DebugOperation's OpCode is the
    operation rule's)."""
    key = (flavor.name, instruction, operand)
    if key in _ENUM_CACHE:
        return _ENUM_CACHE[key]
    info = flavor.by_name.get(instruction)
    kind_name = (
        next((op.kind for op in info.operands if op.name == operand), None) if info else None
    )
    by_id = kind_name == "IdRef"
    if by_id:
        kind_name = ENUM_IDS.get((instruction, operand)) or ENUM_IDS.get((ANY, operand))
    kind = None
    if kind_name is not None and kind_name != "DebugOperation":
        kind = flavor.kinds.get(kind_name) or tables.KINDS.get(kind_name)
    found = (kind, by_id) if kind is not None and kind.category in _ENUM_CATEGORIES else None
    _ENUM_CACHE[key] = found
    return found


_ENUM_CATEGORIES = ("ValueEnum", "BitEnum")


def _all_bits(kind: KindInfo) -> int:
    bits = 0
    for value in kind.enumerants:
        bits |= value
    return bits


def _is_enumerant(kind: KindInfo, value: int) -> bool:
    """True when ``value`` is one of ``kind``'s enumerants (a BitEnum: an OR of them)."""
    if kind.category == "BitEnum":
        return value >= 0 and not value & ~_all_bits(kind)
    return value in kind.enumerants


_Reference = tuple[str, frozenset[str], bool, Rule]
_REFERENCE_CACHE: dict[tuple[str, str, str], _Reference | None] = {}


def _reference(flavor: Flavor, instruction: str, operand: str) -> _Reference | None:
    """(seed operand name, what it may refer to, whether DebugInfoNone may stand in, rule)
    for one operand of one instruction of ``flavor``; None when no rule constrains it."""
    key = (flavor.name, instruction, operand)
    if key in _REFERENCE_CACHE:
        return _REFERENCE_CACHE[key]
    seed_name = ALIASES.get(operand, operand)
    entry = REFERENCES.get((instruction, seed_name)) or REFERENCES.get((ANY, seed_name))
    found: _Reference | None = None
    if entry is not None:
        allowed, rule = entry
        if SOURCE in allowed:
            allowed = frozenset({flavor.source or "OpString"})
        found = (seed_name, allowed, any(k.startswith("Debug") for k in allowed), rule)
    _REFERENCE_CACHE[key] = found
    return found


def none_refused(flavor: Flavor, instruction: str, operand: str) -> bool:
    """True where ``flavor`` refuses DebugInfoNone in this operand (R45: a scope or a type
    operand of the newer sets)."""
    entry = _reference(flavor, instruction, operand)
    return entry is not None and _none_refused(flavor, entry[1])


def _none_refused(flavor: Flavor, allowed: frozenset[str]) -> bool:
    if flavor.none_anywhere or "DebugInfoNone" in allowed:
        return False
    # scopes, types, and a next level of inlining (absent, not DebugInfoNone, when none)
    return allowed in (SCOPES, SCOPES_L616, _INLINED_AT) or allowed <= TYPES | {"OpTypeVoid"}


_INLINED_AT = frozenset({"DebugInlinedAt"})


def is_scope_operand(flavor: Flavor, instruction: str, operand: str) -> bool:
    """True for an operand naming a lexical scope (a Parent or Scope the seed describes as
    "parent lexical scope" or lists the scopes of)."""
    entry = _reference(flavor, instruction, operand)
    return entry is not None and entry[1] in (SCOPES, SCOPES_L616)


def _opaque(flavor: Flavor, operands: Operands, where: str) -> None:
    name = next((r.value for r in operands.get("Name", ()) if isinstance(r.value, str)), None)
    size = next(iter(operands.get("Size", ())), None)
    members = operands.get("Members", ())
    flags = next((r.value for r in operands.get("Flags", ()) if isinstance(r.value, int)), 0)
    size_none = size is not None and size.kind == "DebugInfoNone"
    if name is not None and name.startswith("@"):
        if members:
            raise DebugInfoError(
                f"{where} {name!r} is opaque but has {len(members)} Members", OPAQUE
            )
        if not size_none:
            raise DebugInfoError(
                f"{where} {name!r} is opaque but its Size is {size.show() if size else 'absent'}",
                OPAQUE,
            )
    elif size_none and not members and not flags & _fwd_decl(flavor):
        raise DebugInfoError(
            f"{where} {name!r} has no Members and Size DebugInfoNone (an opaque type) but its "
            "Name does not start with @ (a forward declaration sets FlagFwdDecl)",
            OPAQUE,
        )


def _fwd_decl(flavor: Flavor) -> int:
    kind = flavor.kinds.get("DebugInfoFlags")
    found = [v for v, e in kind.enumerants.items() if e.name == "FlagFwdDecl"] if kind else []
    return found[0] if found else 0x10


def _operation(flavor: Flavor, operands: Operands, where: str) -> None:
    code = next(iter(operands.get("OpCode", ())), None)
    if code is None or not isinstance(code.value, int):
        return
    kind = flavor.kinds.get("DebugOperation")
    enumerant = kind.enumerants.get(code.value) if kind else None
    if enumerant is None:
        raise DebugInfoError(
            f"{where} OpCode {code.value} is not a Debug Operation", OPERATION_CODE
        )
    given = code.params + len(operands.get("Operands ...", ()))
    if given != len(enumerant.parameters):
        raise DebugInfoError(
            f"{where} {enumerant.name} takes {len(enumerant.parameters)} literal operand(s), "
            f"not {given}",
            OPERATION_COUNT,
        )


def _at_least_one(operand: str, rule: Rule) -> Callable[[Flavor, Operands, str], None]:
    def check(flavor: Flavor, operands: Operands, where: str) -> None:
        if operand in operands and not operands[operand]:
            raise DebugInfoError(f"{where} has no '{operand}' operand", rule)

    return check


def _inheritance(flavor: Flavor, operands: Operands, where: str) -> None:
    for name in ("Child", "Parent"):
        for ref in operands.get(name, ()):
            if ref.tag is not None and ref.tag not in ("Class", "Structure"):
                raise DebugInfoError(
                    f"{where} operand '{name}' is a {ref.tag}, not a class or structure",
                    INHERITANCE_TAG,
                )


def _enumerators(flavor: Flavor, operands: Operands, where: str) -> None:
    pairs = operands.get("Value, Name, Value, Name, ...", ())
    for index, ref in enumerate(pairs):
        want = "OpConstant" if index % 2 == 0 else "OpString"
        what = "Value" if want == "OpConstant" else "Name"
        if ref.kind is not None and ref.kind != want:
            raise DebugInfoError(
                f"{where} enumerator {what} #{index // 2} is {ref.show()}; it must be {want}",
                ENUMERATORS,
            )
        if ref.kind == "OpConstant" and ref.integral is False:
            raise DebugInfoError(
                f"{where} enumerator Value #{index // 2} is {ref.show()} of a floating-point "
                "type; it must be an OpConstant of an integer type",
                ENUMERATORS,
            )


def _vector(flavor: Flavor, operands: Operands, where: str) -> None:
    """R47: the newer sets' validator takes vectors of 1 to 4 components."""
    if flavor.max_vector is None:
        return
    for ref in operands.get("Component Count", ()):
        count = ref.value
        if isinstance(count, int) and not 0 < count <= flavor.max_vector:
            raise DebugInfoError(
                f"{where} Component Count is {count}; {flavor.name} takes 1 to {flavor.max_vector}",
                VECTOR_COUNT,
            )


def _global_variable(flavor: Flavor, operands: Operands, where: str) -> None:
    """L954: Variable is a global variable or constant, so not a function's OpVariable."""
    for ref in operands.get("Variable", ()):
        if ref.kind == "OpVariable" and ref.storage == _FUNCTION_STORAGE:
            raise DebugInfoError(
                f"{where} operand 'Variable' is {ref.show()} in the Function storage class, "
                "a function's local variable; it must be a global variable or constant "
                "(a local variable is described by DebugLocalVariable)",
                REFERENCES[("DebugGlobalVariable", "Variable")][1],
            )


_FUNCTION_STORAGE = int(StorageClass.Function)


_SPECIAL: dict[str, Callable[[Flavor, Operands, str], None]] = {
    "DebugTypeComposite": _opaque,
    "DebugOperation": _operation,
    "DebugTypeArray": _at_least_one("Component Counts", ARRAY_COUNT),
    "DebugTypeTemplate": _at_least_one("Parameters", TEMPLATE_COUNT),
    "DebugTypeTemplateParameterPack": _at_least_one("Template Parameters", PACK_COUNT),
    "DebugTypeInheritance": _inheritance,
    "DebugTypeEnum": _enumerators,
    "DebugGlobalVariable": _global_variable,
    "DebugTypeVector": _vector,
}


def check_placement(flavor: Flavor, instruction: str, in_function: bool, where: str) -> None:
    """R7/R8 (L70): the four scope/variable instructions (and the newer sets' line and
    definition instructions) in function bodies, every other one outside."""
    number = flavor.by_name[instruction].opcode if flavor.has(instruction) else -1
    local = number in flavor.function_instructions
    if local and not in_function:
        raise DebugInfoError(f"{where} outside a function body", IN_FUNCTION)
    if not local and in_function:
        raise DebugInfoError(f"{where} inside a function body", GLOBAL_ONLY)


# -- whole-module check ---------------------------------------------------------------------
Lookup = Callable[[int], Instruction | None]


def set_name(inst: Instruction, lookup: Lookup) -> str | None:
    """The import name of an OpExtInst's Set operand (None if it is not an import)."""
    imported = lookup(int(inst.operands[0])) if inst.operands else None
    if imported is None or imported.opcode != OP_EXT_INST_IMPORT or not imported.operands:
        return None
    return str(imported.operands[0])


def describe(result_id: int, lookup: Lookup) -> Ref:
    """A Ref for an id operand, from the instruction defining it."""
    inst = lookup(result_id)
    if inst is None:
        return Ref(None, id=result_id)
    info = tables.INSTRUCTIONS.get(inst.opcode)
    name = info.name if info else f"opcode {inst.opcode}"
    value: object = None
    tag: str | None = None
    integral: bool | None = None
    storage: int | None = None
    int_type: tuple[int, int] | None = None
    if inst.opcode in (OP_STRING, OP_CONSTANT) and inst.operands:
        value = inst.operands[0]
    if inst.opcode in (OP_CONSTANT, OP_SPEC_CONSTANT) and inst.result_type is not None:
        number_type = lookup(int(inst.result_type))
        integral = number_type is not None and number_type.opcode == OP_TYPE_INT
        if number_type is not None and integral and len(number_type.operands) == 2:
            width, signedness = number_type.operands
            if isinstance(width, int) and isinstance(signedness, int):
                int_type = (int(width), int(signedness))
    if inst.opcode == OP_VARIABLE and inst.operands and isinstance(inst.operands[0], int):
        storage = int(inst.operands[0])
    if inst.opcode in EXT_INST_OPCODES and inst.operands:
        flavor = FLAVORS.get(set_name(inst, lookup) or "")
        ext = flavor.tables.INSTRUCTIONS.get(inst.operands[1]) if flavor else None
        if flavor is not None and ext is not None:
            name = ext.name
            if name == COMPOSITE:
                tag = _composite_tag(flavor, ext.operands, inst.operands[2:], lookup)
    return Ref(
        name, value, tag, id=result_id, integral=integral, storage=storage, int_type=int_type
    )


def _composite_tag(
    flavor: Flavor, layout: Sequence[OperandInfo], values: Sequence[object], lookup: Lookup
) -> str | None:
    for op, value in zip(layout, values, strict=False):
        if op.name != "Tag":
            continue
        if isinstance(value, Enum):
            return value.name
        if op.kind == "IdRef" and isinstance(value, int):  # NonSemantic: an OpConstant
            const = lookup(value)
            number = const.operands[0] if const is not None and const.operands else None
            kind = flavor.kinds.get("DebugCompositeType")
            enumerant = kind.enumerants.get(int(number)) if kind and number is not None else None
            return enumerant.name if enumerant else None
    return None


def operand_refs(
    layout: Sequence[OperandInfo], values: Sequence[object], refer: Callable[[int], Ref]
) -> dict[str, list[Ref]]:
    """Refs of an ext-inst's operands (after the Set and instruction words); ``refer``
    describes an id (:func:`describe` over a look-up, usually cached)."""
    out: dict[str, list[Ref]] = {}
    for op, value in zip(layout, values, strict=False):
        items: Iterable[object]
        if op.quantifier == "*":
            items = value if isinstance(value, tuple | list) else ()
        else:
            items = () if value is None else (value,)
        refs: list[Ref] = []
        for item in items:
            if op.kind == "PairIdRefIdRef" and isinstance(item, tuple | list):
                refs.extend(refer(int(x)) for x in item)
            elif op.kind == "IdRef" and isinstance(item, int):
                refs.append(refer(int(item)))
            elif isinstance(item, EnumerantParameters):
                refs.append(Ref(None, int(item.enumerant), params=len(item.parameters)))
            elif isinstance(item, int):
                refs.append(Ref(None, int(item)))
        out[op.name] = refs
    return out


def check_module(module: Module) -> None:
    """Check every debug instruction of ``module`` against the rules (R2, R3, R7/R8 and
    every operand rule); raises :class:`DebugInfoError` at the first broken one.

    Works on a module still being built (an open function is fine); ids the stored
    instructions do not define themselves (block labels) are looked up with
    :meth:`~spvbuild.ir.module.Module.definition`.
    """
    check_instructions(list(module.all_instructions()), fallback=module.definition)


def check_serialized(instructions: list[Instruction]) -> None:
    """:func:`check_module` as a :meth:`~spvbuild.ir.module.Module.add_check` check: run on
    the ordered instructions each time the module is serialized.  One function object for
    every layer and set, so a module registers it once and checks once per ``to_words``."""
    check_instructions(instructions)


def check_instructions(
    instructions: Sequence[Instruction],
    in_function: Sequence[bool] | None = None,
    *,
    fallback: Lookup | None = None,
) -> None:
    """:func:`check_module` over a plain instruction list.

    ``in_function[i]`` tells whether instruction ``i`` is inside a function body; without
    it the list is read as laid out (what follows an OpFunction, up to its OpFunctionEnd).
    ``fallback`` looks up ids no instruction of the list defines.
    """
    definitions = {int(i.result_id): i for i in instructions if i.result_id is not None}

    def lookup(result_id: int) -> Instruction | None:
        found = definitions.get(result_id)
        return found if found is not None or fallback is None else fallback(result_id)

    described: dict[int, Ref] = {}

    def refer(result_id: int) -> Ref:
        ref = described.get(result_id)
        if ref is None:
            ref = described[result_id] = describe(result_id, lookup)
        return ref

    imports = {
        int(i.result_id): str(i.operands[0])
        for i in instructions
        if i.opcode == OP_EXT_INST_IMPORT and i.result_id is not None
    }
    inside = False  # in a function body, when reading the layout
    for position, inst in enumerate(instructions):
        opcode = inst.opcode
        if in_function is not None:
            local = in_function[position]
        else:
            local = inside and opcode != OP_FUNCTION_END
            if opcode == OP_FUNCTION:
                inside, local = True, False
            elif opcode == OP_FUNCTION_END:
                inside = False
        if opcode not in EXT_INST_OPCODES or len(inst.operands) < 2:
            continue
        set_id = int(inst.operands[0])
        imported = imports.get(set_id)
        if inst.ext_set in FLAVORS and imported != inst.ext_set:
            found = lookup(set_id)
            what = f'OpExtInstImport "{imported}"' if imported else _name_of(found)
            raise DebugInfoError(
                f"%{int(inst.result_id or 0)} was made as a {inst.ext_set} instruction but its Set "
                f"operand %{set_id} is {what}",
                SET,
            )
        flavor = FLAVORS.get(imported or "")
        if flavor is not None:
            check_one(flavor, inst, local, refer, lookup)


def check_one(
    flavor: Flavor, inst: Instruction, local: bool, refer: Callable[[int], Ref], lookup: Lookup
) -> None:
    """Every rule about one OpExtInst of ``flavor`` but its Set operand's (R2): its Result
    Type, its place (``local``: in a function body) and its operands; ``refer`` describes
    an id, ``lookup`` finds its definition."""
    info = flavor.tables.INSTRUCTIONS.get(inst.operands[1])
    name = info.name if info else f"instruction {inst.operands[1]}"
    where = f"{flavor.name} {name} %{int(inst.result_id or 0)}"
    result_type = lookup(int(inst.result_type or 0))
    if result_type is None or result_type.opcode != OP_TYPE_VOID:
        raise DebugInfoError(
            f"{where} has Result Type %{int(inst.result_type or 0)}, {_name_of(result_type)}",
            RESULT_TYPE,
        )
    if info is None:
        return
    check_placement(flavor, name, local, where)
    refs = operand_refs(info.operands, inst.operands[2:], refer)
    check_instruction(flavor, name, refs, where)


def _name_of(inst: Instruction | None) -> str:
    if inst is None:
        return "not defined"
    info = tables.INSTRUCTIONS.get(inst.opcode)
    return info.name if info else f"opcode {inst.opcode}"
