"""Render the merged grammar model into ``generated/`` through ``codegen/templates/*.j2``.

This module prepares small "view" records (Python names, annotations, docstring lines)
from the model so that the templates only lay text out.  Output is deterministic: the
same grammar files always give byte-identical files.
"""

from __future__ import annotations

import difflib
import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from codegen.loader import load_grammar
from codegen.model import Enumerant, Grammar, Instruction, Operand, OperandKind, version_tuple
from codegen.naming import enum_member_name, method_name, parameter_name, snake_case, unique_names

ROOT = Path(__file__).resolve().parent.parent
GENERATED_DIR = ROOT / "generated"
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"

SCALAR_ANNOTATIONS = {
    "IdResultType": "TypeId",
    "IdRef": "Id",
    "IdScope": "Id",
    "IdMemorySemantics": "Id",
    "LiteralInteger": "int",
    "LiteralString": "str",
    "LiteralFloat": "float",
    "LiteralContextDependentNumber": "int | float",
    "LiteralExtInstInteger": "int",
}


@dataclass
class ParamView:
    """One Python parameter of a generated method or enumerant-parameter class."""

    name: str
    annotation: str
    default: str | None
    value: str  # expression passed on to the emitter
    doc: str


@dataclass
class MethodView:
    """One generated builder method."""

    name: str
    params: list[ParamView]
    returns: str  # "Id", "TypeId" or "Self"
    call: str
    doc_lines: list[str]


@dataclass
class EnumerantView:
    """One enum member and, when it takes parameters, its parameter class."""

    member: str
    value: int
    hex_value: str
    params_class: str | None
    params: list[ParamView]
    doc: str
    alias_class: str | None = None  # for an alias of an enumerant with parameters
    alias_target: str | None = None  # ... the parameter class it names

    @property
    def bare(self) -> bool:
        """True when the member may be passed without parameters."""
        return self.params_class is None and self.alias_class is None


@dataclass
class KindView:
    """One enum operand kind."""

    name: str
    category: str
    base_class: str  # IntEnum or IntFlag
    enumerants: list[EnumerantView]
    operand_type: str  # name of the type users pass (the enum or an alias)
    alias_members: list[str] = field(default_factory=list)
    alias_classes: list[str] = field(default_factory=list)

    @property
    def has_params(self) -> bool:
        """True when some enumerant takes parameters."""
        return any(e.params_class for e in self.enumerants)


def _version_text(version: str | None) -> str:
    return "None" if version is None else repr(version_tuple(version))


class Namer:
    """Type annotations for operand kinds within one namespace (core or an ext set)."""

    def __init__(
        self, kinds: dict[str, OperandKind], core_kinds: dict[str, OperandKind], local: set[str]
    ):
        self.kinds = kinds
        self.core_kinds = core_kinds
        self.local = local  # kinds defined in the module being rendered
        self.core_used: set[str] = set()

    def kind_type(self, kind_name: str) -> str:
        if kind_name in SCALAR_ANNOTATIONS:
            return SCALAR_ANNOTATIONS[kind_name]
        if kind_name == "LiteralSpecConstantOpInteger":
            return self._ref("Op", core=True)
        kind = self.kinds[kind_name]
        if kind.category == "Composite":
            return "tuple[" + ", ".join(self.kind_type(b) for b in kind.bases) + "]"
        if kind.is_enum:
            has_params = any(e.parameters for e in kind.enumerants)
            name = f"{kind.name}Operand" if has_params else kind.name
            return self._ref(name, core=kind.name not in self.local)
        raise ValueError(f"no Python type for operand kind {kind_name}")

    def _ref(self, name: str, core: bool) -> str:
        if core and self.local != set(self.core_kinds):
            self.core_used.add(name)
        return name

    def operand_type(self, op: Operand, type_rule: bool) -> str:
        base = self.kind_type(op.kind)
        if type_rule and op.kind == "IdRef" and _names_a_type(op.name):
            base = "TypeId"
        return base


def _names_a_type(name: str) -> bool:
    first = name.split(",")[0].strip().strip("'").lower()
    return first == "type" or first.endswith(" type")


