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
        operands = self.operands  # (no generator: this is asked per instruction)
        return (len(operands) > 0 and operands[0].kind == "IdResult") or (
            len(operands) > 1 and operands[1].kind == "IdResult"
        )


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
    # the spirv-val --target-env that validates a module for it (its own name but for an
    # environment spirv-val does not know: webgpu → vulkan1.1)
    validator: str = ""
    # what it refuses beyond capabilities, extensions and enumerants (spvbuild.ir.target_rules)
    rules: tuple[TargetRule, ...] = ()


class TargetRule(NamedTuple):
    """One rule of a target environment (``grammars/target_envs.yaml``, ``rules``), checked
    by the checker of its ``kind`` (:mod:`spvbuild.ir.target_rules`)."""

    name: str  # the rule's name, in every message about it
    # instruction, variable_type, storage_image_access, ext_inst_import, dropped_decoration,
    # storage_buffer_decoration
    kind: str
    why: str  # what the consumer says or does
    opcodes: tuple[int, ...] = ()  # instruction, variable_type
    where: str = "anywhere"  # instruction: anywhere or outside_functions
    enumerants: tuple[int, ...] = ()  # ImageFormat or Decoration values
    names: tuple[str, ...] = ()  # ext_inst_import: allowed set names ('.' at the end: a prefix)


RESULT: int = -1
"""In a :class:`TypeConstraint`, the reference to the result type (any other reference is
the position of an operand after the result id)."""


# What a module knows of a type at a glance (ModuleState._type_bits): the generated fast
# paths accept a call at once when its result type has every bit its rule asks for and
# each operand is a value of exactly that type.
TYPE_INT: int = 1  # an int, or a vector of ints
TYPE_FLOAT: int = 2  # a float, or a vector of floats
TYPE_BOOL: int = 4  # a bool, or a vector of bools
TYPE_SCALAR: int = 8
TYPE_VECTOR: int = 16
TYPE_UNSIGNED: int = 32  # ints of signedness 0
TYPE_SIGNED: int = 64  # ints of signedness 1


class TypeForm(NamedTuple):
    """How a type declaration the type rules model keeps its facts (``grammars/type_rules.yaml``):
    its category and the positions (after the result id) of the operands that hold them,
    -1 where it has none."""

    category: str  # void, bool, int, float, vector, matrix, array, struct, pointer
    width: int
    signedness: int
    component: int  # component, column, element or pointee type
    number: int  # number of components or columns
    members: int  # a struct's member types (variadic)
    storage: int  # a pointer's storage class


class TypeConstraint(NamedTuple):
    """Tests on one type, all of which must hold (``grammars/type_rules.yaml`` says what
    each means).  A reference is :data:`RESULT` or an operand's position; None: no test."""

    is_: str | None = None
    shape: str | None = None
    signedness: int | None = None
    same: int | None = None
    like: int | None = None
    count_as: int | None = None
    or_scalar: bool = False
    width_as: int | None = None
    element_is: int | None = None
    pointer_to: int | None = None
    pointee_of: int | None = None
    writable: bool = False


class TypeRule(NamedTuple):
    """The type rule of one instruction: its name (shared by a group) and source, the
    result's constraint, each constrained operand's (position, name, constraint), and the
    rule's relations over literal operands (positions): ``indexes`` (composite, indexes),
    ``shuffle`` (first vector, second vector, components)."""

    name: str
    source: str
    result: TypeConstraint | None
    operands: tuple[tuple[int, str, TypeConstraint], ...]
    indexes: tuple[int, int] | None = None
    shuffle: tuple[int, int, int] | None = None


class ReadOnlyStorage(NamedTuple):
    """A storage class a store may not write: always, or only where the pointee (through
    arrays) is a struct with ``decoration``, or only in a target environment of ``family``."""

    storage: int
    decoration: int | None
    family: str | None


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
