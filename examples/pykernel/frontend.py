"""Parsing: the kernel's source, its helpers, module constants and signatures.

The compiler works on source text.  A function object is compiled from the file it was
defined in (so helpers defined next to it, and line numbers, are the real ones); a
string is compiled as the contents of a file named ``filename``.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CompileError
from .typesys import ARRAY_ELEMENTS, ARRAY_NAMES, INT_RANGES, SCALAR_NAMES, ArrayType, Scalar, Type

#: Decorators that do not change what a function means.
TRANSPARENT_DECORATORS = frozenset({"kernel"})


@dataclass(frozen=True)
class Param:
    """One parameter: its name, type and node (for error locations)."""

    name: str
    type: Type
    node: ast.arg


@dataclass(frozen=True)
class Signature:
    """A function's parameters and return type (``None``: returns nothing)."""

    name: str
    params: tuple[Param, ...]
    returns: Scalar | None
    node: ast.FunctionDef


@dataclass
class Program:
    """The parsed source: the kernel, the functions it may call and module constants."""

    filename: str
    kernel: ast.FunctionDef
    functions: dict[str, ast.FunctionDef]
    constants: dict[str, tuple[Scalar, int | float | bool]]
    _signatures: dict[str, Signature] = field(default_factory=dict)

    def error(self, node: ast.AST, message: str) -> CompileError:
        """A :class:`CompileError` located at ``node`` in this program's file."""
        return CompileError.at(self.filename, node, message)

    def signature(self, name: str) -> Signature:
        """The signature of function ``name`` (parsed on first use)."""
        found = self._signatures.get(name)
        if found is None:
            node = self.kernel if name == self.kernel.name else self.functions[name]
            found = _signature(self, node, kernel=node is self.kernel)
            self._signatures[name] = found
        return found


def load(source_or_function: str | Callable[..., Any], name: str | None, filename: str) -> Program:
    """Parse the source of a function object or a source string into a :class:`Program`."""
    if isinstance(source_or_function, str):
        text, target_line = textwrap.dedent(source_or_function), None
    else:
        text, filename, target_line = _function_source(source_or_function)
        name = name or source_or_function.__name__
    try:
        tree = ast.parse(text, filename=filename)
    except SyntaxError as exc:
        raise CompileError(
            filename, exc.lineno or 0, exc.offset or 0, f"syntax error: {exc.msg}"
        ) from None
    kernel, scope = _find_kernel(tree, name, target_line, filename)
    functions = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    functions.update((s.name, s) for s in scope if isinstance(s, ast.FunctionDef))
    return Program(filename, kernel, functions, _constants(tree))


def _function_source(function: Callable[..., Any]) -> tuple[str, str, int]:
    code = getattr(function, "__code__", None)
    if code is None:
        raise TypeError(f"compile_kernel needs a Python function or source text, not {function!r}")
    path = inspect.getsourcefile(function)
    if path is not None and Path(path).is_file():
        return Path(path).read_text(encoding="utf-8"), path, code.co_firstlineno
    try:  # e.g. defined in an interactive session that linecache still knows
        lines, start = inspect.getsourcelines(function)
    except OSError:
        raise ValueError(f"cannot find the source of {function.__name__}()") from None
    text = "\n" * (start - 1) + textwrap.dedent("".join(lines))
    return text, path or "<unknown>", code.co_firstlineno


def _find_kernel(
    tree: ast.Module, name: str | None, line: int | None, filename: str
) -> tuple[ast.FunctionDef, list[ast.stmt]]:
    """The kernel's FunctionDef and the statement list it is defined in."""
    candidates: list[tuple[ast.FunctionDef, list[ast.stmt]]] = []
    for parent in ast.walk(tree):
        body = getattr(parent, "body", None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef) and (name is None or stmt.name == name):
                candidates.append((stmt, body))
    if line is not None:
        at_line = [c for c in candidates if _first_line(c[0]) == line]
        candidates = at_line or candidates
    if name is None:
        top = [c for c in candidates if c[1] is tree.body]
        if len(top) != 1:
            raise CompileError(filename, 1, 1, "name the kernel: the source has several functions")
        return top[0]
    if not candidates:
        raise CompileError(filename, 1, 1, f"no function named {name!r} in the source")
    top_level = [c for c in candidates if c[1] is tree.body]
    return (top_level or candidates)[0]


