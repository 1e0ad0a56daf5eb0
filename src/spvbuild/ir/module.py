"""The module builder: typed calls in any order in, a valid module out.

:class:`Module` inherits one typed method per instruction from the generated classes and
takes care of what the SPIR-V rules demand but a frontend should not have to:

* ids (auto, or reserved ahead with :meth:`new_id` for forward references);
* the logical layout, whatever the call order (sections come from the grammar tables;
  a Function-storage OpVariable goes to the start of its function's entry block);
* hash-consing of the instructions the grammar marks as deduplicated (types, constants,
  OpString, imports, decorations, ...; structs and arrays only with
  ``merge_aggregates=True``);
* capabilities and extensions inferred from the grammar (any-of sets, implied
  capabilities, the module version deciding whether an extension is needed, type-driven
  capabilities such as Int64), or only verified, or left alone;
* extension rules kept as grammar data (NoSignedWrap only on the instructions that may
  carry it) and block structure (no instruction outside a block, one terminator);
* serialization to words, bytes (either endianness) and files.

Everything here walks the generated tables; there is no code per instruction.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, Self, TypeVar

from spvbuild.binary.encoder import GENERATOR, Encoder, header_words
from spvbuild.errors import ArgumentError, BuildError, SpvbuildError, ValidationError
from spvbuild.generated.core import tables
from spvbuild.generated.core.builder import FAST_PATH_FIRST_WORDS, CoreInstructions
from spvbuild.generated.core.enums import Capability, FunctionControl, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_BRANCH,
    OP_BRANCH_CONDITIONAL,
    OP_CAPABILITY,
    OP_CONSTANT_FUNCTION_POINTER_INTEL,
    OP_DECORATE,
    OP_DECORATE_ID,
    OP_DECORATE_STRING,
    OP_EXT_INST,
    OP_EXT_INST_IMPORT,
    OP_EXTENSION,
    OP_FUNCTION,
    OP_FUNCTION_CALL,
    OP_FUNCTION_END,
    OP_FUNCTION_PARAMETER,
    OP_LABEL,
    OP_LINE,
    OP_LOOP_MERGE,
    OP_NAME,
    OP_NO_LINE,
    OP_PHI,
    OP_SELECTION_MERGE,
    OP_SWITCH,
    OP_TYPE_ARRAY,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
    OP_TYPE_RUNTIME_ARRAY,
    OP_TYPE_STRUCT,
    OP_VARIABLE,
)
from spvbuild.generated.extinst import ExtInstSets, set_module
from spvbuild.ir.requirements import (
    NEEDS_BY_KEY,
    Requirements,
    ext_single_ids,
    instruction_needs,
    one_word,
    walked_needs,
    with_result_type_needs,
)
from spvbuild.ir.rules import TRIGGERS as _RULE_TRIGGERS
from spvbuild.ir.rules import check_rules
from spvbuild.ir.section_order import laid_out, layout_engine
from spvbuild.ir.targets import CheckedFirsts, TargetProfile, target_profile
from spvbuild.spirv.arguments import shown
from spvbuild.spirv.call_site import caller_location, located
from spvbuild.spirv.emission import PutWords, Run
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.numbers import NumberType, declared_number_type
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.strings import string_words
from spvbuild.spirv.word_checks import FAST_IDS, ids_below

CapabilityMode = Literal["infer", "verify", "off"]
_AnyId = TypeVar("_AnyId", bound=Id | TypeId)

GENERATOR_WORD = GENERATOR  # the one generator word (spvbuild.binary.encoder.GENERATOR)

EXT_INST_OPCODES = tables.EXT_INST_OPCODES  # OpExtInst, OpExtInstWithForwardRefsKHR
OP_LINE_OPCODES = {OP_LINE, OP_NO_LINE}
# What must come right after a merge instruction (OpLine/OpNoLine may stand between).
MERGE_FOLLOWERS = {
    OP_SELECTION_MERGE: {OP_BRANCH_CONDITIONAL, OP_SWITCH},
    OP_LOOP_MERGE: {OP_BRANCH, OP_BRANCH_CONDITIONAL},
}
FUNCTION_STORAGE = int(StorageClass.Function)
# The storage classes of the globals an entry point's interface lists before SPIR-V 1.4.
_INTERFACE_CLASSES = frozenset({int(StorageClass.Input), int(StorageClass.Output)})
KNOWN_VERSIONS = tuple((1, minor) for minor in range(7))
_MODULE_SECTIONS = tuple(name for name in tables.SECTIONS if name != "functions")
_KNOWN_VERSION_SET = frozenset(KNOWN_VERSIONS)


_ID_TYPES = FAST_IDS
_new_record = tuple.__new__  # Instruction._make's way: every field given, in order
_INSTRUCTIONS = tables.INSTRUCTIONS
_RESULT_TYPE_CAPABILITIES = tables.RESULT_TYPE_CAPABILITIES


def _name(opcode: int) -> str:
    """An instruction's grammar name (for messages)."""
    info = _INSTRUCTIONS.get(opcode)
    return info.name if info is not None else f"opcode {opcode}"


_DEDUPLICATED = tables.DEDUPLICATED
_MISSING: Any = object()  # no entry (an entry may be None)


_FLOAT32, _FLOAT32_PACK = struct.Struct("<I"), struct.Struct("<f")
_FLOAT64, _FLOAT64_PACK = struct.Struct("<II"), struct.Struct("<d")


def _at_call(exc: SpvbuildError) -> SpvbuildError:
    """The same error with the user's call site added to its message (once)."""
    if getattr(exc, "located", False):
        return exc
    again = type(exc)(located(str(exc)))
    again.located = True  # type: ignore[attr-defined]
    return again


def _capability(value: int) -> Capability | RawWords:
    """A Capability operand: the enumerant, or the raw word of one the grammar lacks."""
    try:
        return Capability(value)
    except ValueError:
        return RawWords((value,))


def _plain_id(value: Any) -> int:
    """An operand that should be an id, as an int (0 when it is not one)."""
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else 0


BlockItem = Instruction | Run


@dataclass
class Block:
    """One basic block: its label and instructions (the terminator last).

    ``items`` holds instruction records and :class:`Run` s of words made by the fast
    path; :attr:`instructions` gives them all as records.  ``merge`` is the opcode of a
    merge instruction just added, which only its branch may follow (None otherwise).
    """

    label: Id
    items: list[BlockItem] = field(default_factory=list)
    terminated: bool = False
    merge: int | None = None

    @property
    def instructions(self) -> list[Instruction]:
        """Every instruction of the block in order, runs of words decoded (a new list)."""
        out: list[Instruction] = []
        for item in self.items:
            if isinstance(item, Run):
                out.extend(item.instructions())
            else:
                out.append(item)
        return out


@dataclass
class Function:
    """One function: OpFunction, its parameters, its blocks and its local variables."""

    header: Instruction
    parameters: list[Instruction] = field(default_factory=list)
    variables: list[Instruction] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    ended: bool = False
    # For entry-point interfaces, noted as instructions are added (see Module._note): the
    # global variables and reserved ids its records use, the ids its calls use (callees
    # among them), and whether every record was noted (else serialization walks them).
    uses: set[int] = field(default_factory=set)
    callees: set[int] = field(default_factory=set)
    noted: bool = True
    runs: list[Run] = field(default_factory=list)  # its blocks' runs of words, when noted

    @property
    def id(self) -> Id:
        """The function's result id."""
        assert self.header.result_id is not None
        return Id(self.header.result_id)

    def instructions(self) -> Iterable[Instruction]:
        """The function's instructions in module order (locals first in the entry block)."""
        for item in self.pieces():
            if isinstance(item, Run):
                yield from item.instructions()
            else:
                yield item

    def pieces(self) -> list[BlockItem]:
        """:meth:`instructions` with runs of words left as they are (a new list)."""
        out: list[BlockItem] = [self.header, *self.parameters]
        for index, block in enumerate(self.blocks):
            out.append(_new_record(Instruction, (OP_LABEL, None, block.label, (), None)))
            if index == 0:
                out += self.variables
            out += block.items
        out.append(_FUNCTION_END_RECORD)
        return out


@dataclass(frozen=True)
class FunctionHandle:
    """What :meth:`Module.define_function` returns: the function, its parameters, its entry."""

    id: Id
    type: TypeId
    parameters: tuple[Id, ...]
    entry: Id


