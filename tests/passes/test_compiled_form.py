"""The compiled passes (:mod:`spvbuild.accel.compiled_passes`) against the plain ones: over
the real modules and mutants of them, every pass and every recipe gives the same words, or
the same error, in a child that runs the plain modules (``SPVBUILD_PURE_PYTHON=1``).

Compiled, a value typed ``int`` is a machine integer and every annotation is checked at
run time: an ``Id`` kept in a variable narrowed to ``int`` comes out a plain ``int`` (and
is then no id to the next pass), and a value of another type than the annotation says
raises ``TypeError``.  The plain form never shows either.  A pure build has no compiled
form (its run deselects these tests, ``tests/conftest.py``)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from spvbuild.accel import compiled_passes
from spvbuild.errors import SpvbuildError
from spvbuild.passes import PASSES, RECIPES, Program, run
from tests.passes.corpus import RealModule, real_modules
from tests.passes.shader_corpus import compute_shaders
from tests.passes.test_mutants import mutate

pytestmark = pytest.mark.compiled_passes

MUTANTS = 150
PASS_LISTS = [[name] for name in PASSES] + list(RECIPES)

_CHILD = """
import json, sys
from spvbuild.accel import compiled_passes
from tests.passes.test_compiled_form import outcomes
assert compiled_passes.kind() == "python", compiled_passes.kind()
with open(sys.argv[1], encoding="utf-8") as source:
    inputs = json.load(source)
with open(sys.argv[2], "w", encoding="utf-8") as out:
    json.dump(outcomes(inputs), out)
"""


def outcomes(inputs: list[list[int]]) -> list[list[str]]:
    """For each module's words and each entry of :data:`PASS_LISTS`: the words after it
    (as text) and the classes of its instructions' values (:func:`classes`), or the error
    it raised (its class and message)."""
    found = []
    for words in inputs:
        row = []
        for passes in PASS_LISTS:
            try:
                program = run(Program.from_words(words), passes)
                row.append(" ".join(map(str, program.to_words())) + " | " + classes(program))
            except SpvbuildError as error:
                row.append(f"{type(error).__name__}: {error}")
        found.append(row)
    return found


def classes(program: Program) -> str:
    """The class of every value of every instruction of ``program``, nested values
    included (``%12 = OpLoad %7 %9`` gives ``Id TypeId (Id None)``): the words alone do
    not show an id that came out a plain ``int``, which the next pass no longer takes for
    an id."""

    def of(value: object) -> str:
        if isinstance(value, tuple | list):
            return "(" + " ".join(of(v) for v in value) + ")"
        return type(value).__name__

    return ";".join(
        f"{of(i.result_id)} {of(i.result_type)} {of(i.operands)}" for i in program.instructions
    )


@pytest.fixture(autouse=True)
def _compiled() -> None:
    """The compiled form must exist under CI (``make test`` builds it); elsewhere these
    tests are skipped with a note when there is none (no mypyc or no C compiler)."""
    if compiled_passes.kind() != "mypyc":
        message = "no current compiled passes here (make engines builds them)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def test_this_process_runs_the_compiled_passes() -> None:
    """The checkout (after ``make engines``) and the compiled wheel run the compiled form."""
    assert compiled_passes.current()
    assert compiled_passes.kind() == "mypyc"


def test_compiled_passes_give_the_plain_passes_words(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    workdir = tmp_path_factory.mktemp("compiled-form")
    modules: tuple[RealModule, ...] = compute_shaders(workdir) + real_modules(workdir)
    assert len(modules) > 250, len(modules)
    rng = random.Random(2611)
    inputs = [list(m.words) for m in modules]
    inputs += [mutate(rng.choice(modules).words, rng) for _ in range(MUTANTS)]
    readable = []
    for words in inputs:
        try:
            Program.from_words(words)
        except SpvbuildError:
            continue
        readable.append(words)
    given = workdir / "inputs.json"
    given.write_text(json.dumps(readable), encoding="utf-8")
    plain = workdir / "plain.json"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "SPVBUILD_PURE_PYTHON": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    subprocess.run([sys.executable, "-c", _CHILD, str(given), str(plain)], env=env, check=True)
    theirs = json.loads(plain.read_text(encoding="utf-8"))
    ours = outcomes(readable)
    differ = [
        f"input {k}, {PASS_LISTS[j]}: compiled {_from_first_difference(a, b)!r}, "
        f"plain {_from_first_difference(b, a)!r}"
        for k, (mine, other) in enumerate(zip(ours, theirs, strict=True))
        for j, (a, b) in enumerate(zip(mine, other, strict=True))
        if a != b
    ]
    assert not differ, f"{len(differ)} differences:\n" + "\n".join(differ[:20])


def _from_first_difference(text: str, other: str) -> str:
    """``text`` from a little before where it first differs from ``other``."""
    at = next((k for k, (a, b) in enumerate(zip(text, other, strict=False)) if a != b), len(other))
    return ("..." if at > 40 else "") + text[max(0, at - 40) : at + 80]
