"""Extension rules written as grammar data, enforced when a module is serialized.

Each rule in ``grammars/extensions/*.yaml`` names a checker (``check``) and gives it data;
the generated table ``spvbuild.generated.core.tables.RULES`` carries them here.  A broken
rule raises :class:`~spvbuild.errors.BuildError` citing the rule id, its extension, the
source in the specification and the rule's text.

Checkers:

* ``decoration_targets`` — a decoration only on the listed instructions (and OpExtInst of
  the listed extended instructions): NoSignedWrap / NoUnsignedWrap, ArgumentAttributeINTEL.
* ``function_pointer_constant`` — OpConstantFunctionPointerINTEL's Result Type is a
  pointer in the given storage class to the function's own OpTypeFunction.
* ``function_pointer_call`` — OpFunctionPointerCallINTEL's Result Type and argument types
  match the OpTypeFunction the function pointer points to.
* ``function_pointer_operands`` — where a function pointer must not appear (``forbidden``);
  ``allowed`` lists the legal uses and is informational.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from typing import Any

from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import (
    OP_ACCESS_CHAIN,
    OP_CONSTANT_FUNCTION_POINTER_INTEL,
    OP_COPY_OBJECT,
    OP_DECORATE,
    OP_DECORATE_ID,
    OP_DECORATE_STRING,
    OP_EXT_INST,
    OP_FUNCTION,
    OP_IN_BOUNDS_ACCESS_CHAIN,
    OP_PHI,
    OP_PTR_ACCESS_CHAIN,
    OP_SELECT,
    OP_TYPE_FUNCTION,
    OP_TYPE_POINTER,
)
from spvbuild.generated.extinst import set_module
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

Rule = tuple[str, str, str, str, str, dict[str, object]]

_OP = tables.OPCODES_BY_NAME  # a rule names its instruction in the grammar
_DECORATES = {OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING}
# Instructions whose result is a function pointer when one of their operands is (seed 004,
# "Terms": OpSelect, OpPhi, OpFunctionCall, OpPtrAccessChain, OpLoad, OpAccessChain,
# OpInBoundsAccessChain, OpCopyObject).
_PROPAGATES = {
    OP_SELECT,
    OP_PHI,
    OP_PTR_ACCESS_CHAIN,
    OP_ACCESS_CHAIN,
    OP_IN_BOUNDS_ACCESS_CHAIN,
    OP_COPY_OBJECT,
}


class _Module:
    """Lookups over one module's instructions."""

    def __init__(self, instructions: Sequence[Instruction]) -> None:
        self.instructions = instructions
        self.opcodes = {i.opcode for i in instructions}  # a checker with none of its own
        self.decorations = [i for i in instructions if i.opcode in _DECORATES]  # has no work

    @cached_property
    def defs(self) -> dict[int, Instruction]:
        """Each result id's instruction (made when a checker first asks)."""
        return {int(i.result_id): i for i in self.instructions if i.result_id is not None}

    def name(self, inst: Instruction) -> str:
        info = tables.INSTRUCTIONS.get(inst.opcode)
        return info.name if info is not None else f"opcode {inst.opcode}"

    def operand(self, inst: Instruction, name: str) -> Any:
        """The value of the operand called ``name`` in the grammar (None if absent)."""
        info = tables.INSTRUCTIONS.get(inst.opcode)
        if info is None:
            return None
        layout = [op for op in info.operands if op.kind not in ("IdResultType", "IdResult")]
        for index, op in enumerate(layout):
            if op.name == name and index < len(inst.operands):
                return inst.operands[index]
        return None


def _fail(rule: Rule, detail: str) -> BuildError:
    rule_id, extension, _check, text, source, _data = rule
    return BuildError(f"{detail}, but rule {rule_id} ({extension}; {source}) says: {text}")


def _decoration_targets(rule: Rule, module: _Module) -> None:
    from spvbuild.generated.core.enums import Decoration

    data = rule[5]
    wanted = int(Decoration[str(data["decoration"])])
    allowed = {str(n) for n in data.get("instructions", ())}  # type: ignore[attr-defined]
    ext_allowed: dict[str, list[str]] = dict(data.get("ext_instructions", {}))  # type: ignore[call-overload]
    for inst in module.decorations:
        if len(inst.operands) < 2:
            continue
        decoration = inst.operands[1]
        if isinstance(decoration, EnumerantParameters):
            decoration = decoration.enumerant
        if not isinstance(decoration, int) or int(decoration) != wanted:
            continue
        target = module.defs.get(int(inst.operands[0]))
        if target is None:
            continue
        target_name = module.name(target)
        if target.opcode == OP_EXT_INST and target.ext_set is not None:
            ext_tables = set_module(target.ext_set)
            ext_name = str(target.operands[1])
            if ext_tables is not None:
                ext_info = ext_tables.INSTRUCTIONS.get(target.operands[1])
                ext_name = ext_info.name if ext_info is not None else ext_name
            if ext_name in ext_allowed.get(target.ext_set, []):
                continue
            target_name = f"OpExtInst {target.ext_set} {ext_name}"
        elif target_name in allowed:
            continue
        raise _fail(
            rule,
            f"OpDecorate {target.result_id!r} {data['decoration']}: "
            f"{target.result_id!r} is {target_name}",
        )


