"""Result ids as distinct static types.

An :class:`Id` is the id of a value (a constant, a variable, an instruction's result, a
function, a label); a :class:`TypeId` is the id of a type declaration.  Both are ``int``
subclasses (so they serialize as words for free), and a type checker keeps them apart
both ways: a type where a value belongs (``m.f_add(f32, f32, x)``), a value or a plain
``int`` where a type belongs, are errors.  Operands that take either (the target of a
name or a decoration) say ``Id | TypeId``.  At run time a :class:`TypeId` is also an
:class:`Id` (every id check accepts it); only the type checker sees them apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING


class Id(int):
    """A result id (``%n``) of a value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"%{int(self)}"


if TYPE_CHECKING:

    class TypeId(int):
        """The result id of a type-declaration instruction (``OpType*``)."""

        __slots__ = ()

else:

    class TypeId(Id):
        """The result id of a type-declaration instruction (``OpType*``)."""

        __slots__ = ()


AnyId = Id | TypeId
"""Any result id: what a name or a decoration targets."""


def as_id(value: Id | TypeId) -> Id:
    """``value`` itself, typed as an :class:`Id`: for tables that hold the ids of values
    and of types alike (at run time every TypeId is an Id)."""
    assert isinstance(value, Id)
    return value
