"""``grammars/type_rules.yaml``: the type rules, checked against the instructions and
resolved to what the generated table holds (opcodes, operand positions, enumerant values).

The schema has checked the keys and their types; this module checks what the schema cannot:
that every instruction and operand named exists, that each instruction has one rule, that a
reference names ``result`` (of an instruction that has one) or an operand of every
instruction of the rule, and that storage classes, decorations and sources are known.
Each problem is a :class:`~codegen.errors.GrammarError` at the file, line and column.
"""

from __future__ import annotations

from typing import Any

from codegen.errors import GrammarError, Mark
from codegen.model import ExtInstSet, Instruction, OperandKind, ResolvedRule, TypeRules
from codegen.yaml_source import YList, YMap

__all__ = ["TYPE_RULES_FILE", "load_type_rules"]

TYPE_RULES_FILE = "type_rules.yaml"
RESULT = -1  # a reference to the result type (spvbuild.spirv.tables.RESULT)
_REFERENCES = ("same", "like", "count_as", "width_as", "element_is", "pointer_to", "pointee_of")
_FORM_FACTS = ("width", "signedness", "component", "count", "members", "storage")


def _positions(instruction: Instruction) -> dict[str, int]:
    """Each operand after the result id by its name (an unnamed one by its kind)."""
    found: dict[str, int] = {}
    position = 0
    for operand in instruction.operands:
        if operand.kind in ("IdResultType", "IdResult"):
            continue
        found.setdefault(operand.name or operand.kind, position)
        position += 1
    return found


def _has_result_type(instruction: Instruction) -> bool:
    return any(o.kind == "IdResultType" for o in instruction.operands)


def _value(kinds: dict[str, OperandKind], kind: str, name: str, mark: Mark, key: str) -> int:
    """The value of enumerant ``name`` of ``kind`` (GrammarError if there is none)."""
    for enumerant in kinds[kind].enumerants:
        if name in (enumerant.name, *enumerant.aliases):
            return int(enumerant.value)
    raise GrammarError(mark, key, f"an enumerant of {kind}", repr(name))


def load_type_rules(
    raw: YMap,
    instructions: dict[str, Instruction],
    kinds: dict[str, OperandKind],
    ext_sets: dict[str, ExtInstSet] | None = None,
) -> TypeRules:
    """Check and resolve the parsed ``type_rules.yaml`` (``instructions`` by name, the
    extended sets by import name)."""
    sources = {str(k): str(v) for k, v in raw["sources"].items()}

    def instruction(name: str, mark: Mark, key: str) -> Instruction:
        found = instructions.get(name)
        if found is None:
            raise GrammarError(mark, key, "a core instruction", repr(name))
        return found

    def source(item: YMap, mark: Mark) -> str:
        if item["source"] not in sources:
            raise GrammarError(mark, "source", "a key of sources", repr(item["source"]))
        return str(item["source"])

    forms: list[tuple[int, str, str, dict[str, int]]] = []
    listed: YList = raw["types"]
    for index, item in enumerate(listed):
        mark = listed.mark_of(index)
        declared = instruction(item["instruction"], mark, "instruction")
        if declared.cls != "Type-Declaration":
            raise GrammarError(mark, "instruction", "a type declaration", repr(declared.name))
        positions = _positions(declared)
        facts: dict[str, int] = {}
        for fact in _FORM_FACTS:
            if fact in item:
                if item[fact] not in positions:
                    raise GrammarError(
                        mark, fact, f"an operand of {declared.name}", repr(item[fact])
                    )
                facts[fact] = positions[item[fact]]
        forms.append((declared.opcode, declared.name, str(item["category"]), facts))

    read_only = []
    listed = raw["read_only"]
    for index, item in enumerate(listed):
        mark = listed.mark_of(index)
        source(item, mark)
        decorated = item.get("decorated")
        read_only.append(
            (
                _value(kinds, "StorageClass", item["storage"], mark, "storage"),
                str(item["storage"]),
                None if decorated is None else _value(kinds, "Decoration", decorated, mark, "decorated"),
                "" if decorated is None else str(decorated),
                item.get("family"),
            )
        )

    rules: list[ResolvedRule] = []
    seen: dict[str, str] = {}
    listed = raw["rules"]
    for index, item in enumerate(listed):
        mark = listed.mark_of(index)
        rule_source = source(item, mark)
        names: YList = item["instructions"]
        for position, name in enumerate(names):
            where = names.mark_of(position)
            if name in seen:
                raise GrammarError(
                    where, "instructions", f"an instruction in one rule (also in {seen[name]!r})",
                    repr(name),
                )
            seen[name] = item["name"]
            rules.append(_resolve(item, instruction(name, where, "instructions"), rule_source))
    ext_results: list[tuple[str, int, str, str]] = []
    listed = raw.get("ext_results") or YList()
    for index, item in enumerate(listed):
        mark = listed.mark_of(index)
        source(item, mark)
        found_set = (ext_sets or {}).get(item["set"])
        if found_set is None:
            raise GrammarError(mark, "set", "the import name of an extended set", repr(item["set"]))
        numbers = {i.name: i.opcode for i in found_set.instructions}
        for how in ("like_first", "component_of_first"):
            listed_names: YList = item.get(how) or YList()
            for position, name in enumerate(listed_names):
                if name not in numbers:
                    raise GrammarError(
                        listed_names.mark_of(position), how, f"an instruction of {item['set']}", repr(name)
                    )
                ext_results.append((str(item["set"]), numbers[name], str(name), how))
    return TypeRules(sources, forms, read_only, rules, ext_results)


