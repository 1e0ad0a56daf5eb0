"""Debug information from source-level facts, in any of the three debug-info sets.

* :class:`DebugInfo` (``layer.py``): the facade — ``DebugInfo(m, flavor=...)`` then
  ``compile_unit``, ``basic_type``, ``composite_type``, ``function``, ``scope``,
  ``local_variable``, ``declare``, ``value``, ... returning typed handles (``handles.py``).
* ``facts.py``: the vocabulary (``Flags``, ``Encoding``, ``Tag``, ``Qualifier``,
  ``DwarfOp``; ``Member``, ``Base``, ``Method``).
* ``flavors.py``: the small table of what differs between DebugInfo,
  OpenCL.DebugInfo.100 and NonSemantic.Shader.DebugInfo.100 beyond their grammars.
* ``emitter.py``: :class:`~spvbuild.debuginfo.emitter.DebugInfoWriter`, the one generic
  writer per (module, set).
* ``rules.py``: the spec's rules with their seed lines; :class:`DebugInfoError`,
  :func:`check_module`.
* ``strip.py``: :func:`strip_debug_info`, :func:`remove_debug_instruction`.

The vocabulary and the handles load with the package; every other name on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from spvbuild.debuginfo import facts, handles
from spvbuild.debuginfo.facts import *  # noqa: F403  (the vocabulary: facts.__all__)
from spvbuild.debuginfo.handles import *  # noqa: F403  (the handles: handles.__all__)

if TYPE_CHECKING:
    from spvbuild.debuginfo.flavors import DEBUG_SETS, FLAVORS, FlavorName
    from spvbuild.debuginfo.layer import DebugInfo
    from spvbuild.debuginfo.rules import check_module
    from spvbuild.debuginfo.spec_rules import DebugInfoError, Rule
    from spvbuild.debuginfo.strip import remove_debug_instruction, strip_debug_info

__all__ = [
    "DEBUG_SETS", "FLAVORS", "DebugInfo", "DebugInfoError", "FlavorName", "Rule",
    "check_module", "remove_debug_instruction", "strip_debug_info",
]  # fmt: skip
__all__ += facts.__all__
__all__ += handles.__all__

# Name → the module that defines it, imported on first use: the writer and the rules load
# the module room, which a reader of one submodule (a pass reading ``flavors``) does
# without.
_LAZY = {
    "DEBUG_SETS": "spvbuild.debuginfo.flavors",
    "FLAVORS": "spvbuild.debuginfo.flavors",
    "FlavorName": "spvbuild.debuginfo.flavors",
    "DebugInfo": "spvbuild.debuginfo.layer",
    "check_module": "spvbuild.debuginfo.rules",
    "DebugInfoError": "spvbuild.debuginfo.spec_rules",
    "Rule": "spvbuild.debuginfo.spec_rules",
    "remove_debug_instruction": "spvbuild.debuginfo.strip",
    "strip_debug_info": "spvbuild.debuginfo.strip",
}


def __getattr__(name: str) -> Any:
    """Load a name of the face on first use (see _LAZY)."""
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'spvbuild.debuginfo' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
