"""generated/docs/ (the SPIR-V reference's Markdown, codegen/docs.py): complete, current,
every link's target defined.  tests/docs/ builds the site from it with Sphinx.

Expectations come from an independent path where possible: signatures from the ``def``
lines of generated/*.py, enum values from the generated enum classes, rules and errata
from the loaded grammar.
"""

from __future__ import annotations

import importlib
import json
import re
from enum import IntEnum, IntFlag
from pathlib import Path

from codegen.docs import DOCS_DIR, class_page, render_docs
from codegen.loader import load_grammar
from codegen.output import BANNER, GENERATED_DIR
from spvbuild import Module

DOCS = GENERATED_DIR / DOCS_DIR
SIZE_BUDGET = 6 * 1024 * 1024

_DEF = re.compile(r"^    def (\w+)\(self(?:, (.*))?\) -> (\w+):\n        \"\"\"(.*)$", re.M)


def _methods(module_file: Path) -> list[tuple[str, str, str]]:
    """(method, call form as the docs show it, first docstring line) of a generated module."""
    found = []
    for name, args, returns, doc in _DEF.findall(module_file.read_text(encoding="utf-8")):
        found.append((name, f"{name}({args or ''}) -> {returns}", doc))
    return found


def _sections(text: str) -> dict[str, str]:
    """Instruction sections of a page by their MyST target (up to the next target)."""
    parts = re.split(r"^((?:\([^)\s]+\)=\n)+)", text, flags=re.M)
    found = {}
    for i in range(1, len(parts) - 1, 2):
        for label in re.findall(r"\(([^)\s]+)\)=", parts[i]):  # an instruction and its aliases
            found[label] = parts[i + 1]
    return found


def _read(relative: str) -> str:
    return (DOCS / relative).read_text(encoding="utf-8")


# ------------------------------------------------------------------------------ content


def test_every_core_instruction_is_on_its_class_page_with_its_generated_signature() -> None:
    methods = _methods(GENERATED_DIR / "core" / "builder.py")
    assert len(methods) > 800
    pages: dict[str, dict[str, str]] = {}
    for _name, call, doc in methods:
        match = re.match(r"(Op\w+) \(opcode \d+, class ([^,]+), section", doc)
        assert match, doc
        opname, cls = match.groups()
        page = class_page(cls)
        if page not in pages:
            pages[page] = _sections(_read(f"{page}.md"))
        section = pages[page].get(opname)
        assert section is not None, f"{opname} missing from {page}.md"
        assert f"## {opname}\n" in section, opname
        assert f"```python\nbuilder.{call}\n```" in section, (
            f"{opname}: signature differs from generated"
        )
        assert f"SPIRV.html#{opname})" in section


def test_every_ext_set_instruction_is_on_its_set_page_with_its_generated_signature() -> None:
    grammar = load_grammar()
    for s in grammar.ext_inst_sets.values():
        sections = _sections(_read(f"extinst/{s.python_name}.md"))
        methods = _methods(GENERATED_DIR / "extinst" / f"{s.python_name}.py")
        assert len(methods) == len(s.instructions), s.import_name
        for (_, call, _), inst in zip(methods, s.instructions, strict=True):
            anchor = f"{s.python_name}-{inst.name}"
            assert anchor in sections, f"{s.import_name} {inst.name}"
            assert f"builder.{s.python_name}.{call}\n" in sections[anchor]
    fabs = _sections(_read("extinst/glsl.md"))["glsl-FAbs"]
    assert "(https://registry.khronos.org/SPIR-V/specs/unified1/GLSL.std.450.html)" in fabs
    assert "no link known" in _read("extinst/tosa_001000_1.md")


def _enum_rows(text: str, kind: str) -> dict[str, tuple[int, str]]:
    rows = re.findall(
        rf"^\| \[`{re.escape(kind)}\.(\w+)`\]\{{#[^}}]+\}}[^|]* \| (\d+) \| `(0x[0-9a-f]+)` \|",
        text,
        re.M,
    )
    return {member: (int(value), hex_value) for member, value, hex_value in rows}


