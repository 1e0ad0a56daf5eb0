#!/usr/bin/env python3
"""Check the layering of the runtime package from its imports (read by ``ast``, not run).

Facts checked, each printed with what breaks it:

* no import circle among the files of ``src/spvbuild`` (every import counts: at the top,
  inside a function, under ``TYPE_CHECKING``), nor among its rooms (subpackages and
  top-level modules);
* ``spvbuild.binary`` imports nothing from ``spvbuild.ir``;
* ``spvbuild.spirv`` (the bottom layer) imports nothing of spvbuild but ``spvbuild.errors``;
* ``generated/`` imports only the bottom layer (``spvbuild.spirv``) and itself;
* ``spvbuild.passes`` sits above the module (``ir/``) and the rooms it uses: no room but
  the face and the command line (``spvbuild.cli``) imports it;
* no hand-written file of ``src/spvbuild`` is over 800 lines.

Usage: ``python tools/check_layers.py [ROOT]`` (the checkout's root; default: the folder
above this script).  Exit status 0 when every fact holds, 1 otherwise.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

MAX_LINES = 800
PACKAGE = "spvbuild"


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the runtime and of ``generated/``, by dotted name."""
    found: dict[str, Path] = {}
    runtime = root / "src" / PACKAGE
    for path in sorted(runtime.rglob("*.py")):
        relative = path.relative_to(runtime)
        if relative.parts[0] == "generated":
            continue  # a symlink to generated/, read from there
        found[_dotted(PACKAGE, relative)] = path
    for path in sorted((root / "generated").rglob("*.py")):
        found[_dotted(f"{PACKAGE}.generated", path.relative_to(root / "generated"))] = path
    return found


def _dotted(prefix: str, relative: Path) -> str:
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([prefix, *parts])


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The spvbuild modules that module ``name`` imports, with the line of each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    yield _known(alias.name, known), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                yield (submodule if submodule in known else _known(target, known)), node.lineno


def _known(target: str, known: dict[str, Path]) -> str:
    """``target``, or the nearest enclosing module the tree has."""
    while target not in known and "." in target:
        target = target.rpartition(".")[0]
    return target


def room(name: str) -> str:
    """The room of a module: its subpackage (``spvbuild.ir``) or itself at the top."""
    parts = name.split(".")
    return ".".join(parts[:2])


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def problems(root: Path) -> list[str]:
    """Every broken fact, one line each (empty: the layering holds)."""
    known = module_files(root)
    edges: dict[str, set[str]] = {name: set() for name in known}
    where: dict[tuple[str, str], int] = {}
    for name, path in known.items():
        for target, line in imported(name, path, known):
            if target != name and target in known:
                edges[name].add(target)
                where.setdefault((name, target), line)
    out: list[str] = []

    def at(a: str, b: str) -> str:
        return f"{known[a].relative_to(root)}:{where[(a, b)]} imports {b}"

    for component in circles(edges):
        ties = [at(a, b) for a in component for b in sorted(edges[a]) if b in component]
        out.append(f"import circle among files: {', '.join(component)} ({'; '.join(ties)})")
    # The face (spvbuild/__init__.py) loads its names on first use from every room: it is
    # above them all, and no room may import it.
    rooms: dict[str, set[str]] = {}
    for a, targets in edges.items():
        for b in targets:
            if room(a) != room(b) and a != PACKAGE:
                rooms.setdefault(room(a), set()).add(room(b))
    for component in circles(rooms):
        ties = [
            at(a, b)
            for a, targets in edges.items()
            for b in sorted(targets)
            if room(a) in component and room(b) in component and room(a) != room(b)
        ]
        out.append(f"import circle among rooms: {', '.join(component)} ({'; '.join(ties[:6])})")
    for a, targets in sorted(edges.items()):
        for b in sorted(targets):
            if b == PACKAGE and a != PACKAGE:
                out.append(f"{at(a, b)}: a room imports the package's face")
            if room(a) == f"{PACKAGE}.binary" and room(b) == f"{PACKAGE}.ir":
                out.append(f"{at(a, b)}: binary/ imports nothing from ir/")
            if room(a) == f"{PACKAGE}.spirv" and room(b) not in (
                f"{PACKAGE}.spirv",
                f"{PACKAGE}.errors",
            ):
                out.append(f"{at(a, b)}: the bottom layer imports only itself and the errors")
            if (
                room(b) == f"{PACKAGE}.passes"
                and room(a) not in (f"{PACKAGE}.passes", f"{PACKAGE}.cli")
                and a != PACKAGE
            ):
                out.append(f"{at(a, b)}: only the face and the command line import spvbuild.passes")
            if room(a) == f"{PACKAGE}.generated" and room(b) not in (
                f"{PACKAGE}.generated",
                f"{PACKAGE}.spirv",
            ):
                out.append(f"{at(a, b)}: generated/ imports only the bottom layer (spvbuild.spirv)")
    for name, path in sorted(known.items()):
        if room(name) == f"{PACKAGE}.generated":
            continue
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAX_LINES:
            out.append(f"{path.relative_to(root)}: {count} lines (a hand-written file: {MAX_LINES} at most)")
    return out


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    found = problems(root)
    for line in found:
        print(line)
    if not found:
        files = len(module_files(root))
        print(f"layers: {files} modules, no import circle, every layer rule holds")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
