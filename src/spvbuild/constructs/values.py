"""Type-aware helpers: what the module knows about a value's type, used so the caller
need not repeat it.

:func:`type_of` reads the type of any value the module defines; :func:`load` and
:func:`access_chain` take their result types from the pointer (an access chain's integer
indices become ``uint`` constants, a struct's by member position); :func:`builtin` gives
the one variable of a built-in (``gl_GlobalInvocationID`` and the others), typed,
decorated and named, made on first use; :func:`control_barrier`, :func:`memory_barrier`
and :func:`atomic` take :class:`~spvbuild.enums.Scope` and
:class:`~spvbuild.enums.MemorySemantics` values and make their constants.  A value the
module does not define, an index past a struct's members, a built-in without a known type
are :class:`~spvbuild.errors.BuildError` s at the call.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import NamedTuple

from spvbuild.errors import BuildError
from spvbuild.generated.core.enums import (
    AddressingModel,
    BuiltIn,
    Capability,
    DecorationBuiltIn,
    MemorySemantics,
    Scope,
    StorageClass,
)
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_CONSTANT,
    OP_MEMORY_MODEL,
    OP_TYPE_ARRAY,
    OP_TYPE_MATRIX,
    OP_TYPE_POINTER,
    OP_TYPE_RUNTIME_ARRAY,
    OP_TYPE_STRUCT,
    OP_TYPE_VECTOR,
)
from spvbuild.ir.module import Module
from spvbuild.spirv.call_site import located
from spvbuild.spirv.ids import Id, TypeId

__all__ = [
    "access_chain",
    "atomic",
    "builtin",
    "control_barrier",
    "load",
    "memory_barrier",
    "pointee",
    "type_of",
]


def _error(message: str) -> BuildError:
    return BuildError(located(message))


def type_of(m: Module, value: Id) -> TypeId:
    """The type of ``value`` (a constant, a variable's pointer type, an instruction's
    result type); BuildError if the module defines no typed value ``value``."""
    found = m.definition(value) if isinstance(value, int) else None
    if found is None or found.result_type is None:
        raise _error(f"type_of: {value!r} is no value this module defines")
    return TypeId(found.result_type)


def pointee(m: Module, pointer_type: TypeId) -> tuple[StorageClass, TypeId]:
    """The storage class and the pointed-to type of the pointer type ``pointer_type``."""
    found = m.definition(pointer_type)
    if found is None or found.opcode != OP_TYPE_POINTER:
        raise _error(f"pointee: {pointer_type!r} is no pointer type of this module")
    return StorageClass(int(found.operands[0])), TypeId(found.operands[1])


def load(m: Module, pointer: Id) -> Id:
    """``OpLoad`` of ``pointer``, its result type the pointee's."""
    _, pointed = pointee(m, type_of(m, pointer))
    return m.load(pointed, pointer)


def _index_value(m: Module, index: Id) -> int | None:
    """The value of an integer OpConstant (None for any other id)."""
    found = m.definition(index)
    if found is None or found.opcode != OP_CONSTANT or not found.operands:
        return None
    value = found.operands[0]
    return value if isinstance(value, int) else None


def access_chain(m: Module, base: Id, indices: Sequence[Id | int]) -> Id:
    """``OpAccessChain`` into ``base`` (a pointer) by ``indices``: ints become ``uint``
    constants (a struct member is chosen by an int, or an integer constant); the result
    pointer type is the member's, in the base's storage class."""
    storage, current = pointee(m, type_of(m, base))
    uint = m.type_int(32, 0)
    ids: list[Id] = []
    for position, index in enumerate(indices):
        if isinstance(index, int) and not isinstance(index, Id):
            if isinstance(index, bool) or index < 0:
                raise _error(f"access_chain: index {position} must be an int >= 0, not {index!r}")
            number: int | None = index
            index_id = m.constant(uint, index)
        else:
            number = _index_value(m, index)
            index_id = index
        found = m.definition(current)
        opcode = found.opcode if found is not None else None
        if found is None:
            raise _error(f"access_chain: {current!r} is no type of this module")
        if opcode == OP_TYPE_STRUCT:
            members = found.operands[0] if found.operands else ()
            if number is None or not 0 <= number < len(members):
                raise _error(
                    f"access_chain: index {position} into a struct of {len(members)} members "
                    f"must be a constant from 0 to {len(members) - 1}, not {index!r}"
                )
            current = TypeId(members[number])
        elif opcode in (OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY, OP_TYPE_VECTOR, OP_TYPE_MATRIX):
            current = TypeId(found.operands[0])
        else:
            raise _error(
                f"access_chain: index {position} goes into {current!r}, which has no parts"
            )
        ids.append(index_id)
    return m.access_chain(m.type_pointer(storage, current), base, ids)


