"""The assembler's engine: assembly text → words, behind :func:`spvbuild.text.assembler.assemble`.

One generic, table-driven parser in the style of the reference assembler (SPIRV-Tools):
each instruction is parsed against a stack of expected operand kinds taken from the
grammar tables (:mod:`spvbuild.text.asm_grammar`).  Optional operands may be left out at the
end of an instruction, variadic ones repeat, and the stack grows as the text is read: the
parameters of an enumerant (``LocalSize 64 1 1``), the parameters of the set bits of a
mask (``Aligned|Nontemporal 4``), the operands of an extended instruction (``OpExtInst
%f32 %glsl Sqrt %x``) and of OpSpecConstantOp's embedded opcode (``IAdd %a %b``) are
pushed as soon as they are known.  Literals whose width depends on context (OpConstant,
OpSpecConstant, OpSwitch) take it from the types defined so far.  ``!<integer>`` injects
a raw word and switches the rest of the instruction to unchecked words
(:data:`~spvbuild.text.asm_grammar.CIV`).  Ids are numbered in order of first appearance
(or keep their numbers with ``preserve_numeric_ids``), defined or not, like spirv-as.

Memory: the text is split into words a batch at a time, each batch assembled up to its
last instruction start, and the finished words kept in an ``array('I')``; so a large
text never has all its words, nor a Python int per module word, in memory at once.

Speed: the text is split into words in C (:func:`spvbuild.text.asm_tokens.tokens`), and the
common instructions whose operands are all ids or plain integers take a fast path that
skips the operand stack, appending straight to the module's words; every other
instruction, and any fast-path doubt, goes through the general parser.  Positions are
computed only when an error is reported.

This module is plain Python and runs as it is.  ``python -m spvbuild.accel.accelerate`` also
compiles a copy of it with mypyc (``spvbuild._asm_engine_mypyc``), which
:mod:`spvbuild.accel.engines` loads instead when it was compiled from this very source; the
code is written for both: explicit loops over typed locals, no dynamic tricks.
"""

from __future__ import annotations

import difflib
import re
from array import array
from collections.abc import Callable, Iterable
from functools import cache

from spvbuild.binary.encoder import header_words
from spvbuild.errors import AssemblyError, EncodeError
from spvbuild.generated.core.opcodes import (
    OP_EXT_INST,
    OP_EXT_INST_IMPORT,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
)
from spvbuild.spirv.numbers import NumberType, declared_number_type
from spvbuild.spirv.strings import string_words
from spvbuild.text.asm_grammar import (
    CIV,
    CIV_DESC,
    CTXNUM,
    EXTNUM,
    EXTSET,
    F_ENUM,
    F_ID,
    F_LIT,
    FLOAT,
    ID,
    LIT,
    MASK,
    RESULT,
    RESULT_DESC,
    SPECOP,
    STR,
    SWLIT,
    TARGET_ENVS,
    TYPE,
    VAR,
    VENUM,
    Desc,
    EnumTable,
    ExtSet,
    FastSlot,
    Plan,
    core_aliases_loaded,
    core_plans,
    describe,
    ext_set,
    fast_slots,
    spec_constant_op_plans,
    unknown_ext_operands,
)
from spvbuild.text.asm_numbers import (
    F32,
    NumberError,
    encode_float,
    encode_int,
    encode_unknown,
    float_format,
    known_encoding,
    parse_u32,
)
from spvbuild.text.asm_source import PIECE_CHARACTERS, AssemblyText, target_env_of_lines
from spvbuild.text.asm_tokens import line_col, token_batches, token_offset, tokens

__all__ = ["DEFAULT_TARGET_ENV", "assemble"]

DEFAULT_TARGET_ENV = "spv1.6"
"""``spirv-as``'s target when neither ``--target-env`` nor a ``; Version:`` header says one:
universal SPIR-V 1.6 (version word 0x00010600)."""


MAX_INSTRUCTION_WORDS = 0xFFFF

# Words after the last one, so that the fast path may look ahead without bound checks
# (a NUL cannot be in a word: the text ends at its first NUL).  The fast path reads past
# the words it has verified only a few at a time, never more than ``_sentinel`` holds.
_NUL = "\0"
_ID_NAME = re.compile(r"%[A-Za-z0-9_]+").fullmatch
_ID_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_NUMBER_LIKE = re.compile(r"-?[0-9.]+").fullmatch


class _Fail(Exception):
    """An error at token ``index`` (``len(tokens)`` = the end of the text)."""

    def __init__(self, index: int, message: str) -> None:
        """Remember the word index and the message."""
        super().__init__(message)
        self.index = index
        self.message = message


def _is_op(word: str) -> bool:
    """True if ``word`` starts like an opcode: ``Op`` and an upper-case ASCII letter."""
    return word[:2] == "Op" and len(word) > 2 and "A" <= word[2] <= "Z"


