"""Imports and exports: the symbols a merged module's ``LinkageAttributes`` decorations
declare, each import paired with the export of its name, and the pairs resolved.

A symbol is a global ``OpVariable`` (its type: the variable's pointer type) or an
``OpFunction`` (its type: the function type) decorated ``LinkageAttributes "name"
Import|Export|LinkOnceODR`` by an ``OpDecorate``; an id also decorated ``BuiltIn`` is no
symbol.  An import pairs with the one export of its name, or with the first (in module
order) of the ``LinkOnceODR`` exports of its name (SPV_KHR_linkonce_odr: several modules
may define it, the definitions alike, and one is taken; the others stay, unused); a name
is exported one way or the other, never both.  An import and its export's types must be
the same id once the
merged module's duplicate types are merged (:mod:`spvbuild.passes.dedup`: the same
declaration, the same decorations), and their decorations the same, ``LinkageAttributes``
aside (through decoration groups too).

Resolving a pair removes the import (a function declaration with its parameters, or a
variable) with its names and decorations; every use of it then names the export (the
renaming left to the caller, who renames every instruction once).  A decoration group
left with no target loses its ``OpGroupDecorate``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from spvbuild.errors import LinkError
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Decoration, LinkageType
from spvbuild.generated.core.opcodes import (
    OP_DECORATE,
    OP_DECORATION_GROUP,
    OP_ENTRY_POINT,
    OP_GROUP_DECORATE,
    OP_VARIABLE,
)
from spvbuild.passes.ids import is_targeting
from spvbuild.passes.program import Layout, opcode_name
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["Symbol", "Symbols", "check", "find", "pair", "resolve"]

_ANNOTATIONS = frozenset(
    opcode for opcode, info in tables.INSTRUCTIONS.items() if info.section == "annotations"
)


@dataclass(frozen=True, slots=True)
class Symbol:
    """One import or export.

    Fields: ``name`` (the LinkageAttributes name), ``linkage`` (``LinkageType.Import``,
    ``Export`` or ``LinkOnceODR``), ``id (the variable or function), ``type_id`` (its type: the variable's
    pointer type, the function's function type), ``module`` (the name of the input that
    declared it), ``parameters`` (a function's parameter ids; empty for a variable),
    ``decoration`` (the ``OpDecorate`` that declares it).
    """

    name: str
    linkage: LinkageType
    id: int
    type_id: int
    module: str
    parameters: tuple[int, ...]
    decoration: Instruction


@dataclass(slots=True)
class Symbols:
    """A merged module's symbols: ``imports`` (in module order) and ``exports`` (name →
    every export of that name, in module order, ``LinkOnceODR`` ones too)."""

    imports: list[Symbol]
    exports: dict[str, list[Symbol]]


def linkage_of(inst: Instruction) -> tuple[str, LinkageType] | None:
    """The (name, linkage type) an ``OpDecorate ... LinkageAttributes`` declares, else None."""
    if inst.opcode != OP_DECORATE or len(inst.operands) < 2:
        return None
    value = inst.operands[1]
    if (
        not isinstance(value, EnumerantParameters)
        or value.enumerant is not Decoration.LinkageAttributes
    ):
        return None
    name, linkage = value.parameters[:2]
    if not isinstance(name, str) or not isinstance(linkage, LinkageType):
        return None
    return name, linkage


def _builtins(head: list[Instruction]) -> set[int]:
    """The ids decorated ``BuiltIn``."""
    found = set()
    for inst in head:
        if inst.opcode == OP_DECORATE and len(inst.operands) >= 2:
            value = inst.operands[1]
            if isinstance(value, EnumerantParameters) and value.enumerant == Decoration.BuiltIn:
                found.add(int(inst.operands[0]))
    return found


def find(layout: Layout, origin: Callable[[int], tuple[str, int]]) -> Symbols:
    """The symbols of ``layout``; ``origin`` gives the input of an id (its name) and the
    id it has there.  LinkError for a LinkageAttributes on an id that is neither a global
    variable nor a function, one never defined, or one given through a decoration group."""
    variables = {
        int(i.result_id): i
        for i in layout.head
        if i.opcode == OP_VARIABLE and i.result_id is not None
    }
    groups = {
        int(i.result_id)
        for i in layout.head
        if i.opcode == OP_DECORATION_GROUP and i.result_id is not None
    }
    defined = {int(i.result_id): i for i in layout.head if i.result_id is not None}
    functions = {f.id: f for f in layout.functions}
    builtins = _builtins(layout.head)
    imports: list[Symbol] = []
    exports: dict[str, list[Symbol]] = defaultdict(list)
    for inst in layout.head:
        found = linkage_of(inst)
        if found is None:
            continue
        name, linkage = found
        target = int(inst.operands[0])
        if target in builtins:
            continue
        module, local = origin(target)
        if target in groups:
            raise LinkError(
                f"{module}: LinkageAttributes {name!r} is given through the decoration group "
                f"%{local}: decorate the variable or function itself",
                symbol=name,
                module=module,
            )
        function = functions.get(target)
        if function is not None:
            start = function.start[0]
            type_id = int(start.operands[1]) if len(start.operands) >= 2 else 0
            parameters = tuple(
                int(p.result_id) for p in function.start[1:] if p.result_id is not None
            )
        elif target in variables and variables[target].result_type is not None:
            type_id, parameters = int(variables[target].result_type or 0), ()
        else:
            what = defined.get(target)
            raise LinkError(
                f"{module}: LinkageAttributes {name!r} decorates %{local}, "
                + (
                    f"an {opcode_name(what.opcode)}"
                    if what is not None
                    else "which is never defined"
                )
                + ": only global variables and functions are imported or exported",
                symbol=name,
                module=module,
            )
        symbol = Symbol(name, linkage, target, type_id, module, parameters, inst)
        if linkage == LinkageType.Import:
            imports.append(symbol)
        elif linkage in (LinkageType.Export, LinkageType.LinkOnceODR):
            exports[name].append(symbol)
    return Symbols(imports, dict(exports))


def pair(symbols: Symbols, *, allow_partial_linkage: bool) -> list[tuple[Symbol, Symbol]]:
    """Each import with the export of its name (the first LinkOnceODR one).  LinkError for
    a name exported both ``Export`` and ``LinkOnceODR``, an import no module exports
    (unless ``allow_partial_linkage``: it stays an import) and one whose name is exported
    more than once (``Export``)."""
    for name, exported in symbols.exports.items():
        once = [e for e in exported if e.linkage == LinkageType.LinkOnceODR]
        if once and len(once) < len(exported):
            plain = next(e for e in exported if e.linkage != LinkageType.LinkOnceODR)
            raise LinkError(
                f"{name!r} is exported by {plain.module} and exported LinkOnceODR by "
                f"{once[0].module}: a name is exported one way or the other",
                symbol=name,
                module=once[0].module,
            )
    pairs = []
    for imported in symbols.imports:
        candidates = symbols.exports.get(imported.name, [])
        if candidates and candidates[0].linkage == LinkageType.LinkOnceODR:
            candidates = candidates[:1]
        if len(candidates) > 1:
            raise LinkError(
                f"{imported.module} imports {imported.name!r}, which is exported "
                f"{len(candidates)} times: by {', '.join(c.module for c in candidates)}",
                symbol=imported.name,
                module=candidates[1].module,
            )
        if candidates:
            pairs.append((imported, candidates[0]))
        elif not allow_partial_linkage:
            raise LinkError(
                f"{imported.module} imports {imported.name!r}, which no module exports "
                "(partial linkage, allow_partial_linkage=True or --allow-partial-linkage, keeps it an import)",
                symbol=imported.name,
                module=imported.module,
            )
    return pairs


def _decorations(head: list[Instruction]) -> dict[int, set[tuple[object, ...]]]:
    """Each id → its decorations (LinkageAttributes aside), each as its opcode and its
    operands after the target; a group's decorations count for every id it decorates."""
    out: dict[int, set[tuple[object, ...]]] = defaultdict(set)
    for inst in head:
        if inst.opcode in _ANNOTATIONS and is_targeting(inst) and inst.opcode != OP_GROUP_DECORATE:
            if linkage_of(inst) is None:
                out[int(inst.operands[0])].add((inst.opcode, *inst.operands[1:]))
    for inst in head:
        if inst.opcode == OP_GROUP_DECORATE and len(inst.operands) == 2:
            applied = out.get(int(inst.operands[0]), set())
            for target in inst.operands[1]:
                out[int(target)] |= applied
    return out


