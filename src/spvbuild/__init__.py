"""spvbuild: a typed, grammar-generated SPIR-V builder.

The core enums (``Op``, ``Decoration``, ``StorageClass``, ...) and their parameter
classes (``DecorationBuiltIn``, ``ExecutionModeLocalSize``, ...) are importable from here,
and so is :class:`Builder`; they load on first use, so ``import spvbuild`` (which every
``spvbuild.*`` import runs first) stays fast and small.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spvbuild.errors import ArgumentError, BuildError, EncodeError, SpvbuildError
from spvbuild.ids import Id, TypeId

if TYPE_CHECKING:
    from spvbuild.builder import Builder
    from spvbuild.generated.core.enums import *  # noqa: F403
    from spvbuild.instruction import Instruction

__version__ = "0.1.0"

__all__ = [
    "ArgumentError",
    "Builder",
    "BuildError",
    "EncodeError",
    "Id",
    "Instruction",
    "SpvbuildError",
    "TypeId",
]


def __getattr__(name: str) -> Any:
    """Load on first use: ``spvbuild.Builder`` (the generated core builder is large, and
    the assembler, disassembler and reader do not need it) and the core enums
    (``spvbuild.Decoration``)."""
    if name == "Builder":
        from spvbuild.builder import Builder

        globals()[name] = Builder
        return Builder
    if name == "Instruction":
        from spvbuild.instruction import Instruction

        globals()[name] = Instruction
        return Instruction
    if not name[:1].isupper():
        # Not an enum (every enum and parameter class name is capitalised): most often
        # ``from spvbuild import reader``, which asks here before importing the submodule.
        raise AttributeError(f"module 'spvbuild' has no attribute {name!r}")
    from spvbuild.generated.core import enums

    try:
        value = getattr(enums, name)
    except AttributeError:
        raise AttributeError(f"module 'spvbuild' has no attribute {name!r}") from None
    globals()[name] = value
    return value
