"""A type id passed where a value belongs: mypy tells them apart both ways."""

from spvbuild import Module

m = Module()
f32 = m.type_float(32)
x = m.constant(f32, 1.0)
m.define_function(m.type_void())
m.f_add(f32, f32, x)  # E: incompatible type "TypeId"; expected "Id"
