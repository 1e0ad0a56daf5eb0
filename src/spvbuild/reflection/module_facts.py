"""One walk over a read module that sorts what reflection looks at: debug names, decorations
(on ids and on struct members, decoration groups applied), the type, constant and global
declarations by id, and each function's references and calls.

Everything later (:mod:`~spvbuild.reflection.type_table`, :mod:`~spvbuild.reflection.constants`,
:mod:`~spvbuild.reflection.analysis`) asks these tables; none walks the instructions again.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any

from spvbuild.errors import ReflectionError
from spvbuild.generated.core import opcodes as op
from spvbuild.generated.core.tables import INSTRUCTIONS
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["ModuleFacts", "enum_name", "ids_in", "instruction_name", "word"]

# A decoration's number → its parameters (empty for one without).
Decorations = dict[int, tuple[Any, ...]]

_TYPE_OPCODES = frozenset(
    value
    for name, value in vars(op).items()
    if name.startswith("OP_TYPE_") and isinstance(value, int)
)
_CONSTANT_OPCODES = frozenset(
    (
        op.OP_CONSTANT_TRUE,
        op.OP_CONSTANT_FALSE,
        op.OP_CONSTANT,
        op.OP_CONSTANT_COMPOSITE,
        op.OP_CONSTANT_NULL,
        op.OP_CONSTANT_SAMPLER,
        op.OP_SPEC_CONSTANT_TRUE,
        op.OP_SPEC_CONSTANT_FALSE,
        op.OP_SPEC_CONSTANT,
        op.OP_SPEC_CONSTANT_COMPOSITE,
        op.OP_SPEC_CONSTANT_OP,
        op.OP_CONSTANT_COMPOSITE_REPLICATE_EXT,
        op.OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT,
    )
)


def word(value: Any) -> int:
    """A one-word operand as an int: an id, a literal, an enumerant (with parameters or
    not), the first of raw words; ReflectionError for anything else (a missing optional
    operand, a string)."""
    if isinstance(value, EnumerantParameters):
        value = value.enumerant
    if isinstance(value, int):
        return int(value)
    if isinstance(value, RawWords) and value:
        return int(value[0])
    raise ReflectionError(f"expected a one-word operand (an id, a number), found {value!r}")


def enum_name(value: Any) -> str:
    """An enumerant's name (an operand the reader gave as an enum, or with parameters);
    the number as text for a value the grammar does not name."""
    if isinstance(value, EnumerantParameters):
        value = value.enumerant
    if isinstance(value, Enum):
        return value.name.rstrip("_")
    return str(word(value))


def instruction_name(opcode: int) -> str:
    """The grammar's name of ``opcode`` (``Op<number>`` for one it does not know)."""
    info = INSTRUCTIONS.get(opcode)
    return info.name if info is not None else f"Op{opcode}"


def _decoration(value: Any) -> tuple[int, tuple[Any, ...]]:
    """A decoration operand → (its number, its parameters)."""
    if isinstance(value, EnumerantParameters):
        return int(value.enumerant), value.parameters
    return word(value), ()


def ids_in(values: Iterable[Any]) -> Iterable[int]:
    """The ids among an instruction's operands, nested tuples (pairs, lists) included."""
    for value in values:
        if isinstance(value, Id):
            yield word(value)
        elif isinstance(value, tuple) and not isinstance(value, EnumerantParameters):
            yield from ids_in(value)
        elif isinstance(value, EnumerantParameters):
            yield from ids_in(value.parameters)


