"""OpTypePointer without its pointee type."""

from spvbuild import Recorder, StorageClass

b = Recorder()
b.type_pointer(StorageClass.Function)  # E: Missing positional argument "type" in call
