"""spvbuild: a typed, grammar-generated SPIR-V builder, reader, assembler and disassembler.

The public face::

    from spvbuild import Module, read, assemble, disassemble

* :class:`Module` (``spvbuild.ir.module``): build a module with one typed method per
  instruction; :class:`Recorder` (``spvbuild.ir.recorder``) takes the same typed calls and
  only records them, in call order.
* :func:`read` (``spvbuild.binary.reader``): a binary → typed instructions.
* :func:`assemble` / :func:`disassemble`: text ↔ words, like ``spirv-as`` / ``spirv-dis``.
* :func:`link` (``spvbuild.passes.link``): modules joined by their imports and exports.
* :func:`reflect` (``spvbuild.reflection``): what a runtime needs to bind a module (entry
  points, descriptor bindings, push constants, specialization constants, interfaces).
* The errors (every one a :class:`SpvbuildError`) and the id types :class:`Id`,
  :class:`TypeId`.
* The core enums (``Op``, ``Decoration``, ``StorageClass``, ...) and their parameter
  classes (``DecorationBuiltIn``, ``ExecutionModeLocalSize``, ...).

Everything but the errors and ids loads on first use, so ``import spvbuild`` (which every
``spvbuild.*`` import runs first) stays fast and small.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from spvbuild.errors import (
    ArgumentError,
    AssemblyError,
    BinaryError,
    BuildError,
    EncodeError,
    LayoutError,
    LinkError,
    MemberNameError,
    PassError,
    ReflectionError,
    SpvbuildError,
    ToolUnavailable,
    ValidationError,
)
from spvbuild.spirv.ids import Id, TypeId

if TYPE_CHECKING:
    from spvbuild.binary.reader import read
    from spvbuild.generated.core.enums import *  # noqa: F403
    from spvbuild.ir.module import Module
    from spvbuild.ir.native_check import check
    from spvbuild.ir.recorder import Recorder
    from spvbuild.passes.link import link
    from spvbuild.reflection import reflect
    from spvbuild.spirv.instruction import Instruction
    from spvbuild.text.assembler import assemble
    from spvbuild.text.disassembler import disassemble

__version__ = "0.1.0"

__all__ = [
    "ArgumentError",
    "AssemblyError",
    "BinaryError",
    "BuildError",
    "EncodeError",
    "Id",
    "Instruction",
    "LayoutError",
    "LinkError",
    "MemberNameError",
    "Module",
    "PassError",
    "Recorder",
    "ReflectionError",
    "SpvbuildError",
    "ToolUnavailable",
    "TypeId",
    "ValidationError",
    "assemble",
    "check",
    "disassemble",
    "link",
    "read",
    "reflect",
]

# Name → the module that defines it, imported on first use.
_LAZY = {
    "Module": "spvbuild.ir.module",
    "Recorder": "spvbuild.ir.recorder",
    "Instruction": "spvbuild.spirv.instruction",
    "read": "spvbuild.binary.reader",
    "assemble": "spvbuild.text.assembler",
    "check": "spvbuild.ir.native_check",
    "disassemble": "spvbuild.text.disassembler",
    "link": "spvbuild.passes.link",
    "reflect": "spvbuild.reflection",
}


def __getattr__(name: str) -> Any:
    """Load on first use: the names of ``_LAZY`` and the core enums (``spvbuild.Decoration``)."""
    home = _LAZY.get(name)
    if home is not None:
        value = getattr(importlib.import_module(home), name)
        globals()[name] = value
        return value
    if not name[:1].isupper():
        # Not an enum (every enum and parameter class name is capitalised): most often
        # ``from spvbuild.binary import reader``, which asks here before importing the submodule.
        raise AttributeError(f"module 'spvbuild' has no attribute {name!r}")
    from spvbuild.generated.core import enums

    try:
        value = getattr(enums, name)
    except AttributeError:
        raise AttributeError(f"module 'spvbuild' has no attribute {name!r}") from None
    globals()[name] = value
    return value