class Module(CoreInstructions, ExtInstSets):
    """A SPIR-V module under construction.

    ``version`` is the SPIR-V version written in the header (it decides which features
    need an extension); ``capabilities`` is ``"infer"`` (add what is needed),
    ``"verify"`` (only check what was declared with :meth:`capability` /
    :meth:`extension`) or ``"off"``; ``merge_aggregates`` also merges identical structs
    and arrays (off by default: their layout decorations usually differ);
    ``complete_interfaces`` adds to each OpEntryPoint the global variables its call tree
    uses that the interface must list (Input/Output ones before SPIR-V 1.4, all from 1.4);
    ``call_sites`` makes the module remember the Python ``file:line`` of the call that made
    each instruction, for :meth:`validate` (every call then takes the general path: slower).

    ``target_env`` (spirv-val's ``--target-env`` names: ``"vulkan1.1"``, ``"opencl2.2"``,
    ``"spv1.4"``, ...) builds for that environment (:mod:`spvbuild.ir.targets`): the
    version defaults to the one the environment writes (a later one is an ArgumentError),
    inference chooses only capabilities and extensions the environment allows, and a call
    that needs one it does not allow is a BuildError at that call, e.g. ``Int64Atomics is
    not allowed by vulkan1.0: needed by OpAtomicIAdd on a 64-bit integer (at
    shader.py:41)``.  The check runs on every path of a call: the generated words paths
    check what their needs key lists (once per key and version), the runs of id-only
    instructions each new opcode (:class:`~spvbuild.ir.targets.CheckedFirsts`), the
    general path the instruction's walk.  Without ``target_env`` the version defaults to
    (1, 3).
    """

    def __init__(
        self,
        version: tuple[int, int] | None = None,
        *,
        capabilities: CapabilityMode = "infer",
        merge_aggregates: bool = False,
        generator: int = GENERATOR_WORD,
        complete_interfaces: bool = True,
        call_sites: bool = False,
        target_env: str | None = None,
    ) -> None:
        self._bound = 1
        self._ext_imports: dict[str, Id] = {}
        target = None
        if target_env is not None:
            try:
                target = target_profile(target_env)
            except ArgumentError as exc:
                raise ArgumentError(located(f"Module: {exc}")) from None
            if version is None:
                version = target.version
            elif version in _KNOWN_VERSION_SET and version > target.version:
                raise ArgumentError(
                    located(
                        f"Module: version {shown(version)} is later than {target_env} accepts "
                        f"(SPIR-V {target.version[0]}.{target.version[1]} at most)"
                    )
                )
        elif version is None:
            version = (1, 3)
        if capabilities not in ("infer", "verify", "off"):
            raise ArgumentError(
                located(
                    f"Module: capabilities must be 'infer', 'verify' or 'off', not "
                    f"{shown(capabilities)}"
                )
            )
        if not (
            version.__class__ is tuple
            and len(version) == 2
            and version[0].__class__ is int  # not True for 1
            and version[1].__class__ is int
            and version in _KNOWN_VERSION_SET
        ):
            raise ArgumentError(
                located(
                    f"Module: version must be a tuple (1, minor) of a SPIR-V version from "
                    f"(1, 0) to (1, 6), not {shown(version)}"
                )
            )
        if (
            isinstance(generator, bool)
            or not isinstance(generator, int)
            or not (0 <= generator < 2**32)
        ):
            raise ArgumentError(
                located(
                    f"Module: generator must be the header's 32-bit generator word, not "
                    f"{shown(generator)}"
                )
            )
        self.version = version
        self.target: TargetProfile | None = target
        """The target profile (``target_env``), or None."""
        self.capability_mode: CapabilityMode = capabilities
        self.merge_aggregates = merge_aggregates
        self.generator = generator
        self.complete_interfaces = complete_interfaces
        self.sections: dict[str, list[Instruction]] = {name: [] for name in _MODULE_SECTIONS}
        self.functions: list[Function] = []
        self._function: Function | None = None
        self._block: Block | None = None
        self._interned: dict[Any, Id | None] = {}
        self._blocks_by_label: dict[int, Block] = {}
        self._definitions: dict[int, Instruction] = {}
        self._checks: list[Callable[[list[Instruction]], None]] = []
        self._call_used: dict[int, str] = {}  # the ids the call being encoded uses
        # A record's words, encoded at its call (by id() of the record, which it keeps
        # alive), with the ids they use: serialization joins them (see _serialize).
        # And what the record needs, listed at its call (None: found when written).
        self._words: dict[
            int,
            tuple[
                Instruction,
                list[int],
                dict[int, str] | None,
                tuple[tuple[Any, str], ...] | None,
            ],
        ] = {}
        self._fast_block: Block | None = None  # the block the fast path may append to
        self._run: Run | None = None  # its current run of words
        # The ids of the global OpVariables an entry point's interface lists (Input and
        # Output ones before SPIR-V 1.4, all from 1.4).
        self._listed: set[int] = set()
        # Some record may give a rule work (see _may_trigger): set at the call.
        self._rules_work = False
        self._pending_ids: set[int] = set()  # ids from new_id() (or removed) that nothing defines
        self._from_binary = False  # ids below the bound may be a binary's, defined or not
        self._put_words: PutWords | None = self._put  # generated methods hand their words here
        self._noting = True  # new functions note their uses (see _note)
        # The Python call site of each record, by id() of the record (kept alive here), when
        # asked for: every call then takes the general path, which records it.
        self._sites: dict[int, tuple[Instruction, str]] | None = None
        if call_sites:
            self._sites = {}
        # Every call through the general path, which records its call site.
        self._general_only = call_sites
        if self._general_only:
            self._put_words = None

    @cached_property
    def _encoder(self) -> Encoder:
        """The general path's encoder (made on first use): literal widths from the module's
        types, the ids each call uses into ``_call_used``."""
        return Encoder(self._type_widths, self._call_used)

    @classmethod
    def from_binary(
        cls,
        data: bytes | bytearray | memoryview | Sequence[int],
        *,
        capabilities: CapabilityMode = "infer",
    ) -> Module:
        """Read a SPIR-V binary into a Module that can keep being edited.

        Every instruction goes through the same routing as a builder call (sections,
        functions, blocks) and the deduplicated ones are registered, so later calls such as
        ``type_float(32)`` return the ids the binary already has.  Writing the module lays
        it out canonically; for byte-exact round trips use :func:`spvbuild.binary.reader.read`.
        """
        from spvbuild.binary.reader import read, words_of

        parsed = read(data)
        words, _ = words_of(data, "from_binary")
        module = cls(parsed.version, capabilities=capabilities, generator=parsed.generator)
        module._bound = parsed.bound
        module._from_binary = True
        # Its ids below the bound may be undefined: every call is encoded with its used ids.
        module._put_words = None
        module._noting = False  # its functions' uses are found when written
        # Instructions of the fast path's shapes in an open block are copied into runs as
        # the binary has them, a span of consecutive ones at a time; the others are records.
        fast = FAST_PATH_FIRST_WORDS
        offset = 5
        span = -1  # where the current span of fast-path instructions starts
        run: Run | None = None
        for inst in parsed.instructions:
            first = words[offset]
            if first in fast and (run is not None or module._fast_block is not None):
                if run is None:
                    block = module._fast_block
                    assert block is not None
                    run = module._run or module._new_run(block)
                    span = offset
                run.firsts[first] = None
            else:
                if run is not None:
                    run.words.extend(words[span:offset])
                    run = None
                module._record(inst)
                if inst.opcode == OP_EXT_INST_IMPORT and inst.result_id is not None:
                    module._ext_imports[str(inst.operands[0])] = Id(inst.result_id)
            offset += first >> 16
        if run is not None:
            run.words.extend(words[span:offset])
        module._reintern()
        module._noting = True
        return module

    # -- one instruction from a builder call ---------------------------------------------
    def _value(
        self,
        opcode: int,
        result_type: TypeId | None,
        operands: tuple[Any, ...],
        result_id: Id | None = None,
    ) -> Id:
        return Id(self._emit(opcode, result_type, operands, result_id, True, None))

    def _type(
        self, opcode: int, operands: tuple[Any, ...], result_id: TypeId | None = None
    ) -> TypeId:
        return TypeId(self._emit(opcode, None, operands, result_id, True, None))

    def _void(self, opcode: int, operands: tuple[Any, ...]) -> Self:
        self._emit(opcode, None, operands, None, False, None)
        return self

    def _ext_value(
        self,
        import_name: str,
        number: int,
        result_type: TypeId,
        operands: Sequence[Any],
        result_id: Id | None = None,
    ) -> Id:
        put = self._put_words
        if put is not None and result_id is None:
            # An extended instruction of single ids only: its words here, like a generated
            # words path (the layout comes from the set's table).
            count = ext_single_ids(import_name, number)
            bound = self._bound
            if (
                count == len(operands)
                and result_type.__class__ in FAST_IDS
                and 0 < result_type < bound
                and ids_below(operands, bound)
            ):
                values = (self._ext_set_id(import_name), number, *operands)
                words = [((5 + count) << 16) | OP_EXT_INST, result_type, *values]
                key = (OP_EXT_INST, import_name, number)  # what decides its needs
                return Id(self._put(OP_EXT_INST, result_type, values, words, 2, key, import_name))
        set_id = self._ext_imports.get(import_name)
        if set_id is None:
            # Check the instruction before its OpExtInstImport is made: a failed call
            # leaves the module as it was.
            trial = Instruction(
                OP_EXT_INST,
                result_type,
                self._bound + 1,
                (Id(self._bound), number, *operands),
                import_name,
            )
            try:
                self._encoder.instruction(trial)
            except SpvbuildError as exc:
                raise _at_call(exc) from None
            set_id = self._ext_set_id(import_name)
        return Id(
            self._emit(
                OP_EXT_INST, result_type, (set_id, number, *operands), result_id, True, import_name
            )
        )

    def _import_set(self, import_name: str) -> Id:
        """Make ``OpExtInstImport "import_name"`` through its generated method (its words
        path)."""
        return self.ext_inst_import(import_name)

    def _emit(
        self,
        opcode: int,
        result_type: TypeId | None,
        operands: tuple[Any, ...],
        result_id: Id | TypeId | None,
        has_result: bool,
        ext_set: str | None,
    ) -> int:
        """Check, encode, deduplicate and record one instruction of a builder call; its
        result id.

        The instruction is encoded here, once: a wrong operand is an error of this call,
        with the user's call site, and a failed call changes nothing; its words are kept
        (:attr:`_words`) for serialization, which joins them.  Deduplicated instructions
        (types, constants, ...) are keyed by their words without the result id, so equal
        bits are one id whatever Python values gave them (1 and 1.0, an IntEnum and its
        int).
        """
        bound = self._bound
        try:
            rid: int | None = None
            if has_result:
                rid = bound if result_id is None else self._defined_once(opcode, result_id)
            inst = Instruction(opcode, result_type, rid, operands, ext_set)
            used = self._call_used
            used.clear()
            words = self._encoder.instruction(inst)
            key = None
            if result_id is None and (
                opcode in _DEDUPLICATED or (self.merge_aggregates and opcode in _AGGREGATES)
            ):
                key = self._words_key(inst, words)
                found = self._interned.get(key, _MISSING)
                if found is not _MISSING:
                    return 0 if found is None else int(found)
            needs = None
            if self.target is not None or opcode in _RESULT_TYPE_CAPABILITIES:
                needs = self._needs_at_call(inst)
            if has_result and result_id is None:
                self._bound = bound + 1
            self._record(inst)
            if result_id is not None:
                self._pending_ids.discard(int(result_id))
            if self._sites is not None:
                self._sites[id(inst)] = (inst, caller_location(2) or "?")
        except SpvbuildError as exc:
            self._bound = bound
            raise _at_call(exc) from None
        if opcode != OP_SWITCH and (result_type is None or result_type in self._definitions):
            # Literal widths come from a type defined already, so these words are final.
            self._words[id(inst)] = (inst, words, dict(used) if used else None, needs)
        if key is not None:
            self._interned[key] = Id(rid) if rid is not None else None
        return rid or 0

    def _check_target(
        self,
        inst: Instruction,
        needs: tuple[tuple[Any, str], ...] | None,
        needs_key: tuple[Any, ...] | None,
    ) -> None:
        """Refuse (BuildError) what the target profile does not allow in ``inst``, whose
        needs a words path listed (None: found here by walking it).  A needs key allowed
        with no extension declared is allowed for good (the profile keeps it, per version);
        the instructions that declare (OpCapability, OpExtension) and those with result-type
        needs are checked each time."""
        target = self.target
        assert target is not None
        opcode = inst.opcode
        if needs is None or opcode in _RESULT_TYPE_CAPABILITIES:
            needs = with_result_type_needs(inst, walked_needs(inst), self._definitions)
            assert needs is not None
        lasting = (
            needs_key is not None
            and opcode not in (OP_CAPABILITY, OP_EXTENSION)
            and opcode not in _RESULT_TYPE_CAPABILITIES
        )
        if lasting and target.allows_needs(inst, needs, self.version, needs_key):
            return
        declared = [str(i.operands[0]) for i in self.sections["extensions"]]
        if opcode == OP_EXTENSION:
            declared.append(str(inst.operands[0]))
        target.check_instruction(inst, needs, self.version, declared)

    def _needs_at_call(self, inst: Instruction) -> tuple[tuple[Any, str], ...]:
        """What ``inst`` needs (its walk, and its result type's needs), checked against the
        target profile when there is one: a BuildError names what it does not allow."""
        needs = with_result_type_needs(inst, walked_needs(inst), self._definitions)
        assert needs is not None
        target = self.target
        if target is not None:
            declared = [str(i.operands[0]) for i in self.sections["extensions"]]
            if inst.opcode == OP_EXTENSION:
                declared.append(str(inst.operands[0]))
            target.check_instruction(inst, needs, self.version, declared)
        return needs

    def _put(
        self,
        opcode: int,
        result_type: TypeId | None,
        operands: tuple[Any, ...],
        words: list[int],
        slot: int,
        needs_key: tuple[Any, ...] | None = None,
        ext_set: str | None = None,
    ) -> int:
        """Take the words a generated method made at the call; the result id (0: none).

        The method checked every operand (ids handed out already, below the bound;
        32-bit literals; strings; enumerants without parameters), so what is left is
        deduplication, whose key is ``words`` as given (without the result id), and
        routing.  ``words[0]`` counts the result id that goes in at ``slot`` (0: the
        instruction has none); the method sent a longer instruction than a word count can
        say down the general path.  The record is kept for routing and inspection, its words
        for serialization, with what it needs when the method gave a ``needs_key`` (the
        operand values that decide it: see :func:`instruction_needs`).
        """
        merged, how, section = _ROUTES.get(opcode, _ROUTED_BY_RECORD)
        key = None
        if merged and (merged == _MERGED or self.merge_aggregates):
            key = tuple(words)
            found = self._interned.get(key, _MISSING)
            if found is not _MISSING:
                return 0 if found is None else int(found)
        rid = None
        if slot:
            rid = self._bound
            words.insert(slot, rid)
            self._bound = rid + 1  # (given back if _record refuses the instruction)
        inst = _new_record(Instruction, (opcode, result_type, rid, operands, ext_set))
        needs = None if needs_key is None else NEEDS_BY_KEY.get(needs_key)
        if needs is None and needs_key is not None:
            needs = instruction_needs(inst, needs_key)
        if opcode in _RESULT_TYPE_CAPABILITIES:
            needs = with_result_type_needs(inst, needs, self._definitions)
        if self.target is not None:
            try:
                self._check_target(inst, needs, needs_key)
            except BuildError as exc:
                if rid is not None:
                    self._bound = rid
                raise _at_call(exc) from None
        if how <= _DECORATION:
            # What _record does with it, without its other cases.
            if rid is not None:
                self._definitions[rid] = inst
            self.sections[section].append(inst)
            if how and (
                how == _DECORATION
                and words[2] in _TRIGGER_DECORATIONS
                or (how == _GLOBAL_WATCHED and _may_trigger(inst))
            ):
                self._rules_work = True  # (a decoration's word, see _may_trigger)
            self._words[id(inst)] = (inst, words, None, needs)
            if key is not None:
                self._interned[key] = None if rid is None else Id(rid)
            return rid or 0
        block = self._fast_block
        if block is not None and (
            how <= _BLOCK_END
            or (
                how == _EXT_INST
                and ext_set is not None
                and _set_section(ext_set, operands[1]) == "functions"
            )
        ):
            # What _record does with it in an open block (no merge waiting for its
            # branch), without its other cases.
            if rid is not None:
                self._definitions[rid] = inst
            block.items.append(inst)
            if (
                opcode == OP_FUNCTION_CALL
                or (self._listed and not self._listed.isdisjoint(words))
                or (self._pending_ids and not self._pending_ids.isdisjoint(words))
            ):
                self._note(inst)
            self._run = None  # a new run of words starts after a record
            if how == _BLOCK_END:
                block.terminated = True
                self._fast_block = None
        elif (
            how == _FUNCTION
            and rid is not None
            and (self._function is None or self._function.ended)
        ):
            self._definitions[rid] = inst
            self._function = Function(inst, noted=self._noting)
            self._enter(None)
            self.functions.append(self._function)
        elif (
            how == _FUNCTION_END
            and (function := self._function) is not None
            and not function.ended
            and (self._block is None or self._block.terminated)
        ):
            function.ended = True
            self._function = None
            self._enter(None)
        elif how == _GLOBAL_VARIABLE and rid is not None and operands[0] != FUNCTION_STORAGE:
            self._definitions[rid] = inst
            self.sections["types_globals"].append(inst)
            self._add_global(rid, int(operands[0]))
        elif (
            how == _LABEL
            and rid is not None
            and (function := self._function) is not None
            and not function.ended
            and (self._block is None or self._block.terminated)
        ):
            self._definitions[rid] = inst
            new_block = Block(Id(rid))
            function.blocks.append(new_block)
            self._blocks_by_label[rid] = new_block
            self._enter(new_block)
        else:
            try:
                self._record(inst)
            except SpvbuildError as exc:
                if rid is not None:
                    self._bound = rid
                raise _at_call(exc) from None
        self._words[id(inst)] = (inst, words, None, needs)
        if key is not None:
            self._interned[key] = None if rid is None else Id(rid)
        return rid or 0

    @staticmethod
    def _words_key(inst: Instruction, words: list[int]) -> tuple[int, ...]:
        """The dedup key of an instruction: its words without its result id."""
        if inst.result_id is None:
            return tuple(words)
        slot = 2 if inst.result_type is not None else 1
        return (*words[:slot], *words[slot + 1 :])

    def _reintern(self) -> None:
        """Rebuild the dedup map from the stored instructions (after from_binary, rewrite)."""
        interned: dict[Any, Id | None] = {}
        for name in (
            "ext_inst_imports",
            "memory_model",
            "debug_strings",
            "debug_names",
            "annotations",
            "types_globals",
            "execution_modes",
            "entry_points",
            "debug_module_processed",
        ):
            for inst in self.sections.get(name, ()):
                opcode = inst.opcode
                if opcode not in tables.DEDUPLICATED and not (
                    self.merge_aggregates and opcode in _AGGREGATES
                ):
                    continue
                try:
                    key = self._words_key(inst, self._encoder.instruction(inst))
                except SpvbuildError:
                    continue
                rid = inst.result_id
                interned.setdefault(key, None if rid is None else Id(rid))
        self._interned = interned

    def _number_words(self, type_id: int, value: object) -> list[int] | None:
        """The words of OpConstant's value in the format of the numeric type defined as
        ``type_id`` (its :class:`~spvbuild.spirv.numbers.NumberType`'s codec); None when
        the type is not numeric or the value does not fit (the general path encodes it,
        or says what is wrong)."""
        number = self._type_widths(type_id)
        if number is None:
            return None
        try:
            return number.words(value)
        except SpvbuildError:
            return None

    def _type_widths(self, type_or_value: int) -> NumberType | None:
        """The literal format of a numeric type (of a value's type, if negative)."""
        if type_or_value < 0:
            value = self.definition(-type_or_value)
            if value is None or value.result_type is None:
                return None
            type_or_value = int(value.result_type)
        found = self._definitions.get(type_or_value)
        if found is None or not found.operands or isinstance(found.operands[0], RawWords):
            return None
        if found.opcode != OP_TYPE_INT and found.opcode != OP_TYPE_FLOAT:
            return None
        return declared_number_type(found.opcode, found.operands)

    def _defined_once(self, opcode: int, result_id: Id | TypeId) -> int:
        """A ``result_id`` given to a call: reserved earlier and not yet defined."""
        info = tables.INSTRUCTIONS.get(opcode)
        where = f"{info.name if info is not None else f'opcode {opcode}'} operand 'result_id'"
        if not isinstance(result_id, Id) or not 0 < result_id < self._bound:
            raise BuildError(
                f"{where}: {shown(result_id)} was not reserved with new_id()/new_type_id()"
            )
        defined = self._definitions.get(int(result_id))
        if defined is not None:
            other = tables.INSTRUCTIONS.get(defined.opcode)
            by = other.name if other is not None else f"opcode {defined.opcode}"
            raise BuildError(
                f"{where}: {result_id!r} is already defined by {by}: an id is defined once"
            )
        return int(result_id)

    # -- routing into sections and blocks ----------------------------------------------------
    def _record(self, instruction: Instruction) -> None:
        """Route one instruction into its section, function or block.

        Every check comes before any change, so an instruction that is refused (outside
        a block, after a terminator, between a merge and its branch, ...) leaves the
        module as it was.
        """
        opcode = instruction.opcode
        if opcode in _RULE_WATCHED and _may_trigger(instruction):
            self._rules_work = True  # (also when the instruction is refused: a rule runs)
        if opcode in EXT_INST_OPCODES and instruction.ext_set is None and instruction.operands:
            # A raw ext_inst(): find the set from its import so it is routed like the others.
            imported = self._definitions.get(_plain_id(instruction.operands[0]))
            if imported is not None and imported.opcode == OP_EXT_INST_IMPORT:
                # Same shape as the typed calls make: (set, number, *operands).
                flat = instruction.operands[:2] + tuple(
                    v
                    for part in instruction.operands[2:]
                    for v in (
                        part
                        if isinstance(part, tuple) and not isinstance(part, RawWords)
                        else (part,)
                    )
                )
                instruction = instruction._replace(ext_set=str(imported.operands[0]), operands=flat)
        info = _INSTRUCTIONS.get(opcode)
        section = info.section if info is not None else "functions"
        function = self._function
        open_function = function is not None and not function.ended
        if opcode in EXT_INST_OPCODES and instruction.ext_set is not None:
            section = _ext_section(instruction)
        elif opcode in OP_LINE_OPCODES and not open_function:
            section = "types_globals"  # debug line information between global declarations
        elif opcode == OP_VARIABLE and instruction.operands[:1] == (FUNCTION_STORAGE,):
            if function is None or function.ended:
                raise BuildError("OpVariable in the Function storage class outside a function")
            self._define(instruction)
            function.variables.append(instruction)
            self._note(instruction)
            return
        if section != "functions":
            self._define(instruction)
            self.sections[section].append(instruction)
            if opcode == OP_VARIABLE and instruction.result_id is not None and instruction.operands:
                self._add_global(int(instruction.result_id), one_word(instruction.operands[0]))
            return
        if opcode == OP_FUNCTION:
            if function is not None and not function.ended:
                raise BuildError(
                    f"OpFunction while function {function.id!r} is still open: "
                    "call function_end() first"
                )
            self._define(instruction)
            self._function = Function(instruction, noted=self._noting)
            self._enter(None)
            self.functions.append(self._function)
            return
        if function is None or function.ended:
            raise BuildError(f"{_name(opcode)} outside a function")
        block = self._block
        if opcode in OP_LINE_OPCODES and block is None and not function.blocks:
            self._define(instruction)
            function.parameters.append(instruction)  # before the first block: kept in place
        elif opcode == OP_FUNCTION_PARAMETER:
            if function.blocks:
                raise BuildError("OpFunctionParameter after the function's first block")
            self._define(instruction)
            function.parameters.append(instruction)
        elif opcode == OP_LABEL:
            if block is not None and not block.terminated:
                raise BuildError(
                    f"block {block.label!r} has no terminator: OpLabel "
                    f"{instruction.result_id!r} cannot start a new block"
                )
            assert instruction.result_id is not None
            self._define(instruction)
            new_block = Block(Id(instruction.result_id))
            function.blocks.append(new_block)
            self._blocks_by_label[int(instruction.result_id)] = new_block
            self._enter(new_block)
        elif opcode == OP_FUNCTION_END:
            if block is not None and not block.terminated:
                raise BuildError(f"OpFunctionEnd: block {block.label!r} has no terminator")
            function.ended = True
            self._function = None
            self._enter(None)
        else:
            if block is None:
                raise BuildError(f"{_name(opcode)} outside a block: call label() first")
            if block.terminated:
                raise BuildError(
                    f"{_name(opcode)} after the terminator of block {block.label!r} "
                    "(a block has exactly one terminator, last)"
                )
            merge = block.merge
            if merge is not None and opcode not in OP_LINE_OPCODES:
                allowed = MERGE_FOLLOWERS[merge]
                if opcode not in allowed:
                    names = " or ".join(sorted(tables.INSTRUCTIONS[o].name for o in allowed))
                    raise BuildError(
                        f"{_name(opcode)} between {tables.INSTRUCTIONS[merge].name} and its branch: "
                        f"the merge instruction must be followed by {names} (compute "
                        "values before the merge instruction)"
                    )
            self._define(instruction)
            block.items.append(instruction)
            self._note(instruction)
            if opcode in MERGE_FOLLOWERS:
                block.merge = opcode
            elif opcode not in OP_LINE_OPCODES:
                block.merge = None
            if opcode in tables.BLOCK_TERMINATORS:
                block.terminated = True
            self._enter(block)

    def _add_global(self, variable: int, storage_class: int) -> None:
        """Remember a global OpVariable if an entry point's interface lists it."""
        if self.version >= (1, 4) or storage_class in _INTERFACE_CLASSES:
            self._listed.add(variable)

    def _note(self, instruction: Instruction) -> None:
        """Note in the open function what ``instruction`` uses that an entry point's
        interface may need: global variables and reserved ids (a global defined later),
        and every id of a call (the callee among them)."""
        function = self._function
        if function is None or not function.noted:
            return
        if instruction.opcode == OP_FUNCTION_CALL:
            function.callees.update(_ids_in(instruction.operands))
        named, pending = self._listed, self._pending_ids
        if named or pending:
            for value in _ids_in(instruction.operands):
                if value in named or value in pending:
                    function.uses.add(value)

    def _enter(self, block: Block | None) -> None:
        """Make ``block`` (or none) the one instructions go to; the fast path may append
        to it while it is open: not terminated, no merge instruction waiting for its
        branch.  A new run of words starts after any record."""
        self._block = block
        self._run = None
        self._fast_block = (
            block
            if block is not None
            and not block.terminated
            and block.merge is None
            and not self._general_only
            else None
        )

    def new_id(self) -> Id:
        """Reserve a fresh id for a forward reference (defined later with ``result_id=``)."""
        rid = super().new_id()
        self._pending_ids.add(int(rid))
        return rid

    def new_type_id(self) -> TypeId:
        """Reserve a fresh id for a type declared later (OpTypeForwardPointer)."""
        rid = super().new_type_id()
        self._pending_ids.add(int(rid))
        return rid

    def _new_run(self, block: Block) -> Run:
        """Start a run of words at the end of ``block`` (of the open function)."""
        run = self._run = Run()
        if self.target is not None:
            run.firsts = CheckedFirsts(self.target, self)
        block.items.append(run)
        if self._function is not None:
            self._function.runs.append(run)
        return run

    def _define(self, instruction: Instruction) -> None:
        """Remember the instruction that defines its result id."""
        if instruction.result_id is not None:
            self._definitions[int(instruction.result_id)] = instruction

    # -- inspecting and editing -------------------------------------------------------------
    def definition(self, result_id: int) -> Instruction | None:
        """The instruction that defines ``result_id`` (None if nothing does yet)."""
        value = int(result_id)
        found = self._definitions.get(value)
        if found is not None:
            return found
        for function in self.functions:
            for block in function.blocks:
                for item in block.items:
                    if isinstance(item, Run) and value in item.result_ids():
                        return next(i for i in item.instructions() if i.result_id == value)
        return None

    def all_instructions(self) -> Iterator[Instruction]:
        """Every stored instruction: module sections, then each function's instructions."""
        for items in self.sections.values():
            yield from items
        for function in self.functions:
            yield function.header
            yield from function.parameters
            yield from function.variables
            for block in function.blocks:
                yield from block.instructions

    def rewrite(self, change: Callable[[Instruction], Instruction | None]) -> set[int]:
        """Apply ``change`` to every stored instruction: return it, a replacement, or None.

        None removes the instruction (an OpFunction, OpLabel or OpFunctionEnd cannot be
        removed this way).  A replacement is checked like a builder call (EncodeError
        before anything changes).  Every cache is rebuilt from what remains, so a later
        call never hands out a removed or changed instruction (deduplication keys come
        from the new words, extended-set imports from the imports left).  Returns the
        result ids removed.
        """
        removed: set[int] = set()
        replaced: dict[int, Instruction] = {}  # id() of a stored instruction → its change

        def decide(items: list[Instruction]) -> None:
            for inst in items:
                new = change(inst)
                if new is not inst and new is not None:
                    try:
                        self._encoder.instruction(new)
                    except SpvbuildError as exc:
                        raise _at_call(exc) from None
                replaced[id(inst)] = new  # type: ignore[assignment]

        def apply(items: list[Instruction]) -> list[Instruction]:
            kept: list[Instruction] = []
            for inst in items:
                new = replaced[id(inst)]
                if new is None:
                    if inst.result_id is not None:
                        removed.add(int(inst.result_id))
                    continue
                if new.result_id is not None:
                    self._definitions[int(new.result_id)] = new
                kept.append(new)
            return kept

        # Runs of words are decoded once, here: the blocks keep records after a rewrite.
        decoded = {id(b): b.instructions for f in self.functions for b in f.blocks}
        everything = [*self.sections.values()]
        for function in self.functions:
            everything += [function.parameters, function.variables]
            everything += [decoded[id(block)] for block in function.blocks]
        for items in everything:
            decide(items)

        for name in self.sections:
            self.sections[name] = apply(self.sections[name])
        for function in self.functions:
            function.parameters = apply(function.parameters)
            function.variables = apply(function.variables)
            for block in function.blocks:
                block.items = list(apply(decoded[id(block)]))
            function.noted = False  # its uses are found again when written
            function.uses.clear()
            function.callees.clear()
            function.runs.clear()
        self._enter(self._block)
        self._rules_work = any(_may_trigger(i) for i in self.all_instructions())
        self._listed = set()
        for v in self.sections["types_globals"]:
            if v.opcode == OP_VARIABLE and v.result_id is not None and v.operands:
                self._add_global(int(v.result_id), one_word(v.operands[0]))
        self._words.clear()  # a type may have changed: every record is encoded again
        for rid in removed:
            self._definitions.pop(rid, None)
        self._pending_ids |= removed
        self._ext_imports = {
            str(inst.operands[0]): Id(inst.result_id)
            for inst in self.sections["ext_inst_imports"]
            if inst.result_id is not None
        }
        self._reintern()
        return removed

    # -- editing --------------------------------------------------------------------------
    def find(
        self,
        *,
        name: str | None = None,
        opcode: int | None = None,
        result_id: int | None = None,
    ) -> list[Instruction]:
        """The stored instructions, in module order, that match every criterion given: the
        debug name (``OpName``) of their result, their opcode, their result id."""
        named: set[int] | None = None
        if name is not None:
            named = {
                int(i.operands[0])
                for i in self.sections["debug_names"]
                if i.opcode == OP_NAME and len(i.operands) > 1 and i.operands[1] == name
            }
        found = []
        for inst in self.all_instructions():
            rid = inst.result_id
            if opcode is not None and inst.opcode != opcode:
                continue
            if result_id is not None and (rid is None or int(rid) != int(result_id)):
                continue
            if named is not None and (rid is None or int(rid) not in named):
                continue
            found.append(inst)
        return found

    def replace_all_uses(
        self,
        old: Id | TypeId,
        new: Id | TypeId,
        where: Callable[[Instruction], bool] | None = None,
    ) -> int:
        """Make every instruction that uses the id ``old`` (every one for which ``where``
        is true, when given) use ``new`` instead; ``old``'s definition stays (remove it with
        :meth:`remove` once dead).  How many operands changed.  Goes through
        :meth:`rewrite`: checked, every cache rebuilt."""
        if not isinstance(old, Id) or not isinstance(new, Id):
            raise _at_call(
                BuildError(f"replace_all_uses: two ids, not {shown(old)} and {shown(new)}")
            )
        if self.definition(new) is None and int(new) not in self._pending_ids:
            raise _at_call(BuildError(f"replace_all_uses: {new!r} is defined by nothing"))
        count = 0

        def swap(value: Any) -> Any:
            nonlocal count
            if isinstance(value, Id):
                if int(value) == int(old):
                    count += 1
                    return new
                return value
            if isinstance(value, tuple | list) and not isinstance(value, RawWords):
                return type(value)(swap(v) for v in value)
            if isinstance(value, EnumerantParameters):
                return type(value)(*(swap(v) for v in value.parameters))
            return value

        def change(inst: Instruction) -> Instruction:
            if where is not None and not where(inst):
                return inst
            operands = tuple(swap(v) for v in inst.operands)
            result_type = inst.result_type
            if result_type is not None and int(result_type) == int(old):
                result_type = TypeId(int(new))
                count_type[0] += 1
            if operands == inst.operands and result_type is inst.result_type:
                return inst
            return inst._replace(operands=operands, result_type=result_type)

        count_type = [0]
        self.rewrite(change)
        return count + count_type[0]

    def remove(self, instruction: Instruction) -> None:
        """Remove ``instruction`` (one :meth:`find` gave, or its result id's); BuildError
        if the module holds no such instruction.  Goes through :meth:`rewrite`."""
        rid = instruction.result_id

        def same(inst: Instruction) -> bool:
            return inst is instruction or (
                rid is not None and inst.result_id is not None and int(inst.result_id) == int(rid)
            )

        if not any(same(i) for i in self.all_instructions()):
            raise _at_call(
                BuildError(f"remove: the module holds no {_name(instruction.opcode)} like this")
            )
        self.rewrite(lambda inst: None if same(inst) else inst)

    @contextmanager
    def inserting(
        self, *, before: Instruction | None = None, after: Instruction | None = None
    ) -> Iterator[Self]:
        """Make the calls in the ``with`` insert their instructions into a function's
        block, just before or after an instruction of it (also before the terminator of
        a block that has ended); then go on where the module was."""
        if (before is None) == (after is None):
            raise _at_call(BuildError("inserting: give one of before= or after="))
        target = before if before is not None else after
        assert target is not None
        rid = target.result_id

        def index_in(items: list[BlockItem]) -> int | None:
            for n, item in enumerate(items):
                if item is target:
                    return n
                if (
                    rid is not None
                    and not isinstance(item, Run)
                    and item.result_id is not None
                    and int(item.result_id) == int(rid)
                ):
                    return n
            return None

        for function in self.functions:
            for block in function.blocks:
                index = index_in(block.items)
                if index is None and rid is not None:
                    runs = [i for i in block.items if isinstance(i, Run)]
                    if not any(int(rid) in run.result_ids() for run in runs):
                        continue
                    # In a run of words: the block's runs become records first.
                    block.items = list(block.instructions)
                    function.runs = [r for r in function.runs if r not in runs]
                    function.noted = False  # its uses are found again when written
                    index = index_in(block.items)
                if index is None:
                    continue
                yield from self._insert_into(function, block, index + (after is not None))
                return
        raise _at_call(BuildError(f"inserting: no function holds this {_name(target.opcode)}"))

    def _insert_into(self, function: Function, block: Block, index: int) -> Iterator[Self]:
        """Route the calls of an ``inserting`` block into ``block`` at ``index``."""
        saved = self._function, self._block, function.ended
        staging = Block(block.label)
        self._function = function
        function.ended = False  # (an ended function takes insertions too)
        self._enter(staging)
        try:
            yield self
        finally:
            function.ended = saved[2]
            self._function = saved[0]
            self._enter(saved[1])
        if staging.terminated or staging.merge is not None:
            raise _at_call(
                BuildError("inserting: a terminator or merge instruction cannot be inserted")
            )
        block.items[index:index] = staging.items

    def add_check(self, check: Callable[[list[Instruction]], None]) -> None:
        """Run ``check`` on the ordered instructions each time the module is serialized."""
        if check not in self._checks:
            self._checks.append(check)

    @property
    def current_function(self) -> Id | None:
        """The id of the function instructions currently go to, if any."""
        return None if self._function is None else self._function.id

    @property
    def block_terminated(self) -> bool:
        """True when the current block already has its terminator."""
        return self._block is not None and self._block.terminated

    # -- conveniences ---------------------------------------------------------------------
    def named(self, target: _AnyId, name: str) -> _AnyId:
        """Emit ``OpName`` for ``target`` and return ``target`` (for use inside expressions)."""
        self.name(target, name)
        return target

    def no_wrap(self, target: _AnyId, *, signed: bool = True, unsigned: bool = False) -> _AnyId:
        """Decorate ``target`` NoSignedWrap and/or NoUnsignedWrap; returns ``target``.

        SPV_KHR_no_integer_wrap_decoration: the extension is added below SPIR-V 1.4 and
        nothing from 1.4 on; the grammar's rule allows it only on OpIAdd, OpISub, OpIMul,
        OpShiftLeftLogical, OpSNegate (signed only) and GLSL.std.450 SAbs / OpenCL.std
        s_abs, checked when the module is serialized.
        """
        from spvbuild.generated.core.enums import Decoration

        if signed:
            self.decorate(target, Decoration.NoSignedWrap)
        if unsigned:
            self.decorate(target, Decoration.NoUnsignedWrap)
        return target

    def define_function(
        self,
        return_type: TypeId,
        parameter_types: Sequence[TypeId] = (),
        control: Any = 0,
        name: str | None = None,
        *,
        result_id: Id | None = None,
    ) -> FunctionHandle:
        """OpTypeFunction + OpFunction + parameters + the entry block's OpLabel.

        ``result_id`` defines a function id reserved earlier with :meth:`new_id` (for calls,
        entry points or debug info that refer to the function before it is defined).
        """
        fn_type = self.type_function(return_type, parameter_types)
        fid = self.function(
            return_type, control or FunctionControl.None_, fn_type, result_id=result_id
        )
        params = tuple([self.function_parameter(t) for t in parameter_types])
        entry = self.label()
        if name is not None:
            self.name(fid, name)
        return FunctionHandle(fid, fn_type, params, entry)

    def insert_at(self, label: Id) -> Self:
        """Continue emitting into the (unterminated) block that ``label`` starts."""
        block = self._blocks_by_label.get(int(label))
        if block is None:
            raise BuildError(f"insert_at: {label!r} does not label a block of this module")
        if block.terminated:
            raise BuildError(f"insert_at: block {label!r} already has its terminator")
        owner = next(f for f in self.functions if block in f.blocks)
        if owner.ended:
            raise BuildError(f"insert_at: the function of block {label!r} has ended")
        self._function = owner
        self._enter(block)
        return self

    @property
    def current_block(self) -> Id | None:
        """The label of the block instructions currently go to, if any."""
        return None if self._block is None else self._block.label

    def add_phi_incoming(self, phi: Id, value: Id, parent: Id) -> None:
        """Add the pair (``value``, ``parent``) to the OpPhi that defines ``phi``, in
        whatever block is current (a loop's phi gets the value of its continue block once
        that block is made).  Checked like a builder call: BuildError if ``phi`` is no
        OpPhi of this module's functions, EncodeError for a value or parent that is no id.
        """
        found = self._definitions.get(int(phi)) if isinstance(phi, int) else None
        if found is None or found.opcode != OP_PHI:
            raise _at_call(BuildError(f"add_phi_incoming: {shown(phi)} is not defined by an OpPhi"))
        pairs = tuple(found.operands[0]) if found.operands else ()
        new = found._replace(operands=((*pairs, (value, parent)),))
        self._call_used.clear()
        try:
            self._encoder.instruction(new)
        except SpvbuildError as exc:
            raise _at_call(exc) from None
        for function in self.functions:
            for block in function.blocks:
                for index, item in enumerate(block.items):
                    if item is found:
                        block.items[index] = new
                        self._definitions[int(phi)] = new
                        self._words.pop(id(found), None)  # encoded again when written
                        function.noted = function.noted and not (
                            (self._listed or self._pending_ids)
                            and not {int(value), int(parent)}.isdisjoint(
                                self._listed | self._pending_ids
                            )
                        )
                        return
        raise _at_call(BuildError(f"add_phi_incoming: the OpPhi of {phi!r} is in no block"))

    # -- capabilities and extensions ------------------------------------------------------
    def ordered_instructions(self) -> list[Instruction]:
        """Every instruction in logical-layout order, capabilities and extensions resolved."""
        head, body = self._layout()
        return head + _decoded(body)

    def _layout(self) -> tuple[list[Instruction], list[BlockItem]]:
        """The OpCapability/OpExtension head and the body in logical-layout order (runs
        of words left as they are)."""
        body = self._finished_body()
        capabilities, extensions = Requirements(self).resolve(body)
        return _head(capabilities, extensions), body

    def _finished_body(self) -> list[BlockItem]:
        """Every function ended, the interfaces completed: the body in layout order."""
        for function in self.functions:
            if not function.ended:
                raise BuildError(f"function {function.id!r} is not ended: call function_end()")
        if self.complete_interfaces:
            self._complete_interfaces()
        return self._body_after_requirements()

    def _complete_interfaces(self) -> None:
        """Append to each OpEntryPoint the global variables its call tree uses (the Input
        and Output ones before SPIR-V 1.4, all from 1.4).

        A function's records noted what they use at their call (:meth:`_note`); its runs
        of words, and every piece of a function that was not noted (read from a binary,
        rewritten), are looked at here.
        """
        wanted = self._listed
        entries = self.sections["entry_points"]
        if not wanted or not entries:
            return  # no global an interface lists, or no entry point
        by_id: dict[int, Function] = {}  # (by result id)
        for each in self.functions:
            by_id[each.header[2] or 0] = each
        uses: dict[int, tuple[set[int], set[int]]] = {}  # function → (globals, callees)
        kept_words = self._words
        for index, entry in enumerate(entries):
            operands = entry.operands
            if len(operands) < 3:
                continue
            made = kept_words.get(id(entry))
            if (made is None or made[0] is not entry) and any(
                isinstance(o, RawWords) for o in operands
            ):
                continue  # kept as read: operands the grammar cannot say (a call's never are)
            reached: set[int] = set()
            entry_function = operands[1]
            todo = [
                entry_function
                if entry_function.__class__ in FAST_IDS
                else _plain_id(entry_function)
            ]
            variables: set[int] = set()
            while todo:
                fid = todo.pop()
                if fid in reached:
                    continue
                reached.add(fid)
                found = uses.get(fid)
                if found is None:
                    function = by_id.get(fid)
                    if function is None:
                        continue
                    found = uses[fid] = self._function_uses(function, wanted, by_id)
                variables |= found[0]
                todo.extend(found[1])
            interface = list(operands[3]) if len(operands) > 3 else []
            missing = sorted(variables.difference(interface))
            if missing:
                new_interface = (*interface, *map(Id, missing))
                new_operands = (*operands[:3], new_interface)
                new_entry = _new_record(Instruction, (*entry[:3], new_operands, entry.ext_set))
                entries[index] = new_entry
                if self._sites is not None and id(entry) in self._sites:
                    self._sites[id(new_entry)] = (new_entry, self._sites[id(entry)][1])
                kept = kept_words.pop(id(entry), None) if made is not None else None
                if kept is not None and kept[0] is entry:
                    # Its words from the call, the interface's new ids appended.
                    words = kept[1]
                    words = [((len(words) + len(missing)) << 16) | words[0] & 0xFFFF]
                    words += kept[1][1:]
                    words += missing
                    self._words[id(new_entry)] = (new_entry, words, kept[2], kept[3])

    def _function_uses(
        self, function: Function, wanted: set[int], by_id: dict[int, Function]
    ) -> tuple[set[int], set[int]]:
        """The globals among ``wanted`` that ``function`` uses and the functions it calls.

        A noted function's records listed theirs at the call (:meth:`_note`): only its runs
        of words are looked at; every piece of a function that was not noted (read from a
        binary, rewritten) is.
        """
        if function.noted:
            used = function.uses & wanted
            callees = function.callees & by_id.keys() if function.callees else set()
            for run in function.runs:
                if not wanted.isdisjoint(run.words):
                    for inst in run.instructions():
                        used.update(v for v in _ids_in(inst.operands) if v in wanted)
            return used, callees
        cached = self._words.get
        used, callees = set(), set()
        # The header, OpLabel and OpFunctionEnd use no global: the other pieces only.
        pieces: list[BlockItem] = [*function.parameters, *function.variables]
        for block in function.blocks:
            pieces += block.items
        for piece in pieces:
            if isinstance(piece, Run):
                if wanted.isdisjoint(piece.words):
                    continue  # no word of the run is a wanted global's id
                records: Iterable[Instruction] = piece.instructions()
            else:
                if piece.opcode != OP_FUNCTION_CALL:
                    made = cached(id(piece))
                    if made is not None and made[0] is piece and wanted.isdisjoint(made[1]):
                        continue  # none of its words (kept from its call) is a global's id
                records = (piece,)
            for inst in records:
                for value in _ids_in(inst.operands):
                    if value in wanted:
                        used.add(value)
                    elif value in by_id and inst.opcode == OP_FUNCTION_CALL:
                        callees.add(value)
        return used, callees

    def _body_after_requirements(self) -> list[BlockItem]:
        """Every section after the requirements, in layout order (those whose order means
        nothing sorted), then the functions (declarations first)."""
        out: list[BlockItem] = laid_out(self.sections, _REQUIREMENT_SECTIONS, self._words)
        functions = self.functions
        if len(functions) == 1:
            out += functions[0].pieces()
        else:
            for function in [f for f in functions if not f.blocks] + [
                f for f in functions if f.blocks
            ]:
                out += function.pieces()
        return out

    # -- serialization ----------------------------------------------------------------------
    def to_words(self) -> list[int]:
        """The module as SPIR-V words (header included)."""
        words: list[int] = []
        self._serialize(words)
        return words

    def to_bytes(self, endian: Literal["little", "big"] = "little") -> bytes:
        """The module as bytes, little-endian unless ``endian="big"``."""
        words = array("I")  # compact: a big module's words as 4 bytes each
        self._serialize(words)
        if endian != sys.byteorder:
            words.byteswap()
        return words.tobytes()

    def _serialize(self, out: MutableSequence[int]) -> None:
        """Encoding, capability inference, rules, checks and the undefined-id check; the
        words, onto ``out``.

        One pass over the body in layout order joins the words (kept from the calls, runs
        of words as they are; the other records are encoded here) and lists what the
        instructions need (as their calls listed it, else by walking them); then the
        requirements are resolved and the rules run (on the runs decoded where a rule or a
        check needs them) before anything is written to ``out``.
        """
        body = self._finished_body()
        requirements = Requirements(self)
        collector = requirements.collector()
        met, found = (collector.met, collector.found) if collector is not None else (set(), {})
        used: dict[int, str] = {}
        encode: Callable[[Instruction], list[int]] | None = None  # made if a record needs it
        # The body's words, in the form of ``out`` (an array keeps a big module compact).
        words: MutableSequence[int] = array("I") if isinstance(out, array) else []
        extend = words.extend

        def other(record: Instruction, written: bool) -> None:
            # A record whose kept words are written but whose needs were not listed, or
            # one whose words are made here (labels and ends as Function.pieces() makes
            # them need nothing).
            nonlocal encode
            if not written:
                opcode = record.opcode
                if opcode in _MADE_BY_PIECES and not record.operands and not record.result_type:
                    if record.result_id is None:
                        words.append(0x10000 | opcode)
                    else:
                        extend((0x20000 | opcode, int(record.result_id)))
                    return
                if encode is None:
                    encode = Encoder(self._type_widths, used).instruction
                extend(encode(record))
            if collector is not None:
                collector.walk(record)

        def on_run(run: Run) -> None:
            if collector is not None:
                collector.run(run)

        runs: list[Run] = layout_engine().join(
            body, self._words, extend, Run, met, found, used, other, on_run
        )
        capabilities, extensions = requirements.resolution(collector)
        self._run_rules(capabilities, extensions, runs, body)
        out.extend(header_words(self.version, self.bound, self.generator))
        for capability in capabilities:
            out.extend((0x20000 | OP_CAPABILITY, capability))
        for extension in extensions:
            name = string_words(extension)
            out.extend((((1 + len(name)) << 16) | OP_EXTENSION, *name))
        out.extend(words)
        if used or self._pending_ids:
            self._check_defined(body, runs, used)

    def _run_rules(
        self,
        capabilities: list[int],
        extensions: list[str],
        runs: list[Run],
        body: list[BlockItem],
    ) -> None:
        """The grammar's rules and the added checks, on the instructions they look at."""
        if not self._checks and not (
            self._rules_work or _RULE_TRIGGERS is None or _runs_trigger(runs)
        ):
            return  # no rule has anything to look at: none is run
        records = _records(body)
        head = _head(capabilities, extensions)
        if not runs:
            instructions = head + records
        elif self._checks or any(i.opcode in _WHOLE_MODULE_RULES for i in records):
            instructions = head + _decoded(body)
        else:
            # The other rules look at decorations and at the instructions they decorate.
            targets = {
                _plain_id(i.operands[0]) for i in records if i.opcode in _DECORATIONS and i.operands
            }
            instructions = head + records
            instructions += [
                inst
                for run in (runs if targets else ())
                if not targets.isdisjoint(run.words) and not targets.isdisjoint(run.result_ids())
                for inst in run.instructions()
                if inst.result_id in targets
            ]
        check_rules(instructions)
        for check in self._checks:
            check(instructions)

    def _check_defined(self, body: list[BlockItem], runs: list[Run], used: dict[int, str]) -> None:
        """BuildError for the first id an instruction uses that no instruction defines.

        Every id below the bound was handed out by a definition (a record's or a run's),
        reserved by :meth:`new_id` (``_pending_ids``, until something defines it) or read
        from a binary (``_from_binary``), and ``rewrite`` may remove definitions (their
        ids are pending again); so an id a record uses is undefined when it is at or past
        the bound, pending, or, in a module read from a binary, defined by no record and
        no run.  A run may use only a reserved id wrongly: its other
        operands were below the bound when it was made.
        """
        if not used and not self._pending_ids:
            return  # no id to look at: every call's ids were below the bound, none reserved
        records = _records(body)
        defined = {int(i.result_id) for i in records if i.result_id is not None}
        pending = self._pending_ids - defined
        bound = self.bound
        undefined = {
            value
            for value in set(used) - defined
            if value >= bound or value in pending or self._from_binary
        }
        if undefined and runs and self._from_binary:
            undefined -= set().union(*(run.result_ids() for run in runs))
        if pending:
            # Runs and the records of words paths used ids below the bound: only a
            # reserved one can be undefined.
            cached = self._words.get
            unlisted = [  # records whose used ids encoding did not list
                i
                for i in records
                if (entry := cached(id(i))) is None or entry[0] is not i or entry[2] is None
            ]
            for inst in unlisted:
                for value in (inst.result_type, *_ids_in(inst.operands)):
                    if value is not None and int(value) in pending:
                        info = tables.INSTRUCTIONS[inst.opcode]
                        used.setdefault(int(value), f"{info.name} operand")
                        undefined.add(int(value))
            for run in runs:
                if pending.isdisjoint(run.words):
                    continue
                for inst in run.instructions():
                    for value in (*inst.operands, inst.result_type):
                        if int(value) in pending:
                            info = tables.INSTRUCTIONS[inst.opcode]
                            used.setdefault(int(value), f"{info.name} operand")
                            undefined.add(int(value))
        if undefined:
            first = min(undefined)
            raise BuildError(f"{used[first]} uses %{first}, which no instruction defines")

    def validate(self, target_env: str = "vulkan1.1", flags: Sequence[str] = ()) -> None:
        """Run spirv-val on the module for ``target_env`` (more of its options in
        ``flags``, e.g. ``["--scalar-block-layout"]``); ValidationError listing each
        problem, with the Python ``file:line`` of the call that made its instruction when
        the module was made with ``call_sites=True``.  ToolUnavailable without spirv-val.
        """
        from spvbuild.ir.validation import run_spirv_val

        words = self.to_words()
        problems = run_spirv_val(words, target_env, flags)
        if not problems:
            return
        sites = self._sites or {}
        ordered = self.ordered_instructions()
        found: list[object] = []
        for problem in problems:
            record = ordered[problem.number - 1] if 0 < problem.number <= len(ordered) else None
            site = sites.get(id(record)) if record is not None else None
            found.append(problem._replace(call_site=site[1] if site else None))
        listed = "\n".join(f"  {problem}" for problem in found)
        raise ValidationError(f"spirv-val ({target_env}) rejects the module:\n{listed}", found)

    def write(self, path: str | Path, endian: Literal["little", "big"] = "little") -> Path:
        """Write the module to ``path`` (a ``.spv`` file); returns the path."""
        target = Path(path)
        target.write_bytes(self.to_bytes(endian))
        return target


