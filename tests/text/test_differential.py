"""Round trips over the whole differential corpus (issue 4's acceptance).

Corpus: every catalogue module, the Vulkan test shaders, the hand-written texts of
tests/asm and tests/dis (assembled by spirv-as), and 300 seeded grammar-driven random
modules (tests/random_modules.py: between them every opcode, extended instruction, operand
kind and enumerant of the grammar, in modules spirv-dis accepts, as
tests/test_random_coverage.py proves).  tests/text/test_disassembler.py already checks our text
against spirv-dis (friendly and --raw-id) for each of them and tests/text/test_assembler.py our
words against spirv-as; here, for every module: :func:`spvbuild.binary.id_words.id_words`
finds the ids where the reader reads them; for every module spirv-dis accepts: read → write gives the same words (the reader alone also refuses ids at or above
the bound, which spirv-dis prints), and our --raw-id disassembly assembled by our assembler
gives what spirv-as gives for the same text: the same words (generator aside) when spirv-as
takes it, an AssemblyError when spirv-as refuses it.  One deliberate difference (see
``spvbuild.text.assembler.assemble``): a mask of several bits in a required MemoryAccess
operand, which spirv-dis prints and spirv-as 2025.5 cannot read back, is read (then our
words must disassemble to the same text).  Ids used but never defined are numbered like
spirv-as numbers them.
The clean random modules define every id they use, below the bound: for them the reader's
bound check may not cut the round trip short.
"""

from __future__ import annotations

import subprocess

import pytest

from spvbuild.binary.framing import words_of
from spvbuild.binary.id_words import id_words
from spvbuild.binary.reader import ReadModule, read
from spvbuild.errors import AssemblyError, BinaryError
from spvbuild.passes.ids import hidden_words, ids_in
from spvbuild.text.assembler import assemble
from spvbuild.text.disassembler import disassemble
from tests.random_modules import RANDOM_SEEDS, is_clean, random_module
from tests.text.test_disassembler import (
    CORPUS,
    _rejected,
    _tool,
    module_words,
    pack,
    spirv_dis,
    target_env,
    unpack,
)

NAMES = [*CORPUS, *(f"random/{seed}" for seed in RANDOM_SEEDS)]


def _words(name: str) -> list[int]:
    if name.startswith("random/"):
        return random_module(int(name.partition("/")[2]))
    return list(module_words(name))


def _clean(name: str) -> bool:
    """A clean random module: every id it uses defined, below the bound."""
    return name.startswith("random/") and is_clean(int(name.partition("/")[2]))


def _body(text: str) -> list[str]:
    """The instruction lines of a disassembly (the header comments left out)."""
    return [line for line in text.splitlines() if not line.startswith(";")]


def _ids_where_the_reader_reads_them(words: list[int], module: ReadModule | None) -> None:
    """spvbuild.binary.id_words finds the ids the reader types (result type, result id,
    then those among the operands), word for word; it gives None exactly where the reader
    refuses the module or keeps words it cannot type."""
    found = id_words(words_of(words)[0])
    if module is None or any(hidden_words(inst) for inst in module.instructions):
        assert found is None
        return
    assert found is not None
    for start, offsets, inst in zip(found.starts, found.ids, module.instructions, strict=True):
        typed = [v for v in (inst.result_type, inst.result_id) if v is not None]
        typed += [i for value in inst.operands for i in ids_in(value)]
        assert [words[start + offset] for offset in offsets] == typed, inst


def test_the_corpus_has_at_least_300_modules() -> None:
    assert len(NAMES) >= 300


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", NAMES)
def test_read_write_and_dis_as_round_trips(name: str, asm_engine: str | None) -> None:
    words = _words(name)
    try:
        module: ReadModule | None = read(words, lazy=False)
    except BinaryError as error:
        module, refusal = None, error
    if asm_engine != "python":  # (id_words frames the words as the reader does: once)
        _ids_where_the_reader_reads_them(words, module)
    rejected = _rejected(name) if not name.startswith("random/") else spirv_dis(pack(words))[0] != 0
    if rejected:  # spirv-dis refuses it: so do we, with a BinaryError
        with pytest.raises(BinaryError):
            disassemble(words)
        return
    clean = _clean(name)
    if module is None:  # stricter than spirv-dis on purpose
        assert "bound" in str(refusal) and not clean, refusal
    else:
        assert module.to_words() == words
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
        assert reference.returncode != 0, f"spirv-as accepts it, we say: {error}"
        return
    refusal = reference.stderr.decode("utf-8", "replace").strip()
    if reference.returncode != 0 and "Invalid memory access '" in refusal:
        # Our words must print as the same text again (header comments aside).
        again = disassemble(ours, raw_id=True)
        assert _body(again) == _body(text), "a combined MemoryAccess mask read back differently"
        return
    assert reference.returncode == 0, f"spirv-as refuses it ({refusal}), we accept it"
    theirs = unpack(reference.stdout)
    assert ours[:2] == theirs[:2] and ours[3:] == theirs[3:]
