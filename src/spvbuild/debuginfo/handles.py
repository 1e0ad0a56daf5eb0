"""Typed handles the layer returns: an instruction's id, what it is and which set it is in.

A handle's class says where it may be used (a :class:`LocalVariable` where DebugDeclare
wants one, a :data:`Scope` where a parent scope goes), so mypy sees most misuse; the rules
in :mod:`spvbuild.debuginfo.rules` check the rest at build time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spvbuild.spirv.ids import Id

# The handles the package re-exports (TemplateTarget, the layer's own alias, is not one).
__all__ = [
    "CompileUnit", "Composite", "DebugType", "Discriminator", "Expression", "Function",
    "FunctionDeclaration", "FunctionType", "GlobalVariable", "Handle", "InlinedAt",
    "InlinedVariable", "LexicalBlock", "LocalVariable", "Macro", "MemberRef", "Operation",
    "Scope", "Source", "TemplateParameter",
]  # fmt: skip


@dataclass(frozen=True)
class Handle:
    """A debug instruction: its result id, instruction name and set (import name)."""

    id: Id
    kind: str
    set_name: str


@dataclass(frozen=True)
class Source(Handle):
    """A source file: ``id`` is what a Source operand takes (the file's OpString in
    DebugInfo, a DebugSource elsewhere); ``file_id`` is the file name's OpString."""

    file: str
    file_id: Id


@dataclass(frozen=True)
class CompileUnit(Handle):
    """DebugCompilationUnit, with its primary source."""

    source: Source


@dataclass(frozen=True)
class DebugType(Handle):
    """Any debug type instruction."""


@dataclass(frozen=True)
class FunctionType(DebugType):
    """DebugTypeFunction."""


@dataclass(frozen=True)
class TemplateParameter(DebugType):
    """DebugTypeTemplateParameter / ...TemplateParameter / ...ParameterPack."""


@dataclass(frozen=True)
class MemberRef(Handle):
    """A member of a composite: DebugTypeMember, DebugTypeInheritance or a DebugFunction."""

    name: str


@dataclass(frozen=True)
class Composite(DebugType):
    """DebugTypeComposite: also a scope (a parent of nested types, members, methods)."""

    name: str
    tag: str
    members: tuple[MemberRef, ...] = field(default=())

    def member(self, name: str) -> MemberRef:
        """The member called ``name`` (KeyError if there is none)."""
        for member in self.members:
            if member.name == name:
                return member
        raise KeyError(f"{self.name} has no member {name!r}")


@dataclass(frozen=True)
class FunctionDeclaration(Handle):
    """DebugFunctionDeclaration."""


@dataclass(frozen=True)
class Function(Handle):
    """DebugFunction; ``function_id`` is the OpFunction it describes, if any."""

    name: str
    function_id: Id | None = None


@dataclass(frozen=True)
class LexicalBlock(Handle):
    """DebugLexicalBlock: a block, or a namespace when it has a name."""


@dataclass(frozen=True)
class Discriminator(Handle):
    """DebugLexicalBlockDiscriminator."""


@dataclass(frozen=True)
class InlinedAt(Handle):
    """DebugInlinedAt."""


@dataclass(frozen=True)
class LocalVariable(Handle):
    """DebugLocalVariable (a parameter when it has an argument number)."""


@dataclass(frozen=True)
class GlobalVariable(Handle):
    """DebugGlobalVariable."""


@dataclass(frozen=True)
class InlinedVariable(Handle):
    """DebugInlinedVariable."""


@dataclass(frozen=True)
class Operation(Handle):
    """DebugOperation."""


@dataclass(frozen=True)
class Expression(Handle):
    """DebugExpression."""


@dataclass(frozen=True)
class Macro(Handle):
    """DebugMacroDef."""


Scope = CompileUnit | Function | LexicalBlock | Discriminator | Composite
"""What may be a parent lexical scope (the spec narrows it per instruction)."""

TemplateTarget = Composite | Function
"""What DebugTypeTemplate may instantiate (seed L790)."""
