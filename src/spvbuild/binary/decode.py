"""The reader's decoding loop: every instruction of a module, in one pass.

:class:`Reader` runs the read engine's ``decode`` (:mod:`spvbuild.binary.read_engine`)
over the words with the codes the plans give each first word
(:meth:`spvbuild.binary.plans.CorePlan.code`): inline paths, the fast-path decoders
(:mod:`spvbuild.binary.fast_paths`) or the general decoder
(:mod:`spvbuild.binary.general`).  A lookup that fails hands its instruction to the
general decoder (``_fallback``); id 0 taken by a fast path is found after the loop
(``_zero_error``); context-dependent literals wait until every numeric type is known
(``_decode_later``).  See "Design for speed" in :mod:`spvbuild.binary.reader`.
"""

from __future__ import annotations

import gc
import sys
from array import array
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from spvbuild.accel import engines, records
from spvbuild.binary import framing
from spvbuild.binary import read_codes as _codes
from spvbuild.binary.fast_paths import FastPaths, type_definer
from spvbuild.binary.framing import offsets
from spvbuild.binary.general import DEFAULT_CONTEXT, Context, Defer
from spvbuild.errors import BinaryError
from spvbuild.generated.core.opcodes import OP_CONSTANT, OP_SPEC_CONSTANT, OP_SWITCH
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["Reader"]


