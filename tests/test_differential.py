"""Round trips over the whole differential corpus (issue 4's acceptance).

Corpus: every catalogue module, the Vulkan test shaders, the hand-written texts of
tests/asm and tests/dis (assembled by spirv-as), and 300 seeded grammar-driven random
modules (tests/test_disassembler.py: random_module).  tests/test_disassembler.py already
checks our text against spirv-dis (friendly and --raw-id) for each of them and
tests/test_assembler.py our words against spirv-as; here, for every module spirv-dis
accepts: read → write gives the same words (the reader alone also refuses ids at or above
the bound, which spirv-dis prints), and our --raw-id disassembly assembled by our assembler
gives what spirv-as gives for the same text: the same words (generator aside) when spirv-as
takes it, an AssemblyError when spirv-as refuses it.  The one deliberate difference: an id
used but never defined is an error for our assembler (spirv-as numbers it silently).
"""

from __future__ import annotations

import subprocess

import pytest

from spvbuild.assembler import assemble
from spvbuild.disassembler import disassemble
from spvbuild.errors import AssemblyError, BinaryError
from spvbuild.reader import read
from tests.test_disassembler import (
    CORPUS,
    RANDOM_SEEDS,
    _rejected,
    _tool,
    module_words,
    pack,
    random_module,
    spirv_dis,
    target_env,
    unpack,
)

NAMES = [*CORPUS, *(f"random/{seed}" for seed in RANDOM_SEEDS)]


def _words(name: str) -> list[int]:
    if name.startswith("random/"):
        return random_module(int(name.partition("/")[2]))
    return list(module_words(name))


def test_the_corpus_has_at_least_300_modules() -> None:
    assert len(NAMES) >= 300


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", NAMES)
def test_read_write_and_dis_as_round_trips(name: str) -> None:
    words = _words(name)
    rejected = _rejected(name) if not name.startswith("random/") else spirv_dis(pack(words))[0] != 0
    if rejected:  # spirv-dis refuses it: so do we, with a BinaryError
        with pytest.raises(BinaryError):
            disassemble(words)
        return
    try:
        assert read(words).to_words() == words
    except BinaryError as error:
        assert "bound" in str(error), error  # stricter than spirv-dis on purpose
    text = disassemble(words, raw_id=True)
    env = target_env(words)
    reference = subprocess.run(
        [str(_tool("spirv-as")), "--target-env", env, "--preserve-numeric-ids", "-o", "-", "-"],
        input=text.encode("utf-8", "surrogateescape"),
        capture_output=True,
    )
    try:
        ours = assemble(text, target_env=env, preserve_numeric_ids=True)
    except AssemblyError as error:
        undefined = "undefined id" in str(error)
        assert reference.returncode != 0 or undefined, f"spirv-as accepts it, we say: {error}"
        return
    assert reference.returncode == 0, "spirv-as refuses it, we accept it"
    theirs = unpack(reference.stdout)
    assert ours[:2] == theirs[:2] and ours[3:] == theirs[3:]