def describe(type_id: int, defined: dict[int, Instruction], depth: int = 4) -> str:
    """A type as its declaration spells it, its operand types inside, a constant as its
    value and type: ``Pointer(Private, Int(32, 1))``, ``Array(Float(32), 4: Int(32, 0))``."""
    inst = defined.get(type_id)
    if inst is None:
        return f"%{type_id}"
    if depth == 0:
        return "..."
    parts = [_operand(v, defined, depth) for v in inst.operands if v is not None]
    if inst.result_type is not None:  # a constant
        return f"{', '.join(parts) or opcode_name(inst.opcode)}: {describe(int(inst.result_type), defined, depth - 1)}"
    name = opcode_name(inst.opcode).removeprefix("OpType")
    return f"{name}({', '.join(parts)})" if parts else name


def _operand(value: object, defined: dict[int, Instruction], depth: int) -> str:
    if isinstance(value, Id):
        return describe(int(value), defined, depth - 1)
    if isinstance(value, tuple | list) and not isinstance(value, RawWords):
        return ", ".join(_operand(v, defined, depth) for v in value)
    return str(getattr(value, "name", value))


def check(pairs: list[tuple[Symbol, Symbol]], head: list[Instruction]) -> None:
    """LinkError for a pair whose types or decorations differ."""
    decorations = _decorations(head)
    defined = {int(i.result_id): i for i in head if i.result_id is not None}
    for imported, exported in pairs:
        if imported.type_id != exported.type_id:
            mine, theirs = describe(imported.type_id, defined), describe(exported.type_id, defined)
            differ = " (types whose decorations differ)" if mine == theirs else ""
            raise LinkError(
                f"{imported.name!r} is imported by {imported.module} as {mine} but exported by "
                f"{exported.module} as {theirs}{differ}",
                symbol=imported.name,
                module=imported.module,
            )
        mine_set, theirs_set = (
            decorations.get(imported.id, set()),
            decorations.get(exported.id, set()),
        )
        if mine_set != theirs_set:
            only_import = "; ".join(sorted(_spell(d[1:]) for d in mine_set - theirs_set)) or "none"
            only_export = "; ".join(sorted(_spell(d[1:]) for d in theirs_set - mine_set)) or "none"
            raise LinkError(
                f"{imported.name!r} is decorated otherwise where {imported.module} imports it "
                f"(only there: {only_import}) than where {exported.module} exports it (only "
                f"there: {only_export})",
                symbol=imported.name,
                module=imported.module,
            )


