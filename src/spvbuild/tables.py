"""The shapes of the generated instruction and operand-kind tables.

Generated modules (``spvbuild.generated.core.tables``, ``spvbuild.generated.extinst.*``)
fill these records from the grammar; the one generic encoder (and later the reader,
assembler and disassembler) walk them instead of having code per instruction.
"""

from __future__ import annotations

from typing import NamedTuple


class OperandInfo(NamedTuple):
    """One operand of an instruction or enumerant: kind, grammar name, quantifier."""

    kind: str
    name: str
    quantifier: str  # "", "?" or "*"


class InstructionInfo(NamedTuple):
    """Everything the tools need to know about one instruction."""

    name: str
    opcode: int
    cls: str
    operands: tuple[OperandInfo, ...]
    section: str  # logical-layout section (grammars/core.yaml: logical_layout)
    capabilities: tuple[str, ...]  # any one of them enables the instruction
    extensions: tuple[str, ...]  # any one of them enables it (below `version`)
    version: tuple[int, int] | None  # first core version; None = extension only
    last_version: tuple[int, int] | None

    @property
    def has_result_type(self) -> bool:
        """True when operand 0 is the result type."""
        return bool(self.operands) and self.operands[0].kind == "IdResultType"

    @property
    def has_result(self) -> bool:
        """True when the instruction defines a result id."""
        return any(op.kind == "IdResult" for op in self.operands[:2])


class EnumerantInfo(NamedTuple):
    """One enumerant: value, parameters and what enables it."""

    name: str
    value: int
    parameters: tuple[OperandInfo, ...]
    capabilities: tuple[str, ...]
    extensions: tuple[str, ...]
    version: tuple[int, int] | None


class KindInfo(NamedTuple):
    """An operand kind; ``enumerants`` is keyed by value (empty for non-enums)."""

    name: str
    category: str  # ValueEnum, BitEnum, Id, Literal, Composite
    bases: tuple[str, ...]
    enumerants: dict[int, EnumerantInfo]
    operand_class: int  # spvbuild.generated.core.operand_classes: how its words are read
