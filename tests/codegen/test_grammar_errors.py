"""The grammar loader's errors: every bad input is a GrammarError naming file:line:col and key.

Each case copies the tiny valid grammar tree in ``tests/fixtures/mini_grammar/`` (plus the
real ``grammars/schema.yaml``) to a temporary folder, breaks one thing, and checks the
error's file, exact line (the line of a text the case names, looked up in the broken
file), key, expected-text and, where it matters, column and found-text.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from codegen.errors import GrammarError
from codegen.loader import load_grammar
from codegen.model import ANY_VERSION

REPO = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "mini_grammar"
SCHEMA = REPO / "grammars" / "schema.yaml"

CORE = "core.yaml"
EXT = "extensions/SPV_TEST_mini.yaml"
SET = "extinst/mini.yaml"

Step = Callable[[Path], None]


# -- building and breaking the tree ----------------------------------------------------------
def make_tree(root: Path) -> Path:
    shutil.copytree(FIXTURE, root)
    shutil.copy(SCHEMA, root / "schema.yaml")
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "grammars")


def replace(file: str, old: str, new: str) -> Step:
    """Replace the one occurrence of ``old`` in ``file``."""

    def step(root: Path) -> None:
        path = root / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    return step


def write(file: str, content: str | bytes) -> Step:
    def step(root: Path) -> None:
        path = root / file
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")

    return step


def rename(old: str, new: str) -> Step:
    def step(root: Path) -> None:
        (root / old).rename(root / new)

    return step


def copy(src: str, dst: str) -> Step:
    def step(root: Path) -> None:
        shutil.copy(root / src, root / dst)

    return step


def delete(file: str) -> Step:
    def step(root: Path) -> None:
        (root / file).unlink()

    return step


def line_of(text: str, needle: str) -> int:
    """1-based line where the one occurrence of ``needle`` starts."""
    assert text.count(needle) == 1, f"{needle!r} occurs {text.count(needle)} times"
    return text.count("\n", 0, text.index(needle)) + 1


# -- the cases ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    id: str
    steps: tuple[Step, ...]
    file: str  # the file the error must name
    at: str | None  # a unique text in that file whose line the error must name (None: line 1)
    key: str
    expected: str  # must occur in error.expected
    found: str | None = None  # must occur in error.found
    col_at: str | None = None  # the error's column is where this text starts on the line
    col: int | None = None  # or this exact column
    first: tuple[str, str] | None = None  # (file, text): "already defined at FILE:LINE:"


CASES: list[Case] = [
    # -- schema: unknown keys ----------------------------------------------------------------
    Case(
        "unknown key in an instruction",
        steps=(replace(CORE, "    opcode: 0\n", "    opcode: 0\n    colour: red\n"),),
        file=CORE,
        at="    colour: red",
        key="colour",
        expected="one of the keys of instruction: ",
        found="an unknown key",
        col=5,
    ),
    Case(
        "unknown top-level key in an extension file",
        steps=(replace(EXT, "spec: made up", "colour: red\nspec: made up"),),
        file=EXT,
        at="colour: red",
        key="colour",
        expected="one of the keys of extension_file: ",
        col=1,
    ),
    Case(
        "unknown key in an operand",
        steps=(replace(CORE, "{kind: IdRef, name: Target}", "{kind: IdRef, nmae: Target}"),),
        file=CORE,
        at="nmae: Target",
        key="nmae",
        expected="one of the keys of operand: kind, name, quantifier",
        col_at="nmae",
    ),
    Case(
        "unknown key in a rule",
        steps=(
            replace(
                EXT,
                "    decoration: MiniDecorationTEST\n",
                "    decoration: MiniDecorationTEST\n    severity: high\n",
            ),
        ),
        file=EXT,
        at="    severity: high",
        key="severity",
        expected="one of the keys of rule: ",
    ),
    # -- YAML-level: duplicate keys, syntax, odd keys ------------------------------------------
    Case(
        "duplicate key in an instruction mapping",
        steps=(
            replace(
                CORE,
                "    opcode: 0\n    class: Miscellaneous\n",
                "    opcode: 0\n    class: Miscellaneous\n    opcode: 5\n",
            ),
        ),
        file=CORE,
        at="    opcode: 5",
        key="opcode",
        expected="a unique key (already given at line ",
        col=5,
    ),
    Case(
        "duplicate top-level key in an ext-inst file",
        steps=(replace(SET, "version: 100\n", "version: 100\nversion: 101\n"),),
        file=SET,
        at="version: 101",
        key="version",
        expected="a unique key (already given at line 5)",
        col=1,
    ),
    Case(
        "YAML syntax error: a second ': ' in a plain value",
        steps=(replace(CORE, "    class: Annotation\n", "    class: Annotation: Decorations\n"),),
        file=CORE,
        at="    class: Annotation: Decorations",
        key="-",
        expected="valid YAML (mapping values are not allowed",
        col_at=": Decorations",
    ),
    Case(
        "YAML syntax error: a tab for indentation",
        steps=(replace(CORE, "  OpNop:\n", "\tOpNop:\n"),),
        file=CORE,
        at="\tOpNop:",
        key="-",
        expected="valid YAML (found character that cannot start any token",
        col=1,
    ),
    Case(
        "a mapping key that is not a scalar",
        steps=(replace(CORE, "  OpNop:\n", "  [OpNop, OpNop2]:\n"),),
        file=CORE,
        at="  [OpNop, OpNop2]:",
        key="?",
        expected="a plain scalar mapping key",
        col=3,
    ),
    Case(
        "a file that is not UTF-8",
        steps=(write(EXT, b"unit: extension\nextension: SPV_TEST_mini\nspec: caf\xe9\n"),),
        file=EXT,
        at=None,
        key="-",
        expected="UTF-8 text",
        col=1,
    ),
    # -- schema: types, enums, versions ----------------------------------------------------------
    Case(
        "wrong type: opcode given as a string",
        steps=(replace(CORE, "    opcode: 1\n", '    opcode: "1"\n'),),
        file=CORE,
        at='    opcode: "1"',
        key="opcode",
        expected="an integer",
        found="the string '1'",
        col_at='"1"',
    ),
    Case(
        "wrong type: a string where a list is expected",
        steps=(replace(CORE, "    bases: [IdRef, LiteralInteger]", "    bases: IdRef"),),
        file=CORE,
        at="    bases: IdRef",
        key="bases",
        expected="a list of a string",
        found="the string 'IdRef'",
        col_at="IdRef",
    ),
    Case(
        "wrong type: a string where true/false is expected",
        steps=(
            replace(EXT, "    opcode: 4002\n", "    opcode: 4002\n    provisional: yes please\n"),
        ),
        file=EXT,
        at="    provisional: yes please",
        key="provisional",
        expected="true or false",
        found="the string 'yes please'",
    ),
    Case(
        "wrong type: an instruction with no body",
        steps=(replace(CORE, "  OpNop:\n    opcode: 0\n    class: Miscellaneous\n", "  OpNop:\n"),),
        file=CORE,
        at="  OpNop:",
        key="OpNop",
        expected="a instruction mapping",
        found="nothing",
    ),
    Case(
        "wrong type: a file that is a list",
        steps=(write(EXT, "- unit\n- extension\n"),),
        file=EXT,
        at="- unit",
        key="(file)",
        expected="extension_file mapping",
        found="a list",
        col=1,
    ),
    Case(
        "bad version string",
        steps=(replace(CORE, '    version: "1.0"', '    version: "2.0"'),),
        file=CORE,
        at='    version: "2.0"',
        key="version",
        expected='a version string like "1.3" or "None"',
        found="the string '2.0'",
        col_at='"2.0"',
    ),
    Case(
        "version written as a YAML float",
        steps=(replace(EXT, 'requires_version: "1.0"', "requires_version: 1.3"),),
        file=EXT,
        at="requires_version: 1.3",
        key="requires_version",
        expected="a version string like",
        found="a float",
        col_at="1.3",
    ),
    Case(
        "operand kind category outside the enum",
        steps=(replace(CORE, "  IdRef: {category: Id}", "  IdRef: {category: Identifier}"),),
        file=CORE,
        at="  IdRef: {category: Identifier}",
        key="category",
        expected="one of BitEnum, ValueEnum, Id, Literal, Composite",
        found="the string 'Identifier'",
        col_at="Identifier",
    ),
    Case(
        "rule check outside the enum",
        steps=(replace(EXT, "    check: function_pointer_call\n", "    check: result_types\n"),),
        file=EXT,
        at="    check: result_types",
        key="check",
        expected="one of decoration_targets, function_pointer_operands, function_pointer_constant",
        found="the string 'result_types'",
    ),
    Case(
        "bad quantifier",
        steps=(replace(EXT, 'quantifier: "?"', 'quantifier: "+"'),),
        file=EXT,
        at='quantifier: "+"',
        key="quantifier",
        expected="'?' or '*'",
        found="the string '+'",
        col_at='"+"',
    ),
    # -- schema: missing required keys -----------------------------------------------------------
    Case(
        "missing required key in an instruction (block mapping)",
        steps=(replace(CORE, "    opcode: 1\n    class: Miscellaneous\n", "    opcode: 1\n"),),
        file=CORE,
        at="    opcode: 1\n",
        key="class",
        expected="the required key 'class' in instruction",
        found="it missing",
        col=5,
    ),
    Case(
        "missing required key in an operand kind (flow mapping)",
        steps=(replace(CORE, "  IdRef: {category: Id}", "  IdRef: {doc: no category}"),),
        file=CORE,
        at="  IdRef: {doc: no category}",
        key="category",
        expected="the required key 'category' in operand_kind",
        col_at="{doc",
    ),
    Case(
        "missing required top-level key",
        steps=(replace(SET, "import_name: Mini.std\n", ""),),
        file=SET,
        at="unit: ext_inst_set",
        key="import_name",
        expected="the required key 'import_name' in ext_inst_set_file",
        col=1,
    ),
    Case(
        "missing required key in a rule",
        steps=(replace(EXT, "    text: MiniDecorationTEST applies to OpMiniTEST.\n", ""),),
        file=EXT,
        at="id: mini-decoration-target",
        key="text",
        expected="the required key 'text' in rule",
        col_at="id: mini-decoration-target",
    ),
    Case(
        "an empty extension file",
        steps=(write(EXT, "# nothing here\n"),),
        file=EXT,
        at="# nothing here",
        key="unit",
        expected="the required key 'unit' in extension_file",
        col=1,
    ),
    Case(
        "no core.yaml",
        steps=(delete(CORE),),
        file=CORE,
        at=None,
        key="-",
        expected="grammars/core.yaml to exist",
        col=1,
    ),
    # -- duplicates across the merged model -----------------------------------------------------
    Case(
        "duplicate instruction name in core and an extension file",
        steps=(
            replace(
                EXT,
                "instructions:\n  OpMiniTEST:",
                "instructions:\n  OpNop:\n    opcode: 4003\n    class: Miscellaneous\n  OpMiniTEST:",
            ),
        ),
        file=EXT,
        at="  OpNop:",
        key="OpNop",
        expected="a new instruction name (already defined at ",
        col=3,
        first=(CORE, "  OpNop:"),
    ),
    Case(
        "duplicate operand kind in core and an extension file",
        steps=(
            replace(
                EXT,
                "operand_kinds:\n  MiniMode:",
                "operand_kinds:\n  IdRef: {category: Id}\n  MiniMode:",
            ),
        ),
        file=EXT,
        at="  IdRef: {category: Id}",
        key="IdRef",
        expected="a new operand kind (already defined at ",
        first=(CORE, "  IdRef: {category: Id}"),
    ),
    Case(
        "duplicate opcode in core.yaml",
        steps=(replace(CORE, "    opcode: 1\n", "    opcode: 0\n"),),
        file=CORE,
        at="  OpUndef:",
        key="OpUndef",
        expected="a new opcode (opcode 0 is already OpNop at ",
        first=(CORE, "  OpNop:"),
    ),
    # OpMiniTEST sorts before OpUndef: the error must still blame the extension file, which
    # brought the clash, and not core.yaml's OpUndef.
    Case(
        "duplicate opcode: an extension instruction reuses a core opcode",
        steps=(replace(EXT, "    opcode: 4002\n", "    opcode: 1\n"),),
        file=EXT,
        at="  OpMiniTEST:",
        key="OpMiniTEST",
        expected="a new opcode (opcode 1 is already OpUndef at ",
        first=(CORE, "  OpUndef:"),
    ),
    Case(
        "duplicate ext-inst number",
        steps=(replace(SET, "    opcode: 2\n", "    opcode: 1\n"),),
        file=SET,
        at="  MiniFlagged:",
        key="MiniFlagged",
        expected="a new ext-inst number (1 is already MiniAdd)",
    ),
    Case(
        "duplicate ValueEnum value in core.yaml",
        steps=(
            replace(CORE, "      SpecId:\n        value: 1\n", "      SpecId:\n        value: 0\n"),
        ),
        file=CORE,
        at="      SpecId:",
        key="SpecId",
        expected="a new Decoration value (0 is already RelaxedPrecision at ",
        first=(CORE, "      RelaxedPrecision:"),
    ),
    Case(
        "duplicate ValueEnum value added by an extension",
        steps=(replace(EXT, "      value: 4001\n", "      value: 1\n"),),
        file=EXT,
        at="    MiniDecorationTEST:",
        key="MiniDecorationTEST",
        expected="a new Decoration value (1 is already SpecId at ",
        first=(CORE, "      SpecId:"),
    ),
    Case(
        "duplicate enumerant name added by an extension",
        steps=(
            replace(
                EXT,
                "  Decoration:\n    MiniDecorationTEST:",
                "  Decoration:\n    RelaxedPrecision: {value: 4005}\n    MiniDecorationTEST:",
            ),
        ),
        file=EXT,
        at="    RelaxedPrecision: {value: 4005}",
        key="RelaxedPrecision",
        expected="a new Decoration enumerant (already defined at ",
        first=(CORE, "      RelaxedPrecision:"),
    ),
    Case(
        "duplicate import name of two ext-inst sets",
        steps=(copy(SET, "extinst/mini2.yaml"),),
        file="extinst/mini2.yaml",
        at="import_name: Mini.std",
        key="import_name",
        expected="a new import name (already used by extinst/mini.yaml)",
        col_at="Mini.std",
    ),
    Case(
        "duplicate logical-layout section",
        steps=(replace(CORE, "  - {section: functions,", "  - {section: annotations,"),),
        file=CORE,
        at="logical_layout:",
        key="logical_layout",
        expected="unique section names",
    ),
    # -- references to unknown things ----------------------------------------------------------
    Case(
        "unknown operand kind in an instruction",
        steps=(replace(CORE, "{kind: IdRef, name: Target}", "{kind: IdReference, name: Target}"),),
        file=CORE,
        at="{kind: IdReference",
        key="kind",
        expected="a known operand kind (in OpDecorate)",
        found="'IdReference'",
        col_at="{kind: IdReference",
    ),
    Case(
        "unknown operand kind in an enumerant parameter",
        steps=(
            replace(CORE, "{kind: LiteralInteger, name: Spec", "{kind: LiteralInt, name: Spec"),
        ),
        file=CORE,
        at="{kind: LiteralInt, name: Spec",
        key="kind",
        expected="a known operand kind (in Decoration.SpecId)",
        found="'LiteralInt'",
        col_at="{kind: LiteralInt,",
    ),
    Case(
        "unknown operand kind in an ext instruction",
        steps=(replace(SET, "{kind: IdRef, name: Y}", "{kind: IdRefs, name: Y}"),),
        file=SET,
        at="{kind: IdRefs, name: Y}",
        key="kind",
        expected="a known operand kind (in MiniAdd)",
        found="'IdRefs'",
    ),
    Case(
        "an ext-inst set's operand kind is not visible to core instructions",
        steps=(
            replace(
                CORE, "    opcode: 0\n", "    opcode: 0\n    operands:\n      - {kind: MiniFlags}\n"
            ),
        ),
        file=CORE,
        at="      - {kind: MiniFlags}",
        key="kind",
        expected="a known operand kind (in OpNop)",
        found="'MiniFlags'",
    ),
    Case(
        "unknown base of a Composite kind",
        steps=(
            replace(CORE, "    bases: [IdRef, LiteralInteger]", "    bases: [IdRef, LiteralInt]"),
        ),
        file=CORE,
        at="  PairIdRefLiteralInteger:",
        key="bases",
        expected="a known operand kind",
        found="'LiteralInt'",
    ),
    Case(
        "unknown capability of an instruction",
        steps=(
            replace(
                EXT,
                "    capabilities: [MiniTEST]\n    extensions",
                "    capabilities: [MiniTESTX]\n    extensions",
            ),
        ),
        file=EXT,
        at="  OpMiniTEST:",
        key="capabilities",
        expected="a known Capability (in OpMiniTEST)",
        found="'MiniTESTX'",
    ),
    Case(
        "unknown capability of an enumerant",
        steps=(
            replace(
                CORE,
                "        value: 0\n        capabilities: [Shader]",
                "        value: 0\n        capabilities: [Shaders]",
            ),
        ),
        file=CORE,
        at="      RelaxedPrecision:",
        key="capabilities",
        expected="a known Capability (in RelaxedPrecision)",
        found="'Shaders'",
    ),
    Case(
        "unknown extension of an instruction",
        steps=(
            replace(
                EXT,
                "    extensions: [SPV_TEST_mini]\nrules:",
                "    extensions: [SPV_TEST_other]\nrules:",
            ),
        ),
        file=EXT,
        at="  OpMiniTEST:",
        key="extensions",
        expected="an extension described under grammars/extensions/ (in OpMiniTEST)",
        found="'SPV_TEST_other'",
    ),
    Case(
        "a note naming an instruction the extension does not add",
        steps=(
            replace(
                EXT,
                "rules:\n",
                "notes:\n  - title: A known problem.\n    text: Words.\n    source: here\n"
                "    instructions: [OpNop]\nrules:\n",
            ),
        ),
        file=EXT,
        at="  - title: A known problem.",
        key="instructions",
        expected="an instruction of SPV_TEST_mini",
        found="'OpNop'",
    ),
    Case(
        "unknown extension in depends",
        steps=(replace(EXT, "depends: []", "depends: [SPV_TEST_nothing]"),),
        file=EXT,
        at="depends: [SPV_TEST_nothing]",
        key="depends",
        expected="a known extension",
        found="'SPV_TEST_nothing'",
        col_at="SPV_TEST_nothing",
    ),
    Case(
        "unknown instruction in logical_layout",
        steps=(replace(CORE, "instructions: [OpCapability]}", "instructions: [OpCapabilityX]}"),),
        file=CORE,
        at="  - {section: capabilities",
        key="OpCapabilityX",
        expected="a known instruction in logical_layout",
        col_at="{section: capabilities",
    ),
    # -- operand order ---------------------------------------------------------------------------
    Case(
        "optional operand followed by a required one",
        steps=(
            replace(
                EXT,
                '{kind: MiniMode, name: Mode, quantifier: "?"}\n',
                '{kind: MiniMode, name: Mode, quantifier: "?"}\n      - {kind: IdRef, name: After}\n',
            ),
        ),
        file=EXT,
        at="      - {kind: IdRef, name: After}",
        key="quantifier",
        expected="'?' or '*' (in OpMiniTEST, operands after an optional one must be optional)",
        col_at="{kind: IdRef, name: After}",
    ),
    # -- extension files -----------------------------------------------------------------------
    Case(
        "extension key unlike the file name",
        steps=(replace(EXT, "extension: SPV_TEST_mini\n", "extension: SPV_TEST_other\n"),),
        file=EXT,
        at="extension: SPV_TEST_other",
        key="extension",
        expected="the extension named like its file (SPV_TEST_mini)",
        found="'SPV_TEST_other'",
        col_at="SPV_TEST_other",
    ),
    Case(
        "extension file renamed",
        steps=(rename(EXT, "extensions/SPV_TEST_renamed.yaml"),),
        file="extensions/SPV_TEST_renamed.yaml",
        at="extension: SPV_TEST_mini",
        key="extension",
        expected="the extension named like its file (SPV_TEST_renamed)",
        found="'SPV_TEST_mini'",
    ),
    Case(
        "enumerants added to an unknown kind",
        steps=(
            replace(
                EXT,
                "enumerants:\n  Capability:\n",
                "enumerants:\n  Decorations:\n    Foo: {value: 9}\n  Capability:\n",
            ),
        ),
        file=EXT,
        at="  Decorations:",
        key="Decorations",
        expected="an operand kind defined in core.yaml or an extension file",
        col=3,
    ),
    Case(
        "enumerants added to a kind that is no enum",
        steps=(
            replace(
                EXT,
                "enumerants:\n  Capability:\n",
                "enumerants:\n  IdRef:\n    Foo: {value: 9}\n  Capability:\n",
            ),
        ),
        file=EXT,
        at="  IdRef:",
        key="IdRef",
        expected="an enum operand kind (ValueEnum or BitEnum)",
        found="Id",
    ),
    # -- rules ------------------------------------------------------------------------------------
    Case(
        "rule naming an unknown instruction (instructions list)",
        steps=(replace(EXT, "    instructions: [OpMiniTEST]", "    instructions: [OpMiniTESTX]"),),
        file=EXT,
        at="id: mini-decoration-target",
        key="instructions",
        expected="a known instruction (rule mini-decoration-target)",
        found="'OpMiniTESTX'",
        col_at="id: mini-decoration-target",
    ),
    Case(
        "rule naming an unknown instruction (instruction key)",
        steps=(replace(EXT, "    instruction: OpMiniTEST\n", "    instruction: OpMiniTESTX\n"),),
        file=EXT,
        at="id: mini-result-type",
        key="instruction",
        expected="a known instruction (rule mini-result-type)",
        found="'OpMiniTESTX'",
    ),
    Case(
        "rule naming an unknown type instruction",
        steps=(replace(EXT, "    type_opcode: OpTypeVoid\n", "    type_opcode: OpTypeVoidX\n"),),
        file=EXT,
        at="id: mini-result-type",
        key="type_opcode",
        expected="a known instruction (rule mini-result-type)",
        found="'OpTypeVoidX'",
    ),
    Case(
        "rule naming an unknown operand of an instruction",
        steps=(
            replace(
                EXT,
                "    instructions: [OpMiniTEST]\n",
                "    instructions: [OpMiniTEST]\n    allowed:\n      OpMiniTEST: [Valu]\n",
            ),
        ),
        file=EXT,
        at="id: mini-decoration-target",
        key="allowed",
        expected="an operand of OpMiniTEST (rule mini-decoration-target)",
        found="'Valu'",
    ),
    Case(
        "rule naming an unknown decoration",
        steps=(
            replace(
                EXT, "    decoration: MiniDecorationTEST\n", "    decoration: MiniDecorationTESTX\n"
            ),
        ),
        file=EXT,
        at="id: mini-decoration-target",
        key="decoration",
        expected="a known Decoration (rule mini-decoration-target)",
        found="'MiniDecorationTESTX'",
    ),
    Case(
        "rule naming an unknown storage class",
        steps=(replace(EXT, "    storage_class: Function\n", "    storage_class: Private\n"),),
        file=EXT,
        at="id: mini-result-type",
        key="storage_class",
        expected="a known StorageClass (rule mini-result-type)",
        found="'Private'",
    ),
    Case(
        "rule naming a storage class when the grammar has no StorageClass kind",
        steps=(
            replace(
                CORE,
                "  StorageClass:\n    category: ValueEnum\n    enumerants:\n"
                "      UniformConstant: {value: 0}\n      Function: {value: 7}\n",
                "",
            ),
        ),
        file=EXT,
        at="id: mini-result-type",
        key="storage_class",
        expected="a known StorageClass (rule mini-result-type)",
        found="'Function'",
    ),
    # -- errata.yaml -----------------------------------------------------------------------------
    Case(
        "erratum for a file that does not exist",
        steps=(
            write(
                "errata.yaml",
                "unit: errata\nerrata:\n  - file: extinst/nothing.yaml\n"
                "    item: MiniAdd\n    fields: [operands]\n    source: test\n    why: test\n",
            ),
        ),
        file="errata.yaml",
        at="  - file: extinst/nothing.yaml",
        key="file",
        expected="a grammar file under grammars/",
        found="'extinst/nothing.yaml'",
        col_at="file: extinst",
    ),
    Case(
        "erratum without a reason",
        steps=(
            write(
                "errata.yaml",
                "unit: errata\nerrata:\n  - file: extinst/mini.yaml\n"
                "    item: MiniAdd\n    fields: [operands]\n    source: test\n",
            ),
        ),
        file="errata.yaml",
        at="  - file: extinst/mini.yaml",
        key="why",
        expected="the required key 'why' in erratum",
    ),
    # -- target_envs.yaml ------------------------------------------------------------------------
    Case(
        "target env allowing a capability the grammar lacks",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: vulkan1.0\n    family: vulkan\n"
                "    spirv_version: '1.0'\n    source: test\n    capabilities: [Shader, Kernal]\n",
            ),
        ),
        file="target_envs.yaml",
        at="    capabilities: [Shader, Kernal]",
        key="capabilities",
        expected="a Capability of the grammar",
        found="'Kernal'",
        col_at="Kernal",
    ),
    Case(
        "target env with an unknown source",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: spv1.0\n    family: universal\n"
                "    spirv_version: '1.0'\n    source: nowhere\n    everything: true\n",
            ),
        ),
        file="target_envs.yaml",
        at="  - name: spv1.0",
        key="source",
        expected="a key of sources",
        found="'nowhere'",
    ),
    Case(
        "target env named twice",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: spv1.0\n    family: universal\n"
                "    spirv_version: '1.0'\n    source: test\n    everything: true\n"
                "  - name: spv1.0\n    family: universal\n"
                "    spirv_version: '1.1'\n    source: test\n    everything: true\n",
            ),
        ),
        file="target_envs.yaml",
        at="  - name: spv1.0\n    family: universal\n    spirv_version: '1.1'",
        key="name",
        expected="a target env named once",
    ),
    Case(
        "assembler-only target env named like an environment",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: spv1.0\n    family: universal\n"
                "    spirv_version: '1.0'\n    source: test\n    everything: true\n"
                "assembler_only:\n  - {name: spv1.0, spirv_version: '1.0', source: test}\n",
            ),
        ),
        file="target_envs.yaml",
        at="  - {name: spv1.0, spirv_version",
        key="name",
        expected="a target env named once",
        found="'spv1.0'",
    ),
    Case(
        "assembler-only target env with an unknown source",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: spv1.0\n    family: universal\n"
                "    spirv_version: '1.0'\n    source: test\n    everything: true\n"
                "assembler_only:\n  - {name: opengl4.5, spirv_version: '1.0', source: nowhere}\n",
            ),
        ),
        file="target_envs.yaml",
        at="  - {name: opengl4.5",
        key="source",
        expected="a key of sources",
        found="'nowhere'",
    ),
    Case(
        "target env forbidding an enumerant the kind lacks",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: vulkan1.0\n    family: vulkan\n"
                "    spirv_version: '1.0'\n    source: test\n    capabilities: [Shader]\n"
                "    forbids:\n      - kind: Capability\n        enumerant: Geometry\n"
                "        why: test\n        source: test\n",
            ),
        ),
        file="target_envs.yaml",
        at="      - kind: Capability",
        key="enumerant",
        expected="an enumerant of the operand kind 'Capability'",
        found="'Geometry'",
    ),
    Case(
        "target env validated as an environment that does not exist",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: webgpu\n    family: vulkan\n"
                "    spirv_version: '1.0'\n    source: test\n    validator: vulkan9\n"
                "    capabilities: [Shader]\n",
            ),
        ),
        file="target_envs.yaml",
        at="  - name: webgpu",
        key="validator",
        expected="another environment, validated under its own name",
        found="'vulkan9'",
    ),
    Case(
        "target rule refusing an instruction the grammar lacks",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: vulkan1.0\n    family: vulkan\n"
                "    spirv_version: '1.0'\n    source: test\n    capabilities: [Shader]\n"
                "    rules:\n      - name: no-line\n        kind: instruction\n"
                "        opcodes: [OpLien]\n        why: test\n        source: test\n",
            ),
        ),
        file="target_envs.yaml",
        at="      - name: no-line",
        key="opcodes",
        expected="an instruction of the grammar",
        found="'OpLien'",
    ),
    Case(
        "target rule with a key its kind does not read",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: vulkan1.0\n    family: vulkan\n"
                "    spirv_version: '1.0'\n    source: test\n    capabilities: [Shader]\n"
                "    rules:\n      - name: sets\n        kind: ext_inst_import\n"
                "        names: [GLSL.std.450]\n        where: anywhere\n"
                "        why: test\n        source: test\n",
            ),
        ),
        file="target_envs.yaml",
        at="      - name: sets",
        key="where",
        expected="no where in a rule of kind ext_inst_import",
    ),
    Case(
        "target rule naming a storage format the grammar lacks",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: vulkan1.0\n    family: vulkan\n"
                "    spirv_version: '1.0'\n    source: test\n    capabilities: [Shader]\n"
                "    rules:\n      - name: access\n        kind: storage_image_access\n"
                "        enumerants: [R32float]\n        why: test\n        source: test\n",
            ),
        ),
        file="target_envs.yaml",
        at="      - name: access",
        key="enumerants",
        expected="an enumerant of the operand kind 'ImageFormat'",
        found="'R32float'",
    ),
    Case(
        "target env with a family the schema lacks",
        steps=(
            write(
                "target_envs.yaml",
                "unit: target_envs\nsources:\n  test: a test\nenvironments:\n  - name: dx12\n    family: directx\n"
                "    spirv_version: '1.0'\n    source: test\n    everything: true\n",
            ),
        ),
        file="target_envs.yaml",
        at="    family: directx",
        key="family",
        expected="one of",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_grammar_error(tmp_path: Path, case: Case) -> None:
    assert_case(tmp_path, case)


def assert_case(tmp_path: Path, case: Case) -> GrammarError:
    """Break a copy of the fixture as ``case`` says; the loader's error must match it."""
    root = make_tree(tmp_path / "grammars")
    for step in case.steps:
        step(root)
    with pytest.raises(GrammarError) as info:
        load_grammar(root)
    error = info.value
    message = str(error)

    if case.at is None:
        line, text_line = 1, ""
    else:
        text = (root / case.file).read_text(encoding="utf-8")
        line = line_of(text, case.at)
        text_line = text.splitlines()[line - 1]
    assert error.mark.file == case.file, message
    assert error.mark.line == line, f"{message}\n(expected line {line}: {text_line!r})"
    assert message.startswith(f"{case.file}:{line}:"), message
    assert error.key == case.key, message
    assert f"key '{case.key}'" in message
    assert case.expected in error.expected, message
    if case.found is not None:
        assert error.found is not None and case.found in error.found, message
    if case.col_at is not None:
        assert error.mark.col == text_line.index(case.col_at) + 1, message
    if case.col is not None:
        assert error.mark.col == case.col, message
    if case.first is not None:
        first_file, first_at = case.first
        first_line = line_of((root / first_file).read_text(encoding="utf-8"), first_at)
        assert f"{first_file}:{first_line}:" in error.expected, message
    assert message.startswith(
        f"{error.mark.file}:{error.mark.line}:{error.mark.col}: key '{error.key}'"
    )
    return error


