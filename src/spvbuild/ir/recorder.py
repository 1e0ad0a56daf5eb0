"""The bare recorder: every typed core method plus the extended sets, recorded as called.

:class:`Recorder` records instructions in call order and numbers ids from 1; it sorts them
into the logical layout only when asked (``in_layout_order``, ``to_words``).  The builder
is :class:`~spvbuild.ir.module.Module` (logical layout, deduplication, capability
inference, serialization), which takes the same generated methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from spvbuild.binary.encoder import encode_module
from spvbuild.errors import BuildError
from spvbuild.generated.core.builder import CoreInstructions
from spvbuild.generated.core.opcodes import OP_EXT_INST, OP_EXT_INST_IMPORT, OP_VARIABLE
from spvbuild.generated.extinst import ExtInstSets
from spvbuild.spirv.emission import PutWords, Run
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction


class Recorder(CoreInstructions, ExtInstSets):
    """Chain typed instruction calls; ``recorder.instructions`` holds the result.

    >>> b = Recorder()
    >>> void = b.type_void()
    >>> b.name(void, "void").instructions[-1].opcode
    5
    """

    def __init__(self) -> None:
        self._bound = 1
        self._ext_imports: dict[str, Id] = {}
        # No words paths: every generated method records through the general path.
        self._fast_block: object | None = None
        self._run: Run | None = None
        self._put_words: PutWords | None = None
        self._value_types: dict[int, TypeId] | None = None  # no type checks (no fast path)
        self._type_bits: dict[int, int] = {}
        self.instructions: list[Instruction] = []

    # -- the emission contract (spvbuild.spirv.emission.InstructionSink) ----------------------
    def _value(
        self,
        opcode: int,
        result_type: TypeId | None,
        operands: tuple[Any, ...],
        result_id: Id | None = None,
    ) -> Id:
        rid = self.new_id() if result_id is None else self._reserved(result_id)
        self.instructions.append(Instruction(opcode, result_type, rid, operands))
        return rid

    def _type(
        self, opcode: int, operands: tuple[Any, ...], result_id: TypeId | None = None
    ) -> TypeId:
        rid = self.new_type_id() if result_id is None else self._reserved(result_id)
        self.instructions.append(Instruction(opcode, None, rid, operands))
        return rid

    def _check_types(
        self, opcode: int, result_type: TypeId | None, operands: tuple[Any, ...]
    ) -> bool:
        return True  # a bare recorder checks no types (and has no fast path to ask)

    def _flush_streak(self) -> None:
        pass  # (no fast path runs: _fast_block is None)

    def _void(self, opcode: int, operands: tuple[Any, ...]) -> Self:
        self.instructions.append(Instruction(opcode, None, None, operands))
        return self

    def _ext_value(
        self,
        import_name: str,
        number: int,
        result_type: TypeId,
        operands: Sequence[Any],
        result_id: Id | None = None,
    ) -> Id:
        set_id = self._ext_set_id(import_name)
        rid = self.new_id() if result_id is None else self._reserved(result_id)
        self.instructions.append(
            Instruction(OP_EXT_INST, result_type, rid, (set_id, number, *operands), import_name)
        )
        return rid

    def _import_set(self, import_name: str) -> Id:
        return self._value(OP_EXT_INST_IMPORT, None, (import_name,))

    def _number_words(self, type_id: int, value: object) -> list[int] | None:
        return None  # (no words path runs: _put_words is None)

    def _new_run(self, block: Any) -> Run:
        raise BuildError("a Recorder has no blocks: its methods take the general path")

    def _reserved(self, result_id: Any) -> Any:
        """A ``result_id`` given to a call: an id reserved with new_id()/new_type_id()."""
        if not isinstance(result_id, Id) or not 0 < result_id < self._bound:
            raise BuildError(
                f"result_id {result_id!r} was not reserved with new_id()/new_type_id()"
            )
        return result_id

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
