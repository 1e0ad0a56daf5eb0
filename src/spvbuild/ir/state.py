"""The state of a module under construction, as one plain record.

:class:`ModuleState` holds everything a :class:`~spvbuild.ir.module.Module` knows: its
options, its sections and functions, where instructions go now, the words kept from each
call, the maps and caches.  It has no behaviour of its own: each job of the module
(routing, the words paths, interfaces, editing, writing, loading) is a set of functions
over this record in its own file, and ``Module`` is the face on top that calls them.
``Module`` *is* a ``ModuleState`` (it derives from it), so the generated fast paths read
``_bound``, ``_fast_block`` and ``_run`` as plain attributes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from spvbuild.errors import SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.ir.body import Block, Function, KeptWords
from spvbuild.spirv.call_site import located
from spvbuild.spirv.emission import PutWords, Run
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

if TYPE_CHECKING:
    from spvbuild.binary.encoder import Encoder
    from spvbuild.ir.targets import TargetProfile
    from spvbuild.spirv.numbers import NumberType

__all__ = ["MODULE_SECTIONS", "CapabilityMode", "ModuleState", "SetCheck", "at_call", "name_of"]

CapabilityMode = Literal["infer", "verify", "off"]
SetCheck = Callable[[int, Any, tuple[Any, ...], Any], None]
"""A check of one extended instruction at the call (``Module.add_set_check``): its number,
result type, operands (without the Set and the number) and result id (None: a new one)."""
MODULE_SECTIONS = tuple(name for name in tables.SECTIONS if name != "functions")
"""The layout sections a module keeps apart from its functions, in layout order."""

class ModuleState:
    """Everything a module under construction holds (see the module docstring)."""

    # Cold state lives on the class until a module needs its own value: an instance keeps
    # few attributes, as CPython shares the keys of at most 30 among a class's instances
    # (beyond them every attribute read of the generated fast paths is slower).
    _encoder: Encoder | None = None  # the general path's (see literals.encoder)
    _checks: tuple[Callable[[list[Instruction]], None], ...] = ()  # add_check's
    # add_set_check's, by import name (a new dict on each addition, never changed)
    _set_checks: dict[str, SetCheck] = {}
    # The Python call site of each record, by id() of the record (kept alive here), when
    # asked for: every call then takes the general path (_general_only), which records it.
    _sites: dict[int, tuple[Instruction, str]] | None = None
    _general_only = False
    _from_binary = False  # ids below the bound may be a binary's, defined or not
    # The type checks' caches (spvbuild.ir.type_checks): type id → its TypeShape (None: a
    # type the rules do not model), and the signatures of calls found right.
    _type_shapes: dict[int, Any] | None = None
    _type_memo: set[tuple[Any, ...]] | None = None
    # The module's global definitions so far, as one number (note_definition: equal
    # numbers, equal definitions of equal ids); None: unknown (an edit changed them).
    _defined_so_far: int | None = 0
    # The current streak of fast-path values of one type (spvbuild.ir.value_types): ids
    # _streak_from up to _streak_end are values of _streak_type not yet in _value_types.
    _streak_type: Any = None
    _streak_from = 0
    _streak_end = 0
    # A target rule's storage image variables, checked when written (target_rules): id →
    # (the rule, the image's format, the call site of the variable).
    _storage_images: dict[int, tuple[Any, str, str]] | None = None

    def __init__(
        self,
        version: tuple[int, int],
        target: TargetProfile | None,
        capability_mode: CapabilityMode,
        merge_aggregates: bool,
        generator: int,
        complete_interfaces: bool,
        call_sites: bool,
        check_types: bool = False,
    ) -> None:
        self.version = version
        """The SPIR-V version written in the header."""
        self.target = target
        """The target profile (``target_env``), or None."""
        self.capability_mode: CapabilityMode = capability_mode
        self.merge_aggregates = merge_aggregates
        self.generator = generator
        self.complete_interfaces = complete_interfaces
        self.sections: dict[str, list[Instruction]] = {name: [] for name in MODULE_SECTIONS}
        """The module's sections before its functions, by name, each in call order."""
        self.functions: list[Function] = []
        """The module's functions, in call order."""
        self._bound = 1  # one more than the largest id handed out
        self._ext_imports: dict[str, Id] = {}  # import string → its OpExtInstImport's id
        self._function: Function | None = None  # the function instructions go to
        self._block: Block | None = None  # the block instructions go to
        self._fast_block: Block | None = None  # the block the fast path may append to
        self._run: Run | None = None  # its current run of words
        self._put_words: PutWords | None = None  # where generated words paths hand words
        self._interned: dict[Any, Id | None] = {}  # dedup key → the id of its instruction
        self._blocks_by_label: dict[int, Block] = {}
        self._definitions: dict[int, Instruction] = {}  # result id → its record
        self._call_used: dict[int, str] = {}  # the ids the call being encoded uses
        # Type id → (its definition, the NumberType it declares): see literals.type_widths.
        self._number_types: dict[int, tuple[Instruction, NumberType | None]] = {}
        # The words kept from each record's call, by id() of the record (see KeptWords).
        self._kept: dict[int, KeptWords] = {}
        # The ids of the global OpVariables an entry point's interface lists (Input and
        # Output ones before SPIR-V 1.4, all from 1.4).
        self._listed: set[int] = set()
        # Some record may give a rule work (see routing.may_trigger): set at the call.
        self._rules_work = False
        self._pending_ids: set[int] = set()  # ids from new_id() (or removed) that nothing defines
        self._noting = True  # new functions note their uses (see routing.note)
        # Each value's type (result id → result type id), for the type checks at the call
        # (None: no type checks, the default); each type's TYPE_* bits, for the fast paths.
        self._value_types: dict[int, TypeId] | None = {} if check_types else None
        self._type_bits: dict[int, int] = {}
        if call_sites:
            self._sites = {}
            self._general_only = True


DEFINITION_CHAINS: dict[tuple[Any, ...], int] = {}
"""(the definitions before, one more definition) → the number of the definitions so far,
shared by every module: two modules at one number have defined the same ids alike.  A
link is ``(before, *definition)``; its length and items say the definition exactly (the
words path of a call looks its links up inline, see ``words_paths.put``)."""


def note_definition(state: ModuleState, definition: tuple[Any, ...]) -> None:
    """Count one more global definition (``definition``: a tuple of its words, or of a
    hashable record of it) into ``state._defined_so_far`` (kept only while the type checks
    are on: their signatures of calls found right are shared by modules that defined
    alike)."""
    before = state._defined_so_far
    if before is None:
        return
    link = (before, *definition)
    after = DEFINITION_CHAINS.get(link)
    state._defined_so_far = after if after is not None else new_link(link)


def new_link(link: tuple[Any, ...]) -> int | None:
    """The number of the definitions so far for a link not seen before (None: too many
    links kept; the module's definitions are then not numbered any more)."""
    if len(DEFINITION_CHAINS) >= 1 << 16:  # bounded: the definitions come from users
        return None
    after = DEFINITION_CHAINS[link] = len(DEFINITION_CHAINS) + 1
    return after


def name_of(opcode: int) -> str:
    """An instruction's grammar name (for messages)."""
    info = tables.INSTRUCTIONS.get(opcode)
    return info.name if info is not None else f"opcode {opcode}"


def at_call(exc: SpvbuildError) -> SpvbuildError:
    """The same error with the user's call site added to its message (once)."""
    if getattr(exc, "located", False):
        return exc
    again = type(exc)(located(str(exc)))
    again.located = True  # type: ignore[attr-defined]
    return again
