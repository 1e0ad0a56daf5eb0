"""Grammars users write (issue 17, G1-G9): codegen never hurts them, never emits broken Python.

The loader cases break a copy of ``tests/fixtures/mini_grammar`` (the helpers and the
check of file, line, key and expected-text come from tests/codegen/test_grammar_errors.py).  The
generator cases run ``python -m codegen generate --grammars G --out O`` on a copy of the
repository's grammars and check what happened on disk: nothing outside the output folder
changes, and nothing of the user's inside it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from codegen.docs import render_docs
from codegen.errors import GrammarError
from codegen.loader import GRAMMARS_DIR, load_grammar
from codegen.output import BANNER, OutputError, diff_tree, write_tree
from codegen.pipeline import generate, render_all
from codegen.verify import Blame, check_import, check_python
from tests.codegen.test_grammar_errors import (
    CORE,
    EXT,
    SET,
    Case,
    assert_case,
    copy,
    line_of,
    make_tree,
    replace,
)

ROOT = Path(__file__).resolve().parents[2]
RANGE16 = "an integer from 0 to 65535"
RANGE32 = "an integer from 0 to 4294967295"
INST_NAME = "an instruction name of 'Op', an upper-case letter"
ENUM_RESERVED = "is not reserved (enum attributes such as mro"
BOMB = "".join(
    f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}" if i > 1 else "lol"] * 9) + "]\n"
    for i in range(1, 10)
)


def _edit(
    case_id: str,
    file: str,
    old: str,
    new: str,
    key: str,
    expected: str,
    at: str | None = None,
) -> Case:
    """``old`` replaced by ``new`` in ``file``; the error is on the first line of ``new``
    (or at the text ``at``)."""
    return Case(case_id, (replace(file, old, new),), file, at or new.splitlines()[0], key, expected)


def _core_inst(name: str) -> Case:
    """A core instruction renamed to ``name`` (quoted as YAML needs)."""
    new = f'  "{name}":\n'
    return _edit(f"G5 instruction name {name!r}", CORE, "  OpCopyObject:\n", new, name, INST_NAME)


def _python_name(value: str, expected: str) -> Case:
    new = f"python_name: {value}\n"
    return _edit(
        f"G5 python_name {value}", SET, "python_name: mini\n", new, "python_name", expected
    )


def _set_enumerant(name: str, expected: str, value: str = "0x0002") -> Case:
    old = "      FlagA: {value: 0x0001}\n"
    new = f"{old}      {name}: {{value: {value}}}\n"
    return _edit(f"set enumerant {name}", SET, old, new, name, expected, at=f"      {name}: ")


def _opcode(value: str) -> Case:
    new = f"    opcode: {value}\n"
    return _edit(f"G7 opcode {value}", CORE, "    opcode: 83\n", new, "opcode", RANGE16)


def _core_addition(case_id: str, name: str, expected: str) -> Case:
    """A new core instruction ``name`` (opcode 2) that the loader must reject."""
    old = "  OpUndef:\n    opcode: 1\n"
    new = f"  {name}:\n    opcode: 2\n    class: Miscellaneous\n{old}"
    return _edit(case_id, CORE, old, new, name, expected)


CASES: list[Case] = [
    # -- G3: YAML bombs ------------------------------------------------------------------------
    Case(
        "G3 billion laughs",
        steps=(replace(EXT, "depends: []\n", "depends: []\n" + BOMB),),
        file=EXT,
        at="lol1: &l1",
        key="lol1",
        expected="no YAML anchor",
        found="&l1",
    ),
    Case(
        "G3 self-referencing list",
        steps=(replace(EXT, "depends: []\n", "depends: &a [*a]\n"),),
        file=EXT,
        at="depends: &a",
        key="depends",
        expected="no YAML anchor",
        col_at="&a",
    ),
    Case(
        "G3 alias",
        steps=(replace(CORE, "  OpNop:\n    opcode: 0\n", "  OpNop:\n    opcode: *zero\n"),),
        file=CORE,
        at="opcode: *zero",
        key="opcode",
        expected="no YAML alias",
        found="*zero",
    ),
    # -- G4: tags --------------------------------------------------------------------------------
    Case(
        "G4 python/name tag",
        steps=(
            replace(
                EXT,
                "spec: made up for tests/codegen/test_grammar_errors.py\n",
                "spec: !!python/name:os.system ''\n",
            ),
        ),
        file=EXT,
        at="spec: !!python",
        key="spec",
        expected="no YAML tag",
        found="!!python/name:os.system",
    ),
    Case(
        "G4 local tag",
        steps=(replace(CORE, "source: hand-written test fixture\n", "source: !foo bar\n"),),
        file=CORE,
        at="source: !foo",
        key="source",
        expected="no YAML tag",
        found="!foo",
    ),
    Case(
        "G4 !!int tag",
        steps=(replace(CORE, "    opcode: 83\n", "    opcode: !!int zero\n"),),
        file=CORE,
        at="opcode: !!int",
        key="opcode",
        expected="no YAML tag",
        found="!!int",
    ),
    Case(
        "G4 !!timestamp tag",
        steps=(
            replace(SET, "source: hand-written test fixture\n", "source: !!timestamp 2020-13-45\n"),
        ),
        file=SET,
        at="source: !!timestamp",
        key="source",
        expected="no YAML tag",
        found="!!timestamp",
    ),
    Case(
        "G4 implicit timestamp out of range",
        steps=(replace(SET, "version: 100\n", "version: 2020-13-45\n"),),
        file=SET,
        at="version: 2020-13-45",
        key="version",
        expected="a valid scalar",
        found="'2020-13-45'",
    ),
    # -- G5: names that give no Python identifier, reserved names -------------------------------
    _core_inst("Op Foo-Bar"),
    _core_inst("Op"),
    _core_inst(""),
    _core_inst("1Bad"),
    Case(
        "G5 enumerant with space, dash and non-ASCII",
        steps=(
            replace(
                CORE, "      UniformConstant: {value: 0}\n", '      "Bad Name-é": {value: 0}\n'
            ),
        ),
        file=CORE,
        at='"Bad Name-é"',
        key="Bad Name-é",
        expected="an enumerant name of ASCII letters",
    ),
    Case(
        "G5 operand kind named class",
        steps=(
            replace(
                CORE,
                "  IdRef: {category: Id}\n",
                "  IdRef: {category: Id}\n  class: {category: Id}\n",
            ),
        ),
        file=CORE,
        at="  class: {category: Id}",
        key="class",
        expected="an operand kind name of an upper-case ASCII letter",
    ),
    _python_name("debug-break", "a python_name name of a lower-case ASCII letter"),
    _python_name("class", "a name that gives a Python identifier"),
    _python_name("''", "a python_name name of a lower-case ASCII letter"),
    _set_enumerant("mro", ENUM_RESERVED),
    _set_enumerant("_ignore_", "an enumerant name of ASCII letters"),
    _set_enumerant(
        "None_", "a Python member of enum MiniFlags of its own ('None_' is already None at"
    ),
    # -- G6: collisions after the naming rule ----------------------------------------------------
    Case(
        "G6 OpFoo_Bar after OpFooBar",
        steps=(
            replace(CORE, "  OpNop:\n", "  OpFooBar:\n"),
            replace(
                CORE,
                "  OpUndef:\n    opcode: 1\n",
                "  OpFoo_Bar:\n    opcode: 2\n    class: Miscellaneous\n  OpUndef:\n    opcode: 1\n",
            ),
        ),
        file=CORE,
        at="  OpFoo_Bar:",
        key="OpFoo_Bar",
        expected="a Python builder method of its own ('foo_bar' is already OpFooBar at core.yaml:",
    ),
    _core_addition("G6 OpÜber (non-ASCII)", "OpÜber", INST_NAME),
    _core_addition(
        "G6 OpNewId", "OpNewId", "is not reserved (an attribute of the runtime's Module"
    ),
    _core_addition("G6 OpToWords", "OpToWords", "is not reserved (an attribute of the runtime's"),
    _core_addition("G6 OpDefineFunction", "OpDefineFunction", "is not reserved (an attribute"),
    _core_addition(
        "G6 OpMini against the set's property",
        "OpMini",
        "a Python builder method of its own ('mini' is already the property of an extended set",
    ),
    Case(
        "G6 operand kind named Op",
        steps=(
            replace(
                CORE, "  IdRef: {category: Id}\n", "  IdRef: {category: Id}\n  Op: {category: Id}\n"
            ),
        ),
        file=CORE,
        at="  Op: {category: Id}",
        key="Op",
        expected="is not reserved (the enum of opcodes)",
    ),
    Case(
        "G6 a second python_name",
        steps=(
            copy(SET, "extinst/other.yaml"),
            replace("extinst/other.yaml", "import_name: Mini.std\n", "import_name: Other.std\n"),
        ),
        file="extinst/other.yaml",
        at="python_name: mini",
        key="python_name",
        expected="a Python extended-set name of its own ('mini' is already python_name at extinst/mini.yaml:",
    ),
    Case(
        "G6 set method against SetInstructions",
        steps=(replace(SET, "  MiniAdd:\n", "  SetId:\n"),),
        file=SET,
        at="  SetId:",
        key="SetId",
        expected="is not reserved (an attribute of SetInstructions)",
    ),
    Case(
        "G6 parameters value, value, value_2",
        steps=(
            replace(
                CORE,
                "      - {kind: IdRef, name: Operand}\n",
                "      - {kind: IdRef, name: Value}\n      - {kind: IdRef, name: Value}\n"
                "      - {kind: IdRef, name: Value 2}\n",
            ),
        ),
        file=CORE,
        at="name: Value 2}",
        key="Value 2",
        expected="a Python parameter of its own ('value_2' is already Value at core.yaml:",
    ),
    # -- G7: values out of range -------------------------------------------------------------------
    _opcode("65536"),
    _opcode("70000"),
    _opcode(str(2**70)),
    _opcode("-1"),
    Case(
        "G7 enumerant 2**40",
        steps=(
            replace(CORE, "      Function: {value: 7}\n", f"      Function: {{value: {2**40}}}\n"),
        ),
        file=CORE,
        at="      Function: {value:",
        key="value",
        expected=RANGE32,
    ),
    Case(
        "G7 enumerant -1",
        steps=(replace(CORE, "      Function: {value: 7}\n", "      Function: {value: -1}\n"),),
        file=CORE,
        at="      Function: {value:",
        key="value",
        expected=RANGE32,
    ),
    _set_enumerant("FlagB", "a MiniFlags value of one bit, or 0 (a BitEnum)", value="3"),
    Case(
        "G7 ext-inst number 2**32",
        steps=(replace(SET, "    opcode: 2\n", f"    opcode: {2**32}\n"),),
        file=SET,
        at=f"    opcode: {2**32}",
        key="opcode",
        expected=RANGE32,
    ),
    # -- G8: implied capabilities in a cycle -------------------------------------------------------
    Case(
        "G8 Matrix implies Shader implies Matrix",
        steps=(
            replace(
                CORE,
                "      Matrix: {value: 0}\n",
                "      Matrix: {value: 0, capabilities: [Shader]}\n",
            ),
        ),
        file=CORE,
        at="      Shader:",
        key="capabilities",
        expected="implied capabilities without a cycle (in Shader)",
        found="Matrix -> Shader -> Matrix",
    ),
    # -- G9: an operand named like a parameter every method has ----------------------------------
    Case(
        "G9 operand named Result Type",
        steps=(
            replace(
                CORE,
                "      - {kind: IdRef, name: Operand}\n",
                "      - {kind: IdRef, name: Result Type}\n",
            ),
        ),
        file=CORE,
        at="name: Result Type}",
        key="Result Type",
        expected="a name whose Python parameter is not reserved (every method has it)",
        found="'result_type'",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_grammar_is_a_grammar_error(tmp_path: Path, case: Case) -> None:
    assert_case(tmp_path, case)


def test_billion_laughs_is_rejected_at_once(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "grammars")
    replace(EXT, "depends: []\n", "depends: []\n" + BOMB + "lol: [*l9, *l9, *l9]\n")(root)
    start = time.perf_counter()
    with pytest.raises(GrammarError):
        load_grammar(root)
    assert time.perf_counter() - start < 5


def test_bit_enum_exception_flag_is_public_stays(tmp_path: Path) -> None:
    """DebugInfoFlags.FlagIsPublic = 3 is the one BitEnum value that is not a single bit."""
    root = make_tree(tmp_path / "grammars")
    replace(
        SET,
        "operand_kinds:\n",
        "operand_kinds:\n  DebugInfoFlags:\n    category: BitEnum\n    enumerants:\n"
        "      FlagIsProtected: {value: 0x01}\n      FlagIsPublic: {value: 0x03}\n",
    )(root)
    grammar = load_grammar(root)
    flags = grammar.ext_inst_sets["Mini.std"].operand_kinds["DebugInfoFlags"]
    assert [e.value for e in flags.enumerants] == [1, 3]


def test_docs_take_an_operand_named_result_type(tmp_path: Path) -> None:
    """G9: codegen/docs.py finds a method's operand parameters by position, not by name."""
    grammar = load_grammar(make_tree(tmp_path / "grammars"))
    copy_object = next(i for i in grammar.instructions if i.name == "OpCopyObject")
    copy_object.operands[2].name = "Result Type"  # past the loader, straight into the model
    mini = grammar.ext_inst_sets["Mini.std"]
    mini.instructions[0].operands[0].name = "result_type"
    pages = render_docs(grammar)
    assert any("OpCopyObject" in text for text in pages.values())