_AGGREGATES = {OP_TYPE_STRUCT, OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY}
# The section of each instruction that _record always routes to its module section
# (not OpVariable, whose storage class decides, not OpLine/OpNoLine, not OpExtInst).
_GLOBAL_SECTIONS = {
    opcode: info.section
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.section != "functions"
    and opcode not in EXT_INST_OPCODES
    and opcode not in OP_LINE_OPCODES
    and opcode != OP_VARIABLE
}
_DECORATIONS = {OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING}
_TERMINATORS = tables.BLOCK_TERMINATORS
_MADE_BY_PIECES = {OP_LABEL, OP_FUNCTION_END}  # records that Function.pieces() makes
_FUNCTION_END_RECORD = Instruction(OP_FUNCTION_END, None, None, ())
_REQUIREMENT_SECTIONS = frozenset({"capabilities", "extensions"})  # written from the resolution
# Sections that keep call order (see spvbuild.ir.section_order).
# Rules that look at every instruction in module order (function pointers: their uses).
_WHOLE_MODULE_RULES = {OP_CONSTANT_FUNCTION_POINTER_INTEL}


def _may_trigger(inst: Instruction) -> bool:
    """Whether a rule of the grammar may find work in ``inst``: it has an opcode a rule
    looks for, or decorates with a decoration a rule restricts (see rules.TRIGGERS)."""
    if _RULE_TRIGGERS is None:
        return True
    opcodes, decorations = _RULE_TRIGGERS
    opcode = inst.opcode
    if opcode in opcodes:
        return True
    if opcode in _DECORATIONS and len(inst.operands) > 1:
        decoration = inst.operands[1]
        if isinstance(decoration, EnumerantParameters):
            decoration = decoration.enumerant
        return not isinstance(decoration, int) or int(decoration) in decorations
    return False


