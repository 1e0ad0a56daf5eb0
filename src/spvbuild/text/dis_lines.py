"""The disassembler's fast paths: a line maker per first word, made from the binary room's
readings of the words.

The binary room (:mod:`spvbuild.binary.plans`) decides, for every first word (opcode and word count), how
an instruction's operand words are read (:meth:`~spvbuild.binary.plans.CorePlan.reading`;
:meth:`~spvbuild.binary.plans.CorePlan.ext_reading` for the operands of an ``OpExtInst``
of a set): one word per operand (an id, a plain literal, an enum value without
parameters), then maybe a variadic operand of such words (or of pairs of ids), optional
operands absent.  The printer does not decide that again: for such a first word its line
is one f-string in which each operand word indexes what prints it, the ``%name`` list for
an id (a pair prints as two ids), the texts of the enum kind
(:attr:`~spvbuild.text.dis_grammar.EnumKind.simple`) for an enum value, nothing for a
literal (its number).  A one-word ``OpConstant`` prints its value with the formatter of
its type; an ``OpExtInst`` hands over to the line maker of its set's instruction (by set
id, instruction number and first word, see :class:`spvbuild.text.disassembler`).

The source of a line maker is made from word positions only, never from input data (as
``collections.namedtuple`` builds its class); each distinct one is compiled once per
process, and bound to one module's lists per first word.  A lookup that fails (id 0: the
marker that no f-string accepts; an id past the lists; an enum value outside the texts;
a result id already defined, whose entry is None) raises before anything changes, and
the printer hands that instruction to its reference path, which prints it or says why
not.  What the reference path decides alone: everything that changes its state (types,
``OpExtInstImport``, ``OpSwitch``), enum values with parameters, strings, floats and the
kinds ``spirv-dis`` cannot print.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from spvbuild.binary.plans import (
    PARAMS,
    SPEC_ID,
    SPEC_LITERAL,
    SPEC_PAIR,
    STRING,
    VARIADIC,
    Reading,
    core_plan,
    ext_tables,
)
from spvbuild.binary.read_codes import CONSTANT, EXT
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT, OP_SWITCH
from spvbuild.text.dis_data import UNHANDLED_KINDS
from spvbuild.text.dis_grammar import ExtGrammar, core_grammar

__all__ = ["INDENT", "Line", "LineRecipe", "core_recipe", "ext_recipe"]

INDENT: Final = 15
"""Column (0-based) where opcodes start; result ids end 3 columns before it."""

Line = Callable[[int], str]
"""A line maker: the offset of an instruction → its line."""

_DIRECT = 8  # up to this many variadic words a line indexes one by one
_MEMO_LIMIT = 1 << 14  # entries of a memo keyed by input words

# How a line prints an operand word (item: (form, word index)):
_ID = "R"  # the %name of the id
_WORD = "W"  # the word as a number
_TEXT = "E"  # the word's text in a bound lookup (an enum kind's texts)
_FIXED = "N"  # a bound text (an extended instruction's name), no word
_CONSTANT = "C"  # the word formatted by its type (the formatter of the type id at word 1)
_IDS = _ID + "*"  # the ids from the index to the end
_WORDS = _WORD + "*"  # the words from the index to the end
_TEXTS = _TEXT + "*"  # the words' texts in a bound lookup, from the index to the end
_EXT = "X"  # no item: the line of the OpExtInst's set instruction (see ext_recipe)
_Item = tuple[str, int]

# The names every line maker is made with: one module's words, %names (and their
# __getitem__), definitions (entries set to None), paddings, constant formatters, " ".join
# and the line makers of OpExtInst by set id; then a recipe's values: the text before the
# operands (H), the word count (WC) and what the items bind (V0, V1, ...).
_COMMON = "words, R, RG, D, P, C, J, X, H, WC"


class LineRecipe(NamedTuple):
    """How to make the line maker of a first word: ``make(*common, *values)``."""

    make: Callable[..., Line]
    values: tuple[Any, ...]


_MAKERS: dict[tuple[int, tuple[_Item, ...]], Callable[..., Line]] = {}  # bounded by shapes
_CORE: dict[tuple[int, bool], LineRecipe | None] = {}
_EXTS: dict[tuple[str, int, int], LineRecipe | None] = {}


def core_recipe(first: int, indent: bool) -> LineRecipe | None:
    """The recipe of the line maker of a core instruction's first word, or None (the
    reference path prints it)."""
    key = (first, indent)
    if key in _CORE:
        return _CORE[key]
    found = _core_recipe(first, indent)
    if len(_CORE) < _MEMO_LIMIT:
        _CORE[key] = found
    return found


def ext_recipe(ext: ExtGrammar, number: int, first: int) -> LineRecipe | None:
    """The recipe of the line maker of an ``OpExtInst`` (``first``: its first word) of
    instruction ``number`` of a set that prints by name, or None."""
    key = (ext.name, number, first)
    if key in _EXTS:
        return _EXTS[key]
    found = _ext_recipe(ext, number, first)
    if len(_EXTS) < _MEMO_LIMIT:
        _EXTS[key] = found
    return found


def _core_recipe(first: int, indent: bool) -> LineRecipe | None:
    opcode = first & 0xFFFF
    plan = core_grammar().plans.get(opcode)
    if plan is None or plan.is_type or opcode in (OP_EXT_INST_IMPORT, OP_SWITCH):
        return None  # unknown, or it changes the reference path's state
    binary = core_plan()
    has_rt, has_rid, _ = binary.header[opcode]
    if (has_rt, has_rid) != (plan.has_rt, plan.has_rid):  # pragma: no cover - same tables
        return None
    bare = f" = {plan.name}" if has_rid else (" " * INDENT if indent else "") + plan.name
    code = binary.code(first)
    if code == CONSTANT:
        return _recipe(2, ((_ID, 1), (_CONSTANT, 3)), bare, first, [])
    if code == EXT:
        return _recipe(2, ((_EXT, 0),), "", first, [first])
    reading = binary.reading(first)
    if reading is None:
        return None
    items: list[_Item] = [(_ID, 1)] if has_rt else []
    values: list[Any] = []
    pos = 1 + has_rt + has_rid
    if not _operands(reading, pos, core_grammar().namespace.enum, items, values):
        return None
    return _recipe(pos - 1 if has_rid else 0, tuple(items), bare, first, values)


def _ext_recipe(ext: ExtGrammar, number: int, first: int) -> LineRecipe | None:
    plan = core_grammar().plans.get(first & 0xFFFF)
    ext_plan = ext.plans.get(number)
    tables = ext_tables(ext.name)
    if plan is None or ext_plan is None or tables is None:
        return None
    reading = core_plan().ext_reading(tables, number, first)
    if reading is None:
        return None
    items: list[_Item] = [(_ID, 1), (_ID, 3), (_FIXED, 0)]
    values: list[Any] = [ext_plan.name]
    if not _operands(reading, 5, ext.namespace.enum, items, values):
        return None
    return _recipe(2, tuple(items), f" = {plan.name}", first, values)


def _operands(
    reading: Reading,
    pos: int,
    enum: Callable[[str], Any],
    items: list[_Item],
    values: list[Any],
) -> bool:
    """Add the items (and their values) of a reading's operand words from word index
    ``pos``; False if a word has no fast print (an enum value with parameters, a kind
    spirv-dis cannot print, a string)."""
    form, specs, spec, count, _ = reading
    if form == PARAMS or form == STRING:
        return False
    words = list(zip(specs, range(pos, pos + len(specs)), strict=True))
    if form == VARIADIC and count <= _DIRECT:
        words += [(spec, pos + len(specs) + k) for k in range(count)]
    for item, at in words:
        found = _form(item, enum, values)
        if found is None:
            return False
        items.append((found, at))
    if form == VARIADIC and count > _DIRECT:  # the rest, by the one form of its words
        found = _form(spec, enum, values)
        if found is None:
            return False
        items.append((found + "*", pos + len(specs)))
    return True


def _form(spec: str, enum: Callable[[str], Any], values: list[Any]) -> str | None:
    """How a line prints a word of a spec (an enum's texts go into ``values``), or None
    (a kind spirv-dis cannot print)."""
    if spec == SPEC_ID or spec == SPEC_PAIR:  # spirv-dis prints a pair of ids as two ids
        return _ID
    if spec == SPEC_LITERAL:
        return _WORD
    kind = None if spec in UNHANDLED_KINDS else enum(spec)
    if kind is None:
        return None
    values.append(kind.simple)  # the dict itself: the reference path adds the masks it prints
    return _TEXT


def _recipe(
    rid: int, items: tuple[_Item, ...], bare: str, first: int, values: list[Any]
) -> LineRecipe:
    """The recipe of a line: result id at word index ``rid`` (0: none), then ``bare``
    (the opcode's text), a space and the items, separated by spaces."""
    head = bare + " " if items and items[0][0] != _EXT else bare
    return LineRecipe(_maker(rid, items), (head, first >> 16, *values))


def _maker(rid: int, items: tuple[_Item, ...]) -> Callable[..., Line]:
    """The function that binds a line maker of this shape (compiled once per process)."""
    key = (rid, items)
    found = _MAKERS.get(key)
    if found is not None:
        return found
    bound: list[str] = []
    parts: list[str] = []
    for form, pos in items:
        word = f"words[i + {pos}]"
        rest = f"words[i + {pos} : i + WC]"
        if form == _ID:
            parts.append(f"{{R[{word}]}}")
        elif form == _WORD:
            parts.append(f"{{{word}}}")
        elif form == _CONSTANT:
            parts.append(f"{{C[words[i + 1]]({word})}}")
        elif form == _IDS:
            parts.append(f"{{J(map(RG, {rest}))}}")
        elif form == _WORDS:
            parts.append(f"{{J(map(str, {rest}))}}")
        else:  # _TEXT, _FIXED, _TEXTS, _EXT: a bound value
            name = f"V{len(bound)}"
            bound.append(name)
            if form == _TEXT:
                parts.append(f"{{{name}[{word}]}}")
            elif form == _FIXED:
                parts.append(f"{{{name}}}")
            elif form == _EXT:  # the first word
                parts.append("")
            else:
                parts.append(f"{{J(map({name}.__getitem__, {rest}))}}")
    if items and items[0][0] == _EXT:  # V0 is the first word
        body = "        return X[words[i + 3]][words[i + 4] << 32 | V0](i)\n"
    elif rid:
        body = (
            f"        r = D[words[i + {rid}]]\n"
            f'        text = f"{{P[len(r)]}}{{r}}{{H}}{" ".join(parts)}"\n'
            f"        D[words[i + {rid}]] = None\n"
            "        return text\n"
        )
    else:
        body = f'        return f"{{H}}{" ".join(parts)}"\n'
    params = ", ".join((_COMMON, *bound))
    source = f"def make({params}):\n    def line(i):\n{body}    return line\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<spvbuild.text.dis_lines line>", "exec"), namespace)
    made: Callable[..., Line] = namespace["make"]
    _MAKERS[key] = made
    return made
