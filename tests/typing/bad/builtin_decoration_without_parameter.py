"""Decoration.BuiltIn needs its BuiltIn: DecorationBuiltIn(BuiltIn.Position)."""

from spvbuild import Decoration, Recorder, StorageClass

b = Recorder()
vec4 = b.type_vector(b.type_float(32), 4)
position = b.variable(b.type_pointer(StorageClass.Output, vec4), StorageClass.Output)
b.decorate(position, Decoration.BuiltIn)  # E: incompatible type "Literal[Decoration.BuiltIn]"
