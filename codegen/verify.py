"""Prove the rendered Python package works before it is written: compile it, look for
names defined twice, and import it in a child process.

The loader's checks (:mod:`codegen.names_check`) should leave nothing for this module to
find; it is the net under them.  A failure becomes a :class:`GrammarError` at the grammar
item whose Python name the error quotes or the failing generated line holds
(:class:`Blame`), or at line 1 of the grammar file that generated file comes from when
no name matches.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from codegen.errors import GrammarError, Mark
from codegen.model import Grammar, OperandKind
from codegen.names_check import RUNTIME_DIR
from codegen.naming import enum_member_name, method_name, opcode_constant_name
from codegen.yaml_source import load_yaml

IMPORT_TIMEOUT_S = 120
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PYTHON_WORDS = frozenset(n for n in dir(builtins) if n[0].isupper()) | {"Python"}

_CHILD = r"""
import importlib, json, sys, traceback
names = json.loads(sys.argv[1])
try:
    for name in names:
        importlib.import_module(name)
except BaseException as exc:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/spvbuild/generated/" in f.filename]
    where = frames[-1] if frames else None
    if isinstance(exc, SyntaxError) and exc.filename and "/spvbuild/generated/" in exc.filename:
        where = traceback.FrameSummary(exc.filename, exc.lineno or 1, "")
    print(json.dumps({
        "module": name,
        "file": where.filename.split("/spvbuild/generated/", 1)[1] if where else None,
        "line": where.lineno if where else None,
        "error": f"{type(exc).__name__}: {exc}",
    }))
    sys.exit(1)
"""


class Blame:
    """Which grammar item a Python name in the generated package comes from."""

    def __init__(self, grammar: Grammar, grammars_root: Path) -> None:
        self.grammar = grammar
        self.grammars_root = grammars_root
        self._owners: dict[str, list[tuple[Mark, str]]] | None = None

    @property
    def owners(self) -> dict[str, list[tuple[Mark, str]]]:
        """Python name → the grammar items it may come from (built on first use)."""
        if self._owners is None:
            self._owners = {}
            self._index(self.grammar, self.grammars_root)
        return self._owners

    def _index(self, grammar: Grammar, grammars_root: Path) -> None:
        for inst in grammar.instructions:
            for name in [inst.name, *inst.aliases]:
                self._add(inst.mark, name, name, name[2:], opcode_constant_name(name))
            self._add(inst.mark, inst.name, method_name(inst.name))
        self._kinds(grammar.operand_kinds.values())
        for s in grammar.ext_inst_sets.values():
            try:
                raw = load_yaml(grammars_root / s.file, display_name=s.file)
                mark = raw.value_mark_of("python_name")
            except GrammarError:  # pragma: no cover - it loaded a moment ago
                mark = Mark(s.file, 1, 1)
            self._add(mark, "python_name", s.python_name)
            for inst in s.instructions:
                self._add(inst.mark, inst.name, inst.name, method_name(inst.name))
            self._kinds(s.operand_kinds.values())

    def _add(self, mark: Mark, key: str, *names: str) -> None:
        for name in set(names):
            self.owners.setdefault(name, []).append((mark, key))

    def _kinds(self, kinds: Iterable[OperandKind]) -> None:
        for kind in kinds:
            self._add(kind.mark, kind.name, kind.name, f"{kind.name}Operand")
            for e in kind.enumerants:
                for name in [e.name, *e.aliases]:
                    member = enum_member_name(kind.name, name)
                    params = f"{kind.name}{member.rstrip('_')}"
                    self._add(e.mark, name, name, member, params)

    def _order(self, mark: Mark) -> tuple[int, int, int]:
        files = self.grammar.files
        return (files.index(mark.file) if mark.file in files else -1, mark.line, mark.col)

    def error(
        self, file: str, line_text: str, problem: str, prefer: str | None = None
    ) -> GrammarError:
        """A GrammarError for a problem found on ``line_text`` of generated ``file``."""
        found = f"generated/{file}: {problem}" if file else problem
        words = [prefer] if prefer else []
        words += re.findall(r"'([A-Za-z_][A-Za-z0-9_]*)'", problem)  # a name the error quotes
        words += _WORD.findall(line_text)
        # The error's CamelCase words too (a kind it names), not 'name' (OpName's method).
        words += [w for w in _WORD.findall(problem) if w[0].isupper() and w not in _PYTHON_WORDS]
        for word in words:
            owners = self.owners.get(word)
            if owners:
                mark, key = max(owners, key=lambda o: self._order(o[0]))
                return GrammarError(mark, key, "a grammar whose generated package works", found)
        return GrammarError(self._home(file), "-", "a grammar whose generated package works", found)

    def _home(self, file: str) -> Mark:
        for s in self.grammar.ext_inst_sets.values():
            if file == f"extinst/{s.python_name}.py":
                return Mark(s.file, 1, 1)
        return Mark(self.grammar.files[0] if self.grammar.files else "core.yaml", 1, 1)


def _bound(stmt: ast.stmt) -> list[str]:
    """Names a statement binds in its scope (imports, definitions, plain assignments)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        overload = any(_is_overload(d) for d in stmt.decorator_list)
        return [] if overload else [stmt.name]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return []


