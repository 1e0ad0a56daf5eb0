"""The canonical order of the unordered sections: by kept words it is the operand key's.

``spvbuild.ir.section_order`` orders decorations, names and execution modes by the words
their calls made where that gives the operand key's order; these tests build sections
of random calls (strings, enumerants with parameters, the same target many times, the
same name twice) and compare with the operand key's sort, and with call order reversed.
"""

from __future__ import annotations

import random

import pytest

from spvbuild.enums import (
    BuiltIn,
    Decoration,
    DecorationArrayStride,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationDescriptorSet,
    DecorationLinkageAttributes,
    DecorationLocation,
    DecorationOffset,
    DecorationUserSemantic,
    LinkageType,
)
from spvbuild.generated.core.opcodes import OP_DECORATE, OP_MEMBER_NAME, OP_NAME
from spvbuild.ir.layout_engine import by_words
from spvbuild.ir.module import Module
from spvbuild.ir.section_order import WORD_KEYS, canonical, target_key
from spvbuild.spirv.ids import Id


def _calls(
    rng: random.Random, targets: list[Id], struct: Id
) -> list[tuple[str, tuple[object, ...]]]:
    """Random decoration, name and member-name calls (some repeated on one target)."""
    out: list[tuple[str, tuple[object, ...]]] = []
    for _ in range(rng.randrange(1, 14)):
        target = rng.choice(targets)
        kind = rng.randrange(9)
        if kind == 0:
            out.append(("decorate", (target, rng.choice([Decoration.Block, Decoration.Flat]))))
        elif kind == 1:
            parameter = rng.choice(
                [
                    DecorationArrayStride(rng.choice([4, 8, 16])),
                    DecorationBinding(rng.randrange(3)),
                    DecorationDescriptorSet(rng.randrange(3)),
                    DecorationLocation(rng.randrange(3)),
                    DecorationBuiltIn(rng.choice([BuiltIn.Position, BuiltIn.GlobalInvocationId])),
                ]
            )
            out.append(("decorate", (target, parameter)))
        elif kind == 2:  # a string parameter: the operand key decides by the string
            name = rng.choice(["a", "b", "ab", "ba", "zz"])
            out.append(
                ("decorate", (target, DecorationLinkageAttributes(name, LinkageType.Export)))
            )
        elif kind == 3:
            out.append(
                ("decorate_string", (target, DecorationUserSemantic(rng.choice(["x", "y"]))))
            )
        elif kind in (4, 5):
            out.append(("name", (target, rng.choice(["p", "q", "pq", "qp", "main"]))))
        elif kind == 6:
            out.append(("member_name", (struct, rng.randrange(2), rng.choice(["m", "n", "mn"]))))
        elif kind == 7:
            out.append(
                (
                    "member_decorate",
                    (struct, rng.randrange(2), DecorationOffset(rng.choice([0, 4]))),
                )
            )
        else:
            out.append(("decorate", (target, DecorationBinding(rng.randrange(2)))))
    return out


def _module(calls: list[tuple[str, tuple[object, ...]]]) -> Module:
    m = Module(version=(1, 4))
    f32 = m.type_float(32)
    m.type_struct([f32, f32])
    for _ in range(4):
        m.constant(f32, float(m.bound))
    for method, arguments in calls:
        getattr(m, method)(*arguments)
    return m


@pytest.mark.parametrize("seed", range(300))
def test_words_order_is_the_operand_keys(seed: int) -> None:
    rng = random.Random(seed)
    probe = Module(version=(1, 4))
    f32 = probe.type_float(32)
    struct = probe.type_struct([f32, f32])
    targets = [Id(v) for v in (1, 2, 3, 4, 5, 6)]
    calls = _calls(rng, targets, struct)
    for order in (calls, calls[::-1]):
        m = _module(order)
        for section in ("annotations", "debug_names", "execution_modes"):
            items = m.sections[section]
            assert canonical(section, items, m._kept) == sorted(items, key=target_key)
    forward, backward = _module(calls), _module(calls[::-1])
    assert forward.to_words() == backward.to_words()  # call order does not matter


def test_names_on_distinct_targets_are_ordered_by_words() -> None:
    """Names on distinct targets (the usual case) need no string comparison."""
    m = Module()
    f32 = m.type_float(32)
    u32 = m.type_int(32, 0)
    m.name(u32, "b").name(f32, "a")
    items = m.sections["debug_names"]
    assert WORD_KEYS[OP_NAME][2] == 0 and WORD_KEYS[OP_MEMBER_NAME][2] == 1
    assert by_words(items, m._kept, WORD_KEYS) == [items[1], items[0]]  # by words, not by the key


def test_a_tie_on_the_words_before_a_string_falls_back_to_the_operand_key() -> None:
    m = Module()
    f32 = m.type_float(32)
    m.name(f32, "zeta").name(f32, "alpha")  # the same target twice: the strings decide
    items = m.sections["debug_names"]
    assert by_words(items, m._kept, WORD_KEYS) is None
    assert [i.operands[1] for i in canonical("debug_names", items, m._kept)] == ["alpha", "zeta"]


def test_decorations_sort_by_target_then_opcode_then_value() -> None:
    m = Module()
    f32 = m.type_float(32)
    u32 = m.type_int(32, 0)
    m.decorate(u32, DecorationBinding(2)).decorate(f32, DecorationBinding(1))
    m.decorate(f32, Decoration.Block).decorate(f32, DecorationArrayStride(4))
    items = by_words(m.sections["annotations"], m._kept, WORD_KEYS)
    assert items is not None  # by words, not by the key
    assert all(i.opcode == OP_DECORATE for i in items)
    assert [(int(i.operands[0]), i.operands[1]) for i in items] == [
        (int(f32), Decoration.Block),
        (int(f32), DecorationArrayStride(4)),
        (int(f32), DecorationBinding(1)),
        (int(u32), DecorationBinding(2)),
    ]