def _params(operands: list[Operand], namer: Namer, type_rule: bool, where: str) -> list[ParamView]:
    """The parameters of a method or parameter class; ``where`` names it in errors."""
    names = unique_names([parameter_name(op.name, op.kind, op.quantifier) for op in operands])
    params = []
    for op, name in zip(operands, names, strict=True):
        annotation = namer.operand_type(op, type_rule)
        described = f"{op.kind}{op.quantifier}" + (f" '{op.name}'" if op.name else "")
        if op.quantifier == "?":
            params.append(ParamView(name, f"{annotation} | None", "None", name, described))
        elif op.quantifier == "*":
            value = f"operand_sequence({name}, {where!r}, {name!r})"
            params.append(ParamView(name, f"Sequence[{annotation}]", "()", value, described))
        else:
            params.append(ParamView(name, annotation, None, name, described))
    return params


def _requirement_lines(item: Instruction | Enumerant) -> list[str]:
    lines = []
    if item.capabilities:
        lines.append("Capabilities (any of): " + ", ".join(item.capabilities) + ".")
    if item.extensions:
        lines.append("Extensions (any of): " + ", ".join(item.extensions) + ".")
    if item.version == "None":
        lines.append("Version: not core in any SPIR-V version (extension only).")
    else:
        text = f"Version: SPIR-V {item.version}"
        text += f" to {item.last_version}." if item.last_version else " and later."
        if item.extensions:
            text += " Below that, one of the extensions is needed."
        lines.append(text)
    if item.aliases:
        lines.append("Aliases: " + ", ".join(item.aliases) + ".")
    if item.provisional:
        lines.append("Provisional: may change without notice.")
    return lines


def core_method(inst: Instruction, namer: Namer, section: str) -> MethodView:
    """The builder method of a core instruction."""
    ops = inst.operands
    result_type = inst.has_result_type
    has_result = inst.has_result
    rest = [op for op in ops if op.kind not in ("IdResultType", "IdResult")]
    params = _params(rest, namer, type_rule=True, where=inst.name)
    if rest and rest[-1].kind == "LiteralSpecConstantOpInteger":
        # Grammar wart: the embedded opcode's operands follow but the grammar lists none.
        params.append(
            ParamView(
                "operands",
                "Sequence[Id | int]",
                "()",
                f"operand_sequence(operands, {inst.name!r}, 'operands')",
                "the embedded opcode's operands (ids or literals)",
            )
        )
    values = ", ".join(p.value for p in params)
    operands = f"({values},)" if len(params) == 1 else f"({values})"
    is_type = inst.cls == "Type-Declaration" and has_result and not result_type
    if is_type:
        returns, call = "TypeId", f"self._type({inst.opcode}, {operands}, result_id)"
    elif has_result:
        rt = "result_type" if result_type else "None"
        returns, call = "Id", f"self._value({inst.opcode}, {rt}, {operands}, result_id)"
    else:
        returns, call = "Self", f"self._void({inst.opcode}, {operands})"
    if result_type:
        params.insert(0, ParamView("result_type", "TypeId", None, "result_type", "IdResultType"))
    if has_result:
        # Keyword-only: an id reserved earlier with new_id()/new_type_id() (forward references).
        params.append(
            ParamView(
                "*, result_id",
                f"{returns} | None",
                "None",
                "result_id",
                "an id reserved earlier (new_id / new_type_id) to define here",
            )
        )
    doc = [f"{inst.name} (opcode {inst.opcode}, class {inst.cls or 'none'}, section {section})."]
    doc.append("")
    if params:
        doc.append("Operands:")
        doc.extend(f"    {p.name.removeprefix('*, ')}: {p.doc}" for p in params)
        doc.append("")
    else:
        doc.append("Operands: none.")
    doc.extend(_requirement_lines(inst))
    if returns == "Self":
        doc.append("Returns the builder, so calls chain.")
    elif returns == "TypeId":
        doc.append("Returns the new type's id.")
    else:
        doc.append("Returns the result id.")
    return MethodView(method_name(inst.name), params, returns, call, doc)


