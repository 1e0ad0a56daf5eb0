"""The documentation site (docs/, generated/docs/) as built by Sphinx: it builds with no
warning (``site``), the API pages list every record's fields, the docstrings are rendered
with their cross-references as links, and one navigation holds the API and the reference.

Expected fields come from the records themselves (``dataclasses.fields``,
``NamedTuple._fields``), not from the pages.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from spvbuild.constructs.resources import BlockVariable
from spvbuild.reflection.host import RuntimeTail
from spvbuild.reflection.records import BlockLayout, DescriptorBinding, Member, Reflection, TypeInfo
from spvbuild.reflection.set_layouts import LayoutBinding, SetLayout, WebGPUBinding
from spvbuild.spirv.instruction import Instruction

pytestmark = [pytest.mark.slow, pytest.mark.source_tree]

API_PAGES = (
    "module", "control-flow", "layouts", "values", "debuginfo", "reader", "assembler",
    "disassembler", "runner", "validation", "reflection", "targets", "errors",
)  # fmt: skip


def _fields(cls: type) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls)]
    return list(cls._fields)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("page", "cls"),
    [
        ("module", Instruction),
        ("reflection", Reflection),
        ("reflection", DescriptorBinding),
        ("reflection", BlockLayout),
        ("reflection", Member),
        ("reflection", TypeInfo),
        ("reflection", RuntimeTail),
        ("reflection", LayoutBinding),
        ("reflection", SetLayout),
        ("reflection", WebGPUBinding),
        ("values", BlockVariable),
    ],
)
def test_api_page_lists_the_fields_of_a_record(site: Path, page: str, cls: type) -> None:
    html = (site / "api" / f"{page}.html").read_text(encoding="utf-8")
    qualified = f"{cls.__module__}.{cls.__qualname__}"
    assert f'<dt class="sig sig-object py" id="{qualified}">' in html, qualified
    for name in _fields(cls):
        anchor = f'id="{qualified}.{name}"'
        assert anchor in html, f"{qualified}.{name} is not on api/{page}.html"
        entry = html[html.index(anchor) : html.index(anchor) + 600]
        assert f'<span class="pre">{name}</span>' in entry, entry


def test_field_docstrings_and_cross_references_are_rendered(site: Path) -> None:
    reflection = (site / "api" / "reflection.html").read_text(encoding="utf-8")
    # TypeInfo.size's docstring, rendered (no reST markup left), and :attr: a link.
    assert "Bytes the type takes in an explicitly laid-out block" in reflection
    member = (site / "api" / "reflection.html").read_text(encoding="utf-8")
    assert 'href="#spvbuild.reflection.records.TypeInfo.size"' in member
    reader = (site / "api" / "reader.html").read_text(encoding="utf-8")
    assert 'href="errors.html#spvbuild.errors.BinaryError"' in reader
    for page in API_PAGES:
        html = (site / "api" / f"{page}.html").read_text(encoding="utf-8")
        raw = re.findall(r":(?:class|func|meth|attr|mod|data|exc):`", html)
        assert not raw, f"api/{page}.html shows reST roles unrendered: {raw[:3]}"


def test_one_navigation_holds_the_api_and_the_reference(site: Path) -> None:
    for page in ("api/module.html", "reference/core/arithmetic.html"):
        html = (site / page).read_text(encoding="utf-8")
        nav = html[html.index('<div class="sphinxsidebar"') :]
        prefix = "" if page.startswith("api/") else "../../api/"
        for api in API_PAGES:
            assert f'href="{prefix}{api}.html"' in nav or page == f"api/{api}.html", (page, api)
        assert "SPIR-V reference" in nav, page
    index = (site / "searchindex.js").read_text(encoding="utf-8")
    assert "reference/core/arithmetic" in index and "api/reflection" in index
