"""spvbuild's exceptions.  Every error spvbuild raises on bad input is a :class:`SpvbuildError`."""

from __future__ import annotations


class SpvbuildError(Exception):
    """Base class of every error spvbuild raises for bad input."""


class BuildError(SpvbuildError):
    """A builder call that cannot make a valid instruction.

    The message names the instruction (``OpDecorate``) and the operand at fault, e.g.
    ``OpLoad operand 'memory_access': MemoryAccess.Aligned needs its parameter``.
    """


class EncodeError(BuildError):
    """An operand value that cannot be encoded as SPIR-V words."""
