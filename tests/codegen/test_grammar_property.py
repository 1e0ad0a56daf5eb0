"""Property (issue 17): a valid small grammar generates a package that imports and
round-trips one instruction of each kind through the builder, the disassembler and the
assembler; an invalid one fails with a GrammarError naming file:line:col, key and the spot
of its defect.  Never another exception, never success with a broken package.

Each example adds one extension file (instructions, maybe a new enum operand kind) and
maybe one extended instruction set to a copy of the repository's grammars.  The valid
grammars are valid by construction (names, numbers and values drawn only from valid ones,
each once); an invalid grammar is a valid one with exactly one defect put in, from the
hostile names and numbers of the issue.  Both runs are derandomized (the same examples
every run); SPVBUILD_PROPERTY_EXAMPLES asks for more valid ones.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from codegen.errors import GrammarError
from codegen.loader import GRAMMARS_DIR
from codegen.names_check import RUNTIME_DIR
from codegen.naming import method_name
from codegen.pipeline import generate

EXTENSION = "SPV_PROP_test"
KIND = "PropKind"
EXTENSION_FILE = f"extensions/{EXTENSION}.yaml"
SET_FILE = "extinst/prop.yaml"

VALID_EXAMPLES = int(os.environ.get("SPVBUILD_PROPERTY_EXAMPLES", "6"))
INVALID_EXAMPLES = 8

# A valid name: capitalized words, each used once.  "Prop" before every core instruction's
# name keeps its method ("prop_...") clear of the runtime's attributes and of Python's
# keywords, whatever the words.
words = st.from_regex(r"[A-Z][a-z]{1,5}([A-Z][a-z]{1,4})?", fullmatch=True)
OPERAND_NAMES = ["", "Value", "Operand", "Count", "Value 2", "Left", "Right", "Base"]
VALUE_ENUM_VALUES = st.integers(0, 2**31)
BIT_ENUM_VALUES = st.sampled_from([0, 1, 2, 4, 8, 2**31])


@st.composite
def operands(draw: st.DrawFn, kinds: list[str]) -> list[dict[str, str]]:
    """Up to three operands, their names distinct ("" is no name)."""
    names = draw(st.lists(st.sampled_from(OPERAND_NAMES), max_size=3, unique=True))
    result = []
    for name in names:
        item = {"kind": draw(st.sampled_from(kinds))}
        if name:
            item["name"] = name
        result.append(item)
    return result


@st.composite
def valid_grammars(draw: st.DrawFn) -> dict[str, Any]:
    """The files to add, {relative path: YAML data}, valid by construction."""
    kinds = ["IdRef", "LiteralInteger"]
    ext: dict[str, Any] = {"unit": "extension", "extension": EXTENSION}
    if draw(st.booleans()):
        category = draw(st.sampled_from(["ValueEnum", "BitEnum"]))
        members = draw(st.lists(words, min_size=1, max_size=3, unique=True))
        values = draw(
            st.lists(
                BIT_ENUM_VALUES if category == "BitEnum" else VALUE_ENUM_VALUES,
                min_size=len(members),
                max_size=len(members),
                unique=True,
            )
        )
        ext["operand_kinds"] = {
            KIND: {
                "category": category,
                "enumerants": {
                    f"Prop{n}": {"value": v} for n, v in zip(members, values, strict=True)
                },
            }
        }
        kinds.append(KIND)
    names = draw(st.lists(words, min_size=1, max_size=3, unique=True))
    opcodes = draw(
        st.lists(st.integers(61000, 61999), min_size=len(names), max_size=len(names), unique=True)
    )
    ext["instructions"] = {
        f"OpProp{name}": {
            "opcode": opcode,
            "class": "Arithmetic",
            "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}] + draw(operands(kinds)),
            "extensions": [EXTENSION],
        }
        for name, opcode in zip(names, opcodes, strict=True)
    }
    files: dict[str, Any] = {EXTENSION_FILE: ext}
    if draw(st.booleans()):
        set_names = draw(st.lists(words, min_size=1, max_size=2, unique=True))
        set_opcodes = draw(
            st.lists(
                st.integers(1, 99), min_size=len(set_names), max_size=len(set_names), unique=True
            )
        )
        files[SET_FILE] = {
            "unit": "ext_inst_set",
            "import_name": "Prop.test",
            "python_name": draw(st.sampled_from(["prop_set", "prop_ops"])),
            "instructions": {
                f"Prop{name}": {
                    "opcode": opcode,
                    "operands": draw(operands(["IdRef", "LiteralInteger"])),
                }
                for name, opcode in zip(set_names, set_opcodes, strict=True)
            },
        }
    return files


def _first(mapping: dict[str, Any]) -> tuple[str, Any]:
    return next(iter(mapping.items()))


def _rename_first(mapping: dict[str, Any], new: str) -> dict[str, Any]:
    name, body = _first(mapping)
    return {new: body, **{k: v for k, v in mapping.items() if k != name}}


# One defect each: (what it is, how it changes a valid grammar's files, the file it is in,
# the text the error's line must show).  Names and numbers from the hostile ones.
Defect = tuple[str, Any, str, str]


def _core_name(name: str) -> Defect:
    def put(files: dict[str, Any]) -> None:
        ext = files[EXTENSION_FILE]
        ext["instructions"] = _rename_first(ext["instructions"], name)

    return (f"instruction named {name!r}", put, EXTENSION_FILE, name or "''")


def _core_opcode(opcode: int) -> Defect:
    def put(files: dict[str, Any]) -> None:
        _first(files[EXTENSION_FILE]["instructions"])[1]["opcode"] = opcode

    return (f"opcode {opcode}", put, EXTENSION_FILE, f"opcode: {opcode}")


def _twins(files: dict[str, Any]) -> None:
    """Two instructions whose names make the same method (prop_foo_bar)."""
    instructions = files[EXTENSION_FILE]["instructions"]
    _, body = _first(instructions)
    instructions.clear()
    instructions["OpPropFooBar"] = body
    instructions["OpPropFoo_Bar"] = {**copy.deepcopy(body), "opcode": body["opcode"] ^ 1}


def _enum_value(value: int) -> Defect:
    def put(files: dict[str, Any]) -> None:
        ext = files[EXTENSION_FILE]
        ext["operand_kinds"] = {
            KIND: {
                "category": "BitEnum",
                "enumerants": {"PropGood": {"value": 1}, "PropBad": {"value": value}},
            }
        }

    # Its line: the member's (a value of more than one bit) or the value's (past 32 bits).
    return (
        f"BitEnum value {value}",
        put,
        EXTENSION_FILE,
        "PropBad" if value < 2**32 else f"value: {value}",
    )


def _enum_member(name: str) -> Defect:
    def put(files: dict[str, Any]) -> None:
        ext = files[EXTENSION_FILE]
        ext["operand_kinds"] = {KIND: {"category": "ValueEnum", "enumerants": {name: {"value": 7}}}}

    return (f"enumerant named {name!r}", put, EXTENSION_FILE, name)


def _operand_name(name: str) -> Defect:
    def put(files: dict[str, Any]) -> None:
        body = _first(files[EXTENSION_FILE]["instructions"])[1]
        body["operands"] = body["operands"][:2] + [{"name": name, "kind": "IdRef"}]

    return (f"operand named {name!r}", put, EXTENSION_FILE, name)


def _set(key: str, value: Any, shows: str) -> Defect:
    def put(files: dict[str, Any]) -> None:
        prop = files.setdefault(
            SET_FILE,
            {
                "unit": "ext_inst_set",
                "import_name": "Prop.test",
                "python_name": "prop_set",
                "instructions": {"PropOne": {"opcode": 1, "operands": []}},
            },
        )
        if key == "python_name":
            prop["python_name"] = value
        else:
            _first(prop["instructions"])[1]["opcode"] = value

    return (f"extended set {key} {value!r}", put, SET_FILE, shows)


DEFECTS: list[Defect] = [
    _core_name("Op"),
    _core_name("Op1Bad"),
    _core_name("OpFoo Bar"),
    _core_name("OpÜber"),
    _core_name("OpToWords"),
    _core_name("OpGlsl"),
    _core_opcode(-1),
    _core_opcode(65536),
    _core_opcode(2**70),
    ("two instructions making one method", _twins, EXTENSION_FILE, "OpPropFoo_Bar"),
    _enum_value(3),
    _enum_value(2**32),
    _enum_member("mro"),
    _enum_member("_ignore_"),
    _operand_name("Result Type"),
    _operand_name("result_id"),
    _set("python_name", "glsl", "python_name: glsl"),
    _set("python_name", "a-b", "python_name: a-b"),
    _set("opcode", -1, "opcode: -1"),
    _set("opcode", 2**32, f"opcode: {2**32}"),
]


ROUND_TRIP = r"""
import json, sys
from spvbuild.text.assembler import assemble
from spvbuild.text.disassembler import disassemble
from spvbuild.enums import AddressingModel, MemoryModel
from spvbuild.generated.core import enums
from spvbuild.ir.module import Module

