"""Base class of the generated enumerant-parameter classes.

An enumerant that takes extra operands (``Decoration.BuiltIn``, ``ExecutionMode.LocalSize``,
``MemoryAccess.Aligned``) is passed as an instance of its generated class, e.g.
``DecorationBuiltIn(BuiltIn.GlobalInvocationId)`` or ``ExecutionModeLocalSize(64, 1, 1)``,
so a type checker sees a missing or wrong parameter.  Instances compare and hash by value.
"""

from __future__ import annotations

from enum import IntEnum, IntFlag
from typing import ClassVar


class EnumerantParameters:
    """An enumerant together with the values of its parameters."""

    __slots__ = ()
    enumerant: ClassVar[IntEnum | IntFlag]
    fields: ClassVar[tuple[str, ...]] = ()

    @property
    def parameters(self) -> tuple[object, ...]:
        """The parameter values in grammar order."""
        return tuple(getattr(self, name) for name in self.fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EnumerantParameters) or type(other) is not type(self):
            return False
        return other.parameters == self.parameters

    def __hash__(self) -> int:
        return hash((type(self), self.parameters))

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.fields)
        return f"{type(self).__name__}({args})"
