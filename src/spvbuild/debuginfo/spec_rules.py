"""The DebugInfo spec's rules as records: each with its review id, the line(s) of the spec
text it was read from, its section, and what it says.

The spec is the Khronos *DebugInfo Extended Instruction Set* specification, 1.00 Rev 1; the
project keeps its text as the seed named :data:`SEED`, and a rule's lines (``L616``) are
lines of that text.

:class:`DebugInfoError` names the :class:`Rule` a fact or instruction breaks.  The rules
about single instructions are named here (``IMPORT``, ``OPAQUE``, ...); those about what
an operand may refer to are in :mod:`spvbuild.debuginfo.references`.  The checks that
apply them are in :mod:`spvbuild.debuginfo.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

from spvbuild.errors import BuildError
from spvbuild.spirv.call_site import caller_location

__all__ = [
    "ARRAY_COUNT",
    "BINARY",
    "ENUMERANT",
    "ENUMERATORS",
    "ENUM_TABLES",
    "FLAGS",
    "FUNCTIONS",
    "GLOBALS",
    "GLOBAL_ONLY",
    "IMPORT",
    "INHERITANCE_TAG",
    "IN_FUNCTION",
    "LOCALS",
    "LOCATION",
    "NUMBER_IDS",
    "MACROS",
    "OPAQUE",
    "OPERATION_CODE",
    "OPERATION_COUNT",
    "PACK_COUNT",
    "REMOVAL",
    "SEED",
    "RESULT_TYPE",
    "SCOPE_NOT_NONE",
    "SET",
    "TEMPLATES",
    "TEMPLATE_COUNT",
    "TYPES_SECTION",
    "VECTOR_COUNT",
    "DebugInfoError",
    "Rule",
    "spec_rule",
]


SEED = "000_01119fa73200a173"
"""The name of the seed document whose lines the rules cite: the text of the Khronos
DebugInfo Extended Instruction Set specification, 1.00 Rev 1."""


@dataclass(frozen=True)
class Rule:
    """One rule of the spec: review id, seed line(s), section and what it says."""

    id: str
    lines: tuple[int, ...]
    section: str
    text: str

    def cite(self) -> str:
        """``rule R12 (DebugInfo spec 4.3 Type instructions, seed 000_01119fa73200a173
        L616): ...``."""
        lines = ", ".join(f"L{n}" for n in self.lines)
        return f"rule {self.id} (DebugInfo spec {self.section}, seed {SEED} {lines}): {self.text}"


class DebugInfoError(BuildError):
    """A debug-info fact or instruction that breaks a rule of the spec.

    ``rule`` is the :class:`Rule` broken (None when the target set simply lacks the
    instruction); the message names the instruction and operand, cites the rule and ends
    with the user's call site, ``(at shader.py:41)``: the first frame outside spvbuild when
    the error is made (:func:`~spvbuild.spirv.call_site.caller_location`), kept in ``site``.
    """

    def __init__(self, message: str, rule: Rule | None = None) -> None:
        self.rule = rule
        text = f"{message} — breaks {rule.cite()}" if rule else message
        self.site = caller_location(2)
        # a module's call wrapper (spvbuild.ir.state.at_call) adds no second site
        self.located = self.site is not None
        super().__init__(f"{text} (at {self.site})" if self.site else text)


def spec_rule(rule_id: str, line: int | tuple[int, ...], section: str, text: str) -> Rule:
    """A :class:`Rule` citing one line or several."""
    return Rule(rule_id, line if isinstance(line, tuple) else (line,), section, text)


BINARY = "2. Binary Form"
TYPES_SECTION = "4.3 Type instructions"
TEMPLATES = "4.4 Templates"
GLOBALS = "4.5 Global Variables"
FUNCTIONS = "4.6 Functions"
LOCATION = "4.7 Location Information"
LOCALS = "4.8 Local Variables"
MACROS = "4.9 Macros"

IMPORT = spec_rule("R1", 40, "1. Introduction", 'imported as OpExtInstImport "DebugInfo"')
SET = spec_rule("R2", 66, BINARY, "Set operand ... is the result of an OpExtInstImport instruction")
RESULT_TYPE = spec_rule("R3", 64, BINARY, "Result Type of all instructions ... is id of OpTypeVoid")
REMOVAL = spec_rule(
    "R6",
    68,
    BINARY,
    "a single debugging instruction can be removed ... if all references to its Result <id> "
    "are replaced with id of DebugInfoNone",
)
IN_FUNCTION = spec_rule(
    "R7",
    70,
    BINARY,
    "DebugScope, DebugNoScope, DebugDeclare, DebugValue instructions can interleave with "
    "instructions within a function body",
)
GLOBAL_ONLY = spec_rule(
    "R8",
    70,
    BINARY,
    "All other debugging instructions should be located between section 9 (types, constants, "
    "global variables) and section 10 (function declarations)",
)
OPAQUE = spec_rule(
    "R11",
    (72, 624),
    BINARY,
    "an opaque type is a DebugTypeComposite without Members operands; its Size must be "
    "DebugInfoNone and its Name must start with @",
)
OPERATION_COUNT = spec_rule(
    "R25",
    (210, 1409),
    "3.6 Debug Operations",
    "the number of literal Operands of a DebugOperation is the table's 'No. of Operands' "
    "(Deref 0, Plus 0, Minus 0, PlusUconst 1, BitPiece 2, Swap 0, Xderef 0, StackValue 0, "
    "Constu 1)",
)
OPERATION_CODE = spec_rule(
    "R25", 1407, "4.8 DebugOperation", "Operation is a DWARF operation from the table"
)
ARRAY_COUNT = spec_rule(
    "D10",
    (425, 427),
    TYPES_SECTION,
    "DebugTypeArray has 7+ words: one Component Count per array dimension, at least one",
)
TEMPLATE_COUNT = spec_rule(
    "D10", (794, 809), TEMPLATES, "DebugTypeTemplate has at least one Parameter (7 words)"
)
PACK_COUNT = spec_rule(
    "D10",
    (907, 909),
    TEMPLATES,
    "DebugTypeTemplateParameterPack has 10+ words: at least one template parameter",
)
INHERITANCE_TAG = spec_rule(
    "R15",
    (722, 724),
    TYPES_SECTION,
    "Child is a derived class or struct; Parent is a class or structure the Child is derived from",
)
ENUMERATORS = spec_rule(
    "R29",
    564,
    TYPES_SECTION,
    "Enumerators are trailing pairs of Value (OpConstant of integer type) and Name (OpString)",
)

# -- enumerated operands: a value of the operand's table ------------------------------------
FLAGS = spec_rule(
    "R43",
    (76, 369),
    "3.2 Debug Info Flags",
    "Flags is a single word literal formed by bitwise OR-ing values from the Debug Info Flags "
    "table",
)
ENUMERANT = spec_rule(
    "R44",
    (74, 367),
    "3. Enumerations",
    "an enumerated operand takes a value of its table (the spec's, or the core SPIR-V "
    "specification's for Storage Class and Source Language)",
)
ENUM_TABLES: dict[str, Rule] = {
    "DebugInfoFlags": FLAGS,
    "DebugBaseTypeAttributeEncoding": spec_rule(
        "R44",
        (140, 338),
        "3.3 Base Type Attribute Encodings",
        "Encoding describes how the base type is encoded: a value of the Base Type Attribute "
        "Encodings table",
    ),
    "DebugCompositeType": spec_rule(
        "R44", (178, 606), "3.4 Composite Types", "Tag is a value of the Composite Types table"
    ),
    "DebugTypeQualifier": spec_rule(
        "R44",
        (194, 398),
        "3.5 Type Qualifiers",
        "Type Qualifier is a literal value from the Type Qualifiers table",
    ),
}
"""The rule of each of the spec's enumeration tables, by operand kind; any other enumerated
kind (the newer sets' own, the core's) is :data:`ENUMERANT`'s."""

SCOPE_NOT_NONE = spec_rule(
    "R45",
    (68, 1123),
    BINARY,
    "in OpenCL.DebugInfo.100 and NonSemantic.Shader.DebugInfo.100 an operand naming a "
    "lexical scope (Parent, Scope) or a type must name one, not DebugInfoNone, as their "
    "validator (spirv-val) requires; the DebugInfo seed's L68 lets DebugInfoNone stand for "
    "any reference",
)

NUMBER_IDS = spec_rule(
    "R46",
    62,
    BINARY,
    "NonSemantic.Shader.DebugInfo.100 writes each number the seed writes as a literal (a line, "
    "a column, a version, an enumerated value) as the id of a 32-bit unsigned integer "
    "OpConstant",
)

VECTOR_COUNT = spec_rule(
    "R47",
    452,
    TYPES_SECTION,
    "Component Count is the number of elements in the vector; OpenCL.DebugInfo.100 and "
    "NonSemantic.Shader.DebugInfo.100 take 1 to 4, as their validator (spirv-val) requires",
)