def ext_method(inst: Instruction, namer: Namer, import_name: str) -> MethodView:
    """The method of an extended-set instruction (always has a result)."""
    params = _params(inst.operands, namer, type_rule=False, where=f"{import_name} {inst.name}")
    values = ", ".join(p.value for p in params)
    operands = f"({values},)" if len(params) == 1 else f"({values})"
    params.insert(0, ParamView("result_type", "TypeId", None, "result_type", "IdResultType"))
    params.append(
        ParamView(
            "*, result_id",
            "Id | None",
            "None",
            "result_id",
            "an id reserved earlier (new_id) to define here",
        )
    )
    doc = [f"{import_name} {inst.name} (instruction {inst.opcode}), emitted as OpExtInst.", ""]
    doc.append("Operands:")
    doc.extend(f"    {p.name.removeprefix('*, ')}: {p.doc}" for p in params)
    doc.append("")
    if inst.capabilities:
        doc.append("Capabilities (any of): " + ", ".join(inst.capabilities) + ".")
    if inst.extensions:
        doc.append("Extensions (any of): " + ", ".join(inst.extensions) + ".")
    doc.append("Returns the result id.")
    return MethodView(
        method_name(inst.name),
        params,
        "Id",
        f"self._inst({inst.opcode}, result_type, {operands}, result_id)",
        doc,
    )


def kind_view(kind: OperandKind, namer: Namer) -> KindView:
    """The enum class (and parameter classes) of an enum operand kind."""
    enumerants = []
    members_seen: set[str] = set()
    alias_members: list[str] = []
    for e in kind.enumerants:
        member = enum_member_name(kind.name, e.name)
        params = _params(e.parameters, namer, type_rule=False, where=f"{kind.name}.{e.name}")
        params_class = f"{kind.name}{member.rstrip('_')}" if e.parameters else None
        doc_parts = _requirement_lines(e)
        if e.parameters:
            doc_parts.insert(
                0, "Parameters: " + "; ".join(f"{p.name}: {p.doc}" for p in params) + "."
            )
        enumerants.append(
            EnumerantView(
                member, e.value, f"0x{e.value:x}", params_class, params, " ".join(doc_parts)
            )
        )
        members_seen.add(member)
        for alias in e.aliases:
            alias_member = enum_member_name(kind.name, alias)
            if alias_member not in members_seen:
                members_seen.add(alias_member)
                alias_members.append(alias_member)
                view_alias = EnumerantView(
                    alias_member, e.value, f"0x{e.value:x}", None, [], f"Alias of {member}."
                )
                if params_class is not None:
                    view_alias.alias_class = f"{kind.name}{alias_member.rstrip('_')}"
                    view_alias.alias_target = params_class
                enumerants.append(view_alias)
    view = KindView(
        name=kind.name,
        category=kind.category,
        base_class="IntFlag" if kind.category == "BitEnum" else "IntEnum",
        enumerants=enumerants,
        operand_type=kind.name,
    )
    if view.has_params:
        view.operand_type = f"{kind.name}Operand"
    return view


def _banner(template: str, files: list[str]) -> str:
    shown = (
        files
        if len(files) <= 6
        else files[:3] + [f"... and {len(files) - 3} more (see spvbuild.generated.GRAMMAR_FILES)"]
    )
    lines = [
        f"# Generated by `python -m codegen` (codegen/render.py, template codegen/templates/{template}).",
        "# Do not edit: change grammars/ or the template and regenerate.",
        "# Grammar files: " + shown[0],
    ]
    lines += [f"#   {f}" for f in shown[1:]]
    return "\n".join(lines)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = repr
    env.filters["tuple"] = tuple
    return env


