"""What each operand of a debug instruction may refer to, by the DebugInfo spec.

:data:`REFERENCES` maps (instruction, operand) to the instructions the operand may name
and the :class:`~spvbuild.debuginfo.spec_rules.Rule` that says so; ``*`` stands for any
instruction.  The scopes the spec only describes ("parent lexical scope") are the set the
review marks non-normative (R17-R21).
"""

from __future__ import annotations

from spvbuild.debuginfo.spec_rules import (
    BINARY,
    FUNCTIONS,
    GLOBALS,
    INHERITANCE_TAG,
    LOCALS,
    LOCATION,
    MACROS,
    TEMPLATES,
    TYPES_SECTION,
    Rule,
    spec_rule,
)

__all__ = [
    "ALIASES",
    "ANY",
    "BLOCK",
    "COMPOSITE",
    "CONSTANT",
    "DISCRIMINATOR",
    "ENUM_IDS",
    "FUNCTION",
    "GLOBAL_VALUES",
    "INTEGRAL",
    "NUMBERS",
    "REFERENCES",
    "SCOPES",
    "SCOPES_L616",
    "SCOPE_SET",
    "SCOPE_TEXT",
    "SOURCE",
    "STRING",
    "TEMPLATE_PARAMETERS",
    "TYPES",
    "UNIT",
]

UNIT, FUNCTION, BLOCK = "DebugCompilationUnit", "DebugFunction", "DebugLexicalBlock"
COMPOSITE, DISCRIMINATOR = "DebugTypeComposite", "DebugLexicalBlockDiscriminator"
SCOPES_L616 = frozenset({UNIT, FUNCTION, BLOCK, COMPOSITE})
SCOPES = SCOPES_L616 | {DISCRIMINATOR}
TYPES = frozenset(
    {
        "DebugTypeBasic", "DebugTypePointer", "DebugTypeQualifier", "DebugTypeArray",
        "DebugTypeVector", "DebugTypedef", "DebugTypeFunction", "DebugTypeEnum", COMPOSITE,
        "DebugTypePtrToMember", "DebugTypeTemplate", "DebugTypeTemplateParameter",
        "DebugTypeTemplateTemplateParameter", "DebugTypeTemplateParameterPack",
        "DebugTypeMatrix",
    }
)  # fmt: skip
TEMPLATE_PARAMETERS = frozenset(
    {
        "DebugTypeTemplateParameter",
        "DebugTypeTemplateTemplateParameter",
        "DebugTypeTemplateParameterPack",
    }
)
GLOBAL_VALUES = frozenset(
    {
        "OpVariable", "OpConstant", "OpConstantTrue", "OpConstantFalse", "OpConstantNull",
        "OpConstantComposite", "OpSpecConstant", "OpSpecConstantTrue", "OpSpecConstantFalse",
        "OpSpecConstantComposite", "OpSpecConstantOp", "DebugInfoNone",
    }
)  # fmt: skip
SOURCE = "<source>"  # an OpString in DebugInfo, a DebugSource in the other sets (R26)
CONSTANT = frozenset({"OpConstant"})
STRING = frozenset({"OpString"})
SCOPE_TEXT = "a debug instruction which represents the parent lexical scope"
SCOPE_SET = "(non-normative set, review R17-R21)"