# -- the safety net: compile and import what was rendered ------------------------------------------
@pytest.fixture(scope="module")
def rendered() -> tuple[dict[str, str], Blame]:
    grammar = load_grammar(GRAMMARS_DIR)
    return render_all(grammar, GRAMMARS_DIR), Blame(grammar, GRAMMARS_DIR)


NET_CASES = [
    # (generated file, line appended, check, grammar file and key blamed, text in the message)
    ("core/enums.py", "CopyObject = (", check_python, CORE, "OpCopyObject", "SyntaxError"),
    (
        "core/opcodes.py",
        "OP_COPY_OBJECT: Final = 1",
        check_python,
        CORE,
        "OpCopyObject",
        "'OP_COPY_OBJECT' is defined twice",
    ),
    (
        "extinst/glsl.py",
        "Sqrt = 1 // 0",
        check_import,
        "extinst/glsl.std.450.yaml",
        "Sqrt",
        "ZeroDivisionError",
    ),
]


@pytest.mark.parametrize("case", NET_CASES, ids=[c[5] for c in NET_CASES])
def test_a_broken_output_names_the_grammar_line(
    rendered: tuple[dict[str, str], Blame],
    case: tuple[str, str, Callable[..., None], str, str, str],
) -> None:
    """Compile and import errors in what was rendered point at the grammar item behind them."""
    relative, line_text, check, grammar_file, key, problem = case
    files, blame = rendered
    broken = dict(files)
    broken[relative] = files[relative] + line_text + "\n"
    with pytest.raises(GrammarError) as info:
        check(broken, blame)
    message = str(info.value)
    text = (GRAMMARS_DIR / grammar_file).read_text(encoding="utf-8")
    line = line_of(text, f"\n  {key}:\n") + 1
    assert message.startswith(f"{grammar_file}:{line}:3: key '{key}'"), message
    assert problem in message and f"generated/{relative}: line" in message, message


