"""A target environment's rules beyond capabilities, extensions and enumerants: one named
checker per kind of rule (``grammars/target_envs.yaml``, an environment's ``rules``).

WebGPU's consumer, naga's SPIR-V front end, refuses some valid Vulkan SPIR-V: a variable of
a combined image sampler, OpLine among the globals, OpExecutionModeId, extended instruction
sets other than GLSL.std.450 and NonSemantic.*, a write-only (NonReadable) storage buffer,
and (WebGPU itself) a read-write storage texture of most formats.  Each is a :class:`~spvbuild.spirv.tables.TargetRule` of a kind:

* ``instruction``: its opcodes are refused (``where``: anywhere, or outside a function);
* ``variable_type``: no variable may point to one of its types (through arrays);
* ``ext_inst_import``: only its ``names`` may be imported (a name ending in ``.``: a
  prefix);
* ``storage_image_access``: a storage image variable (an OpTypeImage of Sampled 2, through
  arrays) decorated neither NonReadable nor NonWritable is read-write, allowed only for
  the rule's ImageFormats.  Decorations may follow the variable, so this is checked when
  the module is written, and names the call that declared the variable;
* ``dropped_decoration``: its Decorations are accepted but dropped by the consumer; the
  call that adds one gets a :class:`~spvbuild.errors.TargetWarning`;
* ``storage_buffer_decoration``: its Decorations are refused on a storage buffer variable
  (of the StorageBuffer storage class, or Uniform pointing to a struct already decorated
  BufferBlock), at the OpDecorate's call (WGSL has no write-only storage buffer).

A refusal is a BuildError of the call, naming the environment and the rule: ``OpLine
outside a function is not allowed by webgpu (rule no-line-outside-functions: naga reads
...) (at shader.py:12)``.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag
from typing import TYPE_CHECKING

from spvbuild.errors import BuildError, TargetWarning
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Decoration, ImageFormat, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_DECORATE,
    OP_EXT_INST_IMPORT,
    OP_MEMBER_DECORATE,
    OP_TYPE_ARRAY,
    OP_TYPE_IMAGE,
    OP_TYPE_POINTER,
    OP_TYPE_RUNTIME_ARRAY,
    OP_VARIABLE,
)
from spvbuild.spirv.call_site import caller_location, warn_at_call
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.tables import TargetEnvInfo, TargetRule

if TYPE_CHECKING:
    from spvbuild.ir.state import ModuleState

__all__ = ["check_call", "check_written"]

_STORAGE_IMAGE = 2  # OpTypeImage's Sampled operand: used without a sampler
_STORAGE_BUFFER = int(StorageClass.StorageBuffer)
_UNIFORM = int(StorageClass.Uniform)
_BUFFER_BLOCK = int(Decoration.BufferBlock)
_READ_ONLY = int(Decoration.NonWritable)
_WRITE_ONLY = int(Decoration.NonReadable)


def instruction_name(opcode: int) -> str:
    """The grammar's name of ``opcode``."""
    info = tables.INSTRUCTIONS.get(opcode)
    return info.name if info is not None else f"Op{opcode}"


def _refused(target: TargetEnvInfo, what: str, rule: TargetRule) -> BuildError:
    return BuildError(f"{what} is not allowed by {target.name} (rule {rule.name}: {rule.why})")


def _pointee(state: ModuleState, pointer_type: int | None) -> Instruction | None:
    """The type a pointer type points to, through arrays and runtime arrays."""
    pointer = state._definitions.get(int(pointer_type)) if pointer_type is not None else None
    if pointer is None or pointer.opcode != OP_TYPE_POINTER or len(pointer.operands) < 2:
        return None
    found = state._definitions.get(int(pointer.operands[1]))
    while found is not None and found.opcode in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY):
        found = state._definitions.get(int(found.operands[0]))
    return found


def _name(kind: type[IntEnum], value: int | None) -> str:
    """The name of ``value`` in the enum ``kind`` (its number where it has none)."""
    if value is None:
        return "?"
    try:
        return kind(value).name
    except ValueError:
        return str(value)


def _value(operand: object) -> int | None:
    enumerant = operand.enumerant if isinstance(operand, EnumerantParameters) else operand
    return int(enumerant) if isinstance(enumerant, IntEnum | IntFlag | int) else None