def _pointer(module: _Module, type_id: Any) -> tuple[int, int] | None:
    """(storage class, pointee id) of an OpTypePointer id, else None."""
    ty = module.defs.get(int(type_id)) if isinstance(type_id, int) else None
    if ty is None or ty.opcode != OP_TYPE_POINTER:
        return None
    return int(ty.operands[0]), int(ty.operands[1])


def _instances(rule: Rule, module: _Module) -> Iterator[tuple[Instruction, str]]:
    """Each instruction of the kind ``rule`` names (in module order), with its name for
    messages."""
    name = str(rule[5]["instruction"])
    opcode = _OP[name]
    if opcode not in module.opcodes:
        return
    for inst in module.instructions:
        if inst.opcode == opcode:
            yield inst, f"{name} {inst.result_id!r}"


def _function_pointer_constant(rule: Rule, module: _Module) -> None:
    from spvbuild.generated.core.enums import StorageClass

    data = rule[5]
    storage = int(StorageClass[str(data["storage_class"])])
    for inst, where in _instances(rule, module):
        pointer = _pointer(module, inst.result_type)
        if pointer is None or pointer[0] != storage:
            raise _fail(rule, f"{where}: Result Type is not a {data['storage_class']} pointer")
        function = module.defs.get(int(module.operand(inst, "Function") or 0))
        if function is None or function.opcode != OP_FUNCTION:
            raise _fail(rule, f"{where}: operand 'Function' is not an OpFunction")
        if int(function.operands[1]) != pointer[1]:
            raise _fail(rule, f"{where}: the pointer's Type is not the function's OpTypeFunction")


def _function_pointer_call(rule: Rule, module: _Module) -> None:
    for inst, where in _instances(rule, module):
        pointer_value = module.defs.get(int(inst.operands[0]))
        pointer = _pointer(module, pointer_value.result_type if pointer_value else None)
        fn_type = module.defs.get(pointer[1]) if pointer is not None else None
        if fn_type is None or fn_type.opcode != OP_TYPE_FUNCTION:
            raise _fail(rule, f"{where}: Function Pointer does not point to an OpTypeFunction")
        if int(fn_type.operands[0]) != int(inst.result_type or 0):
            raise _fail(rule, f"{where}: Result Type differs from the function's Return Type")
        parameters = [int(p) for p in fn_type.operands[1]]
        arguments = list(inst.operands[1]) if len(inst.operands) > 1 else []
        types = [module.defs[int(a)].result_type for a in arguments if int(a) in module.defs]
        if [int(t or 0) for t in types] != parameters:
            raise _fail(rule, f"{where}: argument types differ from the function's parameters")


def _function_pointer_operands(rule: Rule, module: _Module) -> None:
    forbidden: dict[str, list[str]] = dict(rule[5].get("forbidden", {}))  # type: ignore[call-overload]
    if not forbidden or OP_CONSTANT_FUNCTION_POINTER_INTEL not in module.opcodes:
        return  # function pointers start at that instruction: without it there are none
    pointers: set[int] = set()
    for inst in module.instructions:  # in module order, so sources come before uses
        if inst.result_id is None:
            continue
        if inst.opcode == OP_CONSTANT_FUNCTION_POINTER_INTEL or (
            inst.opcode in _PROPAGATES and any(int(v) in pointers for v in _ints(inst.operands))
        ):
            pointers.add(int(inst.result_id))
    if not pointers:
        return  # no function pointer, nowhere one could be
    for inst in module.instructions:
        names = forbidden.get(module.name(inst))
        for name in names or ():
            value = module.operand(inst, name)
            if isinstance(value, int) and int(value) in pointers:
                raise _fail(
                    rule, f"{module.name(inst)} operand '{name}' is the function pointer {value!r}"
                )


def _ints(values: Sequence[Any]) -> list[int]:
    out: list[int] = []
    for value in values:
        if isinstance(value, tuple):
            out.extend(_ints(value))
        elif isinstance(value, int):
            out.append(int(value))
    return out


CHECKERS: dict[str, Callable[[Rule, _Module], None]] = {
    "decoration_targets": _decoration_targets,
    "function_pointer_constant": _function_pointer_constant,
    "function_pointer_call": _function_pointer_call,
    "function_pointer_operands": _function_pointer_operands,
}


def _triggers() -> tuple[frozenset[int], frozenset[int]] | None:
    """What can make some rule do any work: (opcodes, decoration values). A module whose
    instructions have none of those opcodes and decorate with none of those decorations
    passes every rule.  None when some rule's checker is not one summarized here."""
    from spvbuild.generated.core.enums import Decoration

    opcodes: set[int] = set()
    decorations: set[int] = set()
    for rule in tables.RULES:
        check, data = rule[2], rule[5]
        if check == "decoration_targets":
            decorations.add(int(Decoration[str(data["decoration"])]))
        elif check in ("function_pointer_constant", "function_pointer_call"):
            opcodes.add(_OP[str(data["instruction"])])
        elif check == "function_pointer_operands":
            opcodes.add(OP_CONSTANT_FUNCTION_POINTER_INTEL)
        else:
            return None
    return frozenset(opcodes), frozenset(decorations)


# (opcodes, decoration values) that can make a rule work (see _triggers); None: any can.
TRIGGERS = _triggers()


def check_rules(instructions: Sequence[Instruction]) -> None:
    """Run every grammar rule over a module's instructions (in module order)."""
    module = _Module(instructions)
    for rule in tables.RULES:
        checker = CHECKERS.get(rule[2])
        if checker is None:
            raise BuildError(f"rule {rule[0]}: no checker named {rule[2]!r}")
        checker(rule, module)
