"""HlslCounterBufferGOOGLE is an alias of CounterBuffer, which takes a buffer id."""

from spvbuild import Recorder, StorageClass
from spvbuild.enums import Decoration

b = Recorder()
f32 = b.type_float(32)
var = b.variable(b.type_pointer(StorageClass.Private, f32), StorageClass.Private)
b.decorate(var, Decoration.HlslCounterBufferGOOGLE)  # E: has incompatible type "Literal[Decoration.HlslCounterBufferGOOGLE]"
