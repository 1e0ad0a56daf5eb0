"""``spvbuild.link`` against spirv-link over the cases of ``link_cases.py`` (the same
outcome: both refuse, or both link into modules equal in the canonical form of
``link_differential.py``; spvbuild's output spirv-val clean), its errors, its inputs and
outputs, its words path against its typed path (the same words), and mutated inputs (a
spvbuild error or a module that writes, nothing else)."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

import spvbuild
from spvbuild import LinkError, Module, PassError, assemble, read
from spvbuild.errors import ArgumentError, SpvbuildError
from spvbuild.passes import Program, link
from spvbuild.passes.link import _on_words, _typed
from tests.passes import link_differential as diff
from tests.passes.link_cases import (
    CALLER,
    CASES,
    DEFINER,
    EXP_F,
    F_EXPORT,
    F_TYPE,
    Case,
    Text,
    shader,
)
from tests.passes.random_link_cases import random_case
from tests.passes.test_mutants import mutate

pytestmark = [pytest.mark.spirv_val]


def _words(case_module: Text) -> list[int]:
    return list(_assembled(case_module))


@functools.cache
def _assembled(case_module: Text) -> tuple[int, ...]:
    return tuple(assemble(case_module.text, target_env=f"spv{case_module.version}"))


@pytest.mark.corpus
def test_cases_against_spirv_link(tmp_path: Path) -> None:
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)
    outcomes = diff.link_cases(CASES, tmp_path)
    problems: list[str] = []
    linked = [o for o in outcomes if o.words is not None]
    mine_val = diff.validate([(o.words, o.case.env) for o in linked if o.words], tmp_path, "mine")
    for outcome, problem in zip(linked, mine_val, strict=True):
        if problem:
            problems.append(f"{outcome.case.name}: spvbuild's output fails spirv-val: {problem}")
        assert outcome.words is not None
        if not diff.linkage_rule_holds(outcome.words, outcome.case.library):
            problems.append(f"{outcome.case.name}: the Linkage capability kept or dropped wrongly")
    both = [o for o in outcomes if o.words is not None and o.theirs is not None]
    theirs_val = diff.validate(
        [(o.theirs, o.case.env) for o in both if o.theirs], tmp_path, "theirs"
    )
    mine_canon = diff.canonical([o.words for o in both if o.words], tmp_path, "mine")
    theirs_canon = diff.canonical([o.theirs for o in both if o.theirs], tmp_path, "theirs")
    compared = {
        o.case.name: (a == b, v)
        for o, a, b, v in zip(both, mine_canon, theirs_canon, theirs_val, strict=True)
    }
    tally = {"both linked, equal": 0, "both refused": 0, "differ on purpose": 0}
    for outcome in outcomes:
        case = outcome.case
        name = case.name
        if case.expect != "ok":
            if outcome.error is None:
                problems.append(f"{name}: spvbuild linked what it should refuse ({case.expect})")
            elif case.expect not in str(outcome.error):
                problems.append(f"{name}: spvbuild's error {outcome.error} lacks {case.expect!r}")
        elif outcome.error is not None:
            problems.append(f"{name}: spvbuild refused: {outcome.error}")
        if case.spirv_link == "accepts":
            if outcome.theirs is None:
                problems.append(f"{name}: spirv-link now refuses too: {outcome.their_error}")
            tally["differ on purpose"] += 1
        elif case.spirv_link == "refuses":
            if outcome.theirs is not None:
                problems.append(f"{name}: spirv-link now links too")
            tally["differ on purpose"] += 1
        elif (outcome.theirs is None) != (outcome.words is None):
            problems.append(
                f"{name}: spirv-link {'refused: ' + outcome.their_error if outcome.theirs is None else 'linked'}"
            )
        elif outcome.theirs is None:
            tally["both refused"] += 1
        else:
            equal, their_problem = compared[name]
            if case.spirv_link == "invalid":
                if not their_problem:
                    problems.append(f"{name}: spirv-link's output is valid now")
                tally["differ on purpose"] += 1
                continue
            if their_problem:
                problems.append(f"{name}: spirv-link's output fails spirv-val: {their_problem}")
            if not equal:
                problems.append(f"{name}: the linked modules differ in canonical form")
            else:
                tally["both linked, equal"] += 1
    print(f"\n{len(CASES)} linking cases against spirv-link: {tally}")
    assert problems == []


RANDOM_SEEDS = range(2600, 2800)
"""The slice of ``random_link_cases.py``'s seeds the suite runs (the campaign ran more)."""


@pytest.mark.corpus
def test_random_cases_against_spirv_link(tmp_path: Path) -> None:
    """Random link inputs: spvbuild and spirv-link agree (or differ as
    ``link_differential.KNOWN_DIFFERENCES`` says), spvbuild's output passes spirv-val, and
    the words path gives the typed path's words."""
    cases = [random_case(seed) for seed in RANDOM_SEEDS]
    tally: dict[str, int] = {}
    problems = []
    for outcome, kind in diff.judge(cases, tmp_path):
        tally[kind] = tally.get(kind, 0) + 1
        if kind not in diff.AGREEING:
            problems.append(f"{outcome.case.name}: {kind} {outcome.error or outcome.crash or ''}")
    print(f"\n{len(cases)} random linking cases against spirv-link: {tally}")
    assert problems == []
    assert tally.get("both linked, equal", 0) > 80 and tally.get("both refused", 0) > 30