# -- built-in variables --------------------------------------------------------------------
class _BuiltInType(NamedTuple):
    storage: StorageClass
    kind: str  # "uint", "int", "float", "bool"; "size": OpenCL's size_t, "uint" in a shader
    components: int  # 1: a scalar


# The "size" built-ins are size_t (or vectors of it) in the OpenCL SPIR-V environment
# (OpenCL SPIR-V Environment Specification, "Built-in Variables"), uint in Vulkan.
_BUILTINS: dict[BuiltIn, _BuiltInType] = {
    BuiltIn.GlobalInvocationId: _BuiltInType(StorageClass.Input, "size", 3),
    BuiltIn.LocalInvocationId: _BuiltInType(StorageClass.Input, "size", 3),
    BuiltIn.WorkgroupId: _BuiltInType(StorageClass.Input, "size", 3),
    BuiltIn.NumWorkgroups: _BuiltInType(StorageClass.Input, "size", 3),
    BuiltIn.GlobalSize: _BuiltInType(StorageClass.Input, "size", 3),
    BuiltIn.GlobalOffset: _BuiltInType(StorageClass.Input, "size", 3),
    BuiltIn.EnqueuedWorkgroupSize: _BuiltInType(StorageClass.Input, "size", 3),
    BuiltIn.GlobalLinearId: _BuiltInType(StorageClass.Input, "size", 1),
    BuiltIn.LocalInvocationIndex: _BuiltInType(StorageClass.Input, "size", 1),
    BuiltIn.SubgroupSize: _BuiltInType(StorageClass.Input, "uint", 1),
    BuiltIn.SubgroupLocalInvocationId: _BuiltInType(StorageClass.Input, "uint", 1),
    BuiltIn.VertexIndex: _BuiltInType(StorageClass.Input, "int", 1),
    BuiltIn.InstanceIndex: _BuiltInType(StorageClass.Input, "int", 1),
    BuiltIn.Position: _BuiltInType(StorageClass.Output, "float", 4),
    BuiltIn.PointSize: _BuiltInType(StorageClass.Output, "float", 1),
    BuiltIn.FragCoord: _BuiltInType(StorageClass.Input, "float", 4),
    BuiltIn.FragDepth: _BuiltInType(StorageClass.Output, "float", 1),
    BuiltIn.FrontFacing: _BuiltInType(StorageClass.Input, "bool", 1),
}
# The built-in variables made in each module, by built-in.
_made: weakref.WeakKeyDictionary[Module, dict[BuiltIn, Id]] = weakref.WeakKeyDictionary()


def _size_width(m: Module, which: BuiltIn) -> int:
    """The width of ``size_t`` in ``m``: 64 under the Physical64 addressing model, else 32.

    A module that declares Kernel but no memory model yet is refused: its built-ins' width
    is not known until the addressing model is.
    """
    declared = m.find(opcode=OP_MEMORY_MODEL)
    if declared:
        return 64 if declared[0].operands[0] == AddressingModel.Physical64 else 32
    if any(c.operands[0] == Capability.Kernel for c in m.find(opcode=OP_CAPABILITY)):
        raise _error(
            f"builtin: {which.name} is a size_t in a kernel, whose width the addressing "
            "model decides: call memory_model(...) before builtin()"
        )
    return 32


