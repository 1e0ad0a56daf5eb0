"""Writing a module: the body in layout order, capabilities and extensions resolved, the
words joined.

:func:`serialize` makes one pass over the body in layout order (the layout engine's
``join``): the words kept from each call are joined as they are, runs of words copied,
the other records encoded here, and what every instruction needs is listed; then the
requirements are resolved, the rules and checks run, and the header, the requirements
and the body are written.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, MutableSequence
from typing import Literal

from spvbuild.binary.encoder import Encoder, header_words
from spvbuild.errors import BuildError
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_EXTENSION,
    OP_FUNCTION_END,
    OP_LABEL,
    OP_MEMORY_MODEL,
    OP_NAME,
)
from spvbuild.ir.body import BlockItem, decoded
from spvbuild.ir.checks import check_defined, run_rules
from spvbuild.ir.interfaces import complete_interfaces
from spvbuild.ir.literals import type_widths
from spvbuild.ir.requirements import Requirements, requirement_records
from spvbuild.ir.section_order import laid_out, layout_engine
from spvbuild.ir.state import ModuleState
from spvbuild.ir.target_rules import check_written
from spvbuild.spirv.emission import Run
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.strings import string_words

__all__ = [
    "body_after_requirements",
    "finished_body",
    "layout",
    "ordered_instructions",
    "serialize",
    "to_bytes",
    "to_words",
]

_MADE_BY_PIECES = {OP_LABEL, OP_FUNCTION_END}  # records that Function.pieces() makes
_REQUIREMENT_SECTIONS = frozenset({"capabilities", "extensions"})  # written from the resolution


def _requirements(state: ModuleState) -> Requirements:
    """The resolution of what the module's instructions need, for its options."""
    return Requirements(state.version, state.target, state.sections, state.capability_mode)


def ordered_instructions(state: ModuleState) -> list[Instruction]:
    """Every instruction in logical-layout order, capabilities and extensions resolved."""
    requirement_head, body = layout(state)
    return requirement_head + decoded(body)


def layout(state: ModuleState) -> tuple[list[Instruction], list[BlockItem]]:
    """The OpCapability/OpExtension head and the body in logical-layout order (runs
    of words left as they are)."""
    body = finished_body(state)
    capabilities, extensions = _requirements(state).resolve(body, state._kept)
    return requirement_records(capabilities, extensions), body


def _function_name(state: ModuleState, function_id: int) -> str:
    """A function as users call it: ``'main' (%3)``, or ``%3`` when it has no OpName."""
    for inst in state.sections["debug_names"]:
        if inst.opcode == OP_NAME and int(inst.operands[0]) == function_id:
            return f"{inst.operands[1]!r} (%{function_id})"
    return f"%{function_id}"


def finished_body(state: ModuleState) -> list[BlockItem]:
    """Every function ended, the interfaces completed: the body in layout order."""
    for function in state.functions:
        if not function.ended:
            raise BuildError(
                f"function {_function_name(state, int(function.id))} is not ended: call "
                f"function_end() after its last block"
            )

    if state.complete_interfaces:
        complete_interfaces(state)
    return body_after_requirements(state)


def body_after_requirements(state: ModuleState) -> list[BlockItem]:
    """Every section after the requirements, in layout order (those whose order means
    nothing sorted), then the functions (declarations first)."""
    out: list[BlockItem] = laid_out(state.sections, _REQUIREMENT_SECTIONS, state._kept)
    functions = state.functions
    if len(functions) == 1:
        out += functions[0].pieces()
    else:
        for function in [f for f in functions if not f.blocks] + [
            f for f in functions if f.blocks
        ]:
            out += function.pieces()
    return out


def to_words(state: ModuleState) -> list[int]:
    """The module as SPIR-V words (header included)."""
    words: list[int] = []
    serialize(state, words)
    return words


def to_bytes(state: ModuleState, endian: Literal["little", "big"] = "little") -> bytes:
    """The module as bytes, little-endian unless ``endian="big"``."""
    words = array("I")  # compact: a big module's words as 4 bytes each
    serialize(state, words)
    if endian != sys.byteorder:
        words.byteswap()
    return words.tobytes()


def serialize(state: ModuleState, out: MutableSequence[int]) -> None:
    """Encoding, capability inference, rules, checks and the undefined-id check; the
    words, onto ``out``.

    One pass over the body in layout order joins the words (kept from the calls, runs
    of words as they are; the other records are encoded here) and lists what the
    instructions need (as their calls listed it, else by walking them); then the
    requirements are resolved and the rules run (on the runs decoded where a rule or a
    check needs them) before anything is written to ``out``.
    """
    body = finished_body(state)
    requirements = _requirements(state)
    collector = requirements.collector()
    met, found = (collector.met, collector.found) if collector is not None else (set(), {})
    used: dict[int, str] = {}
    encode: Callable[[Instruction], list[int]] | None = None  # made if a record needs it
    # The body's words, in the form of ``out`` (an array keeps a big module compact).
    words: MutableSequence[int] = array("I") if isinstance(out, array) else []
    extend = words.extend

    def other(record: Instruction, written: bool) -> None:
        # A record whose kept words are written but whose needs were not listed, or
        # one whose words are made here (labels and ends as Function.pieces() makes
        # them need nothing).
        nonlocal encode
        if not written:
            opcode = record.opcode
            if opcode in _MADE_BY_PIECES and not record.operands and not record.result_type:
                if record.result_id is None:
                    words.append(0x10000 | opcode)
                else:
                    extend((0x20000 | opcode, int(record.result_id)))
                return
            if encode is None:
                encode = Encoder(lambda t: type_widths(state, t), used).instruction
            extend(encode(record))
        if collector is not None:
            collector.walk(record)

    def on_run(run: Run) -> None:
        if collector is not None:
            collector.run(run)

    runs: list[Run] = layout_engine().join(
        body, state._kept, extend, Run, met, found, used, other, on_run
    )
    capabilities, extensions = requirements.resolution(collector)
    if state.target is not None:
        state.target.check_module(capabilities, state.sections)
        check_written(state, state.target.info)
    run_rules(state, capabilities, extensions, runs, body)
    out.extend(header_words(state.version, state._bound, state.generator))
    for capability in capabilities:
        out.extend((0x20000 | OP_CAPABILITY, capability))
    for extension in extensions:
        name = string_words(extension)
        out.extend((((1 + len(name)) << 16) | OP_EXTENSION, *name))
    out.extend(words)
    if used or state._pending_ids:
        check_defined(state, body, runs, used)
    has_model = any(i.opcode == OP_MEMORY_MODEL for i in state.sections["memory_model"])
    if not has_model and (state.functions or state.sections["entry_points"]):
        # (last: a rule or an undefined id says more about what the module lacks)
        raise BuildError(
            "no OpMemoryModel: call memory_model(addressing, memory_model) (every module "
            "with code needs one, e.g. memory_model(AddressingModel.Logical, "
            "MemoryModel.GLSL450) for a shader)"
        )