ANY = "*"
REFERENCES: dict[tuple[str, str], tuple[frozenset[str], Rule]] = {
    (ANY, "Name"): (STRING, spec_rule("R4", 62, BINARY, "All Name operands are id of OpString")),
    (ANY, "Linkage Name"): (
        STRING,
        spec_rule("R4", (952, 1013, 1064), GLOBALS, "Linkage Name is an OpString"),
    ),
    (ANY, "Source"): (
        frozenset({SOURCE}),
        spec_rule(
            "R26",
            (301, 1459, 1494),
            BINARY,
            "Source provides the text of the source (an OpString naming the file, as the "
            "macro instructions say; a DebugSource in the newer sets)",
        ),
    ),
    ("DebugTypeBasic", "Size"): (
        CONSTANT,
        spec_rule("R27", 336, TYPES_SECTION, "Size is an OpConstant with integral type"),
    ),
    ("DebugTypePointer", "Base Type"): (
        TYPES,
        spec_rule(
            "R40", 365, TYPES_SECTION, "Base Type is a debugging instruction (the pointee type)"
        ),
    ),
    ("DebugTypeQualifier", "Base Type"): (
        TYPES,
        spec_rule("R40", 396, TYPES_SECTION, "Base Type is the debug type being qualified"),
    ),
    ("DebugTypeArray", "Base Type"): (
        TYPES,
        spec_rule("T", 423, TYPES_SECTION, "Base Type is the debug type of the array elements"),
    ),
    ("DebugTypeArray", "Component Counts"): (
        CONSTANT,
        spec_rule("R27", 425, TYPES_SECTION, "Component Count is an OpConstant with integral type"),
    ),
    ("DebugTypeVector", "Base Type"): (
        TYPES,
        spec_rule("T", 450, TYPES_SECTION, "Base Type is the debug type of the vector components"),
    ),
    ("DebugTypedef", "Base Type"): (
        TYPES,
        spec_rule("T", 480, TYPES_SECTION, "Base Type is the debug type being renamed"),
    ),
    ("DebugTypedef", "Parent"): (SCOPES, spec_rule("R19", 488, TYPES_SECTION, SCOPE_TEXT)),
    ("DebugTypeFunction", "Return Type"): (
        TYPES | {"OpTypeVoid"},
        spec_rule(
            "R32",
            521,
            TYPES_SECTION,
            "Return Type is a debug type; with no return value it is OpTypeVoid",
        ),
    ),
    ("DebugTypeFunction", "Parameter Types"): (
        TYPES,
        spec_rule("T", 523, TYPES_SECTION, "Parameter Types are debug types"),
    ),
    ("DebugTypeEnum", "Underlying Type"): (
        TYPES | {"DebugInfoNone"},
        spec_rule(
            "R29",
            550,
            TYPES_SECTION,
            "Underlying Type is a debug type, DebugInfoNone if the source does not specify it",
        ),
    ),
    ("DebugTypeEnum", "Parent"): (SCOPES, spec_rule("R19", 558, TYPES_SECTION, SCOPE_TEXT)),
    ("DebugTypeEnum", "Size"): (
        CONSTANT,
        spec_rule("R27", 560, TYPES_SECTION, "Size is an OpConstant with integral result type"),
    ),
    ("DebugTypeComposite", "Parent"): (
        SCOPES_L616,
        spec_rule(
            "R12",
            616,
            TYPES_SECTION,
            "Parent must be one of DebugCompilationUnit, DebugFunction, DebugLexicalBlock or "
            "other DebugTypeComposite",
        ),
    ),
    ("DebugTypeComposite", "Size"): (
        CONSTANT | {"DebugInfoNone"},
        spec_rule(
            "R27", (618, 624), TYPES_SECTION, "Size is an OpConstant (DebugInfoNone if opaque)"
        ),
    ),
    ("DebugTypeComposite", "Members"): (
        frozenset({"DebugTypeMember", FUNCTION, "DebugTypeInheritance"}),
        spec_rule(
            "R30",
            622,
            TYPES_SECTION,
            "Members must be ids of DebugTypeMember, DebugFunction or DebugTypeInheritance",
        ),
    ),
    ("DebugTypeMember", "Type"): (
        TYPES,
        spec_rule("T", 665, TYPES_SECTION, "Type is a debug type instruction"),
    ),
    ("DebugTypeMember", "Parent"): (
        frozenset({COMPOSITE}),
        spec_rule("R14", 673, TYPES_SECTION, "Parent is the composite type containing this member"),
    ),
    ("DebugTypeMember", "Offset"): (
        CONSTANT,
        spec_rule("R27", 675, TYPES_SECTION, "Offset is an OpConstant with integral type"),
    ),
    ("DebugTypeMember", "Size"): (
        CONSTANT,
        spec_rule("R27", 677, TYPES_SECTION, "Size is an OpConstant with integral type"),
    ),
    ("DebugTypeMember", "Value"): (
        CONSTANT,
        spec_rule("R34", 681, TYPES_SECTION, "Value is an OpConstant (const static member)"),
    ),
    ("DebugTypeInheritance", "Child"): (frozenset({COMPOSITE}), INHERITANCE_TAG),
    ("DebugTypeInheritance", "Parent"): (frozenset({COMPOSITE}), INHERITANCE_TAG),
    ("DebugTypeInheritance", "Offset"): (
        CONSTANT,
        spec_rule("R27", 726, TYPES_SECTION, "Offset is an OpConstant with integral type"),
    ),
    ("DebugTypeInheritance", "Size"): (
        CONSTANT,
        spec_rule("R27", 728, TYPES_SECTION, "Size is an OpConstant with integral type"),
    ),
    ("DebugTypePtrToMember", "Member Type"): (
        TYPES,
        spec_rule("T", 761, TYPES_SECTION, "Member Type is the debug type of the member"),
    ),
    ("DebugTypePtrToMember", "Parent"): (
        frozenset({COMPOSITE}),
        spec_rule("R16", 763, TYPES_SECTION, "Parent is a structure or class type"),
    ),
    ("DebugTypeTemplate", "Target"): (
        frozenset({COMPOSITE, FUNCTION}),
        spec_rule("R35", 790, TEMPLATES, "Target is a class, struct or function"),
    ),
    ("DebugTypeTemplate", "Parameters"): (
        TEMPLATE_PARAMETERS,
        spec_rule("R35", 792, TEMPLATES, "Parameters are template parameter instructions"),
    ),
    ("DebugTypeTemplateParameter", "Actual Type"): (
        TYPES,
        spec_rule("T", 819, TEMPLATES, "Actual Type is a debug type"),
    ),
    ("DebugTypeTemplateParameter", "Value"): (
        CONSTANT | {"DebugInfoNone"},
        spec_rule(
            "R36",
            821,
            TEMPLATES,
            "a value parameter's Value is an OpConstant with integer type; a type parameter "
            "does not use it (DebugInfoNone, review D12)",
        ),
    ),
    ("DebugTypeTemplateTemplateParameter", "Template Name"): (
        STRING,
        spec_rule("R4", 862, TEMPLATES, "Template Name is an OpString"),
    ),
    ("DebugTypeTemplateParameterPack", "Template Parameters"): (
        frozenset({"DebugTypeTemplateParameter"}),
        spec_rule("R35", 907, TEMPLATES, "Template parameters are DebugTypeTemplateParameters"),
    ),
    ("DebugGlobalVariable", "Type"): (TYPES, spec_rule("T", 942, GLOBALS, "Type is a debug type")),
    ("DebugGlobalVariable", "Parent"): (
        SCOPES_L616,
        spec_rule(
            "R13",
            950,
            GLOBALS,
            "Parent must be one of DebugCompilationUnit, DebugFunction, DebugLexicalBlock or "
            "DebugTypeComposite",
        ),
    ),
    ("DebugGlobalVariable", "Variable"): (
        GLOBAL_VALUES,
        spec_rule(
            "R33",
            954,
            GLOBALS,
            "Variable is the global variable or constant; DebugInfoNone if optimized out",
        ),
    ),
    ("DebugGlobalVariable", "Static Member Declaration"): (
        frozenset({"DebugTypeMember"}),
        spec_rule("R33", 958, GLOBALS, "Static Member Declaration is a DebugTypeMember"),
    ),
    ("DebugFunctionDeclaration", "Type"): (
        frozenset({"DebugTypeFunction"}),
        spec_rule("R31", 1003, FUNCTIONS, "Type is a DebugTypeFunction"),
    ),
    ("DebugFunctionDeclaration", "Parent"): (SCOPES, spec_rule("R19", 1011, FUNCTIONS, SCOPE_TEXT)),
    ("DebugFunction", "Type"): (
        frozenset({"DebugTypeFunction"}),
        spec_rule("R31", 1054, FUNCTIONS, "Type is a DebugTypeFunction"),
    ),
    ("DebugFunction", "Parent"): (SCOPES, spec_rule("R19", 1062, FUNCTIONS, SCOPE_TEXT)),
    ("DebugFunction", "Function"): (
        frozenset({"OpFunction", "DebugInfoNone"}),
        spec_rule("R31", 1070, FUNCTIONS, "Function is an OpFunction which is described"),
    ),
    ("DebugFunctionDefinition", "Function"): (
        frozenset({FUNCTION}),
        spec_rule(
            "R31",
            1070,
            FUNCTIONS,
            "DebugFunctionDefinition, NonSemantic.Shader.DebugInfo.100's form of DebugFunction's "
            "Function operand, names the DebugFunction described",
        ),
    ),
    ("DebugFunctionDefinition", "Definition"): (
        frozenset({"OpFunction"}),
        spec_rule(
            "R31",
            1070,
            FUNCTIONS,
            "DebugFunctionDefinition's Definition, like DebugFunction's Function, is the "
            "OpFunction described",
        ),
    ),
    ("DebugFunction", "Declaration"): (
        frozenset({"DebugFunctionDeclaration"}),
        spec_rule("R31", 1072, FUNCTIONS, "Declaration is a DebugFunctionDeclaration"),
    ),
    ("DebugLexicalBlock", "Parent"): (
        SCOPES,
        spec_rule("R17", 1123, LOCATION, "Parent is the scope containing the current scope"),
    ),
    ("DebugLexicalBlockDiscriminator", "Parent"): (
        SCOPES,
        spec_rule("R18", 1158, LOCATION, "Parent is the scope containing the current scope"),
    ),
    ("DebugScope", "Scope"): (
        SCOPES,
        spec_rule(
            "R20", 1187, LOCATION, "Scope is a debugging instruction describing a source scope"
        ),
    ),
    ("DebugScope", "Inlined At"): (
        frozenset({"DebugInlinedAt"}),
        spec_rule("R20", 1189, LOCATION, "Inlined At is a DebugInlinedAt instruction"),
    ),
    ("DebugInlinedAt", "Scope"): (
        SCOPES,
        spec_rule("R21", 1236, LOCATION, "Scope is the source-level scope the code was inlined at"),
    ),
    ("DebugInlinedAt", "Inlined"): (
        frozenset({"DebugInlinedAt"}),
        spec_rule(
            "R21", 1238, LOCATION, "Inlined is the next level of inlining (a DebugInlinedAt)"
        ),
    ),
    ("DebugLocalVariable", "Type"): (TYPES, spec_rule("T", 1269, LOCALS, "Type is a debug type")),
    ("DebugLocalVariable", "Parent"): (SCOPES, spec_rule("R19", 1277, LOCALS, SCOPE_TEXT)),
    ("DebugInlinedVariable", "Variable"): (
        frozenset({"DebugLocalVariable"}),
        spec_rule("R37", 1314, LOCALS, "Variable is the local variable which is inlined"),
    ),
    ("DebugInlinedVariable", "Inlined"): (
        frozenset({"DebugInlinedAt"}),
        spec_rule("R37", 1316, LOCALS, "Inlined is a DebugInlinedAt instruction"),
    ),
    ("DebugDeclare", "Local Variable"): (
        frozenset({"DebugLocalVariable"}),
        spec_rule("R22", 1341, LOCALS, "Local Variable must be an id of DebugLocalVariable"),
    ),
    ("DebugDeclare", "Variable"): (
        frozenset({"OpVariable"}),
        spec_rule("R22", 1343, LOCALS, "Variable must be an id of OpVariable"),
    ),
    ("DebugDeclare", "Expression"): (
        frozenset({"DebugExpression"}),
        spec_rule("R22", 1345, LOCALS, "Expression must be an id of a DebugExpression"),
    ),
    ("DebugValue", "Local Variable"): (
        frozenset({"DebugLocalVariable"}),
        spec_rule("R23", 1372, LOCALS, "Local Variable must be an id of DebugLocalVariable"),
    ),
    ("DebugValue", "Expression"): (
        frozenset({"DebugExpression"}),
        spec_rule("R23", 1376, LOCALS, "Expression is id of a DebugExpression"),
    ),
    ("DebugExpression", "Operation"): (
        frozenset({"DebugOperation"}),
        spec_rule("R24", 1434, LOCALS, "Operation is zero or more ids of DebugOperation"),
    ),
    ("DebugSource", "File"): (
        STRING,
        spec_rule("R26", (301, 1459), BINARY, "a source's File names the file: an OpString"),
    ),
    ("DebugSource", "Text"): (
        STRING,
        spec_rule("R26", 301, BINARY, "a source's Text is the source text: an OpString"),
    ),
    ("DebugSourceContinued", "Text"): (
        STRING,
        spec_rule("R26", 301, BINARY, "the rest of a source's text: an OpString"),
    ),
    ("DebugStoragePath", "Path"): (STRING, spec_rule("R4", 62, BINARY, "Path is an OpString")),
    ("DebugBuildIdentifier", "Identifier"): (
        STRING,
        spec_rule("R4", 62, BINARY, "Identifier is an OpString"),
    ),
    ("DebugEntryPoint", "Entry Point"): (
        frozenset({FUNCTION}),
        spec_rule("R31", 1046, FUNCTIONS, "Entry Point is the DebugFunction of the entry point"),
    ),
    ("DebugEntryPoint", "Compilation Unit"): (
        frozenset({UNIT}),
        spec_rule("R19", 293, BINARY, "Compilation Unit is a DebugCompilationUnit"),
    ),
    ("DebugEntryPoint", "Compiler Signature"): (
        STRING,
        spec_rule("R4", 62, BINARY, "Compiler Signature is an OpString"),
    ),
    ("DebugEntryPoint", "Command-line Arguments"): (
        STRING,
        spec_rule("R4", 62, BINARY, "Command-line Arguments is an OpString"),
    ),
    ("DebugTypeMatrix", "Vector Type"): (
        frozenset({"DebugTypeVector"}),
        spec_rule("T", 450, TYPES_SECTION, "a matrix's Vector Type is a DebugTypeVector"),
    ),
    ("DebugMacroDef", "Value"): (
        STRING,
        spec_rule("R39", 1465, MACROS, "Value is id of OpString holding the macro's definition"),
    ),
    ("DebugMacroUndef", "Macro"): (
        frozenset({"DebugMacroDef"}),
        spec_rule("R39", 1498, MACROS, "Macro is id of the DebugMacroDef being undefined"),
    ),
}
"""(instruction, operand) → (what the operand may refer to, the rule that says so)."""