def _suggest(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or an empty string."""
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@cache
def _available(version: tuple[int, int]) -> dict[str, Plan]:
    """The instructions ``spirv-as`` accepts for a SPIR-V version, by name and alias.

    An instruction is available when the version is in its range, or when it is enabled
    by an extension or a capability (the validator, not the assembler, checks those).
    """
    out: dict[str, Plan] = {}
    for name, plan in core_plans().items():
        info = plan.info
        in_range = (
            info.version is not None
            and info.version <= version
            and (info.last_version is None or version <= info.last_version)
        )
        if in_range or info.capabilities or info.extensions:
            out[name] = plan
    return out


# Fast-path tails: what may follow the fixed operands.
T_NONE = 0  # nothing
T_IDS = 1  # any number of ids (IdRef*)
T_MASK = 2  # an optional enumerant/mask with plain-integer parameters (OpLoad's Aligned 4)
T_INTS = 3  # plain integers (LiteralInteger*)
T_PAIRS = 4  # pairs of ids (OpPhi)
T_OTHER = 5  # something else optional: only the next instruction may follow
C_IDS = 0  # category: the fixed operands are ids
C_GENERAL = 1  # category: literals or enumerants among the fixed operands
C_EXT = 2  # category: OpExtInst (operands from the set's own table)
_TAILS = {"": T_NONE, "I": T_IDS, "M": T_MASK, "L": T_INTS, "P": T_PAIRS, "O": T_OTHER}

# (category, first word if nothing follows, slot count, opcode, has result type,
#  tail table, slots, tail)
_FastPlan = tuple[
    int,
    int,
    int,
    int,
    bool,
    "dict[str, tuple[int, int]] | None",
    tuple[FastSlot, ...],
    int,
]


@cache
def _fast_tables(
    version: tuple[int, int],
) -> tuple[dict[str, _FastPlan], dict[str, _FastPlan]]:
    """Fast-path shapes of the available instructions: (with a result, without one)."""
    with_result: dict[str, _FastPlan] = {}
    plain: dict[str, _FastPlan] = {}
    skip = _type_generating() | {OP_EXT_INST_IMPORT}
    for name, plan in _available(version).items():
        opcode = plan.opcode
        if opcode in skip:
            continue
        if opcode == OP_EXT_INST:
            with_result[name] = (C_EXT, opcode, 0, opcode, True, None, (), T_NONE)
            continue
        shape = fast_slots(plan.stack)
        if shape is None:
            continue
        slots, ids_only, tail, tail_table = shape
        count = len(slots)
        words = count + 1 + (1 if plan.has_result else 0)
        category = C_IDS if ids_only else C_GENERAL
        first = (words << 16) | opcode
        fast = (category, first, count, opcode, plan.has_type, tail_table, slots, _TAILS[tail])
        (with_result if plan.has_result else plain)[name] = fast
    return with_result, plain


@cache
def _simple_table(version: tuple[int, int]) -> dict[str, tuple[int, int]]:
    """``%r = OpX %type %a ...`` instructions of fixed length: name → (first word, ids)."""
    return {
        name: (fast[1], fast[2])
        for name, fast in _fast_tables(version)[0].items()
        if fast[0] == C_IDS and fast[4] and fast[7] == T_NONE
    }


@cache
def _typed_results() -> frozenset[int]:
    """Opcodes with a result type and a result id (the values OpSwitch may select on)."""
    return frozenset(
        plan.opcode for plan in core_plans().values() if plan.has_type and plan.has_result
    )


@cache
def _type_generating() -> frozenset[int]:
    """Opcodes that declare a type (their result id names a type)."""
    return frozenset(
        plan.opcode
        for plan in core_plans().values()
        if plan.info.cls == "Type-Declaration" and plan.has_result and not plan.has_type
    )


class _Assembler:
    """One pass over the words of a text, a batch of words at a time (see :meth:`run`).

    Word indices in the parsing methods are positions in the current batch, ``toks``;
    ``base`` is the index of its first word in the whole text, so that ``base + index``
    is what errors and ``pending`` record.
    """

    def __init__(
        self,
        source: AssemblyText,
        version: tuple[int, int],
        target_env: str,
        preserve: frozenset[int] | None,
    ) -> None:
        """Prepare a pass over ``source`` (``preserve``: ids that keep their number)."""
        self.source = source
        self.toks: list[str] = []  # the batch, followed by NUL words: lookahead needs no bounds
        self.n = 0  # how many words of toks are the text's
        self.base = 0
        self.version = version
        self.target_env = target_env
        self.preserve = preserve if preserve else None
        self.ids: dict[str, int] = {}
        self.next_id = 1
        self.bound = 1
        # id → word index of its first use, for ids used but not (yet) defined
        self.pending: dict[int, int] = {}
        self.raw_words = False  # an !<integer> was seen: raw words may define anything
        self.types: dict[int, NumberType | None] = {}  # None: a type not numeric
        self.imports: dict[int, ExtSet] = {}
        # The module: finished batches in ``out``, the current one's words in ``words``.
        self.out = array("I", header_words(version, 0))
        self.words: list[int] = []
        self.available = _available(version)
        self.type_generating = _type_generating()
        # OpSwitch literals: result id → result type of the instructions before, read
        # from the module's words up to ``value_types_end`` (built only when needed).
        self.value_types: dict[int, int] = {}
        self.value_types_end = 5

    # -- ids -------------------------------------------------------------------------

    def _new_id(self, tok: str, index: int, where: str) -> int:
        """Number a word that is not yet a known id (validating it first)."""
        if tok[:1] != "%":
            raise _Fail(index, f"{where}: expected an id (%name), found '{tok}'")
        if _ID_NAME(tok) is None:
            raise _Fail(
                index,
                f"{where}: invalid id '{tok}': an id is '%' followed by letters, digits or '_'",
            )
        preserve = self.preserve
        if preserve is not None:
            number = parse_u32(tok[1:])
            if number is not None and number in preserve:
                self.ids[tok] = number
                self.bound = max(self.bound, (number + 1) & 0xFFFFFFFF)
                self.pending.setdefault(number, self.base + index)
                return number
        value = self.next_id
        self.next_id += 1
        if preserve is not None:
            while value in preserve:
                value = self.next_id
                self.next_id += 1
        self.ids[tok] = value
        self.bound = max(self.bound, (value + 1) & 0xFFFFFFFF)
        self.pending[value] = self.base + index
        return value

    def _id(self, tok: str, index: int, where: str) -> int:
        """The number of id word ``tok`` (numbered now if it is new)."""
        value = self.ids.get(tok)
        if value is None:
            value = self._new_id(tok, index, where)
        return value

    # -- instruction boundaries --------------------------------------------------------

    def _starts(self, j: int) -> bool:
        """True if word ``j`` begins an instruction (``OpX`` or ``%id = OpX``)."""
        toks = self.toks
        tok = toks[j]
        if _is_op(tok):
            return True
        return tok[0] == "%" and j + 2 < self.n and toks[j + 1] == "=" and _is_op(toks[j + 2])

    def _immediate(self, tok: str, index: int) -> int:
        """The value of an ``!<integer>`` word (strtoul base 0, 32 bits)."""
        self.raw_words = True
        value = parse_u32(tok[1:])
        if value is None:
            raise _Fail(
                index,
                f"invalid immediate '{tok}': expected '!' followed by an unsigned 32-bit "
                "integer (decimal, 0x hex or 0 octal)",
            )
        return value

    # -- the main loop -----------------------------------------------------------------

    def run(self, strict_ids: bool) -> array[int]:
        """Assemble every instruction; returns the module's words.

        The text is read a piece at a time and split into words a batch at a time
        (:func:`token_batches`); the batch is assembled up to its last instruction start: an instruction never spans
        two batches, since each one's parse ends where the next instruction starts.  So
        only one batch of words is in memory at a time, and the words of the finished
        batches move from a list (fast to append to) to a compact array.  With
        ``strict_ids`` an id that no instruction defines is an error.
        """
        carry: list[str] = []
        batches = token_batches(self.source.pieces())
        batch: list[str] | None = next(batches, [])
        while batch is not None:
            toks = carry + batch if carry else batch
            following = next(batches, None)
            stop = len(toks) if following is None else _last_start(toks)
            if stop > 0:
                self.toks = toks + _sentinel()
                self.n = len(toks)
                try:
                    stop = self._loop(stop)
                except _Fail as fail:
                    moved = _Fail(self.base + fail.index, fail.message)
                    self._validate_ids(moved.index)
                    raise moved from None
                self.base += stop
                self.out.extend(self.words)
                self.words.clear()
                carry = toks[stop:]
            else:
                carry = toks
            batch = following
        self.toks = []
        self._validate_ids(self.base + len(carry))
        if strict_ids:
            self._check_defined()
        out = self.out
        out[3] = self.next_id if self.preserve is None else self.bound
        return out

    def _loop(self, stop: int) -> int:
        """Every instruction, through the fast path when possible.

        An instruction whose operands are all known ids, plain integers or
        parameterless enumerants (see :func:`~spvbuild.text.asm_grammar.fast_slots`) is
        encoded right here; anything else, and any doubt (an unusual literal, an
        immediate, a word that might be an error), goes to the general parser
        :meth:`_instruction` from the instruction's start.  New result ids are not
        validated here but all at once by :meth:`_validate_ids`.  Works through the
        instructions that start before word ``stop``; returns the index it stopped at.
        """
        toks = self.toks
        n = self.n
        ids = self.ids
        words = self.words
        append = words.append
        types = self.types
        pending = self.pending
        imports = self.imports
        if self.preserve is None:
            fast_result, fast_plain = _fast_tables(self.version)
            fast_simple = _simple_table(self.version)
        else:
            fast_result, fast_plain, fast_simple = {}, {}, {}
        starters = self.available
        nid = self.next_id
        v: int | None
        i = 0
        # Words are appended to the module as they are read; on a doubt they are
        # removed again (``del words[base:]``) before the slower paths take over.
        while i < stop:
            tok = toks[i]
            base = len(words)
            if tok[0] == "%" and toks[i + 1] == "=":
                opname = toks[i + 2]
                simple = fast_simple.get(opname)
                if simple is not None:  # %r = OpX %type %ids... (the commonest shape)
                    end = i + 3 + simple[1]
                    v = ids.get(toks[i + 3])
                    if v is not None:
                        append(simple[0])
                        append(v)
                        append(0)  # the result id, numbered once the operands are known
                        k = i + 4
                        while k < end:
                            v = ids.get(toks[k])
                            if v is None:
                                break
                            append(v)
                            k += 1
                        # toks[end] exists: the words before it are ids, not the NULs.
                        if k == end and toks[end] != "=":
                            r = _result_number(ids, pending, tok, nid)
                            if r == nid:
                                nid += 1
                            words[base + 2] = r
                            i = end
                            continue
                        del words[base:]
                fp = fast_result.get(opname)
                j = i + 3
            else:
                fp = fast_plain.get(tok)
                j = i + 1
            if fp is not None:
                category, _, count, opcode, has_type, table, slots, tail = fp
                end = j + count
                append(0)  # the first word, once the word count is known
                ok = True
                if category == 1:  # C_GENERAL
                    k = j
                    for code, values in slots:
                        t = toks[k]
                        if code == 0:  # F_ID
                            v = ids.get(t)
                        elif code == 2:  # F_ENUM
                            v = values.get(t) if values is not None else None
                        elif _plain_int(t):
                            if code == 1:  # F_LIT
                                v = int(t)
                            else:  # F_CONST: OpConstant of a 32-bit integer type
                                found = types.get(words[base + 1])
                                v = (  # found[0], [1]: width, is_float (compiled: an index)
                                    int(t)
                                    if found is not None and found[0] == 32 and not found[1]
                                    else None
                                )
                        else:
                            v = None
                        if v is None:
                            ok = False
                            break
                        append(v)
                        k += 1
                else:  # C_IDS, or C_EXT: OpExtInst %type %set Name %ids...
                    k = j
                    if category == 2:
                        ok = False
                        type_id = ids.get(toks[j])
                        set_id = ids.get(toks[j + 1])
                        ext = imports.get(set_id) if set_id is not None else None
                        entry = ext.fast.get(toks[j + 2]) if ext is not None else None
                        if type_id is not None and set_id is not None and entry is not None:
                            append(type_id)
                            append(set_id)
                            append(entry[0])
                            k = j + 3
                            end = k + entry[1]
                            ok = True
                    while ok and k < end:
                        v = ids.get(toks[k])
                        if v is None:
                            ok = False
                            break
                        append(v)
                        k += 1
                if ok:
                    if tail == 0:  # T_NONE
                        ok = toks[end] != "="
                    else:
                        start = end
                        if tail == 1 or tail == 4:  # T_IDS, T_PAIRS
                            while True:
                                v = ids.get(toks[end])
                                if v is None or toks[end + 1] == "=":
                                    break
                                append(v)
                                end += 1
                            if tail == 4 and (end - start) & 1:
                                ok = False
                        elif tail == 2:  # T_MASK
                            mask = table.get(toks[end]) if table is not None else None
                            if mask is not None:
                                append(mask[0])
                                end += 1
                                for _ in range(mask[1]):
                                    t = toks[end]
                                    if _plain_int(t):
                                        append(int(t))
                                        end += 1
                                    else:
                                        ok = False
                                        break
                        elif tail == 3:  # T_INTS
                            while _plain_int(toks[end]):
                                append(int(toks[end]))
                                end += 1
                        # Only the next instruction (or the end) may follow.
                        if end < n and not (
                            toks[end] in starters
                            or (toks[end + 1] == "=" and toks[end + 2] in starters)
                        ):
                            ok = False
                        if len(words) - base > 60000:
                            ok = False
                    if ok:
                        if j != i + 1:  # the result id: after the type, or first
                            r = _result_number(ids, pending, tok, nid)
                            if r == nid:
                                nid += 1
                            words.insert(base + 2 if has_type else base + 1, r)
                        words[base] = ((len(words) - base) << 16) | opcode
                        i = end
                        continue
                del words[base:]
                if category != 2:
                    # New ids (numbered in the parser's order), or a doubt.
                    self.next_id = nid
                    end = self._fast_general(fp, i, j, tok if j != i + 1 else None)
                    nid = self.next_id
                    if end >= 0:
                        i = end
                        continue
            self.next_id = nid
            i = self._instruction(i)
            nid = self.next_id
        self.next_id = nid
        return i

    def _fast_general(self, fp: _FastPlan, i: int, j: int, tok: str | None) -> int:
        """Fast path for the other shapes: new ids, literals, enumerants, tails.

        Returns the index of the next instruction, or -1 to let the general parser
        take the instruction (nothing has been written then; ids may have been
        numbered, in the order the general parser would number them).
        """
        toks = self.toks
        _, _, count, opcode, has_type, tail_table, slots, tail = fp
        ids_get = self.ids.get
        end = j + count
        found = self._fast_slots(j, slots, tok, has_type)
        if found is None:
            return -1
        vals, r = found
        if tail:
            start = end
            if tail == T_IDS or tail == T_PAIRS:
                while True:
                    t = toks[end]
                    if t[0] != "%" or toks[end + 1] == "=":
                        break
                    v = ids_get(t)
                    if v is None:
                        if _ID_NAME(t) is None:
                            break
                        v = self._new_id(t, end, "")
                    vals.append(v)
                    end += 1
                if tail == T_PAIRS and (end - start) & 1:
                    return -1
            elif tail == T_INTS:
                while _plain_int(toks[end]):
                    vals.append(int(toks[end]))
                    end += 1
            elif tail == T_MASK:
                assert tail_table is not None
                mask = tail_table.get(toks[end])
                if mask is not None:
                    vals.append(mask[0])
                    end += 1
                    for _ in range(mask[1]):
                        if not _plain_int(toks[end]):
                            return -1
                        vals.append(int(toks[end]))
                        end += 1
            if end < self.n:
                t = toks[end]
                starters = self.available
                if not (
                    t in starters
                    or (t[0] == "%" and toks[end + 1] == "=" and toks[end + 2] in starters)
                ):
                    return -1
            if end - start > 60000:
                return -1
        elif toks[end] == "=":
            return -1
        if tok is not None:
            if has_type:
                vals.insert(1, r)
            else:
                vals.insert(0, r)
        self.words.append(((len(vals) + 1) << 16) | opcode)
        self.words.extend(vals)
        return end

    def _validate_ids(self, before: int) -> None:
        """Reject an invalid result id the fast path numbered without checking.

        The first word of such a name is where the general parser would have failed;
        it is reported if it comes before ``before`` (the index in the whole text of
        another failure).  Only then are the text's words split again, to find it.
        """
        names = list(self.ids)
        valid = "%" not in self.ids
        step = 4096  # names checked a slice at a time: little memory on a huge module
        start = 0
        while valid and start < len(names):
            part = names[start : start + step]
            try:
                letters = " ".join(part).encode("ascii").translate(None, _ID_LETTERS)
            except UnicodeEncodeError:
                letters = b""
            valid = letters == b"% " * (len(part) - 1) + b"%"
            start += step
        if valid:
            return
        every_word = tokens(self.source.whole())
        first = min(
            (every_word.index(name) for name in names if _ID_NAME(name) is None),
            default=before,
        )
        if first < before:
            raise _Fail(
                first,
                f"invalid id '{every_word[first]}': an id is '%' followed by letters, digits "
                "or '_'",
            )

    def _fast_result(self, tok: str) -> int | None:
        """The number of result id ``tok`` (created if new); None if it is not an id."""
        if tok not in self.ids and _ID_NAME(tok) is None:
            return None
        value = _result_number(self.ids, self.pending, tok, self.next_id)
        if value == self.next_id:
            self.next_id = value + 1
        return value

    def _fast_slots(
        self,
        j: int,
        slots: tuple[FastSlot, ...],
        result_tok: str | None,
        has_type: bool,
    ) -> tuple[list[int], int] | None:
        """Fast path, the slots (ids, plain integers, parameterless enumerants) with new
        ids: number them in the parser's order.

        The parser reads the result type, then the result id, then the operands; the
        result id is the first when there is no result type.  None: let the general
        parser decide (a word that does not fit its slot).
        """
        toks = self.toks
        ids = self.ids
        vals: list[int] = []
        r: int | None = 0
        if result_tok is not None and not has_type:
            r = self._fast_result(result_tok)
        k = j
        for code, table in slots:
            if r is None:
                return None
            t = toks[k]
            v: int | None
            if code == F_ID:
                v = ids.get(t)
                if v is None:
                    if _ID_NAME(t) is None:
                        return None
                    v = self._new_id(t, k, "")
            elif code == F_ENUM:
                assert table is not None
                v = table.get(t)
            elif _plain_int(t):
                if code == F_LIT:
                    v = int(t)
                else:  # an OpConstant literal: only for a 32-bit integer result type
                    found = self.types.get(vals[0])
                    v = (
                        int(t)
                        if found is not None and found.width == 32 and not found.is_float
                        else None
                    )
            else:
                v = None
            if v is None:
                return None
            vals.append(v)
            if k == j and has_type and result_tok is not None:
                r = self._fast_result(result_tok)
            k += 1
        if r is None:
            return None
        return vals, r

    def _check_defined(self) -> None:
        """Report the first use of an id no instruction defines (unless raw words hide it)."""
        if self.raw_words:
            return
        pending = self.pending
        if not pending:
            return
        first = min(pending, key=lambda v: pending[v])
        index = pending[first]
        names = {v: k for k, v in self.ids.items()}
        name = names.get(first, f"%{first}")
        # Candidates for a suggestion: defined names of about the same length (bounded,
        # so that a huge module does not make the error slow).
        defined_names = [
            k for k, v in self.ids.items() if v not in pending and abs(len(k) - len(name)) <= 2
        ][:20000]
        raise _Fail(
            index,
            f"undefined id '{name}': no instruction defines it{_suggest(name, defined_names)}",
        )

    def _instruction(self, i: int) -> int:
        """Parse the instruction starting at word ``i``; returns the next word's index."""
        toks = self.toks
        n = self.n
        tok = toks[i]
        if tok[0] == "!":
            return self._immediate_instruction(i)
        result_tok: str | None = None
        if _is_op(tok):
            opname = tok
            op_index = i
        else:
            if tok[0] != "%":
                hint = ""
                if _is_op("Op" + tok) and "Op" + tok in core_plans():
                    hint = f" (did you mean 'Op{tok}'?)"
                raise _Fail(
                    i,
                    "expected an opcode (OpName) or a result id ('%name =') at the start "
                    f"of an instruction, found '{tok}'{hint}",
                )
            result_tok = tok
            if i + 1 >= n:
                raise _Fail(n, f"expected '=' after result id '{tok}', found the end of the text")
            if toks[i + 1] != "=":
                raise _Fail(i + 1, f"expected '=' after result id '{tok}', found '{toks[i + 1]}'")
            if i + 2 >= n:
                raise _Fail(n, f"expected an opcode after '{tok} =', found the end of the text")
            opname = toks[i + 2]
            op_index = i + 2
            if not _is_op(opname):
                extra = (
                    " (an instruction written as !<integer> words cannot take a result id)"
                    if opname[0] == "!"
                    else _suggest("Op" + opname, core_plans())
                )
                raise _Fail(
                    op_index, f"expected an opcode after '{tok} =', found '{opname}'{extra}"
                )
        plan = self.available.get(opname)
        if plan is None:
            self._unknown_opcode(opname, op_index)
            raise AssertionError("unreachable")  # pragma: no cover
        if plan.has_result and result_tok is None:
            raise _Fail(i, f"{opname} produces a result id: write '%name = {opname} ...'")
        if result_tok is not None and not plan.has_result:
            raise _Fail(
                i, f"{opname} does not produce a result id: remove '{result_tok} =' before it"
            )
        return self._operands(plan, opname, result_tok, i, op_index + 1)

    def _unknown_opcode(self, opname: str, index: int) -> None:
        """Raise for an opcode the target lacks, or that does not exist (with a suggestion)."""
        plans = core_plans()
        plan = plans.get(opname)
        if plan is not None:
            info = plan.info
            needs = (
                f"SPIR-V {info.version[0]}.{info.version[1]}"
                if info.version is not None
                else "an extension"
            )
            if (
                info.last_version is not None
                and info.version is not None
                and (info.version <= self.version)
            ):
                needs = f"SPIR-V {info.last_version[0]}.{info.last_version[1]} or older"
            raise _Fail(
                index,
                f"{opname} is not available for target env '{self.target_env}' (SPIR-V "
                f"{self.version[0]}.{self.version[1]}): it needs {needs}",
            )
        raise _Fail(index, f"unknown opcode '{opname}'{_suggest(opname, plans)}")

    def _immediate_instruction(self, i: int) -> int:
        """An instruction whose opcode word is ``!<integer>``: raw words to the next one."""
        toks = self.toks
        n = self.n
        first = toks[i]
        words = [self._immediate(first, i)]
        j = i + 1
        while j < n and not self._starts(j):
            tok = toks[j]
            if tok == "=":
                raise _Fail(
                    j,
                    f"'=' after an instruction written as '{first}': a result id cannot be "
                    "given to an instruction written as !<integer> words",
                )
            if tok[0] == "!":
                words.append(self._immediate(tok, j))
            else:
                self._civ(tok, j, words)
            j += 1
        self.words.extend(words)
        return j

    def _civ(self, tok: str, j: int, words: list[int]) -> None:
        """A word after ``!<integer>``: a number (one word), a string or an id."""
        try:
            words.extend(encode_unknown(tok))
            return
        except NumberError:
            pass
        if tok[0] == '"':
            content = _string_content(tok)
            if content is not None:
                words.extend(_string_words(content, j, "word after !<integer>"))
                return
        elif tok[0] == "%":
            value = self._id(tok, j, "word after !<integer>")
            self.pending.pop(value, None)
            words.append(value)
            return
        raise _Fail(
            j,
            f"invalid word after !<integer>: '{tok}' (expected a number, a string, an id "
            "or another !<integer>; enumerant names must be written as !<integer> too)",
        )

    def _operands(self, plan: Plan, opname: str, result_tok: str | None, i: int, j: int) -> int:
        """The general parser: walk the operand stack of ``plan`` from word ``j``."""
        toks = self.toks
        n = self.n
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
                value = self._id(result_tok, i, where)
                self.pending.pop(value, None)
                words.append(value)
                continue
            if code == VAR:
                stack.append(desc)
                stack.extend(desc[2])  # type: ignore[arg-type]
                continue
            if j >= n:
                if desc[1]:
                    break
                raise _Fail(
                    n, f"{where} {desc[3]}: expected {describe(desc)}, found the end of the text"
                )
            tok = toks[j]
            if self._starts(j):
                if desc[1]:
                    break
                hint = ""
                if code == SPECOP and tok[2:] in spec_constant_op_plans():
                    hint = f" (did you mean '{tok[2:]}'? OpSpecConstantOp names the opcode without 'Op')"
                raise _Fail(
                    j,
                    f"{where} {desc[3]}: expected {describe(desc)}, found the next instruction "
                    f"'{tok}'{hint}",
                )
            if tok[0] == "!":
                words.append(self._immediate(tok, j))
                stack = _alternate(stack)
                j += 1
                continue
            label = desc[3]
            if code == ID or code == TYPE or code == EXTSET:
                known = self.ids.get(tok)
                value = known if known is not None else self._new_id(tok, j, f"{where} {label}")
                words.append(value)
                if code == TYPE:
                    type_id = value
                elif code == EXTSET:
                    ext = self.imports.get(value)
                    if ext is None:
                        raise _Fail(
                            j,
                            f"{where} {label}: '{tok}' is not the result of an OpExtInstImport "
                            "defined before this instruction",
                        )
            elif code == LIT:
                words.extend(self._number(tok, j, where, desc, lambda t: encode_int(t, 32, False)))
            elif code == STR:
                content = _string_content(tok)
                if content is None:
                    kind = "a number" if _looks_numeric(tok) else f"'{tok}'"
                    raise _Fail(
                        j,
                        f"{where} {label}: expected {describe(desc)}, found {kind}"
                        + (f" '{tok}'" if kind == "a number" else ""),
                    )
                if plan.opcode == OP_EXT_INST_IMPORT and len(words) == 2:
                    self._record_import(words[1], content, j)
                words.extend(_string_words(content, j, f"{where} {label}"))
            elif code == FLOAT:
                words.extend(self._number(tok, j, where, desc, lambda t: encode_float(t, F32)))
            elif code == CTXNUM:
                words.extend(self._context_number(tok, j, where, desc, type_id, plan))
            elif code == SWLIT:
                words.extend(self._switch_literal(tok, j, where, desc, words))
            elif code == EXTNUM:
                assert ext is not None
                where = self._ext_instruction(tok, j, where, desc, ext, words, stack)
            elif code == SPECOP:
                embedded = spec_constant_op_plans().get(tok)
                if embedded is None:
                    if tok.isdigit():
                        detail = ": give the opcode's name, not its number"
                    else:
                        detail = _suggest(tok, spec_constant_op_plans())
                    raise _Fail(
                        j,
                        f"{where} {label}: '{tok}' is not an opcode OpSpecConstantOp accepts"
                        f"{detail}",
                    )
                words.append(embedded.opcode)
                stack.extend(embedded.stack[:-2])  # its operands after type and result
                where = f"{where} {tok}"
            elif code == VENUM:
                table = desc[2]
                assert isinstance(table, EnumTable)
                value = self._enum_value(table, tok, j, where, desc)
                words.append(value)
                stack.extend(table.parameters(value))
            elif code == MASK:
                table = desc[2]
                assert isinstance(table, EnumTable)
                value = 0
                for part in tok.split("|"):
                    value |= self._enum_value(table, part, j, where, desc, whole=tok)
                words.append(value)
                bit = 1 << 31
                while bit:
                    if value & bit:
                        stack.extend(table.parameters(bit))
                    bit >>= 1
            elif code == CIV:
                self._civ(tok, j, words)
                if not stack:
                    stack.append(CIV_DESC)
            else:  # pragma: no cover - every code is handled above
                raise AssertionError(code)
            j += 1
        self._finish(plan, words, i)
        return j

    def _finish(self, plan: Plan, words: list[int], i: int) -> None:
        """Record types and value types, check the length, write the first word."""
        opcode = plan.opcode
        count = len(words)
        if opcode in self.type_generating and count > 1:
            self._record_type(opcode, words, i)
        if count > MAX_INSTRUCTION_WORDS:
            raise _Fail(
                i,
                f"{plan.info.name}: {count} words is more than an instruction may hold "
                f"({MAX_INSTRUCTION_WORDS})",
            )
        words[0] = (count << 16) | opcode
        self.words.extend(words)

    def _record_type(self, opcode: int, words: list[int], i: int) -> None:
        """Remember a declared type (width and signedness or encoding of numeric ones)."""
        result = words[1]
        if result in self.types:
            raise _Fail(i, f"id {result} is already defined as a type")
        if opcode == OP_TYPE_INT and len(words) != 4:
            raise _Fail(i, "OpTypeInt must have exactly a width and a signedness")
        if opcode == OP_TYPE_FLOAT:
            if len(words) not in (3, 4):
                raise _Fail(i, "OpTypeFloat must have a width and at most an encoding")
            if len(words) == 4 and not known_encoding(words[3]):
                raise _Fail(i, f"OpTypeFloat: invalid floating-point encoding {words[3]}")
        self.types[result] = declared_number_type(opcode, words[2:])  # None: not numeric

    def _record_import(self, result: int, name: str, j: int) -> None:
        """Remember which extended set the result of an OpExtInstImport names."""
        found = ext_set(name)
        if found is None:
            from spvbuild.generated.extinst import IMPORT_NAMES

            raise _Fail(
                j,
                f"OpExtInstImport: unknown extended instruction set '{name}'"
                f"{_suggest(name, IMPORT_NAMES)} (known: {', '.join(IMPORT_NAMES)}, or any "
                "'NonSemantic.' set)",
            )
        if result in self.imports:
            raise _Fail(j, f"OpExtInstImport: id {result} already names an imported set")
        self.imports[result] = found

    # -- operand helpers ---------------------------------------------------------------

    @staticmethod
    def _number(
        tok: str, j: int, where: str, desc: Desc, encode: Callable[[str], list[int]]
    ) -> list[int]:
        """``encode(tok)``, a NumberError becoming an error at word ``j``."""
        try:
            return encode(tok)
        except NumberError as exc:
            raise _Fail(
                j, f"{where} {desc[3]}: expected {describe(desc)}, found '{tok}' ({exc})"
            ) from None

    def _context_number(
        self, tok: str, j: int, where: str, desc: Desc, type_id: int | None, plan: Plan
    ) -> list[int]:
        """An OpConstant/OpSpecConstant literal, in the format of the result type."""
        found = self.types.get(type_id) if type_id is not None else None
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
            raise _Fail(j, f"{where} {desc[3]}: '{tok}': {exc}") from None
        raise _Fail(
            j,
            f"{where} {desc[3]}: the result type of {plan.info.name} must be a scalar integer "
            "or floating-point type (OpTypeInt/OpTypeFloat) defined before it",
        )

    def _switch_literal(
        self, tok: str, j: int, where: str, desc: Desc, words: list[int]
    ) -> list[int]:
        """An OpSwitch case literal, as wide as the selector's integer type."""
        type_id = self._value_type(words[1]) if len(words) > 1 else None
        found = self.types.get(type_id) if type_id is not None else None
        if found is None or found.is_float:
            raise _Fail(
                j,
                f"{where} {desc[3]}: the selector must be a value of a scalar integer type "
                "defined before this instruction (its type sets the literal's width)",
            )
        try:
            return encode_int(tok, found.width, found.signed)
        except NumberError as exc:
            raise _Fail(j, f"{where} {desc[3]}: '{tok}': {exc}") from None

    def _value_type(self, value: int) -> int | None:
        """The result type of the first instruction before this one that defines ``value``.

        Value types are not recorded as instructions go (that would cost every
        instruction): the module's words are read once, from where the last OpSwitch
        left off, so many OpSwitch instructions and many cases cost linear time.
        """
        value_types = self.value_types
        out = self.out
        words = self.words
        done = len(out)
        total = done + len(words)
        pos = self.value_types_end
        typed = _typed_results()
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
        self.value_types_end = pos
        return value_types.get(value)

    def _ext_instruction(
        self,
        tok: str,
        j: int,
        where: str,
        desc: Desc,
        ext: ExtSet,
        words: list[int],
        stack: list[Desc],
    ) -> str:
        """The extended instruction named (or numbered) ``tok``; pushes its operands.

        Returns the new "where" for messages (opcode, set and instruction).
        """
        if not ext.known:
            number = _decimal_u32(tok)
            if number is None:
                raise _Fail(
                    j,
                    f"{where} {desc[3]}: '{ext.import_name}' is not a known set, so its "
                    f"instructions are given by number; found '{tok}'",
                )
            words.append(number)
            stack.extend(unknown_ext_operands())
            return f"{where} {ext.import_name} {number}"
        entry = ext.by_name.get(tok)
        if entry is None:
            number = _decimal_u32(tok)
            if number is not None:
                entry = ext.by_number.get(number)
                if entry is None and ext.import_name.startswith("NonSemantic."):
                    # Like spirv-as: an unknown number in a NonSemantic set takes ids.
                    words.append(number)
                    stack.extend(unknown_ext_operands())
                    return f"{where} {ext.import_name} {number}"
            if entry is None:
                raise _Fail(
                    j,
                    f"{where} {desc[3]}: '{tok}' is not an instruction of "
                    f"{ext.import_name}{_suggest(tok, ext.by_name)}",
                )
        words.append(entry[0])
        stack.extend(entry[2])
        return f"{where} {ext.import_name} {entry[1]}"

    def _enum_value(
        self, table: EnumTable, name: str, j: int, where: str, desc: Desc, whole: str = ""
    ) -> int:
        """The value of enumerant ``name`` (aliases included), or an error with a suggestion."""
        value = table.names.get(name)
        if value is None and core_aliases_loaded():
            value = table.names.get(name)
        if value is None:
            shown = f"'{name}' in '{whole}'" if whole and whole != name else f"'{name}'"
            if not name:
                shown = f"an empty name in '{whole}'"
            raise _Fail(
                j,
                f"{where} {desc[3]}: expected {describe(desc)}, found {shown}"
                f"{_suggest(name, table.names)}",
            )
        return value


def _sentinel() -> list[str]:
    """The NUL words after a batch: more than the fast path reads past a verified word."""
    return [_NUL] * 8


def _last_start(toks: list[str]) -> int:
    """Index of the last word that starts an instruction (``OpX``, or ``%id`` of ``%id =
    OpX``); 0 if no word but the first does.  Every instruction before it ends before it."""
    k = len(toks) - 1
    while k > 0:
        if _is_op(toks[k]):
            if k >= 2 and toks[k - 1] == "=" and toks[k - 2][:1] == "%":
                return k - 2
            return k
        k -= 1
    return 0


def _decimal_u32(word: str) -> int | None:
    """An extended instruction number: decimal digits only (leading zeros allowed)."""
    digits = word.lstrip("0")
    if word.isdigit() and word.isascii() and len(digits) <= 10:
        value = int(digits or "0")
        if value <= 0xFFFFFFFF:
            return value
    return None


def _result_number(ids: dict[str, int], pending: dict[int, int], tok: str, free: int) -> int:
    """The number of result id ``tok``: the one it got where it was used before (then no
    longer pending a definition), else ``free``, the caller's next free number (which the
    caller then moves on)."""
    number = ids.get(tok)
    if number is None:
        ids[tok] = free
        return free
    pending.pop(number, None)
    return number


def _plain_int(word: str) -> bool:
    """True for a plain decimal below 10**9 without leading zeros (fast-path literal)."""
    return (
        word.isdigit() and word.isascii() and len(word) < 10 and (word[0] != "0" or len(word) == 1)
    )


def _alternate(stack: list[Desc]) -> list[Desc]:
    """The operand stack after ``!<integer>``: unchecked words, the result id kept."""
    for depth, desc in enumerate(reversed(stack)):
        if desc[0] == RESULT:
            return [CIV_DESC, RESULT_DESC] + [CIV_DESC] * depth
    return [CIV_DESC]


def _string_words(content: str, j: int, where: str) -> list[int]:
    """The words of a string literal (word ``j``); a lone surrogate is an error there."""
    try:
        return string_words(content)
    except EncodeError as exc:
        raise _Fail(j, f"{where}: {exc}") from None


def _looks_numeric(tok: str) -> bool:
    """The reference assembler's test for "a number, not a string" (digits, '.', '-')."""
    if _NUMBER_LIKE(tok) is None:
        return False
    return tok.count(".") <= 1 and "-" not in tok[1:] and tok != "-"


def _string_content(tok: str) -> str | None:
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


def _error(text: str, fail: _Fail, file: str) -> AssemblyError:
    """Turn an internal failure at a word index into an AssemblyError with line:col."""
    line, col = line_col(text, token_offset(text, fail.index))
    return AssemblyError(file, line, col, fail.message)


def assemble(
    text: str | AssemblyText,
    *,
    target_env: str | None = None,
    preserve_numeric_ids: bool = False,
    strict_ids: bool = False,
    file: str = "<input>",
    batch_characters: int = PIECE_CHARACTERS,
) -> array[int]:
    """The words of ``text``: :func:`spvbuild.text.assembler.assemble` documents it all.

    ``text`` may also be an :class:`~spvbuild.text.asm_source.AssemblyText` (a file read a
    piece at a time).  ``batch_characters`` (tests only) sets the size of the pieces of
    a ``str`` that are split into words at a time.
    """
    source = text if isinstance(text, AssemblyText) else AssemblyText.of_str(text, batch_characters)
    if target_env is None:
        target_env = target_env_of_lines(source.lines()) or DEFAULT_TARGET_ENV
    version = TARGET_ENVS.get(target_env)
    if version is None:
        raise ValueError(
            f"unknown target env {target_env!r}; expected one of {', '.join(TARGET_ENVS)}"
        )
    if source.is_empty():
        raise AssemblyError(file, 1, 1, "missing assembly text: the text is empty")
    try:
        preserve: frozenset[int] | None = None
        if preserve_numeric_ids:
            dry = _Assembler(source, version, target_env, None)
            dry.run(strict_ids)
            numeric = (parse_u32(name[1:]) for name in dry.ids)
            preserve = frozenset(v for v in numeric if v is not None)
            del dry
        return _Assembler(source, version, target_env, preserve).run(strict_ids)
    except _Fail as fail:
        raise _error(source.whole(), fail, file) from None