class ModuleFacts:
    """The declarations and annotations of one module, by id."""

    def __init__(self, instructions: list[Instruction]) -> None:
        self.names: dict[int, str] = {}
        self.member_names: dict[tuple[int, int], str] = {}
        self.decorations: dict[int, Decorations] = {}
        self.member_decorations: dict[tuple[int, int], Decorations] = {}
        self.types: dict[int, Instruction] = {}
        self.constants: dict[int, Instruction] = {}
        self.constant_order: list[int] = []
        self.globals: dict[int, Instruction] = {}
        """Global OpVariables (outside functions) by id."""
        self.global_order: list[int] = []
        self.entry_points: list[Instruction] = []
        self.execution_modes: list[Instruction] = []
        self.capabilities: list[str] = []
        self.extensions: list[str] = []
        self.imports: list[str] = []
        self.memory_model: Instruction | None = None
        self.function_refs: dict[int, set[int]] = {}
        """A function's id → every id its body's instructions name."""
        self.function_calls: dict[int, set[int]] = {}
        """A function's id → the functions it calls."""
        self._groups: dict[int, list[Instruction]] = {}
        self._walk(instructions)

    def _walk(self, instructions: list[Instruction]) -> None:
        current: int | None = None  # the function being read
        refs: set[int] = set()
        calls: set[int] = set()
        for index, inst in enumerate(instructions):
            try:
                current, refs, calls = self._sort(inst, current, refs, calls)
            except ReflectionError as exc:
                raise ReflectionError(
                    f"instruction {index} ({instruction_name(inst.opcode)}): {exc}"
                ) from None
        if current is not None:
            raise ReflectionError(
                f"function %{current} has no OpFunctionEnd: the module ends inside it"
            )

    def _sort(
        self, inst: Instruction, current: int | None, refs: set[int], calls: set[int]
    ) -> tuple[int | None, set[int], set[int]]:
        """File one instruction; the function being read (and its references and calls)."""
        code = inst.opcode
        if current is not None:
            if code == op.OP_FUNCTION_END:
                self.function_refs[current] = refs
                self.function_calls[current] = calls
                return None, refs, calls
            if code == op.OP_FUNCTION_CALL:
                calls.add(word(inst.operands[0]))
            refs.update(ids_in(inst.operands))
            return current, refs, calls
        rid = inst.result_id
        if code == op.OP_FUNCTION:
            if rid is None:
                raise ReflectionError("OpFunction without a result id")
            current = word(rid)
            refs, calls = set(), set()
        elif code in _TYPE_OPCODES and rid is not None:
            self.types[word(rid)] = inst
        elif code in _CONSTANT_OPCODES and rid is not None:
            self.constants[word(rid)] = inst
            self.constant_order.append(word(rid))
        elif code == op.OP_VARIABLE and rid is not None:
            self.globals[word(rid)] = inst
            self.global_order.append(word(rid))
        elif code == op.OP_NAME:
            self.names[word(inst.operands[0])] = str(inst.operands[1])
        elif code == op.OP_MEMBER_NAME:
            key = (word(inst.operands[0]), word(inst.operands[1]))
            self.member_names[key] = str(inst.operands[2])
        elif code in (op.OP_DECORATE, op.OP_DECORATE_ID, op.OP_DECORATE_STRING):
            number, params = _decoration(inst.operands[1])
            self.decorations.setdefault(word(inst.operands[0]), {})[number] = params
        elif code in (op.OP_MEMBER_DECORATE, op.OP_MEMBER_DECORATE_STRING):
            number, params = _decoration(inst.operands[2])
            key = (word(inst.operands[0]), word(inst.operands[1]))
            self.member_decorations.setdefault(key, {})[number] = params
        elif code == op.OP_GROUP_DECORATE:
            group = self.decorations.get(word(inst.operands[0]), {})
            for target in inst.operands[1]:
                self.decorations.setdefault(word(target), {}).update(group)
        elif code == op.OP_GROUP_MEMBER_DECORATE:
            group = self.decorations.get(word(inst.operands[0]), {})
            for target, member in inst.operands[1]:
                key = (word(target), word(member))
                self.member_decorations.setdefault(key, {}).update(group)
        elif code == op.OP_ENTRY_POINT:
            self.entry_points.append(inst)
        elif code in (op.OP_EXECUTION_MODE, op.OP_EXECUTION_MODE_ID):
            self.execution_modes.append(inst)
        elif code == op.OP_CAPABILITY:
            self.capabilities.append(enum_name(inst.operands[0]))
        elif code == op.OP_EXTENSION:
            self.extensions.append(str(inst.operands[0]))
        elif code == op.OP_EXT_INST_IMPORT:
            self.imports.append(str(inst.operands[0]))
        elif code == op.OP_MEMORY_MODEL:
            self.memory_model = inst
        return current, refs, calls

    def decoration(self, target: int, number: int) -> tuple[Any, ...] | None:
        """The parameters of decoration ``number`` on ``target`` (None: not decorated)."""
        found = self.decorations.get(target)
        return found.get(number) if found is not None else None

    def reachable(self, function: int) -> set[int]:
        """``function`` and every function it calls, directly or not."""
        seen = {function}
        todo = [function]
        while todo:
            for callee in self.function_calls.get(todo.pop(), ()):
                if callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        return seen
