"""Capability and extension inference: what a module's instructions need, and what that
resolves to.

Each instruction is walked by the grammar's operand kinds, not by Python types: an IntEnum
given where a literal belongs needs nothing, and a plain int given for an enum operand needs
what its enumerant needs.  What an opcode can need is worked out once per opcode (a
*plan*: its own requirements, the literal values that need a capability, the operands whose
kinds can need something); the needs are listed in module order without meeting any of them
(:class:`_Collector`), and what that list resolves to (the capabilities and extensions to
declare) is worked out once per version, mode, declarations and list (``_resolutions``) by
meeting each need in order, as one pass would (:class:`Requirements`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Capability
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_EXT_INST_IMPORT, OP_EXTENSION
from spvbuild.generated.extinst import set_module
from spvbuild.spirv.emission import Run
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.tables import EnumerantInfo, KindInfo, OperandInfo

if TYPE_CHECKING:
    from collections.abc import Mapping

    from spvbuild.ir.body import BlockItem, KeptWords

EXT_INST_OPCODES = tables.EXT_INST_OPCODES  # OpExtInst, OpExtInstWithForwardRefsKHR
_MISSING: Any = object()  # no entry (an entry may be None)


_ext_single_ids: dict[tuple[str, int], int] = {}


def ext_single_ids(import_name: str, number: int) -> int:
    """How many operands an extended instruction has when they are all single ids (-1
    when some is not, or the set or instruction is unknown); looked up once."""
    key = (import_name, number)
    count = _ext_single_ids.get(key)
    if count is None:
        module = set_module(import_name)
        info = module.INSTRUCTIONS.get(number) if module is not None else None
        count = -1
        if info is not None and all(
            op.kind == "IdRef" and not op.quantifier for op in info.operands
        ):
            count = len(info.operands)
        _ext_single_ids[key] = count
    return count


def one_word(value: Any) -> int:
    """The value of a one-word operand (an enumerant, an int or one raw word)."""
    if isinstance(value, RawWords):
        return int(value[0]) if value else 0
    return int(value)


def _version_ok(needed: tuple[int, int] | None, have: tuple[int, int]) -> bool:
    return needed is not None and have >= needed


_Need = tuple[Sequence[str], Sequence[str], tuple[int, int] | None]
# A need with where it comes from (for messages).
_Where = tuple[_Need, str]
# One enumerant of a single ValueEnum operand: its need, where, and its parameters when some
# parameter's kind can need something (None otherwise).
_ByValue = dict[int, tuple[_Need, str, tuple[OperandInfo, ...] | None]]
# What capability inference looks at in an instruction of one opcode (see _plan).
_Plan = tuple[
    _Where | None,
    tuple[tuple[int, int, int | None, _Need, str], ...],
    tuple[tuple[int, OperandInfo, _ByValue | None], ...],
    str,
]
_plans: dict[int, _Plan | None] = {}
# The plan of an instruction that can need nothing (nothing to look at, skipped).
_NEEDS_NOTHING: _Plan = (None, (), (), "")
_kinds_that_need: dict[str, bool] = {}
_set_kinds: dict[str, dict[str, KindInfo]] = {}  # an extended set's module → all its kinds
_names_of_capabilities: dict[str, int] = {}


def capability_names() -> dict[str, int]:
    """Capability enumerant names → values (built once)."""
    if not _names_of_capabilities:
        for value, enumerant in tables.KINDS["Capability"].enumerants.items():
            _names_of_capabilities[enumerant.name] = value
    return _names_of_capabilities


def _kind_may_need(kind_name: str, kinds: dict[str, KindInfo]) -> bool:
    """False for a core operand kind none of whose values can need anything (ids,
    literals, enums whose enumerants need no capability, extension or later version)."""
    found = _kinds_that_need.get(kind_name)
    if found is None:
        _kinds_that_need[kind_name] = True  # while looking (kinds nest through parameters)
        kind = kinds.get(kind_name)
        if kind is None or kind.category in ("Id", "Literal"):
            found = False
        elif kind.category == "Composite":
            found = any(_kind_may_need(base, kinds) for base in kind.bases)
        else:
            found = any(
                e.capabilities
                or e.extensions
                or e.version != (1, 0)
                or any(_kind_may_need(p.kind, kinds) for p in e.parameters)
                for e in kind.enumerants.values()
            )
        _kinds_that_need[kind_name] = found
    return found


_parameters_that_need: dict[tuple[str, int], bool] = {}
_RESULT_TYPE_CAPABILITIES = tables.RESULT_TYPE_CAPABILITIES


def result_type_needs(
    opcode: int, result_type: int | None, definitions: dict[int, Instruction]
) -> tuple[tuple[_Need, str], ...]:
    """What an instruction of ``opcode`` needs by its result type (64-bit atomics:
    Int64Atomics), the type's definition looked up in ``definitions``."""
    rows = _RESULT_TYPE_CAPABILITIES.get(opcode)
    if not rows or result_type is None:
        return ()
    declared = definitions.get(int(result_type))
    if declared is None:
        return ()
    found: list[tuple[_Need, str]] = []
    for type_opcode, index, value, capability, said in rows:
        operands = declared.operands
        if declared.opcode == type_opcode and len(operands) > index and operands[index] == value:
            name = tables.KINDS["Capability"].enumerants[capability].name
            where = f"{tables.INSTRUCTIONS[opcode].name} {said}"
            found.append((((name,), (), None), where))
    return tuple(found)


