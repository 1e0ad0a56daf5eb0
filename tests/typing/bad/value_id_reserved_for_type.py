"""A forward-declared type needs new_type_id(); new_id() reserves a value id."""

from spvbuild import Recorder, StorageClass

b = Recorder()
f32 = b.type_float(32)
fwd = b.new_id()
b.type_pointer(StorageClass.Function, f32, result_id=fwd)  # E: expected "TypeId | None"