def _resolve(item: YMap, instruction: Instruction, source: str) -> ResolvedRule:
    """The rule ``item`` for one of its instructions, its names turned into positions."""
    positions = _positions(instruction)
    has_result = _has_result_type(instruction)

    def position(name: str, where: Mark, key: str) -> int:
        if name == "result":
            if not has_result:
                raise GrammarError(
                    where, key, f"an operand of {instruction.name} (it has no result type)",
                    "result",
                )
            return RESULT
        if name not in positions:
            raise GrammarError(where, key, f"result or an operand of {instruction.name}", repr(name))
        return positions[name]

    def constraint(raw: YMap, where: Mark) -> dict[str, Any]:
        resolved: dict[str, Any] = {}
        for key, value in raw.items():
            if key in _REFERENCES:
                if key == "pointee_of" and value == "result":
                    raise GrammarError(where, key, "an operand's name", "result")
                resolved[key] = position(str(value), raw.mark_of(key), key)
            else:
                resolved["is_" if key == "is" else key] = value
        return resolved

    result = None
    if "result" in item:
        if not has_result:
            raise GrammarError(
                item.mark_of("result"), "result", f"no result (of {instruction.name})"
            )
        result = constraint(item["result"], item.mark_of("result"))
    operands: list[tuple[int, str, dict[str, Any]]] = []
    listed: YMap = item.get("operands") or YMap()
    for name in listed:
        where = listed.mark_of(name)
        operands.append((position(name, where, "operands"), name, constraint(listed[name], where)))
    indexes = None
    if "indexes" in item:
        relation = item["indexes"]
        where = item.mark_of("indexes")
        indexes = (
            position(relation["composite"], where, "composite"),
            position(relation["indexes"], where, "indexes"),
        )
    shuffle = None
    if "shuffle" in item:
        relation = item["shuffle"]
        where = item.mark_of("shuffle")
        shuffle = (
            position(relation["first"], where, "first"),
            position(relation["second"], where, "second"),
            position(relation["components"], where, "components"),
        )
    return ResolvedRule(
        instruction.opcode, instruction.name, str(item["name"]), source, result, operands,
        indexes, shuffle,
    )
