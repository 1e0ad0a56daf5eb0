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

``Module`` is the face: it checks its options, then each job is a set of functions over
the module's state record (:class:`~spvbuild.ir.state.ModuleState`, which ``Module``
derives from), each in its own file: :mod:`~spvbuild.ir.words_paths` (one instruction
of a call: checked, encoded, deduplicated, its words kept), :mod:`~spvbuild.ir.routing`
(into sections, functions and blocks), :mod:`~spvbuild.ir.literals`,
:mod:`~spvbuild.ir.interfaces`, :mod:`~spvbuild.ir.editing`, :mod:`~spvbuild.ir.writing`,
:mod:`~spvbuild.ir.checks`, :mod:`~spvbuild.ir.loading` and
:mod:`~spvbuild.ir.validation`.  Everything walks the generated tables; there is no
code per instruction.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, Self, TypeVar

from spvbuild.binary.encoder import GENERATOR
from spvbuild.binary.framing import words_of
from spvbuild.binary.reader import read
from spvbuild.errors import ArgumentError, SpvbuildError
from spvbuild.generated.core.builder import CoreInstructions
from spvbuild.generated.core.enums import FunctionControl
from spvbuild.generated.core.opcodes import OP_EXT_INST, OP_FUNCTION
from spvbuild.generated.core.type_rules import EXT_RESULTS
from spvbuild.generated.extinst import ExtInstSets
from spvbuild.ir import editing, inspection, literals, loading, routing, validation, writing
from spvbuild.ir.body import Block, FunctionHandle
from spvbuild.ir.requirements import ext_single_ids
from spvbuild.ir.state import CapabilityMode, ModuleState, SetCheck, at_call
from spvbuild.ir.targets import target_profile
from spvbuild.ir.type_checks import check_call, check_ext_call
from spvbuild.ir.value_types import flush_streak
from spvbuild.ir.words_paths import emit, put
from spvbuild.spirv.arguments import shown
from spvbuild.spirv.call_site import located
from spvbuild.spirv.emission import Run
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.word_checks import FAST_IDS, ids_below

__all__ = ["KNOWN_VERSIONS", "CapabilityMode", "FunctionHandle", "Module"]

_AnyId = TypeVar("_AnyId", bound=Id | TypeId)

CHECK_TYPES_DEFAULT = os.environ.get("SPVBUILD_CHECK_TYPES", "1") != "0"
"""The default of ``Module(check_types=...)``: on, unless ``SPVBUILD_CHECK_TYPES=0`` at import."""
GENERATOR_WORD = GENERATOR  # the one generator word (spvbuild.binary.encoder.GENERATOR)
KNOWN_VERSIONS = tuple((1, minor) for minor in range(7))
_KNOWN_VERSION_SET = frozenset(KNOWN_VERSIONS)


