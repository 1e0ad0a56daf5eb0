"""Kernel types: four 32-bit scalars and arrays of the numeric ones."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Scalar(Enum):
    """A scalar type: ``int`` (32-bit signed), ``uint``, ``float`` (32-bit) or ``bool``."""

    INT = "int"
    UINT = "uint"
    FLOAT = "float"
    BOOL = "bool"

    def __str__(self) -> str:
        return self.value

    @property
    def is_integer(self) -> bool:
        """``int`` or ``uint``."""
        return self in (Scalar.INT, Scalar.UINT)


@dataclass(frozen=True)
class ArrayType:
    """``Array[element]``: a storage buffer of 32-bit elements."""

    element: Scalar

    def __str__(self) -> str:
        return f"Array[{self.element}]"


Type = Scalar | ArrayType

SCALAR_NAMES: dict[str, Scalar] = {s.value: s for s in Scalar}
ARRAY_NAMES = frozenset({"Array", "list"})
ARRAY_ELEMENTS = frozenset({Scalar.INT, Scalar.UINT, Scalar.FLOAT})

INT_RANGES: dict[Scalar, tuple[int, int]] = {
    Scalar.INT: (-(2**31), 2**31 - 1),
    Scalar.UINT: (0, 2**32 - 1),
}


def implicit(have: Scalar, want: Scalar) -> bool:
    """May a ``have`` value be used where a ``want`` is needed without a conversion call?

    Only value-preserving widenings are implicit, as in Python's numeric tower:
    ``bool → int/uint/float`` and ``int/uint → float``.
    """
    if have is want:
        return True
    if want is Scalar.FLOAT:
        return True
    return have is Scalar.BOOL and want.is_integer