def test_duplicate_key_names_the_first_line(tree: Path) -> None:
    replace(
        CORE,
        "    opcode: 0\n    class: Miscellaneous\n",
        "    opcode: 0\n    class: Miscellaneous\n    opcode: 5\n",
    )(tree)
    text = (tree / CORE).read_text(encoding="utf-8")
    with pytest.raises(GrammarError) as info:
        load_grammar(tree)
    first = line_of(text, "    opcode: 0\n")
    assert info.value.expected == f"a unique key (already given at line {first})"


# -- the valid tree ---------------------------------------------------------------------------------
def test_the_valid_tree_loads(tree: Path) -> None:
    g = load_grammar(tree)
    assert g.files == [CORE, SET, EXT]
    by_name = {i.name: i for i in g.instructions}
    assert [i.opcode for i in g.instructions] == sorted(i.opcode for i in g.instructions)
    assert set(by_name) == {
        "OpNop",
        "OpUndef",
        "OpCapability",
        "OpTypeVoid",
        "OpDecorate",
        "OpCopyObject",
        "OpMiniTEST",
    }
    # Version defaults: "1.0" in core.yaml, "None" in extension files.
    assert by_name["OpNop"].version == "1.0"
    assert by_name["OpMiniTEST"].version == ANY_VERSION
    assert by_name["OpMiniTEST"].file == EXT
    assert [op.quantifier for op in by_name["OpMiniTEST"].operands] == ["", "", "", "?"]
    # Enumerants an extension adds are merged into the core kind, sorted by value.
    decorations = g.operand_kinds["Decoration"].enumerants
    assert [(e.name, e.value, e.file) for e in decorations] == [
        ("RelaxedPrecision", 0, CORE),
        ("SpecId", 1, CORE),
        ("MiniDecorationTEST", 4001, EXT),
    ]
    capability = {e.name: e for e in g.operand_kinds["Capability"].enumerants}
    assert capability["MiniTEST"].version == ANY_VERSION and capability["Shader"].version == "1.0"
    assert g.operand_kinds["MiniMode"].file == EXT
    ext = g.extensions["SPV_TEST_mini"]
    assert ext.instructions == ["OpMiniTEST"]
    assert ext.enumerants == [("Capability", "MiniTEST"), ("Decoration", "MiniDecorationTEST")]
    assert [r.id for r in ext.rules] == ["mini-decoration-target", "mini-result-type"]
    assert ext.rules[1].data == {
        "instruction": "OpMiniTEST",
        "type_opcode": "OpTypeVoid",
        "storage_class": "Function",
    }
    s = g.ext_inst_sets["Mini.std"]
    assert (s.python_name, s.version, s.revision) == ("mini", 100, 1)
    assert [i.name for i in s.instructions] == ["MiniAdd", "MiniFlagged"]
    assert "MiniFlags" in s.operand_kinds and "MiniFlags" not in g.operand_kinds
    assert g.section_of(by_name["OpDecorate"]) == "annotations"
    assert g.section_of(by_name["OpUndef"]) == "types_globals"
    assert g.errata == []


def test_bit_enum_values_may_repeat(tree: Path) -> None:
    """Only a ValueEnum's values must be unique (BitEnum aliases share a bit)."""
    replace(
        EXT,
        "      Fast: {value: 0x0001, capabilities: [MiniTEST]}\n",
        "      Fast: {value: 0x0001, capabilities: [MiniTEST]}\n      Quick: {value: 0x0001}\n",
    )(tree)
    g = load_grammar(tree)
    assert [e.name for e in g.operand_kinds["MiniMode"].enumerants] == ["None", "Fast", "Quick"]