def walked_needs(instruction: Instruction) -> tuple[tuple[_Need, str], ...]:
    """What ``instruction`` needs, found by walking it (each need once, in order)."""
    collector = _Collector()
    collector.walk(instruction)
    return tuple(collector.found.items())


def with_result_type_needs(
    instruction: Instruction,
    needs: tuple[tuple[_Need, str], ...] | None,
    definitions: dict[int, Instruction],
) -> tuple[tuple[_Need, str], ...] | None:
    """``needs`` (None: found by walking ``instruction`` when written) with what its
    result type needs added; unchanged when that is nothing."""
    extra = result_type_needs(instruction.opcode, instruction.result_type, definitions)
    if not extra:
        return needs
    if needs is None:
        needs = walked_needs(instruction)
    return needs + extra


def _parameters_may_need(kind_name: str, enumerant: EnumerantInfo) -> bool:
    """Whether some parameter of a core enumerant has a kind that can need something
    (worked out once per enumerant)."""
    key = (kind_name, enumerant.value)
    found = _parameters_that_need.get(key)
    if found is None:
        found = _parameters_that_need[key] = any(
            _kind_may_need(p.kind, tables.KINDS) for p in enumerant.parameters
        )
    return found


def _by_value(op: OperandInfo, where: str) -> _ByValue | None:
    """Each enumerant of a single (not optional, not variadic) ValueEnum operand: its need,
    where it comes from and the parameters to walk; None for another operand."""
    kind = tables.KINDS.get(op.kind)
    if kind is None or kind.category != "ValueEnum" or op.quantifier:
        return None
    return {
        value: (
            (e.capabilities, e.extensions, e.version),
            f"{where} {op.kind}.{e.name}",
            e.parameters if _parameters_may_need(op.kind, e) else None,
        )
        for value, e in kind.enumerants.items()
    }


def _plan(opcode: int) -> _Plan | None:
    """What capability inference looks at in an instruction of ``opcode`` (made once): the
    opcode's own need (None when it needs nothing), the type-driven capabilities ((operand
    index, value, the operand whose presence cancels the need or None, need, where)), the operands after the result whose kinds can need
    something ((index, operand, each enumerant's need when a single ValueEnum)) and the
    instruction's name."""
    info = tables.INSTRUCTIONS.get(opcode)
    if info is None:
        _plans[opcode] = None
        return None
    where = info.name
    own: _Where | None = None
    if info.capabilities or info.extensions or info.version != (1, 0):
        own = ((info.capabilities, info.extensions, info.version), where)
    type_caps = tuple(
        (index, value, unless, ((name,), (), None), f"{where} {value}")
        for op, index, value, cap, unless in tables.TYPE_CAPABILITIES
        if op == opcode
        for name in (tables.KINDS["Capability"].enumerants[cap].name,)
    )
    rest = [op for op in info.operands if op.kind not in ("IdResultType", "IdResult")]
    layout = tuple(
        (index, op, _by_value(op, where))
        for index, op in enumerate(rest)
        if _kind_may_need(op.kind, tables.KINDS)
    )
    plan: _Plan = (own, type_caps, layout, where)
    if not (own or type_caps or layout or opcode in EXT_INST_OPCODES):
        plan = _NEEDS_NOTHING
        if opcode == OP_EXT_INST_IMPORT:
            plan = (own, type_caps, layout, where)
    _plans[opcode] = plan
    return plan


