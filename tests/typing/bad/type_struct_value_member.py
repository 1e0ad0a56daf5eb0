"""Struct members are types; a constant is a value id."""

from spvbuild import Recorder

b = Recorder()
f32 = b.type_float(32)
one = b.constant(f32, 1.0)
b.type_struct([f32, one])  # E: List item 1 has incompatible type "Id"; expected "TypeId"
