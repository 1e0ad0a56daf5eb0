"""Merging modules into one, the first step of linking: each module's ids shifted past
those of the modules before it, its instructions put into the merged module's sections.

The sections are the logical layout's (``tables.SECTIONS``); an instruction outside the
functions goes to the section the grammar gives its opcode, and one the grammar puts in
functions (a global ``OpExtInst`` of a non-semantic set, ``OpLine``) or does not know goes
with the types and globals, where it stood.  Within a section the modules' instructions
keep module order, the first module's first.

What cannot be merged is a :class:`~spvbuild.errors.LinkError`: SPIR-V versions that
differ (unless the highest is asked for), addressing or memory models that differ between
two modules, a module without its memory model, the same entry point (name and execution
model) twice, and words the grammar cannot type in any module but the first (they may hold
ids, which could not be shifted).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spvbuild.errors import LinkError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_ENTRY_POINT, OP_MEMORY_MODEL
from spvbuild.passes.opcode_sets import section_of as section_of
from spvbuild.passes.program import Function, Program, opcode_name, split
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["Merged", "Untyped", "merge", "origin_in", "renamed", "section_of"]

NAME = "link"

_CONSTANTS = frozenset(
    opcode for opcode, info in tables.INSTRUCTIONS.items() if info.cls == "Constant-Creation"
)
"""Instructions whose untyped words can only be literals (a NaN's payload)."""


@dataclass(slots=True)
class Merged:
    """The modules merged, before any import is resolved.

    Fields: ``version`` (the highest of the inputs'), ``bound`` (every shifted id is below
    it), ``sections`` (section name → its instructions, the functions' section empty),
    ``functions`` (every module's functions, in module order), ``names`` (each input's
    name for messages, as given to :func:`merge`), ``starts`` (the first id of each
    input's shifted range: the input of id ``i`` is the last whose start is ``<= i``).
    """

    version: tuple[int, int]
    bound: int
    sections: dict[str, list[Instruction]]
    functions: list[Function]
    names: list[str]
    starts: list[int]

    def origin(self, rid: int) -> tuple[str, int]:
        """The name of the input that defined shifted id ``rid``, and the id it has there."""
        return origin_in(self.names, self.starts)(rid)


def origin_in(names: Sequence[str], starts: Sequence[int]) -> Callable[[int], tuple[str, int]]:
    """The function giving, for a shifted id, the name of the input that defined it and
    the id it has there (``starts``: the first id of each input's shifted range)."""

    def origin(rid: int) -> tuple[str, int]:
        found = bisect_right(starts, rid) - 1 if starts and starts[0] <= rid else 0
        return names[found], rid - starts[found] + 1

    return origin


class Untyped(Exception):
    """Words the grammar could not type (``RawWords``), met by :func:`renamed`."""


def _mapped(value: Any, new: Callable[[int], int]) -> Any:
    """An operand value with every id ``i`` in it made ``new(i)``."""
    kind = type(value)
    if kind is Id or kind is TypeId:
        return kind(new(value))
    if kind is tuple or kind is list:
        return kind(_mapped(v, new) for v in value)
    if kind is RawWords:
        raise Untyped
    if isinstance(value, Id):
        return kind(new(value))
    if isinstance(value, EnumerantParameters):
        return kind(*(_mapped(v, new) for v in value.parameters))
    return value


def renamed(inst: Instruction, new: Callable[[int], int]) -> Instruction:
    """``inst`` with every id ``i`` it defines or uses made ``new(i)``, in the order
    :func:`spvbuild.passes.ids.rename` visits them (result type, result id, operands),
    written for the hot loops of linking; :class:`Untyped` when its operands hold words
    the grammar could not type (a constant's literal words excepted: they hold no id)."""
    opcode, result_type, result_id, operands, ext_set = inst
    if result_type is not None:
        result_type = type(result_type)(new(result_type))
    if result_id is not None:
        result_id = type(result_id)(new(result_id))
    try:
        operands = tuple([_mapped(v, new) for v in operands])
    except Untyped:
        if opcode not in _CONSTANTS:
            raise
        operands = tuple([v if type(v) is RawWords else _mapped(v, new) for v in operands])
    return Instruction(opcode, result_type, result_id, operands, ext_set)


def _shift(program: Program, offset: int, name: str) -> list[Instruction]:
    """``program``'s instructions with every id moved up by ``offset``."""
    if offset == 0:
        return program.instructions

    def new(old: int) -> int:
        return old + offset

    out = []
    for inst in program.instructions:
        try:
            out.append(renamed(inst, new))
        except Untyped:
            where = f" %{int(inst.result_id)}" if inst.result_id is not None else ""
            raise LinkError(
                f"{name}: {opcode_name(inst.opcode)}{where} holds words the grammar cannot type, "
                "which may be ids that cannot be shifted past the other modules' (only the "
                "first module may hold them)",
                module=name,
            ) from None
    return out


def _version(
    programs: Sequence[Program], names: Sequence[str], use_highest_version: bool
) -> tuple[int, int]:
    versions = [p.version for p in programs]
    highest = max(versions)
    if not use_highest_version and min(versions) != highest:
        low = versions.index(min(versions))
        high = versions.index(highest)
        raise LinkError(
            f"conflicting SPIR-V versions: {'.'.join(map(str, versions[low]))} ({names[low]}) vs "
            f"{'.'.join(map(str, highest))} ({names[high]}); use_highest_version=True "
            "(--use-highest-version) takes the highest"
        )
    return highest


def merge(
    programs: Sequence[Program], names: Sequence[str], *, use_highest_version: bool = True
) -> Merged:
    """``programs`` merged into one (see the module's docstring); ``names`` name each in
    messages."""
    version = _version(programs, names, use_highest_version)
    sections: dict[str, list[Instruction]] = {name: [] for name in tables.SECTIONS}
    functions: list[Function] = []
    starts: list[int] = []
    offset = 0
    memory_model: tuple[Instruction, str] | None = None
    entry_points: dict[tuple[object, str], str] = {}
    for program, name in zip(programs, names, strict=True):
        starts.append(offset + 1)
        shifted = Program(
            program.version, program.generator, program.bound, _shift(program, offset, name)
        )
        layout = split(shifted, NAME)
        if not any(inst.opcode == OP_MEMORY_MODEL for inst in layout.head):
            raise LinkError(
                f"{name} has no OpMemoryModel, which every module declares", module=name
            )
        for inst in layout.head:
            opcode = inst.opcode
            if opcode == OP_MEMORY_MODEL:
                if memory_model is None:
                    memory_model = (inst, name)
                    sections["memory_model"].append(inst)
                else:
                    _same_models(memory_model, inst, name)
                continue
            if opcode == OP_ENTRY_POINT and len(inst.operands) >= 3:
                key = (inst.operands[0], str(inst.operands[2]))
                first = entry_points.get(key)
                if first is not None:
                    raise LinkError(
                        f"the entry point {key[1]!r} of execution model "
                        f"{getattr(inst.operands[0], 'name', inst.operands[0])} is defined in "
                        f"{first} and again in {name}",
                        symbol=key[1],
                        module=name,
                    )
                entry_points[key] = name
            sections[section_of(opcode)].append(inst)
        functions += layout.functions
        offset += max(program.bound - 1, 0)
    return Merged(version, offset + 1, sections, functions, list(names), starts)


def _same_models(first: tuple[Instruction, str], inst: Instruction, name: str) -> None:
    """LinkError when ``inst`` declares other models than the first memory model."""
    kept, kept_name = first
    for index, what in ((0, "addressing"), (1, "memory")):
        if (
            len(kept.operands) > index
            and len(inst.operands) > index
            and kept.operands[index] != inst.operands[index]
        ):
            mine, theirs = kept.operands[index], inst.operands[index]
            raise LinkError(
                f"conflicting {what} models: {getattr(mine, 'name', mine)} ({kept_name}) vs "
                f"{getattr(theirs, 'name', theirs)} ({name})",
                module=name,
            )