def _check_enum_page(
    html: str, kind: str, enum_class: type[IntEnum] | type[IntFlag], enumerants: int
) -> None:
    """Every Python member is a row (with its value) or an alias beside its enumerant."""
    rows = _enum_rows(html, kind)
    assert len(rows) == enumerants, f"{kind}: {len(rows)} rows for {enumerants} enumerants"
    for member, value in enum_class.__members__.items():
        if member in rows:
            assert rows[member] == (int(value), f"0x{int(value):x}"), f"{kind}.{member}"
        else:
            assert f"alias [`{kind}.{member}`]" in html or f"alias `{kind}.{member}`" in html, (
                f"{kind}.{member} missing"
            )


def test_every_enum_kind_page_lists_all_its_values() -> None:
    grammar = load_grammar()
    enums = importlib.import_module("spvbuild.generated.core.enums")
    classes = enums.ENUM_CLASSES
    assert len(classes) > 50
    for kind, enum_class in classes.items():
        text = _read(f"enums/{kind}.md")
        _check_enum_page(text, kind, enum_class, len(grammar.operand_kinds[kind].enumerants))
    decoration = _read("enums/Decoration.md")
    assert "`DecorationBuiltIn(built_in: BuiltIn)`" in decoration
    assert "{#Decoration-ArgumentAttributeINTEL}" in decoration
    assert (
        "DecorationArgumentAttributeINTEL(index: int, argument_attribute: FunctionParameterAttribute)"
        in decoration
    )
    # Values in decimal and hex; a bit enum shows its flags.
    assert _enum_rows(_read("enums/MemoryAccess.md"), "MemoryAccess")["Aligned"] == (2, "0x2")


def test_every_ext_set_enum_kind_is_listed_with_all_its_values() -> None:
    grammar = load_grammar()
    for s in grammar.ext_inst_sets.values():
        module = importlib.import_module(f"spvbuild.generated.extinst.{s.python_name}")
        text = _read(f"extinst/{s.python_name}.md")
        for kind, enum_class in module.ENUM_CLASSES.items():
            assert f"({s.python_name}-kind-{kind})=\n### {kind}\n" in text
            _check_enum_page(text, kind, enum_class, len(s.operand_kinds[kind].enumerants))


def test_extension_pages_list_what_they_add_and_their_rules() -> None:
    grammar = load_grammar()
    for ext in grammar.extensions.values():
        text = _read(f"extensions/{ext.name}.md")
        for inst in ext.instructions:
            assert f"{{ref}}`{inst} <" in text, f"{ext.name}: {inst}"
        for kind, name in ext.enumerants:
            assert f"{{ref}}`{name} <{kind}-{name}>`" in text, f"{ext.name}: {kind}.{name}"
        for rule in ext.rules:
            assert f"(rule-{rule.id})=\n" in text
            assert rule.text in text and rule.source in text
            assert json.dumps(rule.data, indent=2, ensure_ascii=False) in text
        if not ext.rules:
            assert "No rules recorded in the grammar." in text
    nowrap = _read("extensions/SPV_KHR_no_integer_wrap_decoration.md")
    assert "(rule-no-signed-wrap-targets)=" in nowrap and "(rule-no-unsigned-wrap-targets)=" in nowrap
    assert "- Core in: 1.4\n" in nowrap
    assert "<Decoration-NoSignedWrap>` | 4469 |" in nowrap
    fp = _read("extensions/SPV_INTEL_function_pointers.md")
    for rule_id in (
        "fp-constant-result-type",
        "fp-call-types",
        "fp-argument-attribute-target",
        "fp-legal-uses",
        "fp-illegal-uses",
    ):
        assert f"(rule-{rule_id})=" in fp
    assert "{ref}`ArgumentAttributeINTEL <Decoration-ArgumentAttributeINTEL>`" in fp
    assert "| 6409 |" in fp
    assert "builder.function_pointer_call_intel(" in fp
    assert "ArgumentAttributeINTEL applies to an OpFunctionPointerCallINTEL" in fp


