"""Fuzzing the disassembler: any input gives text or raises BinaryError, never another
exception, never a hang; and what it prints is consistent across its modes.

Inputs: arbitrary bytes and words behind a valid header, catalogue modules and random
grammar-driven modules (tests/text/test_disassembler.py) with words replaced, inserted, deleted
or their word counts and opcodes changed.  Bounded (a few hundred examples per property,
no deadline) so the file runs in seconds; spirv-dis itself is compared in
tests/text/test_disassembler.py.
"""

from __future__ import annotations

import struct
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spvbuild.errors import BinaryError
from spvbuild.text.dis_names import exact_names, friendly_names
from spvbuild.text.disassembler import disassemble
from tests.modules.catalogue import CATALOGUE
from tests.text.test_disassembler import random_module

FUZZ = settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MAGIC = 0x07230203
VERSIONS = (0x10000, 0x10300, 0x10500, 0x10600)


@cache
def seeds() -> tuple[tuple[int, ...], ...]:
    """A few catalogue modules and random modules to mutate."""
    out: list[tuple[int, ...]] = []
    for entry in CATALOGUE[::4]:
        try:
            out.append(tuple(entry.words()))
        except Exception:  # an entry documenting a Module bug may not build
            continue
    out += [tuple(random_module(seed, 16)) for seed in range(20)]
    return tuple(out)


def check(data: bytes | list[int]) -> str | None:
    """Disassemble in every mode: text or BinaryError, the same verdict in each mode."""
    results: list[str | None] = []
    for options in ({}, {"raw_id": True}, {"header": False}, {"indent": False}):
        try:
            results.append(disassemble(data, **options))
        except BinaryError:
            results.append(None)
    assert all((r is None) == (results[0] is None) for r in results)
    friendly, raw, bare, flat = results
    if friendly is not None:
        assert raw is not None and bare is not None and flat is not None
        assert friendly.endswith("\n") and raw.endswith("\n")
        assert len(friendly.splitlines()) == len(raw.splitlines()) == len(bare.splitlines()) + 5
        assert friendly.splitlines()[5:] == bare.splitlines()
        flat_lines = flat.splitlines()[5:]
        assert len(flat_lines) == len(bare.splitlines())
        assert all(a.endswith(b) for a, b in zip(bare.splitlines(), flat_lines, strict=True))
    return friendly


@FUZZ
@given(st.binary(max_size=400))
def test_arbitrary_bytes(data: bytes) -> None:
    check(data)


@FUZZ
@given(
    st.sampled_from(VERSIONS),
    st.integers(0, 2**32 - 1),
    st.integers(0, 300),
    st.lists(st.integers(0, 2**32 - 1), max_size=120),
)
def test_arbitrary_words_after_a_header(
    version: int, generator: int, bound: int, body: list[int]
) -> None:
    check([MAGIC, version, generator, bound, 0, *body])


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.integers(1, 12), st.integers(0, 400), st.lists(st.integers(0, 60), max_size=11)
        ),
        max_size=40,
    )
)
def test_instruction_shaped_words(instructions: list[tuple[int, int, list[int]]]) -> None:
    """Well-framed instructions of small opcodes with small operands (ids, enum values)."""
    words = [MAGIC, 0x10600, 0, 64, 0]
    for count, opcode, operands in instructions:
        operands = (operands + [1] * count)[: count - 1]
        words += [count << 16 | opcode, *operands]
    check(words)


@FUZZ
@given(
    st.integers(0, 10**6),
    st.lists(
        st.tuples(
            st.sampled_from(("set", "insert", "delete", "count", "opcode")),
            st.integers(0, 2**31),
            st.sampled_from((0, 1, 2, 3, 11, 0xFFFFFFFF, 0x80000000, 0x3F800000, 0x10000)),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_modules(pick: int, edits: list[tuple[str, int, int]]) -> None:
    pool = seeds()
    words = list(pool[pick % len(pool)])
    for action, where, value in edits:
        i = 5 + where % max(1, len(words) - 5)
        if action == "set" and i < len(words):
            words[i] = value
        elif action == "insert":
            words.insert(i, value)
        elif action == "delete" and i < len(words):
            del words[i]
        elif action == "count" and i < len(words):
            words[i] = (value & 0xFFFF) << 16 | (words[i] & 0xFFFF)
        elif action == "opcode" and i < len(words):
            words[i] = (words[i] & 0xFFFF0000) | (value & 0xFFFF)
    check(words)
    check(struct.pack(f">{len(words)}I", *words))  # the other byte order


@FUZZ
@given(st.integers(0, 10**6), st.integers(1, 40))
def test_random_modules(seed: int, count: int) -> None:
    """Random grammar-driven modules; where they disassemble, the fast naming pass gives
    the names of the complete pass."""
    words = random_module(seed, count)
    if check(words) is not None:
        exact = {k: v for k, v in exact_names(words).items() if v != str(k)}
        assert friendly_names(words) == exact
