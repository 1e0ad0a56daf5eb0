"""member_name returns the recorder; the struct's TypeId must be kept separately."""

from spvbuild import Recorder, StorageClass

b = Recorder()
f32 = b.type_float(32)
block = b.member_name(b.type_struct([f32]), 0, "x")
b.type_pointer(StorageClass.Uniform, block)  # E: incompatible type "Recorder"; expected "TypeId"
