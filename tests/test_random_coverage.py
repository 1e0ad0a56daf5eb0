"""The random modules (tests/random_modules.py) cover the whole grammar, in modules
spirv-dis accepts.

The modules of ``RANDOM_SEEDS`` are the ones tests/text/test_disassembler.py compares with
spirv-dis and tests/text/test_differential.py takes round trip (read → write, dis → as against
spirv-as).  Here: spirv-dis accepts every clean seed and refuses many broken ones; and the
words of the accepted modules, walked with the grammar tables, hold every core opcode,
every instruction of every extended set, every opcode ``OpSpecConstantOp`` takes, every
operand kind an instruction can hold and every enumerant (or mask bit) of every enum kind,
with its parameters.  The few items spirv-dis refuses in any module
(``SPIRV_DIS_REJECTS``) are checked to be still refused, by spirv-dis and by spvbuild.
A failure lists what is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest

from spvbuild.errors import BinaryError
from spvbuild.generated.core import tables
from spvbuild.generated.extinst import IMPORT_NAMES, known_import_name
from spvbuild.spirv.tables import KindInfo, OperandInfo
from spvbuild.text.disassembler import disassemble
from tests.random_modules import (
    CORE,
    OP_CONSTANT,
    OP_EXT_INST,
    OP_EXT_INST_IMPORT,
    OP_EXT_INST_WITH_FORWARD_REFS,
    OP_SPEC_CONSTANT,
    OP_SPEC_CONSTANT_OP,
    OP_SWITCH,
    OP_TYPE_FLOAT,
    OP_TYPE_INT,
    RANDOM_SEEDS,
    SPIRV_DIS_REJECTS,
    Item,
    all_items,
    is_clean,
    item_module,
    random_module,
    schedule,
    set_tables,
    unreachable_kinds,
)
from tests.text.test_disassembler import pack, spirv_dis

# Kinds no instruction holds, not even as a parameter of an enumerant: no binary has an
# operand of these kinds.  Core's are the kinds the grammar only names for the values of
# ids (Scope, MemorySemantics) or of operands typed as ids or literal integers; the
# sets' are enums whose operands the grammar types as ids.
UNREACHABLE_KINDS = [
    "ImageChannelOrder",
    "ImageChannelDataType",
    "MemorySemantics",
    "KernelEnqueueFlags",
    "KernelProfilingInfo",
    "RayFlags",
    "FragmentShadingRate",
    "Scope",
    "RayQueryIntersection",
    "RayQueryCommittedIntersectionType",
    "RayQueryCandidateIntersectionType",
    "QuantizationModes",
    "OverflowModes",
    "CooperativeMatrixLayout",
    "CooperativeMatrixUse",
    "TensorClampMode",
    "CooperativeVectorMatrixLayout",
    "ComponentType",
    "NonSemantic.ClspvReflection.6:KernelPropertyFlags",
    "NonSemantic.Shader.DebugInfo.100:DebugInfoFlags",
    "NonSemantic.Shader.DebugInfo.100:BuildIdentifierFlags",
    "NonSemantic.Shader.DebugInfo.100:DebugBaseTypeAttributeEncoding",
    "NonSemantic.Shader.DebugInfo.100:DebugCompositeType",
    "NonSemantic.Shader.DebugInfo.100:DebugTypeQualifier",
    "NonSemantic.Shader.DebugInfo.100:DebugOperation",
    "NonSemantic.Shader.DebugInfo.100:DebugImportedEntity",
]


# -- walking the words --------------------------------------------------------------------------


class WalkError(AssertionError):
    """The walk and the module disagree: a word count the layout does not give."""


class _Walk:
    """Every item an accepted module holds, from its words and the grammar tables alone
    (spvbuild's reader is not used: it is under test)."""

    def __init__(self, words: list[int], name: str) -> None:
        self.words = words
        self.name = name
        self.items: set[Item] = set()
        self.widths: dict[int, int] = {}  # numeric type id -> width
        self.value_types: dict[int, int] = {}
        self.imports: dict[int, str] = {}
        self.pos = 0
        self.end = 0
        self.space = CORE

    def fail(self, why: str) -> WalkError:
        return WalkError(f"{self.name}: word {self.pos}: {why}")

    def run(self) -> set[Item]:
        words = self.words
        start = 5
        while start < len(words):
            count, opcode = words[start] >> 16, words[start] & 0xFFFF
            self.pos, self.end = start + 1, start + count
            if count == 0 or self.end > len(words) or opcode not in tables.INSTRUCTIONS:
                raise self.fail(f"bad instruction word {words[start]:#x}")
            self.instruction(opcode)
            if self.pos != self.end:
                raise self.fail(f"{self.end - self.pos} words left in opcode {opcode}")
            start = self.end
        return self.items

    def take(self) -> int:
        if self.pos >= self.end:
            raise self.fail("an operand past the end of the instruction")
        self.pos += 1
        return self.words[self.pos - 1]

    def cover_kind(self, kind: str) -> None:
        own = self.space != CORE and kind in set_tables(self.space).KINDS
        self.items.add(Item("kind", self.space if own else CORE, kind, 0))

    def instruction(self, opcode: int) -> None:
        info = tables.INSTRUCTIONS[opcode]
        self.items.add(Item("op", CORE, "", opcode))
        operands = info.operands
        result_type = result = None
        if info.has_result_type:
            result_type = self.operand(tables.KINDS, "IdResultType")
            operands = operands[1:]
        if info.has_result:
            result = self.operand(tables.KINDS, "IdResult")
            operands = operands[1:]
            if result_type is not None:
                self.value_types[result] = result_type
        if opcode in (OP_CONSTANT, OP_SPEC_CONSTANT):
            assert result_type is not None
            if result_type not in self.widths:
                raise self.fail(f"a constant of %{result_type}, not a numeric type")
            self.cover_kind("LiteralContextDependentNumber")
            self.pos += max(1, (self.widths[result_type] + 31) // 32)
        elif opcode == OP_SWITCH:
            selector = self.operand(tables.KINDS, "IdRef")
            self.operand(tables.KINDS, "IdRef")
            width = self.widths.get(self.value_types.get(selector, 0), 0)
            if not width:
                raise self.fail(f"a switch on %{selector}, not of a numeric type")
            while self.pos < self.end:
                self.cover_kind("PairLiteralIntegerIdRef")
                self.cover_kind("LiteralInteger")
                self.pos += max(1, (width + 31) // 32)
                self.operand(tables.KINDS, "IdRef")
        elif opcode in (OP_EXT_INST, OP_EXT_INST_WITH_FORWARD_REFS):
            self.ext_inst()
        elif opcode == OP_SPEC_CONSTANT_OP:
            self.cover_kind("LiteralSpecConstantOpInteger")
            embedded = self.take()
            if embedded not in tables.SPEC_CONSTANT_OP_OPCODES:
                raise self.fail(f"OpSpecConstantOp of opcode {embedded}")
            self.items.add(Item("spec", CORE, "", embedded))
            self.layout(tables.KINDS, tables.INSTRUCTIONS[embedded].operands[2:])
        else:
            first = self.pos
            self.layout(tables.KINDS, operands)
            if opcode in (OP_TYPE_INT, OP_TYPE_FLOAT) and result is not None:
                self.widths[result] = self.words[first]
            if opcode == OP_EXT_INST_IMPORT and result is not None:
                data = b"".join(w.to_bytes(4, "little") for w in self.words[first : self.end])
                self.imports[result] = data.partition(b"\0")[0].decode("utf-8", "replace")

    def ext_inst(self) -> None:
        set_id = self.operand(tables.KINDS, "IdRef")
        self.cover_kind("LiteralExtInstInteger")
        number = self.take()
        name = known_import_name(self.imports.get(set_id, ""))
        if name is None or number not in set_tables(name).INSTRUCTIONS:
            self.pos = self.end  # an unknown non-semantic instruction: ids only
            return
        self.items.add(Item("ext", name, "", number))
        self.space = name
        try:
            module = set_tables(name)
            self.layout({**tables.KINDS, **module.KINDS}, module.INSTRUCTIONS[number].operands)
        finally:
            self.space = CORE

    def layout(self, kinds: dict[str, KindInfo], operands: Iterable[OperandInfo]) -> None:
        for op in operands:
            if op.quantifier == "":
                self.operand(kinds, op.kind)
            elif op.quantifier == "?":
                if self.pos < self.end:
                    self.operand(kinds, op.kind)
            else:
                while self.pos < self.end:
                    self.operand(kinds, op.kind)

    def operand(self, kinds: dict[str, KindInfo], kind: str) -> int:
        """Walk one operand; its first word."""
        info = kinds[kind]
        self.cover_kind(kind)
        first = self.pos
        if kind == "LiteralString":  # up to the word with a NUL byte
            word = self.take()
            while all(word >> shift & 0xFF for shift in (0, 8, 16, 24)):
                word = self.take()
            return self.words[first]
        if info.category == "Composite":
            for base in info.bases:
                self.operand(kinds, base)
            return self.words[first]
        value = self.take()
        if info.category in ("ValueEnum", "BitEnum"):
            self.enum(kinds, info, value)
        return value

    def enum(self, kinds: dict[str, KindInfo], info: KindInfo, value: int) -> None:
        own = self.space != CORE and info.name in set_tables(self.space).KINDS
        space = self.space if own else CORE
        params: list[OperandInfo] = []
        if info.category == "ValueEnum":
            if value not in info.enumerants:
                raise self.fail(f"{info.name} {value} is no enumerant")
            self.items.add(Item("enum", space, info.name, value))
            params.extend(info.enumerants[value].parameters)
        else:
            known = 0
            for enumerant in info.enumerants:
                known |= enumerant
                if enumerant and value & enumerant == enumerant or enumerant == value == 0:
                    self.items.add(Item("enum", space, info.name, enumerant))
            if value & ~known:
                raise self.fail(f"{info.name} {value:#x} has unknown bits")
            bit = 1
            while bit <= value:
                if value & bit and bit in info.enumerants:
                    params.extend(info.enumerants[bit].parameters)
                bit <<= 1
        self.layout(kinds, params)


def walk(words: list[int], name: str = "module") -> set[Item]:
    """The items a module holds (it must be one spirv-dis accepts)."""
    return _Walk(words, name).run()


# -- the seeds ---------------------------------------------------------------------------------


@cache
def _verdicts() -> dict[int, tuple[list[int], int]]:
    """Each seed's module and spirv-dis's exit code on it (several spirv-dis at once)."""
    modules = {seed: random_module(seed) for seed in RANDOM_SEEDS}
    with ThreadPoolExecutor(max_workers=min(8, (os.cpu_count() or 1) * 2)) as pool:
        codes = pool.map(lambda words: spirv_dis(pack(words))[0], modules.values())
        return {seed: (modules[seed], code) for seed, code in zip(modules, codes, strict=True)}


def _describe(items: Iterable[Item], limit: int = 60) -> str:
    names = sorted(str(item) for item in items)
    more = f"\n... and {len(names) - limit} more" if len(names) > limit else ""
    return "\n".join(names[:limit]) + more


@pytest.mark.spirv_val
def test_clean_seeds_are_accepted_and_broken_ones_mostly_not() -> None:
    verdicts = _verdicts()
    refused = [seed for seed, (_, code) in verdicts.items() if code != 0 and is_clean(seed)]
    assert not refused, f"spirv-dis refuses clean seeds {refused}"
    broken = [code for seed, (_, code) in verdicts.items() if not is_clean(seed)]
    rejected = sum(1 for code in broken if code != 0)
    assert len(broken) >= 50 and len(broken) // 3 <= rejected < len(broken), (
        f"{rejected} of {len(broken)} broken seeds rejected"
    )


@pytest.mark.spirv_val
def test_accepted_modules_cover_every_item() -> None:
    covered: set[Item] = set()
    for seed, (words, code) in _verdicts().items():
        if code == 0:
            covered |= walk(words, f"seed {seed}")
    wanted = set(all_items()) - SPIRV_DIS_REJECTS
    missing = wanted - covered
    assert not missing, f"{len(missing)} items in no module spirv-dis accepts:\n" + _describe(
        missing
    )
    outside = covered - wanted
    assert not outside, "items outside all_items() or refused:\n" + _describe(outside)


def test_every_item_is_scheduled_once() -> None:
    seen: dict[Item, list[int]] = {}
    for seed in RANDOM_SEEDS:
        for item in schedule(seed):
            seen.setdefault(item, []).append(seed)
    assert set(seen) == set(all_items())
    assert [item for item, seeds in seen.items() if len(seeds) != 1] == []
    misplaced = [
        str(item) for item, (seed,) in seen.items() if is_clean(seed) == (item in SPIRV_DIS_REJECTS)
    ]
    assert misplaced == [], "refused items go to broken seeds, the others to clean ones"


def test_the_grammar_has_what_the_coverage_counts() -> None:
    items = all_items()
    count = {what: sum(1 for item in items if item.what == what) for what in ("op", "spec")}
    assert count["op"] == len(tables.INSTRUCTIONS)
    assert count["spec"] == len(tables.SPEC_CONSTANT_OP_OPCODES)
    for space in IMPORT_NAMES:
        numbers = {item.value for item in items if item.what == "ext" and item.space == space}
        assert numbers == set(set_tables(space).INSTRUCTIONS), space
    assert sorted(unreachable_kinds()) == sorted(set(UNREACHABLE_KINDS))
    kinds = {(item.space, item.name) for item in items if item.what == "kind"}
    every = {(CORE, kind) for kind in tables.KINDS}
    every |= {(space, kind) for space in IMPORT_NAMES for kind in set_tables(space).KINDS}
    named = {kind if space == CORE else f"{space}:{kind}" for space, kind in every - kinds}
    assert named == set(UNREACHABLE_KINDS)
    for space, kind in kinds:
        info = (tables.KINDS if space == CORE else set_tables(space).KINDS)[kind]
        values = {i.value for i in items if i.what == "enum" and (i.space, i.name) == (space, kind)}
        assert values == set(info.enumerants), kind


@pytest.mark.spirv_val
@pytest.mark.parametrize("item", sorted(SPIRV_DIS_REJECTS), ids=str)
def test_refused_items_are_still_refused(item: Item) -> None:
    """spirv-dis refuses a clean module with the item (and takes it without), and so do we."""
    for seed in range(3):
        assert spirv_dis(pack(item_module((), seed)))[0] == 0
        words = item_module((item,), seed)
        assert spirv_dis(pack(words))[0] != 0, f"spirv-dis takes {item}: not a refused item"
        with pytest.raises(BinaryError):
            disassemble(words)


@pytest.mark.spirv_val
def test_the_walk_checks_word_counts() -> None:
    """A word cut from, or added to, the module's first instruction (an OpTypeInt of
    width and signedness) fails the walk."""
    words, code = _verdicts()[0]
    assert code == 0
    walk(words, "seed 0")
    assert words[5] == 4 << 16 | OP_TYPE_INT
    with pytest.raises(WalkError, match="past the end"):
        walk([*words[:5], 3 << 16 | OP_TYPE_INT, *words[6:8], *words[9:]], "cut")
    with pytest.raises(WalkError, match="words left"):
        walk([*words[:5], 5 << 16 | OP_TYPE_INT, *words[6:9], 0, *words[9:]], "longer")
