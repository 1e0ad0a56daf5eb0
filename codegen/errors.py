"""The one exception the code generator raises for bad grammar input, and the
:class:`Mark` (file, line, column) it points at.

``Mark`` lives here, not in :mod:`codegen.yaml_source` (which makes the marks as it reads
YAML): the reader raises ``GrammarError``, so this module must not import it back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mark:
    """A position in a grammar file (1-based line and column)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class GrammarError(Exception):
    """A grammar file is malformed or inconsistent.

    ``str(error)`` reads ``file:line:col: key 'KEY': expected WHAT`` (plus what was found
    when known), so an editor can jump to the spot.  Attributes: ``mark`` (file, line,
    col), ``key`` (the YAML key or item being read) and ``expected``.
    """

    def __init__(self, mark: Mark, key: str, expected: str, found: str | None = None) -> None:
        self.mark = mark
        self.key = key
        self.expected = expected
        self.found = found
        text = f"{mark}: key '{key}': expected {expected}"
        if found is not None:
            text += f", found {found}"
        super().__init__(text)
