"""Loads, stores and copies with MemoryAccess masks, with and without parameters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spvbuild import (
    AddressingModel,
    Capability,
    FunctionControl,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryAccessMakePointerAvailable,
    MemoryAccessMakePointerVisible,
    MemoryModel,
    Recorder,
    Scope,
    StorageClass,
)

if TYPE_CHECKING:
    # The ``<Kind>Operand`` aliases exist for type checkers only.
    from spvbuild.generated.core.enums import MemoryAccessOperand

b = Recorder()
b.capability(Capability.Addresses).capability(Capability.Kernel)
b.capability(Capability.VulkanMemoryModel)
b.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)

void = b.type_void()
u32 = b.type_int(32, 0)
f32 = b.type_float(32)
ptr = b.type_pointer(StorageClass.CrossWorkgroup, f32)
fn = b.type_function(void, [ptr, ptr])
device = b.constant(u32, Scope.Device)
sixteen = b.constant(u32, 16)

kernel = b.function(void, FunctionControl.None_, fn)
src = b.function_parameter(ptr)
dst = b.function_parameter(ptr)
b.label()

# A single bit, a combined mask, a bit with its parameter, and a sequence mixing both.
x = b.load(f32, src, MemoryAccess.Volatile)
y = b.load(f32, src, MemoryAccess.Volatile | MemoryAccess.Nontemporal)
z = b.load(f32, src, MemoryAccessAligned(4))
w = b.load(f32, src, [MemoryAccess.Volatile, MemoryAccessAligned(16)])
b.store(dst, x, (MemoryAccess.Nontemporal, MemoryAccessAligned(4)))
b.store(dst, y).store(dst, z, MemoryAccess.None_).store(dst, w, memory_access=None)

# Both masks of OpCopyMemory; parameters that are ids.
available = MemoryAccessMakePointerAvailable(device)
visible = MemoryAccessMakePointerVisible(device)
b.copy_memory(dst, src, [MemoryAccessAligned(4), available], [MemoryAccessAligned(4), visible])
b.copy_memory_sized(dst, src, sixteen, MemoryAccess.Volatile)

# A mask built up in a variable keeps its operand type.
masks: list[MemoryAccessOperand] = [MemoryAccess.Volatile, MemoryAccessAligned(8)]
masks.append([MemoryAccess.Nontemporal, MemoryAccessAligned(16)])
for mask in masks:
    b.store(dst, b.load(f32, src, mask), mask)
b.return_().function_end()

assert MemoryAccessAligned(16).parameters == (16,)
assert MemoryAccessAligned(16).enumerant is MemoryAccess.Aligned
assert b.instructions[-1].opcode == 56
assert b.to_words()[0] == 0x07230203  # the SPIR-V magic number
