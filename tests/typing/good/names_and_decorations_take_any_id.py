"""A name or a decoration targets a type as well as a value."""

from spvbuild import Module
from spvbuild.enums import Decoration, DecorationArrayStride

m = Module()
f32 = m.type_float(32)
array = m.type_runtime_array(f32)
m.decorate(array, DecorationArrayStride(4))
block = m.type_struct([array])
m.name(block, "Data").decorate(block, Decoration.Block)
value = m.named(m.constant(f32, 2.0), "two")
m.decorate(value, Decoration.RelaxedPrecision)