def test_function_pointer_page_and_method_carry_the_spirv_val_limitation() -> None:
    (note,) = load_grammar().extensions["SPV_INTEL_function_pointers"].notes
    fp = _read("extensions/SPV_INTEL_function_pointers.md")
    known = fp[fp.index("## Known problems (1)\n") : fp.index("## Instructions (2)\n")]
    assert f"### {note.title}\n\n{note.text}\n\n- Source: {note.source}\n" in known
    applies = "{ref}`OpConstantFunctionPointerINTEL <OpConstantFunctionPointerINTEL>`"
    assert f"- Applies to: {applies}\n" in known
    for words in ("has not been defined", "SPIRV-Tools v2025.5", "#3185", "#2043", "forward"):
        assert words in known
    doc = " ".join((Module.constant_function_pointer_intel.__doc__ or "").split())
    assert f"Known problem: {note.title} {' '.join(note.text.split())}" in doc
    assert f"Source: {' '.join(note.source.split())}." in doc
    # Only the instruction the note names carries it.
    assert "Known problem" not in (Module.function_pointer_call_intel.__doc__ or "")


def test_errata_page_lists_every_erratum() -> None:
    grammar = load_grammar()
    text = _read("errata.md")
    for e in grammar.errata:
        assert f"{{ref}}`{e.item} <" in text, f"{e.item} has no link"
        assert e.why.replace("|", "\\|") in text
    assert "Decoration.ArgumentAttributeINTEL" in text


# ------------------------------------------------------------------------------ currency


def test_generated_docs_are_up_to_date_and_rendering_is_deterministic() -> None:
    grammar = load_grammar()
    files = render_docs(grammar)
    assert files == render_docs(load_grammar()), "two renders differ"
    on_disk = {p.relative_to(GENERATED_DIR).as_posix() for p in DOCS.rglob("*") if p.is_file()}
    assert sorted(on_disk) == sorted(files), "run `python -m codegen`: docs files added or removed"
    stale = [
        name
        for name, text in files.items()
        if (GENERATED_DIR / name).read_bytes() != text.encode("utf-8")
    ]
    assert not stale, f"generated/docs is stale, run `python -m codegen`: {stale[:10]}"
    for text in files.values():
        assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text), "a date in the docs"


# ------------------------------------------------------------------------------ structure

_TARGET = re.compile(r"^\(([^)\s]+)\)=$|\]\{#([^}]+)\}", re.M)
_REF = re.compile(r"\{ref\}`[^`<]*<([^>`]+)>`")


def test_every_page_has_its_banner_title_and_target_and_every_ref_resolves() -> None:
    pages = {
        p.relative_to(DOCS).as_posix(): p.read_text(encoding="utf-8")
        for p in DOCS.rglob("*")
        if p.is_file()
    }
    assert len(pages) > 250 and all(name.endswith(".md") for name in pages)
    targets: dict[str, str] = {}
    for name, text in pages.items():
        first = text.splitlines()[0]
        assert BANNER in first and first.startswith("<!-- "), name
        page = name.removesuffix(".md")
        assert f"\n(page:{page})=\n# " in text, f"{name}: no page target and title"
        for block, inline in _TARGET.findall(text):
            label = (block or inline).lower()  # Sphinx's labels ignore case
            assert label not in targets, f"{label} in {name} and {targets[label]}"
            targets[label] = name
    problems = [
        f"{name}: {label}"
        for name, text in pages.items()
        for label in _REF.findall(text)
        if label.lower() not in targets
    ]
    assert not problems, problems[:10]
    assert "opiadd" in targets and "decoration-builtin" in targets and "glsl-fabs" in targets


def test_site_sources_stay_small() -> None:
    total = sum(p.stat().st_size for p in DOCS.rglob("*") if p.is_file())
    assert total < SIZE_BUDGET, f"generated/docs is {total} bytes"
