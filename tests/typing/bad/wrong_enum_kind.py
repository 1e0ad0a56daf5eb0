"""A Dim where a StorageClass is expected."""

from spvbuild import Dim, Recorder, StorageClass

b = Recorder()
f32 = b.type_float(32)
ptr = b.type_pointer(StorageClass.Function, f32)
b.variable(ptr, Dim.Dim2D)  # E: incompatible type "Dim"; expected "StorageClass"