# (version, mode, declared capabilities, declared extensions, needs in order) → the
# capabilities and extensions they resolve to (see Requirements.resolve).
_resolutions: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[str, ...]]] = {}
_RESOLUTIONS_KEPT = 1024


# Inferred capabilities written even where another declared one implies them: spvbuild's
# grammar has FunctionPointersINTEL and IndirectReferencesINTEL imply Addresses (the seed's
# table, grammars/errata.yaml), spirv-val's (the Khronos JSON) does not, and refuses a
# physical addressing model without Addresses declared.
_KEPT_EXPLICIT = frozenset({int(Capability.Addresses)})


class CapabilityFilter(Protocol):
    """What resolution asks of a target profile (:class:`spvbuild.ir.targets.TargetProfile`):
    its name, and whether it allows a capability or an extension."""

    name: str
    """The environment's name, for messages."""

    def allows_extension(self, name: str, version: tuple[int, int] | None = None) -> bool:
        """Whether the SPIR-V extension ``name`` is allowed (in a module of ``version``)."""
        ...

    def allows_capability(
        self,
        value: int,
        version: tuple[int, int],
        extensions: Sequence[str],
        capabilities: Collection[int] | None = None,
    ) -> bool:
        """Whether the capability ``value`` is allowed after ``capabilities``."""
        ...


