"""Loading a binary into a module under construction (``Module.from_binary``)."""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild.binary.read_module import ReadModule
from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.builder import FAST_PATH_FIRST_WORDS
from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT
from spvbuild.ir.routing import new_run, record
from spvbuild.ir.state import ModuleState
from spvbuild.ir.words_paths import reintern
from spvbuild.spirv.emission import Run
from spvbuild.spirv.ids import Id

__all__ = ["load_binary"]


def _name(opcode: int) -> str:
    info = tables.INSTRUCTIONS.get(opcode)
    return info.name if info is not None else f"opcode {opcode}"


def _definer(parsed: ReadModule, rid: int) -> int:
    """The opcode of the first instruction that defines ``rid`` (for the message)."""
    return next(i.opcode for i in parsed.instructions if i.result_id == rid)


def load_binary(state: ModuleState, parsed: ReadModule, words: Sequence[int]) -> None:
    """Route every instruction of a binary read (``parsed``, its ``words``) into
    ``state``, a new module's of the binary's version and generator, as
    a builder call would be routed (sections, functions, blocks); register the
    deduplicated ones, so that later calls such as ``type_float(32)`` return the ids the
    binary already has.

    A result id defined twice is a :class:`~spvbuild.errors.BuildError` naming both
    definitions (a builder call refuses it too).

    Instructions of the fast path's shapes in an open block are copied into runs as the
    binary has them, a span of consecutive ones at a time; the others are records.
    """
    state._bound = parsed.bound
    state._from_binary = True
    # Its ids below the bound may be undefined: every call is encoded with its used ids.
    state._put_words = None
    state._noting = False  # its functions' uses are found when written
    fast = FAST_PATH_FIRST_WORDS
    offset = 5
    span = -1  # where the current span of fast-path instructions starts
    run: Run | None = None
    # The ids defined so far, to refuse one defined twice: a byte per id below the bound
    # where the bound is no larger than the module (ids are below it: the reader checked),
    # else a set (nothing is allocated by a bound the input only claims).
    bound = words[3] if len(words) > 3 else 0
    small = bound <= len(words)
    seen_bytes = bytearray(bound if small else 0)
    seen_set: set[int] = set()
    for inst in parsed.instructions:
        first = words[offset]
        rid = inst.result_id
        if rid is not None:
            if small:
                twice = seen_bytes[rid] != 0
                seen_bytes[rid] = 1
            else:
                twice = rid in seen_set
                seen_set.add(rid)
            if twice:
                raise BuildError(
                    f"from_binary: {rid!r} is defined by {_name(_definer(parsed, rid))} and "
                    f"again by {_name(inst.opcode)} (word {offset}): an id is defined once"
                )
        if first in fast and (run is not None or state._fast_block is not None):
            if run is None:
                block = state._fast_block
                assert block is not None
                run = state._run or new_run(state, block)
                span = offset
            run.firsts[first] = None
        else:
            if run is not None:
                run.words.extend(words[span:offset])
                run = None
            record(state, inst)
            if inst.opcode == OP_EXT_INST_IMPORT and inst.result_id is not None:
                state._ext_imports[str(inst.operands[0])] = Id(inst.result_id)
        offset += first >> 16
    if run is not None:
        run.words.extend(words[span:offset])
    reintern(state)
    state._noting = True
