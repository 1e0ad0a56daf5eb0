"""Reference pages of the hand-written API, read from the runtime's docstrings.

The runtime's public modules (the module builder, the constructs, DebugInfo, the reader,
the assembler, the disassembler, the Vulkan runner, validation, the errors) are parsed
with :mod:`ast`, never imported: for each module of :data:`API_PAGES`, its docstring and
every public class (with its public methods and properties) and function, with its
signature as written and its docstring.  ``docs.py`` renders them beside the instruction
pages and adds them to the search index.  Public means: listed in the module's
``__all__`` where it has one, else not starting with ``_``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from codegen.names_check import RUNTIME_DIR

__all__ = ["API_PAGES", "ApiEntry", "ApiPage", "api_pages"]

# (page, title, the modules under src/spvbuild it documents, in order)
API_PAGES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("module", "Module: the module builder", ("ir/module.py", "ir/body.py", "spirv/ids.py")),
    ("control-flow", "Structured control flow", ("constructs/control.py",)),
    (
        "layouts",
        "Block layouts",
        ("constructs/layouts.py", "constructs/blocks.py", "constructs/host.py"),
    ),
    ("values", "Typed helpers and resources", ("constructs/values.py", "constructs/resources.py")),
    ("debuginfo", "DebugInfo", ("debuginfo/layer.py",)),
    ("reader", "Reader", ("binary/reader.py",)),
    ("assembler", "Assembler", ("text/assembler.py",)),
    ("disassembler", "Disassembler", ("text/disassembler.py",)),
    (
        "runner",
        "Vulkan runner",
        (
            "vulkan/run.py",
            "vulkan/compute_device.py",
            "vulkan/devices.py",
            "vulkan/loader.py",
            "vulkan/errors.py",
        ),
    ),
    ("validation", "Validation", ("ir/validation.py",)),
    (
        "reflection",
        "Reflection",
        ("reflection/analysis.py", "reflection/records.py", "reflection/json_form.py"),
    ),
    ("targets", "Target profiles", ("ir/targets.py",)),
    ("errors", "Errors", ("errors.py",)),
)


@dataclass(frozen=True)
class ApiEntry:
    """One documented name: ``Module.find`` (qualified), its kind, signature and doc."""

    name: str
    kind: str  # "class", "function", "method", "property"
    signature: str
    doc: str

    @property
    def anchor(self) -> str:
        """The entry's anchor on its page: its name (case kept: ``Phi`` is not ``phi``)."""
        return re.sub(r"[^A-Za-z0-9_.]+", "-", self.name).strip("-")


@dataclass
class ApiPage:
    """One page: its path under ``api/``, title, the modules' docstrings and entries."""

    name: str
    title: str
    modules: list[tuple[str, str]]  # (dotted module name, its docstring)
    entries: list[ApiEntry] = field(default_factory=list)

    @property
    def page(self) -> str:
        """The page's path in the site (no suffix)."""
        return f"api/{self.name}"


def _public(tree: ast.Module) -> set[str] | None:
    """The module's ``__all__`` (None where it has none)."""
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            continue
        if isinstance(node.value, ast.List | ast.Tuple):
            return {
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            }
    return None


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> str:
    args = node.args
    text = ast.unparse(args)
    if method:
        text = re.sub(r"^(self|cls)(, )?", "", text)
    returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
    return f"({text}){returns}"


def _doc(node: ast.AST) -> str:
    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return (ast.get_docstring(node) or "").strip()
    return ""


def _class_entries(node: ast.ClassDef) -> list[ApiEntry]:
    bases = ", ".join(ast.unparse(b) for b in node.bases)
    found = [ApiEntry(node.name, "class", f"({bases})" if bases else "", _doc(node))]
    for item in node.body:
        if not isinstance(item, ast.FunctionDef):
            continue
        if item.name == "__init__":  # the class's signature is its constructor's
            found[0] = ApiEntry(node.name, "class", _signature(item, True), _doc(node))
            continue
        if item.name.startswith("_"):
            continue
        decorators = {ast.unparse(d) for d in item.decorator_list}
        kind = "property" if {"property", "cached_property"} & decorators else "method"
        signature = "" if kind == "property" else _signature(item, True)
        found.append(ApiEntry(f"{node.name}.{item.name}", kind, signature, _doc(item)))
    return found


def _module_entries(path: Path) -> tuple[str, list[ApiEntry]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    public = _public(tree)
    entries: list[ApiEntry] = []
    for node in tree.body:
        name = getattr(node, "name", None)
        if name is None or (public is not None and name not in public):
            continue
        if public is None and name.startswith("_"):
            continue
        if isinstance(node, ast.ClassDef):
            entries += _class_entries(node)
        elif isinstance(node, ast.FunctionDef):
            entries.append(ApiEntry(name, "function", _signature(node, False), _doc(node)))
    return _doc(tree), entries


def api_pages(runtime_dir: Path = RUNTIME_DIR) -> list[ApiPage]:
    """The API pages, in :data:`API_PAGES` order (their modules' entries in source order)."""
    pages = []
    for name, title, modules in API_PAGES:
        page = ApiPage(name, title, [])
        for relative in modules:
            doc, entries = _module_entries(runtime_dir / relative)
            dotted = "spvbuild." + relative.removesuffix(".py").replace("/", ".")
            page.modules.append((dotted, doc))
            page.entries += entries
        pages.append(page)
    return pages