spec = json.loads(sys.argv[1])
m = Module((1, 3))
m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
u32 = m.type_int(32, 0)
fn = m.define_function(u32, [u32])
x = fn.parameters[0]

def argument(kind):
    if kind == "IdRef":
        return x
    if kind == "LiteralInteger":
        return 1
    return list(getattr(enums, kind).__members__.values())[0]

for method, kinds in spec["core"]:
    getattr(m, method)(u32, *[argument(k) for k in kinds])
for method, kinds in spec["set"]:
    getattr(getattr(m, spec["python_name"]), method)(u32, *[argument(k) for k in kinds])
m.return_value(x).function_end()
words = m.to_words()
text = disassemble(words, raw_id=True, header=False)
for name in spec["names"]:
    assert name in text, (name, text)
again = assemble(text, target_env="spv1.3", preserve_numeric_ids=True)
assert again[:2] == words[:2] and again[3:] == words[3:], "the assembler reads it back"
print("round trip OK")
"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("property")
    shutil.copytree(GRAMMARS_DIR, root / "grammars")
    package = root / "site" / "spvbuild"
    package.mkdir(parents=True)
    for entry in RUNTIME_DIR.iterdir():
        if entry.name not in ("generated", "__pycache__"):
            (package / entry.name).symlink_to(entry.resolve())
    return root


