"""Result ids as distinct static types.

An :class:`Id` is any result id; a :class:`TypeId` is the id of a type declaration.  Both
are ``int`` subclasses (so they serialize as words for free), but a type checker keeps
them apart: a plain ``int`` or a value :class:`Id` passed where a :class:`TypeId` is
expected is an error, while a :class:`TypeId` is accepted wherever any id is.
"""

from __future__ import annotations


class Id(int):
    """A result id (``%n``) produced by an instruction."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"%{int(self)}"


class TypeId(Id):
    """The result id of a type-declaration instruction (``OpType*``)."""

    __slots__ = ()
