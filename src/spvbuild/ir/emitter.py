"""The base the generated instruction methods call into.

Generated classes (``CoreInstructions``, one ``*Instructions`` class per extended set)
only describe *what* an instruction is; :class:`InstructionSink` decides *where* it goes.
This base appends to a flat list and numbers ids from 1; the module builder overrides
:meth:`InstructionSink._record` to route instructions into logical-layout sections.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Self, TypeVar

from spvbuild.binary.strings import string_words
from spvbuild.errors import BuildError
from spvbuild.generated.core.opcodes import OP_EXT_INST, OP_EXT_INST_IMPORT
from spvbuild.ir.ids import Id, TypeId
from spvbuild.ir.instruction import Instruction

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

_AnyId = TypeVar("_AnyId", bound=Id | TypeId)

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


class InstructionSink:
    """Records instructions and hands out ids; base of the generated ``CoreInstructions``
    and ``ExtInstSets``.

    ``_fast_block`` and ``_put_words`` are None here, so the generated fast paths never
    apply: a bare sink records every instruction.  The module builder sets them.
    """

    _fast_block: object | None = None
    _run: Run | None = None
    # Takes the words a generated method made at the call (the module builder's _put);
    # None here, so a bare sink records every instruction.
    _put_words: (
        Callable[[int, TypeId | None, tuple[Any, ...], list[int], int, tuple[Any, ...] | None], int]
        | None
    ) = None

    def __init__(self) -> None:
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
        """Store one finished instruction (the recorder keeps a list, the module builder
        routes it into its layout)."""
        raise NotImplementedError("a sink records through its subclass")

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

    def _number_words(self, type_id: int, value: object) -> list[int] | None:
        """The words of a literal of numeric type ``type_id`` when a words path may write
        them; a bare sink knows no types (None: the general path)."""
        return None

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
            rid = self._ext_imports[import_name] = self._import_set(import_name)
        return rid

    def _import_set(self, import_name: str) -> Id:
        """Make ``OpExtInstImport "import_name"`` (the module builder's words path makes it
        as its generated method does)."""
        return self._value(OP_EXT_INST_IMPORT, None, (import_name,))

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


def ids_below(items: Sequence[object], bound: int) -> bool:
    """Whether every item is an id the builder handed out (an Id below ``bound``): the
    check of a variadic id operand on a words path."""
    for item in items:
        if item.__class__ not in FAST_IDS or not 0 < item < bound:
            return False
    return True


def literals32(items: Sequence[object]) -> bool:
    """Whether every item is an int of one word: the check of a variadic literal operand
    on a words path."""
    for item in items:
        if item.__class__ is not int or not 0 <= item < 4294967296:
            return False
    return True


_bare: dict[str, frozenset[int]] = {}


def bare_values(kind_name: str) -> frozenset[int]:
    """The values of a core ValueEnum kind's enumerants that take no parameters (what the
    generated words paths accept without the general encoder)."""
    found = _bare.get(kind_name)
    if found is None:
        from spvbuild.generated.core import tables

        kind = tables.KINDS[kind_name]
        found = _bare[kind_name] = frozenset(
            v for v, e in kind.enumerants.items() if not e.parameters
        )
    return found


def enum_classes(kind_name: str) -> frozenset[type]:
    """The classes a words path takes for an operand of the core enum kind ``kind_name``:
    ``int`` and the kind's own enum class (a bool, or another kind's member, takes the
    general path)."""
    from spvbuild.generated.core import enums

    return frozenset({int, getattr(enums, kind_name)})


def parameter_bits(kind_name: str) -> int:
    """The bits of a core BitEnum kind whose enumerants take parameters (or-ed together)."""
    from spvbuild.generated.core import tables

    bits = 0
    for value, enumerant in tables.KINDS[kind_name].enumerants.items():
        if enumerant.parameters:
            bits |= value
    return bits


# How enumerant_words checks one parameter: a 32-bit literal, an id, a string, a bare
# enumerant of a ValueEnum kind (with that kind's classes and bare values).
_LITERAL, _ID, _STRING, _BARE = range(4)
_Step = tuple[str, int, frozenset[type], frozenset[int]]
_Plan = tuple[int, tuple[_Step, ...]]
# Per kind name: per class of a value given for it, its plan (None: no words path).
_enumerant_plans: dict[str, dict[type, _Plan | None]] = {}
_PLANS_KEPT = 512  # classes per kind (a user's own classes make no plan beyond it)


def _make_plan(cls: type, kind_name: str) -> _Plan | None:
    """How to write an enumerant-parameter class's words for ``kind_name`` (None: only
    the general encoder can, or must say what is wrong)."""
    from spvbuild.generated.core import tables

    enumerant = getattr(cls, "enumerant", None)
    kind = tables.KINDS.get(kind_name)
    if kind is None or not isinstance(enumerant, int) or type(enumerant).__name__ != kind_name:
        return None
    info = kind.enumerants.get(int(enumerant))
    fields = getattr(cls, "fields", ())
    if info is None or len(fields) != len(info.parameters):
        return None
    steps: list[_Step] = []
    nothing = frozenset[int]()
    for name, op in zip(fields, info.parameters, strict=True):
        found = tables.KINDS.get(op.kind)
        category = found.category if found is not None else ""
        if op.quantifier:
            return None
        if category == "Id":
            steps.append((name, _ID, frozenset(), nothing))
        elif op.kind == "LiteralInteger":
            steps.append((name, _LITERAL, frozenset(), nothing))
        elif op.kind == "LiteralString":
            steps.append((name, _STRING, frozenset(), nothing))
        elif category == "ValueEnum":
            steps.append((name, _BARE, enum_classes(op.kind), bare_values(op.kind)))
        else:
            return None
    return (int(enumerant), tuple(steps))


def enumerant_words(value: object, kind_name: str, bound: int) -> list[int] | None:
    """The words of a core ValueEnum operand of kind ``kind_name`` whose enumerants may take
    parameters: a bare enumerant (or int) of a value without parameters, or a parameter
    object whose parameters are ids below ``bound``, 32-bit literals, ASCII strings or
    bare enumerants.  None for anything else: the general encoder decides (and names
    what is wrong)."""
    cls = value.__class__
    plans = _enumerant_plans.get(kind_name)
    if plans is None:
        plans = _enumerant_plans[kind_name] = {}
    if cls in plans:
        plan = plans[cls]
    else:
        plan = _make_plan(cls, kind_name)
        if len(plans) < _PLANS_KEPT:
            plans[cls] = plan
    if plan is None:
        if cls is int or cls.__name__ == kind_name:
            return [value] if value in bare_values(kind_name) else None
        return None
    number, steps = plan
    words = [number]
    for name, how, classes, bare in steps:
        item = getattr(value, name)
        if how == _LITERAL:
            if item.__class__ is not int or not 0 <= item < 4294967296:
                return None
        elif how == _ID:
            if item.__class__ not in FAST_IDS or not 0 < item < bound:
                return None
        elif how == _STRING:
            if item.__class__ is not str or not item.isascii() or "\0" in item:
                return None
            words += string_words(item)
            continue
        elif item.__class__ not in classes or item not in bare:
            return None
        words.append(item)
    return words
