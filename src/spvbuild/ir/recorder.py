"""The bare recorder: every typed core method plus the extended sets, recorded as called.

:class:`Recorder` records instructions in call order and numbers ids from 1; it sorts them
into the logical layout only when asked (``in_layout_order``, ``to_words``).  The builder
is :class:`~spvbuild.ir.module.Module` (logical layout, deduplication, capability
inference, serialization), which takes the same generated methods.
"""

from __future__ import annotations

from spvbuild.binary.encoder import encode_module
from spvbuild.generated.core.builder import CoreInstructions
from spvbuild.generated.core.opcodes import OP_VARIABLE
from spvbuild.generated.extinst import ExtInstSets
from spvbuild.ir.instruction import Instruction


class Recorder(CoreInstructions, ExtInstSets):
    """Chain typed instruction calls; ``recorder.instructions`` holds the result.

    >>> b = Recorder()
    >>> void = b.type_void()
    >>> b.name(void, "void").instructions[-1].opcode
    5
    """

    def __init__(self) -> None:
        super().__init__()
        self.instructions: list[Instruction] = []

    def _record(self, instruction: Instruction) -> None:
        """Keep one finished instruction, in call order."""
        self.instructions.append(instruction)

    def in_layout_order(self) -> list[Instruction]:
        """The instructions stably sorted into the logical-layout sections of the grammar.

        The section of each instruction comes from ``grammars/core.yaml: logical_layout``;
        an OpVariable in the Function storage class stays where it was called.
        """
        from spvbuild.generated.core.enums import StorageClass
        from spvbuild.generated.core.tables import INSTRUCTIONS, SECTIONS

        rank = {name: index for index, name in enumerate(SECTIONS)}
        functions = rank["functions"]

        def section(inst: Instruction) -> int:
            if (
                inst.opcode == OP_VARIABLE
                and inst.operands
                and inst.operands[0] == StorageClass.Function
            ):
                return functions
            info = INSTRUCTIONS.get(inst.opcode)
            return rank[info.section] if info is not None else functions

        return sorted(self.instructions, key=section)

    def to_words(self, version: tuple[int, int] = (1, 0)) -> list[int]:
        """Header and instructions in logical-layout order as SPIR-V words (1.0 by default)."""
        return encode_module(self.in_layout_order(), self.bound, version)
