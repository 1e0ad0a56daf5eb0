"""Property (issue 17): a random small grammar either generates a package that imports and
round-trips one instruction of each kind through the builder, the disassembler and the
assembler, or fails with a GrammarError naming file:line:col and key.  Never another
exception, never success with a broken package.

Each example adds one extension file (instructions, maybe a new enum operand kind) and
maybe one extended instruction set to a copy of the repository's grammars, with names and
numbers drawn from valid ones and from the hostile ones of the issue (bounded: a few
items each, eight examples, about half of them rejected by the loader at once; set
SPVBUILD_PROPERTY_EXAMPLES for a longer run).
"""

from __future__ import annotations

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
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from codegen.errors import GrammarError
from codegen.loader import GRAMMARS_DIR
from codegen.names_check import RUNTIME_DIR
from codegen.naming import method_name
from codegen.pipeline import generate

EXTENSION = "SPV_PROP_test"
KIND = "PropKind"
HOSTILE = ["", "Op", "1Bad", "Foo Bar", "Foo-Bar", "Über", "class", "None", "None_", "mro"]
HOSTILE += ["_ignore_", "ToWords", "NewId", "Glsl", "DefineFunction", "Foo_Bar", "FooBar"]

words = st.from_regex(r"[A-Z][a-z]{1,5}([A-Z][a-z]{1,4})?", fullmatch=True)


def mostly(good: st.SearchStrategy[Any], bad: list[Any]) -> st.SearchStrategy[Any]:
    """``good`` nine times in ten, else one of ``bad``."""
    return st.sampled_from([True] * 9 + [False]).flatmap(
        lambda ok: good if ok else st.sampled_from(bad)
    )


names = mostly(words, HOSTILE)
numbers = mostly(st.integers(61000, 61999), [0, 17, 65535, 65536, -1, 2**32, 2**70])
values = mostly(st.sampled_from([0, 1, 2, 4, 8, 2**31]), [3, 2**32 - 1, 2**32, 2**40, -1])
operand_names = mostly(
    st.sampled_from(["", "Value", "Operand", "Count", "Value 2"]) | words,
    ["Result Type", "self", "result_id", "Value_2", "é"],
)


@st.composite
def operands(draw: st.DrawFn, kinds: list[str]) -> list[dict[str, str]]:
    result = []
    for _ in range(draw(st.integers(0, 3))):
        item = {"kind": draw(st.sampled_from(kinds))}
        name = draw(operand_names)
        if name:
            item["name"] = name
        result.append(item)
    return result


@st.composite
def grammars(draw: st.DrawFn) -> dict[str, Any]:
    """The text of the files to add: {relative path: YAML data}."""
    kinds = ["IdRef", "LiteralInteger"]
    ext: dict[str, Any] = {"unit": "extension", "extension": EXTENSION}
    if draw(st.booleans()):
        members = draw(st.dictionaries(names, values, min_size=1, max_size=3))
        category = draw(st.sampled_from(["ValueEnum", "BitEnum"]))
        ext["operand_kinds"] = {
            KIND: {
                "category": category,
                "enumerants": {n: {"value": v} for n, v in members.items()},
            }
        }
        kinds.append(KIND)
    instructions = {}
    for _ in range(draw(st.integers(1, 3))):
        name = draw(names)
        instructions["Op" + name if draw(mostly(st.just(True), [False])) else name] = {
            "opcode": draw(numbers),
            "class": "Arithmetic",
            "operands": [{"kind": "IdResultType"}, {"kind": "IdResult"}] + draw(operands(kinds)),
            "extensions": [EXTENSION],
        }
    ext["instructions"] = instructions
    files: dict[str, Any] = {f"extensions/{EXTENSION}.yaml": ext}
    if draw(st.booleans()):
        python_name = draw(mostly(st.sampled_from(["prop", "prop_set"]), ["glsl", "new_id", "a-b"]))
        set_instructions = {
            draw(names): {
                "opcode": draw(mostly(st.integers(1, 99), [0, 2**32 - 1, 2**32, -1])),
                "operands": draw(operands(["IdRef", "LiteralInteger"])),
            }
            for _ in range(draw(st.integers(1, 2)))
        }
        files["extinst/prop.yaml"] = {
            "unit": "ext_inst_set",
            "import_name": "Prop.test",
            "python_name": python_name,
            "instructions": set_instructions,
        }
    return files


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


@settings(
    max_examples=int(os.environ.get("SPVBUILD_PROPERTY_EXAMPLES", "8")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(files=grammars())
def test_a_random_grammar_generates_a_working_package_or_a_grammar_error(
    base: Path, files: dict[str, Any]
) -> None:
    root = base / "grammars"
    out = base / "site" / "spvbuild" / "generated"
    for relative, data in files.items():
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        (root / relative).write_text(text, encoding="utf-8")
    try:
        generate(root, out)
    except GrammarError as exc:
        assert re.match(r"^[\w./-]+\.yaml:\d+:\d+: key '.*': expected ", str(exc)), exc
        assert (root / exc.mark.file).is_file(), exc
        event(f"GrammarError: {exc.expected.split('(')[0][:40]}")
        return
    finally:
        for relative in files:
            (root / relative).unlink()
    event("generated and round-tripped")
    python_name = files.get("extinst/prop.yaml", {}).get("python_name", "")
    _round_trip(base / "site", files, python_name)
