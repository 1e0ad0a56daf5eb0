"""generated/docs/ (the reference site, codegen/docs.py): complete, current, well-formed.

Expectations come from an independent path where possible: signatures from the ``def``
lines of generated/*.py, enum values from the generated enum classes, rules and errata
from the loaded grammar.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from enum import IntEnum, IntFlag
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markupsafe import escape

from codegen.docs import DOCS_DIR, class_page, render_docs
from codegen.loader import load_grammar
from codegen.output import GENERATED_DIR

DOCS = GENERATED_DIR / DOCS_DIR
SIZE_BUDGET = 15 * 1024 * 1024

_DEF = re.compile(r"^    def (\w+)\(self(?:, (.*))?\) -> (\w+):\n        \"\"\"(.*)$", re.M)
_VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


def _methods(module_file: Path) -> list[tuple[str, str, str]]:
    """(method, call form as the docs show it, first docstring line) of a generated module."""
    found = []
    for name, args, returns, doc in _DEF.findall(module_file.read_text(encoding="utf-8")):
        found.append((name, f"{name}({args or ''}) -> {returns}", doc))
    return found


def _sections(html: str) -> dict[str, str]:
    """Instruction sections of a page by anchor."""
    parts = html.split('<section class="inst" id="')[1:]
    return {part.split('"', 1)[0]: part.split("</section>", 1)[0] for part in parts}


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
            pages[page] = _sections(_read(f"{page}.html"))
        section = pages[page].get(opname)
        assert section is not None, f"{opname} missing from {page}.html"
        assert str(escape(f"builder.{call}")) in section, (
            f"{opname}: signature differs from generated"
        )
        md = _read(f"md/{page}.md")
        assert f'<a id="{opname}"></a>' in md and f"builder.{call}\n" in md, opname
        assert f"SPIRV.html#{opname}" in section


def test_every_ext_set_instruction_is_on_its_set_page_with_its_generated_signature() -> None:
    grammar = load_grammar()
    for s in grammar.ext_inst_sets.values():
        html = _read(f"extinst/{s.python_name}.html")
        sections = _sections(html)
        methods = _methods(GENERATED_DIR / "extinst" / f"{s.python_name}.py")
        assert len(methods) == len(s.instructions), s.import_name
        for (_, call, _), inst in zip(methods, s.instructions, strict=True):
            assert inst.name in sections, f"{s.import_name} {inst.name}"
            assert str(escape(f"builder.{s.python_name}.{call}")) in sections[inst.name]
    glsl = _read("extinst/glsl.html")
    fabs = _sections(glsl)["FAbs"]
    assert 'href="https://registry.khronos.org/SPIR-V/specs/unified1/GLSL.std.450.html"' in fabs
    assert "no link known" in _read("extinst/tosa_001000_1.html")


def _enum_rows(html: str, kind: str) -> dict[str, tuple[int, str]]:
    rows = re.findall(
        rf'<tr id="{re.escape(kind)}-[^"]+"><th scope="row"><code>{re.escape(kind)}\.(\w+)</code>'
        r".*?</th><td>(\d+)</td><td><code>(0x[0-9a-f]+)</code>",
        html,
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
            assert f"alias <code>{kind}.{member}" in html, f"{kind}.{member} missing"


def test_every_enum_kind_page_lists_all_its_values() -> None:
    grammar = load_grammar()
    enums = importlib.import_module("spvbuild.generated.core.enums")
    classes = enums.ENUM_CLASSES
    assert len(classes) > 50
    for kind, enum_class in classes.items():
        html = _read(f"enums/{kind}.html")
        _check_enum_page(html, kind, enum_class, len(grammar.operand_kinds[kind].enumerants))
        md = _read(f"md/enums/{kind}.md")
        for member in enum_class.__members__:
            assert f"`{kind}.{member}`" in md, f"{kind}.{member} missing from the Markdown twin"
    decoration = _read("enums/Decoration.html")
    assert "<code>DecorationBuiltIn(built_in: BuiltIn)</code>" in decoration
    assert 'id="Decoration-ArgumentAttributeINTEL"' in decoration
    assert (
        "DecorationArgumentAttributeINTEL(index: int, argument_attribute: FunctionParameterAttribute)"
        in decoration
    )
    # Values in decimal and hex; a bit enum shows its flags.
    assert _enum_rows(_read("enums/MemoryAccess.html"), "MemoryAccess")["Aligned"] == (2, "0x2")


def test_every_ext_set_enum_kind_is_listed_with_all_its_values() -> None:
    grammar = load_grammar()
    for s in grammar.ext_inst_sets.values():
        module = importlib.import_module(f"spvbuild.generated.extinst.{s.python_name}")
        html = _read(f"extinst/{s.python_name}.html")
        for kind, enum_class in module.ENUM_CLASSES.items():
            assert f'id="kind-{kind}"' in html
            _check_enum_page(html, kind, enum_class, len(s.operand_kinds[kind].enumerants))


def test_extension_pages_list_what_they_add_and_their_rules() -> None:
    grammar = load_grammar()
    for ext in grammar.extensions.values():
        html = _read(f"extensions/{ext.name}.html")
        for inst in ext.instructions:
            assert f">{inst}</a></code>" in html, f"{ext.name}: {inst}"
        for kind, name in ext.enumerants:
            assert f'href="../enums/{kind}.html#{kind}-{name}">{name}</a>' in html, (
                f"{ext.name}: {kind}.{name}"
            )
        for rule in ext.rules:
            assert f'id="rule-{rule.id}"' in html
            assert str(escape(rule.text)) in html and str(escape(rule.source)) in html
            assert str(escape(json.dumps(rule.data, indent=2, ensure_ascii=False))) in html
            assert f'<a id="rule-{rule.id}"></a>' in _read(f"md/extensions/{ext.name}.md")
        if not ext.rules:
            assert "No rules recorded in the grammar." in html
    nowrap = _read("extensions/SPV_KHR_no_integer_wrap_decoration.html")
    assert (
        'id="rule-no-signed-wrap-targets"' in nowrap
        and 'id="rule-no-unsigned-wrap-targets"' in nowrap
    )
    assert "<dt>Core in</dt><dd>1.4</dd>" in nowrap
    assert "Decoration-NoSignedWrap" in nowrap and "<td>4469</td>" in nowrap
    fp = _read("extensions/SPV_INTEL_function_pointers.html")
    for rule_id in (
        "fp-constant-result-type",
        "fp-call-types",
        "fp-argument-attribute-target",
        "fp-legal-uses",
        "fp-illegal-uses",
    ):
        assert f'id="rule-{rule_id}"' in fp
    assert (
        'href="../enums/Decoration.html#Decoration-ArgumentAttributeINTEL">ArgumentAttributeINTEL</a>'
        in fp
    )
    assert "<td>6409</td>" in fp
    assert "builder.function_pointer_call_intel(" in fp
    assert "ArgumentAttributeINTEL applies to an OpFunctionPointerCallINTEL" in fp


def test_errata_page_lists_every_erratum() -> None:
    grammar = load_grammar()
    html = _read("errata.html")
    for e in grammar.errata:
        assert f">{e.item}</a></code>" in html, f"{e.item} has no link"
        assert str(escape(e.why)) in html
    assert "Decoration.ArgumentAttributeINTEL" in _read("md/errata.md")


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


@dataclass
class _Page:
    ids: set[str] = field(default_factory=set)
    duplicate_ids: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)  # href and src values
    errors: list[str] = field(default_factory=list)
    lang: str = ""
    title: str = ""


class _Parser(HTMLParser):
    def __init__(self, page: _Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[str] = []
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.page.lang = values.get("lang") or ""
        if tag == "title":
            self.in_title = True
        ident = values.get("id")
        if ident is not None:
            if ident in self.page.ids:
                self.page.duplicate_ids.append(ident)
            self.page.ids.add(ident)
        for name in ("href", "src"):
            value = values.get(name)
            if value is not None:
                self.page.links.append(f"{tag}:{value}")
        if tag == "img" and "alt" not in values:
            self.page.errors.append("img without alt")
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if not self.stack or self.stack[-1] != tag:
            self.page.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            if tag in self.stack:
                while self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.page.title += data


@pytest.fixture(scope="module")
def pages() -> dict[str, _Page]:
    parsed = {}
    for path in sorted(DOCS.rglob("*.html")):
        page = _Page()
        parser = _Parser(page)
        parser.feed(path.read_text(encoding="utf-8"))
        parser.close()
        if parser.stack:
            page.errors.append(f"unclosed {parser.stack}")
        parsed[path.relative_to(DOCS).as_posix()] = page
    return parsed


def test_pages_are_well_formed_and_accessible(pages: dict[str, _Page]) -> None:
    assert len(pages) > 250
    for name, page in pages.items():
        assert not page.errors, f"{name}: {page.errors[:5]}"
        assert not page.duplicate_ids, f"{name}: duplicate ids {page.duplicate_ids[:5]}"
        assert page.lang == "en" and page.title.strip(), name
        assert {"main", "search-input", "search-results"} <= page.ids, name
        text = (DOCS / name).read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>\n"), name
        assert '<label for="search-input">' in text and 'role="search"' in text, name
        assert (DOCS / "md" / name).with_suffix(".md").is_file(), f"{name} has no Markdown twin"


def test_every_internal_link_and_search_entry_resolves(pages: dict[str, _Page]) -> None:
    def resolve(base: str, target: str) -> str | None:
        """A problem with one link, or None."""
        parts = urlsplit(target)
        if parts.scheme in ("http", "https", "data"):
            return None
        path = (
            _normpath((Path(base).parent / unquote(parts.path)).as_posix()) if parts.path else base
        )
        if not (DOCS / path).is_file():
            return f"{target}: no file {path}"
        if parts.fragment and path.endswith(".html") and parts.fragment not in pages[path].ids:
            return f"{target}: no id {parts.fragment!r} in {path}"
        return None

    problems = []
    for name, page in pages.items():
        for link in page.links:
            tag, _, target = link.partition(":")
            if tag in ("link", "script") and urlsplit(target).scheme in ("http", "https"):
                problems.append(f"{name}: external resource {target}")
                continue
            problem = resolve(name, target)
            if problem:
                problems.append(f"{name}: {problem}")
    assert not problems, problems[:10]
    index = (DOCS / "search-index.js").read_text(encoding="utf-8")
    body = index[index.index("[\n") : index.rindex("]") + 1]
    entries = json.loads(body)
    assert len(entries) > 2500
    bad = [e for e in entries if resolve("index.html", e[2])]
    assert not bad, bad[:10]
    names = {e[0] for e in entries}
    assert {"OpIAdd", "Decoration.BuiltIn", "SPV_INTEL_function_pointers", "FAbs"} <= names
    assert ["OpIAdd", "i_add", "core/arithmetic.html#OpIAdd", "Arithmetic"] in entries


def _normpath(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts)


def test_markdown_twins_link_to_existing_pages_and_anchors() -> None:
    anchors: dict[str, set[str]] = {}
    for path in DOCS.joinpath("md").rglob("*.md"):
        anchors[path.relative_to(DOCS).as_posix()] = set(
            re.findall(r'<a id="([^"]+)"></a>', path.read_text(encoding="utf-8"))
        )
    problems = []
    for name in anchors:
        text = (DOCS / name).read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://")):
                continue
            path, _, fragment = target.partition("#")
            resolved = _normpath((Path(name).parent / path).as_posix()) if path else name
            if resolved not in anchors:
                problems.append(f"{name}: {target}")
            elif fragment and fragment not in anchors[resolved]:
                problems.append(f"{name}: {target} (no anchor)")
    assert not problems, problems[:10]


def test_site_stays_small_and_self_contained() -> None:
    files = [p for p in DOCS.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    assert total < SIZE_BUDGET, f"generated/docs is {total} bytes"
    index_size = (DOCS / "search-index.js").stat().st_size
    for path in DOCS.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "SPVBUILD_SEARCH = [" not in text, f"{path}: search index inlined"
        assert path.stat().st_size < max(index_size, 600_000), path
        assert 'src="http' not in text and 'rel="stylesheet" href="http' not in text, path
    js = (DOCS / "search.js").read_text(encoding="utf-8")
    assert "http" not in js.replace("http-equiv", ""), "search.js refers to something external"


# -- the hand-written API pages ------------------------------------------------------------
def test_the_hand_written_api_has_a_searchable_page_per_area() -> None:
    """Module, control flow, layouts, DebugInfo, reader, assembler, disassembler and the
    runner each have a page showing every public name with its docstring, and every name
    is in the search index, pointing at its entry."""
    import inspect

    import spvbuild.constructs.control as control
    from spvbuild.ir.module import Module

    pages = {p.stem for p in (DOCS / "api").glob("*.html")}
    assert pages >= {
        "module", "control-flow", "layouts", "debuginfo", "reader", "assembler",
        "disassembler", "runner",
    }  # fmt: skip
    module_page = (DOCS / "md" / "api" / "module.md").read_text(encoding="utf-8")
    for name in ("find", "replace_all_uses", "inserting", "validate", "to_words", "from_binary"):
        doc = inspect.getdoc(getattr(Module, name))
        assert doc is not None
        assert f"### `Module.{name}(" in module_page
        assert doc.splitlines()[0] in module_page, name
    control_page = (DOCS / "md" / "api" / "control-flow.md").read_text(encoding="utf-8")
    for name in control.__all__:
        assert f"### `{name}" in control_page, name
    index = (DOCS / "search-index.js").read_text(encoding="utf-8")
    assert (
        '["Module.find","method","api/module.html#Module.find","API: Module: the module builder"]'
        in index
    )
    assert '"api/control-flow.html#if_else"' in index
