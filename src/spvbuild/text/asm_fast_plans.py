"""The assembler's fast-path tables: per target version, which instructions the engine's
fast loop (:mod:`spvbuild.text.asm_engine`) may encode without the operand stack, and how.

Made once per SPIR-V version from the plans of :mod:`spvbuild.text.asm_grammar` (its
:func:`~spvbuild.text.asm_grammar.fast_slots` shapes); nothing here knows a particular
instruction.  A :data:`FastPlan` is a plain tuple, the shape the compiled engine unpacks
fastest; the engine reads its fields by the positions documented there.
"""

from __future__ import annotations

from functools import cache

from spvbuild.generated.core.opcodes import OP_EXT_INST, OP_EXT_INST_IMPORT
from spvbuild.text.asm_grammar import FastSlot, Plan, core_plans, fast_slots

__all__ = [
    "C_EXT",
    "C_GENERAL",
    "C_IDS",
    "T_IDS",
    "T_INTS",
    "T_MASK",
    "T_NONE",
    "T_OTHER",
    "T_PAIRS",
    "FastPlan",
    "available",
    "fast_tables",
    "simple_table",
    "type_generating",
    "typed_results",
]

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

FastPlan = tuple[
    int,
    int,
    int,
    int,
    bool,
    "dict[str, tuple[int, int]] | None",
    tuple[FastSlot, ...],
    int,
]
"""One instruction's fast path, by position: category (``C_*``), first word if nothing
follows the fixed operands, slot count, opcode, has a result type, the tail's table (for
``T_MASK``: name → (value, parameter count)), the slots, the tail (``T_*``)."""


@cache
def available(version: tuple[int, int]) -> dict[str, Plan]:
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


@cache
def fast_tables(
    version: tuple[int, int],
) -> tuple[dict[str, FastPlan], dict[str, FastPlan]]:
    """Fast-path shapes of the available instructions: (with a result, without one)."""
    with_result: dict[str, FastPlan] = {}
    plain: dict[str, FastPlan] = {}
    skip = type_generating() | {OP_EXT_INST_IMPORT}
    for name, plan in available(version).items():
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
def simple_table(version: tuple[int, int]) -> dict[str, tuple[int, int]]:
    """``%r = OpX %type %a ...`` instructions of fixed length: name → (first word, ids)."""
    return {
        name: (fast[1], fast[2])
        for name, fast in fast_tables(version)[0].items()
        if fast[0] == C_IDS and fast[4] and fast[7] == T_NONE
    }


@cache
def typed_results() -> frozenset[int]:
    """Opcodes with a result type and a result id (the values OpSwitch may select on)."""
    return frozenset(
        plan.opcode for plan in core_plans().values() if plan.has_type and plan.has_result
    )


@cache
def type_generating() -> frozenset[int]:
    """Opcodes that declare a type (their result id names a type)."""
    return frozenset(
        plan.opcode
        for plan in core_plans().values()
        if plan.info.cls == "Type-Declaration" and plan.has_result and not plan.has_type
    )
