"""The core debug instructions ``strip_debug`` removes: one set, for the module's
:func:`spvbuild.ir.editing.strip_debug` and the ``strip-debug`` pass
(:mod:`spvbuild.passes.strip`), which reads it without loading the module room."""

from __future__ import annotations

from spvbuild.generated.core.opcodes import (
    OP_LINE,
    OP_MEMBER_NAME,
    OP_MODULE_PROCESSED,
    OP_NAME,
    OP_NO_LINE,
    OP_SOURCE,
    OP_SOURCE_CONTINUED,
    OP_SOURCE_EXTENSION,
)

__all__ = ["STRIPPED_DEBUG_OPCODES"]

STRIPPED_DEBUG_OPCODES = frozenset(
    (
        OP_NAME,
        OP_MEMBER_NAME,
        OP_SOURCE,
        OP_SOURCE_CONTINUED,
        OP_SOURCE_EXTENSION,
        OP_MODULE_PROCESSED,
        OP_LINE,
        OP_NO_LINE,
    )
)
"""The core debug instructions :func:`strip_debug` removes (OpString apart: only unused)."""