def test_error_names_the_symbol_and_the_input() -> None:
    with pytest.raises(LinkError) as caught:
        link([_words(CALLER)], names=["caller.spv"])
    error = caught.value
    assert isinstance(error, PassError) and isinstance(error, SpvbuildError)
    assert (error.symbol, error.module, error.pass_name) == ("f", "caller.spv", "link")
    assert str(error).startswith("link: caller.spv imports 'f', which no module exports")


def test_type_mismatch_message_spells_both_types() -> None:
    unsigned = shader(
        ann=EXP_F, types=F_TYPE.replace("%int", "%uint"), funcs=F_EXPORT.replace("%int", "%uint")
    )
    with pytest.raises(
        LinkError,
        match=r"imported by modules\[0\] as Function\(Int\(32, 1\), Int\(32, 1\)\) but "
        r"exported by modules\[1\] as Function\(Int\(32, 0\), Int\(32, 0\)\)",
    ):
        link([_words(CALLER), _words(unsigned)])


def test_inputs_of_every_kind_and_unchanged() -> None:
    caller, definer = _words(CALLER), _words(DEFINER)
    modules = [Module.from_binary(caller), Module.from_binary(definer)]
    before = [m.to_words() for m in modules]
    out = spvbuild.link(modules)
    assert isinstance(out, Module)
    assert [m.to_words() for m in modules] == before
    program = Program.from_words(definer)
    copy = list(program.instructions)
    mixed = link([diff.to_bytes(caller), program])
    assert isinstance(mixed, Program)
    assert program.instructions == copy
    assert out.to_words()[5:] == Module.from_binary(mixed.to_words()).to_words()[5:]


def test_bad_arguments() -> None:
    with pytest.raises(LinkError, match="no modules were given"):
        link([])
    with pytest.raises(ArgumentError, match="must be a list of modules"):
        link(_words(CALLER))  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="must be a Module, a Program or a binary"):
        link([_words(CALLER), 3.5])  # type: ignore[list-item]
    with pytest.raises(ArgumentError, match="names has 1 entries for 2 modules"):
        link([_words(CALLER), _words(DEFINER)], names=["a"])
    with pytest.raises(LinkError, match=r"b\.spv does not read: word 0"):
        link([_words(CALLER), [1, 2, 3, 4, 5]], names=["a.spv", "b.spv"])


def test_untyped_words_in_a_later_module_are_refused() -> None:
    # A non-semantic set the grammar does not know: its operands may be ids, never shifted.
    text = DEFINER.text.replace(
        "OpMemoryModel", '%odd = OpExtInstImport "NonSemantic.Unknown"\nOpMemoryModel'
    ).replace(
        "%f_r = OpIAdd %int %f_p %c1",
        "%x = OpExtInst %void %odd 7 %f_p\n%f_r = OpIAdd %int %f_p %c1",
    )
    odd = assemble(text, target_env="spv1.3")
    with pytest.raises(LinkError, match="words the grammar cannot type"):
        link([_words(CALLER), odd])
    linked = link([odd, _words(CALLER)])  # first: its ids stay where they are
    assert isinstance(linked, Program)


def test_linked_twice_through_a_library() -> None:
    """A library keeps its exports, so it links again: the same module as one link."""
    library = link([_words(DEFINER)], create_library=True)
    assert isinstance(library, Program)
    again = link([_words(CALLER), library.to_words()])
    once = link([_words(CALLER), _words(DEFINER)])
    assert isinstance(again, Program) and isinstance(once, Program)
    assert again.to_words()[5:] == once.to_words()[5:]


def _options(case: Case) -> dict[str, bool]:
    return {
        "allow_partial_linkage": case.partial,
        "create_library": case.library,
        "use_highest_version": case.highest,
    }


def test_words_path_takes_what_links() -> None:
    """The words path (spvbuild.passes.word_link) takes every case that links, but where
    a module declares decoration groups, and none that must be refused: the typed path
    says what is wrong (that both write the same words: the mutated inputs below)."""
    for case in CASES:
        fast = _on_words([_words(m) for m in case.modules], **_options(case))
        groups = any("OpDecorationGroup" in m.text for m in case.modules)
        assert (fast is not None) == (case.expect == "ok" and not groups), case.name


def test_mutated_inputs_never_crash() -> None:
    """Mutated inputs link or raise a spvbuild error; the words path links none that the
    typed path refuses, and links the others into the typed path's words."""
    rng = random.Random(2626)
    sources = [c for c in CASES if c.expect == "ok" and len(c.modules) > 1][:20]
    outcomes = {"linked": 0, "refused": 0, "on the words": 0}
    for _ in range(100):
        case: Case = rng.choice(sources)
        binaries = [_words(m) for m in case.modules]
        at = rng.randrange(len(binaries))
        binaries[at] = mutate(tuple(binaries[at]), rng)
        fast = _on_words(binaries, **_options(case))
        try:
            labels = [f"modules[{i}]" for i in range(len(binaries))]
            out = _typed(binaries, labels, **_options(case))
            assert read(out.to_words(), lazy=False).instructions is not None
            outcomes["linked"] += 1
        except SpvbuildError:
            assert fast is None
            outcomes["refused"] += 1
            continue
        if fast is not None:
            assert fast.to_words() == out.to_words()
            outcomes["on the words"] += 1
    print(f"\n100 mutated link inputs: {outcomes}")
    assert outcomes["linked"] > 30 and outcomes["refused"] > 10
    assert outcomes["on the words"] > 20
