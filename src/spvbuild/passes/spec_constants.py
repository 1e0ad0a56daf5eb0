"""Specialization constants given their values (``set-spec-const-default-value``) and made
constants (``freeze-spec-const``).

A specialization constant is chosen by its ``SpecId`` decoration.  Its value is read by its
type, as spirv-opt's ``--set-spec-const-default-value "<spec id>:<value> ..."`` reads it: a
bool's ``true`` or ``false``, an integer in Python's spelling (``-3``, ``0x10``), a float's
decimal or hexadecimal (``0x1.8p1``) spelling; or, from Python, a bool, an int or a float.
The value is written by the one number model (:mod:`spvbuild.spirv.numbers`): a float is
rounded to its type as the assembler would write it, and a value its type cannot hold is a
PassError naming the constant.  A SpecId the module does not declare is ignored, as a
Vulkan driver ignores a specialization entry nothing uses.

Freezing turns ``OpSpecConstantTrue``/``False`` and ``OpSpecConstant`` into the
``OpConstant*`` of the same id and value (their ``SpecId`` goes), then folds every
``OpSpecConstantComposite`` and ``OpSpecConstantOp`` whose operands are now all constants
(:func:`spvbuild.passes.fold.fold_globals`).  One that gives the length of an array of
explicit layout stays a specialization constant
(:func:`spvbuild.passes.fold.laid_out_lengths`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from spvbuild.binary.number_types import declared_number_type
from spvbuild.errors import ArgumentError, EncodeError, PassError
from spvbuild.generated.core.enums import Decoration
from spvbuild.generated.core.opcodes import (
    OP_CONSTANT,
    OP_CONSTANT_FALSE,
    OP_CONSTANT_TRUE,
    OP_SPEC_CONSTANT,
    OP_SPEC_CONSTANT_FALSE,
    OP_SPEC_CONSTANT_TRUE,
)
from spvbuild.passes.fold import fold_globals, laid_out_lengths, rename_uses
from spvbuild.passes.ids import is_targeting
from spvbuild.passes.program import Program, join, opcode_name, split
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.numbers import NumberType
from spvbuild.spirv.params import EnumerantParameters

__all__ = [
    "FREEZE_NAME",
    "SET_NAME",
    "SpecSetting",
    "freeze_spec_constants",
    "parse_spec_values",
    "freezing",
    "set_spec_constant_defaults",
    "setting",
]

SET_NAME = "set-spec-const-default-value"
FREEZE_NAME = "freeze-spec-const"

SpecSetting = bool | int | float | str
"""A specialization constant's value: a Python value, or text read by its type."""

FROZEN = {
    OP_SPEC_CONSTANT_TRUE: OP_CONSTANT_TRUE,
    OP_SPEC_CONSTANT_FALSE: OP_CONSTANT_FALSE,
    OP_SPEC_CONSTANT: OP_CONSTANT,
}
"""Each scalar specialization constant's opcode → its constant's."""


def parse_spec_values(text: str) -> dict[int, str]:
    """``"<spec id>:<value> ..."`` (spirv-opt's spelling: pairs apart by blanks) as a
    dict; ArgumentError naming the pair that does not read."""
    out: dict[int, str] = {}
    for pair in text.split():
        spec_id, colon, value = pair.partition(":")
        if not colon or not value or not spec_id.isdigit():
            raise ArgumentError(
                f'{SET_NAME}: {pair!r} is not <spec id>:<value> (e.g. "1:100 2:0x4 3:true")'
            )
        out[int(spec_id)] = value
    return out


def set_spec_constant_defaults(program: Program, values: Mapping[int, SpecSetting]) -> Program:
    """``program`` with the specialization constants of the SpecIds of ``values`` holding
    those values (still specialization constants; a new program, ``program`` unchanged)."""
    return _specialize(program, values, SET_NAME, freeze=False)


def freeze_spec_constants(
    program: Program, values: Mapping[int, SpecSetting] | None = None
) -> Program:
    """``program`` with specialization constants made constants (a new program; ``program``
    unchanged): with ``values``, those of the SpecIds it gives, holding those values; without,
    every one, holding its default."""
    return _specialize(program, values, FREEZE_NAME, freeze=True)


