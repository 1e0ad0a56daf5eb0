"""OpStore has no result: it returns the recorder, which is not an id."""

from spvbuild import Recorder, StorageClass

b = Recorder()
i32 = b.type_int(32, 1)
ptr = b.variable(b.type_pointer(StorageClass.Function, i32), StorageClass.Function)
stored = b.store(ptr, b.constant(i32, 1))
two = b.constant(i32, 2)
b.i_add(i32, stored, two)  # E: "i_add" of "CoreInstructions" has incompatible type "Recorder"
