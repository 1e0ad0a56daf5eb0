"""The one exception a kernel that is outside the language raises."""

from __future__ import annotations

import ast


class CompileError(Exception):
    """A kernel (or a helper it calls) uses something outside pykernel's subset.

    ``str(error)`` is ``file:line:col: message``, with ``line`` and ``col`` 1-based and
    pointing at the offending syntax, e.g.::

        kernels.py:12:9: unsupported syntax: list comprehension
        kernels.py:7:5: type mismatch: cannot assign float to 'k' (int); convert with int()

    The parts are also attributes: :attr:`filename`, :attr:`line`, :attr:`col`,
    :attr:`message`.
    """

    def __init__(self, filename: str, line: int, col: int, message: str) -> None:
        super().__init__(f"{filename}:{line}:{col}: {message}")
        self.filename = filename
        self.line = line
        self.col = col
        self.message = message

    @classmethod
    def at(cls, filename: str, node: ast.AST, message: str) -> CompileError:
        """An error located at ``node`` (Python's 0-based column made 1-based)."""
        line = getattr(node, "lineno", 0)
        col = getattr(node, "col_offset", -1) + 1
        return cls(filename, line, col, message)
