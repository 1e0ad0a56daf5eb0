"""member_name returns the builder; the struct's TypeId must be kept separately."""

from spvbuild import Builder, StorageClass

b = Builder()
f32 = b.type_float(32)
block = b.member_name(b.type_struct([f32]), 0, "x")
b.type_pointer(StorageClass.Uniform, block)  # E: incompatible type "Builder"; expected "TypeId"
