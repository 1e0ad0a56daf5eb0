"""The Python names a grammar gives rise to: valid, not reserved, and each used once.

The loader calls :func:`check_names` on the merged grammar.  Every grammar name must
match its pattern (:data:`NAME_PATTERNS`), and the Python name the naming rule
(:mod:`codegen.naming`) makes of it must be

* an identifier and not a keyword (the rule escapes keywords: ``return_``);
* not reserved: an enum member is not a name of ``int``/``IntEnum``/``IntFlag`` or their
  metaclass (``mro``, ``name``, ``value``, ...) and does not start with ``_``
  (``_ignore_``, dunders); a builder method or an extended set's ``python_name`` is not
  an attribute of the runtime classes the generated ones are mixed into
  (:func:`runtime_attributes`: read from ``src/spvbuild`` by parsing it, so the list
  follows the runtime); a method parameter is not one of the parameters every method
  has (:data:`FIXED_PARAMETERS`);
* unique in its namespace: core methods together with the extended sets' properties,
  opcode constants, ``Op`` members, each enum's members, each set's methods, the
  parameters of one method, the sets' ``python_name`` values.

Each failure is a :class:`GrammarError` at the grammar item that brings the second name.
"""

from __future__ import annotations

import ast
import enum
import functools
import keyword
import re
from dataclasses import dataclass
from pathlib import Path

from codegen.errors import GrammarError, Mark
from codegen.model import Grammar, Instruction, Operand, OperandKind
from codegen.naming import (
    enum_member_name,
    method_name,
    opcode_constant_name,
    parameter_name,
    unique_names,
)

RUNTIME_DIR = Path(__file__).resolve().parent.parent / "src" / "spvbuild"

NAME_PATTERNS = {
    "instruction": (
        re.compile(r"Op[A-Z][A-Za-z0-9_]*"),
        "'Op', an upper-case letter, then ASCII letters, digits or '_'",
    ),
    "ext instruction": (
        re.compile(r"[A-Za-z][A-Za-z0-9_]*"),
        "an ASCII letter, then ASCII letters, digits or '_'",
    ),
    "enumerant": (
        re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*"),
        "ASCII letters, digits or '_' (not first)",
    ),
    "operand kind": (
        re.compile(r"[A-Z][A-Za-z0-9_]*"),
        "an upper-case ASCII letter, then ASCII letters, digits or '_'",
    ),
    "python_name": (
        re.compile(r"[a-z][a-z0-9_]*"),
        "a lower-case ASCII letter, then lower-case letters, digits or '_'",
    ),
}
"""What each kind of grammar name may look like: (pattern, the same in words)."""

FIXED_PARAMETERS = frozenset({"self", "result_type", "result_id"})
"""Parameters of generated methods that no operand's parameter may take (codegen/views.py)."""

GENERATED_BASES = {"core": ("InstructionSink",), "ext_set": ("SetInstructions",)}
"""The runtime base classes (src/spvbuild/spirv/emission.py) of the generated ``CoreInstructions``
and ``ExtInstSets`` (``core``) and of each extended set's class (``ext_set``)."""

GENERATED_MIXINS = ("CoreInstructions", "ExtInstSets")
"""Generated classes that runtime classes (Module, Recorder) derive from."""

ENUM_RESERVED = (
    frozenset(dir(enum.IntFlag)) | frozenset(dir(enum.IntEnum)) | frozenset(dir(enum.EnumType))
)
"""Names an enum member may not have: attributes of the enum classes and their metaclass."""
ENUM_WHY = "enum attributes such as mro, and names starting with '_'"


@functools.cache
def _runtime_classes(runtime_dir: Path) -> dict[str, ast.ClassDef]:
    classes: dict[str, ast.ClassDef] = {}
    for path in sorted(runtime_dir.rglob("*.py")):  # the rooms: ir/, binary/, text/, ...
        if "generated" in path.relative_to(runtime_dir).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, node)
    return classes


