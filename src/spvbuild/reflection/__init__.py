"""Reflection: what a runtime needs to know to bind a module (``spvbuild.reflect``).

:func:`reflect` reads a module (built, read or binary) into the typed records of
:mod:`~spvbuild.reflection.records`; :mod:`~spvbuild.reflection.json_form` writes them as
JSON by a documented schema; ``spvbuild reflect shader.spv [--json]`` does both from the
command line.  The room's modules, in data-flow order: ``module_facts`` (one walk: names,
decorations, declarations, each function's references), ``constants`` (values at the
defaults, OpSpecConstantOp worked out), ``type_table`` (types, strides, sizes),
``analysis`` (entry points, resources, interfaces), ``json_form``.
"""

from __future__ import annotations

from spvbuild.reflection.analysis import reflect
from spvbuild.reflection.records import *  # noqa: F403
from spvbuild.reflection.records import __all__ as _records

__all__ = ["reflect", *_records]