def _runs_trigger(runs: list[Run]) -> bool:
    """Whether a run of words holds an opcode a rule looks for (by its first words)."""
    if _RULE_TRIGGERS is None:
        return True
    opcodes = _RULE_TRIGGERS[0]
    for run in runs:
        if run.firsts:  # (most runs list none: their instructions need nothing)
            for first in run.firsts:
                if first & 0xFFFF in opcodes:
                    return True
    return False


# The opcodes of the instructions _may_trigger looks at (the others never trigger).
_RULE_WATCHED = _DECORATIONS | (_RULE_TRIGGERS[0] if _RULE_TRIGGERS is not None else set())
# Block instructions that _record only appends to the open block (a terminator also ends
# it): not the function's structure, locals, debug lines, extended instructions (routed by
# their set), merges (only their branch may follow) or what a rule watches.
_PLAIN_BLOCK_OPCODES = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.section == "functions"
    and opcode not in {OP_FUNCTION, OP_FUNCTION_PARAMETER, OP_LABEL, OP_FUNCTION_END, OP_VARIABLE}
    and opcode not in OP_LINE_OPCODES
    and opcode not in EXT_INST_OPCODES
    and opcode not in MERGE_FOLLOWERS
    and opcode not in _RULE_WATCHED
)

# How _put routes a record of each opcode: into a module section (a rule may watch it),
# to the open block (a terminator ends it), a global variable, a label, or through
# _record (everything else, and whatever these cannot take); and whether it is merged
# with an equal one (always, or aggregates when asked).
(
    _GLOBAL,
    _GLOBAL_WATCHED,
    _DECORATION,
    _BLOCK,
    _BLOCK_END,
    _EXT_INST,
    _GLOBAL_VARIABLE,
    _LABEL,
    _FUNCTION,
    _FUNCTION_END,
    _RECORD,
) = range(11)
# The decorations a rule restricts (a decoration whose word is one gives the rules work).
_TRIGGER_DECORATIONS = _RULE_TRIGGERS[1] if _RULE_TRIGGERS is not None else frozenset[int]()
_MERGED, _MERGED_AGGREGATE = 1, 2
_ROUTES: dict[int, tuple[int, int, str]] = {}
_STRUCTURE = {
    OP_VARIABLE: _GLOBAL_VARIABLE,  # (a Function one goes through _record)
    OP_LABEL: _LABEL,
    OP_FUNCTION: _FUNCTION,
    OP_FUNCTION_END: _FUNCTION_END,
}
for _opcode, _info in tables.INSTRUCTIONS.items():
    _merged = (
        _MERGED if _opcode in _DEDUPLICATED else _MERGED_AGGREGATE if _opcode in _AGGREGATES else 0
    )
    _section = _GLOBAL_SECTIONS.get(_opcode)
    if _section is not None:
        _how = _GLOBAL_WATCHED if _opcode in _RULE_WATCHED else _GLOBAL
        if _RULE_TRIGGERS is not None and _opcode in _DECORATIONS - _RULE_TRIGGERS[0]:
            _how = _DECORATION  # (target, decoration, ...): the decoration is word 2
    elif _opcode in _PLAIN_BLOCK_OPCODES:
        _how = _BLOCK_END if _opcode in _TERMINATORS else _BLOCK
    elif _opcode in _STRUCTURE and _opcode not in _RULE_WATCHED:
        _how = _STRUCTURE[_opcode]
    elif _opcode in EXT_INST_OPCODES and _opcode not in _RULE_WATCHED:
        _how = _EXT_INST  # an open block's when its set says it belongs in functions
    else:
        _how = _RECORD
    _ROUTES[_opcode] = (_merged, _how, _section or "")