def _flatten(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a scope, those of ``if`` blocks (``if TYPE_CHECKING:``) included."""
    flat: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            flat += _flatten(stmt.body) + _flatten(stmt.orelse)
        else:
            flat.append(stmt)
    return flat


def _duplicates(tree: ast.Module) -> list[tuple[str, int]]:
    """Names bound twice in the module's top level or in one class body, a parameter given
    twice, or a parameter hiding a module-level name: (name, line)."""
    found: list[tuple[str, int]] = []
    module_names = {n for stmt in _flatten(tree.body) for n in _bound(stmt)} - {"annotations"}

    def scan(body: list[ast.stmt], seen: set[str]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.If):  # each branch against what came before, not each other
                branches = [set(seen), set(seen)]
                scan(stmt.body, branches[0])
                scan(stmt.orelse, branches[1])
                seen |= branches[0] | branches[1]
                continue
            if isinstance(stmt, ast.ClassDef):
                scan(stmt.body, set())
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = stmt.args
                params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
                params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
                found.extend(
                    (p, stmt.lineno)
                    for i, p in enumerate(params)
                    if p in params[:i] or p in module_names
                )
            for name in _bound(stmt):
                if name in seen and name != "__all__":
                    found.append((name, stmt.lineno))
                seen.add(name)

    scan(tree.body, set())
    return found


def _is_overload(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("overload", "setter", "getter", "deleter")


def check_python(files: dict[str, str], blame: Blame) -> None:
    """Compile every rendered module and look for names bound twice in one scope."""
    for relative, text in sorted(files.items()):
        if not relative.endswith(".py"):
            continue
        lines = text.splitlines()
        try:
            tree = ast.parse(text, filename=f"generated/{relative}")
            compile(tree, f"generated/{relative}", "exec")
        except SyntaxError as exc:
            line = lines[exc.lineno - 1] if exc.lineno and exc.lineno <= len(lines) else ""
            raise blame.error(
                relative, line, f"line {exc.lineno}: SyntaxError: {exc.msg}"
            ) from None
        for name, lineno in _duplicates(tree):
            raise blame.error(
                relative,
                lines[lineno - 1],
                f"line {lineno}: {name!r} is defined twice (or hides a module-level name)",
                name,
            )


def package_modules(files: dict[str, str]) -> list[str]:
    """The importable module names of the rendered package, packages first."""
    names = []
    for relative in sorted(files, key=lambda r: (r.count("/"), r)):
        if relative.endswith(".py"):
            dotted = relative[:-3].replace("/", ".")
            dotted = dotted.removesuffix("__init__").rstrip(".")
            names.append("spvbuild.generated" + (f".{dotted}" if dotted else ""))
    return names


RUNTIME_MODULES = (
    "spvbuild",
    "spvbuild.ir.module",
    "spvbuild.text.assembler",
    "spvbuild.text.disassembler",
)
"""Runtime modules imported with the rendered package: they must work with it."""


class ImportCheck:
    """Import the rendered package, as ``spvbuild.generated`` of the runtime, in a child process.

    The package is written to a temporary copy of the runtime's package folder (links to
    the runtime's modules, the rendered files as ``generated/``); nothing else is touched.
    The child starts at once; :meth:`finish` waits for it (so the caller may do other
    checks meanwhile) and raises a GrammarError if the import failed.
    """

    def __init__(self, files: dict[str, str], runtime_dir: Path = RUNTIME_DIR) -> None:
        self.files = files
        self.tmp = tempfile.TemporaryDirectory(prefix="codegen-verify-")
        package = Path(self.tmp.name) / "spvbuild"
        package.mkdir()
        for entry in runtime_dir.iterdir():
            if entry.name not in ("generated", "__pycache__"):
                (package / entry.name).symlink_to(entry.resolve())
        for relative, text in files.items():
            if relative.endswith(".py"):
                path = package / "generated" / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env["PYTHONPATH"] = self.tmp.name
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        modules = package_modules(files) + list(RUNTIME_MODULES)
        self.child = subprocess.Popen(
            [sys.executable, "-c", _CHILD, json.dumps(modules)],
            cwd=self.tmp.name,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def cancel(self) -> None:
        """Stop the child (another check failed first) and remove the temporary copy."""
        self.child.kill()
        self.child.communicate()
        self.tmp.cleanup()

    def finish(self, blame: Blame) -> None:
        """Wait for the child; its failure is a GrammarError at the grammar item behind it."""
        try:
            stdout, stderr = self.child.communicate(timeout=IMPORT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.cancel()
            raise blame.error(
                "__init__.py", "", f"importing took over {IMPORT_TIMEOUT_S} s"
            ) from None
        self.tmp.cleanup()
        if self.child.returncode == 0:
            return
        try:
            report = json.loads(stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            report = {"module": "?", "file": None, "line": None, "error": stderr.strip()[-500:]}
        file, line = report.get("file"), report.get("line")
        problem = f"importing {report['module']}: {report['error']}"
        if file and line and file in self.files:
            lines = self.files[file].splitlines()
            text = lines[line - 1] if line <= len(lines) else ""
            raise blame.error(file, text, f"line {line}: {problem}")
        raise blame.error(file or "__init__.py", "", problem)


def check_import(files: dict[str, str], blame: Blame, runtime_dir: Path = RUNTIME_DIR) -> None:
    """Import the rendered package with the runtime in a child process (see ImportCheck)."""
    ImportCheck(files, runtime_dir).finish(blame)


def check_package(files: dict[str, str], blame: Blame, *, import_it: bool = True) -> None:
    """:func:`check_python` and (with ``import_it``) :func:`check_import`, side by side."""
    importing = ImportCheck(files) if import_it else None
    try:
        check_python(files, blame)
    except BaseException:
        if importing is not None:
            importing.cancel()
        raise
    if importing is not None:
        importing.finish(blame)


__all__ = [
    "RUNTIME_MODULES",
    "Blame",
    "ImportCheck",
    "check_import",
    "check_package",
    "check_python",
    "package_modules",
]
