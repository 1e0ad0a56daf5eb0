"""The operand checks of the generated words paths, and the words of an enumerant.

A generated method writes its instruction's words at the call only when every operand
passes the checks here (ids handed out already, 32-bit literals, ASCII strings,
enumerants the tables know); anything else goes the general path, whose encoder names
what is wrong.  Everything is read from the tables the generated module passes in.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Final

from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.strings import string_words
from spvbuild.spirv.tables import KindInfo

__all__ = [
    "FAST_IDS",
    "NO_STREAK",
    "bare_values",
    "enum_classes",
    "enumerant_words",
    "ids_below",
    "literals32",
    "parameter_bits",
]

FAST_IDS = (Id, TypeId)
"""The types of the operands the generated fast path takes (ids the builder handed out)."""

NO_STREAK: Final = object()
"""What a module's streak attributes (``_streak_int``, ...) hold while the current streak
of fast-path values lacks their bits: an object no argument is, so that a fast path tells
a call that continues the streak by one identity test of its result type
(:mod:`spvbuild.ir.value_types`)."""


def ids_below(items: Sequence[object], bound: int) -> bool:
    """Whether every item is an id the builder handed out (an Id below ``bound``): the
    check of a variadic id operand on a words path."""
    for item in items:
        if item.__class__ not in FAST_IDS or not 0 < item < bound:
            return False
    return True


def literals32(items: Sequence[object]) -> bool:
    """Whether every item is an int of one word: the check of a variadic literal operand
    on a words path."""
    for item in items:
        if item.__class__ is not int or not 0 <= item < 4294967296:
            return False
    return True


def bare_values(kind: KindInfo) -> frozenset[int]:
    """The values of a ValueEnum kind's enumerants that take no parameters (what the
    generated words paths accept without the general encoder)."""
    return frozenset(v for v, e in kind.enumerants.items() if not e.parameters)


def enum_classes(enum_class: type) -> frozenset[type]:
    """The classes a words path takes for an operand of an enum kind: ``int`` and the
    kind's own enum class (a bool, or another kind's member, takes the general path)."""
    return frozenset({int, enum_class})


def parameter_bits(kind: KindInfo) -> int:
    """The bits of a BitEnum kind whose enumerants take parameters (or-ed together)."""
    bits = 0
    for value, enumerant in kind.enumerants.items():
        if enumerant.parameters:
            bits |= value
    return bits


# How enumerant_words checks one parameter: a 32-bit literal, an id, a string, a bare
# enumerant of a ValueEnum kind (with that kind's classes and bare values).
_LITERAL, _ID, _STRING, _BARE = range(4)
_Step = tuple[str, int, frozenset[type], frozenset[int]]
_Plan = tuple[int, tuple[_Step, ...]]
# Per kind name: per class of a value given for it, its plan (None: no words path).
_enumerant_plans: dict[str, dict[type, _Plan | None]] = {}
_PLANS_KEPT = 512  # classes per kind (a user's own classes make no plan beyond it)
_bare: dict[str, frozenset[int]] = {}  # per kind name (names come from generated code)


def _make_plan(cls: type, kinds: Mapping[str, KindInfo], kind_name: str) -> _Plan | None:
    """How to write an enumerant-parameter class's words for ``kind_name`` (None: only
    the general encoder can, or must say what is wrong)."""
    enumerant = getattr(cls, "enumerant", None)
    kind = kinds.get(kind_name)
    if kind is None or not isinstance(enumerant, int) or type(enumerant).__name__ != kind_name:
        return None
    info = kind.enumerants.get(int(enumerant))
    fields = getattr(cls, "fields", ())
    if info is None or len(fields) != len(info.parameters):
        return None
    # The enum classes of the parameters' kinds live beside the enumerant's own class.
    enums = sys.modules.get(type(enumerant).__module__)
    steps: list[_Step] = []
    nothing = frozenset[int]()
    for name, op in zip(fields, info.parameters, strict=True):
        found = kinds.get(op.kind)
        category = found.category if found is not None else ""
        if op.quantifier:
            return None
        if category == "Id":
            steps.append((name, _ID, frozenset(), nothing))
        elif op.kind == "LiteralInteger":
            steps.append((name, _LITERAL, frozenset(), nothing))
        elif op.kind == "LiteralString":
            steps.append((name, _STRING, frozenset(), nothing))
        elif category == "ValueEnum" and found is not None:
            enum_class = getattr(enums, op.kind, None)
            if not isinstance(enum_class, type):
                return None
            steps.append((name, _BARE, enum_classes(enum_class), bare_values(found)))
        else:
            return None
    return (int(enumerant), tuple(steps))


def enumerant_words(
    value: object, kinds: Mapping[str, KindInfo], kind_name: str, bound: int
) -> list[int] | None:
    """The words of a ValueEnum operand of kind ``kind_name`` (of the tables ``kinds``)
    whose enumerants may take parameters: a bare enumerant (or int) of a value without
    parameters, or a parameter object whose parameters are ids below ``bound``, 32-bit
    literals, ASCII strings or bare enumerants.  None for anything else: the general
    encoder decides (and names what is wrong)."""
    cls = value.__class__
    plans = _enumerant_plans.get(kind_name)
    if plans is None:
        plans = _enumerant_plans[kind_name] = {}
    if cls in plans:
        plan = plans[cls]
    else:
        plan = _make_plan(cls, kinds, kind_name)
        if len(plans) < _PLANS_KEPT:
            plans[cls] = plan
    if plan is None:
        if cls is int or cls.__name__ == kind_name:
            bare = _bare.get(kind_name)
            if bare is None:
                kind = kinds.get(kind_name)
                bare = _bare[kind_name] = frozenset() if kind is None else bare_values(kind)
            if value in bare:
                return [value]
        return None
    number, steps = plan
    words = [number]
    for name, how, classes, bare in steps:
        item = getattr(value, name)
        if how == _LITERAL:
            if item.__class__ is not int or not 0 <= item < 4294967296:
                return None
        elif how == _ID:
            if item.__class__ not in FAST_IDS or not 0 < item < bound:
                return None
        elif how == _STRING:
            if item.__class__ is not str or not item.isascii() or "\0" in item:
                return None
            words += string_words(item)
            continue
        elif item.__class__ not in classes or item not in bare:
            return None
        words.append(item)
    return words