class Requirements:
    """Capability/extension resolution over a module's instructions (one pass, in order):
    for a module of SPIR-V ``version`` built for ``profile`` (or None), whose sections are
    ``sections`` (what it declares), inference ``mode`` ("infer", "verify" or "off")."""

    def __init__(
        self,
        version: tuple[int, int],
        profile: CapabilityFilter | None,
        sections: Mapping[str, list[Instruction]],
        mode: str,
    ) -> None:
        self.mode = mode
        self.version = version
        self.profile = profile
        self.capability_names = capability_names()
        declared = sections["capabilities"]
        self.declared_caps = [one_word(i.operands[0]) for i in declared] if declared else []
        declared = sections["extensions"]
        self.declared_exts = [str(i.operands[0]) for i in declared] if declared else []
        self.caps: list[int] = list(dict.fromkeys(self.declared_caps))
        self.exts: list[str] = list(dict.fromkeys(self.declared_exts))
        self.closure: set[int] = set()
        # Requirements (capabilities, extensions, version) met already: met they stay.
        self.met: set[tuple[Sequence[str], Sequence[str], tuple[int, int] | None]] = set()
        for cap in self.caps:
            self._close(cap)

    def _close(self, cap: int) -> None:
        if cap in self.closure:
            return
        self.closure.add(cap)
        enumerant = tables.KINDS["Capability"].enumerants.get(cap)
        if enumerant is not None:
            for implied in enumerant.capabilities:
                value = self.capability_names.get(implied)
                if value is not None:
                    self._close(value)

    def collector(self) -> _Collector | None:
        """A collector of what the module's instructions need (:class:`_Collector`), the
        declared capabilities' needs in it first; None when inference is off."""
        if self.mode == "off":
            return None
        collector = _Collector()
        for cap in self.caps:
            collector._capability_needs(cap, "OpCapability")
        return collector

    def resolve(
        self, body: list[BlockItem], kept_words: Mapping[int, KeptWords]
    ) -> tuple[list[int], list[str]]:
        """The capabilities and extensions to declare (sorted) for the module whose
        instructions after the requirements are ``body`` (in module order), with the words
        kept from their calls (their needs listed there)."""
        collector = self.collector()
        if collector is not None:
            kept = kept_words.get
            for piece in body:
                if isinstance(piece, Run):
                    collector.run(piece)
                    continue
                entry = kept(id(piece))
                if entry is not None and entry[0] is piece and entry[3] is not None:
                    collector.listed(entry[3])  # (record, words, used, needs)
                else:
                    collector.walk(piece)
        return self.resolution(collector)

    def resolution(self, collector: _Collector | None) -> tuple[list[int], list[str]]:
        """The capabilities and extensions to declare (sorted), from what ``collector``
        found in module order (None: inference is off, what is declared).

        What the instructions need is listed first, in module order, without meeting any
        of it (:class:`_Collector`); what that list resolves to depends on nothing else
        but the version, the mode and what is declared, so it is worked out once per such
        input (``_resolutions``) by meeting each need in order, as one pass would.
        """
        mode = self.mode
        if collector is None:
            return sorted(self.caps), sorted(self.exts)
        found = collector.found
        needs = found
        profile = self.profile.name if self.profile is not None else None
        key = (self.version, mode, profile, tuple(self.caps), tuple(self.exts), tuple(needs))
        known = _resolutions.get(key)
        if known is not None:
            return list(known[0]), list(known[1])
        for need, where in needs.items():
            self._need(need, where)
        caps = self.caps
        if mode != "verify":
            implied_by_others: set[int] = set()
            for cap in self.caps:
                enumerant = tables.KINDS["Capability"].enumerants.get(cap)
                for implied in enumerant.capabilities if enumerant else ():
                    implied_by_others |= self._closure_of(self.capability_names.get(implied))
            caps = [
                c for c in caps
                if c in self.declared_caps or c not in implied_by_others or c in _KEPT_EXPLICIT
            ]
        resolved = (tuple(sorted(caps)), tuple(sorted(self.exts)))
        if len(_resolutions) < _RESOLUTIONS_KEPT:
            _resolutions[key] = resolved
        return list(resolved[0]), list(resolved[1])

    def _closure_of(self, cap: int | None) -> set[int]:
        if cap is None:
            return set()
        seen: set[int] = set()
        todo = [cap]
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            enumerant = tables.KINDS["Capability"].enumerants.get(c)
            for implied in enumerant.capabilities if enumerant else ():
                value = self.capability_names.get(implied)
                if value is not None:
                    todo.append(value)
        return seen

    def _instruction(self, inst: Instruction) -> None:
        opcode = inst.opcode
        plan = _plans[opcode] if opcode in _plans else _plan(opcode)
        if plan is None:
            return
        own, type_caps, layout, where = plan
        met = self.met
        if own is not None and own[0] not in met:
            self._need(*own)
        operands = inst.operands
        for index, value, unless, need, said in type_caps:
            if len(operands) > index and operands[index] == value:
                if unless is not None and len(operands) > unless and operands[unless] is not None:
                    continue  # (OpTypeFloat 16 with an FPEncoding: not an IEEE half)
                self._need(need, said)
        if opcode in EXT_INST_OPCODES and inst.ext_set is not None:
            self._ext_inst(inst)
            return
        if opcode == OP_EXT_INST_IMPORT:
            self._ext_import(inst)
        count = len(operands)
        for index, op, by_value in layout:
            if index >= count:
                break
            value = operands[index]
            if value is None:
                continue
            if by_value is not None:
                if value.__class__ is int or isinstance(value, Enum):
                    # One enumerant of a ValueEnum kind (the common case, inline).
                    found = by_value.get(value)
                    if found is not None and found[0] not in met:
                        self._need(found[0], found[1])
                    continue
                if isinstance(value, EnumerantParameters):
                    # An enumerant with its parameters (what _with_parameters does, inline).
                    found = by_value.get(int(value.enumerant))
                    if found is None:
                        continue
                    if found[0] not in met:
                        self._need(found[0], found[1])
                    if found[2] is not None:
                        self._operands(found[2], value.parameters, tables.KINDS, where)
                    continue
            if op.quantifier == "*" and isinstance(value, tuple | list):
                for item in value:
                    self._operand(op.kind, item, tables.KINDS, where)
            else:
                self._operand(op.kind, value, tables.KINDS, where)

    def _ext_import(self, inst: Instruction) -> None:
        module = set_module(str(inst.operands[0]))
        if module is None:
            return
        if module.IMPORT_EXTENSIONS:
            where = f'OpExtInstImport "{inst.operands[0]}"'
            self._need(((), module.IMPORT_EXTENSIONS, module.IMPORT_CORE_IN), where)

    def _ext_inst(self, inst: Instruction) -> None:
        module = set_module(inst.ext_set or "")
        if module is None:
            return
        info = module.INSTRUCTIONS.get(inst.operands[1])
        if info is not None:
            where = f"{inst.ext_set} {info.name}"
            self._need((info.capabilities, info.extensions, None), where)
            if ext_single_ids(inst.ext_set or "", inst.operands[1]) == len(inst.operands) - 2:
                return  # single ids only: no operand can need anything
            kinds = _set_kinds.get(module.__name__)
            if kinds is None:  # the core kinds and the set's own, merged once per set
                kinds = _set_kinds[module.__name__] = {**tables.KINDS, **module.KINDS}
            self._operands(info.operands, inst.operands[2:], kinds, where)

    def _operands(
        self,
        layout: Sequence[OperandInfo],
        values: Sequence[Any],
        kinds: dict[str, KindInfo],
        where: str,
    ) -> None:
        """What the enumerants among ``values`` need, by the operand kinds of ``layout``.

        The grammar's kind decides, not the Python type: an IntEnum given where a literal
        belongs needs nothing, and a plain int given for an enum operand needs what its
        enumerant needs.
        """
        for index, op in enumerate(layout):
            if index >= len(values):
                break
            value = values[index]
            if value is None:
                continue
            if op.quantifier == "*" and isinstance(value, tuple | list):
                for item in value:
                    self._operand(op.kind, item, kinds, where)
            else:
                self._operand(op.kind, value, kinds, where)

    def _operand(self, kind_name: str, value: Any, kinds: dict[str, KindInfo], where: str) -> None:
        kind = kinds.get(kind_name)
        if kind is None or isinstance(value, RawWords):
            return
        if kind.category == "ValueEnum":
            if isinstance(value, EnumerantParameters):
                self._with_parameters(kind_name, kind, value, kinds, where)
            elif isinstance(value, int) and not isinstance(value, bool):
                self._enumerant_value(kinds, kind_name, int(value), where)
        elif kind.category == "BitEnum":
            for part in value if isinstance(value, tuple | list) else (value,):
                if isinstance(part, EnumerantParameters):
                    self._with_parameters(kind_name, kind, part, kinds, where)
                elif isinstance(part, int) and not isinstance(part, bool):
                    bits = int(part)
                    bit = 1
                    while 0 < bit <= bits:
                        if bits & bit:
                            self._enumerant_value(kinds, kind_name, bit, where)
                        bit <<= 1
        elif kind.category == "Composite" and isinstance(value, tuple):
            for base, item in zip(kind.bases, value, strict=False):
                self._operand(base, item, kinds, where)

    def _with_parameters(
        self,
        kind_name: str,
        kind: KindInfo,
        value: EnumerantParameters,
        kinds: dict[str, KindInfo],
        where: str,
    ) -> None:
        number = int(value.enumerant)
        self._enumerant_value(kinds, kind_name, number, where)
        enumerant = kind.enumerants.get(number)
        if enumerant is not None and (
            kinds is not tables.KINDS  # an extended set's kinds: no shortcut
            or _parameters_may_need(kind_name, enumerant)
        ):
            self._operands(enumerant.parameters, value.parameters, kinds, where)

    def _enumerant_value(
        self, kinds: dict[str, KindInfo], kind: str, value: int, where: str
    ) -> None:
        info = kinds.get(kind)
        enumerant = info.enumerants.get(value) if info is not None else None
        if enumerant is None or (
            (enumerant.capabilities, enumerant.extensions, enumerant.version) in self.met
        ):
            return
        self._need(
            (enumerant.capabilities, enumerant.extensions, enumerant.version),
            f"{where} {kind}.{enumerant.name}",
        )

    def _cost(self, cap: int, position: int) -> tuple[bool, bool, int]:
        """Rank one candidate of an any-of set: no Shader/Kernel clash, no extension, first."""
        closure = self._closure_of(cap)
        shader, kernel = int(Capability.Shader), int(Capability.Kernel)
        clash = (kernel in closure and shader in self.closure) or (
            shader in closure and kernel in self.closure
        )
        enumerant = tables.KINDS["Capability"].enumerants.get(cap)
        needs_more = enumerant is not None and not _version_ok(enumerant.version, self.version)
        return (clash, needs_more, position)

    def _capability_needs(self, cap: int, where: str) -> None:
        enumerant = tables.KINDS["Capability"].enumerants.get(cap)
        if enumerant is not None:
            self._need(((), enumerant.extensions, enumerant.version), f"{where} {enumerant.name}")

    def _need(self, need: _Need, where: str) -> None:
        """Meet ``need`` ((capabilities, extensions, version)) unless met already."""
        if need in self.met:
            return  # met already: capabilities and extensions only grow
        self._meet(need, where)
        self.met.add(need)

    def _meet(self, need: _Need, where: str) -> None:
        capabilities, extensions, version = need
        verify = self.mode == "verify"
        if not _version_ok(version, self.version):
            if extensions:
                if not any(e in self.exts for e in extensions):
                    if verify:
                        raise BuildError(
                            f"{where} needs extension {' or '.join(extensions)} at SPIR-V "
                            f"{self.version[0]}.{self.version[1]} (declared: {self.exts or 'none'})"
                        )
                    profile = self.profile
                    allowed = [
                        e for e in extensions
                        if profile is None or profile.allows_extension(e, self.version)
                    ]
                    if not allowed:  # (a profile allows no extension of the need)
                        raise BuildError(
                            f"{' or '.join(extensions)} is not allowed by "
                            f"{profile.name if profile else '?'}: needed by {where}"
                        )
                    self.exts.append(allowed[0])
            elif version is not None and not capabilities:
                raise BuildError(
                    f"{where} needs SPIR-V {version[0]}.{version[1]}; the module is "
                    f"{self.version[0]}.{self.version[1]}"
                )
        if not capabilities:
            return
        values = [self.capability_names[c] for c in capabilities if c in self.capability_names]
        if not values or any(
            v in self.closure and (v not in _KEPT_EXPLICIT or v in self.caps) for v in values
        ):
            return
        if verify:
            declared = [tables.KINDS["Capability"].enumerants[c].name for c in self.caps]
            raise BuildError(
                f"{where} needs capability {' or '.join(capabilities)} (declared: "
                f"{', '.join(declared) or 'none'})"
            )
        profile = self.profile
        if profile is not None:
            choices = [
                v for v in values
                if profile.allows_capability(v, self.version, self.exts, self.caps)
            ]
            if not choices:
                raise BuildError(
                    f"{' or '.join(capabilities)} is not allowed by {profile.name}: needed by "
                    f"{where}"
                )
            values = choices
        chosen = min(values, key=lambda v: self._cost(v, values.index(v)))
        self.caps.append(chosen)
        self._close(chosen)
        self._capability_needs(chosen, where)


