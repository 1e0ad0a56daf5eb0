"""Load, validate and merge every grammar file under ``grammars/`` into a :class:`Grammar`.

Order of work: each file is parsed (:mod:`codegen.yaml_source`), checked against the
written schema (:mod:`codegen.schema`), turned into model objects, and then the merged
model is checked for consistency: duplicate names, opcodes and values, references to
unknown operand kinds, capabilities, extensions and instructions.  Every problem is a
:class:`GrammarError` naming ``file:line:col`` and the key.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from codegen.errors import GrammarError, Mark
from codegen.model import (
    ANY_VERSION,
    AssemblerEnv,
    Enumerant,
    Erratum,
    Extension,
    ExtensionNote,
    ExtInstSet,
    Grammar,
    Instruction,
    LayoutSection,
    Operand,
    OperandKind,
    ResultTypeCapability,
    Rule,
    TargetEnv,
    TargetRuleData,
    TypeCapability,
)
from codegen.names_check import check_names
from codegen.schema import SchemaChecker, load_schema
from codegen.type_rules import TYPE_RULES_FILE, load_type_rules
from codegen.yaml_source import YList, YMap, load_yaml

GRAMMARS_DIR = Path(__file__).resolve().parent.parent / "grammars"
CORE_FILE = "core.yaml"
BIT_ENUM_EXCEPTIONS = {("DebugInfoFlags", "FlagIsPublic"): 3}
"""BitEnum values that are not a single bit: DebugInfo's FlagIsPublic is FlagIsProtected |
FlagIsPrivate (the DebugInfo specifications define it so)."""
ERRATA_FILE = "errata.yaml"
TARGET_ENVS_FILE = "target_envs.yaml"
EXTENSION_NAME_RE = re.compile(r"SPV_[A-Za-z0-9_]+")


def grammar_files(root: Path) -> list[str]:
    """Every grammar file (relative to ``root``) in the order the loader reads them."""
    files = [CORE_FILE]
    files += sorted(f"extinst/{p.name}" for p in (root / "extinst").glob("*.yaml"))
    files += sorted(f"extensions/{p.name}" for p in (root / "extensions").glob("*.yaml"))
    if (root / ERRATA_FILE).exists():
        files.append(ERRATA_FILE)
    if (root / TARGET_ENVS_FILE).exists():
        files.append(TARGET_ENVS_FILE)
    if (root / TYPE_RULES_FILE).exists():
        files.append(TYPE_RULES_FILE)
    return files


def _operands(raw: YList | None) -> list[Operand]:
    if raw is None:
        return []
    result = []
    for index, item in enumerate(raw):
        result.append(
            Operand(
                kind=item["kind"],
                name=item.get("name", ""),
                quantifier=item.get("quantifier", ""),
                mark=raw.mark_of(index),
            )
        )
    return result


def _strings(raw: YMap, key: str) -> list[str]:
    return [str(v) for v in raw.get(key, [])]


class _Loader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.checker = SchemaChecker(load_schema(root / "schema.yaml"))
        self.import_name_marks: dict[str, Mark] = {}  # ext-inst file -> its import_name value
        self.python_name_marks: dict[str, Mark] = {}  # ext-inst file -> its python_name value

    # -- reading --------------------------------------------------------------------------
    def read(self, relative: str) -> YMap:
        record = self.checker.schema.record_for(relative)
        if record is None:
            raise GrammarError(
                Mark(relative, 1, 1), "-", "a file matching a pattern in schema.yaml"
            )
        raw = load_yaml(self.root / relative, display_name=relative)
        self.checker.check_file(raw, record, Mark(relative, 1, 1))
        assert isinstance(raw, YMap)
        return raw

    def enumerant(
        self, name: str, raw: YMap, file: str, mark: Mark, default_version: str
    ) -> Enumerant:
        return Enumerant(
            name=name,
            value=raw["value"],
            parameters=_operands(raw.get("parameters")),
            capabilities=_strings(raw, "capabilities"),
            extensions=_strings(raw, "extensions"),
            version=raw.get("version", default_version),
            last_version=raw.get("last_version"),
            aliases=_strings(raw, "aliases"),
            provisional=bool(raw.get("provisional", False)),
            doc=raw.get("doc", ""),
            file=file,
            mark=mark,
        )

    def operand_kind(
        self, name: str, raw: YMap, file: str, mark: Mark, default_version: str
    ) -> OperandKind:
        enumerants_raw: YMap = raw.get("enumerants") or YMap()
        enumerants = [
            self.enumerant(e, enumerants_raw[e], file, enumerants_raw.mark_of(e), default_version)
            for e in enumerants_raw
        ]
        return OperandKind(
            name=name,
            category=raw["category"],
            doc=raw.get("doc", ""),
            bases=_strings(raw, "bases"),
            enumerants=enumerants,
            file=file,
            mark=mark,
        )

    def instruction(
        self, name: str, raw: YMap, file: str, mark: Mark, default_version: str
    ) -> Instruction:
        return Instruction(
            name=name,
            opcode=raw["opcode"],
            cls=raw.get("class", ""),
            operands=_operands(raw.get("operands")),
            capabilities=_strings(raw, "capabilities"),
            extensions=_strings(raw, "extensions"),
            version=raw.get("version", default_version),
            last_version=raw.get("last_version"),
            aliases=_strings(raw, "aliases"),
            provisional=bool(raw.get("provisional", False)),
            doc=raw.get("doc", ""),
            file=file,
            mark=mark,
        )

    # -- the whole tree -------------------------------------------------------------------
    def load(self) -> Grammar:
        files = grammar_files(self.root)
        if not (self.root / CORE_FILE).exists():
            raise GrammarError(Mark(CORE_FILE, 1, 1), "-", "grammars/core.yaml to exist")
        core = self.read(CORE_FILE)
        instructions: dict[str, Instruction] = {}
        kinds: dict[str, OperandKind] = {}
        enumerant_homes: dict[tuple[str, str], Mark] = {}

        def add_instruction(inst: Instruction) -> None:
            if inst.name in instructions:
                first = instructions[inst.name].mark
                raise GrammarError(
                    inst.mark, inst.name, f"a new instruction name (already defined at {first})"
                )
            instructions[inst.name] = inst

        def add_kind(kind: OperandKind) -> None:
            if kind.name in kinds:
                first = kinds[kind.name].mark
                raise GrammarError(
                    kind.mark, kind.name, f"a new operand kind (already defined at {first})"
                )
            kinds[kind.name] = kind
            for e in kind.enumerants:
                enumerant_homes[(kind.name, e.name)] = e.mark

        core_kinds: YMap = core["operand_kinds"]
        for name in core_kinds:
            add_kind(
                self.operand_kind(
                    name, core_kinds[name], CORE_FILE, core_kinds.mark_of(name), "1.0"
                )
            )
        core_insts: YMap = core["instructions"]
        for name in core_insts:
            add_instruction(
                self.instruction(name, core_insts[name], CORE_FILE, core_insts.mark_of(name), "1.0")
            )

        extensions: dict[str, Extension] = {}
        pending_enumerants: list[tuple[str, Mark, Enumerant]] = []
        depends_refs: list[tuple[str, Mark]] = []  # (extension named in depends, where)
        for relative in files:
            if not relative.startswith("extensions/"):
                continue
            raw = self.read(relative)
            name = raw["extension"]
            if name in extensions:
                first = extensions[name].file
                raise GrammarError(
                    raw.mark_of("extension"),
                    "extension",
                    f"a new extension name (already described in {first})",
                )
            expected_file = f"extensions/{name}.yaml"
            if relative != expected_file:
                raise GrammarError(
                    raw.value_mark_of("extension"),
                    "extension",
                    f"the extension named like its file ({Path(relative).stem})",
                    repr(name),
                )
            ext = Extension(
                name=name,
                file=relative,
                core_in=raw.get("core_in"),
                requires_version=raw.get("requires_version"),
                depends=_strings(raw, "depends"),
                spec=raw.get("spec", ""),
                rules=self.rules(raw.get("rules"), relative),
                notes=self.notes(raw.get("notes")),
            )
            extensions[name] = ext
            depends_raw: YList = raw.get("depends") or YList()
            depends_refs += [(str(d), depends_raw.mark_of(i)) for i, d in enumerate(depends_raw)]
            ext_kinds: YMap = raw.get("operand_kinds") or YMap()
            for kname in ext_kinds:
                add_kind(
                    self.operand_kind(
                        kname, ext_kinds[kname], relative, ext_kinds.mark_of(kname), ANY_VERSION
                    )
                )
                ext.operand_kinds.append(kname)
            ext_insts: YMap = raw.get("instructions") or YMap()
            for iname in ext_insts:
                add_instruction(
                    self.instruction(
                        iname, ext_insts[iname], relative, ext_insts.mark_of(iname), ANY_VERSION
                    )
                )
                ext.instructions.append(iname)
            added: YMap = raw.get("enumerants") or YMap()
            for kname in added:
                group: YMap = added[kname]
                for ename in group:
                    e = self.enumerant(
                        ename, group[ename], relative, group.mark_of(ename), ANY_VERSION
                    )
                    pending_enumerants.append((kname, added.mark_of(kname), e))
                    ext.enumerants.append((kname, ename))

        for dep, dmark in depends_refs:
            if dep not in extensions:
                raise GrammarError(dmark, "depends", "a known extension", repr(dep))
        for kname, kmark, e in pending_enumerants:
            if kname not in kinds:
                raise GrammarError(
                    kmark, kname, "an operand kind defined in core.yaml or an extension file"
                )
            if not kinds[kname].is_enum:
                raise GrammarError(
                    kmark,
                    kname,
                    "an enum operand kind (ValueEnum or BitEnum)",
                    kinds[kname].category,
                )
            if (kname, e.name) in enumerant_homes:
                home = enumerant_homes[(kname, e.name)]
                raise GrammarError(
                    e.mark, e.name, f"a new {kname} enumerant (already defined at {home})"
                )
            enumerant_homes[(kname, e.name)] = e.mark
            kinds[kname].enumerants.append(e)
        for kind in kinds.values():
            kind.enumerants.sort(key=lambda en: en.value)

        ext_sets: dict[str, ExtInstSet] = {}
        for relative in files:
            if relative.startswith("extinst/"):
                s = self.ext_inst_set(relative)
                if s.import_name in ext_sets:
                    raise GrammarError(
                        self.import_name_marks[relative],
                        "import_name",
                        f"a new import name (already used by {ext_sets[s.import_name].file})",
                    )
                ext_sets[s.import_name] = s

        errata = self.errata() if ERRATA_FILE in files else []
        type_rules = (
            load_type_rules(self.read(TYPE_RULES_FILE), instructions, kinds, ext_sets)
            if TYPE_RULES_FILE in files
            else None
        )
        sources, target_envs, assembler_envs = (
            self.target_envs(kinds, instructions) if TARGET_ENVS_FILE in files else ({}, [], [])
        )
        layout = [
            LayoutSection(
                name=item["section"],
                doc=item.get("doc", ""),
                classes=_strings(item, "classes"),
                instructions=_strings(item, "instructions"),
            )
            for item in core["logical_layout"]
        ]
        grammar = Grammar(
            magic_number=core["magic_number"],
            major_version=core["major_version"],
            minor_version=core["minor_version"],
            revision=core["revision"],
            layout=layout,
            instruction_classes=[
                (c["tag"], c.get("heading", c["tag"])) for c in core.get("instruction_classes", [])
            ],
            instructions=sorted(instructions.values(), key=lambda i: (i.opcode, i.name)),
            operand_kinds=kinds,
            extensions=extensions,
            ext_inst_sets=ext_sets,
            errata=errata,
            target_envs=target_envs,
            target_env_sources=sources,
            assembler_envs=assembler_envs,
            files=files,
            block_terminators=_strings(core, "block_terminators"),
            dedup_classes=_strings(core["deduplicate"], "classes"),
            dedup_instructions=_strings(core["deduplicate"], "instructions"),
            dedup_never=_strings(core["deduplicate"], "never"),
            spec_constant_op_opcodes=_strings(core, "spec_constant_op_opcodes"),
            type_rules=type_rules,
            type_capabilities=[
                TypeCapability(
                    t["instruction"],
                    t["operand"],
                    t["value"],
                    t["capability"],
                    t.get("unless_operand"),
                )
                for t in core.get("type_capabilities", [])
            ],
            result_type_capabilities=[
                ResultTypeCapability(
                    _strings(t, "instructions"),
                    t["type"],
                    t["operand"],
                    t["value"],
                    t["capability"],
                    t["said"],
                    t["source"],
                )
                for t in core.get("result_type_capabilities", [])
            ],
        )
        _Consistency(grammar, core).check()
        check_names(grammar, self.python_name_marks)
        return grammar

    def notes(self, raw: YList | None) -> list[ExtensionNote]:
        if raw is None:
            return []
        return [
            ExtensionNote(
                item["title"],
                item["text"],
                item["source"],
                _strings(item, "instructions"),
                raw.mark_of(index),
            )
            for index, item in enumerate(raw)
        ]

    def rules(self, raw: YList | None, file: str) -> list[Rule]:
        if raw is None:
            return []
        rules = []
        for index, item in enumerate(raw):
            data = {
                k: _plain(v) for k, v in item.items() if k not in ("id", "check", "source", "text")
            }
            rules.append(
                Rule(
                    item["id"],
                    item["check"],
                    item["source"],
                    item["text"],
                    data,
                    raw.mark_of(index),
                )
            )
        return rules

    def ext_inst_set(self, relative: str) -> ExtInstSet:
        raw = self.read(relative)
        self.import_name_marks[relative] = raw.value_mark_of("import_name")
        self.python_name_marks[relative] = raw.value_mark_of("python_name")
        kinds_raw: YMap = raw.get("operand_kinds") or YMap()
        kinds = {
            k: self.operand_kind(k, kinds_raw[k], relative, kinds_raw.mark_of(k), ANY_VERSION)
            for k in kinds_raw
        }
        insts_raw: YMap = raw["instructions"]
        insts = []
        for name in insts_raw:
            body = insts_raw[name]
            insts.append(
                Instruction(
                    name=name,
                    opcode=body["opcode"],
                    cls="ExtInst",
                    operands=_operands(body.get("operands")),
                    capabilities=_strings(body, "capabilities"),
                    extensions=_strings(body, "extensions"),
                    version=ANY_VERSION,
                    last_version=None,
                    aliases=[],
                    provisional=False,
                    doc=body.get("doc", ""),
                    file=relative,
                    mark=insts_raw.mark_of(name),
                )
            )
        for kind in kinds.values():
            kind.enumerants.sort(key=lambda en: en.value)
        return ExtInstSet(
            import_name=raw["import_name"],
            python_name=raw["python_name"],
            file=relative,
            version=raw.get("version"),
            revision=raw.get("revision"),
            spec=raw.get("spec", ""),
            instructions=sorted(insts, key=lambda i: i.opcode),
            operand_kinds=kinds,
            section=raw.get("section", "functions"),
            function_instructions=_strings(raw, "function_instructions"),
            import_extensions=_strings(raw, "import_extensions"),
            import_core_in=raw.get("import_core_in"),
            import_prefix=raw.get("import_prefix"),
        )

    def target_envs(
        self, kinds: dict[str, OperandKind], instructions: dict[str, Instruction]
    ) -> tuple[dict[str, str], list[TargetEnv], list[AssemblerEnv]]:
        """The target environments (``target_envs.yaml``): names once, sources known,
        capabilities of the grammar's Capability kind, extensions named SPV_*, a validator
        that is another environment (of its own), rules by :meth:`target_rules`; then the
        names only the assembler knows (``assembler_only``), each a SPIR-V version."""
        raw = self.read(TARGET_ENVS_FILE)
        known = {
            name for e in kinds["Capability"].enumerants for name in (e.name, *e.aliases)
        }
        sources = {str(k): str(v) for k, v in raw["sources"].items()}
        envs: list[TargetEnv] = []
        seen: set[str] = set()
        for index, item in enumerate(raw["environments"]):
            mark = raw["environments"].mark_of(index)
            name = item["name"]
            if name in seen:
                raise GrammarError(mark, "name", "a target env named once", repr(name))
            seen.add(name)
            if item["source"] not in sources:
                raise GrammarError(mark, "source", "a key of sources", repr(item["source"]))
            everything = bool(item.get("everything", False))
            if everything == ("capabilities" in item):
                raise GrammarError(
                    mark, "capabilities", "either everything: true or a capabilities list"
                )
            for key, ok, what in (
                ("capabilities", known.__contains__, "a Capability of the grammar"),
                ("extensions", EXTENSION_NAME_RE.fullmatch, "an extension name SPV_*"),
            ):
                values = item.get(key)
                for position, value in enumerate(values or ()):
                    if not ok(value):
                        raise GrammarError(values.mark_of(position), key, what, repr(value))
            forbids: list[tuple[str, str, str, str]] = []
            listed = item.get("forbids")
            for position, forbidden in enumerate(listed or ()):
                kind = kinds.get(forbidden["kind"])
                names = {n for e in kind.enumerants for n in (e.name, *e.aliases)} if kind else set()
                if forbidden["enumerant"] not in names:
                    raise GrammarError(
                        listed.mark_of(position),
                        "enumerant",
                        f"an enumerant of the operand kind {forbidden['kind']!r}",
                        repr(forbidden["enumerant"]),
                    )
                forbids.append(
                    (forbidden["kind"], forbidden["enumerant"], forbidden["why"], forbidden["source"])
                )
            after: list[tuple[str, str, str]] = []
            listed = item.get("after")
            for position, pair in enumerate(listed or ()):
                for key in ("capability", "after"):
                    if pair[key] not in known:
                        raise GrammarError(
                            listed.mark_of(position), key, "a Capability of the grammar",
                            repr(pair[key]),
                        )
                after.append((pair["capability"], pair["after"], pair["source"]))
            validator = item.get("validator", "")
            if validator and (
                validator == name
                or not any(
                    e["name"] == validator and not e.get("validator")
                    for e in raw["environments"]
                )
            ):
                raise GrammarError(
                    mark, "validator", "another environment, validated under its own name",
                    repr(validator),
                )
            envs.append(
                TargetEnv(
                    name=name,
                    family=item["family"],
                    spirv_version=item["spirv_version"],
                    source=item["source"],
                    doc=item.get("doc", ""),
                    everything=everything,
                    capabilities=_strings(item, "capabilities"),
                    extensions=_strings(item, "extensions"),
                    forbids=forbids,
                    after=after,
                    validator=validator,
                    rules=self.target_rules(item.get("rules"), kinds, instructions),
                )
            )
        assembler: list[AssemblerEnv] = []
        for index, item in enumerate(raw.get("assembler_only") or ()):
            mark = raw["assembler_only"].mark_of(index)
            name = item["name"]
            if name in seen:
                raise GrammarError(mark, "name", "a target env named once", repr(name))
            seen.add(name)
            if item["source"] not in sources:
                raise GrammarError(mark, "source", "a key of sources", repr(item["source"]))
            if item["spirv_version"] == "None":
                raise GrammarError(mark, "spirv_version", "a SPIR-V version 1.x", "None")
            assembler.append(AssemblerEnv(name, item["spirv_version"], item["source"]))
        return sources, envs, assembler

    def target_rules(
        self,
        listed: YList | None,
        kinds: dict[str, OperandKind],
        instructions: dict[str, Instruction],
    ) -> list[TargetRuleData]:
        """An environment's ``rules``: each named once, with the keys its kind reads and no
        other, opcodes the grammar's instructions (a variable_type's: type declarations),
        enumerants of the operand kind its kind reads."""
        wanted = {
            "instruction": ("opcodes",),
            "variable_type": ("opcodes",),
            "storage_image_access": ("enumerants",),
            "ext_inst_import": ("names",),
            "dropped_decoration": ("enumerants",),
            "storage_buffer_decoration": ("enumerants",),
        }
        enumerant_kinds = {
            "storage_image_access": "ImageFormat",
            "dropped_decoration": "Decoration",
            "storage_buffer_decoration": "Decoration",
        }
        rules: list[TargetRuleData] = []
        seen: set[str] = set()
        for position, item in enumerate(listed or ()):
            mark = listed.mark_of(position) if listed is not None else None
            assert mark is not None
            kind = item["kind"]
            if item["name"] in seen:
                raise GrammarError(mark, "name", "a rule named once", repr(item["name"]))
            seen.add(item["name"])
            for key in ("opcodes", "enumerants", "names", "where"):
                needed = key in wanted[kind] or (key == "where" and kind == "instruction")
                if key in item and not needed:
                    raise GrammarError(mark, key, f"no {key} in a rule of kind {kind}")
                if key in wanted[kind] and not item.get(key):
                    raise GrammarError(mark, key, f"a non-empty list for a rule of kind {kind}")
            opcodes: list[int] = []
            for name in item.get("opcodes") or ():
                found = instructions.get(name)
                if found is None or (kind == "variable_type" and found.cls != "Type-Declaration"):
                    what = "a type declaration" if kind == "variable_type" else "an instruction"
                    raise GrammarError(mark, "opcodes", f"{what} of the grammar", repr(name))
                opcodes.append(found.opcode)
            values: list[int] = []
            if kind in enumerant_kinds:
                operand_kind = kinds.get(enumerant_kinds[kind])
                for name in item["enumerants"]:
                    value = next(
                        (
                            e.value
                            for e in (operand_kind.enumerants if operand_kind else ())
                            if name in (e.name, *e.aliases)
                        ),
                        None,
                    )
                    if value is None:
                        raise GrammarError(
                            mark, "enumerants",
                            f"an enumerant of the operand kind {enumerant_kinds[kind]!r}",
                            repr(name),
                        )
                    values.append(value)
            rules.append(
                TargetRuleData(
                    name=item["name"],
                    kind=kind,
                    why=item["why"],
                    source=item["source"],
                    opcodes=opcodes,
                    where=item.get("where", "anywhere"),
                    enumerants=values,
                    names=_strings(item, "names"),
                )
            )
        return rules

    def errata(self) -> list[Erratum]:
        raw = self.read(ERRATA_FILE)
        result = []
        for index, item in enumerate(raw["errata"]):
            file = item["file"]
            if not (self.root / file).exists():
                raise GrammarError(
                    raw["errata"].mark_of(index),
                    "file",
                    "a grammar file under grammars/",
                    repr(file),
                )
            result.append(
                Erratum(file, item["item"], _strings(item, "fields"), item["source"], item["why"])
            )
        return result


def _plain(value: Any) -> Any:
    if isinstance(value, YMap):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, YList):
        return [_plain(v) for v in value]
    return value


class _Consistency:
    """Cross-file checks on the merged grammar."""

    def __init__(self, grammar: Grammar, core: YMap) -> None:
        self.g = grammar
        self.core = core
        caps = grammar.operand_kinds.get("Capability")
        self.capabilities: set[str] = set()
        if caps is not None:
            for e in caps.enumerants:
                self.capabilities.add(e.name)
                self.capabilities.update(e.aliases)

    def check(self) -> None:
        g = self.g
        by_opcode: dict[int, Instruction] = {}
        for inst in g.instructions:
            other = by_opcode.get(inst.opcode)
            if other is not None:
                # g.instructions is sorted by (opcode, name): blame the one read later.
                first, later = sorted((other, inst), key=self.read_order)
                raise GrammarError(
                    later.mark,
                    later.name,
                    f"a new opcode (opcode {inst.opcode} is already {first.name} at {first.mark})",
                )
            by_opcode[inst.opcode] = inst
            self.operands(inst.operands, g.operand_kinds, inst.name)
            self.requirements(inst.capabilities, inst.extensions, inst.mark, inst.name)
        for kind in g.operand_kinds.values():
            self.kind(kind, g.operand_kinds)
        for s in g.ext_inst_sets.values():
            scope = dict(g.operand_kinds)
            scope.update(s.operand_kinds)
            seen: dict[int, Instruction] = {}
            for inst in s.instructions:
                if inst.opcode in seen:
                    raise GrammarError(
                        inst.mark,
                        inst.name,
                        f"a new ext-inst number ({inst.opcode} is already {seen[inst.opcode].name})",
                    )
                seen[inst.opcode] = inst
                self.operands(inst.operands, scope, inst.name)
                self.requirements(inst.capabilities, inst.extensions, inst.mark, inst.name)
            for kind in s.operand_kinds.values():
                self.kind(kind, scope)
        names = {i.name for i in g.instructions}
        layout_names = {sec.name for sec in g.layout}
        if len(layout_names) != len(g.layout):
            raise GrammarError(
                self.core.mark_of("logical_layout"), "logical_layout", "unique section names"
            )
        for index, sec in enumerate(g.layout):
            for name in sec.instructions:
                if name not in names:
                    mark = self.core["logical_layout"].mark_of(index)
                    raise GrammarError(mark, name, "a known instruction in logical_layout")
        self.known_names(g.block_terminators, "block_terminators", names)
        self.known_names(g.spec_constant_op_opcodes, "spec_constant_op_opcodes", names)
        dedup = self.core["deduplicate"]
        for key in ("instructions", "never"):
            self.known_names(_strings(dedup, key), key, names, dedup)
        capabilities = self.capabilities
        for index, tc in enumerate(g.type_capabilities):
            mark = self.core["type_capabilities"].mark_of(index)
            if tc.instruction not in names:
                raise GrammarError(mark, "instruction", "a known instruction", repr(tc.instruction))
            if tc.capability not in capabilities:
                raise GrammarError(mark, "capability", "a known Capability", repr(tc.capability))
        for index, rt in enumerate(g.result_type_capabilities):
            mark = self.core["result_type_capabilities"].mark_of(index)
            for name in [*rt.instructions, rt.type]:
                if name not in names:
                    raise GrammarError(mark, "instructions", "a known instruction", repr(name))
            if rt.capability not in capabilities:
                raise GrammarError(mark, "capability", "a known Capability", repr(rt.capability))
        for s in g.ext_inst_sets.values():
            known = {i.name for i in s.instructions}
            self.requirements([], s.import_extensions, Mark(s.file, 1, 1), s.import_name)
            for name in s.function_instructions:
                if name not in known:
                    raise GrammarError(
                        Mark(s.file, 1, 1),
                        "function_instructions",
                        f"an instruction of {s.import_name}",
                        repr(name),
                    )
        for ext in g.extensions.values():
            for rule in ext.rules:
                self.rule(rule, ext)
            for note in ext.notes:
                for name in note.instructions:
                    if name not in ext.instructions:
                        raise GrammarError(
                            note.mark, "instructions", f"an instruction of {ext.name}", repr(name)
                        )
        self.implied_capabilities()

    def implied_capabilities(self) -> None:
        """A Capability's own ``capabilities`` are those it implies: no cycles."""
        kind = self.g.operand_kinds.get("Capability")
        if kind is None:
            return
        by_name: dict[str, Enumerant] = {}
        for e in kind.enumerants:
            by_name[e.name] = e
            for alias in e.aliases:
                by_name.setdefault(alias, e)
        done: set[str] = set()

        def visit(e: Enumerant, path: list[Enumerant]) -> None:
            if e.name in done:
                return
            if e in path:
                cycle = path[path.index(e) :] + [e]
                raise GrammarError(
                    cycle[-2].mark,
                    "capabilities",
                    f"implied capabilities without a cycle (in {cycle[-2].name})",
                    " -> ".join(c.name for c in cycle),
                )
            for implied in e.capabilities:
                visit(by_name[implied], path + [e])
            done.add(e.name)

        for e in kind.enumerants:
            visit(e, [])

    def read_order(self, inst: Instruction) -> tuple[int, int, int]:
        """Where an instruction comes in the order the loader reads the files."""
        return (self.g.files.index(inst.file), inst.mark.line, inst.mark.col)

    def known_names(
        self, listed: list[str], key: str, names: set[str], where: YMap | None = None
    ) -> None:
        """Every name in a hand-written list of core.yaml must be an instruction."""
        container = where if where is not None else self.core
        for name in listed:
            if name not in names:
                raise GrammarError(
                    container.value_mark_of(key), key, "a known instruction", repr(name)
                )

    def kind(self, kind: OperandKind, scope: dict[str, OperandKind]) -> None:
        seen: dict[int, Enumerant] = {}
        for e in kind.enumerants:
            exception = BIT_ENUM_EXCEPTIONS.get((kind.name, e.name))
            if kind.category == "BitEnum" and e.value & (e.value - 1) and e.value != exception:
                raise GrammarError(
                    e.mark,
                    e.name,
                    f"a {kind.name} value of one bit, or 0 (a BitEnum)",
                    f"{e.value} (0x{e.value:x})",
                )
            if e.value in seen and kind.category == "ValueEnum":
                first = seen[e.value]
                raise GrammarError(
                    e.mark,
                    e.name,
                    f"a new {kind.name} value ({e.value} is already {first.name} at {first.mark})",
                )
            seen.setdefault(e.value, e)
            self.operands(e.parameters, scope, f"{kind.name}.{e.name}")
            self.requirements(e.capabilities, e.extensions, e.mark, e.name)
        for base in kind.bases:
            if base not in scope:
                raise GrammarError(kind.mark, "bases", "a known operand kind", repr(base))

    def operands(self, operands: list[Operand], scope: dict[str, OperandKind], owner: str) -> None:
        optional_seen = False
        for op in operands:
            if op.kind not in scope:
                raise GrammarError(
                    op.mark, "kind", f"a known operand kind (in {owner})", repr(op.kind)
                )
            if op.quantifier:
                optional_seen = True
            elif optional_seen:
                raise GrammarError(
                    op.mark,
                    "quantifier",
                    f"'?' or '*' (in {owner}, operands after an optional one must be optional)",
                )

    def requirements(
        self, capabilities: list[str], extensions: list[str], mark: Mark, owner: str
    ) -> None:
        for cap in capabilities:
            if cap not in self.capabilities:
                raise GrammarError(
                    mark, "capabilities", f"a known Capability (in {owner})", repr(cap)
                )
        for ext in extensions:
            if ext not in self.g.extensions:
                raise GrammarError(
                    mark,
                    "extensions",
                    f"an extension described under grammars/extensions/ (in {owner})",
                    repr(ext),
                )

    def rule(self, rule: Rule, ext: Extension) -> None:
        names = {i.name: i for i in self.g.instructions}
        data = rule.data
        refs = [("instructions", name) for name in data.get("instructions", [])]
        refs += [(key, data[key]) for key in ("instruction", "type_opcode") if key in data]
        for key, name in refs:
            if name not in names:
                raise GrammarError(
                    rule.mark, key, f"a known instruction (rule {rule.id})", repr(name)
                )
        for table in ("allowed", "forbidden"):
            for name, operands in data.get(table, {}).items():
                if name not in names:
                    raise GrammarError(
                        rule.mark, table, f"a known instruction (rule {rule.id})", repr(name)
                    )
                known = {op.name for op in names[name].operands} | {"Result Type"}
                for op_name in operands:
                    if op_name not in known:
                        raise GrammarError(
                            rule.mark,
                            table,
                            f"an operand of {name} (rule {rule.id}): {sorted(known)}",
                            repr(op_name),
                        )
        for set_name, ext_names in data.get("ext_instructions", {}).items():
            s = self.g.ext_inst_sets.get(set_name)
            if s is None:
                raise GrammarError(
                    rule.mark,
                    "ext_instructions",
                    f"a known ext-inst set (rule {rule.id})",
                    repr(set_name),
                )
            known_ext = {i.name for i in s.instructions}
            for n in ext_names:
                if n not in known_ext:
                    raise GrammarError(
                        rule.mark, "ext_instructions", f"an instruction of {set_name}", repr(n)
                    )
        decoration = data.get("decoration")
        if decoration is not None:
            kind = self.g.operand_kinds.get("Decoration")
            decorations = {e.name for e in kind.enumerants} if kind is not None else set()
            if decoration not in decorations:
                raise GrammarError(
                    rule.mark,
                    "decoration",
                    f"a known Decoration (rule {rule.id})",
                    repr(decoration),
                )
        sc = data.get("storage_class")
        if sc is not None:
            kind = self.g.operand_kinds.get("StorageClass")
            classes = {e.name for e in kind.enumerants} if kind is not None else set()
            if sc not in classes:
                raise GrammarError(
                    rule.mark, "storage_class", f"a known StorageClass (rule {rule.id})", repr(sc)
                )


def load_grammar(root: Path = GRAMMARS_DIR) -> Grammar:
    """Load and validate every grammar file under ``root`` into one merged model."""
    return _Loader(root).load()
