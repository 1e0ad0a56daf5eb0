"""Read YAML into plain Python values that remember where they came from.

Every mapping becomes a :class:`YMap` and every sequence a :class:`YList`; both carry
the :class:`~codegen.errors.Mark` of the node and of each key/item, so the grammar loader can point at
``file:line:col`` for any value it rejects.  Duplicate mapping keys are an error here
(PyYAML silently keeps the last one).

The grammar format is plain YAML data: anchors, aliases (``&a`` / ``*a``, the stuff of
"billion laughs" bombs and self-referencing lists) and tags (``!!python/name:...``,
``!!int``, ``!foo``) are rejected before anything is built, as is nesting deeper than
:data:`MAX_DEPTH` and a file larger than :data:`MAX_BYTES`.  A scalar the YAML resolver
cannot turn into a value (``2020-13-45`` read as a date) is an error at its position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from codegen.errors import GrammarError, Mark

MAX_DEPTH = 32
"""Deepest nesting of mappings and lists a grammar file may use (the schema needs 6)."""
MAX_BYTES = 16 * 1024 * 1024
"""Largest grammar file read (grammars/core.yaml is about 120 kB)."""

try:  # libyaml is much faster; the composed node tree is the same.
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader


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

    def convert(self, node: yaml.Node, key: str = "-") -> Any:
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
                result[key] = self.convert(value_node, key)
                result.key_marks[key] = key_mark
                result.value_marks[key] = _mark(self.file, value_node)
            return result
        if isinstance(node, yaml.SequenceNode):
            items = YList()
            items.mark = _mark(self.file, node)
            items.item_marks = []
            for item in node.value:
                items.append(self.convert(item, key))
                items.item_marks.append(_mark(self.file, item))
            return items
        try:
            return self.scalars.construct_object(node, deep=True)
        except (ValueError, ArithmeticError, yaml.YAMLError) as exc:
            raise GrammarError(
                _mark(self.file, node), key, "a valid scalar", f"{node.value!r} ({exc})"
            ) from None


def _plain_data(text: str, name: str) -> None:
    """Reject anchors, aliases, tags and deep nesting (the event stream, before any node).

    The error names the mapping key the offending value belongs to.
    """
    # One entry per open mapping or list: [is_mapping, next scalar is a key, the last key].
    stack: list[list[Any]] = []
    for event in yaml.parse(text, Loader=_Loader):
        start = event.start_mark
        mark = Mark(name, start.line + 1, start.column + 1) if start else Mark(name, 1, 1)
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            stack.pop()
            _after_value(stack)
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        is_key = bool(stack) and stack[-1][0] and stack[-1][1]
        key = "-" if not stack else str(stack[-1][2]) if stack[-1][0] else "-"
        if is_key and isinstance(event, yaml.ScalarEvent):
            key = event.value
        if isinstance(event, yaml.AliasEvent):
            raise GrammarError(
                mark, key, "no YAML alias (the grammar format needs none)", f"*{event.anchor}"
            )
        if event.anchor is not None:
            raise GrammarError(
                mark, key, "no YAML anchor (the grammar format needs none)", f"&{event.anchor}"
            )
        tag = getattr(event, "tag", None)
        if tag is not None:
            shown = "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag
            raise GrammarError(
                mark, key, "no YAML tag (write the plain value; the schema gives its type)", shown
            )
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if len(stack) >= MAX_DEPTH:
                raise GrammarError(mark, key, f"nesting at most {MAX_DEPTH} levels deep")
            stack.append([isinstance(event, yaml.MappingStartEvent), True, key])
        elif is_key:
            stack[-1][1] = False
            stack[-1][2] = key
        else:
            _after_value(stack)


_YAML_TAG = "tag:yaml.org,2002:"


def _after_value(stack: list[list[Any]]) -> None:
    """A mapping's value (or key) is complete: the next scalar of a mapping is a key."""
    if stack and stack[-1][0]:
        stack[-1][1] = not stack[-1][1]


def load_yaml(path: Path, display_name: str | None = None) -> Any:
    """Parse one YAML file into YMap/YList/scalars; syntax errors become GrammarError."""
    name = display_name or str(path)
    try:
        if path.stat().st_size > MAX_BYTES:
            raise GrammarError(Mark(name, 1, 1), "-", f"a file of at most {MAX_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GrammarError(Mark(name, 1, 1), "-", f"a readable file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise GrammarError(Mark(name, 1, 1), "-", f"UTF-8 text ({exc.reason})") from None
    try:
        _plain_data(text, name)
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
