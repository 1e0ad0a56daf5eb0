"""An alignment is MemoryAccessAligned(16), not a bare 16 in the mask sequence."""

from spvbuild import MemoryAccess, Recorder, StorageClass

b = Recorder()
f32 = b.type_float(32)
ptr = b.variable(b.type_pointer(StorageClass.Function, f32), StorageClass.Function)
b.load(f32, ptr, [MemoryAccess.Aligned, 16])  # E: List item 1 has incompatible type "int"
