"""The base the generated instruction methods call into.

Generated classes (``CoreInstructions``, one ``*Instructions`` class per extended set)
only describe *what* an instruction is; :class:`Emitter` decides *where* it goes.  This
base appends to a flat list and numbers ids from 1; the module builder overrides
:meth:`Emitter._record` to route instructions into logical-layout sections.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Self, TypeVar

from spvbuild.errors import BuildError
from spvbuild.generated.core.opcodes import OP_EXT_INST, OP_EXT_INST_IMPORT
from spvbuild.ids import Id, TypeId
from spvbuild.instruction import Instruction

if TYPE_CHECKING:
    from collections.abc import Sequence

_AnyId = TypeVar("_AnyId", bound=Id)

FAST_IDS = (Id, TypeId)
"""The types of the operands the generated fast path takes (ids the builder handed out)."""


class Run:
    """Consecutive block instructions of ids only (``%r = OpX %type %a ...``), as words.

    The generated fast path appends them at the call: ``words`` holds their encoded
    words, ``firsts`` the distinct first words, in order of appearance, of those that need
    a capability, an extension or a SPIR-V version after 1.0 (all capability inference
    needs of them: an instruction of ids only has no enumerant operands).
    """

    __slots__ = ("firsts", "words")

    def __init__(self) -> None:
        self.words: array[int] = array("I")
        self.firsts: dict[int, None] = {}

    def result_ids(self) -> set[int]:
        """The result ids the run defines (read from its words)."""
        words = self.words
        out: set[int] = set()
        i = 0
        n = len(words)
        while i < n:
            out.add(words[i + 2])
            i += words[i] >> 16
        return out

    def instructions(self) -> Iterator[Instruction]:
        """The run's instructions, decoded (each word after the result is an id)."""
        words = self.words
        i = 0
        n = len(words)
        while i < n:
            first = words[i]
            count = first >> 16
            yield Instruction(
                first & 0xFFFF,
                TypeId(words[i + 1]),
                Id(words[i + 2]),
                tuple(Id(w) for w in words[i + 3 : i + count]),
            )
            i += count


class Emitter:
    """Records instructions and hands out ids; base of every generated builder.

    ``_fast_block`` is None here, so the generated fast path never applies: a bare
    emitter records every instruction.  The module builder sets it to its open block.
    """

    _fast_block: object | None = None
    _run: Run | None = None

    def __init__(self) -> None:
        self.instructions: list[Instruction] = []
        self._bound = 1
        self._ext_imports: dict[str, Id] = {}

    # -- ids ------------------------------------------------------------------------------
    @property
    def bound(self) -> int:
        """One more than the largest id handed out so far."""
        return self._bound

    def new_id(self) -> Id:
        """Reserve a fresh id (for forward references such as branch targets)."""
        rid = self._bound
        self._bound += 1
        return Id(rid)

    def new_type_id(self) -> TypeId:
        """Reserve a fresh id for a type declared later (OpTypeForwardPointer)."""
        rid = self._bound
        self._bound += 1
        return TypeId(rid)

    # -- what generated methods call ------------------------------------------------------
    def _record(self, instruction: Instruction) -> None:
        """Store one finished instruction (overridden by the module builder)."""
        self.instructions.append(instruction)

    def _value(
        self,
        opcode: int,
        result_type: TypeId | None,
        operands: tuple[Any, ...],
        result_id: Id | None = None,
    ) -> Id:
        rid = self.new_id() if result_id is None else self._reserved(result_id)
        self._record(Instruction(opcode, result_type, rid, operands))
        return rid

    def _new_run(self, block: Any) -> Run:
        """Start a run of words in ``block`` (only the module builder has blocks)."""
        raise NotImplementedError("the fast path needs a module builder")

    def _ids_value(
        self,
        first: int,
        result_type: TypeId,
        operands: tuple[Any, ...],
        result_id: Id | None = None,
    ) -> Id:
        """A function-body instruction of ids only, given its first word (word count and
        opcode); the module builder appends such words directly."""
        return self._value(first & 0xFFFF, result_type, operands, result_id)

    def _type(
        self, opcode: int, operands: tuple[Any, ...], result_id: TypeId | None = None
    ) -> TypeId:
        rid = self.new_type_id() if result_id is None else self._reserved(result_id)
        self._record(Instruction(opcode, None, rid, operands))
        return rid

    def _reserved(self, result_id: _AnyId) -> _AnyId:
        if not isinstance(result_id, Id) or not 0 < result_id < self._bound:
            raise BuildError(
                f"result_id {result_id!r} was not reserved with new_id()/new_type_id()"
            )
        return result_id

    def _void(self, opcode: int, operands: tuple[Any, ...]) -> Self:
        self._record(Instruction(opcode, None, None, operands))
        return self

    def _ext_set_id(self, import_name: str) -> Id:
        """The id of ``OpExtInstImport "import_name"``, created once on first use."""
        rid = self._ext_imports.get(import_name)
        if rid is None:
            rid = self._value(OP_EXT_INST_IMPORT, None, (import_name,))
            self._ext_imports[import_name] = rid
        return rid

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
        self._record(
            Instruction(OP_EXT_INST, result_type, rid, (set_id, number, *operands), import_name)
        )
        return rid


class ExtInstSetBuilder:
    """Base of a generated extended-set method group, bound to one :class:`Emitter`."""

    IMPORT_NAME = ""

    def __init__(self, owner: Emitter) -> None:
        self._owner = owner

    @property
    def set_id(self) -> Id:
        """The id of this set's OpExtInstImport (created on first use)."""
        return self._owner._ext_set_id(self.IMPORT_NAME)

    def _inst(
        self,
        number: int,
        result_type: TypeId,
        operands: tuple[Any, ...],
        result_id: Id | None = None,
    ) -> Id:
        return self._owner._ext_value(self.IMPORT_NAME, number, result_type, operands, result_id)
