"""The merged grammar model that the templates render.

The loader builds one :class:`Grammar` from all files under ``grammars/``: core plus
every extension file merged into one instruction table and one set of operand kinds, and
every extended instruction set kept in its own namespace.  Everything here is plain data;
naming for Python lives in :mod:`codegen.naming`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codegen.errors import Mark

ANY_VERSION = "None"


def version_tuple(version: str) -> tuple[int, int] | None:
    """``"1.3"`` → ``(1, 3)``; ``"None"`` (extension only) → ``None``."""
    if version == ANY_VERSION:
        return None
    major, minor = version.split(".")
    return int(major), int(minor)


@dataclass
class Operand:
    """One operand (or enumerant parameter): its kind, name and quantifier."""

    kind: str
    name: str
    quantifier: str  # "", "?" or "*"
    mark: Mark


@dataclass
class Enumerant:
    """One value of a ValueEnum or BitEnum operand kind."""

    name: str
    value: int
    parameters: list[Operand]
    capabilities: list[str]
    extensions: list[str]
    version: str
    last_version: str | None
    aliases: list[str]
    provisional: bool
    doc: str
    file: str
    mark: Mark


@dataclass
class OperandKind:
    """An operand kind: an enum (with enumerants), an id, a literal or a composite."""

    name: str
    category: str
    doc: str
    bases: list[str]
    enumerants: list[Enumerant]
    file: str
    mark: Mark

    @property
    def is_enum(self) -> bool:
        """ValueEnum or BitEnum."""
        return self.category in ("ValueEnum", "BitEnum")


OPERAND_CLASSES: tuple[tuple[str, str], ...] = (
    ("ID", "an id: IdRef, IdScope, IdMemorySemantics (one word)"),
    ("RESULT_TYPE", "the result type id: IdResultType"),
    ("RESULT_ID", "the result id: IdResult"),
    ("LITERAL", "a one-word unsigned literal: LiteralInteger"),
    ("STRING", "a NUL-terminated UTF-8 string padded to whole words: LiteralString"),
    ("FLOAT32", "a 32-bit float word: LiteralFloat"),
    ("CONTEXT_NUMBER", "a number sized by the result type: LiteralContextDependentNumber"),
    ("SWITCH_LITERAL", "the literal of a SWITCH_PAIR, sized by the first operand's type"),
    ("EXT_INST_NUMBER", "an extended instruction's number: LiteralExtInstInteger"),
    ("SPEC_CONSTANT_OPCODE", "the opcode OpSpecConstantOp embeds: LiteralSpecConstantOpInteger"),
    ("VALUE_ENUM", "one enumerant's value (ValueEnum), then its parameters"),
    ("BIT_ENUM", "a mask (BitEnum), then the parameters of each set bit, lowest first"),
    ("EXT_SET", "the id of the set named by the EXT_INST_NUMBER that follows it"),
    ("ID_PAIR", "a pair of ids: PairIdRefIdRef (OpPhi)"),
    ("SWITCH_PAIR", "a SWITCH_LITERAL, then an id: PairLiteralIntegerIdRef (OpSwitch)"),
    ("PAIR", "another pair: each of its bases by its own class"),
)
"""The one classification of operand kinds: (constant name, meaning), numbered in order.

``codegen/templates/core_operand_classes.py.j2`` makes them ``Final`` ints of
``spvbuild.generated.core.operand_classes`` and :func:`operand_class` gives every kind's
class, which the tables carry (``KindInfo.operand_class``); the encoder, the reader, the
assembler and the disassembler all classify operands by it.  ``SWITCH_LITERAL`` and
``EXT_SET`` are roles of an operand in its place, not kinds' classes."""

_LITERAL_CLASSES = {
    "LiteralInteger": "LITERAL",
    "LiteralString": "STRING",
    "LiteralFloat": "FLOAT32",
    "LiteralContextDependentNumber": "CONTEXT_NUMBER",
    "LiteralExtInstInteger": "EXT_INST_NUMBER",
    "LiteralSpecConstantOpInteger": "SPEC_CONSTANT_OPCODE",
}
_ID_CLASSES = {"IdResultType": "RESULT_TYPE", "IdResult": "RESULT_ID"}


