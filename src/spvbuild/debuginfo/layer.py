"""The debug-info layer: source-level facts in, one debug-info set's instructions out.

>>> di = DebugInfo(m, flavor="OpenCL.DebugInfo.100")     # or "DebugInfo", "NonSemantic..."
>>> cu = di.compile_unit("a.cl", text, language=SourceLanguage.OpenCL_C, language_version=200)
>>> int_t = di.basic_type("int", 32, Encoding.Signed)
>>> fn = di.function("f", di.function_type(int_t, [int_t]), function=f.id, line=3)
>>> ...                                   # inside f's entry block:
>>> di.scope(fn); di.declare(di.local_variable("x", int_t, fn, line=4), x_var)

Each method takes facts (names as ``str``, numbers as ``int``, the vocabulary enums of
:mod:`spvbuild.debuginfo.facts`, handles returned earlier), checks the spec's rules and
returns a typed handle.  The OpStrings, OpConstants, OpSource, the import and the one
DebugInfoNone are made as needed.  Instructions land where the spec puts them: DebugScope,
DebugNoScope, DebugDeclare, DebugValue (and the newer sets' line and definition
instructions) in the current block, everything else in the types/globals section.
Parents default to the first compilation unit and sources to its source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from spvbuild.debuginfo import rules
from spvbuild.debuginfo.emitter import MAX_STRING_BYTES, DebugInfoWriter
from spvbuild.debuginfo.facts import (
    NO_FLAGS,
    Base,
    DwarfOp,
    Encoding,
    Flags,
    Member,
    MemberFact,
    Method,
    Qualifier,
    Tag,
)
from spvbuild.debuginfo.flavors import FLAVORS, FlavorName
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
    TemplateTarget,
)
from spvbuild.debuginfo.spec_rules import IMPORT, DebugInfoError
from spvbuild.generated.core.enums import SourceLanguage, StorageClass
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id

H = TypeVar("H", bound=Handle)

_MEMBER_KIND = {Member: "DebugTypeMember", Base: "DebugTypeInheritance", Method: "DebugFunction"}


class DebugInfo:
    """Debug information for ``module`` written as ``flavor`` (a debug-info set's import
    name).  Several layers over one module share its DebugInfoNone and sources."""

    def __init__(self, module: Module, flavor: FlavorName = "DebugInfo") -> None:
        if flavor not in FLAVORS:
            raise DebugInfoError(
                f"unknown debug-info set {flavor!r}: one of {', '.join(FLAVORS)}", IMPORT
            )
        self.module = module
        self.flavor = FLAVORS[flavor]
        self.emitter = DebugInfoWriter.of(module, self.flavor)

    # -- plumbing ---------------------------------------------------------------------------
    def _make(
        self, cls: type[H], instruction: str, values: Mapping[str, object], **extra: Any
    ) -> H:
        rid = self.emitter.emit(instruction, values, result_id=extra.pop("result_id", None))
        return cls(rid, instruction, self.flavor.name, **extra)

    @property
    def unit(self) -> CompileUnit:
        """The first compilation unit (the default parent scope)."""
        if self.emitter.unit is None:
            raise DebugInfoError("no compilation unit yet: call compile_unit() first")
        return self.emitter.unit

    def _source(self, source: Source | None) -> Source:
        return self.unit.source if source is None else source

    def _parent(self, parent: Scope | None) -> Scope:
        return self.unit if parent is None else parent

    def _linkage(self, instruction: str, name: str, linkage_name: str | None) -> str | None:
        """The Linkage Name to give: the user's, else ``name`` where the set has the
        operand (None where it has not: nothing to drop)."""
        if linkage_name is not None:
            return linkage_name
        return name if "Linkage Name" in self.flavor.operand_names(instruction) else None

    def _in_entry_block_of(self, function: Id) -> bool:
        """True when instructions go to the entry block of OpFunction ``function``."""
        module = self.module
        current = module.current_block
        if current is None or module.current_function != function:
            return False
        owner = next(f for f in reversed(module.functions) if f.id == function)
        return owner.blocks[0].label == current

    def check(self) -> None:
        """Check every debug instruction of the module against the spec's rules."""
        rules.check_module(self.module)

    # -- compilation unit and sources ---------------------------------------------------------
    def source(
        self,
        file: str,
        text: str | None = None,
        *,
        language: SourceLanguage = SourceLanguage.Unknown,
        language_version: int = 0,
    ) -> Source:
        """A source file (made once per file and text): its OpString, an OpSource (with the
        text in DebugInfo, where the Source operand is the file's OpString), and in the newer
        sets a DebugSource carrying the text (continued when it is too long for one string)."""
        key = (file, text)
        found = self.emitter.sources.get(key)
        if found is not None:
            return found
        em = self.emitter
        file_id = em.string(file)
        chunks = _split(text) if text else []
        if self.flavor.source is None:
            self.module.source(language, language_version, file_id, chunks[0] if chunks else None)
            for chunk in chunks[1:]:
                self.module.source_continued(chunk)
            handle = Source(file_id, "OpString", self.flavor.name, file, file_id)
        else:
            self.module.source(language, language_version, file_id)
            if len(chunks) > 1 and self.flavor.source_continued is None:
                raise DebugInfoError(
                    f"{self.flavor.name} cannot continue a DebugSource text longer than "
                    f"{MAX_STRING_BYTES} bytes"
                )
            texts = [em.string(chunk) for chunk in chunks]
            rid = em.emit(
                self.flavor.source, {"file": file_id, "text": texts[0] if texts else None}
            )
            for more in texts[1:]:
                assert self.flavor.source_continued is not None
                em.emit(self.flavor.source_continued, {"text": more})
            handle = Source(rid, self.flavor.source, self.flavor.name, file, file_id)
        em.sources[key] = handle
        return handle

    def compile_unit(
        self,
        file: str,
        text: str | None = None,
        *,
        language: SourceLanguage = SourceLanguage.Unknown,
        language_version: int = 0,
        version: int | None = None,
        dwarf_version: int = 4,
    ) -> CompileUnit:
        """DebugCompilationUnit for the primary source ``file`` (with its ``text``)."""
        source = self.source(file, text, language=language, language_version=language_version)
        values: dict[str, object] = {
            "version": self.flavor.unit_version if version is None else version,
            "dwarf_version": dwarf_version,
            "source": source,
        }
        if "Language" in self.flavor.operand_names("DebugCompilationUnit"):
            values["language"] = language  # else the OpSource alone says it
        unit = self._make(CompileUnit, "DebugCompilationUnit", values, source=source)
        if self.emitter.unit is None:
            self.emitter.unit = unit
        return unit

    # -- types ----------------------------------------------------------------------------------
    def basic_type(
        self, name: str, size: int, encoding: Encoding, *, flags: Flags = NO_FLAGS
    ) -> DebugType:
        """DebugTypeBasic: ``size`` in bits (an OpConstant); the name may be empty."""
        values = {"name": name, "size": size, "encoding": encoding, "flags": flags}
        return self._make(DebugType, "DebugTypeBasic", values)

    def pointer_type(
        self, base: DebugType, storage_class: StorageClass, *, flags: Flags = NO_FLAGS
    ) -> DebugType:
        """DebugTypePointer to ``base`` in ``storage_class``."""
        values = {"base_type": base, "storage_class": storage_class, "flags": flags}
        return self._make(DebugType, "DebugTypePointer", values)

    def qualified_type(self, base: DebugType, *qualifiers: Qualifier) -> DebugType:
        """A chain of DebugTypeQualifier, one per qualifier (seed L392); the outermost."""
        result = base
        for qualifier in qualifiers:
            values = {"base_type": result, "type_qualifier": qualifier}
            result = self._make(DebugType, "DebugTypeQualifier", values)
        return result

    def array_type(self, base: DebugType, counts: Sequence[int]) -> DebugType:
        """DebugTypeArray with one count per dimension, outermost first (seed L425)."""
        values = {"base_type": base, "component_counts": list(counts)}
        return self._make(DebugType, "DebugTypeArray", values)

    def vector_type(self, base: DebugType, count: int) -> DebugType:
        """DebugTypeVector of ``count`` components."""
        return self._make(
            DebugType, "DebugTypeVector", {"base_type": base, "component_count": count}
        )

    def typedef(
        self,
        name: str,
        base: DebugType,
        *,
        line: int = 0,
        column: int = 0,
        parent: Scope | None = None,
        source: Source | None = None,
    ) -> DebugType:
        """DebugTypedef: ``name`` for ``base``."""
        values = {
            "name": name, "base_type": base, "source": self._source(source), "line": line,
            "column": column, "parent": self._parent(parent),
        }  # fmt: skip
        return self._make(DebugType, "DebugTypedef", values)

    def function_type(
        self,
        return_type: DebugType | None,
        parameter_types: Sequence[DebugType] = (),
        *,
        flags: Flags = NO_FLAGS,
    ) -> FunctionType:
        """DebugTypeFunction; a ``None`` return type is OpTypeVoid (seed L521)."""
        values = {
            "flags": flags,
            "return_type": self.emitter.void if return_type is None else return_type,
            "parameter_types": list(parameter_types),
        }
        return self._make(FunctionType, "DebugTypeFunction", values)

    def enum_type(
        self,
        name: str,
        enumerators: Sequence[tuple[int, str]],
        size: int,
        *,
        underlying: DebugType | None = None,
        line: int = 0,
        column: int = 0,
        parent: Scope | None = None,
        flags: Flags = NO_FLAGS,
        source: Source | None = None,
    ) -> DebugType:
        """DebugTypeEnum with (value, name) enumerators; no ``underlying`` → DebugInfoNone."""
        values = {
            "name": name, "underlying_type": underlying, "source": self._source(source),
            "line": line, "column": column, "parent": self._parent(parent), "size": size,
            "flags": flags, "value_names": [(value, text) for value, text in enumerators],
        }  # fmt: skip
        return self._make(DebugType, "DebugTypeEnum", values)

    def composite_type(
        self,
        name: str,
        tag: Tag,
        size: int | None,
        members: Sequence[MemberFact] = (),
        *,
        line: int = 0,
        column: int = 0,
        parent: Scope | None = None,
        flags: Flags = NO_FLAGS,
        linkage_name: str | None = None,
        source: Source | None = None,
    ) -> Composite:
        """DebugTypeComposite with its members (DebugTypeMember, DebugTypeInheritance, and
        member functions as DebugFunction); ``size`` in bits, None → DebugInfoNone.

        In sets whose members name their parent (DebugInfo, OpenCL.DebugInfo.100) the
        composite comes first and lists member ids reserved ahead; in
        NonSemantic.Shader.DebugInfo.100 (no forward references) the members come first,
        and member functions cannot be described.
        """
        src = self._source(source)
        common: dict[str, object] = {
            "name": name, "tag": tag, "source": src, "line": line, "column": column,
            "parent": self._parent(parent), "linkage_name": self._linkage(
                "DebugTypeComposite", name, linkage_name
            ), "size": size, "flags": flags,
        }  # fmt: skip
        kind = "DebugTypeComposite"
        if self.flavor.forward_refs:
            reserved = [self.module.new_id() for _ in members]
            ahead = [
                MemberRef(rid, _MEMBER_KIND[type(m)], self.flavor.name, _fact_name(m))
                for rid, m in zip(reserved, members, strict=True)
            ]
            rid = self.emitter.emit(kind, {**common, "members": ahead})
            shell = Composite(rid, kind, self.flavor.name, name, tag.name)
            made = [self._member(m, shell, src, r) for m, r in zip(members, reserved, strict=True)]
        else:
            if any(isinstance(m, Method) for m in members):
                raise DebugInfoError(
                    f"{self.flavor.name} DebugTypeComposite {name!r}: a member function would "
                    "need a forward reference (its Parent is the composite listing it), which "
                    "this set does not allow"
                )
            made = [self._member(m, None, src, None) for m in members]
            rid = self.emitter.emit(kind, {**common, "members": made})
        return Composite(rid, kind, self.flavor.name, name, tag.name, tuple(made))

    def _member(
        self, fact: MemberFact, owner: Composite | None, source: Source, result_id: Id | None
    ) -> MemberRef:
        set_name = self.flavor.name
        if isinstance(fact, Member):
            values: dict[str, object] = {
                "name": fact.name, "type": fact.type, "source": source, "line": fact.line,
                "column": fact.column, "parent": owner, "offset": fact.offset,
                "size": fact.size, "flags": fact.flags, "value": fact.value,
            }  # fmt: skip
            kind = "DebugTypeMember"
        elif isinstance(fact, Base):
            values = {
                "child": owner, "parent": fact.parent, "offset": fact.offset,
                "size": fact.size, "flags": fact.flags,
            }  # fmt: skip
            kind = "DebugTypeInheritance"
        else:
            values = {
                "name": fact.name, "type": fact.type, "source": source, "line": fact.line,
                "column": fact.column, "parent": owner, "linkage_name": self._linkage(
                    "DebugFunction", fact.name, fact.linkage_name
                ), "flags": fact.flags,
                "scope_line": fact.line, "function": None,
            }  # fmt: skip
            kind = "DebugFunction"
        rid = self.emitter.emit(kind, values, result_id=result_id)
        return MemberRef(rid, kind, set_name, _fact_name(fact))

    def opaque_type(
        self,
        name: str,
        tag: Tag = Tag.Structure,
        *,
        line: int = 0,
        column: int = 0,
        parent: Scope | None = None,
        source: Source | None = None,
    ) -> Composite:
        """A source-language opaque type: DebugTypeComposite named ``@name`` with no members
        and Size DebugInfoNone (seed L72, L624)."""
        at_name = name if name.startswith("@") else "@" + name
        return self.composite_type(
            at_name, tag, None, (), line=line, column=column, parent=parent, source=source
        )

    def ptr_to_member_type(self, member_type: DebugType, parent: Composite) -> DebugType:
        """DebugTypePtrToMember: a pointer to a ``member_type`` member of ``parent``."""
        values = {"member_type": member_type, "parent": parent}
        return self._make(DebugType, "DebugTypePtrToMember", values)

    # -- templates ------------------------------------------------------------------------------
    def template(
        self, target: TemplateTarget, parameters: Sequence[TemplateParameter]
    ) -> DebugType:
        """DebugTypeTemplate: ``target`` instantiated with ``parameters`` (at least one)."""
        values = {"target": target, "parameters": list(parameters)}
        return self._make(DebugType, "DebugTypeTemplate", values)

    def _template_parameter(
        self, name: str, actual: DebugType, value: int | None, line: int, column: int,
        source: Source | None,
    ) -> TemplateParameter:  # fmt: skip
        values = {
            "name": name, "actual_type": actual, "value": value, "source": self._source(source),
            "line": line, "column": column,
        }  # fmt: skip
        return self._make(TemplateParameter, "DebugTypeTemplateParameter", values)

    def template_type_parameter(
        self,
        name: str,
        actual_type: DebugType,
        *,
        line: int = 0,
        column: int = 0,
        source: Source | None = None,
    ) -> TemplateParameter:
        """A template type parameter (its Value is DebugInfoNone, review D12)."""
        return self._template_parameter(name, actual_type, None, line, column, source)

    def template_value_parameter(
        self,
        name: str,
        actual_type: DebugType,
        value: int,
        *,
        line: int = 0,
        column: int = 0,
        source: Source | None = None,
    ) -> TemplateParameter:
        """A template value parameter (its Value an integer OpConstant, seed L821)."""
        return self._template_parameter(name, actual_type, value, line, column, source)

    def template_template_parameter(
        self,
        name: str,
        template_name: str,
        *,
        line: int = 0,
        column: int = 0,
        source: Source | None = None,
    ) -> TemplateParameter:
        """DebugTypeTemplateTemplateParameter naming the template used as the argument."""
        values = {
            "name": name, "template_name": template_name, "source": self._source(source),
            "line": line, "column": column,
        }  # fmt: skip
        return self._make(TemplateParameter, "DebugTypeTemplateTemplateParameter", values)

    def template_parameter_pack(
        self,
        name: str,
        parameters: Sequence[TemplateParameter],
        *,
        line: int = 0,
        column: int = 0,
        source: Source | None = None,
    ) -> TemplateParameter:
        """DebugTypeTemplateParameterPack: an expanded pack (at least one parameter)."""
        values = {
            "name": name, "source": self._source(source), "line": line, "column": column,
            "template_parameters": list(parameters),
        }  # fmt: skip
        return self._make(TemplateParameter, "DebugTypeTemplateParameterPack", values)

    # -- globals and functions --------------------------------------------------------------------
    def global_variable(
        self,
        name: str,
        type: DebugType,
        variable: Id | None,
        *,
        line: int = 0,
        column: int = 0,
        parent: Scope | None = None,
        linkage_name: str | None = None,
        flags: Flags = NO_FLAGS,
        static_member: MemberRef | None = None,
        source: Source | None = None,
    ) -> GlobalVariable:
        """DebugGlobalVariable for ``variable`` (an OpVariable or constant; None if it was
        optimized out), optionally defining a static member."""
        values = {
            "name": name, "type": type, "source": self._source(source), "line": line,
            "column": column, "parent": self._parent(parent), "linkage_name": self._linkage(
                "DebugGlobalVariable", name, linkage_name
            ), "variable": variable, "flags": flags,
            "static_member_declaration": static_member,
        }  # fmt: skip
        return self._make(GlobalVariable, "DebugGlobalVariable", values)

    def function_declaration(
        self,
        name: str,
        type: FunctionType,
        *,
        line: int = 0,
        column: int = 0,
        parent: Scope | None = None,
        linkage_name: str | None = None,
        flags: Flags = NO_FLAGS,
        source: Source | None = None,
    ) -> FunctionDeclaration:
        """DebugFunctionDeclaration (a non-defining declaration)."""
        values = {
            "name": name, "type": type, "source": self._source(source), "line": line,
            "column": column, "parent": self._parent(parent), "linkage_name": self._linkage(
                "DebugFunctionDeclaration", name, linkage_name
            ), "flags": flags,
        }  # fmt: skip
        return self._make(FunctionDeclaration, "DebugFunctionDeclaration", values)

    def function(
        self,
        name: str,
        type: FunctionType,
        *,
        function: Id | None = None,
        line: int = 0,
        column: int = 0,
        scope_line: int | None = None,
        parent: Scope | None = None,
        linkage_name: str | None = None,
        flags: Flags = NO_FLAGS,
        declaration: FunctionDeclaration | None = None,
        source: Source | None = None,
    ) -> Function:
        """DebugFunction describing the OpFunction ``function`` (None: no body here).

        NonSemantic.Shader.DebugInfo.100 ties the two with DebugFunctionDefinition instead,
        emitted by the first :meth:`scope` of this function in its entry block; ``function``
        is checked here all the same (an OpFunction, seed L1070).
        """
        definition = self.flavor.definition
        if definition is not None and function is not None:
            where = f"{self.flavor.name} DebugFunction {name!r}"
            refs = {"Definition": [self.emitter.describe(function)]}
            rules.check_instruction(self.flavor, definition, refs, where)
        values = {
            "name": name, "type": type, "source": self._source(source), "line": line,
            "column": column, "parent": self._parent(parent), "linkage_name": self._linkage(
                "DebugFunction", name, linkage_name
            ), "flags": flags,
            "scope_line": line if scope_line is None else scope_line,
            "function": None if definition is not None else function, "declaration": declaration,
        }  # fmt: skip
        return self._make(Function, "DebugFunction", values, name=name, function_id=function)

    # -- scopes and locations -----------------------------------------------------------------
    def lexical_block(
        self, parent: Scope, *, line: int = 0, column: int = 0, source: Source | None = None
    ) -> LexicalBlock:
        """DebugLexicalBlock nested in ``parent``."""
        values = {"source": self._source(source), "line": line, "column": column, "parent": parent}
        return self._make(LexicalBlock, "DebugLexicalBlock", values)

    def namespace(
        self,
        name: str,
        parent: Scope | None = None,
        *,
        line: int = 0,
        column: int = 0,
        source: Source | None = None,
    ) -> LexicalBlock:
        """A C++ namespace: DebugLexicalBlock with a Name ("" if anonymous, seed L1125)."""
        values = {
            "source": self._source(source), "line": line, "column": column,
            "parent": self._parent(parent), "name": name,
        }  # fmt: skip
        return self._make(LexicalBlock, "DebugLexicalBlock", values)

    def discriminator(
        self, parent: Scope, value: int, *, source: Source | None = None
    ) -> Discriminator:
        """DebugLexicalBlockDiscriminator: blocks of one line told apart by ``value``."""
        values = {"source": self._source(source), "discriminator": value, "parent": parent}
        return self._make(Discriminator, "DebugLexicalBlockDiscriminator", values)

    def inlined_at(self, line: int, scope: Scope, inlined: InlinedAt | None = None) -> InlinedAt:
        """DebugInlinedAt: inlined at ``line`` of ``scope``; ``inlined`` is the next level."""
        values = {"line": line, "scope": scope, "inlined": inlined}
        return self._make(InlinedAt, "DebugInlinedAt", values)

    def scope(self, scope: Scope, inlined_at: InlinedAt | None = None) -> Id:
        """DebugScope in the current block: what follows belongs to ``scope``."""
        definition = self.flavor.definition
        if (
            definition is not None
            and isinstance(scope, Function)
            and scope.function_id is not None
            and inlined_at is None
            and int(scope.id) not in self.emitter.defined
            and self._in_entry_block_of(scope.function_id)
        ):
            self.emitter.emit(definition, {"function": scope, "definition": scope.function_id})
            self.emitter.defined.add(int(scope.id))
        return self.emitter.emit("DebugScope", {"scope": scope, "inlined_at": inlined_at})

    def no_scope(self) -> Id:
        """DebugNoScope in the current block: ends the current scope."""
        return self.emitter.emit("DebugNoScope", {})

    def line(
        self,
        line: int,
        column: int = 0,
        *,
        end_line: int | None = None,
        end_column: int | None = None,
        source: Source | None = None,
    ) -> None:
        """A source position for what follows: OpLine, or DebugLine in sets that have it."""
        src = self._source(source)
        if self.flavor.lines is None:
            self.module.line(src.file_id, line, column)
            return
        values = {
            "source": src, "line_start": line, "line_end": line if end_line is None else end_line,
            "column_start": column, "column_end": column if end_column is None else end_column,
        }  # fmt: skip
        self.emitter.emit(self.flavor.lines[0], values)

    def no_line(self) -> None:
        """End the current source position: OpNoLine, or DebugNoLine."""
        if self.flavor.lines is None:
            self.module.no_line()
        else:
            self.emitter.emit(self.flavor.lines[1], {})

    # -- variables -------------------------------------------------------------------------------
    def local_variable(
        self,
        name: str,
        type: DebugType,
        scope: Scope,
        *,
        line: int = 0,
        column: int = 0,
        arg_number: int | None = None,
        flags: Flags = NO_FLAGS,
        source: Source | None = None,
    ) -> LocalVariable:
        """DebugLocalVariable in ``scope``; with ``arg_number`` a formal parameter."""
        values = {
            "name": name, "type": type, "source": self._source(source), "line": line,
            "column": column, "parent": scope, "flags": flags, "arg_number": arg_number,
        }  # fmt: skip
        return self._make(LocalVariable, "DebugLocalVariable", values)

    def parameter(
        self,
        name: str,
        type: DebugType,
        scope: Scope,
        arg_number: int,
        *,
        line: int = 0,
        column: int = 0,
        flags: Flags = NO_FLAGS,
        source: Source | None = None,
    ) -> LocalVariable:
        """A formal parameter: DebugLocalVariable with its argument number (from 1)."""
        return self.local_variable(
            name, type, scope, line=line, column=column, arg_number=arg_number, flags=flags,
            source=source,
        )  # fmt: skip

    def inlined_variable(self, variable: LocalVariable, inlined: InlinedAt) -> InlinedVariable:
        """DebugInlinedVariable: ``variable`` as inlined at ``inlined``."""
        values = {"variable": variable, "inlined": inlined}
        return self._make(InlinedVariable, "DebugInlinedVariable", values)

    def _expression(self, expression: Expression | None) -> Expression:
        if expression is not None:
            return expression
        if self.emitter.empty_expression is None:
            self.emitter.empty_expression = self.expression()
        return self.emitter.empty_expression

    def declare(
        self,
        variable: LocalVariable,
        storage: Id,
        expression: Expression | None = None,
        *,
        indexes: Sequence[Id] = (),
    ) -> Id:
        """DebugDeclare in the current block: ``variable`` lives in OpVariable ``storage``
        (``indexes`` only in NonSemantic.Shader.DebugInfo.100)."""
        if indexes and "Indexes" not in self.flavor.operand_names("DebugDeclare"):
            raise DebugInfoError(f"{self.flavor.name} DebugDeclare has no Indexes operand")
        values = {
            "local_variable": variable, "variable": storage,
            "expression": self._expression(expression), "indexes": list(indexes),
        }  # fmt: skip
        return self.emitter.emit("DebugDeclare", values)

    def value(
        self,
        variable: LocalVariable,
        value: Id,
        expression: Expression | None = None,
        *,
        indexes: Sequence[Id] = (),
    ) -> Id:
        """DebugValue in the current block: ``variable`` now holds ``value``; its Local
        Variable operand comes first (seed L1391-1399)."""
        values = {
            "local_variable": variable, "value": value,
            "expression": self._expression(expression), "indexes": list(indexes),
        }  # fmt: skip
        return self.emitter.emit("DebugValue", values)

    def operation(self, op: DwarfOp, *operands: int) -> Operation:
        """DebugOperation with its literal operands (as many as the table says)."""
        return self._make(Operation, "DebugOperation", {"op_code": op, "operands": list(operands)})

    def expression(self, *operations: Operation) -> Expression:
        """DebugExpression of zero or more operations."""
        return self._make(Expression, "DebugExpression", {"operations": list(operations)})

    # -- macros --------------------------------------------------------------------------------------
    def macro_def(
        self, name: str, value: str | None = None, *, line: int = 0, source: Source | None = None
    ) -> Macro:
        """DebugMacroDef (line 0: defined on the command line, seed L1461)."""
        values = {"source": self._source(source), "line": line, "name": name, "value": value}
        return self._make(Macro, "DebugMacroDef", values)

    def macro_undef(self, macro: Macro, *, line: int = 0, source: Source | None = None) -> Handle:
        """DebugMacroUndef of ``macro``."""
        values = {"source": self._source(source), "line": line, "macro": macro}
        return self._make(Handle, "DebugMacroUndef", values)

    # -- anything else the target set has -----------------------------------------------------------
    def instruction(self, instruction: str, /, **operands: object) -> Handle:
        """Any instruction of the target set, operands keyed by the generated method's
        parameter names and converted like every other fact (``str`` → OpString, ``int`` →
        literal or OpConstant, ``None`` → DebugInfoNone), e.g. ``DebugTypeMatrix`` or
        ``DebugImportedEntity``."""
        return self._make(Handle, instruction, operands)


def _fact_name(fact: MemberFact) -> str:
    return fact.parent.name if isinstance(fact, Base) else fact.name


def _split(text: str) -> list[str]:
    """``text`` in pieces that each fit one string operand (whole characters)."""
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for char in text:
        width = len(char.encode())
        if size + width > MAX_STRING_BYTES:
            pieces.append("".join(current))
            current, size = [], 0
        current.append(char)
        size += width
    pieces.append("".join(current))
    return pieces
