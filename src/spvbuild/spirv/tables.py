"""The shapes of the generated instruction and operand-kind tables.

Generated modules (``spvbuild.generated.core.tables``, ``spvbuild.generated.extinst.*``)
fill these records from the grammar; the one generic encoder (and later the reader,
assembler and disassembler) walk them instead of having code per instruction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class OperandInfo(NamedTuple):
    """One operand of an instruction or enumerant: kind, grammar name, quantifier."""

    kind: str
    name: str
    quantifier: str  # "", "?" or "*"


class InstructionInfo(NamedTuple):
    """Everything the tools need to know about one instruction."""

    name: str
    opcode: int
    cls: str
    operands: tuple[OperandInfo, ...]
    section: str  # logical-layout section (grammars/core.yaml: logical_layout)
    capabilities: tuple[str, ...]  # any one of them enables the instruction
    extensions: tuple[str, ...]  # any one of them enables it (below `version`)
    version: tuple[int, int] | None  # first core version; None = extension only
    last_version: tuple[int, int] | None

    @property
    def has_result_type(self) -> bool:
        """True when operand 0 is the result type."""
        return bool(self.operands) and self.operands[0].kind == "IdResultType"

    @property
    def has_result(self) -> bool:
        """True when the instruction defines a result id."""
        return any(op.kind == "IdResult" for op in self.operands[:2])


class EnumerantInfo(NamedTuple):
    """One enumerant: value, parameters and what enables it."""

    name: str
    value: int
    parameters: tuple[OperandInfo, ...]
    capabilities: tuple[str, ...]
    extensions: tuple[str, ...]
    version: tuple[int, int] | None


class KindInfo(NamedTuple):
    """An operand kind; ``enumerants`` is keyed by value (empty for non-enums)."""

    name: str
    category: str  # ValueEnum, BitEnum, Id, Literal, Composite
    bases: tuple[str, ...]
    enumerants: dict[int, EnumerantInfo]
    operand_class: int  # spvbuild.generated.core.operand_classes: how its words are read


class TargetEnvInfo(NamedTuple):
    """A target environment as ``grammars/target_envs.yaml`` describes it (generated into
    ``spvbuild.generated.core.targets.TARGET_ENVS``)."""

    name: str  # spirv-val's --target-env name
    family: str  # vulkan, opencl or universal
    version: tuple[int, int]  # the SPIR-V version a module for it is written at
    everything: bool  # every capability and extension up to the version (universal)
    capabilities: tuple[str, ...]  # allowed by the environment itself
    extensions: tuple[str, ...]  # allowed SPIR-V extensions
    # (operand kind, value, enumerant name, why) of the enumerants it refuses
    forbids: tuple[tuple[str, int, str, str], ...]
    source: str  # where the facts come from
    # (capability, the capability that must be declared before it): allowed only so
    after: tuple[tuple[str, str], ...] = ()


class IdRun(NamedTuple):
    """Where the operands after an instruction's result id are ids (see :func:`id_run`)."""

    required: int  # operands that must be present
    optional: int  # operands that may be absent ("?"), ids or not
    ids: int  # the leading operands that are single ids (up to a non-id or a variadic)
    variadic: bool  # a variadic id operand ends those leading ids
    plain: bool  # the required ones are ids and come first, then only optionals or one variadic id


def id_run(operands: Sequence[tuple[bool, str]]) -> IdRun:
    """The one fast-path shape classifier of id operands: the reader's inline paths, the
    disassembler's id-only paths and the assembler's fast-path slots are derived from it.

    ``operands``: (is an id, quantifier) of each operand after the result id, the class
    coming from ``KindInfo.operand_class`` (or a consumer's slot code for it).
    """
    required = sum(1 for _, quantifier in operands if quantifier == "")
    optional = sum(1 for _, quantifier in operands if quantifier == "?")
    ids = 0
    variadic = False
    for is_id, quantifier in operands:
        if not is_id:
            break
        if quantifier == "*":
            variadic = True
            break
        ids += 1
    rest = operands[required:]
    plain = all(is_id and quantifier == "" for is_id, quantifier in operands[:required]) and (
        all(quantifier == "?" for _, quantifier in rest)
        or len(rest) == 1
        and rest[0][0]
        and rest[0][1] == "*"
    )
    return IdRun(required, optional, ids, variadic, plain)
