"""The three debug-info sets the layer can write, as one small table.

Everything the grammar says (which operands an instruction has, their order, whether a
number is a literal or an ``OpConstant`` id, the enum values) is read from the generated
tables of each set; this table only holds what the grammar cannot say.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import Any, Literal

from spvbuild.generated.extinst import set_module
from spvbuild.spirv.tables import InstructionInfo, KindInfo, OperandInfo

FlavorName = Literal["DebugInfo", "OpenCL.DebugInfo.100", "NonSemantic.Shader.DebugInfo.100"]


@dataclass(frozen=True)
class Flavor:
    """One target set: its import name and what its grammar does not say."""

    name: str
    """The OpExtInstImport string (also the key of this table)."""
    module: str
    """The generated module (``spvbuild.generated.extinst.<module>``), also the property
    of the builder that holds the set's typed methods."""
    forward_refs: bool
    """Whether a composite may list members defined after it (and DebugFunction name an
    OpFunction defined later).  True for DebugInfo and OpenCL.DebugInfo.100, whose members
    name their parent; NonSemantic sets allow no forward reference."""
    source: str | None
    """The instruction a ``Source`` operand refers to (``DebugSource``), or None when it is
    the file's OpString (the seed has no DebugSource: review R26)."""
    unit_version: int
    """Default ``Version`` of DebugCompilationUnit (the set's grammar version)."""
    lines: tuple[str, str] | None = None
    """(line, no-line) instructions of the set, or None for core OpLine/OpNoLine."""
    definition: str | None = None
    """The in-body instruction tying a DebugFunction to its OpFunction, if the set has one
    instead of DebugFunction's ``Function`` operand."""
    source_continued: str | None = None
    """The instruction continuing a long DebugSource text."""
    number_bits: int = 64
    """The widest integer OpConstant the layer writes a number as (NonSemantic sets: 32,
    every number operand there is a 32-bit integer constant)."""
    max_vector: int | None = 4
    """The most components a DebugTypeVector may have (rule R47); None: no bound (DebugInfo)."""
    none_anywhere: bool = False
    """Whether DebugInfoNone may stand for any reference, a lexical scope (a Parent or Scope
    operand) and a type included: the DebugInfo seed lets it (L68); the newer sets'
    validator (spirv-val) requires a scope or a type there (rule R45)."""
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # -- the set's generated tables -----------------------------------------------------
    @cached_property
    def tables(self) -> ModuleType:
        """The generated module of the set (INSTRUCTIONS, KINDS, ENUM_CLASSES, ...)."""
        module = set_module(self.name)
        assert module is not None, self.name  # every flavor is a generated set
        return module

    @cached_property
    def by_name(self) -> dict[str, InstructionInfo]:
        """The set's instructions by name."""
        infos: dict[int, InstructionInfo] = self.tables.INSTRUCTIONS
        return {info.name: info for info in infos.values()}

    @cached_property
    def kinds(self) -> dict[str, KindInfo]:
        """The set's own operand kinds by name."""
        kinds: dict[str, KindInfo] = self.tables.KINDS
        return kinds

    @cached_property
    def function_instructions(self) -> frozenset[int]:
        """Instruction numbers that live in function bodies (grammar data)."""
        numbers: frozenset[int] = self.tables.FUNCTION_INSTRUCTIONS
        return numbers

    def has(self, instruction: str) -> bool:
        """True when the set has this instruction."""
        return instruction in self.by_name

    def operand_names(self, instruction: str) -> tuple[str, ...]:
        """Grammar operand names of an instruction (empty if the set lacks it)."""
        info = self.by_name.get(instruction)
        return tuple(op.name for op in info.operands) if info else ()

    def parameters(self, instruction: str) -> list[tuple[str, OperandInfo]]:
        """(python parameter name, grammar operand) of the generated method, in order."""
        key = f"params:{instruction}"
        found: list[tuple[str, OperandInfo]] | None = self._cache.get(key)
        if found is None:
            info = self.by_name[instruction]
            signature = inspect.signature(getattr(self.builder_class, method_name(instruction)))
            names = [
                p.name
                for p in signature.parameters.values()
                if p.name not in ("self", "result_type", "result_id")
            ]
            if len(names) != len(info.operands):
                raise AssertionError(f"{self.name} {instruction}: method and grammar disagree")
            found = list(zip(names, info.operands, strict=True))
            self._cache[key] = found
        return found

    @cached_property
    def builder_class(self) -> type:
        """The generated ``*Instructions`` class of the set."""
        for value in vars(self.tables).values():
            if isinstance(value, type) and getattr(value, "IMPORT_NAME", None) == self.name:
                if value.__name__.endswith("Instructions"):
                    return value
        raise AssertionError(f"no generated instruction class for {self.name}")


def method_name(instruction: str) -> str:
    """The generated method name of an ext-inst (codegen/naming.py's rule)."""
    words = _CAMEL.sub("_", instruction)
    return _NON_WORD.sub("_", words).strip("_").lower()


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9a-zA-Z]+")


FLAVORS: dict[str, Flavor] = {
    flavor.name: flavor
    for flavor in (
        Flavor(
            "DebugInfo",
            "debug_info",
            forward_refs=True,
            source=None,
            unit_version=100,
            none_anywhere=True,
            max_vector=None,
        ),
        Flavor(
            "OpenCL.DebugInfo.100",
            "opencl_debug_info_100",
            forward_refs=True,
            source="DebugSource",
            unit_version=200,
        ),
        Flavor(
            "NonSemantic.Shader.DebugInfo.100",
            "shader_debug_info_100",
            forward_refs=False,
            source="DebugSource",
            unit_version=100,
            lines=("DebugLine", "DebugNoLine"),
            definition="DebugFunctionDefinition",
            source_continued="DebugSourceContinued",
            number_bits=32,
        ),
    )
}
"""The target sets by import name."""

DEBUG_SETS: tuple[str, ...] = tuple(FLAVORS)
"""Import names of every debug-info set (what :func:`strip_debug_info` removes)."""
