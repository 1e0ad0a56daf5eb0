"""OpVariable's optional operand is called initializer."""

from spvbuild import Recorder, StorageClass

b = Recorder()
f32 = b.type_float(32)
ptr = b.type_pointer(StorageClass.Private, f32)
zero = b.constant(f32, 0.0)
b.variable(ptr, StorageClass.Private, init=zero)  # E: Unexpected keyword argument "init"
