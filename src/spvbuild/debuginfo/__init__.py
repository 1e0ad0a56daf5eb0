"""Debug information from source-level facts, in any of the three debug-info sets.

* :class:`DebugInfo` (``layer.py``): the facade — ``DebugInfo(m, flavor=...)`` then
  ``compile_unit``, ``basic_type``, ``composite_type``, ``function``, ``scope``,
  ``local_variable``, ``declare``, ``value``, ... returning typed handles (``handles.py``).
* ``facts.py``: the vocabulary (``Flags``, ``Encoding``, ``Tag``, ``Qualifier``,
  ``DwarfOp``; ``Member``, ``Base``, ``Method``).
* ``flavors.py``: the small table of what differs between DebugInfo,
  OpenCL.DebugInfo.100 and NonSemantic.Shader.DebugInfo.100 beyond their grammars.
* ``emitter.py``: the one generic emitter per (module, set).
* ``rules.py``: the spec's rules with their seed lines; :class:`DebugInfoError`,
  :func:`check_module`.
* ``strip.py``: :func:`strip_debug_info`, :func:`remove_debug_instruction`.
"""

from __future__ import annotations

from spvbuild.debuginfo.facts import (
    NO_FLAGS,
    Base,
    DwarfOp,
    Encoding,
    Flags,
    ImportedEntity,
    Member,
    Method,
    Qualifier,
    Tag,
)
from spvbuild.debuginfo.flavors import DEBUG_SETS, FLAVORS, FlavorName
from spvbuild.debuginfo.handles import (
    CompileUnit,
    Composite,
    DebugType,
    Discriminator,
    Expression,
    Function,
    FunctionDeclaration,
    FunctionType,
    GlobalVariable,
    Handle,
    InlinedAt,
    InlinedVariable,
    LexicalBlock,
    LocalVariable,
    Macro,
    MemberRef,
    Operation,
    Scope,
    Source,
    TemplateParameter,
)
from spvbuild.debuginfo.layer import DebugInfo
from spvbuild.debuginfo.rules import DebugInfoError, Rule, check_module
from spvbuild.debuginfo.strip import remove_debug_instruction, strip_debug_info

__all__ = [
    "DEBUG_SETS", "FLAVORS", "NO_FLAGS", "Base", "CompileUnit", "Composite", "DebugInfo",
    "DebugInfoError", "DebugType", "Discriminator", "DwarfOp", "Encoding", "Expression",
    "FlavorName", "Flags", "Function", "FunctionDeclaration", "FunctionType",
    "GlobalVariable", "Handle", "ImportedEntity", "InlinedAt", "InlinedVariable",
    "LexicalBlock", "LocalVariable", "Macro", "Member", "MemberRef", "Method", "Operation",
    "Qualifier", "Rule", "Scope", "Source", "Tag", "TemplateParameter", "check_module",
    "remove_debug_instruction", "strip_debug_info",
]  # fmt: skip
