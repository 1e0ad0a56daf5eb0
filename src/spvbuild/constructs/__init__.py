"""Constructs: the layer a frontend writes against, above one method per instruction.

Structured control flow (:mod:`spvbuild.constructs.control`): ``if_then``, ``if_else``,
``while_loop``, ``do_while``, ``for_range`` and ``switch`` as context managers that make
the blocks, merges and branches, ``break_``/``continue_``, and ``phi`` with incoming
pairs added later.

Values and resources (:mod:`spvbuild.constructs.values`, :mod:`spvbuild.constructs.resources`):
``type_of``, ``load`` and ``access_chain`` that take their types from the pointer,
``builtin`` variables made on first use, barriers and atomics from ``Scope`` and
``MemorySemantics`` values, and uniform, storage and push-constant blocks, sampled and
storage images in one call each.

Typed values (:mod:`spvbuild.constructs.expressions`): ``Value`` (an id with its type)
whose operators make the instruction and infer its result type from the type rules,
``x * x + glsl("sqrt", x)``; its ``load`` and ``store`` take and give Values.

Block layouts (:mod:`spvbuild.constructs.layouts`): a buffer's data described once, laid
out by std140, std430 or scalar rules (or offsets the user gives, checked), declared in a
module with every layout decoration (:mod:`spvbuild.constructs.blocks`) and offered to
the host as ``ctypes`` and numpy types with the same bytes (:mod:`spvbuild.constructs.host`).
"""

from __future__ import annotations

from spvbuild.constructs import blocks, control, expressions, host, layouts, resources, values
from spvbuild.constructs.blocks import *  # noqa: F403  (each module's __all__)
from spvbuild.constructs.control import *  # noqa: F403
from spvbuild.constructs.expressions import Value, extract, glsl, value
from spvbuild.constructs.host import *  # noqa: F403
from spvbuild.constructs.layouts import *  # noqa: F403
from spvbuild.constructs.resources import *  # noqa: F403
from spvbuild.constructs.values import *  # noqa: F403

__all__ = [
    *layouts.__all__,
    *blocks.__all__,
    *host.__all__,
    *control.__all__,
    *values.__all__,
    *resources.__all__,
    "Value",
    "expressions",
    "extract",
    "glsl",
    "value",
]
