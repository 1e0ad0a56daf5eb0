"""Checks of builder arguments made at the call, shared by the generated methods.

A generated method passes a variadic operand (``indexes``, ``interfaces``, ...) through
:func:`operand_sequence`, so that a value that is not a sequence is a
:class:`~spvbuild.errors.BuildError` at the call, naming the instruction and the
operand, rather than a bare ``TypeError`` from ``tuple()``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from spvbuild.errors import BuildError
from spvbuild.spirv.call_site import located

__all__ = ["operand_sequence", "shown"]

_T = TypeVar("_T")


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters (an int of any size included)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def operand_sequence(value: Iterable[_T], where: str, operand: str) -> tuple[_T, ...]:
    """``tuple(value)``, or a BuildError naming ``where`` and ``operand`` at the call."""
    if value.__class__ is tuple:
        return value
    if value.__class__ is list:
        return tuple(value)
    if isinstance(value, tuple):
        return value
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise BuildError(
            located(
                f"{where} operand '{operand}': expected a sequence (list or tuple), got "
                f"{shown(value)}"
            )
        )
    return tuple(value)