def builtin(m: Module, which: BuiltIn) -> Id:
    """The variable of the built-in ``which`` (``BuiltIn.GlobalInvocationId``: an Input
    ``uvec3``, ...), decorated and named, made on first use; the same id afterwards.

    The built-ins that are ``size_t`` in OpenCL (``GlobalInvocationId``,
    ``LocalInvocationId``, ``WorkgroupId``, ``NumWorkgroups``, ``GlobalSize``,
    ``GlobalOffset``, ``EnqueuedWorkgroupSize``, ``GlobalLinearId``,
    ``LocalInvocationIndex``) are typed by the module's addressing model: 64-bit unsigned
    integers under ``AddressingModel.Physical64``, 32-bit under ``Physical32``, ``Logical``
    and ``PhysicalStorageBuffer64`` (a shader's ``uint``).  A kernel must therefore declare
    its memory model before its first such built-in: a module that declares
    ``Capability.Kernel`` and no memory model yet is a :class:`~spvbuild.errors.BuildError`;
    one that declares neither gets 32 bits.
    """
    made = _made.setdefault(m, {})
    found = made.get(which)
    if found is not None:
        return found
    spec = _BUILTINS.get(which) if isinstance(which, BuiltIn) else None
    if spec is None:
        known = ", ".join(sorted(b.name for b in _BUILTINS))
        raise _error(f"builtin: no known type for {which!r} (known: {known})")
    makers: dict[str, Callable[[], TypeId]] = {
        "uint": lambda: m.type_int(32, 0),
        "size": lambda: m.type_int(_size_width(m, which), 0),
        "int": lambda: m.type_int(32, 1),
        "float": lambda: m.type_float(32),
        "bool": m.type_bool,
    }
    scalar = makers[spec.kind]()
    data = scalar if spec.components == 1 else m.type_vector(scalar, spec.components)
    variable = m.variable(m.type_pointer(spec.storage, data), spec.storage)
    m.decorate(variable, DecorationBuiltIn(which))
    m.name(variable, f"gl_{which.name}")
    made[which] = variable
    return variable


# -- barriers and atomics --------------------------------------------------------------------
def _scope(m: Module, scope: Scope) -> Id:
    return m.constant(m.type_int(32, 0), int(Scope(scope)))


def _semantics(m: Module, semantics: MemorySemantics) -> Id:
    return m.constant(m.type_int(32, 0), int(semantics))


def control_barrier(
    m: Module,
    execution: Scope = Scope.Workgroup,
    memory: Scope = Scope.Workgroup,
    semantics: MemorySemantics = MemorySemantics.AcquireRelease | MemorySemantics.WorkgroupMemory,
) -> None:
    """``OpControlBarrier`` (GLSL's ``barrier()`` by default) with its scope and semantics
    constants made from the enum values."""
    m.control_barrier(_scope(m, execution), _scope(m, memory), _semantics(m, semantics))


def memory_barrier(
    m: Module,
    memory: Scope = Scope.Workgroup,
    semantics: MemorySemantics = MemorySemantics.AcquireRelease | MemorySemantics.WorkgroupMemory,
) -> None:
    """``OpMemoryBarrier`` with its scope and semantics constants made from the enums."""
    m.memory_barrier(_scope(m, memory), _semantics(m, semantics))


def atomic(
    m: Module,
    operation: Callable[[TypeId, Id, Id, Id, Id], Id],
    pointer: Id,
    value: Id,
    scope: Scope = Scope.Device,
    semantics: MemorySemantics = MemorySemantics.None_,
) -> Id:
    """An atomic read-modify-write, e.g. ``atomic(m, m.atomic_i_add, p, one)``: its
    result type the pointee's, its scope and semantics constants made from the enums."""
    _, pointed = pointee(m, type_of(m, pointer))
    return operation(pointed, pointer, _scope(m, scope), _semantics(m, semantics), value)