def _round_trip(site: Path, files: dict[str, Any], python_name: str) -> None:
    spec: dict[str, Any] = {"core": [], "set": [], "names": [], "python_name": python_name}
    for relative, data in files.items():
        key = "set" if relative.startswith("extinst/") else "core"
        for name, body in data["instructions"].items():
            kinds = [op["kind"] for op in body.get("operands", [])]
            kinds = [k for k in kinds if k not in ("IdResultType", "IdResult")]
            spec[key].append((method_name(name), kinds))
            spec["names"].append(name)
    ran = subprocess.run(
        [sys.executable, "-c", ROUND_TRIP, json.dumps(spec)],
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr[-3000:] + json.dumps(files)
    assert "round trip OK" in ran.stdout


def _write(root: Path, files: dict[str, Any]) -> dict[str, str]:
    texts = {}
    for relative, data in files.items():
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        (root / relative).write_text(text, encoding="utf-8")
        texts[relative] = text
    return texts


def _generate(base: Path, files: dict[str, Any]) -> dict[str, str]:
    """Write ``files`` into the copy of the grammars and generate the package (the files
    are removed again); the YAML texts written."""
    root = base / "grammars"
    try:
        texts = _write(root, files)
        generate(root, base / "site" / "spvbuild" / "generated")
    finally:
        for relative in files:
            (root / relative).unlink(missing_ok=True)
    return texts


def test_every_valid_grammar_generates_a_package_that_round_trips(base: Path) -> None:
    round_trips: list[dict[str, Any]] = []

    @settings(
        max_examples=VALID_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.generate],  # a failing example is reported as drawn: each takes seconds
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(files=valid_grammars())
    def check(files: dict[str, Any]) -> None:
        _generate(base, files)  # a GrammarError here fails: the grammar is valid
        python_name = files.get(SET_FILE, {}).get("python_name", "")
        _round_trip(base / "site", files, python_name)
        round_trips.append(files)

    check()
    assert len(round_trips) >= VALID_EXAMPLES
    assert any(SET_FILE in f for f in round_trips), "no example had an extended set"
    assert any("operand_kinds" in f[EXTENSION_FILE] for f in round_trips), "no enum kind"


def test_every_invalid_grammar_is_refused_at_its_defect(base: Path) -> None:
    refused: list[str] = []

    @settings(
        max_examples=INVALID_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.generate],  # a failing example is reported as drawn: each takes seconds
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(files=valid_grammars(), defect=st.sampled_from(DEFECTS))
    def check(files: dict[str, Any], defect: Defect) -> None:
        what, put, where, shows = defect
        put(files)
        with pytest.raises(GrammarError) as info:
            _generate(base, files)
        error = info.value
        assert re.match(r"^[\w./-]+\.yaml:\d+:\d+: key '.*': expected ", str(error)), error
        assert error.mark.file.endswith(where), (what, str(error))
        text = yaml.safe_dump(files[where], allow_unicode=True, sort_keys=False)
        line = text.splitlines()[error.mark.line - 1]
        assert shows in line, (what, str(error), line)
        refused.append(what)

    check()
    assert len(refused) >= INVALID_EXAMPLES


@pytest.mark.parametrize("defect", DEFECTS, ids=[d[0] for d in DEFECTS])
def test_each_defect_is_refused_alone(base: Path, defect: Defect) -> None:
    """Each defect on one fixed valid grammar: refused, at the line that shows it."""
    files: dict[str, Any] = {
        EXTENSION_FILE: {
            "unit": "extension",
            "extension": EXTENSION,
            "instructions": {
                "OpPropAdd": {
                    "opcode": 61001,
                    "class": "Arithmetic",
                    "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}],
                    "extensions": [EXTENSION],
                }
            },
        }
    }
    what, put, where, shows = defect
    put(files)
    with pytest.raises(GrammarError) as info:
        _generate(base, files)
    error = info.value
    assert error.mark.file.endswith(where), str(error)
    text = yaml.safe_dump(files[where], allow_unicode=True, sort_keys=False)
    assert shows in text.splitlines()[error.mark.line - 1], str(error)
