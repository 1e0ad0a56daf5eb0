"""The assembler's operand words that are not ids: strings, numbers, enumerants, extended
instruction names, ``!<integer>`` words and type declarations.

Each function reads one word of the text (at word index ``j``, for the failure it raises)
and gives what the general parser (:mod:`spvbuild.text.asm_parser`) writes or pushes; none
keeps state: what a word's meaning depends on (the declared numeric type, the imported
set, an enumerant table) is an argument.  ``where`` and ``desc`` name the instruction and
the operand in messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from spvbuild.binary.number_types import declared_number_type
from spvbuild.errors import EncodeError
from spvbuild.generated.core.opcodes import OP_TYPE_FLOAT, OP_TYPE_INT
from spvbuild.spirv.numbers import NumberType
from spvbuild.spirv.strings import string_words
from spvbuild.text.asm_failures import AsmFailure, suggest
from spvbuild.text.asm_grammar import (
    CIV_DESC,
    RESULT,
    RESULT_DESC,
    Desc,
    EnumTable,
    ExtSet,
    Plan,
    core_aliases_loaded,
    describe,
    unknown_ext_operands,
)
from spvbuild.text.asm_numbers import (
    NumberError,
    encode_float,
    encode_int,
    encode_unknown,
    float_format,
    known_encoding,
    parse_u32,
)

__all__ = [
    "context_number_words",
    "decimal_u32",
    "declared_type",
    "enum_value",
    "ext_instruction",
    "immediate_value",
    "looks_numeric",
    "number_words",
    "raw_word_stack",
    "string_content",
    "string_literal_words",
    "switch_literal_words",
    "unchecked_literal_words",
]

_NUMBER_LIKE = re.compile(r"-?[0-9.]+").fullmatch


def string_content(tok: str) -> str | None:
    """The text of a quoted string word (backslash escapes any character), or None."""
    if len(tok) < 2 or tok[0] != '"' or tok[-1] != '"':
        return None
    body = tok[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    escaping = False
    for ch in body:
        if ch == "\\" and not escaping:
            escaping = True
        else:
            out.append(ch)
            escaping = False
    return "".join(out)


def string_literal_words(content: str, j: int, where: str) -> list[int]:
    """The words of a string literal (word ``j``); a lone surrogate is a failure there."""
    try:
        return string_words(content)
    except EncodeError as exc:
        raise AsmFailure(j, f"{where}: {exc}") from None


def looks_numeric(tok: str) -> bool:
    """The reference assembler's test for "a number, not a string" (digits, '.', '-')."""
    if _NUMBER_LIKE(tok) is None:
        return False
    return tok.count(".") <= 1 and "-" not in tok[1:] and tok != "-"


def decimal_u32(word: str) -> int | None:
    """An extended instruction number: decimal digits only (leading zeros allowed)."""
    digits = word.lstrip("0")
    if word.isdigit() and word.isascii() and len(digits) <= 10:
        value = int(digits or "0")
        if value <= 0xFFFFFFFF:
            return value
    return None


def number_words(
    tok: str, j: int, where: str, desc: Desc, encode: Callable[[str], list[int]]
) -> list[int]:
    """``encode(tok)``, a NumberError becoming a failure at word ``j``."""
    try:
        return encode(tok)
    except NumberError as exc:
        raise AsmFailure(
            j, f"{where} {desc[3]}: expected {describe(desc)}, found '{tok}' ({exc})"
        ) from None


def context_number_words(
    tok: str, j: int, where: str, desc: Desc, found: NumberType | None, plan: Plan
) -> list[int]:
    """An OpConstant/OpSpecConstant literal in the format of the result type, ``found``
    (None: not a numeric type declared before the instruction)."""
    try:
        if found is not None and not found.is_float:
            return encode_int(tok, found.width, found.signed)
        if found is not None:
            width = found.width
            fmt = float_format(width, found.encoding)
            if fmt is None:
                raise NumberError(f"Unsupported {width}-bit float literals")
            return encode_float(tok, fmt)
    except NumberError as exc:
        raise AsmFailure(j, f"{where} {desc[3]}: '{tok}': {exc}") from None
    raise AsmFailure(
        j,
        f"{where} {desc[3]}: the result type of {plan.info.name} must be a scalar integer "
        "or floating-point type (OpTypeInt/OpTypeFloat) defined before it",
    )


