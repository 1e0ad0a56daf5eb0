"""Property: every pass of :data:`spvbuild.passes.PASSES`, and the main recipe, over
(a) real modules mutated by hypothesis (the compute shaders of ``tests/passes/shaders`` and
the module catalogue: instructions dropped, repeated or moved, a word replaced by an id or
with a bit flipped) and (b) random programs made by random sequences of builder calls
(:mod:`tests.passes.random_programs`), returns a module that writes back and reads again,
or raises a spvbuild error; nothing else (and its result types and ids are ids,
:func:`tests.passes.helpers.results_not_ids`).  On the random programs, which spirv-val
accepts, the recipe's output passes spirv-val too and computes the same buffers on
lavapipe.  Derandomized, with bounded example counts (the suite's time budget).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spvbuild import read
from spvbuild.errors import SpvbuildError
from spvbuild.passes import PASSES, Program, main_recipe, run
from tests.passes.corpus import RealModule, real_modules
from tests.passes.driver import random_dispatch, run_dispatch
from tests.passes.driver_process import DriverProcess
from tests.passes.helpers import results_not_ids
from tests.passes.random_programs import RandomProgram, build, programs
from tests.passes.shader_corpus import compute_shaders
from tests.passes.tool_runs import ToolInput, validate_all

PROPERTY = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Mutation = tuple[int, int, int, int]
"""(kind, where, where to, value): see :func:`mutate`."""


def _spans(words: list[int]) -> list[list[int]]:
    spans, offset = [], 5
    while offset < len(words):
        count = words[offset] >> 16
        if count == 0:
            break
        spans.append(words[offset : offset + count])
        offset += count
    return spans


def mutate(words: tuple[int, ...], mutations: list[Mutation]) -> list[int]:
    """``words`` (header kept) with each mutation applied in turn: 0 drops instruction
    ``where``, 1 repeats it at ``where to``, 2 moves it there, 3 replaces one of its words
    by ``value`` below the bound (an id, most likely), 4 flips bit ``value % 32`` of one."""
    head, body = list(words[:5]), _spans(list(words))
    for kind, where, to, value in mutations:
        if not body:
            break
        at = where % len(body)
        inst = list(body[at])
        if kind == 0:
            del body[at]
        elif kind == 1:
            body.insert(to % len(body), inst)
        elif kind == 2:
            body.insert(to % len(body), body.pop(at))
        elif len(inst) > 1:
            word = 1 + to % (len(inst) - 1)
            inst[word] = value % max(words[3], 1) if kind == 3 else inst[word] ^ (1 << value % 32)
            body[at] = inst
    return head + [w for inst in body for w in inst]


MUTATIONS = st.lists(
    st.tuples(
        st.integers(0, 4),
        st.integers(0, 1 << 16),
        st.integers(0, 1 << 16),
        st.integers(0, 2**32 - 1),
    ),
    min_size=1,
    max_size=3,
)
STEPS = [*([name] for name in PASSES), main_recipe()]


def _writes_back_or_refuses(source: Program, step: str | list[str]) -> bool:
    """True when ``step`` gives a program that writes back and reads again, False when it
    raises a spvbuild error (anything else propagates)."""
    try:
        after = run(source, step)
        written = after.to_words()
    except SpvbuildError:
        return False
    assert read(written, lazy=False).instructions is not None
    assert not results_not_ids(after), (step, results_not_ids(after)[:3])
    return True


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> tuple[RealModule, ...]:
    workdir = tmp_path_factory.mktemp("never-crashes")
    catalogue = tuple(m for m in real_modules(workdir) if m.name.startswith("catalogue/"))
    return compute_shaders(workdir) + catalogue


@pytest.mark.corpus
def test_every_pass_on_mutated_real_modules(pool: tuple[RealModule, ...]) -> None:
    outcomes = {"written": 0, "refused": 0, "unreadable": 0}

    @settings(PROPERTY, max_examples=100)
    @given(st.integers(0, len(pool) - 1), MUTATIONS)
    def check(index: int, mutations: list[Mutation]) -> None:
        words = mutate(pool[index].words, mutations)
        try:
            source = Program.from_words(words)
        except SpvbuildError:
            outcomes["unreadable"] += 1
            return
        for step in STEPS:
            outcomes["written" if _writes_back_or_refuses(source, step) else "refused"] += 1

    check()
    print(f"\nmutated real modules, each pass and the recipe: {outcomes}")
    assert outcomes["written"] > outcomes["refused"] > 0


@pytest.fixture(scope="module")
def device() -> Iterator[DriverProcess]:
    with DriverProcess() as opened:
        yield opened


@pytest.mark.vulkan
@pytest.mark.spirv_val
@pytest.mark.corpus
def test_every_pass_on_random_builder_programs(device: DriverProcess) -> None:
    built = []

    @settings(PROPERTY, max_examples=25)
    @given(programs())
    def check(program: RandomProgram) -> None:
        words = tuple(build(program))
        source = Program.from_words(words)
        for step in STEPS[:-1]:
            assert _writes_back_or_refuses(source, step), step
        after = tuple(run(source, main_recipe()).to_words())
        before_problem, after_problem = validate_all(
            [ToolInput(words, "vulkan1.1"), ToolInput(after, "vulkan1.1")]
        )
        assert before_problem == "", before_problem
        assert after_problem == "", after_problem
        dispatch = random_dispatch(words, str(program))
        assert run_dispatch(device, words, dispatch) == run_dispatch(device, after, dispatch)
        built.append(len(words))

    check()
    assert len(built) == 25 and max(built) > 1000
