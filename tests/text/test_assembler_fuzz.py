"""Fuzzing the assembler: random and mutated texts give words or an AssemblyError.

Never another exception, never a hang; the two tokenizers always agree; and where
``spirv-as`` accepts a mutated text, spvbuild gives the same words (or reports an id
that no instruction defines, which spirv-as numbers silently).  Bounded: the whole file
runs in a few seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spvbuild.errors import AssemblyError
from spvbuild.text.asm_tokens import token_starts, tokens
from spvbuild.text.assembler import assemble
from tests.text.test_assembler import same_words, spirv_as

ASM_DIR = Path(__file__).resolve().parent.parent / "asm"
TEXTS = [p.read_text(encoding="utf-8") for p in sorted(ASM_DIR.glob("*.spvasm"))]

FRAGMENTS = [
    "OpCapability", "Shader", "OpMemoryModel", "Logical", "GLSL450", "OpTypeInt", "32", "0",
    "1", "OpTypeFloat", "16", "64", "OpConstant", "OpSwitch", "OpExtInst", "OpExtInstImport",
    '"GLSL.std.450"', "Sqrt", "OpSpecConstantOp", "IAdd", "OpIMul", "OpLoad", "Aligned|Volatile",
    "Aligned", "None", "OpDecorate", "BuiltIn", "Position", "LocalSize", "OpExecutionMode",
    "%a", "%b", "%1", "%0", "%t", "%", "=", "!", "!5", "!0x20011", "!-1", '"str"', '"a\\"b"',
    '"', "\\", ";", "0x1p+128", "-0x1.8p3", "1e40", "-1", "0xffffffffffffffff", "010", "+3",
    "1.5", ".", "|", "OpNop", "OpReturn", "OpFunction", "OpLabel", "OpPhi", "OpTypeVoid",
    "OpEntryPoint", "GLCompute", "OpName", "OpTypeStruct", "OpString", "\u00e9", "\x0b",
]  # fmt: skip
SEPARATORS = [" ", " ", " ", "\n", "\t", "\r\n", "", " ; c\n"]

FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def check(text: str) -> list[int] | None:
    """Assemble; the only acceptable failure is AssemblyError.  Returns the words."""
    head = text.split("\0", 1)[0]
    assert tokens(head) == token_starts(head)[0]
    try:
        words = assemble(text)
    except AssemblyError as error:
        assert error.line >= 1 and error.col >= 1
        assert str(error).startswith(f"<input>:{error.line}:{error.col}: ")
        return None
    assert words[0] == 0x07230203 and words[4] == 0
    assert all(0 <= w <= 0xFFFFFFFF for w in words)
    return words


@st.composite
def fragment_texts(draw: st.DrawFn) -> str:
    """Texts made of assembly-like words and separators."""
    parts = draw(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
    out = []
    for part in parts:
        out.append(part)
        out.append(draw(st.sampled_from(SEPARATORS)))
    return "".join(out)


@st.composite
def mutated_texts(draw: st.DrawFn) -> str:
    """A test text with a few words deleted, duplicated, swapped or replaced."""
    text = draw(st.sampled_from(TEXTS))
    words = text.split(" ")
    for _ in range(draw(st.integers(1, 4))):
        if not words:
            break
        at = draw(st.integers(0, len(words) - 1))
        action = draw(st.integers(0, 4))
        if action == 0:
            del words[at]
        elif action == 1:
            words.insert(at, words[at])
        elif action == 2:
            words[at] = draw(st.sampled_from(FRAGMENTS))
        elif action == 3:
            other = draw(st.integers(0, len(words) - 1))
            words[at], words[other] = words[other], words[at]
        else:
            word = words[at]
            cut = draw(st.integers(0, len(word)))
            words[at] = word[:cut] + draw(st.sampled_from(["", "x", '"', "!", "%", "|", "."]))
    return " ".join(words)


@FUZZ
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    check(text)


@FUZZ
@given(fragment_texts())
def test_assembly_like_text(text: str) -> None:
    check(text)


@FUZZ
@given(mutated_texts())
def test_mutated_text(text: str) -> None:
    check(text)


TYPES = [
    "OpTypeInt 8 1", "OpTypeInt 16 0", "OpTypeInt 32 1", "OpTypeInt 32 0", "OpTypeInt 64 1",
    "OpTypeInt 64 0", "OpTypeInt 48 1", "OpTypeInt 128 0", "OpTypeFloat 16", "OpTypeFloat 32",
    "OpTypeFloat 64", "OpTypeFloat 16 BFloat16KHR", "OpTypeFloat 8 Float8E4M3EXT",
    "OpTypeFloat 8 Float8E5M2EXT", "OpTypeFloat 8",
]  # fmt: skip
NUMBER = st.from_regex(
    r"[+-]?(0[xX][0-9a-fA-F]{0,20}(\.[0-9a-fA-F]{0,20})?(p[+-]?[0-9]{1,5})?"
    r"|[0-9]{0,25}(\.[0-9]{0,25})?([eE][+-]?[0-9]{1,4})?)",
    fullmatch=True,
)


@FUZZ
@given(st.sampled_from(TYPES), NUMBER)
def test_literal_for_any_numeric_type(type_text: str, number: str) -> None:
    words = check(f"%t = {type_text}\n%c = OpConstant %t {number}")
    if words is not None:
        assert len(words) >= 9


@pytest.mark.spirv_val
@settings(max_examples=60, deadline=None, derandomize=True)
@given(mutated_texts())
def test_mutated_text_agrees_with_spirv_as(text: str) -> None:
    words = check(text)
    # No target on either side: both take it from a "; Version: 1.X" header, if any.
    reference = spirv_as(text) if "; spirv-as:" not in text else None
    if reference is None:
        return
    if isinstance(reference, list):
        assert words is not None, f"spvbuild rejects what spirv-as accepts: {text!r}"
        assert same_words(reference, words)
    else:
        assert words is None, f"spirv-as rejects what spvbuild accepts: {reference}"
