"""Reflection as JSON, and the JSON Schema that documents it.

:func:`to_dict` turns a :class:`~spvbuild.reflection.records.Reflection` into plain JSON
values, field by field (a record → an object with one key per field, a tuple → an array,
``None`` → ``null``); :func:`to_json` writes that as text.  Types are written once, by
reference: the top-level ``types`` array holds each
:class:`~spvbuild.reflection.records.TypeInfo` met, in id order, and every field that holds a
type (``type``, ``element``, a member's ``type``) holds that type's id; a default holding more
than :data:`~spvbuild.reflection.records.SHOWN_SCALARS` scalars is written as ``null``.  So
the JSON of a module grows linearly with it, even where types share their members as a DAG
(``s_k = {s_(k-1), s_(k-1)}``).  :data:`SCHEMA` is the JSON
Schema (draft 2020-12) of the result, made from the same records' type annotations, so it
cannot drift from them: one ``$defs`` entry per record with its docstring as the
description; every key is always present.  ``spvbuild reflect --schema`` prints it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from typing import Any

from spvbuild.reflection import records
from spvbuild.reflection.records import SHOWN_SCALARS, Reflection, TypeInfo, scalar_count

__all__ = ["SCHEMA", "SCHEMA_VERSION", "to_dict", "to_json"]

SCHEMA_VERSION = 2
"""Bumped whenever a key changes meaning or goes away (new keys keep it)."""


def to_dict(reflection: Reflection) -> dict[str, Any]:
    """``reflection`` as plain JSON values, with ``schema_version`` first and ``types`` last."""
    types: dict[int, TypeInfo] = {}
    body = _Writer(types).value(reflection)
    assert isinstance(body, dict)
    table = _Writer(types)
    described: list[Any] = []
    written: set[int] = set()
    while len(written) < len(types):  # a type's fields may name types not met yet
        for tid in sorted(set(types) - written):
            written.add(tid)
            described.append(table.record(types[tid]))
    described.sort(key=lambda entry: entry["id"])
    return {"schema_version": SCHEMA_VERSION, **body, "types": described}


def to_json(reflection: Reflection, *, indent: int | None = 2) -> str:
    """``reflection`` as JSON text (see :data:`SCHEMA`)."""
    return json.dumps(to_dict(reflection), indent=indent)


def _richness(info: TypeInfo) -> int:
    """How much a description says (a type met again inside itself is described without
    its contents; the full description wins)."""
    return sum(getattr(info, f.name) not in (None, ()) for f in dataclasses.fields(info))


class _Writer:
    """Records to JSON values, each :class:`TypeInfo` met collected into ``types`` and
    written as its id."""

    def __init__(self, types: dict[int, TypeInfo]) -> None:
        self.types = types

    def record(self, value: Any) -> dict[str, Any]:
        out = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if field.name == "default" and scalar_count(item) > SHOWN_SCALARS:
                item = None  # a SpecValue too large to write out
            out[field.name] = self.value(item)
        return out

    def value(self, value: Any) -> Any:
        if isinstance(value, TypeInfo):
            known = self.types.get(value.id)
            if known is None or (known is not value and _richness(value) > _richness(known)):
                self.types[value.id] = value
            return value.id
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self.record(value)
        if isinstance(value, tuple | list):
            return [self.value(v) for v in value]
        if isinstance(value, float) and not math.isfinite(value):
            return None  # JSON has no infinities or NaN: such a default is written as null
        return value


# -- the schema, from the records' annotations ---------------------------------------

_RECORDS = {
    name: cls
    for name in records.__all__
    if dataclasses.is_dataclass(cls := getattr(records, name)) and isinstance(cls, type)
}


def _schema_of(annotation: Any) -> dict[str, Any]:
    """The JSON Schema of one annotated field type."""
    if annotation is type(None):
        return {"type": "null"}
    if annotation is bool:
        return {"type": "boolean"}
    if annotation is int:
        return {"type": "integer"}
    if annotation is float:
        return {"type": "number"}
    if annotation is str:
        return {"type": "string"}
    if isinstance(annotation, typing.ForwardRef):  # SpecValue, in its own definition
        return {"$ref": f"#/$defs/{annotation.__forward_arg__}"}
    if annotation is TypeInfo:
        return {"type": "integer", "description": "A type's id: its TypeInfo is in `types`."}
    if isinstance(annotation, type) and annotation.__name__ in _RECORDS:
        return {"$ref": f"#/$defs/{annotation.__name__}"}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema_of(a) for a in args]}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema_of(args[0])}
        return {
            "type": "array",
            "prefixItems": [_schema_of(a) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    raise TypeError(f"reflection schema: no JSON form for {annotation!r}")


def _spec_value_schema() -> dict[str, Any]:
    return {
        "description": "A constant's value at its defaults: a scalar, an array for a "
        "composite, null where it cannot be worked out.",
        "anyOf": [
            {"type": "boolean"},
            {"type": "integer"},
            {"type": "number"},
            {"type": "null"},
            {"type": "array", "items": {"$ref": "#/$defs/SpecValue"}},
        ],
    }


def _record_schema(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, vars(records))
    properties: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        properties[field.name] = _schema_of(hints[field.name])
    return {
        "type": "object",
        "description": " ".join((cls.__doc__ or "").split()),
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _schema() -> dict[str, Any]:
    defs = {name: _record_schema(cls) for name, cls in sorted(_RECORDS.items())}
    defs["SpecValue"] = _spec_value_schema()
    top = dict(defs["Reflection"])
    types = {"type": "array", "items": {"$ref": "#/$defs/TypeInfo"}}
    top["properties"] = {
        "schema_version": {"const": SCHEMA_VERSION},
        **top["properties"],
        "types": types,
    }
    top["required"] = ["schema_version", *top["required"], "types"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://spvbuild.invalid/schemas/reflection-v2.json",
        "title": "spvbuild reflection",
        **top,
        "$defs": defs,
    }


SCHEMA: dict[str, Any] = _schema()
"""The JSON Schema (draft 2020-12) of :func:`to_dict`'s output."""