ALIASES = {"Operands ...": "Operation"}
"""Operand names of the newer sets that the seed spells differently (DebugExpression)."""

INTEGRAL = frozenset(
    {
        ("DebugTypeBasic", "Size"), ("DebugTypeArray", "Component Counts"),
        ("DebugTypeEnum", "Size"), ("DebugTypeComposite", "Size"), ("DebugTypeMember", "Offset"),
        ("DebugTypeMember", "Size"), ("DebugTypeInheritance", "Offset"),
        ("DebugTypeInheritance", "Size"), ("DebugTypeTemplateParameter", "Value"),
    }
)  # fmt: skip
"""Operands whose OpConstant must have an integer type ("an OpConstant with integral type",
L336, L425, L560, L618, L675, L677, L726, L728; "with integer result type", L821); each is
checked under the rule :data:`REFERENCES` gives it.  The enumerators' Values (L564) are
checked with the other enumerator rules."""

ENUM_IDS: dict[tuple[str, str], str] = {
    (ANY, "Flags"): "DebugInfoFlags",
    ("DebugBuildIdentifier", "Flags"): "BuildIdentifierFlags",
    ("DebugTypeBasic", "Encoding"): "DebugBaseTypeAttributeEncoding",
    ("DebugTypeComposite", "Tag"): "DebugCompositeType",
    ("DebugTypeQualifier", "Type Qualifier"): "DebugTypeQualifier",
    ("DebugImportedEntity", "Tag"): "DebugImportedEntity",
    ("DebugTypePointer", "Storage Class"): "StorageClass",
    ("DebugCompilationUnit", "Language"): "SourceLanguage",
}
"""Operands that NonSemantic.Shader.DebugInfo.100 writes as the id of an OpConstant holding
an enumerated value, and the table (operand kind: the set's own, else the core's) the
value comes from; the other sets write these operands as literals of that kind.
DebugOperation's OpCode is checked with the operation's operand count."""

NUMBERS = frozenset(
    {
        (ANY, "Line"), (ANY, "Column"), ("DebugLine", "Line Start"), ("DebugLine", "Line End"),
        ("DebugLine", "Column Start"), ("DebugLine", "Column End"),
        ("DebugCompilationUnit", "Version"), ("DebugCompilationUnit", "DWARF Version"),
        ("DebugTypeVector", "Component Count"), ("DebugTypeMatrix", "Vector Count"),
        ("DebugLexicalBlockDiscriminator", "Discriminator"), ("DebugFunction", "Scope Line"),
        ("DebugLocalVariable", "Arg Number"), ("DebugOperation", "OpCode"),
        ("DebugOperation", "Operands ..."),
    }
)  # fmt: skip
"""Operands that NonSemantic.Shader.DebugInfo.100 writes as the id of a 32-bit unsigned
integer OpConstant holding a number (the other sets: a literal), besides the enumerated
ones of :data:`ENUM_IDS`."""
