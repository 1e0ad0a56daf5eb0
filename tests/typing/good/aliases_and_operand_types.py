"""Aliases of parametrized enumerants have parameter classes too; operand aliases import at run time."""

from spvbuild import Recorder, StorageClass
from spvbuild.enums import (
    DecorationCounterBuffer,
    DecorationHlslCounterBufferGOOGLE,
    DecorationOperand,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryAccessOperand,
)

b = Recorder()
f32 = b.type_float(32)
ptr_t = b.type_pointer(StorageClass.Private, f32)
var = b.variable(ptr_t, StorageClass.Private)
counter = b.variable(ptr_t, StorageClass.Private)
assert DecorationHlslCounterBufferGOOGLE is DecorationCounterBuffer
decoration: DecorationOperand = DecorationHlslCounterBufferGOOGLE(counter)
b.decorate(var, decoration)
access: MemoryAccessOperand = [MemoryAccess.Volatile, MemoryAccessAligned(4)]
b.load(f32, var, access)
assert len(b.to_words()) > 5
