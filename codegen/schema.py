"""Check grammar files against the written schema in ``grammars/schema.yaml``.

The schema is data: records with typed keys.  :func:`check` walks a YAML value and its
record type and raises :class:`GrammarError` at the first key that does not fit, naming
the file, line, column, key and what the schema expects there.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codegen.errors import GrammarError, Mark
from codegen.yaml_source import YList, YMap, load_yaml

VERSION_RE = re.compile(r"^(1\.[0-9]|None)$")


@dataclass(frozen=True)
class KeySpec:
    """One allowed key of a record."""

    type: str
    required: bool
    enum: tuple[str, ...] | None
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Schema:
    """The parsed schema: file patterns → record names, record names → keys."""

    files: dict[str, str]
    records: dict[str, dict[str, KeySpec]]

    def record_for(self, relative_path: str) -> str | None:
        """The record a grammar file (path relative to grammars/) must match."""
        for pattern, record in self.files.items():
            if fnmatch.fnmatchcase(relative_path, pattern):
                return record
        return None


def load_schema(path: Path) -> Schema:
    """Read ``schema.yaml``; a broken schema is itself reported as a GrammarError."""
    raw = load_yaml(path, display_name=path.name)
    if not isinstance(raw, YMap) or "files" not in raw or "records" not in raw:
        raise GrammarError(Mark(path.name, 1, 1), "files/records", "the two top-level keys")
    records: dict[str, dict[str, KeySpec]] = {}
    for name, body in raw["records"].items():
        keys: dict[str, KeySpec] = {}
        for key, spec in body["keys"].items():
            enum = spec.get("enum")
            keys[key] = KeySpec(
                type=str(spec["type"]),
                required=bool(spec.get("required", False)),
                enum=tuple(str(e) for e in enum) if enum is not None else None,
                minimum=spec.get("min"),
                maximum=spec.get("max"),
            )
        records[name] = keys
    return Schema(files={str(k): str(v) for k, v in raw["files"].items()}, records=records)


def _describe(value: Any) -> str:
    if isinstance(value, YMap):
        return "a mapping"
    if isinstance(value, YList):
        return "a list"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    return f"a {type(value).__name__}"


def _type_words(type_name: str) -> str:
    if type_name.startswith("list["):
        return f"a list of {_type_words(type_name[5:-1])}"
    if type_name.startswith("map["):
        return f"a mapping of names to {_type_words(type_name[4:-1])}"
    return {
        "str": "a string",
        "int": "an integer",
        "bool": "true or false",
        "version": 'a version string like "1.3" or "None"',
        "quantifier": "'?' or '*'",
    }.get(type_name, f"a {type_name} mapping")


class SchemaChecker:
    """Checks values against one loaded :class:`Schema`."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema

    def check_file(self, value: Any, record: str, mark: Mark) -> None:
        """Check a whole file's top-level value against ``record``."""
        self._check(value, record, mark, "(file)")

    def _check(self, value: Any, type_name: str, mark: Mark, key: str) -> None:
        if type_name.startswith("list["):
            inner = type_name[5:-1]
            if not isinstance(value, YList):
                raise GrammarError(mark, key, _type_words(type_name), _describe(value))
            for index, item in enumerate(value):
                self._check(item, inner, value.mark_of(index), f"{key}[{index}]")
            return
        if type_name.startswith("map["):
            inner = type_name[4:-1]
            if not isinstance(value, YMap):
                raise GrammarError(mark, key, _type_words(type_name), _describe(value))
            for name, item in value.items():
                self._check(item, inner, value.value_mark_of(name), name)
            return
        if type_name in self.schema.records:
            self._check_record(value, type_name, mark, key)
            return
        self._check_scalar(value, type_name, mark, key)

    def _check_record(self, value: Any, record: str, mark: Mark, key: str) -> None:
        if not isinstance(value, YMap):
            raise GrammarError(mark, key, _type_words(record), _describe(value))
        keys = self.schema.records[record]
        for name, item in value.items():
            spec = keys.get(name)
            if spec is None:
                allowed = ", ".join(sorted(keys))
                raise GrammarError(
                    value.mark_of(name),
                    name,
                    f"one of the keys of {record}: {allowed}",
                    "an unknown key",
                )
            self._check(item, spec.type, value.value_mark_of(name), name)
            if spec.enum is not None and item not in spec.enum:
                raise GrammarError(
                    value.value_mark_of(name),
                    name,
                    "one of " + ", ".join(spec.enum),
                    _describe(item),
                )
            self._check_range(item, spec, value.value_mark_of(name), name)
        for name, spec in keys.items():
            if spec.required and name not in value:
                raise GrammarError(
                    value.mark, name, f"the required key '{name}' in {record}", "it missing"
                )

    @staticmethod
    def _check_range(value: Any, spec: KeySpec, mark: Mark, key: str) -> None:
        low, high = spec.minimum, spec.maximum
        if not isinstance(value, int) or (low is None and high is None):
            return
        if (low is not None and value < low) or (high is not None and value > high):
            words = (
                f"an integer from {low} to {high} (0x{high:x})"
                if low is not None and high is not None
                else f"an integer of at least {low}"
                if low is not None
                else f"an integer of at most {high}"
            )
            raise GrammarError(mark, key, words, _describe(value))

    @staticmethod
    def _check_scalar(value: Any, type_name: str, mark: Mark, key: str) -> None:
        ok: bool
        if type_name == "str":
            ok = isinstance(value, str)
        elif type_name == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif type_name == "bool":
            ok = isinstance(value, bool)
        elif type_name == "version":
            ok = isinstance(value, str) and VERSION_RE.match(value) is not None
        elif type_name == "quantifier":
            ok = value in ("?", "*")
        else:  # pragma: no cover - a schema typo, caught by the schema test
            raise GrammarError(mark, key, f"a known schema type, not {type_name!r}")
        if not ok:
            raise GrammarError(mark, key, _type_words(type_name), _describe(value))