# -- G1, G2: the generator writes only inside its output folder, only files it owns -----------
def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def _generate(cwd: Path, grammars: Path, out: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", "generate", "--grammars", str(grammars), "--out", out],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the repository's codegen/, src/ and grammars/ (what `generate` needs)."""
    copy_root = tmp_path / "repo"
    for name in ("codegen", "src", "grammars"):
        shutil.copytree(
            ROOT / name,
            copy_root / name,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    (copy_root / "generated").mkdir()
    return copy_root


def test_g1_an_output_folder_with_the_users_files_is_refused(repo: Path) -> None:
    mine = repo.parent / "mine"
    (mine / "pkg").mkdir(parents=True)
    (mine / "important.py").write_text("print('mine')\n")
    (mine / "pkg" / "module.py").write_text("X = 1\n")
    before = _snapshot(repo.parent)
    ran = _generate(repo, repo / "grammars", str(mine))
    assert ran.returncode == 1, ran.stdout
    assert f"refusing to write into {mine}" in ran.stderr
    assert "important.py" in ran.stderr and "pkg/module.py" in ran.stderr
    assert _snapshot(repo.parent) == before


def test_g1_the_repository_root_is_refused(repo: Path) -> None:
    before = _snapshot(repo.parent)
    ran = _generate(repo, repo / "grammars", ".")
    assert ran.returncode == 1, ran.stdout
    assert "refusing to write into .: it is the repository root" in ran.stderr
    assert _snapshot(repo.parent) == before


def test_g1_only_files_with_the_banner_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_tree(
        {"a.py": f"# {BANNER}\n", "docs/x.html": f"<!DOCTYPE html>\n<!-- {BANNER} -->\n"}, out
    )
    written = write_tree({"b.py": f"# {BANNER}\n"}, out)
    assert written == ["b.py", "(removed) a.py", "(removed) docs/x.html"]
    assert sorted(_snapshot(out)) == ["b.py"]
    (out / "notes.txt").write_text("mine\n")
    with pytest.raises(OutputError, match="notes.txt"):
        write_tree({"b.py": f"# {BANNER}\n"}, out)
    assert (out / "notes.txt").read_text() == "mine\n"


def test_g1_a_link_in_the_output_folder_is_refused(tmp_path: Path) -> None:
    """A link could lead a write outside the folder: it is not codegen's, so refused."""
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "core").symlink_to(outside)
    with pytest.raises(OutputError, match="core"):
        write_tree({"core/x.py": f"# {BANNER}\n"}, out)
    assert not any(outside.iterdir())


def test_g1_check_reports_files_codegen_did_not_write(tmp_path: Path) -> None:
    files = {"a.py": f"# {BANNER}\n"}
    out = tmp_path / "out"
    write_tree(files, out)
    assert diff_tree(files, out) == []
    (out / "notes.txt").write_text("mine\n")
    assert diff_tree(files, out) == ["not produced by codegen: generated/notes.txt"]


def test_g1_paths_that_leave_the_output_folder_are_refused(tmp_path: Path) -> None:
    for bad in ("../evil.py", "/tmp/evil.py", "a/../../evil.py", "a//b.py"):
        with pytest.raises(OutputError, match="not a path inside"):
            write_tree({bad: f"# {BANNER}\n"}, tmp_path / "out")
    assert not (tmp_path / "evil.py").exists() and not (tmp_path / "out").exists()


def test_g2_python_name_leaving_the_folder_is_a_grammar_error(repo: Path) -> None:
    glsl = repo / "grammars" / "extinst" / "glsl.std.450.yaml"
    text = glsl.read_text(encoding="utf-8")
    glsl.write_text(
        text.replace("python_name: glsl\n", "python_name: ../../evil\n"), encoding="utf-8"
    )
    out = repo.parent / "out"
    before = _snapshot(repo.parent)
    ran = _generate(repo, repo / "grammars", str(out))
    assert ran.returncode == 1, ran.stdout
    line = line_of(glsl.read_text(encoding="utf-8"), "python_name: ../../evil")
    assert f"extinst/glsl.std.450.yaml:{line}:14: key 'python_name'" in ran.stderr, ran.stderr
    assert _snapshot(repo.parent) == before
    assert not out.exists()


def test_g5_a_bad_name_through_the_command_exits_1(repo: Path) -> None:
    ext = repo / "grammars" / "extensions" / "SPV_ACME_names.yaml"
    ext.write_text(
        "unit: extension\nextension: SPV_ACME_names\ninstructions:\n"
        "  OpTo_Words:\n    opcode: 61000\n    class: Miscellaneous\n"
        "    extensions: [SPV_ACME_names]\n",
        encoding="utf-8",
    )
    ran = _generate(repo, repo / "grammars", str(repo.parent / "out"))
    assert ran.returncode == 1, ran.stdout
    assert "extensions/SPV_ACME_names.yaml:4:3: key 'OpTo_Words'" in ran.stderr, ran.stderr
    assert "'to_words'" in ran.stderr
    assert not (repo.parent / "out").exists()


ODD_EXTENSIONS = {
    # An enum kind named like a name the generated builder imports (hidden at run time by
    # `if TYPE_CHECKING:`, so only the duplicate scan sees it).
    "kind Id": (
        "operand_kinds:\n  Id:\n    category: ValueEnum\n    enumerants:\n      A: {value: 0}\n",
        "  Id:",
        "Id",
        "'Id' is defined twice",
    ),
    # An enumerant whose parameter class is named like the kind's operand type.
    "parameter class DecorationOperand": (
        "enumerants:\n  Decoration:\n    Operand:\n      value: 62001\n"
        "      parameters: [{kind: LiteralInteger}]\n      extensions: [SPV_ACME_odd]\n",
        "    Operand:",
        "Operand",
        "'DecorationOperand'",
    ),
    # A parameter hiding the module-level function the method body calls.
    "parameter operand_sequence": (
        "instructions:\n  OpOddACME:\n    opcode: 62000\n    class: Arithmetic\n"
        "    operands:\n      - {kind: IdResultType}\n      - {kind: IdResult}\n"
        "      - {kind: IdRef, name: Operand Sequence}\n"
        "      - {kind: IdRef, quantifier: '*'}\n    extensions: [SPV_ACME_odd]\n",
        "  OpOddACME:",
        "OpOddACME",
        "'operand_sequence' is defined twice (or hides a module-level name)",
    ),
}


@pytest.mark.parametrize("case", sorted(ODD_EXTENSIONS))
def test_what_the_name_rules_miss_the_generated_code_check_catches(
    tmp_path: Path, case: str
) -> None:
    """The net under the loader: rendered code is checked before anything is written."""
    body, at, key, problem = ODD_EXTENSIONS[case]
    grammars = tmp_path / "grammars"
    shutil.copytree(GRAMMARS_DIR, grammars)
    relative = "extensions/SPV_ACME_odd.yaml"
    text = "unit: extension\nextension: SPV_ACME_odd\n" + body
    (grammars / relative).write_text(text, encoding="utf-8")
    with pytest.raises(GrammarError) as info:
        generate(grammars, tmp_path / "out")
    message = str(info.value)
    assert message.startswith(f"{relative}:{line_of(text, at)}:"), message
    assert info.value.key == key and problem in message, message
    assert not (tmp_path / "out").exists()


# -- an operand named like a generated method's locals or the built-ins it calls ---------------
def test_operands_named_put_bound_and_len_keep_the_words_path() -> None:
    """The generated locals start with ``_`` (no parameter can), a parameter named after a
    built-in the method calls is escaped: OpMemberName with its operands renamed ``Put``,
    ``Bound`` and ``Len`` still takes the words path and writes the right words."""
    import ast
    import types

    import spvbuild.generated.core.builder as real_builder
    from codegen.render import render_python
    from spvbuild import Module

    grammar = load_grammar(GRAMMARS_DIR)
    member_name = next(i for i in grammar.instructions if i.name == "OpMemberName")
    for operand, name in zip(member_name.operands, ("Put", "Bound", "Len"), strict=True):
        operand.name = name
    source = render_python(grammar, GRAMMARS_DIR)["core/builder.py"]
    (method,) = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "member_name"
    ]
    params = [a.arg for a in method.args.args]
    assert params == ["self", "put", "bound", "len_"]
    assigned = {
        target.id
        for node in ast.walk(method)
        for target in getattr(node, "targets", [])
        if isinstance(target, ast.Name)
    }
    assert not assigned & set(params), assigned
    namespace = dict(vars(real_builder))
    exec(compile(ast.Module([method], []), "<builder>", "exec"), namespace)  # noqa: S102
    m = Module()
    struct = m.type_struct([m.type_float(32)])
    taken: list[list[int]] = []
    real_put = m._put_words
    assert real_put is not None

    def spy(*args: object) -> object:
        taken.append(list(args[3]))  # type: ignore[call-overload]
        return real_put(*args)  # type: ignore[arg-type]

    m._put_words = spy  # type: ignore[assignment]
    bound_method = types.MethodType(namespace["member_name"], m)
    assert bound_method(put=struct, bound=0, len_="x") is m
    assert taken == [[(4 << 16) | 6, struct, 0, ord("x")]]
    names = [i for i in m.ordered_instructions() if i.opcode == 6]
    assert [(i.operands[0], i.operands[1], i.operands[2]) for i in names] == [(struct, 0, "x")]
