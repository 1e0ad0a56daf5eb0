"""One generic writer per (module, target set): facts in, one OpExtInst out.

:meth:`DebugInfoWriter.emit` takes an instruction name and its operand values keyed by the
generated method's parameter names, walks the target set's grammar operands in order and
converts each value to what that set wants there:

===================  ==================================  ==================================
value                literal operand (DebugInfo, OpenCL)  id operand (all sets; every one in
                                                         NonSemantic.Shader.DebugInfo.100)
===================  ==================================  ==================================
``int``              the number                          an ``OpConstant`` (32-bit unsigned)
vocabulary enum      the set's enum member, by name      an ``OpConstant`` of its value
``str``              —                                   an ``OpString``
a handle / ``Id``    —                                   the id
``None``             absent (optional operand)           the module's one ``DebugInfoNone``
===================  ==================================  ==================================

A value for an operand the set does not have is refused (a DebugTypeMember's Parent in
NonSemantic.Shader.DebugInfo.100), unless it says nothing: ``None``, an empty sequence or
the operand's default (flags 0, language Unknown), which an operand with no value takes.
Before emitting, every operand is described as a :class:`~spvbuild.debuginfo.rules.Ref`
and the spec's rules are checked, so a broken rule raises before the module changes.  Debug
instructions written around the layer are checked too: a writer registers its set's check
with :meth:`~spvbuild.ir.module.Module.add_set_check`, so each call of a generated method
(``m.debug_info.debug_type_basic(...)``) is checked at the call, and
:func:`~spvbuild.debuginfo.rules.check_serialized` with
:meth:`~spvbuild.ir.module.Module.add_check` (one registration per module, so one check per
``to_words``), which also sees raw ``ext_inst`` calls and forward references.

Strings, constants and the import are hash-consed by the module; the writer keeps the one
``DebugInfoNone`` and the sources per module, shared by every layer over that module.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum, IntFlag
from typing import TYPE_CHECKING, Any

from spvbuild.debuginfo import rules
from spvbuild.debuginfo.facts import KIND_OF, NO_FLAGS
from spvbuild.debuginfo.flavors import Flavor, method_name
from spvbuild.debuginfo.handles import CompileUnit, Composite, Expression, Handle, Source
from spvbuild.debuginfo.rules import Ref
from spvbuild.debuginfo.spec_rules import ENUM_TABLES, ENUMERANT, SET, DebugInfoError
from spvbuild.generated.core import tables as core_tables
from spvbuild.generated.core.opcodes import OP_EXT_INST
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.tables import OperandInfo

if TYPE_CHECKING:
    from spvbuild.ir.module import Module

DEFAULTS: dict[str, object] = {
    "flags": NO_FLAGS,
    "language": 0,  # SourceLanguage.Unknown
    "dwarf_version": 4,
}
"""Values of operands a fact may leave out (a set-specific operand, usually)."""

ALIASES: dict[str, tuple[str, ...]] = {"operands": ("operations",)}
"""Parameter names that differ between sets: DebugExpression's ``operations`` (DebugInfo)
is ``operands`` in the newer sets."""

MAX_STRING_BYTES = (65535 - 5) * 4
"""The longest string (UTF-8 bytes) that fits every instruction it goes in (OpSource with
a file operand: 4 words besides the string, which takes bytes // 4 + 1 words)."""

_WRITERS: weakref.WeakKeyDictionary[Module, dict[str, DebugInfoWriter]] = (
    weakref.WeakKeyDictionary()
)


class DebugInfoWriter:
    """Writes the instructions of one debug-info set into one module."""

    @classmethod
    def of(cls, module: Module, flavor: Flavor) -> DebugInfoWriter:
        """The writer of ``flavor`` over ``module`` (one per pair, shared)."""
        per_module = _WRITERS.setdefault(module, {})
        writer = per_module.get(flavor.name)
        if writer is None:
            writer = per_module[flavor.name] = cls(module, flavor)
        return writer

    @staticmethod
    def existing(module: Module, set_name: str) -> DebugInfoWriter | None:
        """The writer of the set named ``set_name`` over ``module``, if one was made."""
        return _WRITERS.get(module, {}).get(set_name)

    @staticmethod
    def forget(module: Module, set_names: Iterable[str]) -> None:
        """Drop the shared state of those sets over ``module`` (after they were stripped)."""
        per_module = _WRITERS.get(module, {})
        for name in set_names:
            per_module.pop(name, None)

    def __init__(self, module: Module, flavor: Flavor) -> None:
        module.add_check(rules.check_serialized)  # once per module, whatever the layers
        module.add_set_check(flavor.name, self.check_call)
        self._writing = False  # emit's own calls of the generated methods are checked already
        self._module = weakref.ref(module)
        self.flavor = flavor
        self.group: Any = getattr(module, flavor.module)
        self.void = module.type_void()
        self.known: dict[int, Ref] = {int(self.void): Ref("OpTypeVoid", id=int(self.void))}
        self.none_id: Id | None = None
        self.empty_expression: Expression | None = None
        self.sources: dict[tuple[str, str | None], Source] = {}
        self.unit: CompileUnit | None = None
        self.defined: set[int] = set()

    @property
    def module(self) -> Module:
        """The module written to."""
        module = self._module()
        if module is None:
            raise DebugInfoError("the module of this debug-info layer no longer exists")
        return module

    # -- operands made here ---------------------------------------------------------------
    def none(self) -> Id:
        """The module's one DebugInfoNone of this set."""
        if self.none_id is None:
            self.none_id = Id(self.group.debug_info_none(self.void))
            self.known[int(self.none_id)] = Ref("DebugInfoNone", id=int(self.none_id))
        return self.none_id

    def string(self, text: str) -> Id:
        """An OpString (hash-consed by the module)."""
        sid = self.module.string(text)
        self.known[int(sid)] = Ref("OpString", text, id=int(sid))
        return sid

    def constant(self, value: int, where: str = "") -> Id:
        """An integer OpConstant: 32-bit unsigned, 64-bit when it does not fit (in sets
        whose numbers may be wider than 32 bits); a negative value is written as its two's
        complement."""
        wide = not -(2**31) <= value < 2**32
        limit = self.flavor.number_bits
        if not -(2 ** (limit - 1)) <= value < 2**limit:
            raise DebugInfoError(
                f"{where}: {value} does not fit the {limit}-bit integer OpConstant "
                f"{self.flavor.name} writes a number as"
            )
        bits = 64 if wide else 32
        word = value & ((1 << bits) - 1)
        cid = self.module.constant(self.module.type_int(bits, 0), word)
        ref = Ref("OpConstant", value, id=int(cid), integral=True, int_type=(bits, 0))
        self.known[int(cid)] = ref
        return cid

    def check_call(
        self, number: int, result_type: object, operands: tuple[object, ...], result_id: object
    ) -> None:
        """The rules on one instruction of this set made by a generated method, at the call
        (registered with :meth:`~spvbuild.ir.module.Module.add_set_check`); values that are
        no ids are left to the encoder, which names them."""
        if self._writing or not isinstance(result_type, int) or isinstance(result_type, bool):
            return
        module = self.module
        rid = result_id if isinstance(result_id, int) else module._bound
        inst = Instruction(OP_EXT_INST, result_type, rid, (0, number, *operands), self.flavor.name)
        local = number in self.flavor.function_instructions and module.current_block is not None
        rules.check_one(self.flavor, inst, local, self.describe, module.definition)

    # -- the one generic emit ---------------------------------------------------------------
    def emit(
        self, instruction: str, values: Mapping[str, object], *, result_id: Id | None = None
    ) -> Id:
        """Emit ``instruction`` of this set from operand values keyed by parameter name."""
        flavor = self.flavor
        if not flavor.has(instruction):
            raise DebugInfoError(f"{flavor.name} has no {instruction}")
        where = f"{flavor.name} {instruction}"
        info = flavor.by_name[instruction]
        if info.opcode in flavor.function_instructions:
            in_function = self.module.current_block is not None
            rules.check_placement(flavor, instruction, in_function, where)
        args: list[object] = []
        refs: dict[str, list[Ref]] = {}
        taken: set[str] = set()
        for param, operand in flavor.parameters(instruction):
            if param in taken:
                args.append(() if operand.quantifier == "*" else None)
                refs[operand.name] = []
                continue
            value = self._value(values, param, operand, where)
            arg, operand_refs = self._convert(operand, value, values, taken, where)
            args.append(arg)
            refs[operand.name] = operand_refs
        _refuse_unused(flavor, instruction, values, taken, where)
        rules.check_instruction(flavor, instruction, refs, where)
        method: Callable[..., Id] = getattr(self.group, method_name(instruction))
        self._writing = True
        try:
            return Id(method(self.void, *args, result_id=result_id))
        finally:
            self._writing = False

    @staticmethod
    def _value(
        values: Mapping[str, object], param: str, operand: OperandInfo, where: str
    ) -> object:
        for name in (param, *ALIASES.get(param, ())):
            if name in values:
                return values[name]
        if operand.quantifier == "*":
            return ()
        if operand.quantifier == "?" or operand.kind == "IdRef" and param not in DEFAULTS:
            return None
        if param in DEFAULTS:
            return DEFAULTS[param]
        raise DebugInfoError(f"{where}: no value for operand '{operand.name}'")

    def _convert(
        self,
        operand: OperandInfo,
        value: object,
        values: Mapping[str, object],
        taken: set[str],
        where: str,
    ) -> tuple[object, list[Ref]]:
        """The argument for ``operand`` (a variadic one's items each in turn) and what it
        refers to."""
        if operand.quantifier == "*":
            if not isinstance(value, Sequence) or isinstance(value, str):
                raise DebugInfoError(f"{where} operand '{operand.name}' takes a sequence")
            item = operand._replace(quantifier="")
            pairs = [self._convert(item, element, values, taken, where) for element in value]
            return tuple(arg for arg, _ in pairs), [ref for _, refs in pairs for ref in refs]
        if value is None and operand.quantifier == "?":
            return None, []
        kind = operand.kind
        if kind == "PairIdRefIdRef":
            if not isinstance(value, tuple) or len(value) != 2:
                raise DebugInfoError(f"{where} operand '{operand.name}' takes (value, name) pairs")
            first, first_refs = self._id(value[0], where)
            second, second_refs = self._id(value[1], where)
            return (first, second), first_refs + second_refs
        if kind == "IdRef":
            return self._id(value, where)
        number = self.number(value, where)
        set_kind = self.flavor.kinds.get(kind)
        if set_kind is None:  # LiteralInteger, or a core kind (StorageClass, SourceLanguage)
            core = core_tables.KINDS.get(kind)
            if core is not None and core.enumerants and isinstance(value, int | Enum):
                return _member(_core_enum(kind), number), [Ref(None, number)]
            return number, [Ref(None, number)]
        enum_class = self.flavor.tables.ENUM_CLASSES[kind]
        parameter_class = self.flavor.tables.PARAMETER_CLASSES.get(kind, {}).get(number)
        if parameter_class is None:
            # a number outside the table stays a number: the rules refuse it, citing it
            return _member(enum_class, number), [Ref(None, number)]
        raw = values.get("operands") or ()
        extra = tuple(self.number(x, where) for x in raw) if isinstance(raw, Sequence) else ()
        taken.add("operands")
        try:
            return parameter_class(*extra), [Ref(None, number, params=len(extra))]
        except TypeError:  # wrong count: the operation rule reports it before emitting
            return enum_class(number), [Ref(None, number, params=len(extra))]

    def _id(self, value: object, where: str) -> tuple[Id, list[Ref]]:
        if value is None:
            none = self.none()
            return none, [Ref("DebugInfoNone", id=int(none))]
        if isinstance(value, Handle):
            if value.set_name != self.flavor.name:
                raise DebugInfoError(
                    f"{where}: %{int(value.id)} is a {value.set_name} {value.kind}, but this "
                    f"instruction's Set is {self.flavor.name}",
                    SET,
                )
            tag = value.tag if isinstance(value, Composite) else None
            return value.id, [Ref(value.kind, tag=tag, id=int(value.id))]
        if isinstance(value, Id):
            return value, [self.describe(value)]
        if isinstance(value, str):
            sid = self.string(value)
            return sid, [self.known[int(sid)]]
        if isinstance(value, bool):
            raise DebugInfoError(f"{where}: {value!r} is not an operand value")
        if isinstance(value, int | Enum):
            cid = self.constant(self.number(value, where), where)
            return cid, [self.known[int(cid)]]
        raise DebugInfoError(f"{where}: cannot use {value!r} as an operand")

    def describe(self, result_id: int) -> Ref:
        """What ``result_id`` is: known to the writer, or looked up in the module."""
        known = self.known.get(int(result_id))
        if known is not None:
            return known
        return rules.describe(int(result_id), self.module.definition)

    def number(self, value: object, where: str) -> int:
        """An int or enum member as a number of this set (enums are matched by name)."""
        if isinstance(value, Enum):
            kind_name = KIND_OF.get(type(value)) or type(value).__name__
            kind = self.flavor.kinds.get(kind_name)
            if kind is None:
                return int(value.value)  # a core enum (StorageClass, SourceLanguage)
            by_name = {e.name: v for v, e in kind.enumerants.items()}
            names = _flag_names(value) if isinstance(value, IntFlag) else [value.name]
            total = 0
            for name in names:
                if isinstance(name, int):  # a bit no vocabulary member names: the rules say
                    total |= name
                    continue
                name = name.rstrip("_")
                if name not in by_name:
                    raise DebugInfoError(
                        f"{where}: {self.flavor.name} has no {kind_name}.{name}",
                        ENUM_TABLES.get(kind_name, ENUMERANT),
                    )
                total |= by_name[name]
            return total
        if isinstance(value, int):
            return int(value)
        raise DebugInfoError(f"{where}: expected a number, got {value!r}")


def _refuse_unused(
    flavor: Flavor, instruction: str, values: Mapping[str, object], taken: set[str], where: str
) -> None:
    """A value given for an operand ``instruction`` does not have in ``flavor`` would be
    dropped: refused, unless it says nothing (None, empty, the operand's default)."""
    known = set(taken)
    for param, _operand in flavor.parameters(instruction):
        known.add(param)
        known.update(ALIASES.get(param, ()))
    for key, value in values.items():
        if key in known or value is None or key in DEFAULTS and value == DEFAULTS[key]:
            continue
        if isinstance(value, Sequence) and not isinstance(value, str) and not value:
            continue
        shown = f"{value.kind} %{int(value.id)}" if isinstance(value, Handle) else repr(value)
        raise DebugInfoError(
            f"{where} has no operand for '{key}' (given {shown}), so the fact would be "
            "lost; its operands: "
            f"{', '.join(op.name for _, op in flavor.parameters(instruction)) or 'none'}"
        )


def _member(enum_class: Callable[[int], Enum] | None, number: int) -> object:
    """``number`` as a member of ``enum_class`` when it is one, else the number itself."""
    if enum_class is None:
        return number
    try:
        return enum_class(number)
    except ValueError:
        return number


def _flag_names(value: IntFlag) -> list[str | int]:
    """The names of the vocabulary's bits set in ``value``; a bit it does not name, as is."""
    names: list[str | int] = []
    bits = int(value)
    bit = 1
    while bit <= bits:
        if bits & bit:
            member = type(value)(bit)
            names.append(bit if member.name is None else member.name)
        bit <<= 1
    return names


def _core_enum(kind: str) -> Callable[[int], Enum] | None:
    from spvbuild.generated.core import enums

    found = getattr(enums, kind, None)
    return found if isinstance(found, type) and issubclass(found, Enum) else None