def render_all(grammar: Grammar, grammars_root: Path) -> dict[str, str]:
    """Every generated file: path relative to generated/ → text."""
    env = _environment()
    out: dict[str, str] = {}
    core_files = [
        f"grammars/{f}" for f in grammar.files if f == "core.yaml" or f.startswith("extensions/")
    ]

    core_kinds = grammar.operand_kinds
    namer = Namer(core_kinds, core_kinds, set(core_kinds))
    enum_kinds = [kind_view(k, namer) for k in core_kinds.values() if k.is_enum]
    _check_unique(
        [k.name for k in enum_kinds]
        + [e.params_class for k in enum_kinds for e in k.enumerants if e.params_class]
        + [e.alias_class for k in enum_kinds for e in k.enumerants if e.alias_class]
        + [k.operand_type for k in enum_kinds if k.has_params]
        + ["Op"],
        "core enum names",
    )
    ops = []
    op_members: set[str] = set()
    for inst in grammar.instructions:
        member = enum_member_name("Op", inst.name[2:])
        ops.append((member, inst.opcode, inst.name))
        op_members.add(member)
        for alias in inst.aliases:
            alias_member = enum_member_name("Op", alias[2:])
            if alias_member not in op_members:
                op_members.add(alias_member)
                ops.append((alias_member, inst.opcode, alias))
    out["core/enums.py"] = env.get_template("core_enums.py.j2").render(
        banner=_banner("core_enums.py.j2", core_files),
        kinds=enum_kinds,
        ops=ops,
        grammar=grammar,
    )
    sections = {inst.name: grammar.section_of(inst) for inst in grammar.instructions}
    by_name = {inst.name: inst for inst in grammar.instructions}
    capability_values = {e.name: e.value for e in core_kinds["Capability"].enumerants}
    methods = [core_method(inst, namer, sections[inst.name]) for inst in grammar.instructions]
    _check_unique([m.name for m in methods], "core method names")
    _check_reserved([m.name for m in methods])
    used_types = sorted({k.operand_type for k in enum_kinds} | {"Op"})
    out["core/builder.py"] = env.get_template("core_builder.py.j2").render(
        banner=_banner("core_builder.py.j2", core_files),
        methods=methods,
        enum_types=used_types,
    )
    out["core/tables.py"] = env.get_template("core_tables.py.j2").render(
        banner=_banner("core_tables.py.j2", core_files),
        instructions=grammar.instructions,
        sections=sections,
        kinds=list(core_kinds.values()),
        version_text=_version_text,
        grammar=grammar,
        terminators=sorted(by_name[n].opcode for n in grammar.block_terminators),
        spec_ops=sorted(by_name[n].opcode for n in grammar.spec_constant_op_opcodes),
        ext_inst_ops=sorted(
            i.opcode
            for i in by_name.values()
            if any(o.kind == "LiteralExtInstInteger" for o in i.operands)
        ),
        dedup=sorted(i.opcode for i in grammar.instructions if grammar.deduplicated(i)),
        type_caps=[
            (
                by_name[t.instruction].opcode,
                t.operand,
                t.value,
                capability_values[t.capability],
                t.capability,
            )
            for t in grammar.type_capabilities
        ],
        rules=[(ext.name, r) for ext in grammar.extensions.values() for r in ext.rules],
    )
    out["core/__init__.py"] = env.get_template("package_init.py.j2").render(
        banner=_banner("package_init.py.j2", core_files),
        doc="SPIR-V core and extensions: enums, instruction tables and the typed builder methods.",
    )

    sets = []
    for s in sorted(grammar.ext_inst_sets.values(), key=lambda s: s.python_name):
        local = set(s.operand_kinds)
        scope = dict(core_kinds)
        scope.update(s.operand_kinds)
        set_namer = Namer(scope, core_kinds, local)
        set_kinds = [kind_view(k, set_namer) for k in s.operand_kinds.values() if k.is_enum]
        set_methods = [ext_method(inst, set_namer, s.import_name) for inst in s.instructions]
        _check_unique([m.name for m in set_methods], f"{s.import_name} method names")
        _check_reserved([m.name for m in set_methods])
        class_name = "".join(w.capitalize() for w in s.python_name.split("_")) + "Instructions"
        sets.append(
            {
                "python_name": s.python_name,
                "class_name": class_name,
                "import_name": s.import_name,
                "import_prefix": s.import_prefix,
                "file": s.file,
            }
        )
        out[f"extinst/{s.python_name}.py"] = env.get_template("extinst_module.py.j2").render(
            banner=_banner("extinst_module.py.j2", [f"grammars/{s.file}"]),
            set=s,
            kinds=set_kinds,
            methods=set_methods,
            class_name=class_name,
            core_imports=sorted(set_namer.core_used),
            version_text=_version_text,
            function_numbers=sorted(
                i.opcode for i in s.instructions if i.name in s.function_instructions
            ),
        )
    out["extinst/__init__.py"] = env.get_template("extinst_init.py.j2").render(
        banner=_banner("extinst_init.py.j2", [f"grammars/{s['file']}" for s in sets]),
        sets=sets,
    )
    hashes = []
    for f in grammar.files:
        digest = hashlib.sha256((grammars_root / f).read_bytes()).hexdigest()[:16]
        hashes.append((f"grammars/{f}", digest))
    out["__init__.py"] = env.get_template("generated_init.py.j2").render(
        banner=_banner("generated_init.py.j2", [h[0] for h in hashes]),
        files=hashes,
        sets=sets,
    )
    from codegen.docs import render_docs  # here: codegen.docs imports this module

    out.update(render_docs(grammar))
    return out


