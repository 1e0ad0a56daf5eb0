"""Stripping debug information (``strip-debug``): the core debug instructions and the
DebugInfo extended sets, through the module's own strippers (``Module.strip_debug`` and
:func:`spvbuild.debuginfo.strip_debug_info`), which this pass only joins."""

from __future__ import annotations

from spvbuild.debuginfo import strip_debug_info
from spvbuild.passes.program import Program

__all__ = ["NAME", "strip_debug"]

NAME = "strip-debug"


def strip_debug(program: Program) -> Program:
    """``program`` without debug information (a new program; ``program`` unchanged): every
    ``OpName``, ``OpMemberName``, ``OpSource*``, ``OpModuleProcessed``, ``OpLine``,
    ``OpNoLine``, every instruction of the DebugInfo, OpenCL.DebugInfo.100 and
    NonSemantic.Shader.DebugInfo.100 sets with its import, and the strings left unused."""
    module = program.to_module()
    strip_debug_info(module)
    module.strip_debug()
    out = Program.from_module(module)
    return out