def _spell(values: tuple[object, ...]) -> str:
    """A decoration's operands as the assembly spells them: ``Binding 0``."""
    words = []
    for value in values:
        if isinstance(value, EnumerantParameters):
            words.append(
                " ".join(
                    [str(getattr(value.enumerant, "name", value.enumerant))]
                    + [_spell((p,)) for p in value.parameters]
                )
            )
        elif isinstance(value, Id):
            words.append(f"%{int(value)}")
        elif isinstance(value, str):
            words.append(f'"{value}"')
        else:
            words.append(str(getattr(value, "name", value)))
    return " ".join(words)


def resolve(
    layout: Layout, pairs: list[tuple[Symbol, Symbol]], *, keep_exports: bool, keep_imports: bool
) -> tuple[Layout, dict[int, int]]:
    """``layout`` without each pair's import (see the module's docstring), and the map of
    each import to its export, to be applied to every instruction left; without
    ``keep_exports``, every export's LinkageAttributes goes too (LinkOnceODR ones too);
    without ``keep_imports``, every import's that is left (a ``BuiltIn``'s, no symbol)."""
    replaced = {imported.id: exported.id for imported, exported in pairs}
    removed = set(replaced)
    for imported, _ in pairs:
        removed.update(imported.parameters)

    def kept(inst: Instruction) -> bool:
        if is_targeting(inst) and int(inst.operands[0]) in removed:
            return False
        if inst.result_id is not None and int(inst.result_id) in removed:
            return False
        found = linkage_of(inst)
        if found is not None:
            if found[1] != LinkageType.Import and not keep_exports:
                return False
            if found[1] == LinkageType.Import and not keep_imports:
                return False
        return True

    head = [
        left
        for inst in layout.head
        if kept(inst) and (left := _without_removed(inst, removed)) is not None
    ]
    functions = [f for f in layout.functions if f.id not in removed]
    return Layout(head, functions), replaced


def _without_removed(inst: Instruction, removed: set[int]) -> Instruction | None:
    """A group decoration without the removed ids among its targets (None when it had
    targets and none is left)."""
    if inst.opcode == OP_GROUP_DECORATE and len(inst.operands) == 2:
        targets = tuple(t for t in inst.operands[1] if int(t) not in removed)
        if len(targets) == len(inst.operands[1]):
            return inst
        if not targets:
            return None
        return inst._replace(operands=(inst.operands[0], targets))
    return inst


def without_repeats(inst: Instruction) -> Instruction:
    """An entry point whose interface lists each id once (an import and its export may
    both have been listed)."""
    if inst.opcode == OP_ENTRY_POINT and len(inst.operands) == 4:
        interface = tuple(dict.fromkeys(inst.operands[3]))
        if len(interface) != len(inst.operands[3]):
            return inst._replace(operands=(*inst.operands[:3], interface))
    return inst