_ROUTED_BY_RECORD = (0, _RECORD, "")


def _records(body: list[BlockItem]) -> list[Instruction]:
    """The records among ``body``'s pieces (not the runs of words)."""
    return [piece for piece in body if piece.__class__ is not Run]  # type: ignore[misc]


def _head(capabilities: list[int], extensions: list[str]) -> list[Instruction]:
    """The OpCapability and OpExtension records of resolved requirements."""
    head = [Instruction(OP_CAPABILITY, None, None, (_capability(c),)) for c in capabilities]
    head += [Instruction(OP_EXTENSION, None, None, (e,)) for e in extensions]
    return head


def _decoded(pieces: Iterable[BlockItem]) -> list[Instruction]:
    """Every instruction of ``pieces``, runs of words decoded."""
    out: list[Instruction] = []
    for piece in pieces:
        if isinstance(piece, Run):
            out.extend(piece.instructions())
        else:
            out.append(piece)
    return out


def _ids_in(values: Iterable[Any]) -> Iterable[int]:
    """Every Id inside a tuple of operand values (nested tuples and parameters included)."""
    for value in values:
        if isinstance(value, Id):
            yield int(value)
        elif isinstance(value, tuple | list) and not isinstance(value, RawWords):
            yield from _ids_in(value)
        elif isinstance(value, EnumerantParameters):
            yield from _ids_in(value.parameters)


def _ext_section(instruction: Instruction) -> str:
    """The layout section of an extended instruction whose set is known by name."""
    return _set_section(instruction.ext_set or "", instruction.operands[1])


_set_sections: dict[tuple[str, Any], str] = {}


def _set_section(import_name: str, number: Any) -> str:
    """The layout section of instruction ``number`` of the set ``import_name`` names:
    the set's, or "functions" for its instructions that belong in functions and for an
    unknown set (looked up once per known set and number)."""
    key = (import_name, number)
    found = _set_sections.get(key)
    if found is None:
        module = set_module(import_name)
        if module is None:
            return "functions"
        found = "functions"
        if module.SECTION != "functions" and number not in module.FUNCTION_INSTRUCTIONS:
            found = str(module.SECTION)
        if len(_set_sections) < 4096:  # bounded: numbers come from users
            _set_sections[key] = found
    return found