class _Collector(Requirements):
    """What instructions need, in order, each need once with where it was first seen;
    nothing is met (see :meth:`Requirements.resolve`)."""

    def __init__(self) -> None:  # no module: only the instructions' own walks run
        self.profile = None
        self.met = set()
        self.found: dict[_Need, str] = {}

    def walk(self, instruction: Instruction) -> None:
        """What ``instruction`` needs, found by walking its operands (where its call did
        not list it)."""
        opcode = instruction.opcode
        plan = _plans[opcode] if opcode in _plans else _plan(opcode)
        if plan is not _NEEDS_NOTHING:
            self._instruction(instruction)

    def listed(self, needs: tuple[tuple[_Need, str], ...]) -> None:
        """What an instruction needs, as its call listed it (:func:`instruction_needs`)."""
        met = self.met
        for need, where in needs:
            if need not in met:
                self.found[need] = where
                met.add(need)

    def run(self, run: Run) -> None:
        """What the instructions of a run of words need: their opcodes' alone (ids only)."""
        for first in run.firsts:
            self._instruction(Instruction(first & 0xFFFF, None, None, ()))

    def _meet(self, need: _Need, where: str) -> None:
        """Keep a need met by nothing yet, with where it was seen."""
        self.found[need] = where


# A needs key (the opcode and the operand values that can decide a need, as the generated
# words paths make it) → what an instruction with that key needs, in order.
NEEDS_BY_KEY: dict[tuple[Any, ...], tuple[tuple[_Need, str], ...]] = {}
_NEEDS_KEPT = 4096


def instruction_needs(
    instruction: Instruction, key: tuple[Any, ...]
) -> tuple[tuple[_Need, str], ...]:
    """What ``instruction`` needs, each need once with where it comes from, in the order
    the walk lists them; ``key`` holds everything of the instruction the walk can look
    at (its opcode, literals and enumerants, no id), so the list is worked out once per
    key (bounded: keys come from users' values)."""
    found = NEEDS_BY_KEY.get(key)
    if found is None:
        collector = _Collector()
        collector.walk(instruction)
        found = tuple(collector.found.items())
        if len(NEEDS_BY_KEY) < _NEEDS_KEPT:
            NEEDS_BY_KEY[key] = found
    return found


def _capability(value: int) -> Capability | RawWords:
    """A Capability operand: the enumerant, or the raw word of one the grammar lacks."""
    try:
        return Capability(value)
    except ValueError:
        return RawWords((value,))


def requirement_records(capabilities: list[int], extensions: list[str]) -> list[Instruction]:
    """The OpCapability and OpExtension records of resolved requirements."""
    head = [Instruction(OP_CAPABILITY, None, None, (_capability(c),)) for c in capabilities]
    head += [Instruction(OP_EXTENSION, None, None, (e,)) for e in extensions]
    return head