def operand_class(kind: OperandKind, kinds: dict[str, OperandKind]) -> str:
    """The name of ``kind``'s class in :data:`OPERAND_CLASSES` (``kinds``: every kind in
    scope, to classify a pair's bases).

    Ids by role (result type, result id, any other id); literals by how their words are
    read (the grammar's Literal kinds differ only in that, so each has its own class);
    enums by category; pairs: of two ids, a literal integer first (OpSwitch's target
    pairs, whose literal the selector's type sizes), anything else.
    """
    if kind.category == "Id":
        return _ID_CLASSES.get(kind.name, "ID")
    if kind.category == "Literal":
        found = _LITERAL_CLASSES.get(kind.name)
        if found is None:
            raise ValueError(f"operand kind {kind.name}: a Literal kind without a class")
        return found
    if kind.category == "ValueEnum":
        return "VALUE_ENUM"
    if kind.category == "BitEnum":
        return "BIT_ENUM"
    bases = [operand_class(kinds[base], kinds) for base in kind.bases]
    if bases == ["ID", "ID"]:
        return "ID_PAIR"
    if bases == ["LITERAL", "ID"]:
        return "SWITCH_PAIR"
    return "PAIR"


@dataclass
class Instruction:
    """A core instruction (from core.yaml or an extension file) or an ext-inst."""

    name: str
    opcode: int
    cls: str
    operands: list[Operand]
    capabilities: list[str]
    extensions: list[str]
    version: str
    last_version: str | None
    aliases: list[str]
    provisional: bool
    doc: str
    file: str
    mark: Mark

    @property
    def has_result_type(self) -> bool:
        """True when the first operand is IdResultType."""
        return bool(self.operands) and self.operands[0].kind == "IdResultType"

    @property
    def has_result(self) -> bool:
        """True when the instruction defines a result id."""
        return any(op.kind == "IdResult" for op in self.operands[:2])


@dataclass
class LayoutSection:
    """One section of the module's logical layout, and what goes there."""

    name: str
    doc: str
    classes: list[str]
    instructions: list[str]


@dataclass
class Rule:
    """An extension's validity rule, kept as data for the runtime to enforce."""

    id: str
    check: str
    source: str
    text: str
    data: dict[str, Any]
    mark: Mark


@dataclass
class ExtensionNote:
    """A note on an extension that no rule checks (a tool's limitation, a known problem)."""

    title: str
    text: str
    source: str
    instructions: list[str]
    mark: Mark


@dataclass
class Extension:
    """A SPV_* extension: where it is described and what it brings."""

    name: str
    file: str
    core_in: str | None
    requires_version: str | None
    depends: list[str]
    spec: str
    rules: list[Rule]
    instructions: list[str] = field(default_factory=list)
    enumerants: list[tuple[str, str]] = field(default_factory=list)  # (kind, enumerant)
    operand_kinds: list[str] = field(default_factory=list)
    notes: list[ExtensionNote] = field(default_factory=list)


@dataclass
class ExtInstSet:
    """An extended instruction set with its own instructions and operand kinds."""

    import_name: str
    python_name: str
    file: str
    version: int | None
    revision: int | None
    spec: str
    instructions: list[Instruction]
    operand_kinds: dict[str, OperandKind]
    section: str = "functions"  # where its OpExtInst go by default
    function_instructions: list[str] = field(default_factory=list)
    import_extensions: list[str] = field(default_factory=list)
    import_core_in: str | None = None
    import_prefix: str | None = None  # other import strings that name the set


@dataclass
class TypeCapability:
    """A capability a type needs that the grammar cannot express (OpTypeInt 64 → Int64)."""

    instruction: str
    operand: int
    value: int
    capability: str
    unless_operand: int | None = None
    """The row does not apply when the instruction has this operand (an FPEncoding)."""


@dataclass
class ResultTypeCapability:
    """Instructions that need a capability when their result type is one type (64-bit
    atomics → Int64Atomics): the type's declaring instruction, its operand and value."""

    instructions: list[str]
    type: str
    operand: int
    value: int
    capability: str
    said: str
    source: str


