"""The assembler's engine: assembly text → words, behind :func:`spvbuild.text.assembler.assemble`.

One pass over the text's words in the style of the reference assembler (SPIRV-Tools):
this module holds the pass's state (ids, declared types, imported sets, the module's
words), splits the text into batches and runs the fast path below; every instruction the
fast path does not take is read by the general parser,
:func:`spvbuild.text.asm_parser.parse_instruction`, against the stack of expected operand
kinds taken from the grammar tables (:mod:`spvbuild.text.asm_grammar`).  Ids are numbered
in order of first appearance (or keep their numbers with ``preserve_numeric_ids``),
defined or not, like spirv-as.  The fast path's tables come from
:mod:`spvbuild.text.asm_fast_plans`, failures and their messages from
:mod:`spvbuild.text.asm_failures`.

Memory: the text is split into words a batch at a time, each batch assembled up to its
last instruction start, and the finished words kept in an ``array('I')``; so a large
text never has all its words, nor a Python int per module word, in memory at once.

Speed: the text is split into words in C (:func:`spvbuild.text.asm_tokens.tokens`), and the
common instructions whose operands are all ids or plain integers take a fast path that
skips the operand stack, appending straight to the module's words; every other
instruction, and any fast-path doubt, goes through the general parser, which is plain
Python in every form.  Positions are
computed only when an error is reported.

This module is plain Python and runs as it is.  ``python -m spvbuild.accel.accelerate`` also
compiles a copy of it with mypyc (``spvbuild._asm_engine_mypyc``), which
:mod:`spvbuild.accel.engines` loads instead when it was compiled from this very source; the
code is written for both: explicit loops over typed locals, no dynamic tricks.
"""

from __future__ import annotations

from array import array

from spvbuild.binary.encoder import header_words
from spvbuild.errors import AssemblyError
from spvbuild.spirv.numbers import NumberType
from spvbuild.text.asm_failures import (
    AsmFailure,
    assembly_error,
    invalid_id_failure,
    undefined_id_failure,
)
from spvbuild.text.asm_fast_plans import (
    T_IDS,
    T_INTS,
    T_MASK,
    T_PAIRS,
    FastPlan,
    available,
    fast_tables,
    simple_table,
    type_generating,
)
from spvbuild.text.asm_grammar import (
    F_ENUM,
    F_ID,
    F_LIT,
    TARGET_ENVS,
    ExtSet,
    FastSlot,
)
from spvbuild.text.asm_numbers import parse_u32
from spvbuild.text.asm_parser import parse_instruction
from spvbuild.text.asm_source import PIECE_CHARACTERS, AssemblyText, target_env_of_lines
from spvbuild.text.asm_tokens import id_name_match, token_batches

__all__ = ["DEFAULT_TARGET_ENV", "assemble"]

DEFAULT_TARGET_ENV = "spv1.6"
"""``spirv-as``'s target when neither ``--target-env`` nor a ``; Version:`` header says one:
universal SPIR-V 1.6 (version word 0x00010600)."""


# Words after the last one, so that the fast path may look ahead without bound checks
# (a NUL cannot be in a word: the text ends at its first NUL).  The fast path reads past
# the words it has verified only a few at a time, never more than ``_sentinel`` holds.
_NUL = "\0"


def _is_op(word: str) -> bool:
    """True if ``word`` starts like an opcode: ``Op`` and an upper-case ASCII letter."""
    return word[:2] == "Op" and len(word) > 2 and "A" <= word[2] <= "Z"


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
        self.available = available(version)
        self.type_generating = type_generating()
        # OpSwitch literals: result id → result type of the instructions before, read
        # from the module's words up to ``value_types_end`` (built only when needed).
        self.value_types: dict[int, int] = {}
        self.value_types_end = 5

    # -- ids -------------------------------------------------------------------------

    def new_id(self, tok: str, index: int, where: str) -> int:
        """Number a word that is not yet a known id (validating it first)."""
        if tok[:1] != "%":
            raise AsmFailure(index, f"{where}: expected an id (%name), found '{tok}'")
        if id_name_match(tok) is None:
            raise AsmFailure(
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

    def id_of(self, tok: str, index: int, where: str) -> int:
        """The number of id word ``tok`` (numbered now if it is new)."""
        value = self.ids.get(tok)
        if value is None:
            value = self.new_id(tok, index, where)
        return value

    # -- instruction boundaries --------------------------------------------------------

    def starts(self, j: int) -> bool:
        """True if word ``j`` begins an instruction (``OpX`` or ``%id = OpX``)."""
        toks = self.toks
        tok = toks[j]
        if _is_op(tok):
            return True
        return tok[0] == "%" and j + 2 < self.n and toks[j + 1] == "=" and _is_op(toks[j + 2])

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
                except AsmFailure as fail:
                    moved = AsmFailure(self.base + fail.index, fail.message)
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
        (:func:`~spvbuild.text.asm_parser.parse_instruction`) from the instruction's start.  New result ids are not
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
            fast_result, fast_plain = fast_tables(self.version)
            fast_simple = simple_table(self.version)
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
            i = parse_instruction(self, i)
            nid = self.next_id
        self.next_id = nid
        return i

    def _fast_general(self, fp: FastPlan, i: int, j: int, tok: str | None) -> int:
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
                        if id_name_match(t) is None:
                            break
                        v = self.new_id(t, end, "")
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
        """Reject an invalid result id the fast path numbered without checking, where the
        general parser would have failed before word ``before`` (of the whole text)."""
        failure = invalid_id_failure(self.ids, self.source, before)
        if failure is not None:
            raise failure

    def _fast_result(self, tok: str) -> int | None:
        """The number of result id ``tok`` (created if new); None if it is not an id."""
        if tok not in self.ids and id_name_match(tok) is None:
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
                    if id_name_match(t) is None:
                        return None
                    v = self.new_id(t, k, "")
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
        failure = undefined_id_failure(self.ids, self.pending)
        if failure is not None:
            raise failure


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
    except AsmFailure as failure:
        raise assembly_error(source.whole(), failure, file) from None