def _class_attributes(node: ast.ClassDef) -> set[str]:
    """Names a class defines: methods, class attributes, ``__slots__``, ``self.x = ...``."""
    names: set[str] = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(item.name)
        elif isinstance(item, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = item.targets if isinstance(item, ast.Assign) else [item.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
            if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets):
                value = item.value
                if isinstance(value, (ast.Tuple, ast.List)):
                    names |= {
                        e.value
                        for e in value.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    }
    for sub in ast.walk(node):
        targets = []
        if isinstance(sub, ast.Assign):
            targets = sub.targets
        elif isinstance(sub, (ast.AnnAssign, ast.AugAssign)):
            targets = [sub.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                names.add(target.attr)
    return names


def _with_bases(name: str, classes: dict[str, ast.ClassDef], seen: set[str]) -> set[str]:
    if name in seen or name not in classes:
        return set()
    seen.add(name)
    node = classes[name]
    names = _class_attributes(node)
    for base in node.bases:
        if isinstance(base, ast.Name):
            names |= _with_bases(base.id, classes, seen)
    return names


def runtime_attributes(which: str, runtime_dir: Path = RUNTIME_DIR) -> frozenset[str]:
    """Attribute names of the runtime classes a generated class is mixed into.

    ``which`` is ``"core"`` (the classes deriving from CoreInstructions/ExtInstSets, such as
    Module and Recorder, and InstructionSink) or ``"ext_set"`` (SetInstructions).
    """
    classes = _runtime_classes(runtime_dir)
    names: set[str] = set(dir(object))
    seen: set[str] = set()
    for base in GENERATED_BASES[which]:
        names |= _with_bases(base, classes, seen)
    if which == "core":
        for cname, node in classes.items():
            if any(isinstance(b, ast.Name) and b.id in GENERATED_MIXINS for b in node.bases):
                names |= _with_bases(cname, classes, seen)
    return frozenset(names)


@dataclass(frozen=True)
class _Owner:
    """The grammar item behind a Python name."""

    mark: Mark
    key: str

    def __str__(self) -> str:
        return f"{self.key} at {self.mark}"


class _Namespace:
    """One Python namespace: each name once, none reserved."""

    def __init__(self, what: str, reserved: frozenset[str] = frozenset(), why: str = "") -> None:
        self.what = what
        self.reserved = reserved
        self.why = why
        self.names: dict[str, _Owner] = {}
        self.private_reserved = reserved is ENUM_RESERVED  # enum: '_' names are not members

    def add(self, name: str, owner: _Owner) -> None:
        if not name.isidentifier() or keyword.iskeyword(name):
            raise GrammarError(
                owner.mark,
                owner.key,
                f"a name that gives a Python identifier ({self.what})",
                repr(name),
            )
        if name in self.reserved or (self.private_reserved and name.startswith("_")):
            raise GrammarError(
                owner.mark,
                owner.key,
                f"a name whose Python {self.what} is not reserved ({self.why})",
                repr(name),
            )
        first = self.names.get(name)
        if first is not None:
            raise GrammarError(
                owner.mark,
                owner.key,
                f"a Python {self.what} of its own ({name!r} is already {first})",
            )
        self.names[name] = owner


def _pattern(name: str, what: str, owner: _Owner) -> None:
    pattern, words = NAME_PATTERNS[what]
    if pattern.fullmatch(name) is None:
        raise GrammarError(
            owner.mark,
            owner.key,
            f"{'an' if what[0] in 'aeiou' else 'a'} {what} name of {words}",
            repr(name),
        )


def _enum(kind: OperandKind) -> None:
    members = _Namespace(f"member of enum {kind.name}", ENUM_RESERVED, ENUM_WHY)
    for e in kind.enumerants:
        owner = _Owner(e.mark, e.name)
        _pattern(e.name, "enumerant", owner)
        members.add(enum_member_name(kind.name, e.name), owner)
        _parameters(e.parameters, owner, fixed=frozenset({"self"}))
    for e in kind.enumerants:
        for alias in e.aliases:
            owner = _Owner(e.mark, alias)
            _pattern(alias, "enumerant", owner)
            member = enum_member_name(kind.name, alias)
            if member not in members.names:  # else it names a member already: render skips it
                members.add(member, owner)


def _parameters(operands: list[Operand], owner: _Owner, fixed: frozenset[str]) -> None:
    rest = [op for op in operands if op.kind not in ("IdResultType", "IdResult")]
    names = unique_names([parameter_name(op.name, op.kind, op.quantifier) for op in rest])
    params = _Namespace("parameter", fixed, "every method has it")
    for op, name in zip(rest, names, strict=True):
        params.add(name, _Owner(op.mark, op.name or op.kind))


def check_names(grammar: Grammar, python_name_marks: dict[str, Mark]) -> None:
    """Check every grammar name and the Python names made of it (see the module docstring).

    ``python_name_marks`` gives where each extended set's ``python_name`` is written, by
    the set's file.
    """
    core_reserved = runtime_attributes("core")
    why = "an attribute of the runtime's Module, Recorder or InstructionSink"
    sets = _Namespace("extended-set name", core_reserved, why)
    for s in sorted(grammar.ext_inst_sets.values(), key=lambda s: grammar.files.index(s.file)):
        owner = _Owner(python_name_marks[s.file], "python_name")
        _pattern(s.python_name, "python_name", owner)
        sets.add(s.python_name, owner)
    methods = _Namespace("builder method", core_reserved, why)
    methods.names.update(
        {
            n: _Owner(o.mark, f"the property of an extended set ({o.key})")
            for n, o in sets.names.items()
        }
    )
    constants = _Namespace("opcode constant")
    op_members = _Namespace("member of enum Op", ENUM_RESERVED, ENUM_WHY)
    kinds = _Namespace("operand kind class", frozenset({"Op"}), "the enum of opcodes")
    for kind in grammar.operand_kinds.values():
        owner = _Owner(kind.mark, kind.name)
        _pattern(kind.name, "operand kind", owner)
        kinds.add(kind.name, owner)
        _enum(kind)
    by_read_order = sorted(
        grammar.instructions, key=lambda i: (grammar.files.index(i.file), i.mark.line)
    )
    for inst in by_read_order:
        _core_instruction(inst, methods, constants, op_members)
    ext_reserved = runtime_attributes("ext_set")
    for s in grammar.ext_inst_sets.values():
        set_methods = _Namespace(
            f"method of {s.import_name}", ext_reserved, "an attribute of SetInstructions"
        )
        set_kinds = _Namespace(f"operand kind class of {s.import_name}")
        for kind in s.operand_kinds.values():
            owner = _Owner(kind.mark, kind.name)
            _pattern(kind.name, "operand kind", owner)
            set_kinds.add(kind.name, owner)
            _enum(kind)
        for inst in sorted(s.instructions, key=lambda i: i.mark.line):
            owner = _Owner(inst.mark, inst.name)
            _pattern(inst.name, "ext instruction", owner)
            set_methods.add(method_name(inst.name), owner)
            _parameters(inst.operands, owner, FIXED_PARAMETERS)


def _core_instruction(
    inst: Instruction, methods: _Namespace, constants: _Namespace, op_members: _Namespace
) -> None:
    owner = _Owner(inst.mark, inst.name)
    _pattern(inst.name, "instruction", owner)
    methods.add(method_name(inst.name), owner)
    constants.add(opcode_constant_name(inst.name), owner)
    op_members.add(enum_member_name("Op", inst.name[2:]), owner)
    for alias in inst.aliases:
        alias_owner = _Owner(inst.mark, alias)
        _pattern(alias, "instruction", alias_owner)
        constants.add(opcode_constant_name(alias), alias_owner)
        member = enum_member_name("Op", alias[2:])
        if member not in op_members.names:
            op_members.add(member, alias_owner)
    _parameters(inst.operands, owner, FIXED_PARAMETERS)


__all__ = [
    "ENUM_RESERVED",
    "FIXED_PARAMETERS",
    "NAME_PATTERNS",
    "RUNTIME_DIR",
    "check_names",
    "runtime_attributes",
]
