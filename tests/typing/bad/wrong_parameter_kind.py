"""MemoryAccess.MakePointerAvailable takes a scope *id*, not a Scope enumerant."""

from spvbuild import MemoryAccessMakePointerAvailable, Scope

MemoryAccessMakePointerAvailable(Scope.Device)  # E: incompatible type "Scope"; expected "Id"
