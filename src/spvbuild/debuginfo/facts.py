"""Source-level facts: the vocabulary the layer takes, independent of the target set.

The enums name the spec's tables (3.2-3.6 of the DebugInfo spec; OpenCL.DebugInfo.100 and
NonSemantic.Shader.DebugInfo.100 add a few members).  Values are converted *by name* into
the target set's numbering (DebugInfo encodes ``Float`` as 4, OpenCL.DebugInfo.100 as 3),
and into ``OpConstant`` ids for NonSemantic.Shader.DebugInfo.100.  A member the target set
does not have is an error.

The dataclasses describe what a composite contains; the handles the layer returns are in
:mod:`spvbuild.debuginfo.handles`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntFlag
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spvbuild.debuginfo.handles import Composite, DebugType, FunctionType

__all__ = [
    "NO_FLAGS", "Base", "DwarfOp", "Encoding", "Flags", "ImportedEntity", "Member", "Method",
    "Qualifier", "Tag",
]  # fmt: skip


class Flags(IntFlag):
    """Debug Info Flags (seed 3.2; the last four only in the newer sets)."""

    FlagIsProtected = 1 << 0
    FlagIsPrivate = 1 << 1
    FlagIsPublic = (1 << 1) | (1 << 0)
    FlagIsLocal = 1 << 2
    FlagIsDefinition = 1 << 3
    FlagFwdDecl = 1 << 4
    FlagArtificial = 1 << 5
    FlagExplicit = 1 << 6
    FlagPrototyped = 1 << 7
    FlagObjectPointer = 1 << 8
    FlagStaticMember = 1 << 9
    FlagIndirectVariable = 1 << 10
    FlagLValueReference = 1 << 11
    FlagRValueReference = 1 << 12
    FlagIsOptimized = 1 << 13
    FlagIsEnumClass = 1 << 14
    FlagTypePassByValue = 1 << 15
    FlagTypePassByReference = 1 << 16
    FlagUnknownPhysicalLayout = 1 << 17


NO_FLAGS = Flags(0)


class Encoding(Enum):
    """Base Type Attribute Encodings (seed 3.3)."""

    Unspecified = "Unspecified"
    Address = "Address"
    Boolean = "Boolean"
    Float = "Float"
    Signed = "Signed"
    SignedChar = "SignedChar"
    Unsigned = "Unsigned"
    UnsignedChar = "UnsignedChar"


class Tag(Enum):
    """Composite Types (seed 3.4)."""

    Class = "Class"
    Structure = "Structure"
    Union = "Union"


class Qualifier(Enum):
    """Type Qualifiers (seed 3.5; AtomicType only in the newer sets)."""

    ConstType = "ConstType"
    VolatileType = "VolatileType"
    RestrictType = "RestrictType"
    AtomicType = "AtomicType"


class DwarfOp(Enum):
    """Debug Operations (seed 3.6; Fragment only in the newer sets)."""

    Deref = "Deref"
    Plus = "Plus"
    Minus = "Minus"
    PlusUconst = "PlusUconst"
    BitPiece = "BitPiece"
    Swap = "Swap"
    Xderef = "Xderef"
    StackValue = "StackValue"
    Constu = "Constu"
    Fragment = "Fragment"


class ImportedEntity(Enum):
    """Imported entities (OpenCL.DebugInfo.100 and NonSemantic.Shader.DebugInfo.100 only)."""

    ImportedModule = "ImportedModule"
    ImportedDeclaration = "ImportedDeclaration"


KIND_OF: dict[type[Enum], str] = {
    Flags: "DebugInfoFlags",
    Encoding: "DebugBaseTypeAttributeEncoding",
    Tag: "DebugCompositeType",
    Qualifier: "DebugTypeQualifier",
    DwarfOp: "DebugOperation",
    ImportedEntity: "DebugImportedEntity",
}
"""The operand kind (in every set's grammar) each vocabulary enum stands for."""


@dataclass(frozen=True)
class Member:
    """A data member (DebugTypeMember): offsets and sizes in bits.

    ``value`` is the initializer of a const static member (an ``OpConstant``; seed L681).
    """

    name: str
    type: DebugType
    offset: int
    size: int
    line: int = 0
    column: int = 0
    flags: Flags = NO_FLAGS
    value: int | None = None


@dataclass(frozen=True)
class Base:
    """A base class or struct (DebugTypeInheritance): where it sits in the derived type."""

    parent: Composite
    offset: int
    size: int
    flags: Flags = NO_FLAGS


@dataclass(frozen=True)
class Method:
    """A member function declared in a composite (a DebugFunction member, no OpFunction)."""

    name: str
    type: FunctionType
    line: int = 0
    column: int = 0
    flags: Flags = NO_FLAGS
    linkage_name: str | None = None


MemberFact = Member | Base | Method
"""What a composite's member list holds."""