class Reader(FastPaths):
    """Decodes every instruction of one module (the words after the header)."""

    def __init__(self, words: array[int], bound: int) -> None:
        super().__init__(words, bound)
        self.zero: Id | None = None  # item 0 of the bulk list of ids (see _zero_error)
        self.zero_refs: int | None = None  # references to it before the first instruction

    # -- the main loop --------------------------------------------------------------------
    def run(self, count: int, firsts: set[int]) -> list[Instruction]:
        """Decode every instruction (``reader._split`` has checked the framing and returned
        the number of instructions and the first words)."""
        paused = gc.isenabled()
        gc.disable()  # a million new tuples trigger collections that would find nothing
        try:
            # The compiled form indexes the ids as a list: with ids made on first sight
            # (an id table) the interpreted form runs.
            bulk = self.bound <= len(self.words)  # every id in bulk (else each on first sight)
            engine = framing.engine() if bulk else engines.plain("read_engine")
            made = records.for_engine(engine)  # C allocations with the compiled engine
            if bulk:
                ids = made.new_ids(Id, max(self.bound, 1))
                self.ids = ids
                self.zero = ids[0]  # a marker for id 0, see _zero_error
                define = type_definer(self.ids, self.type_ids, self.bound)
                self.shared = (made.new_record, *self.shared[1:4], ids, self.type_ids, define)
                del ids
                self.zero_refs = self._zero_refs()
            code = self.plan.code
            codes = {first: code(first) for first in firsts}
            out: list[Any] = []
            later: list[int] = []  # indices in out of deferred instructions (their offset)
            # the offsets of the instructions: made only where an error or a redo needs them
            starts: list[int] | None = None
            try:
                self._engine_loop(engine, made.new_record, out, later, codes)
            except BinaryError:
                zero = self._zero_error(out, starts)  # an earlier instruction has id 0
                if zero is not None:
                    raise zero from None
                raise
            zero = self._zero_error(out, starts)
            if zero is not None:
                raise zero
            if self.redefined:
                # A numeric type id defined twice: constants decoded inline may have used a
                # width the encoder will not (it takes the last definition).  Redo them all.
                inline = (OP_CONSTANT, OP_SPEC_CONSTANT)
                again = [
                    k for k, inst in enumerate(out) if type(inst) is not int and inst[0] in inline
                ]
                if again:
                    if starts is None:
                        starts = offsets(self.words)
                    for k in again:
                        out[k] = starts[k]
                    later = sorted(set(later).union(again))
            if later:
                self._decode_later(out, later)
            return out
        finally:
            if paused:
                gc.enable()

    def _zero_error(self, out: list[Any], starts: list[int] | None) -> BinaryError | None:
        """The error of the first instruction in ``out`` that a fast path gave id 0.

        With the ids in bulk (a list indexed by word), a fast path's lookup of an id past
        the bound fails (IndexError) but one of id 0 puts item 0, the ``zero`` marker, into
        the instruction.  The marker's reference count says whether any instruction holds
        it (CPython; elsewhere they are searched); the general decoder then gives for the
        first one the error it would have raised at once.
        """
        if self.zero is None:
            return None
        refs = self._zero_refs()
        if refs is not None and refs == self.zero_refs:
            return None
        words = self.words
        if starts is None:
            starts = offsets(words)
        for i, inst in zip(starts, out, strict=False):  # out stops at an error
            if type(inst) is not int and _holds(inst, self.zero):
                try:
                    self.instruction(i, i + (words[i] >> 16), words[i] & 0xFFFF, None)
                except BinaryError as error:
                    return error
                raise AssertionError(f"word {i}: id 0 was not refused")  # pragma: no cover
        return None

    def _zero_refs(self) -> int | None:
        """References to the ``zero`` marker (None if the platform cannot tell)."""
        count: Callable[[object], int] | None = getattr(sys, "getrefcount", None)
        return None if count is None else count(self.zero)

    def _fallback(self, i: int, out: list[Any], later: list[int], codes: dict[int, int]) -> None:
        """Decode the instruction at ``i`` whose fast path failed (a lookup), or whose
        first word is below the grammar's minimum, with the general decoder, or defer it."""
        w0 = self.words[i]
        if w0 not in codes and self.plan.code(w0) == _codes.DEFERRED:
            later.append(len(out))
            out.append(i)
            return
        try:
            out.append(self.instruction(i, i + (w0 >> 16), w0 & 0xFFFF, None))
        except Defer:
            later.append(len(out))
            out.append(i)

    def _engine_loop(
        self,
        engine: ModuleType,
        new_record: Callable[[Any, tuple[Any, ...]], Any],
        out: list[Any],
        later: list[int],
        codes: dict[int, int],
    ) -> None:
        """Decode every instruction into ``out`` (a deferred one: its offset, in ``later``)
        by the read engine's :func:`~spvbuild.binary.read_engine.decode`: each takes the fast path
        of its first word (``codes``: an inline one, or the decoder of its one-word path,
        see fast_paths._Decoders and _ExtPlans) or the general decoder.  A fast path's lookup that
        fails (an id past the bound: IndexError; a result type not declared before, an enum
        value the path does not take: KeyError) hands its instruction to the general
        decoder (``_fallback``), which makes the value, keeps it raw or says where; so does
        a first word below the grammar's minimum (not in ``codes``, see reader._split)."""
        words = self.words
        general = self.instruction

        def general_or_none(i: int) -> Instruction | None:
            w0 = words[i]
            try:
                return general(i, i + (w0 >> 16), w0 & 0xFFFF, None)
            except Defer:
                return None

        lookups = (
            self.ids,
            self.type_ids,
            self.inline,
            self.decoders,
            self.ext_plans,
            general_or_none,
            Instruction,
            [-1] * engine.SEEN,
            [0] * engine.SEEN,
            new_record,
        )
        data, n = engine.prepare(words)
        i: int = engine.decode(data, n, 5, codes, lookups, out, later)
        while i:
            self._fallback(i, out, later, codes)
            i = engine.decode(data, n, i + (words[i] >> 16), codes, lookups, out, later)

    # -- context-dependent literals, once the types are known -----------------------------
    def _decode_later(self, out: list[Any], later: list[int]) -> None:
        """Decode the deferred instructions with the number context the encoder will use.

        ``encode_module`` sizes a literal by the *last* OpTypeInt/OpTypeFloat defining
        the result type (for OpSwitch: the type of the selector, as given by the last
        instruction defining the selector), so the contexts come from the whole module.
        """
        words = self.words
        header = self.plan.header
        widths = self.widths
        value_types: dict[int, int] = {}
        selectors = {words[out[k] + 1] for k in later if words[out[k]] & 0xFFFF == OP_SWITCH}
        if selectors:
            for inst in out:
                if type(inst) is int:
                    has_rt, has_rid, _ = header.get(words[inst] & 0xFFFF, (False, False, False))
                    if not (has_rt and has_rid):
                        continue
                    result_type, result_id = words[inst + 1], words[inst + 2]
                else:
                    result_type, result_id = inst[1], inst[2]
                    if result_type is None or result_id is None:
                        continue
                if result_id in selectors:
                    value_types[result_id] = result_type
        for k in later:
            i = out[k]
            w0 = words[i]
            op = w0 & 0xFFFF
            context: Context | None = None
            if op == OP_SWITCH:
                selector_type = value_types.get(words[i + 1])
                if selector_type is not None:
                    context = widths.get(selector_type)
            elif header[op][0]:
                context = widths.get(words[i + 1])
            out[k] = self.instruction(i, i + (w0 >> 16), op, context or DEFAULT_CONTEXT)


def _holds(inst: Instruction, marker: Id) -> bool:
    """True if the result id or an operand is ``marker``, or holds it (an item of a
    variadic operand, of a pair, of a mask's list, a parameter)."""
    return inst[2] is marker or _within(inst[3], marker)


def _within(values: Sequence[Any], marker: Id) -> bool:
    for value in values:
        if value is marker:
            return True
        if type(value) is tuple or type(value) is list:
            if _within(value, marker):
                return True
        elif isinstance(value, EnumerantParameters) and _within(value.parameters, marker):
            return True
    return False