@dataclass
class TargetEnv:
    """A target environment: the SPIR-V version it writes, what it allows, the source."""

    name: str
    family: str
    spirv_version: str
    source: str
    doc: str
    everything: bool
    capabilities: list[str]
    extensions: list[str]
    forbids: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(operand kind, enumerant, why, source) of the enumerants it refuses."""
    after: list[tuple[str, str, str]] = field(default_factory=list)
    """(capability, the capability declared before it, source): capabilities it allows only
    after another."""
    validator: str = ""
    """The spirv-val --target-env that validates a module for it ("": its own name)."""
    rules: list[TargetRuleData] = field(default_factory=list)
    """Its rules beyond capabilities, extensions and enumerants (``target_rule``)."""


@dataclass
class TargetRuleData:
    """One rule of a target environment (schema record ``target_rule``), names resolved."""

    name: str
    kind: str
    why: str
    source: str
    opcodes: list[int] = field(default_factory=list)
    where: str = "anywhere"
    enumerants: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


@dataclass
class AssemblerEnv:
    """A --target-env name only the assembler knows (spirv-as's OpenGL 4.x names): the
    SPIR-V version it writes and the source saying so."""

    name: str
    spirv_version: str
    source: str


@dataclass
class Erratum:
    """A documented difference between grammars/ and the Khronos JSON."""

    file: str
    item: str
    fields: list[str]
    source: str
    why: str


@dataclass
class ResolvedRule:
    """One instruction's rule, resolved: positions are after the result id."""

    opcode: int
    instruction: str
    name: str
    source: str
    result: dict[str, Any] | None
    operands: list[tuple[int, str, dict[str, Any]]]
    indexes: tuple[int, int] | None = None
    shuffle: tuple[int, int, int] | None = None


@dataclass
class TypeRules:
    """Everything ``type_rules.yaml`` says, resolved."""

    sources: dict[str, str]
    forms: list[tuple[int, str, str, dict[str, int]]]  # opcode, name, category, fact → position
    read_only: list[tuple[int, str, int | None, str, str | None]] = field(default_factory=list)
    """(storage value, storage name, decoration value or None, decoration name, family)"""
    rules: list[ResolvedRule] = field(default_factory=list)
    ext_results: list[tuple[str, int, str, str]] = field(default_factory=list)
    """(set's import name, instruction number, its name, like_first or component_of_first)"""


@dataclass
class Grammar:
    """Everything under grammars/, validated and merged."""

    magic_number: int
    major_version: int
    minor_version: int
    revision: int
    layout: list[LayoutSection]
    instruction_classes: list[tuple[str, str]]
    instructions: list[Instruction]  # core + extensions, sorted by opcode
    operand_kinds: dict[str, OperandKind]  # core + extensions, in file order
    extensions: dict[str, Extension]
    ext_inst_sets: dict[str, ExtInstSet]  # by import name
    errata: list[Erratum]
    files: list[str]  # every grammar file read, relative to grammars/
    block_terminators: list[str] = field(default_factory=list)
    dedup_classes: list[str] = field(default_factory=list)
    dedup_instructions: list[str] = field(default_factory=list)
    dedup_never: list[str] = field(default_factory=list)
    type_capabilities: list[TypeCapability] = field(default_factory=list)
    result_type_capabilities: list[ResultTypeCapability] = field(default_factory=list)
    target_envs: list[TargetEnv] = field(default_factory=list)
    target_env_sources: dict[str, str] = field(default_factory=dict)
    assembler_envs: list[AssemblerEnv] = field(default_factory=list)
    spec_constant_op_opcodes: list[str] = field(default_factory=list)
    type_rules: TypeRules | None = None  # grammars/type_rules.yaml

    def deduplicated(self, instruction: Instruction) -> bool:
        """True when the module builder merges identical copies of this instruction."""
        if instruction.name in self.dedup_never:
            return False
        return instruction.cls in self.dedup_classes or instruction.name in self.dedup_instructions

    def notes_on(self, instruction: Instruction) -> list[ExtensionNote]:
        """The extensions' notes that name ``instruction``, in extension-name order."""
        return [
            note
            for _, ext in sorted(self.extensions.items())
            for note in ext.notes
            if instruction.name in note.instructions
        ]

    def section_of(self, instruction: Instruction) -> str:
        """The logical-layout section an instruction belongs to."""
        for section in self.layout:
            if instruction.name in section.instructions:
                return section.name
        for section in self.layout:
            if instruction.cls in section.classes:
                return section.name
        return self.layout[-1].name
