"""Property: over mutated real modules (an instruction dropped, repeated or moved, an id
operand or a word changed), every pass returns a module that writes back and reads again,
or raises a spvbuild error, never anything else."""

from __future__ import annotations

import random

import pytest

from spvbuild import Module, read
from spvbuild.errors import SpvbuildError
from spvbuild.passes import PASSES, Program, run
from tests.passes.corpus import RealModule, real_modules

MUTANTS = 600


def _instructions(words: list[int]) -> list[list[int]]:
    spans = []
    offset = 5
    while offset < len(words):
        count = words[offset] >> 16
        if count == 0:
            break
        spans.append(words[offset : offset + count])
        offset += count
    return spans


def mutate(words: tuple[int, ...], rng: random.Random) -> list[int]:
    """One mutation of the module's words (its header kept)."""
    head, body = list(words[:5]), _instructions(list(words))
    kind = rng.randrange(5)
    at = rng.randrange(len(body))
    if kind == 0:
        del body[at]
    elif kind == 1:
        body.insert(rng.randrange(len(body)), list(body[at]))
    elif kind == 2:
        body.insert(rng.randrange(len(body)), body.pop(at))
    elif kind == 3 and len(body[at]) > 1:
        inst = list(body[at])
        inst[rng.randrange(1, len(inst))] = rng.randrange(1, words[3])  # an id, most likely
        body[at] = inst
    elif len(body[at]) > 1:
        inst = list(body[at])
        inst[rng.randrange(1, len(inst))] ^= 1 << rng.randrange(32)
        body[at] = inst
    return head + [w for inst in body for w in inst]


def test_passes_never_crash_on_mutants(tmp_path_factory: pytest.TempPathFactory) -> None:
    modules: tuple[RealModule, ...] = real_modules(tmp_path_factory.mktemp("mutants"))
    assert modules
    rng = random.Random(26)
    names = list(PASSES)
    outcomes = {"written": 0, "refused by a pass": 0, "unreadable": 0}
    for _ in range(MUTANTS):
        words = mutate(rng.choice(modules).words, rng)
        try:
            source: Module | Program = (
                Module.from_binary(words) if rng.random() < 0.25 else Program.from_words(words)
            )
        except SpvbuildError:
            outcomes["unreadable"] += 1
            continue
        for name in rng.sample(names, 3):
            try:
                out = run(source, [name])
                written = out.to_words()
            except SpvbuildError:
                outcomes["refused by a pass"] += 1
                continue
            assert read(written, lazy=False).instructions is not None  # it reads again
            outcomes["written"] += 1
    print(f"\n{MUTANTS} mutants: {outcomes}")
    assert outcomes["written"] > MUTANTS
