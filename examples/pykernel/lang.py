"""What kernel sources import: ``Array``, ``uint`` and the ``kernel`` marker.

These names make a kernel plain, runnable Python (the reference the GPU results are
compared with) that mypy also understands::

    from examples.pykernel import Array, kernel

    @kernel
    def saxpy(i: int, a: float, x: Array[float], y: Array[float]) -> None:
        y[i] = a * x[i] + y[i]

The compiler reads only the source text, so these objects matter only when the function
runs as Python.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, SupportsInt, TypeVar

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

Array = list[T]
"""``Array[float]`` / ``Array[int]`` / ``Array[uint]``: a storage buffer (a list in Python)."""


class uint(int):  # noqa: N801 - spelled like the kernel type it stands for
    """A 32-bit unsigned integer: ``uint(x)`` is ``int(x)`` taken modulo 2**32.

    Arithmetic between ``uint`` and ``int`` values gives a ``uint`` again, wrapped modulo
    2**32 as on the GPU (``/`` still gives a float).  Values read from a list are whatever
    the list holds: fill ``Array[uint]`` lists with ``uint`` values for wrapping in Python.
    """

    def __new__(cls, value: SupportsInt = 0) -> uint:
        return super().__new__(cls, int(value) & MASK)

    def __repr__(self) -> str:
        return f"uint({int(self)})"

    def __add__(self, other: int) -> uint:
        return _wrap(operator.add, self, other)

    def __radd__(self, other: int) -> uint:
        return _wrap(operator.add, other, self)

    def __sub__(self, other: int) -> uint:
        return _wrap(operator.sub, self, other)

    def __rsub__(self, other: int) -> uint:
        return _wrap(operator.sub, other, self)

    def __mul__(self, other: int) -> uint:
        return _wrap(operator.mul, self, other)

    def __rmul__(self, other: int) -> uint:
        return _wrap(operator.mul, other, self)

    def __floordiv__(self, other: int) -> uint:
        return _wrap(operator.floordiv, self, other)

    def __rfloordiv__(self, other: int) -> uint:
        return _wrap(operator.floordiv, other, self)

    def __mod__(self, other: int) -> uint:
        return _wrap(operator.mod, self, other)

    def __rmod__(self, other: int) -> uint:
        return _wrap(operator.mod, other, self)

    def __and__(self, other: int) -> uint:
        return _wrap(operator.and_, self, other)

    def __rand__(self, other: int) -> uint:
        return _wrap(operator.and_, other, self)

    def __or__(self, other: int) -> uint:
        return _wrap(operator.or_, self, other)

    def __ror__(self, other: int) -> uint:
        return _wrap(operator.or_, other, self)

    def __xor__(self, other: int) -> uint:
        return _wrap(operator.xor, self, other)

    def __rxor__(self, other: int) -> uint:
        return _wrap(operator.xor, other, self)

    def __lshift__(self, other: int) -> uint:
        return _wrap(operator.lshift, self, other)

    def __rlshift__(self, other: int) -> uint:
        return _wrap(operator.lshift, other, self)

    def __rshift__(self, other: int) -> uint:
        return _wrap(operator.rshift, self, other)

    def __rrshift__(self, other: int) -> uint:
        return _wrap(operator.rshift, other, self)

    def __neg__(self) -> uint:
        return uint(-int(self))

    def __invert__(self) -> uint:
        return uint(~int(self))


MASK = 0xFFFF_FFFF


def _wrap(op: Callable[[int, int], int], left: object, right: object) -> uint:
    """``op`` on two integers as uint (modulo 2**32); floats and others are not handled."""
    if not isinstance(left, int) or not isinstance(right, int):
        return NotImplemented  # type: ignore[no-any-return]  # the operator protocol
    return uint(op(int(left) & MASK, int(right) & MASK))


def kernel(function: F) -> F:
    """Mark a function as a kernel (documentation only: returns it unchanged)."""
    return function
