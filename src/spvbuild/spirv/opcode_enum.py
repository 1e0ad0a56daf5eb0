"""The metaclass of the generated ``Op`` enum: a member looked up by its SPIR-V spelling is
answered with its Python name.

SPIR-V names opcodes ``OpDecorate``; the ``Op`` enum drops the prefix (``Op.Decorate``).
``Op.OpDecorate`` raises :class:`~spvbuild.errors.MemberNameError` (an
:class:`AttributeError`) whose message names ``Op.Decorate``, so ``hasattr(Op,
"OpDecorate")`` stays False.
"""

from __future__ import annotations

from enum import EnumType
from typing import TYPE_CHECKING

from spvbuild.errors import MemberNameError
from spvbuild.spirv.call_site import located

__all__ = ["OpcodeEnumType"]

_PREFIX = "Op"


class OpcodeEnumType(EnumType):
    """An enum class whose members are SPIR-V opcodes named without the ``Op`` prefix."""

    # Hidden from type checkers: a metaclass ``__getattr__`` would make every attribute of
    # the enum class look defined to them, and ``Op.OpDecorate`` must stay a type error.
    if not TYPE_CHECKING:

        def __getattr__(cls, name):
            try:
                return super().__getattr__(name)
            except AttributeError:
                member = name[len(_PREFIX) :]
                if name.startswith(_PREFIX) and member in cls._member_map_:
                    raise MemberNameError(
                        located(
                            f"{cls.__name__} has no member {name!r}: members drop the "
                            f"{_PREFIX!r} prefix, {name} is {cls.__name__}.{member}"
                        )
                    ) from None
                raise
