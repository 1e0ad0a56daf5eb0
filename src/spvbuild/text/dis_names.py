"""Friendly names: the ``%uint``, ``%v4float``, ``%_ptr_Function_int``, ``%uint_0`` of
``spirv-dis``.

The rules (SPIRV-Tools' friendly name mapper, checked against ``spirv-dis`` 2025.5)
-----------------------------------------------------------------------------------
Names are decided in one pass over the module, in order, before any text is printed; the
first name given to an id sticks.

* ``OpName %x "s"`` names ``%x`` after ``s``.
* ``OpDecorate %x BuiltIn B`` names ``%x`` for the built-ins of
  :data:`spvbuild.text.dis_data.BUILTIN_NAMES` (``gl_GlobalInvocationID``, ...).
* Type declarations and ``OpConstantTrue``/``OpConstantFalse`` name their result by
  :data:`~spvbuild.text.dis_data.TYPE_NAMES` (``v4float``, ``_ptr_Input_v3uint``, ...),
  ``OpTypeInt``/``OpTypeFloat`` by width, signedness and encoding, ``OpConstant`` by its
  type and value (``uint_0``, ``int_n1``, ``float_0_5``).  A component named later (a
  forward pointer's pointee) appears as its number.
* Any other result id is named by its number.

A suggestion longer than 256 bytes (:data:`MAX_SUGGESTED`, counted before sanitizing)
is replaced by the id's decimal number, as SPIRV-Tools does since v2026.3
(``FriendlyNameMapper::SaveName``; ``spirv-dis`` 2025.5 keeps the whole suggestion, so the
two agree wherever every suggestion fits).  This bounds every name, so a chain of types
(``_ptr_Function__ptr_Function_...``) costs linear time and memory.  A suggestion is then
sanitized (every byte outside ``[A-Za-z0-9_]`` becomes ``_``; an empty one is ``_``); if the
name is taken, ``_0``, ``_1``, ... is appended until it is free.  So a later name can never
change an earlier one and every name is unique.

Speed
-----
Most instructions (function bodies) keep their number, so :func:`friendly_names` visits
only the instructions that may name something and returns the names that differ from the
number.  That is exact unless an ``OpName`` spells a plain number (it may then collide
with an id's own number) or names an id after its definition (the definition's number
wins); then the complete in-order pass runs (:func:`exact_names`, also the reference the
tests compare with).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from spvbuild.binary.framing import frame, offsets
from spvbuild.binary.number_types import declared_number_type
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_DECORATE,
    OP_NAME,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
)
from spvbuild.spirv.strings import string_at
from spvbuild.text.dis_data import (
    BUILTIN_NAMES,
    FLOAT_ENCODING_NAMES,
    FLOAT_NAMES,
    INT_NAMES,
    TYPE_NAMES,
)
from spvbuild.text.dis_grammar import ENUM, ID, LIT, RID, RT, STR, CoreGrammar, Plan, core_grammar
from spvbuild.text.dis_numbers import (
    NumberType,
    literal_text,
    word_count,
    word_formatter,
)

__all__ = [
    "MAX_SUGGESTED",
    "NameRules",
    "exact_names",
    "friendly_names",
    "name_rules",
    "sanitize",
    "too_long",
]


_INVALID = re.compile(r"[^A-Za-z0-9_]")
_INVALID_BYTES = bytes(
    c if chr(c).isascii() and (chr(c).isalnum() or c == 0x5F) else 0x5F for c in range(256)
)
_NUMBER = re.compile(r"[1-9][0-9]*")

MAX_SUGGESTED = 256
"""A suggested name longer than this many bytes names the id by its number instead
(SPIRV-Tools' ``FriendlyNameMapper::SaveName`` since v2026.3)."""


def sanitize(name: str) -> str:
    """Every byte (of the UTF-8 form) outside ``[A-Za-z0-9_]`` becomes ``_``; ``""`` → ``_``."""
    if not name:
        return "_"
    if name.isascii():
        if name.isalnum() or name.replace("_", "").isalnum():
            return name
        return _INVALID.sub("_", name)
    return name.encode("utf-8", "surrogateescape").translate(_INVALID_BYTES).decode("ascii")


Template = tuple[tuple[int, Any], ...]  # (0, text) | (1, word offset, slot) | (2, None)=#


class NameRules:
    """The naming rules of :mod:`spvbuild.text.dis_data` bound to the core plans."""

    def __init__(self, core: CoreGrammar) -> None:
        self.core = core
        self.templates: dict[int, Template] = {}
        for op_name, pattern in TYPE_NAMES.items():
            opcode = core.by_name.get(op_name)
            if opcode is not None:
                self.templates[opcode] = self._compile(core.plans[opcode], pattern)
        builtin = core.enum("BuiltIn")
        by_name = {name: value for value, name in builtin.names.items()}
        self.builtins = {by_name[k]: v for k, v in BUILTIN_NAMES.items() if k in by_name}
        decorations = {name: value for value, name in core.enum("Decoration").names.items()}
        self.built_in: int = decorations["BuiltIn"]
        """The value of Decoration.BuiltIn (an OpDecorate that names a builtin)."""
        encoding = core.enum("FPEncoding")
        self.encodings: dict[int, str] = {}
        """The type-name root of each FPEncoding value spirv-dis names (e.g. bfloat16)."""
        for value, name in encoding.names.items():
            if name in FLOAT_ENCODING_NAMES:
                self.encodings[value] = FLOAT_ENCODING_NAMES[name]
        # opcodes the fast pass must look at
        self.special = frozenset(
            {OP_NAME, OP_DECORATE, OP_TYPE_INT, OP_TYPE_FLOAT, OP_CONSTANT, *self.templates}
        )

    @staticmethod
    def _compile(plan: Plan, pattern: str) -> Template:
        parts: list[tuple[int, Any]] = []
        for piece in re.split(r"(\{[^}]*\})", pattern):
            if not piece:
                continue
            if piece == "{#}":
                parts.append((2, None))
            elif piece.startswith("{"):
                offset = int(piece[1:-1])
                slot = plan.slots[offset - 1]
                assert slot[0] in (ID, RT, LIT, ENUM, STR, RID), (plan.name, pattern)
                parts.append((1, (offset, slot)))
            else:
                parts.append((0, piece))
        return tuple(parts)

    # -- number types --------------------------------------------------------------------
    def number_type(self, words: Sequence[int], i: int) -> NumberType | None:
        """The literal format of the numeric type declared at ``i`` (None if not numeric)."""
        return declared_number_type(words[i] & 0xFFFF, words[i + 2 : i + (words[i] >> 16)])

    def type_name(self, words: Sequence[int], i: int) -> str | None:
        """The suggested name of an OpTypeInt / OpTypeFloat at ``i``."""
        op = words[i] & 0xFFFF
        width = words[i + 2]
        if op == OP_TYPE_INT:
            root = INT_NAMES.get(width)
            prefix = "" if root is not None else "i"
            if root is None:
                root = str(width)
            if words[i + 3] == 0:
                prefix = "u"
            return prefix + root
        if words[i] >> 16 > 3:
            return self.encodings.get(words[i + 3])
        return FLOAT_NAMES.get(width) or f"fp{width}"

    def template_name(
        self, words: Sequence[int], i: int, template: Template, name_of: Callable[[int], str]
    ) -> str | None:
        """The suggested name from a TYPE_NAMES template (None if the words are short)."""
        end = i + (words[i] >> 16)
        out: list[str] = []
        for code, value in template:
            if code == 0:
                out.append(value)
            elif code == 2:
                if i + 1 >= end:
                    return None
                out.append(str(words[i + 1]))
            else:
                offset, slot = value
                if i + offset >= end:
                    return None
                word = words[i + offset]
                kind = slot[0]
                if kind in (ID, RT, RID):
                    out.append(name_of(word))
                elif kind == LIT:
                    out.append(str(word))
                elif kind == ENUM:
                    out.append(slot[2].names.get(word, f"StorageClass{word}"))
                else:
                    found = string_at(words, i + offset, end)
                    if found is None:
                        return None
                    out.append(sanitize(found[0]))
        return "".join(out)


_RULES: NameRules | None = None


def name_rules() -> NameRules:
    """The rules, bound to the core plans once per process."""
    global _RULES
    if _RULES is None:
        _RULES = NameRules(core_grammar())
    return _RULES


def too_long(suggested: str) -> bool:
    """True if the suggestion is over :data:`MAX_SUGGESTED` bytes (of its UTF-8 form)."""
    if len(suggested) > MAX_SUGGESTED:
        return True
    if suggested.isascii():
        return False
    return len(suggested.encode("utf-8", "surrogateescape")) > MAX_SUGGESTED


class _Namer:
    """The names given so far: SPIRV-Tools' SaveName / NameForId."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.used: set[str] = set()
        # base + "_" → the first index not tried yet: every smaller one is in `used`
        # (which only grows), so each clash costs one probe, not one per earlier clash
        self.next_index: dict[str, int] = {}
        self.numbered = False  # a suggestion was too long: some names are numbers

    def save(self, target: int, suggested: str) -> None:
        names = self.names
        if target in names:
            return
        if too_long(suggested):
            name = str(target)
            self.numbered = True
        else:
            name = sanitize(suggested)
        used = self.used
        if name in used:
            base = name + "_"
            index = self.next_index.get(base, 0)
            while (candidate := base + str(index)) in used:
                index += 1
            self.next_index[base] = index + 1
            name = candidate
        used.add(name)
        names[target] = name

    def name_of(self, target: int) -> str:
        found = self.names.get(target)
        return found if found is not None else str(target)


def _special(
    rules: NameRules,
    namer: _Namer,
    words: Sequence[int],
    i: int,
    op: int,
    numbers: dict[int, NumberType],
    constant_prefix: dict[int, str],
) -> bool:
    """Name what the instruction at ``i`` names; False if it is malformed (the printer will
    reject the module, so naming stops)."""
    w0 = words[i]
    end = i + (w0 >> 16)
    if op == OP_CONSTANT:
        if end - i < 4:
            return False
        type_id = words[i + 1]
        target = words[i + 2]
        number = numbers.get(type_id)
        if number is None:
            return False
        if word_count(number.width) > end - i - 3:
            return False
        text = literal_text(number, words, i + 3).replace("-", "n")
        prefix = constant_prefix.get(type_id)
        if prefix is None:
            prefix = constant_prefix[type_id] = namer.name_of(type_id) + "_"
        namer.save(target, prefix + text)
        return True
    if op == OP_NAME:
        if end - i < 3:
            return False
        found = string_at(words, i + 2, end)
        if found is None:
            return False
        namer.save(words[i + 1], found[0])
        return True
    if op == OP_DECORATE:
        if end - i >= 4 and words[i + 2] == rules.built_in:
            builtin = rules.builtins.get(words[i + 3])
            if builtin is not None:
                namer.save(words[i + 1], builtin)
        return True
    if op == OP_TYPE_INT or op == OP_TYPE_FLOAT:
        if end - i < 4 - (op == OP_TYPE_FLOAT):
            return False
        suggested = rules.type_name(words, i)
        number = rules.number_type(words, i)
        if suggested is None or number is None:
            return False
        namer.save(words[i + 1], suggested)
        numbers[words[i + 1]] = number
        return True
    target = i + 1 + rules.core.plans[op].has_rt
    if target >= end:
        return False
    suggested = rules.template_name(words, i, rules.templates[op], namer.name_of)
    if suggested is None:
        return False
    namer.save(words[target], suggested)
    return True


def framed_end(words: Sequence[int]) -> int:
    """Where the binary room's framing of a module's words stops
    (:func:`spvbuild.binary.framing.frame`): the names stop there, as the printer does."""
    if not isinstance(words, array):
        words = array("I", words)
    return frame(words).end


def exact_names(words: Sequence[int], end: int | None = None) -> dict[int, str]:
    """Every id's friendly name, by the complete in-order pass (ids not listed keep their
    number: they are never defined nor named).  ``end``: see :func:`friendly_names`."""
    rules = name_rules()
    plans = rules.core.plans
    special = rules.special
    namer = _Namer()
    numbers: dict[int, NumberType] = {}
    prefixes: dict[int, str] = {}
    for i in offsets(words, 5, framed_end(words) if end is None else end):
        op = words[i] & 0xFFFF
        plan = plans.get(op)
        if plan is None:
            break
        if op in special:
            if not _special(rules, namer, words, i, op, numbers, prefixes):
                break
        elif plan.has_rid:
            pos = i + 1 + plan.has_rt
            if pos >= i + (words[i] >> 16):
                break
            target = words[pos]
            if target not in namer.names:
                namer.save(target, str(target))
    return namer.names


def friendly_names(words: Sequence[int], end: int | None = None) -> dict[int, str]:
    """The friendly names that differ from the id's number (see the module docstring).

    ``words`` is a module's words, header included; the names stop where the binary
    room's framing does (``end``: :attr:`spvbuild.binary.framing.Framing.end`, found here
    when not given): there the printer stops too, with an error."""
    rules = name_rules()
    special = rules.special
    builtins = rules.builtins
    built_in = rules.built_in
    namer = _Namer()
    names = namer.names
    used = namer.used
    numbers: dict[int, NumberType] = {}
    prefixes: dict[int, str] = {}
    # one-word OpConstant by type id: (name prefix, value formatter), made on first use
    makers: dict[int, tuple[str, Callable[[int], str]]] = {}
    first_event: dict[int, int] = {}  # OpName / BuiltIn target → first event's offset
    last_event = 0
    n = framed_end(words) if end is None else end
    i = 5
    while i < n:
        w0 = words[i]
        op = w0 & 0xFFFF
        if op in special:
            if op == OP_CONSTANT and w0 >> 16 == 4:
                maker = makers.get(words[i + 1])
                if maker is None:
                    number = numbers.get(words[i + 1])
                    formatter = word_formatter(number) if number is not None else None
                    if formatter is not None:
                        maker = makers[words[i + 1]] = (
                            namer.name_of(words[i + 1]) + "_",
                            formatter,
                        )
                if maker is not None:
                    target = words[i + 2]
                    if target not in names:
                        text = maker[1](words[i + 3])
                        name = maker[0] + text.replace("-", "n").replace(".", "_").replace("+", "_")
                        if name in used or len(name) > MAX_SUGGESTED:
                            namer.save(target, name)
                        else:
                            used.add(name)
                            names[target] = name
                    i += 4
                    continue
            if (op == OP_NAME and w0 >> 16 >= 2) or (
                op == OP_DECORATE
                and w0 >> 16 >= 4
                and words[i + 2] == built_in
                and words[i + 3] in builtins
            ):
                first_event.setdefault(words[i + 1], i)
                last_event = i
            if not _special(rules, namer, words, i, op, numbers, prefixes):
                break
        i += w0 >> 16
    if first_event:
        if any(_NUMBER.fullmatch(names.get(target, "")) for target in first_event):
            return _numbers_only(exact_names(words, n))
        if _named_late(words, first_event, last_event, special):
            return _numbers_only(exact_names(words, n))
    return _numbers_only(names) if namer.numbered else names


def _numbers_only(names: dict[int, str]) -> dict[int, str]:
    return {target: name for target, name in names.items() if name != str(target)}


def _named_late(
    words: Sequence[int], first_event: dict[int, int], last_event: int, special: frozenset[int]
) -> bool:
    """True if an id named by OpName/BuiltIn is defined (with its number) before that."""
    plans = name_rules().core.plans
    for i in offsets(words, 5, last_event):
        op = words[i] & 0xFFFF
        plan = plans.get(op)
        if plan is None:
            return False
        pos = i + 1 + plan.has_rt
        if plan.has_rid and op not in special and pos < i + (words[i] >> 16):
            event = first_event.get(words[pos])
            if event is not None and i < event:
                return True
    return False