class Module(ModuleState, CoreInstructions, ExtInstSets):
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

    ``check_types`` (on by default) checks each call against its instruction's type rule
    (``grammars/type_rules.yaml``, :mod:`spvbuild.ir.type_checks`): ``m.f_add(v4, a, b)``
    with ``a`` an int vector is a BuildError at that call, naming the operand, its type and
    the type the rule needs, where spirv-val would only reject the finished module.
    ``check_types=False`` turns them off, for a module made invalid on purpose (a test of
    a consumer) or the last bit of speed; the environment variable
    ``SPVBUILD_CHECK_TYPES=0`` (read at import) makes off the default.

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

    ``target_env="webgpu"`` builds for WebGPU through wgpu (naga's SPIR-V front end): the
    capabilities and extensions naga reads that spirv-val's vulkan1.1 allows, and the rules
    of :mod:`spvbuild.ir.target_rules` (no combined image sampler variable, no OpLine
    outside a function, LocalSize only, GLSL.std.450 and NonSemantic.* sets only, storage
    images read-write only for r32 formats; a :class:`~spvbuild.errors.TargetWarning` for
    NoContraction, which naga drops).  spirv-val has no WebGPU environment:
    ``validate("webgpu")`` runs it as vulkan1.1.
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
        check_types: bool | None = None,
    ) -> None:
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
        ModuleState.__init__(
            self,
            version,
            target,
            capabilities,
            merge_aggregates,
            generator,
            complete_interfaces,
            call_sites,
            CHECK_TYPES_DEFAULT if check_types is None else check_types is not False,
        )
        if not call_sites:  # (with call sites, every call takes the general path)
            self._put_words = self._put

    # -- the emission contract (spvbuild.spirv.emission.InstructionSink) --------------------
    # words_paths.put, bound as the method the generated words paths call: no call in between.
    _put = put
    # value_types.flush_streak, bound likewise (a fast path starts a new streak of values).
    _flush_streak = flush_streak

    # type_checks.check_call, bound likewise: the type rule of an opcode checked for a call.
    _check_types = check_call

    def _value(
        self,
        opcode: int,
        result_type: TypeId | None,
        operands: tuple[Any, ...],
        result_id: Id | None = None,
    ) -> Id:
        return Id(emit(self, opcode, result_type, operands, result_id, True, None))

    def _type(
        self, opcode: int, operands: tuple[Any, ...], result_id: TypeId | None = None
    ) -> TypeId:
        return TypeId(emit(self, opcode, None, operands, result_id, True, None))

    def _void(self, opcode: int, operands: tuple[Any, ...]) -> Self:
        emit(self, opcode, None, operands, None, False, None)
        return self

    def _ext_value(
        self,
        import_name: str,
        number: int,
        result_type: TypeId,
        operands: Sequence[Any],
        result_id: Id | None = None,
    ) -> Id:
        if self._set_checks:
            check = self._set_checks.get(import_name)
            if check is not None:
                check(number, result_type, tuple(operands), result_id)
        if self._value_types is not None and (import_name, number) in EXT_RESULTS:
            check_ext_call(self, import_name, number, result_type, operands)
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
                literals.encoder(self).instruction(trial)
            except SpvbuildError as exc:
                raise at_call(exc) from None
            set_id = self._ext_set_id(import_name)
        operands = (set_id, number, *operands)
        return Id(emit(self, OP_EXT_INST, result_type, operands, result_id, True, import_name))

    def _import_set(self, import_name: str) -> Id:
        """Make ``OpExtInstImport "import_name"`` through its generated method (its words
        path)."""
        return self.ext_inst_import(import_name)

    def _number_words(self, type_id: int, value: object) -> list[int] | None:
        return literals.number_words(self, type_id, value)

    def _new_run(self, block: Block) -> Run:
        return routing.new_run(self, block)

    # -- ids --------------------------------------------------------------------------------
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

    # -- reading a binary ---------------------------------------------------------------------
    @classmethod
    def from_binary(
        cls,
        data: bytes | bytearray | memoryview | Sequence[int],
        *,
        capabilities: CapabilityMode = "infer",
        check_types: bool = False,
    ) -> Module:
        """Read a SPIR-V binary into a Module that can keep being edited (``check_types``:
        the later calls are checked against the type rules, as in :class:`Module`).

        Every instruction goes through the same routing as a builder call (sections,
        functions, blocks) and the deduplicated ones are registered, so later calls such as
        ``type_float(32)`` return the ids the binary already has.  Writing the module lays
        it out canonically; for byte-exact round trips use :func:`spvbuild.binary.reader.read`.
        """
        parsed = read(data)
        words, _ = words_of(data, "from_binary")
        module = cls(
            parsed.version,
            capabilities=capabilities,
            generator=parsed.generator,
            check_types=check_types,
        )
        loading.load_binary(module, parsed, words)
        types = module._value_types
        if types is not None:  # every value's type (runs of words included)
            for inst in parsed.instructions:
                if (
                    inst.result_id is not None
                    and inst.result_type is not None
                    and inst.opcode != OP_FUNCTION
                ):
                    types[int(inst.result_id)] = TypeId(inst.result_type)
        return module

    # -- inspecting ---------------------------------------------------------------------------
    def definition(self, result_id: int) -> Instruction | None:
        """The instruction that defines ``result_id`` (None if nothing does yet)."""
        return inspection.definition(self, result_id)

    def all_instructions(self) -> Iterator[Instruction]:
        """Every stored instruction: module sections, then each function's instructions."""
        return inspection.all_instructions(self)

    @property
    def current_function(self) -> Id | None:
        """The id of the function instructions currently go to, if any."""
        return None if self._function is None else self._function.id

    @property
    def current_block(self) -> Id | None:
        """The label of the block instructions currently go to, if any."""
        return None if self._block is None else self._block.label

    @property
    def block_terminated(self) -> bool:
        """True when the current block already has its terminator."""
        return self._block is not None and self._block.terminated

    # -- editing ------------------------------------------------------------------------------
    def rewrite(self, change: Callable[[Instruction], Instruction | None]) -> set[int]:
        """Apply ``change`` to every stored instruction: return it, a replacement, or None.

        None removes the instruction (an OpFunction, OpLabel or OpFunctionEnd cannot be
        removed this way).  A replacement is checked like a builder call (EncodeError
        before anything changes).  Every cache is rebuilt from what remains, so a later
        call never hands out a removed or changed instruction (deduplication keys come
        from the new words, extended-set imports from the imports left).  The globals a
        replacement uses are laid out before it (definition before use), moved there when
        they were declared after it.  Returns the result ids removed.
        """
        return editing.rewrite(self, change)

    def find(
        self,
        *,
        name: str | None = None,
        opcode: int | None = None,
        result_id: int | None = None,
    ) -> list[Instruction]:
        """The stored instructions, in module order, that match every criterion given: the
        debug name (``OpName``) of their result, their opcode, their result id."""
        return editing.find(self, name=name, opcode=opcode, result_id=result_id)

    def replace_all_uses(
        self,
        old: Id | TypeId,
        new: Id | TypeId,
        where: Callable[[Instruction], bool] | None = None,
    ) -> int:
        """Make every instruction that uses the id ``old`` (every one for which ``where``
        is true, when given) use ``new`` instead; ``old``'s definition stays (remove it with
        :meth:`remove` once dead).  How many operands changed.  Goes through
        :meth:`rewrite`: checked, every cache rebuilt; a global that a changed
        instruction now uses but that was declared after it (a constant made after the
        composite that now uses it) is laid out before it."""
        return editing.replace_all_uses(self, old, new, where)

    def remove(self, instruction: Instruction) -> None:
        """Remove ``instruction`` (one :meth:`find` gave, or its result id's); BuildError
        if the module holds no such instruction.  Goes through :meth:`rewrite`."""
        editing.remove(self, instruction)

    def strip_debug(self) -> int:
        """Remove the core debug instructions; returns how many instructions went.

        Removes every ``OpName``, ``OpMemberName``, ``OpSource``, ``OpSourceContinued``,
        ``OpSourceExtension``, ``OpModuleProcessed``, ``OpLine`` and ``OpNoLine``, and
        every ``OpString`` that no instruction left uses (one a DebugInfo instruction
        uses stays); nothing else.  Goes through :meth:`rewrite`: every cache rebuilt, and
        names given afterwards are written.  The DebugInfo extended sets (``DebugInfo``,
        ``OpenCL.DebugInfo.100``, ``NonSemantic.Shader.DebugInfo.100``) are removed by
        :func:`spvbuild.debuginfo.strip_debug_info`; strip both for a module without any
        debug information (in either order: each removes the strings the other left
        unused).
        """
        return editing.strip_debug(self)

    @contextmanager
    def inserting(
        self, *, before: Instruction | None = None, after: Instruction | None = None
    ) -> Iterator[Self]:
        """Make the calls in the ``with`` insert their instructions into a function's
        block, just before or after an instruction of it (also before the terminator of
        a block that has ended); then go on where the module was.  A place between a merge
        instruction (OpLoopMerge, OpSelectionMerge) and its branch, which must follow it
        directly, is taken as the place before the merge instruction."""
        with editing.inserting(self, before=before, after=after):
            yield self

    def insert_at(self, label: Id) -> Self:
        """Continue emitting into the (unterminated) block that ``label`` starts."""
        editing.insert_at(self, label)
        return self

    def add_phi_incoming(self, phi: Id, value: Id, parent: Id) -> None:
        """Add the pair (``value``, ``parent``) to the OpPhi that defines ``phi``, in
        whatever block is current (a loop's phi gets the value of its continue block once
        that block is made).  Checked like a builder call: BuildError if ``phi`` is no
        OpPhi of this module's functions, EncodeError for a value or parent that is no id.
        """
        editing.add_phi_incoming(self, phi, value, parent)

    def add_check(self, check: Callable[[list[Instruction]], None]) -> None:
        """Run ``check`` on the ordered instructions each time the module is serialized."""
        if check not in self._checks:
            self._checks = (*self._checks, check)

    def add_set_check(self, import_name: str, check: SetCheck) -> None:
        """Run ``check`` at each call of a typed method of the extended set ``import_name``
        (``m.debug_info.debug_type_basic(...)``), before the instruction is made; what it
        raises is the call's error.  One check per set: a second replaces the first."""
        self._set_checks = {**self._set_checks, import_name: check}

    # -- conveniences -------------------------------------------------------------------------
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

    # -- writing ------------------------------------------------------------------------------
    def ordered_instructions(self) -> list[Instruction]:
        """Every instruction in logical-layout order, capabilities and extensions resolved."""
        return writing.ordered_instructions(self)

    def to_words(self) -> list[int]:
        """The module as SPIR-V words (header included)."""
        return writing.to_words(self)

    def to_bytes(self, endian: Literal["little", "big"] = "little") -> bytes:
        """The module as bytes, little-endian unless ``endian="big"``."""
        return writing.to_bytes(self, endian)

    def write(self, path: str | Path, endian: Literal["little", "big"] = "little") -> Path:
        """Write the module to ``path`` (a ``.spv`` file); returns the path."""
        target = Path(path)
        target.write_bytes(self.to_bytes(endian))
        return target

    def validate(self, target_env: str = "vulkan1.1", flags: Sequence[str] = ()) -> None:
        """Run spirv-val on the module for ``target_env`` (more of its options in
        ``flags``, e.g. ``["--scalar-block-layout"]``); ValidationError listing each
        problem, with the Python ``file:line`` of the call that made its instruction when
        the module was made with ``call_sites=True``.  ToolUnavailable without spirv-val.
        """
        validation.validate_module(self, target_env, flags)
