"""The one exception the code generator raises for bad grammar input."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codegen.yaml_source import Mark


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
