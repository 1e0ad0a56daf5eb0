"""The assembler's general parser: one instruction read against its operand stack.

Every instruction the engine's fast path (:mod:`spvbuild.text.asm_engine`) does not take
comes here: the operand descriptors of its plan (:mod:`spvbuild.text.asm_grammar`) are
popped one by one, and the stack grows as the text is read (enumerant and mask
parameters, the operands of an extended instruction and of OpSpecConstantOp's opcode);
``!<integer>`` words switch the rest of the instruction to unchecked words.  The pass's
state (the words of the text, the ids, the declared types, the module so far) is the
engine's, seen through :class:`AssemblyPass`.
"""

from __future__ import annotations

from array import array
from typing import Protocol

from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT
from spvbuild.spirv.numbers import NumberType
from spvbuild.text.asm_failures import (
    AsmFailure,
    instruction_start_failure,
    result_id_failure,
    suggest,
    unknown_import_failure,
    unknown_opcode_failure,
)
from spvbuild.text.asm_fast_plans import typed_results
from spvbuild.text.asm_grammar import (
    CIV,
    CIV_DESC,
    CTXNUM,
    EXTNUM,
    EXTSET,
    FLOAT,
    ID,
    LIT,
    MASK,
    RESULT,
    SPECOP,
    STR,
    SWLIT,
    TYPE,
    VAR,
    VENUM,
    Desc,
    EnumTable,
    ExtSet,
    Plan,
    describe,
    ext_operands_text,
    ext_set,
    spec_constant_op_plans,
)
from spvbuild.text.asm_numbers import F32, encode_float, encode_int
from spvbuild.text.asm_operands import (
    context_number_words,
    declared_type,
    enum_value,
    ext_instruction,
    immediate_value,
    looks_numeric,
    number_words,
    raw_word_stack,
    string_content,
    string_literal_words,
    switch_literal_words,
    unchecked_literal_words,
)

__all__ = ["MAX_INSTRUCTION_WORDS", "AssemblyPass", "parse_instruction"]

MAX_INSTRUCTION_WORDS = 0xFFFF
"""The most words an instruction may hold (its word count is 16 bits)."""


class AssemblyPass(Protocol):
    """What the general parser reads and changes of the engine's pass over a text.

    Word indices are positions in the current batch of words, ``toks``, whose first
    ``n`` are the text's (NUL words follow); ``words`` is the current batch's module
    words, after those of the finished batches in ``out``.
    """

    toks: list[str]
    n: int
    version: tuple[int, int]
    target_env: str
    available: dict[str, Plan]
    type_generating: frozenset[int]
    ids: dict[str, int]
    pending: dict[int, int]  # id → word index of its first use, while not defined
    raw_words: bool  # an !<integer> was seen: raw words may define anything
    types: dict[int, NumberType | None]  # declared types; None: not numeric
    imports: dict[int, ExtSet]
    out: array[int]
    words: list[int]
    value_types: dict[int, int]  # result id → result type, read up to value_types_end
    value_types_end: int

    def new_id(self, tok: str, index: int, where: str) -> int:
        """Number word ``tok``, not yet a known id (a failure if it is not an id)."""

    def id_of(self, tok: str, index: int, where: str) -> int:
        """The number of id word ``tok``, numbered now if it is new."""

    def starts(self, j: int) -> bool:
        """True if word ``j`` begins an instruction (``OpX`` or ``%id = OpX``)."""


def _u32_words(tok: str) -> list[int]:
    """A LiteralInteger's word."""
    return encode_int(tok, 32, False)


def _f32_words(tok: str) -> list[int]:
    """A LiteralFloat's word (32 bits)."""
    return encode_float(tok, F32)


def parse_instruction(state: AssemblyPass, i: int) -> int:
    """Parse the instruction starting at word ``i`` of ``state``'s batch, which the fast
    path did not take; returns the index of the word after it."""
    toks = state.toks
    tok = toks[i]
    if tok[0] == "!":
        return _immediate_instruction(state, i)
    if not state.starts(i):
        raise instruction_start_failure(toks, i, state.n)
    result_tok = tok if tok[0] == "%" else None  # ``%id = OpX``, else ``OpX``
    op_index = i if result_tok is None else i + 2
    opname = toks[op_index]
    plan = state.available.get(opname)
    if plan is None:
        raise unknown_opcode_failure(opname, op_index, state.version, state.target_env)
    if plan.has_result != (result_tok is not None):
        raise result_id_failure(plan, opname, result_tok, i)
    return _operands(state, plan, opname, result_tok, i, op_index + 1)