def _check_unique(names: list[str], what: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(
                f"codegen: two grammar items map to the same Python name {name!r} ({what})"
            )
        seen.add(name)


# Attributes of the runtime base classes (spvbuild.emitter) that generated methods must not shadow.
RUNTIME_ATTRIBUTES = {"instructions", "bound", "new_id", "new_type_id", "set_id"}


def _check_reserved(names: list[str]) -> None:
    clash = sorted(set(names) & RUNTIME_ATTRIBUTES)
    if clash:
        raise ValueError(f"codegen: generated methods would shadow runtime attributes: {clash}")


def _owned_files(out_dir: Path) -> set[str]:
    """Files codegen owns under ``out_dir``: every ``*.py`` and everything under ``docs/``."""
    owned = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.py")}
    docs = out_dir / "docs"
    if docs.is_dir():
        owned |= {p.relative_to(out_dir).as_posix() for p in docs.rglob("*") if p.is_file()}
    return owned


def write_tree(files: dict[str, str], out_dir: Path) -> list[str]:
    """Write the rendered files (UTF-8), remove stale owned files; returns the paths written."""
    written = []
    for relative, text in sorted(files.items()):
        path = out_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        if path.exists() and path.read_bytes() == data:
            continue
        path.write_bytes(data)
        written.append(relative)
    for relative in sorted(_owned_files(out_dir) - set(files)):
        path = out_dir / relative
        path.unlink()
        written.append(f"(removed) {relative}")
        if relative.startswith("docs/"):
            parent = path.parent
            while parent != out_dir and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
    return written


def generate(grammars_root: Path, out_dir: Path) -> list[str]:
    """Load grammars/ and render generated/; returns the files that changed."""
    grammar = load_grammar(grammars_root)
    return write_tree(render_all(grammar, grammars_root), out_dir)


def check_generated(grammars_root: Path, generated_dir: Path) -> list[str]:
    """Render into a temporary folder and list every difference from ``generated_dir``."""
    grammar = load_grammar(grammars_root)
    files = render_all(grammar, grammars_root)
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(files, Path(tmp))
        diffs: list[str] = []
        expected = _owned_files(Path(tmp))
        actual = _owned_files(generated_dir)
        for missing in sorted(expected - actual):
            diffs.append(f"missing: generated/{missing}")
        for extra in sorted(actual - expected):
            diffs.append(f"not produced by codegen: generated/{extra}")
        for relative in sorted(expected & actual):
            new_bytes = (Path(tmp) / relative).read_bytes()
            old_bytes = (generated_dir / relative).read_bytes()
            if new_bytes != old_bytes:
                new = new_bytes.decode("utf-8", errors="replace")
                old = old_bytes.decode("utf-8", errors="replace")
                diff = difflib.unified_diff(
                    old.splitlines(),
                    new.splitlines(),
                    f"generated/{relative}",
                    "codegen",
                    lineterm="",
                    n=1,
                )
                # Same lines but other bytes (line endings, encoding): still a difference.
                diffs.extend(list(diff)[:20] or [f"differs (bytes): generated/{relative}"])
        return diffs


__all__ = ["generate", "check_generated", "render_all", "snake_case"]
