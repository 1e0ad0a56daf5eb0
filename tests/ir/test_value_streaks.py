"""The fast paths' streaks of values (spvbuild.ir.value_types) decide what the type rules
decide: random arithmetic over values of several types, some of each call's operands of a
wrong type, an id not handed out or a type where a value belongs, built twice, through
the fast paths and with ``call_sites=True`` (every call takes the general path, which
checks each call against the whole map of value types).  Each call is refused by both or
by neither, with the same message (where an id not handed out and another mistake meet in
one call, either may be named first), and the modules that remain write the same words."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from spvbuild.enums import AddressingModel, MemoryModel, StorageClass
from spvbuild.errors import BuildError, SpvbuildError
from spvbuild.ir.module import Module
from spvbuild.ir.value_types import value_types
from spvbuild.spirv.ids import Id, TypeId

OPERATIONS = ("i_add", "i_sub", "i_mul", "bitwise_xor", "f_add", "f_mul", "s_div", "u_div")


def _program(seed: int, general: bool) -> tuple[list[str], list[int]]:
    """Build a random program; each call's outcome ("ok" or the error text) and the words."""
    rng = random.Random(seed)
    m = Module(call_sites=general)
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    u32, i32, f32 = m.type_int(32, 0), m.type_int(32, 1), m.type_float(32)
    types = [u32, i32, f32, m.type_vector(f32, 2)]
    m.define_function(m.type_void(), name="main")
    values: dict[int, list[Id]] = {int(t): [] for t in types}
    for t in types[:3]:
        values[int(t)] += [m.constant(t, 1 if t != f32 else 1.5), m.constant(t, 2 if t != f32 else 2.5)]
    values[int(types[3])].append(m.constant_composite(types[3], [values[int(f32)][0]] * 2))
    outcomes: list[str] = []
    for step in range(300):
        # Long runs of one type (streaks), broken now and then by another type, a constant
        # declared mid-function, a store that reads the map, or a new TypeId object.
        kind = types[0] if step % 40 < 30 else rng.choice(types)
        if rng.random() < 0.05:
            kind = m.type_int(32, 0) if kind == u32 else kind  # (the same type, another object)
        name = rng.choice(OPERATIONS)
        pool = values[int(kind)]

        def operand(step: int = step, pool: list[Id] = pool, kind: TypeId = kind) -> Any:
            roll = rng.random()
            if roll < 0.9 or step < 5:
                return rng.choice(pool[-8:])
            if roll < 0.96:
                return rng.choice(values[int(rng.choice(types))])  # maybe a wrong type
            if roll < 0.98:
                return Id(m.bound + 5)  # not handed out
            return kind  # a type where a value belongs

        call: Callable[..., Id] = getattr(m, name)
        operands = (operand(), operand())
        roll = rng.random()
        # The streak's type by another object now and then; rarely no type at all, or a
        # plain int where the TypeId belongs (never taken for the streak's type).
        result_type: Any = (
            TypeId(int(kind)) if roll < 0.1 else None if roll < 0.12 else int(kind) if roll < 0.14 else kind
        )
        try:
            made = call(result_type, *operands)
        except SpvbuildError as exc:
            # (with an id not handed out besides another mistake, the paths may name
            # either first: only the refusal is compared)
            unhanded = any(int(o) >= m.bound for o in operands)
            text = "refused" if unhanded else str(exc).rsplit(" (at ", 1)[0]
            outcomes.append(f"{step} {name}: {type(exc).__name__}: {text}")
            continue
        outcomes.append(f"{step} {name}: ok")
        pool.append(made)
        if rng.random() < 0.02:
            values[int(u32)].append(m.constant(u32, step))  # a definition mid-streak
        if rng.random() < 0.03:
            variable = m.variable(m.type_pointer(StorageClass.Function, f32), StorageClass.Function)
            try:
                m.store(variable, rng.choice(pool))  # reads the map (a float pointer)
                outcomes.append(f"{step} store: ok")
            except BuildError as exc:
                outcomes.append(f"{step} store: {str(exc).rsplit(' (at ', 1)[0]}")
    m.return_().function_end()
    return outcomes, m.to_words()


@pytest.mark.parametrize("seed", range(12))
def test_streaks_decide_what_the_general_path_decides(seed: int) -> None:
    fast, fast_words = _program(seed, general=False)
    general, general_words = _program(seed, general=True)
    assert fast == general
    refused = sum(1 for line in fast if not line.endswith(": ok"))
    assert 0 < refused < len(fast)  # the programs make mistakes, and right calls
    assert fast_words == general_words


def test_the_map_read_through_value_types_holds_every_streak_value() -> None:
    m = Module()
    u32 = m.type_int(32, 0)
    m.define_function(m.type_void(), name="main")
    x = m.constant(u32, 1)
    made = [m.i_add(u32, x, x)]
    for _ in range(50):
        made.append(m.i_mul(u32, made[-1], x))
    assert m._value_types is not None and len(m._value_types) < 10  # the streak holds them
    types = value_types(m)
    assert types is not None and all(types[v] == u32 for v in made)