def _immediate_instruction(state: AssemblyPass, i: int) -> int:
    """An instruction whose opcode word is ``!<integer>``: raw words to the next one."""
    toks = state.toks
    n = state.n
    first = toks[i]
    words = [_immediate(state, first, i)]
    j = i + 1
    while j < n and not state.starts(j):
        tok = toks[j]
        if tok == "=":
            raise AsmFailure(
                j,
                f"'=' after an instruction written as '{first}': a result id cannot be "
                "given to an instruction written as !<integer> words",
            )
        if tok[0] == "!":
            words.append(_immediate(state, tok, j))
        else:
            _civ(state, tok, j, words)
        j += 1
    state.words.extend(words)
    return j


def _civ(state: AssemblyPass, tok: str, j: int, words: list[int]) -> None:
    """A word after ``!<integer>``: a number (one word), a string or an id."""
    literal = unchecked_literal_words(tok, j)
    if literal is not None:
        words.extend(literal)
        return
    if tok[0] == "%":
        value = state.id_of(tok, j, "word after !<integer>")
        state.pending.pop(value, None)
        words.append(value)
        return
    raise AsmFailure(
        j,
        f"invalid word after !<integer>: '{tok}' (expected a number, a string, an id "
        "or another !<integer>; enumerant names must be written as !<integer> too)",
    )


def _operands(
    state: AssemblyPass, plan: Plan, opname: str, result_tok: str | None, i: int, j: int
) -> int:
    """The general parser: walk the operand stack of ``plan`` from word ``j``."""
    toks = state.toks
    n = state.n
    words = [0]
    stack: list[Desc] = list(plan.stack)
    where = opname
    type_id: int | None = None
    ext: ExtSet | None = None
    while stack:
        desc = stack.pop()
        code = desc[0]
        if code == RESULT:
            assert result_tok is not None
            value = state.id_of(result_tok, i, where)
            state.pending.pop(value, None)
            words.append(value)
            continue
        if code == VAR:
            stack.append(desc)
            stack.extend(desc[2])  # type: ignore[arg-type]
            continue
        if j >= n:
            if desc[1]:
                break
            raise AsmFailure(
                n,
                f"{where} {desc[3]}: expected {describe(desc)}, found the end of the text"
                + _operands_hint(ext, words),
            )
        tok = toks[j]
        if state.starts(j):
            if desc[1]:
                break
            hint = _operands_hint(ext, words)
            if code == SPECOP and tok[2:] in spec_constant_op_plans():
                hint = (
                    f" (did you mean '{tok[2:]}'? OpSpecConstantOp names the opcode without 'Op')"
                )
            raise AsmFailure(
                j,
                f"{where} {desc[3]}: expected {describe(desc)}, found the next instruction "
                f"'{tok}'{hint}",
            )
        if tok[0] == "!":
            words.append(_immediate(state, tok, j))
            stack = raw_word_stack(stack)
            j += 1
            continue
        label = desc[3]
        if code == ID or code == TYPE or code == EXTSET:
            known = state.ids.get(tok)
            value = known if known is not None else state.new_id(tok, j, f"{where} {label}")
            words.append(value)
            if code == TYPE:
                type_id = value
            elif code == EXTSET:
                ext = state.imports.get(value)
                if ext is None:
                    raise AsmFailure(
                        j,
                        f"{where} {label}: '{tok}' is not the result of an OpExtInstImport "
                        "defined before this instruction",
                    )
        elif code == LIT:
            words.extend(number_words(tok, j, where, desc, _u32_words))
        elif code == STR:
            content = string_content(tok)
            if content is None:
                kind = "a number" if looks_numeric(tok) else f"'{tok}'"
                raise AsmFailure(
                    j,
                    f"{where} {label}: expected {describe(desc)}, found {kind}"
                    + (f" '{tok}'" if kind == "a number" else ""),
                )
            if plan.opcode == OP_EXT_INST_IMPORT and len(words) == 2:
                _record_import(state, words[1], content, j)
            words.extend(string_literal_words(content, j, f"{where} {label}"))
        elif code == FLOAT:
            words.extend(number_words(tok, j, where, desc, _f32_words))
        elif code == CTXNUM:
            found = state.types.get(type_id) if type_id is not None else None
            words.extend(context_number_words(tok, j, where, desc, found, plan))
        elif code == SWLIT:
            selector_type = _value_type(state, words[1]) if len(words) > 1 else None
            found = state.types.get(selector_type) if selector_type is not None else None
            words.extend(switch_literal_words(tok, j, where, desc, found))
        elif code == EXTNUM:
            assert ext is not None
            where = ext_instruction(tok, j, where, desc, ext, words, stack)
        elif code == SPECOP:
            embedded = spec_constant_op_plans().get(tok)
            if embedded is None:
                if tok.isdigit():
                    detail = ": give the opcode's name, not its number"
                else:
                    detail = suggest(tok, spec_constant_op_plans())
                raise AsmFailure(
                    j,
                    f"{where} {label}: '{tok}' is not an opcode OpSpecConstantOp accepts{detail}",
                )
            words.append(embedded.opcode)
            stack.extend(embedded.stack[:-2])  # its operands after type and result
            where = f"{where} {tok}"
        elif code == VENUM:
            table = desc[2]
            assert isinstance(table, EnumTable)
            value = enum_value(table, tok, j, where, desc)
            words.append(value)
            stack.extend(table.parameters(value))
        elif code == MASK:
            table = desc[2]
            assert isinstance(table, EnumTable)
            value = 0
            for part in tok.split("|"):
                value |= enum_value(table, part, j, where, desc, whole=tok)
            words.append(value)
            bit = 1 << 31
            while bit:
                if value & bit:
                    stack.extend(table.parameters(bit))
                bit >>= 1
        elif code == CIV:
            _civ(state, tok, j, words)
            if not stack:
                stack.append(CIV_DESC)
        else:  # pragma: no cover - every code is handled above
            raise AssertionError(code)
        j += 1
    _finish(state, plan, words, i)
    return j