def _first_line(node: ast.FunctionDef) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _constants(tree: ast.Module) -> dict[str, tuple[Scalar, int | float | bool]]:
    """Module-level ``NAME = <number or bool literal>`` assignments, usable in kernels."""
    found: dict[str, tuple[Scalar, int | float | bool]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        literal = literal_value(value)
        if isinstance(target, ast.Name) and literal is not None:
            found[target.id] = literal
    return found


def literal_value(node: ast.expr) -> tuple[Scalar, int | float | bool] | None:
    """``(type, value)`` of a number or bool literal, a leading ``-`` included; else None."""
    sign = 0
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        node = node.operand
    if not isinstance(node, ast.Constant):
        return None
    value = node.value
    if isinstance(value, bool):
        return (Scalar.BOOL, value) if sign == 0 else None
    sign = sign or 1
    if isinstance(value, int):
        return Scalar.INT, sign * value
    if isinstance(value, float):
        return Scalar.FLOAT, sign * value
    return None


def fits(value: int, scalar: Scalar) -> bool:
    """Is the integer ``value`` representable in ``scalar`` (float: always)?"""
    low, high = INT_RANGES.get(scalar, (-(2**128), 2**128))
    return low <= value <= high


def parse_type(program: Program, node: ast.expr, what: str, arrays: bool) -> Type:
    """The type an annotation names: ``int``, ``uint``, ``float``, ``bool``, ``Array[T]``."""
    if isinstance(node, ast.Name) and node.id in SCALAR_NAMES:
        return SCALAR_NAMES[node.id]
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in ARRAY_NAMES
    ):
        element = node.slice
        if isinstance(element, ast.Name) and SCALAR_NAMES.get(element.id) in ARRAY_ELEMENTS:
            if not arrays:
                raise program.error(node, f"{what}: arrays are allowed only as kernel parameters")
            return ArrayType(SCALAR_NAMES[element.id])
        raise program.error(element, "unsupported array element type: use int, uint or float")
    raise program.error(
        node,
        f"unsupported type annotation {ast.unparse(node)!r} for {what}: use int, uint, "
        "float, bool or Array[int|uint|float]",
    )


def _signature(program: Program, node: ast.FunctionDef, kernel: bool) -> Signature:
    for decorator in node.decorator_list:
        name = (
            decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
        )
        if name not in TRANSPARENT_DECORATORS:
            raise program.error(decorator, f"unsupported decorator {ast.unparse(decorator)!r}")
    args = node.args
    extra = args.vararg or args.kwarg or (args.kwonlyargs[0] if args.kwonlyargs else None)
    if extra is not None:
        raise program.error(extra, "unsupported parameter kind: only plain positional parameters")
    if args.defaults:
        raise program.error(args.defaults[0], "unsupported syntax: parameter default values")
    params: list[Param] = []
    for arg in [*args.posonlyargs, *args.args]:
        if arg.annotation is None:
            raise program.error(arg, f"parameter {arg.arg!r} needs a type annotation")
        if any(p.name == arg.arg for p in params):
            raise program.error(arg, f"duplicate parameter {arg.arg!r}")
        params.append(
            Param(
                arg.arg, parse_type(program, arg.annotation, f"parameter {arg.arg!r}", kernel), arg
            )
        )
    returns: Scalar | None = None
    if node.returns is not None and not (
        isinstance(node.returns, ast.Constant) and node.returns.value is None
    ):
        declared = parse_type(program, node.returns, f"the return type of {node.name}()", False)
        assert isinstance(declared, Scalar)
        returns = declared
    if kernel:
        if returns is not None:
            raise program.error(node.returns or node, "a kernel returns nothing: annotate -> None")
        if not params or params[0].type not in (Scalar.INT, Scalar.UINT):
            where: ast.AST = params[0].node if params else node
            raise program.error(
                where, "a kernel's first parameter is the invocation index: annotate it int or uint"
            )
        if not any(isinstance(p.type, ArrayType) for p in params):
            raise program.error(node, "a kernel needs at least one Array[...] parameter")
    return Signature(node.name, tuple(params), returns, node)
