"""OpTypePointer without its pointee type."""

from spvbuild import Builder, StorageClass

b = Builder()
b.type_pointer(StorageClass.Function)  # E: Missing positional argument "type" in call