def _operands_hint(ext: ExtSet | None, words: list[int]) -> str:
    """For an extended instruction missing an operand: its operands in their order (the
    order of the grammar spvbuild reads, which follows the seed documents where they and
    the Khronos JSON differ: DebugInfo's DebugValue starts with Local Variable)."""
    if ext is None or len(words) < 5:
        return ""
    text = ext_operands_text(ext, words[4])
    return f"; its operands, in this order: {text}" if text else ""


def _finish(state: AssemblyPass, plan: Plan, words: list[int], i: int) -> None:
    """Record types and value types, check the length, write the first word."""
    opcode = plan.opcode
    count = len(words)
    if opcode in state.type_generating and count > 1:
        _record_type(state, opcode, words, i)
    if count > MAX_INSTRUCTION_WORDS:
        raise AsmFailure(
            i,
            f"{plan.info.name}: {count} words is more than an instruction may hold "
            f"({MAX_INSTRUCTION_WORDS})",
        )
    words[0] = (count << 16) | opcode
    state.words.extend(words)


def _record_type(state: AssemblyPass, opcode: int, words: list[int], i: int) -> None:
    """Remember a declared type (width and signedness or encoding of numeric ones)."""
    state.types[words[1]] = declared_type(opcode, words, i, state.types)


def _record_import(state: AssemblyPass, result: int, name: str, j: int) -> None:
    """Remember which extended set the result of an OpExtInstImport names."""
    found = ext_set(name)
    if found is None:
        raise unknown_import_failure(name, j)
    if result in state.imports:
        raise AsmFailure(j, f"OpExtInstImport: id {result} already names an imported set")
    state.imports[result] = found


def _value_type(state: AssemblyPass, value: int) -> int | None:
    """The result type of the first instruction before this one that defines ``value``.

    Value types are not recorded as instructions go (that would cost every
    instruction): the module's words are read once, from where the last OpSwitch
    left off, so many OpSwitch instructions and many cases cost linear time.
    """
    value_types = state.value_types
    out = state.out
    words = state.words
    done = len(out)
    total = done + len(words)
    pos = state.value_types_end
    typed = typed_results()
    while pos < total:
        first = out[pos] if pos < done else words[pos - done]
        count = first >> 16
        if (first & 0xFFFF) in typed and count >= 3:
            at = pos + 2
            result = out[at] if at < done else words[at - done] if at < total else None
            at = pos + 1
            type_id = out[at] if at < done else words[at - done]
            if result is not None and result not in value_types:
                value_types[result] = type_id
        pos += count or 1  # a word count of 0 (only from !<integer> words)
    state.value_types_end = pos
    return value_types.get(value)


def _immediate(state: AssemblyPass, tok: str, index: int) -> int:
    """The value of an ``!<integer>`` word; the module may now define anything."""
    state.raw_words = True
    return immediate_value(tok, index)
