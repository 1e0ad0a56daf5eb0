"""Reflection: what a runtime needs to know to bind a module (``spvbuild.reflect``).

:func:`reflect` reads a module (built, read or binary) into the typed records of
:mod:`~spvbuild.reflection.records`; :mod:`~spvbuild.reflection.json_form` writes them as
JSON by a documented schema; ``spvbuild reflect shader.spv [--json]`` does both from the
command line.  The room's modules, in data-flow order: ``module_facts`` (one walk: names,
decorations, declarations, each function's references), ``constants`` (values at the
defaults, OpSpecConstantOp worked out), ``type_table`` (types, strides, sizes),
``analysis`` (entry points, resources, interfaces), ``json_form``; from the records,
``host`` (numpy dtypes, ``ctypes`` Structures and WebGPU minimum binding sizes of blocks),
``set_layouts`` (descriptor-set layouts for Vulkan and WebGPU); and ``rebind`` (resources
moved to other sets and bindings in a binary).
"""

from __future__ import annotations

from spvbuild.reflection.analysis import reflect
from spvbuild.reflection.host import *  # noqa: F403
from spvbuild.reflection.host import __all__ as _host
from spvbuild.reflection.rebind import rebind
from spvbuild.reflection.records import *  # noqa: F403
from spvbuild.reflection.records import __all__ as _records
from spvbuild.reflection.set_layouts import *  # noqa: F403
from spvbuild.reflection.set_layouts import __all__ as _set_layouts

__all__ = ["reflect", "rebind", *_records, *_host, *_set_layouts]