def switch_literal_words(
    tok: str, j: int, where: str, desc: Desc, found: NumberType | None
) -> list[int]:
    """An OpSwitch case literal, as wide as ``found``, the selector's type."""
    if found is None or found.is_float:
        raise AsmFailure(
            j,
            f"{where} {desc[3]}: the selector must be a value of a scalar integer type "
            "defined before this instruction (its type sets the literal's width)",
        )
    try:
        return encode_int(tok, found.width, found.signed)
    except NumberError as exc:
        raise AsmFailure(j, f"{where} {desc[3]}: '{tok}': {exc}") from None


def enum_value(table: EnumTable, name: str, j: int, where: str, desc: Desc, whole: str = "") -> int:
    """The value of enumerant ``name`` (aliases included), or a failure with a suggestion.

    ``whole`` is the mask word ``name`` is a part of (``A|B``).
    """
    value = table.names.get(name)
    if value is None and core_aliases_loaded():
        value = table.names.get(name)
    if value is None:
        shown = f"'{name}' in '{whole}'" if whole and whole != name else f"'{name}'"
        if not name:
            shown = f"an empty name in '{whole}'"
        raise AsmFailure(
            j,
            f"{where} {desc[3]}: expected {describe(desc)}, found {shown}"
            f"{suggest(name, table.names)}",
        )
    return value


def ext_instruction(
    tok: str,
    j: int,
    where: str,
    desc: Desc,
    ext: ExtSet,
    words: list[int],
    stack: list[Desc],
) -> str:
    """The extended instruction named (or numbered) ``tok`` of ``ext``: its number is
    appended to ``words``, its operands pushed on ``stack``.

    Returns the new "where" for messages (opcode, set and instruction).
    """
    if not ext.known:
        number = decimal_u32(tok)
        if number is None:
            raise AsmFailure(
                j,
                f"{where} {desc[3]}: '{ext.import_name}' is not a known set, so its "
                f"instructions are given by number; found '{tok}'",
            )
        words.append(number)
        stack.extend(unknown_ext_operands())
        return f"{where} {ext.import_name} {number}"
    entry = ext.by_name.get(tok)
    if entry is None:
        number = decimal_u32(tok)
        if number is not None:
            entry = ext.by_number.get(number)
            if entry is None and ext.import_name.startswith("NonSemantic."):
                # Like spirv-as: an unknown number in a NonSemantic set takes ids.
                words.append(number)
                stack.extend(unknown_ext_operands())
                return f"{where} {ext.import_name} {number}"
        if entry is None:
            raise AsmFailure(
                j,
                f"{where} {desc[3]}: '{tok}' is not an instruction of "
                f"{ext.import_name}{suggest(tok, ext.by_name)}",
            )
    words.append(entry[0])
    stack.extend(entry[2])
    return f"{where} {ext.import_name} {entry[1]}"


def immediate_value(tok: str, index: int) -> int:
    """The value of an ``!<integer>`` word (strtoul base 0, 32 bits)."""
    value = parse_u32(tok[1:])
    if value is None:
        raise AsmFailure(
            index,
            f"invalid immediate '{tok}': expected '!' followed by an unsigned 32-bit "
            "integer (decimal, 0x hex or 0 octal)",
        )
    return value


def unchecked_literal_words(tok: str, j: int) -> list[int] | None:
    """A word after ``!<integer>`` that is a number (one word) or a string; None for any
    other word (an id is the caller's to number)."""
    try:
        return encode_unknown(tok)
    except NumberError:
        pass
    if tok[0] == '"':
        content = string_content(tok)
        if content is not None:
            return string_literal_words(content, j, "word after !<integer>")
    return None


def raw_word_stack(stack: list[Desc]) -> list[Desc]:
    """The operand stack after ``!<integer>``: unchecked words, the result id kept."""
    for depth, desc in enumerate(reversed(stack)):
        if desc[0] == RESULT:
            return [CIV_DESC, RESULT_DESC] + [CIV_DESC] * depth
    return [CIV_DESC]


def declared_type(
    opcode: int, words: list[int], i: int, types: dict[int, NumberType | None]
) -> NumberType | None:
    """The numeric type a type declaration's ``words`` declare (None: not numeric), after
    checking that its result id is new among ``types`` and its operands are well formed."""
    result = words[1]
    if result in types:
        raise AsmFailure(i, f"id {result} is already defined as a type")
    if opcode == OP_TYPE_INT and len(words) != 4:
        raise AsmFailure(i, "OpTypeInt must have exactly a width and a signedness")
    if opcode == OP_TYPE_FLOAT:
        if len(words) not in (3, 4):
            raise AsmFailure(i, "OpTypeFloat must have a width and at most an encoding")
        if len(words) == 4 and not known_encoding(words[3]):
            raise AsmFailure(i, f"OpTypeFloat: invalid floating-point encoding {words[3]}")
    return declared_number_type(opcode, words[2:])
