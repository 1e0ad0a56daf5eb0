"""spvbuild: a typed, grammar-generated SPIR-V builder.

The core enums (``Op``, ``Decoration``, ``StorageClass``, ...) and their parameter
classes (``DecorationBuiltIn``, ``ExecutionModeLocalSize``, ...) are importable from here;
they load on first use so ``import spvbuild`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spvbuild.builder import Builder
from spvbuild.errors import BuildError, EncodeError, SpvbuildError
from spvbuild.ids import Id, TypeId
from spvbuild.instruction import Instruction

if TYPE_CHECKING:
    from spvbuild.generated.core.enums import *  # noqa: F403

__version__ = "0.1.0"

__all__ = ["Builder", "BuildError", "EncodeError", "Id", "Instruction", "SpvbuildError", "TypeId"]


def __getattr__(name: str) -> Any:
    """Load the core enums lazily: ``spvbuild.Decoration`` imports them on first use."""
    from spvbuild.generated.core import enums

    try:
        value = getattr(enums, name)
    except AttributeError:
        raise AttributeError(f"module 'spvbuild' has no attribute {name!r}") from None
    globals()[name] = value
    return value
