"""A value id (a constant) passed as the component type of a vector."""

from spvbuild import Recorder

b = Recorder()
u32 = b.type_int(32, 0)
n = b.constant(u32, 3)
b.type_vector(n, 4)  # E: incompatible type "Id"; expected "TypeId"