def check_call(state: ModuleState, target: TargetEnvInfo, inst: Instruction) -> None:
    """Refuse (BuildError) ``inst``, a call's instruction of an opcode the rules of the
    environment ``target`` watch (``TargetProfile.watched``), when one forbids it; warn for a dropped decoration; note a storage image variable
    for :func:`check_written`."""
    opcode = inst.opcode
    for rule in target.rules:
        kind = rule.kind
        if kind == "instruction" and opcode in rule.opcodes:
            if rule.where == "anywhere":
                raise _refused(target, instruction_name(opcode), rule)
            if state._function is None or state._function.ended:
                raise _refused(target, f"{instruction_name(opcode)} outside a function", rule)
        elif kind == "variable_type" and opcode == OP_VARIABLE:
            pointee = _pointee(state, inst.result_type)
            if pointee is not None and pointee.opcode in rule.opcodes:
                raise _refused(target, f"a variable of an {instruction_name(pointee.opcode)}", rule)
        elif kind == "storage_image_access" and opcode == OP_VARIABLE:
            pointee = _pointee(state, inst.result_type)
            if (
                pointee is not None
                and pointee.opcode == OP_TYPE_IMAGE
                and len(pointee.operands) > 6
                and _value(pointee.operands[5]) == _STORAGE_IMAGE
                and _value(pointee.operands[6]) not in rule.enumerants
                and inst.result_id is not None
            ):
                if state._storage_images is None:
                    state._storage_images = {}
                state._storage_images[int(inst.result_id)] = (
                    rule,
                    _name(ImageFormat, _value(pointee.operands[6])),
                    caller_location(1) or "?",
                )
        elif kind == "ext_inst_import" and opcode == OP_EXT_INST_IMPORT and inst.operands:
            name = str(inst.operands[0])
            if not any(
                name == allowed or (allowed.endswith(".") and name.startswith(allowed))
                for allowed in rule.names
            ):
                raise _refused(target, f"the extended instruction set {name!r}", rule)
        elif (
            kind == "storage_buffer_decoration"
            and opcode == OP_DECORATE
            and len(inst.operands) > 1
            and _value(inst.operands[1]) in rule.enumerants
            and _storage_buffer(state, inst.operands[0])
        ):
            name = _name(Decoration, _value(inst.operands[1]))
            raise _refused(
                target,
                f"Decoration.{name} on a storage buffer variable (%{inst.operands[0]})",
                rule,
            )
        elif kind == "dropped_decoration" and opcode in (OP_DECORATE, OP_MEMBER_DECORATE):
            at = 1 if opcode == OP_DECORATE else 2
            value = _value(inst.operands[at]) if len(inst.operands) > at else None
            if value in rule.enumerants:
                name = _name(Decoration, value)
                warn_at_call(
                    f"Decoration.{name} is dropped by {target.name} (rule {rule.name}: {rule.why})",
                    TargetWarning,
                )


def _storage_buffer(state: ModuleState, variable: object) -> bool:
    """Whether ``variable`` is a storage buffer variable: StorageBuffer, or Uniform pointing
    (through arrays) to a struct decorated BufferBlock."""
    found = state._definitions.get(int(variable)) if isinstance(variable, int) else None
    if found is None or found.opcode != OP_VARIABLE or not found.operands:
        return False
    storage = _value(found.operands[0])
    if storage == _STORAGE_BUFFER:
        return True
    if storage != _UNIFORM:
        return False
    pointee = _pointee(state, found.result_type)
    if pointee is None or pointee.result_id is None:
        return False
    struct = int(pointee.result_id)
    return any(
        inst.opcode == OP_DECORATE
        and len(inst.operands) > 1
        and int(inst.operands[0]) == struct
        and _value(inst.operands[1]) == _BUFFER_BLOCK
        for inst in state.sections["annotations"]
    )


def check_written(state: ModuleState, target: TargetEnvInfo) -> None:
    """Refuse (BuildError) a module, as it is written, whose storage image variable noted
    by :func:`check_call` is read-write (decorated neither NonReadable nor NonWritable):
    the message ends with the call that declared the variable."""
    noted = state._storage_images
    if not noted:
        return
    access: dict[int, set[int]] = {}
    for inst in state.sections["annotations"]:
        if inst.opcode == OP_DECORATE and len(inst.operands) > 1:
            value = _value(inst.operands[1])
            if value in (_READ_ONLY, _WRITE_ONLY):
                access.setdefault(int(inst.operands[0]), set()).add(value)
    for variable, (rule, format, where) in noted.items():
        if variable not in state._definitions or access.get(variable):
            continue
        error = BuildError(
            f"a read-write storage image of format {format} (%{variable}, decorated neither "
            f"NonReadable nor NonWritable) is not allowed by {target.name} (rule {rule.name}: "
            f"{rule.why}) (at {where})"
        )
        error.located = True  # type: ignore[attr-defined]  # (at the variable's call)
        raise error