def _spec_ids(head: list[Instruction]) -> dict[int, int]:
    """Each SpecId-decorated id → its SpecId."""
    out = {}
    for inst in head:
        if is_targeting(inst) and len(inst.operands) > 1:
            value = inst.operands[1]
            if isinstance(value, EnumerantParameters) and value.enumerant == Decoration.SpecId:
                spec_id = value.parameters[0] if value.parameters else None
                if isinstance(spec_id, int):
                    out[int(inst.operands[0])] = spec_id
    return out


def _specialize(
    program: Program, values: Mapping[int, SpecSetting] | None, name: str, *, freeze: bool
) -> Program:
    layout = split(program, name)
    out = program.copy()
    spec_ids = _spec_ids(layout.head)
    chosen = {rid for rid, spec_id in spec_ids.items() if values is None or spec_id in values}
    unfrozen = laid_out_lengths(layout.head)
    numbers: dict[int, NumberType] = {}
    head: list[Instruction] = []
    frozen: set[int] = set()
    for inst in layout.head:
        number = declared_number_type(inst.opcode, inst.operands)
        if number is not None and inst.result_id is not None:
            numbers[int(inst.result_id)] = number
        rid = int(inst.result_id) if inst.result_id is not None else None
        if (
            inst.opcode in FROZEN
            and rid is not None
            and (rid in chosen or (freeze and values is None))
        ):
            if values is not None and rid in spec_ids:
                inst = _with_value(inst, values[spec_ids[rid]], numbers, name)
            if freeze and rid not in unfrozen:
                inst = inst._replace(opcode=FROZEN[inst.opcode])
                frozen.add(rid)
        head.append(inst)
    if frozen:
        head = [
            inst for inst in head if not (_is_spec_id(inst) and int(inst.operands[0]) in frozen)
        ]
    layout.head = head
    if freeze:
        folded, aliases = fold_globals(out, layout)
        layout.head = folded.declarations.head_with_additions()
        if aliases:
            rename_uses(layout, aliases)
    out.instructions = join(layout)
    return out


def _is_spec_id(inst: Instruction) -> bool:
    return (
        is_targeting(inst)
        and len(inst.operands) > 1
        and isinstance(inst.operands[1], EnumerantParameters)
        and inst.operands[1].enumerant == Decoration.SpecId
    )


def _with_value(
    inst: Instruction, value: SpecSetting, numbers: dict[int, NumberType], name: str
) -> Instruction:
    """The specialization constant ``inst`` holding ``value`` (see the module's docstring)."""

    def fail(reason: str) -> PassError:
        return PassError(name, reason, opcode_name(inst.opcode), inst.result_id)

    if inst.opcode in (OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE):
        truth = _truth(value)
        if truth is None:
            raise fail(f"{value!r} is no bool value (true or false)")
        return inst._replace(opcode=OP_SPEC_CONSTANT_TRUE if truth else OP_SPEC_CONSTANT_FALSE)
    number = numbers.get(int(inst.result_type)) if inst.result_type is not None else None
    if number is None:
        raise fail("its type is no integer or float type this pass writes")
    reader = _read_float if number.is_float else _read_integer
    literal = reader(value)
    if literal is None:
        raise fail(f"{value!r} is no value of a {number.describe()}")
    try:
        kept = number.value(number.words(literal))  # as written: a float rounded to its type
    except EncodeError as exc:
        raise fail(str(exc)) from None
    return inst._replace(operands=(kept, *inst.operands[1:]))


def _truth(value: SpecSetting) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def _read_integer(value: SpecSetting) -> int | None:
    if isinstance(value, bool) or isinstance(value, float):
        return None
    if isinstance(value, int):
        return value
    try:
        return int(value, 0)
    except ValueError:
        return None


def _read_float(value: SpecSetting) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            return float(value)
        except OverflowError:
            return None
    readers: tuple[Callable[[str], float], ...] = (float, float.fromhex)
    for reader in readers:
        try:
            number = reader(value)
        except ValueError:
            continue
        return None if math.isnan(number) else number
    return None


def setting(text: str) -> Callable[[Program], Program]:
    """The pass ``set-spec-const-default-value=<text>`` (ArgumentError for text that does
    not read, see :func:`parse_spec_values`)."""
    values = parse_spec_values(text)
    return lambda program: set_spec_constant_defaults(program, values)


def freezing(text: str) -> Callable[[Program], Program]:
    """The pass ``freeze-spec-const=<text>``: the SpecIds the text gives frozen at its
    values."""
    values = parse_spec_values(text)
    return lambda program: freeze_spec_constants(program, values)
