"""Where the user's call came from: the first stack frame outside the spvbuild package.

A builder error is raised by the call that caused it; its message ends with that call's
place in the user's code, ``(at shader.py:41)``, so the user need not read a traceback
through generated code to find it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings

__all__ = ["caller_location", "located", "warn_at_call"]

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # spvbuild/

# Frames in these folders are spvbuild's own (the generated package is reached through
# src/spvbuild/generated, and may also be imported from its checked-in folder).
_OWN = tuple(
    os.path.normcase(os.path.realpath(folder)) + os.sep
    for folder in (_PACKAGE, os.path.join(_PACKAGE, "generated"))
)


# Frames passed over as if they were spvbuild's: the standard library's context-manager
# machinery, which runs a construct's code after its ``yield`` from the user's ``with``.
_TRANSPARENT = frozenset({os.path.normcase(os.path.realpath(contextlib.__file__))})


def _own(filename: str) -> bool:
    """True for a source file of spvbuild itself (or one it runs through, see above)."""
    path = os.path.normcase(os.path.realpath(filename))
    return path.startswith(_OWN) or path in _TRANSPARENT


def caller_location(depth: int = 1) -> str | None:
    """``file:line`` of the first frame outside spvbuild, above ``depth`` frames; or None.

    The file is shown by its base name (the traceback has the full path).
    """
    frame = sys._getframe(depth)
    cache: dict[str, bool] = {}
    while frame is not None:
        filename = frame.f_code.co_filename
        own = cache.get(filename)
        if own is None:
            own = cache[filename] = _own(filename)
        if not own:
            return f"{os.path.basename(filename)}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return None


def located(message: str) -> str:
    """``message`` followed by the user's call site, ``(at file.py:41)``, when known."""
    where = caller_location(2)
    return f"{message} (at {where})" if where else message


def warn_at_call(message: str, category: type[Warning]) -> None:
    """Warn ``message`` (of ``category``) at the first frame outside spvbuild: the user's
    call, the place the warning filters and the shown line name."""
    frame = sys._getframe(1)
    while frame is not None and _own(frame.f_code.co_filename):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        warnings.warn(message, category, stacklevel=2)
        return
    globals_ = frame.f_globals
    warnings.warn_explicit(
        message,
        category,
        frame.f_code.co_filename,
        frame.f_lineno,
        module=globals_.get("__name__"),
        registry=globals_.setdefault("__warningregistry__", {}),
    )
