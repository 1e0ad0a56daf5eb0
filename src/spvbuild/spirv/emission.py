"""The emission contract: what the generated instruction methods call, and nothing more.

Generated classes (``CoreInstructions``, ``ExtInstSets``, one ``*Instructions`` class per
extended set) only describe *what* an instruction is; the class that mixes them in
decides *where* it goes.  :class:`InstructionSink` is that contract, a
:class:`~typing.Protocol` that holds no state: the ids handed out so far (``_bound``), the
block a words path may append to (``_fast_block``) with its current :class:`Run`, where a
words path hands its words (``_put_words``), and the general path (``_value``, ``_type``,
``_void``, ``_ext_value``).  :class:`~spvbuild.ir.module.Module` implements it over its
state record, :class:`~spvbuild.ir.recorder.Recorder` with a plain list.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, Protocol, Self, TypeAlias, TypeVar, overload

from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

__all__ = ["InstructionSink", "PutWords", "Run", "SetInstructions", "made_once"]


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

    def operand_ids(self) -> set[int]:
        """The ids the run's instructions take as operands (every word after a result
        id), read from its words without decoding them."""
        words = self.words
        out: set[int] = set()
        i = 0
        n = len(words)
        while i < n:
            count = words[i] >> 16
            out.update(words[i + 3 : i + count])
            i += count
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


PutWords: TypeAlias = Callable[
    [int, TypeId | None, tuple[Any, ...], list[int], int, tuple[Any, ...] | None], int
]
"""Where a generated words path hands the words it made at the call:
``(opcode, result_type, operands, words, result_slot, needs_key) -> result id (0: none)``."""


class InstructionSink(Protocol):
    """What generated instruction methods call; the base of ``CoreInstructions`` and
    ``ExtInstSets``.

    Attributes an implementation keeps (the generated fast paths read them inline):

    * ``_bound``: one more than the largest id handed out so far;
    * ``_fast_block``: the block a run of id-only words may be appended to (None: none);
    * ``_run``: the current :class:`Run` of that block (None: :meth:`_new_run` starts one);
    * ``_put_words``: where a words path hands its words (None: every call takes the
      general path);
    * ``_value_types``: each value's type, result id → type id (None: no type checks),
      which a fast path keeps for the values it makes; ``_type_bits``: the ``TYPE_*`` bits
      of the types checked so far (:mod:`spvbuild.spirv.tables`), by which a fast path
      accepts a call whose operands are values of exactly its result type;
      ``_streak_from``, ``_streak_end``: the ids of the current streak of values a fast
      path made with one result type, ``_streak_type``, which
      ``_value_types`` does not hold yet (:meth:`_flush_streak`).
    """

    _bound: int
    _fast_block: Any
    _run: Run | None
    _put_words: PutWords | None
    _ext_imports: dict[str, Id]
    _value_types: dict[int, TypeId] | None
    _type_bits: dict[int, int]
    _streak_type: TypeId | None
    _streak_from: int
    _streak_end: int

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

    def _value(
        self,
        opcode: int,
        result_type: TypeId | None,
        operands: tuple[Any, ...],
        result_id: Id | None = None,
    ) -> Id:
        """The general path of an instruction with a result id: checked, recorded."""
        ...

    def _check_types(
        self, opcode: int, result_type: TypeId | None, operands: tuple[Any, ...]
    ) -> bool:
        """The type rule of ``opcode`` checked for a call that a fast path could not accept
        at once: raises for a mistake; False when an operand's type is not known yet (the
        general path takes the call)."""
        ...

    def _flush_streak(self) -> None:
        """Write the values of the current streak into ``_value_types`` (a fast path
        starts a new streak; see :mod:`spvbuild.ir.value_types`)."""
        ...

    def _type(
        self, opcode: int, operands: tuple[Any, ...], result_id: TypeId | None = None
    ) -> TypeId:
        """The general path of a type declaration."""
        ...

    def _void(self, opcode: int, operands: tuple[Any, ...]) -> Self:
        """The general path of an instruction without a result id; the sink itself."""
        ...

    def _ext_value(
        self,
        import_name: str,
        number: int,
        result_type: TypeId,
        operands: Sequence[Any],
        result_id: Id | None = None,
    ) -> Id:
        """Instruction ``number`` of the extended set ``import_name``."""
        ...

    def _import_set(self, import_name: str) -> Id:
        """Make ``OpExtInstImport "import_name"``; its id."""
        ...

    def _number_words(self, type_id: int, value: object) -> list[int] | None:
        """The words of a literal of the numeric type ``type_id`` when a words path may
        write them (None: the general path encodes it, or says what is wrong)."""
        ...

    def _new_run(self, block: Any) -> Run:
        """Start a run of words at the end of ``block``."""
        ...

    def _ext_set_id(self, import_name: str) -> Id:
        """The id of ``OpExtInstImport "import_name"``, created once on first use."""
        rid = self._ext_imports.get(import_name)
        if rid is None:
            rid = self._ext_imports[import_name] = self._import_set(import_name)
        return rid


class SetInstructions:
    """Base of a generated extended-set method group, bound to one :class:`InstructionSink`."""

    IMPORT_NAME = ""

    def __init__(self, owner: InstructionSink) -> None:
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


_Made = TypeVar("_Made")


class made_once(Generic[_Made]):  # noqa: N801 - a decorator, spelled like cached_property
    """A builder attribute made on its first read and kept in the builder's ``__dict__``
    (``m.glsl``: one method group per builder): what :func:`functools.cached_property`
    does, without the lock it takes on every first read (Python 3.11), which costs more
    than making the group.  Builders are not shared between threads while they build.
    """

    def __init__(self, make: Callable[[Any], _Made]) -> None:
        self.make = make
        self.name = make.__name__
        self.__doc__ = make.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, builder: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(self, builder: object, owner: type | None = None) -> _Made: ...

    def __get__(self, builder: object, owner: type | None = None) -> _Made | Self:
        if builder is None:
            return self
        made = builder.__dict__[self.name] = self.make(builder)
        return made
