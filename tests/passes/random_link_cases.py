"""Random linking cases: a seeded generator of inputs for ``spvbuild.link`` against
spirv-link (``link_differential.py``).

:func:`random_case` makes one :class:`~tests.passes.link_cases.Case` from a seed: 1 to 6
modules, all Shader (Logical GLSL450) or all OpenCL Kernel (Physical64 OpenCL), sharing a
few symbols.  A symbol is a function (a function type over scalars, vectors, matrices,
arrays, structs with member names, pointers) or a global variable (Private, Workgroup,
Uniform and StorageBuffer blocks with their offsets and strides, CrossWorkgroup); one
module exports it (a definition, a variable with or without an initializer) and others
import it and use it from an entry point or from their own exports.  Each module declares
its types and constants in its own order, with its own names, some of them twice (a
struct) or unused, and decorates the symbols as the exporter does (decorations spirv-link
compares, and parameter decorations and names, which it does not).

Then the defects, each now and then: an export missing, an import of another type, an
import decorated otherwise, a name exported twice, two entry points of one name and
model, a memory model that differs; and the options (partial linkage, a library, the
highest version or the same version asked for) and versions 1.0 to 1.6 (1.0 to 1.2 for
kernels) drawn at random.  The case's ``expect`` is ``"spirv-link"``: the oracle is
spirv-link's outcome, not a phrase.

``python -m tests.passes.random_link_cases FIRST COUNT`` runs seeds ``FIRST`` to
``FIRST + COUNT - 1`` through the differential and prints the tally of
:func:`tests.passes.link_differential.judge` and each disagreement's seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tests.passes.link_cases import Case, Text

Type = tuple[object, ...]
"""A type: ``("void",)``, ``("bool",)``, ``("int", width, signed)``, ``("float",
width)``, ``("vec", element, count)``, ``("mat", column, count)``, ``("arr", element,
length, stride or 0)``, ``("struct", members, offsets or (), block, tag)``, ``("ptr",
storage class, pointee)``, ``("fn", result, parameters)``."""

VOID: Type = ("void",)
BOOL: Type = ("bool",)
UINT: Type = ("int", 32, 0)


def _size(t: Type) -> tuple[int, int]:
    """(size, alignment) of a block member type (scalars, vectors, arrays of them)."""
    if t[0] in ("int", "float"):
        return int(t[1]) // 8, int(t[1]) // 8  # type: ignore[call-overload]
    if t[0] == "vec":
        size, _ = _size(t[1])  # type: ignore[arg-type]
        count = int(t[2])  # type: ignore[call-overload]
        return size * count, size * (4 if count == 3 else count)
    if t[0] == "arr":
        _, align = _size(t[1])  # type: ignore[arg-type]
        return int(t[3]) * int(t[2]), max(align, 16)  # type: ignore[call-overload]
    raise ValueError(t)


@dataclass
class Symbol:
    """One shared name: ``name``, ``function`` (else a variable), ``type`` (a function
    type, or the variable's pointer type), ``decorations`` (the texts after ``OpDecorate
    %x``; ``OpDecorateString`` for ``UserSemantic``), ``parameter_decorations`` (per parameter), ``initializer`` (an exported
    variable's), ``exporters`` and ``importers`` (module indices; an exporter that also
    imports it declares a second id), ``once`` (exported ``LinkOnceODR``), ``mixed`` (the
    first exporter ``Export``, the others ``LinkOnceODR``)."""

    name: str
    function: bool
    type: Type
    decorations: list[str]
    parameter_decorations: list[list[str]]
    initializer: bool
    exporters: list[int] = field(default_factory=list)
    importers: list[int] = field(default_factory=list)
    once: bool = False
    mixed: bool = False


class Emitter:
    """One module's text, its types and constants declared on first use (their
    dependencies first)."""

    def __init__(self, rng: random.Random, kernel: bool, index: int) -> None:
        self.rng = rng
        self.kernel = kernel
        self.prefix = f"m{index}_"
        self.caps: dict[str, None] = dict.fromkeys(
            ["Addresses", "Kernel", "Linkage"] if kernel else ["Shader", "Linkage"]
        )
        self.extensions: dict[str, None] = {}
        self.debug: list[str] = []
        self.names: list[str] = []
        self.decorations: list[str] = []
        self.globals: list[str] = []
        self.declarations: list[str] = []
        self.definitions: list[str] = []
        self.ids: dict[object, str] = {}
        self.counter = 0
        self.glsl = ""
        self.groups: list[str] = []

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def name(self, target: str, base: str) -> None:
        if self.rng.random() < 0.4:
            self.names.append(f'OpName {target} "{base}{self.rng.randrange(10)}"')

    def type(self, t: Type) -> str:
        found = self.ids.get(t)
        if found is not None:
            return found
        kind = t[0]
        if kind == "void":
            line = "OpTypeVoid"
        elif kind == "bool":
            line = "OpTypeBool"
        elif kind == "int":
            width = int(t[1])  # type: ignore[call-overload]
            if width != 32:
                self.caps[f"Int{width}"] = None
            line = f"OpTypeInt {width} {t[2]}"
        elif kind == "float":
            if t[1] == 64:
                self.caps["Float64"] = None
            line = f"OpTypeFloat {t[1]}"
        elif kind == "vec":
            if int(t[2]) > 4:  # type: ignore[call-overload]
                self.caps["Vector16"] = None
            line = f"OpTypeVector {self.type(t[1])} {t[2]}"  # type: ignore[arg-type]
        elif kind == "mat":
            line = f"OpTypeMatrix {self.type(t[1])} {t[2]}"  # type: ignore[arg-type]
        elif kind == "arr":
            if isinstance(t[2], tuple):  # a spec constant: ("spec", value, SpecId or 0)
                length = self.spec_constant(int(t[2][1]), int(t[2][2]))
            else:
                length = self.constant(UINT, int(t[2]))  # type: ignore[call-overload]
            line = f"OpTypeArray {self.type(t[1])} {length}"  # type: ignore[arg-type]
        elif kind == "rarr":
            line = f"OpTypeRuntimeArray {self.type(t[1])}"  # type: ignore[arg-type]
        elif kind == "struct":
            members = [self.type(m) for m in t[1]]  # type: ignore[union-attr]
            line = "OpTypeStruct " + " ".join(members)
        elif kind == "ptr":
            line = f"OpTypePointer {t[1]} {self.type(t[2])}"  # type: ignore[arg-type]
        elif kind == "fn":
            params = [self.type(p) for p in t[2]]  # type: ignore[union-attr]
            line = f"OpTypeFunction {self.type(t[1])} " + " ".join(params)  # type: ignore[arg-type]
        else:
            raise ValueError(t)
        rid = self.ids[t] = self.fresh(self.prefix + "t")
        self.globals.append(f"{rid} = {line}")
        if kind in ("arr", "rarr") and t[3]:
            self.decorations.append(f"OpDecorate {rid} ArrayStride {t[3]}")
        if kind == "struct":
            for index, offset in enumerate(t[2]):  # type: ignore[arg-type]
                self.decorations.append(f"OpMemberDecorate {rid} {index} Offset {offset}")
            if t[3]:
                self.decorations.append(f"OpDecorate {rid} Block")
            for index in range(len(t[1])):  # type: ignore[arg-type]
                if self.rng.random() < 0.3:
                    self.names.append(f'OpMemberName {rid} {index} "f{index}"')
        self.name(rid, "T")
        return rid

    def constant(self, t: Type, value: int) -> str:
        key = ("const", t, value)
        found = self.ids.get(key)
        if found is not None:
            return found
        ty = self.type(t)
        if t == BOOL:
            line = f"{'OpConstantTrue' if value else 'OpConstantFalse'} {ty}"
        elif t[0] == "float":
            line = f"OpConstant {ty} {value}.5"
        else:
            line = f"OpConstant {ty} {value}"
        rid = self.ids[key] = self.fresh(self.prefix + "c")
        self.globals.append(f"{rid} = {line}")
        return rid

    def spec_constant(self, value: int, spec_id: int) -> str:
        key = ("spec", value, spec_id)
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = self.fresh(self.prefix + "s")
            self.globals.append(f"{found} = OpSpecConstant {self.type(UINT)} {value}")
            if spec_id:
                self.decorations.append(f"OpDecorate {found} SpecId {spec_id}")
        return found

    def undef(self, t: Type) -> str:
        key = ("undef", t)
        found = self.ids.get(key)
        if found is None:
            ty = self.type(t)
            found = self.ids[key] = self.fresh(self.prefix + "u")
            self.globals.append(f"{found} = OpUndef {ty}")
        return found

    def value(self, t: Type, *, undef: bool = True) -> str:
        """A constant of type ``t``: a null, a scalar or a composite (an OpUndef now and
        then, and for what holds an array of a spec constant's length)."""
        if undef and ("'spec'" in repr(t) or self.rng.random() < 0.05):
            return self.undef(t)
        if t[0] == "ptr" or "'spec'" in repr(t) or self.rng.random() < 0.4:
            key = ("null", t)
            found = self.ids.get(key)
            if found is None:
                ty = self.type(t)
                found = self.ids[key] = self.fresh(self.prefix + "n")
                self.globals.append(f"{found} = OpConstantNull {ty}")
            return found
        if t[0] in ("int", "float", "bool"):
            return self.constant(t, self.rng.randrange(3))
        if t[0] == "vec" or t[0] == "mat":
            parts = [self.value(t[1]) for _ in range(int(t[2]))]  # type: ignore[arg-type, call-overload]
        elif t[0] == "arr":
            parts = [self.value(t[1]) for _ in range(int(t[2]))]  # type: ignore[arg-type, call-overload]
        else:
            parts = [self.value(m) for m in t[1]]  # type: ignore[union-attr]
        key = ("composite", t, tuple(parts))
        found = self.ids.get(key)
        if found is None:
            ty = self.type(t)
            found = self.ids[key] = self.fresh(self.prefix + "k")
            self.globals.append(f"{found} = OpConstantComposite {ty} " + " ".join(parts))
        return found

    def decorate(self, rid: str, decorations: list[str]) -> None:
        """``rid``'s decorations, now and then through a decoration group."""
        if decorations and self.rng.random() < 0.1 and "UserSemantic" not in repr(decorations):
            group = self.fresh(self.prefix + "grp")
            self.groups += [_decoration(group, d) for d in decorations]
            self.groups += [f"{group} = OpDecorationGroup", f"OpGroupDecorate {group} {rid}"]
            return
        self.decorations += [_decoration(rid, d) for d in decorations]

    def text(self, model: str, entries: list[str]) -> str:
        lines = [f"OpCapability {c}" for c in self.caps]
        lines += [f'OpExtension "{e}"' for e in self.extensions]
        if self.glsl:
            lines.append(f'{self.glsl} = OpExtInstImport "GLSL.std.450"')
        if model:
            lines.append(f"OpMemoryModel {model}")
        lines += entries + self.debug + self.names
        decorations = list(self.decorations)
        self.rng.shuffle(decorations)
        lines += decorations + self.groups + self.globals + self.declarations + self.definitions
        return "\n".join(lines) + "\n"


class Generator:
    """The types and symbols of one case (see the module's docstring)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.kernel = self.rng.random() < 0.25

    # types

    def scalar(self, *, in_block: bool = False) -> Type:
        rng = self.rng
        if self.kernel:
            return rng.choice(
                [
                    ("int", 32, 0),
                    ("int", 32, 0),
                    ("float", 32),
                    ("int", 64, 0),
                    ("float", 64),
                    ("int", 16, 0),
                    ("int", 8, 0),
                ]
            )
        choices: list[Type] = [("int", 32, 1), ("int", 32, 0), ("float", 32), ("float", 32)]
        if not in_block:
            choices += [BOOL, ("float", 64), ("int", 64, 1)]
        return rng.choice(choices)

    def value_type(self, depth: int = 0) -> Type:
        """A type a function takes or returns."""
        rng = self.rng
        roll = rng.random()
        if depth > 1 or roll < 0.45:
            return self.scalar()
        if roll < 0.6:
            element = self.scalar()
            while element == BOOL and self.kernel:
                element = self.scalar()
            counts = [2, 3, 4, 8, 16] if self.kernel else [2, 3, 4]
            return ("vec", element, rng.choice(counts))
        if roll < 0.67 and not self.kernel:
            return ("mat", ("vec", ("float", 32), rng.choice([2, 3, 4])), rng.choice([2, 3, 4]))
        if roll < 0.8:
            length: object = rng.choice([1, 2, 4, 5])
            if not self.kernel and rng.random() < 0.2:
                length = ("spec", length, rng.choice([0, 10 + int(length)]))  # type: ignore[call-overload]
            return ("arr", self.value_type(depth + 1), length, 0)
        members = tuple(self.value_type(depth + 1) for _ in range(rng.randrange(1, 4)))
        return ("struct", members, (), False, int(rng.random() < 0.15))

    def parameter_type(self) -> Type:
        if self.rng.random() < 0.25:
            storage = (
                self.rng.choice(["Function", "CrossWorkgroup", "Workgroup"])
                if self.kernel
                else "Function"
            )
            return ("ptr", storage, self.value_type(1))
        return self.value_type()

    def block(self, storage: str) -> Type:
        """A Block struct with offsets (std140 for Uniform, std430 otherwise)."""
        rng = self.rng
        members = []
        for _ in range(rng.randrange(1, 4)):
            roll = rng.random()
            scalar = self.scalar(in_block=True)
            if roll < 0.5:
                members.append(scalar)
            elif roll < 0.75:
                members.append(("vec", scalar, rng.choice([2, 3, 4])))
            else:
                stride = 16 if storage == "Uniform" else 4
                members.append(
                    (
                        "arr",
                        ("int", 32, rng.randrange(2)) if scalar[0] == "int" else ("float", 32),
                        rng.choice([2, 3]),
                        stride,
                    )
                )
        offsets = []
        at = 0
        for member in members:
            size, align = _size(member)
            if storage == "Uniform" and member[0] == "arr":
                align = 16
            at = (at + align - 1) // align * align
            offsets.append(at)
            at += size
        if storage == "StorageBuffer" and rng.random() < 0.3:
            at = (at + 15) // 16 * 16
            members.append(("rarr", ("float", 32), 0, 4))
            offsets.append(at)
        return ("struct", tuple(members), tuple(offsets), True, 0)

    def variable(self) -> tuple[str, Type, list[str], bool]:
        """A global's storage class, pointer type, decorations and whether it may have an
        initializer."""
        rng = self.rng
        if self.kernel:
            storage = rng.choice(["CrossWorkgroup", "CrossWorkgroup", "Workgroup"])
            pointee = self.value_type(1)
            while pointee == BOOL:
                pointee = self.value_type(1)
            decorations = []
            if rng.random() < 0.4:
                decorations.append(f"Alignment {rng.choice([4, 8, 16])}")
            if rng.random() < 0.2:
                decorations.append("Volatile")
            if rng.random() < 0.2:
                decorations.append("Restrict")
            return storage, ("ptr", storage, pointee), decorations, storage == "CrossWorkgroup"
        storage = rng.choice(["Private", "Private", "Workgroup", "Uniform", "StorageBuffer"])
        decorations = []
        if storage in ("Uniform", "StorageBuffer"):
            pointee = self.block(storage)
            if rng.random() < 0.8:
                decorations += [f"DescriptorSet {rng.randrange(2)}", f"Binding {rng.randrange(4)}"]
            if storage == "StorageBuffer" and rng.random() < 0.3:
                decorations.append("NonWritable")
        else:
            pointee = self.value_type(1)
            if rng.random() < 0.2 and pointee[0] in ("int", "float"):
                decorations.append("RelaxedPrecision")
        if rng.random() < 0.15:
            decorations.append(rng.choice(["Restrict", "Aliased"]))
        if rng.random() < 0.06:
            decorations.append(f'UserSemantic "s{rng.randrange(2)}"')
        return storage, ("ptr", storage, pointee), decorations, storage == "Private"

    def mutated(self, t: Type) -> Type:
        """``t`` changed a little somewhere (for an import of another type)."""
        rng = self.rng
        kind = t[0]
        if kind == "int":
            if self.kernel:
                return ("int", 64 if t[1] == 32 else 32, 0)
            return ("int", t[1], 1 - int(t[2]))  # type: ignore[call-overload]
        if kind == "float":
            return ("float", 64 if t[1] == 32 else 32) if rng.random() < 0.5 else ("int", 32, 0)
        if kind == "bool":
            return ("int", 32, 0)
        if kind == "vec":
            if rng.random() < 0.5:
                return ("vec", t[1], 3 if t[2] != 3 else 4)
            return ("vec", self.mutated(t[1]), t[2])  # type: ignore[arg-type]
        if kind == "mat":
            return ("mat", t[1], 3 if t[2] != 3 else 2)
        if kind == "arr":
            if isinstance(t[2], tuple):
                return ("arr", t[1], ("spec", t[2][1], 0 if t[2][2] else 7), t[3])
            if rng.random() < 0.5:
                return ("arr", t[1], int(t[2]) + 1, t[3])  # type: ignore[call-overload]
            return ("arr", self.mutated(t[1]), t[2], t[3])  # type: ignore[arg-type]
        if kind == "struct":
            members = list(t[1])  # type: ignore[arg-type]
            offsets = list(t[2])  # type: ignore[arg-type]
            if offsets and rng.random() < 0.4:
                offsets[-1] += 4 if offsets[-1] % 16 == 0 else 12
                return ("struct", t[1], tuple(offsets), t[3], t[4])
            if (
                len(members) > 1
                and members[0] != members[-1]
                and rng.random() < 0.5
                and not offsets
            ):
                members.reverse()
                return ("struct", tuple(members), t[2], t[3], t[4])
            if offsets:
                return ("struct", t[1], t[2], not t[3], t[4])
            at = rng.randrange(len(members))
            members[at] = self.mutated(members[at])
            return ("struct", tuple(members), t[2], t[3], t[4])
        if kind == "ptr":
            if rng.random() < 0.5 and not str(t[2][0]) == "struct":  # type: ignore[index]
                other = {
                    "Private": "Workgroup",
                    "Workgroup": "Private",
                    "CrossWorkgroup": "Workgroup",
                    "Function": "Private" if not self.kernel else "CrossWorkgroup",
                }.get(str(t[1]), "Private")
                return ("ptr", other, t[2])
            return ("ptr", t[1], self.mutated(t[2]))  # type: ignore[arg-type]
        if kind == "fn":
            params = list(t[2])  # type: ignore[arg-type]
            roll = rng.random()
            if roll < 0.3 or not params:
                return ("fn", self.mutated(t[1]) if t[1] != VOID else ("int", 32, 0), t[2])  # type: ignore[arg-type]
            if roll < 0.45:
                return ("fn", t[1], tuple(params[:-1]))
            at = rng.randrange(len(params))
            params[at] = self.mutated(params[at])
            return ("fn", t[1], tuple(params))
        return t

    # symbols

    def symbols(self, modules: int) -> list[Symbol]:
        rng = self.rng
        out = []
        for number in range(rng.randrange(1, 6)):
            name = rng.choice(["f", "g", "h", "v", "w", "buf", "helper"]) + str(number)
            if rng.random() < 0.55:
                result = VOID if self.kernel and rng.random() < 0.3 else self.value_type()
                params = tuple(self.parameter_type() for _ in range(rng.randrange(4)))
                kind: Type = ("fn", result, params)
                decorations = []
                if not self.kernel and rng.random() < 0.1 and result[0] == "float":
                    decorations.append("RelaxedPrecision")
                parameter_decorations = [self.parameter_decoration(p) for p in params]
                symbol = Symbol(name, True, kind, decorations, parameter_decorations, False)
            else:
                _, pointer, decorations, may_initialize = self.variable()
                initializer = may_initialize and rng.random() < 0.5
                symbol = Symbol(name, False, pointer, decorations, [], initializer)
            exporter = rng.randrange(modules)
            roll = rng.random()
            if roll < 0.04:
                symbol.exporters = []
            elif roll < 0.08 and modules > 1:
                symbol.exporters = [
                    exporter,
                    rng.choice([m for m in range(modules) if m != exporter]),
                ]
            else:
                symbol.exporters = [exporter]
            others = [m for m in range(modules) if m not in symbol.exporters]
            symbol.importers = [m for m in others if rng.random() < 0.6]
            if not symbol.importers and others and rng.random() < 0.8:
                symbol.importers = [rng.choice(others)]
            if symbol.exporters and rng.random() < 0.04:
                symbol.importers.append(symbol.exporters[0])
            if symbol.exporters and rng.random() < 0.1:
                symbol.once = True
                symbol.mixed = rng.random() < 0.2
                if len(symbol.exporters) == 1 and modules > 1 and rng.random() < 0.6:
                    symbol.exporters.append(
                        rng.choice([m for m in range(modules) if m != exporter])
                    )
            out.append(symbol)
        return out

    def parameter_decoration(self, t: Type) -> list[str]:
        rng = self.rng
        if rng.random() > 0.25:
            return []
        if self.kernel:
            if t[0] == "ptr":
                return [f"FuncParamAttr {rng.choice(['NoAlias', 'NoCapture', 'NoWrite'])}"]
            if t[0] == "int":
                return [f"FuncParamAttr {rng.choice(['Zext', 'Sext'])}"]
            return []
        return ["RelaxedPrecision"] if t[0] == "float" else []


MODELS_SHADER = ["GLCompute", "GLCompute", "Vertex", "Fragment"]


def random_case(seed: int) -> Case:
    """The case of ``seed`` (see the module's docstring)."""
    gen = Generator(seed)
    rng = gen.rng
    count = rng.choice([1, 2, 2, 2, 3, 3, 4, 5, 6])
    symbols = gen.symbols(count)
    emitters = [Emitter(rng, gen.kernel, i) for i in range(count)]
    # versions
    choices = (
        ["1.0", "1.1", "1.2"] if gen.kernel else ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6"]
    )
    if rng.random() < 0.7:
        versions = [rng.choice(choices)] * count
    else:
        versions = [rng.choice(choices) for _ in range(count)]
    highest = rng.random() < 0.9
    top = max(versions, key=lambda v: tuple(map(int, v.split("."))))
    # the symbols each module declares: (symbol, role, type, decorations)
    plans: list[list[tuple[Symbol, str, Type, list[str]]]] = [[] for _ in range(count)]
    for symbol in symbols:
        for m in symbol.exporters:
            plans[m].append((symbol, "Export", symbol.type, symbol.decorations))
        for m in symbol.importers:
            t = symbol.type
            decorations = list(symbol.decorations)
            roll = rng.random()
            if roll < 0.03:
                t = gen.mutated(t)
            elif roll < 0.05 and (decorations or not (gen.kernel and symbol.function)):
                extra = "Restrict" if not symbol.function else "RelaxedPrecision"
                decorations = decorations[:-1] if decorations else [extra]
            elif len(decorations) > 1 and roll < 0.2:
                rng.shuffle(decorations)
            plans[m].append((symbol, "Import", t, decorations))
    entries: list[list[str]] = [[] for _ in range(count)]
    entry_names: list[str] = []
    for m, emitter in enumerate(emitters):
        plan = plans[m]
        rng.shuffle(plan)
        wanted = [t for _, _, t, _ in plan]
        for t in rng.sample(wanted, len(wanted)):
            if rng.random() < 0.5:
                emitter.type(t)
        if rng.random() < 0.2:
            emitter.type(gen.value_type())
        if rng.random() < 0.15:
            emitter.debug.append(f'%{emitter.prefix}file = OpString "m{m}.glsl"')
            emitter.debug.append(f"OpSource GLSL 450 %{emitter.prefix}file")
        ids: dict[tuple[str, str], str] = {}
        imported_functions: list[tuple[Symbol, str, Type]] = []
        imported_variables: list[tuple[Symbol, str, Type]] = []
        for symbol, role, t, decorations in plan:
            rid = emitter.fresh(f"{emitter.prefix}{symbol.name}_{role[0]}")
            ids[(symbol.name, role)] = rid
            emitter.name(rid, symbol.name)
            linkage = role
            if (
                role == "Export"
                and symbol.once
                and (symbol.exporters.index(m) > 0 or not symbol.mixed)
            ):
                linkage = "LinkOnceODR"
            attribute = f'OpDecorate {rid} LinkageAttributes "{symbol.name}" {linkage}'
            emitter.decorations.append(attribute)
            emitter.decorate(rid, decorations)
            if any(d.startswith("UserSemantic") for d in decorations):
                emitter.extensions["SPV_GOOGLE_decorate_string"] = None
                emitter.extensions["SPV_GOOGLE_hlsl_functionality1"] = None
            if role == "Export" and symbol.once:
                emitter.extensions["SPV_KHR_linkonce_odr"] = None
            if symbol.function:
                (imported_functions if role == "Import" else []).append((symbol, rid, t))
            else:
                pointer = emitter.type(t)
                init = ""
                if role == "Export" and symbol.initializer:
                    init = " " + emitter.value(t[2], undef=False)  # type: ignore[arg-type]
                if t[1] == "StorageBuffer":
                    emitter.extensions["SPV_KHR_storage_buffer_storage_class"] = None
                emitter.globals.append(f"{rid} = OpVariable {pointer} {t[1]}{init}")
                if role == "Import":
                    imported_variables.append((symbol, rid, t))
        # function declarations and definitions
        for symbol, role, t, _ in plan:
            if not symbol.function:
                continue
            rid = ids[(symbol.name, role)]
            ftype = emitter.type(t)
            result = emitter.type(t[1])  # type: ignore[arg-type]
            lines = [
                f"{rid} = OpFunction {result} {_control(rng) if role == 'Export' else 'None'} {ftype}"
            ]
            params = []
            for index, p in enumerate(t[2]):  # type: ignore[arg-type]
                pid = f"{rid}_p{index}"
                params.append((pid, p))
                lines.append(f"{pid} = OpFunctionParameter {emitter.type(p)}")
                emitter.name(pid, "x")
                if index < len(symbol.parameter_decorations) and rng.random() < 0.8:
                    for decoration in symbol.parameter_decorations[index]:
                        emitter.decorations.append(f"OpDecorate {pid} {decoration}")
            if role == "Import":
                emitter.declarations.append("\n".join(lines + ["OpFunctionEnd"]))
                continue
            lines.append(f"{rid}_l = OpLabel")
            callees = [f for f in imported_functions if symbols.index(f[0]) > symbols.index(symbol)]
            body = _calls(emitter, rng, callees[:2], f"{rid}_")
            lines += body[0] + body[1]
            lines.append(_return(emitter, rng, t[1], params))  # type: ignore[arg-type]
            lines.append("OpFunctionEnd")
            emitter.definitions.append("\n".join(lines))
        rng.shuffle(emitter.definitions)
        # an entry point
        if (imported_functions or imported_variables or rng.random() < 0.3) and rng.random() < 0.85:
            name = "main" if rng.random() < 0.08 else f"main{m}"
            entry_names.append(name)
            model = "Kernel" if gen.kernel else rng.choice(MODELS_SHADER)
            main = f"%{emitter.prefix}main"
            fn_void = emitter.type(("fn", VOID, ()))
            void = emitter.type(VOID)
            variables, calls = _calls(emitter, rng, imported_functions, f"{main}_")
            used = []
            for symbol, rid, t in imported_variables:
                if rng.random() < 0.8:
                    used.append(rid)
                    pointee_type: Type = t[2]  # type: ignore[assignment]
                    if "rarr" in repr(pointee_type):
                        member: Type = pointee_type[1][0]  # type: ignore[index]
                        pm = emitter.type(("ptr", t[1], member))
                        zero = emitter.constant(("int", 32, 1), 0)
                        calls.append(f"{rid}_ac = OpAccessChain {pm} {rid} {zero}")
                        calls.append(f"{rid}_ld = OpLoad {emitter.type(member)} {rid}_ac")
                        continue
                    pointee = emitter.type(pointee_type)
                    calls.append(f"{rid}_ld = OpLoad {pointee} {rid}")
                    writable = t[1] not in ("Uniform",) and "NonWritable" not in symbol.decorations
                    if writable and rng.random() < 0.5:
                        calls.append(f"OpStore {rid} {emitter.value(t[2])}")  # type: ignore[arg-type]
            if used and highest and _at_least(top, 1, 4):
                versions[m] = top
            interface = " ".join(used) if _at_least(versions[m], 1, 4) else ""
            body = "\n".join(
                [
                    f"{main} = OpFunction {void} None {fn_void}",
                    f"{main}_l = OpLabel",
                    *variables,
                    *calls,
                    "OpReturn",
                    "OpFunctionEnd",
                ]
            )
            emitter.definitions.insert(rng.randrange(len(emitter.definitions) + 1), body)
            entries[m].append(f'OpEntryPoint {model} {main} "{name}" {interface}')
            if rng.random() < 0.1:
                entries[m].append(f'OpEntryPoint {model} {main} "{name}_b" {interface}')
            if model == "GLCompute":
                entries[m].append(f"OpExecutionMode {main} LocalSize 1 1 1")
            elif model == "Fragment":
                entries[m].append(f"OpExecutionMode {main} OriginUpperLeft")
            elif model == "Kernel" and rng.random() < 0.5:
                entries[m].append(f"OpExecutionMode {main} LocalSize 2 1 1")
    default_model = "Physical64 OpenCL" if gen.kernel else "Logical GLSL450"
    texts = []
    for m, emitter in enumerate(emitters):
        model = default_model
        if rng.random() < 0.03:
            model = "Physical32 OpenCL" if gen.kernel else rng.choice(["Logical Simple", ""])
        if _at_least(versions[m], 1, 1) and rng.random() < 0.1:
            emitter.names.append('OpModuleProcessed "random"')
        texts.append(Text(emitter.text(model, entries[m]), versions[m]))
    out_version = top if highest else versions[0]
    env = "opencl2.2" if gen.kernel else f"spv{out_version}"
    return Case(
        f"random_{seed}",
        tuple(texts),
        "spirv-link",
        partial=rng.random() < 0.3,
        library=rng.random() < 0.25,
        highest=highest,
        env=env,
    )


def _decoration(target: str, decoration: str) -> str:
    if decoration.startswith("UserSemantic"):
        return f"OpDecorateString {target} {decoration}"
    return f"OpDecorate {target} {decoration}"


def _at_least(version: str, major: int, minor: int) -> bool:
    return tuple(map(int, version.split("."))) >= (major, minor)


def _control(rng: random.Random) -> str:
    return rng.choice(["None", "None", "None", "Inline", "DontInline", "Pure", "Const"])


def _calls(
    emitter: Emitter, rng: random.Random, functions: list[tuple[Symbol, str, Type]], prefix: str
) -> tuple[list[str], list[str]]:
    """A block's Function variables and calls of ``functions`` (each with arguments of
    its parameters' types)."""
    variables: list[str] = []
    calls: list[str] = []
    for number, (_, rid, t) in enumerate(functions):
        args = []
        for index, p in enumerate(t[2]):  # type: ignore[arg-type]
            if p[0] == "ptr" and (p[1] == "Function" or not emitter.kernel):
                var = f"{prefix}v{number}_{index}"
                variables.append(f"{var} = OpVariable {emitter.type(p)} Function")
                args.append(var)
            else:
                args.append(emitter.value(p))
        result = emitter.type(t[1])  # type: ignore[arg-type]
        calls.append(f"{prefix}r{number} = OpFunctionCall {result} {rid} " + " ".join(args))
    return variables, calls


def _return(
    emitter: Emitter, rng: random.Random, result: Type, params: list[tuple[str, Type]]
) -> str:
    if result == VOID:
        return "OpReturn"
    same = [pid for pid, p in params if p == result]
    if same and rng.random() < 0.7:
        return f"OpReturnValue {rng.choice(same)}"
    return f"OpReturnValue {emitter.value(result)}"


def main() -> None:
    import sys
    from pathlib import Path

    from tests.passes import link_differential as diff

    first, count = int(sys.argv[1]), int(sys.argv[2])
    batch = 200
    tally: dict[str, int] = {}
    found: dict[str, list[int]] = {}
    for start in range(first, first + count, batch):
        cases = [random_case(s) for s in range(start, min(start + batch, first + count))]
        with diff.scratch() as folder:
            for outcome, kind in diff.judge(cases, Path(folder)):
                case = outcome.case
                tally[kind] = tally.get(kind, 0) + 1
                if kind not in diff.AGREEING:
                    found.setdefault(kind, []).append(int(case.name.split("_")[-1]))
        print(start + batch, tally, flush=True)
    for kind, seeds in sorted(found.items()):
        print(f"{kind}: {len(seeds)}: {seeds[:40]}")


if __name__ == "__main__":
    main()
