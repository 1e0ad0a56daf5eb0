"""Read YAML into plain Python values that remember where they came from.

Every mapping becomes a :class:`YMap` and every sequence a :class:`YList`; both carry
the :class:`Mark` of the node and of each key/item, so the grammar loader can point at
``file:line:col`` for any value it rejects.  Duplicate mapping keys are an error here
(PyYAML silently keeps the last one).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from codegen.errors import GrammarError

try:  # libyaml is much faster; the composed node tree is the same.
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader


@dataclass(frozen=True)
class Mark:
    """A position in a grammar file (1-based line and column)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class YMap(dict[str, Any]):
    """A mapping read from YAML, with the marks of itself and of each key."""

    mark: Mark
    key_marks: dict[str, Mark]
    value_marks: dict[str, Mark]

    def mark_of(self, key: str) -> Mark:
        """Where ``key`` is written (falls back to the mapping itself)."""
        return self.key_marks.get(key, self.mark)

    def value_mark_of(self, key: str) -> Mark:
        """Where the value of ``key`` starts (falls back to the key)."""
        return self.value_marks.get(key, self.mark_of(key))


class YList(list[Any]):
    """A sequence read from YAML, with the marks of itself and of each item."""

    mark: Mark
    item_marks: list[Mark]

    def mark_of(self, index: int) -> Mark:
        """Where item ``index`` starts."""
        return self.item_marks[index] if index < len(self.item_marks) else self.mark


def _mark(file: str, node: yaml.Node) -> Mark:
    return Mark(file, node.start_mark.line + 1, node.start_mark.column + 1)


class _Converter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.scalars = SafeConstructor()

    def convert(self, node: yaml.Node) -> Any:
        if isinstance(node, yaml.MappingNode):
            result = YMap()
            result.mark = _mark(self.file, node)
            result.key_marks = {}
            result.value_marks = {}
            for key_node, value_node in node.value:
                key_mark = _mark(self.file, key_node)
                if not isinstance(key_node, yaml.ScalarNode):
                    raise GrammarError(key_mark, "?", "a plain scalar mapping key")
                # Keys are names: keep them as written (YAML 1.1 would turn `On` into True).
                key = str(key_node.value)
                if key in result:
                    first = result.key_marks[key]
                    raise GrammarError(
                        key_mark, key, f"a unique key (already given at line {first.line})"
                    )
                result[key] = self.convert(value_node)
                result.key_marks[key] = key_mark
                result.value_marks[key] = _mark(self.file, value_node)
            return result
        if isinstance(node, yaml.SequenceNode):
            items = YList()
            items.mark = _mark(self.file, node)
            items.item_marks = []
            for item in node.value:
                items.append(self.convert(item))
                items.item_marks.append(_mark(self.file, item))
            return items
        return self.scalars.construct_object(node, deep=True)


def load_yaml(path: Path, display_name: str | None = None) -> Any:
    """Parse one YAML file into YMap/YList/scalars; syntax errors become GrammarError."""
    name = display_name or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GrammarError(Mark(name, 1, 1), "-", f"a readable file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise GrammarError(Mark(name, 1, 1), "-", f"UTF-8 text ({exc.reason})") from None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        where = exc.problem_mark or exc.context_mark
        mark = Mark(name, where.line + 1, where.column + 1) if where else Mark(name, 1, 1)
        raise GrammarError(mark, "-", f"valid YAML ({exc.problem or exc.context})") from None
    except yaml.YAMLError as exc:
        raise GrammarError(Mark(name, 1, 1), "-", f"valid YAML ({exc})") from None
    if node is None:
        empty = YMap()
        empty.mark = Mark(name, 1, 1)
        empty.key_marks = {}
        empty.value_marks = {}
        return empty
    return _Converter(name).convert(node)
