"""The assembler takes what ``spirv-as`` takes, the way it takes it (issue 12).

* The target: without ``target_env``, the ``; Version: 1.X`` header comment chooses the
  SPIR-V version, by spirv-as's rule, else 1.6.  Every text below is assembled by
  spirv-as without ``--target-env`` and by us without ``target_env``: same words (or both
  refuse it).  An explicit target still wins.
* Ids used but never defined are numbered like spirv-as numbers them, in both numbering
  modes; ``strict_ids=True`` keeps the old error.
* dis → as keeps the version: binaries of SPIR-V 1.0 to 1.6, disassembled (by spirv-dis
  and by us) and assembled by us, give their words back.
* Hostile input: an instruction cut off at the end of the text, arguments of the wrong
  type; each is a documented spvbuild error.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spvbuild.binary.reader import read
from spvbuild.errors import ArgumentError, AssemblyError, SpvbuildError
from spvbuild.text.asm_grammar import TARGET_ENVS
from spvbuild.text.assembler import assemble, assemble_binary, target_env_of_header
from spvbuild.text.disassembler import disassemble
from tests.text.test_assembler import same_words, spirv_as
from tests.text.test_disassembler import pack, spirv_dis, unpack

# A body whose words do not depend on the version (but the version word).
BODY = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n"
# OpCopyLogical exists from SPIR-V 1.4: under an older header both assemblers refuse it.
NEEDS_1_4 = "%int = OpTypeInt 32 0\n%c = OpConstant %int 1\n%d = OpCopyLogical %int %c\n"

HEADERS = {
    "no header": BODY,
    "spirv-dis header": "; SPIR-V\n; Version: 1.3\n; Generator: x; 0\n; Bound: 2\n; Schema: 0\n"
    + BODY,
    "leading blank lines": "\n\n   \n; Version: 1.2\n" + BODY,
    "tabs and form feeds first": "\t\f\v\r\n; Version: 1.1\n" + BODY,
    "other comments first": "; a shader\n; by someone\n;\n; Version: 1.4\n" + BODY,
    "two-digit minor": "; Version: 1.10\n" + BODY,
    "minor 7": "; Version: 1.7\n" + BODY,
    "minor 0": "; Version: 1.0\n" + BODY,
    "after the first instruction": "OpCapability Shader\n; Version: 1.0\n" + BODY.split("\n", 1)[1],
    "no space after the semicolon": ";Version: 1.0\n" + BODY,
    "two spaces": ";  Version: 1.0\n" + BODY,
    "letters after the digit": "; Version: 1.2beta\n" + BODY,
    "text after the digit": "; Version: 1.2 (from glslang)\n" + BODY,
    "major 2": "; Version: 2.0\n" + BODY,
    "the first version wins": "; Version: 1.1\n; Version: 1.5\n" + BODY,
    "two-digit then a good one": "; Version: 1.42\n; Version: 1.5\n" + BODY,
    "CRLF lines": "; Version: 1.2\r\n" + BODY.replace("\n", "\r\n"),
    "comment at the end of an instruction line": "OpCapability Shader ; Version: 1.0\n"
    + BODY.split("\n", 1)[1],
    "a non-ASCII digit": "; Version: 1.\u0663\n" + BODY,
    "a non-ASCII space first": "\u00a0; Version: 1.0\n" + BODY,
    "header only, no newline at the end": "; Version: 1.3",
    "version too early to hold the instruction": "; Version: 1.3\n" + BODY + NEEDS_1_4,
    "version new enough for the instruction": "; Version: 1.4\n" + BODY + NEEDS_1_4,
    "no header and a 1.4 instruction": BODY + NEEDS_1_4,
}


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", list(HEADERS))
def test_the_header_comment_chooses_the_version_like_spirv_as(name: str) -> None:
    text = HEADERS[name]
    reference = spirv_as(text)
    if isinstance(reference, str):
        with pytest.raises(AssemblyError):
            assemble(text)
        return
    words = assemble(text)
    assert same_words(reference, words), (hex(reference[1]), hex(words[1]))
    assert assemble_binary(text)[12:] == pack(reference)[12:]


def test_the_versions_the_header_names() -> None:
    assert target_env_of_header("; Version: 1.0\nOpNop") == "spv1.0"
    assert target_env_of_header("\n; SPIR-V\n; Version: 1.5\n") == "spv1.5"
    assert target_env_of_header("; Version: 1.7\n") is None
    assert target_env_of_header("; Version: 1.10\n") is None
    assert target_env_of_header("OpNop\n; Version: 1.0\n") is None
    assert target_env_of_header("") is None


@pytest.mark.spirv_val
@pytest.mark.parametrize("env", ["spv1.0", "spv1.5", "vulkan1.1", "opencl2.2"])
def test_an_explicit_target_wins_over_the_header(env: str) -> None:
    text = "; Version: 1.3\n" + BODY
    reference = spirv_as(text, "--target-env", env)
    assert isinstance(reference, list)
    assert same_words(reference, assemble(text, target_env=env))


@pytest.mark.spirv_val
@pytest.mark.parametrize("env", list(TARGET_ENVS))
def test_every_target_env_writes_spirv_as_version_word(env: str) -> None:
    """Every name the assembler accepts (grammars/target_envs.yaml: the environments and
    the assembler-only OpenGL names) is one spirv-as accepts, with the same version word."""
    reference = spirv_as(BODY, "--target-env", env)
    assert isinstance(reference, list), reference
    words = assemble(BODY, target_env=env)
    assert words[1] == reference[1] == (TARGET_ENVS[env][0] << 16 | TARGET_ENVS[env][1] << 8)
    assert same_words(reference, words)


UNDEFINED = {
    "a label never defined": BODY
    + "%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\n"
    "OpBranch %nowhere\nOpFunctionEnd\n",
    "an undefined type and operands": "%x = OpIAdd %int %a %b\n%y = OpIAdd %int %x %a\n",
    "names of ids never defined": 'OpName %ghost "ghost"\nOpDecorate %ghost2 Flat\n' + BODY,
    "numeric ids never defined": "%void = OpTypeVoid\n%9 = OpTypeFunction %void %7 %3\n"
    'OpName %5 "five"\nOpName %named "n"\n',
    "undefined between defined": "%a = OpTypeInt 32 0\n%s = OpIAdd %a %u1 %u2\n%b = OpTypeBool\n"
    "%t = OpIAdd %a %u2 %s\n",
    "an undefined entry point": "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
    'OpEntryPoint GLCompute %main "main" %in %out\nOpExecutionMode %main LocalSize 1 1 1\n',
    "a forward pointer to nothing": "OpCapability Addresses\nOpCapability Kernel\n"
    "OpMemoryModel Physical64 OpenCL\nOpTypeForwardPointer %fp CrossWorkgroup\n",
}


@pytest.mark.spirv_val
@pytest.mark.parametrize("preserve", [False, True], ids=["numbered", "preserve-numeric-ids"])
@pytest.mark.parametrize("name", list(UNDEFINED))
def test_undefined_ids_are_numbered_like_spirv_as(name: str, preserve: bool) -> None:
    text = UNDEFINED[name]
    options = ["--preserve-numeric-ids"] if preserve else []
    reference = spirv_as(text, *options)
    assert isinstance(reference, list), reference
    words = assemble(text, preserve_numeric_ids=preserve)
    assert same_words(reference, words)


@pytest.mark.parametrize("preserve", [False, True])
def test_strict_ids_keeps_the_undefined_id_error(preserve: bool) -> None:
    text = "%a = OpTypeInt 32 0\n%s = OpIAdd %a %a %missing\n"
    with pytest.raises(AssemblyError) as caught:
        assemble(text, strict_ids=True, preserve_numeric_ids=preserve, file="s.spvasm")
    error = caught.value
    assert (error.file, error.line, error.col) == ("s.spvasm", 2, 19)
    assert "undefined id '%missing': no instruction defines it" in error.reason
    assert assemble(text, preserve_numeric_ids=preserve)[3] == 4


def _module_of_version(minor: int) -> list[int]:
    """A small module with names, a constant, a function and a loop, as spirv-as makes it."""
    text = (
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
        'OpEntryPoint GLCompute %main "main"\nOpExecutionMode %main LocalSize 8 1 1\n'
        'OpName %main "main"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n'
        "%int = OpTypeInt 32 1\n%c3 = OpConstant %int 3\n%bool = OpTypeBool\n"
        "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpBranch %head\n"
        "%head = OpLabel\n%i = OpPhi %int %c3 %entry %next %body\n"
        "OpLoopMerge %exit %body None\nOpBranch %body\n%body = OpLabel\n"
        "%next = OpIAdd %int %i %c3\n%done = OpSGreaterThan %bool %next %c3\n"
        "OpBranchConditional %done %exit %head\n%exit = OpLabel\nOpReturn\nOpFunctionEnd\n"
    )
    words = spirv_as(text, "--target-env", f"spv1.{minor}")
    assert isinstance(words, list), words
    assert words[1] == 0x10000 | (minor << 8)
    return words


@pytest.mark.spirv_val
@pytest.mark.parametrize("minor", range(7))
def test_dis_then_as_gives_every_version_back(minor: int) -> None:
    words = _module_of_version(minor)
    code, theirs = spirv_dis(pack(words))
    assert code == 0
    assert disassemble(words) == theirs
    for raw_id in (False, True):
        text = disassemble(words, raw_id=raw_id)
        assert same_words(words, assemble(text))
    assert unpack(assemble_binary(theirs))[:2] == words[:2]


@pytest.mark.parametrize(
    "text",
    [
        "%a = OpTypeInt 32 0\n%x = OpAtomicCompareExchange %a",
        "%a = OpTypeInt 32 0\n%x = OpAtomicCompareExchange %a %a %a %a",
        "%a = OpTypeInt 32 0\n%b = OpTypeInt 32 0\n%x = OpIAdd %a",
        "%a = OpTypeInt 32 0\n%b = OpTypeInt 32 0\n%x = OpIAdd %a %b",
        '%t = OpTypeFloat 32\n%g = OpExtInstImport "GLSL.std.450"\n%r = OpExtInst %t %g FMix %t',
        "%a = OpTypeInt 32 0\nOpStore %a",
        "%a = OpTypeInt 32 0\n%x = OpVectorShuffle %a %a",
        "%a = OpTypeInt 32 0\n%x = OpCompositeExtract %a",
        "%a = OpTypeInt 32 0\n%x = OpConstant",
        "%a = OpTypeInt 32 0\n%x =",
        "%x",
        "OpDecorate %a",
    ],
)
def test_an_instruction_cut_off_at_the_end_is_an_assembly_error(text: str) -> None:
    reference = spirv_as(text)
    assert isinstance(reference, str), "spirv-as refuses each of these"
    with pytest.raises(AssemblyError) as caught:
        assemble(text, file="cut.spvasm")
    error = caught.value
    assert str(error).startswith(f"cut.spvasm:{error.line}:{error.col}: ")
    assert "end of the text" in error.reason or "expected" in error.reason, error.reason


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ((b"OpNop",), "text must be a str (SPIR-V assembly text), not bytes; decode it first"),
        ((None,), "text must be a str (SPIR-V assembly text), not NoneType"),
        ((["OpNop"],), "not list"),
    ],
)
def test_assemble_says_what_it_takes(arguments: tuple[object, ...], fragment: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        assemble(*arguments)  # type: ignore[arg-type]
    assert fragment in str(caught.value)
    assert isinstance(caught.value, SpvbuildError) and isinstance(caught.value, TypeError)


def test_an_unknown_target_env_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError, match="unknown target env 'vulkan9'; expected one of"):
        assemble("OpNop", target_env="vulkan9")


def _texts_for_batches() -> list[str]:
    """Every hand-written test text, the error texts of test_assembler, and a long text."""
    from tests.text.test_assembler import ASM_FILES

    texts = [path.read_text(encoding="utf-8") for path in ASM_FILES]
    texts += list(HEADERS.values()) + list(UNDEFINED.values())
    lines = ["%t = OpTypeInt 32 0", '%s = OpString "a\nstring; over\\" lines"']
    for k in range(300):
        lines.append(f"%c{k} = OpConstant %t {k}")
        lines.append(f"%d{k} = OpIAdd %t %c{k} %c{k // 2}  ; a comment OpIAdd %x")
        lines.append(f"OpDecorate %d{k} RelaxedPrecision")
    texts.append("\n".join(lines))
    texts.append("\n".join(lines) + "\n%bad = OpIAdd %t %c1 %%broken\n")
    texts.append("\n".join(lines) + "\n%bad = OpIAdd %t %c1 %c2 %c3\n")
    texts.append("\n".join(lines[:200]) + "\n%bad! = OpTypeBool\n" + "\n".join(lines[200:]))
    return texts


@pytest.mark.parametrize("size", [1, 5, 40, 1000])
@pytest.mark.parametrize("preserve", [False, True])
def test_assembling_a_batch_at_a_time_changes_nothing(size: int, preserve: bool) -> None:
    """The text is split into words a batch at a time; any batch size gives the same words
    and the same errors (with the same positions) as one batch for the whole text."""
    from spvbuild.text import assembler

    engine = assembler._engine
    for text in _texts_for_batches():
        results: list[object] = []
        for batch in (size, 1 << 30):
            try:
                words = engine.assemble(text, preserve_numeric_ids=preserve, batch_characters=batch)
                results.append(words.tolist())
            except AssemblyError as error:
                results.append(str(error))
        assert results[0] == results[1], text[:80]


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: read(None), "read: expected a SPIR-V binary"),  # type: ignore[arg-type]
        (lambda: read(5), "not int"),  # type: ignore[arg-type]
        (lambda: read("OpNop"), "not str; assemble text with spvbuild.text.assembler.assemble"),  # type: ignore[arg-type]
        (lambda: disassemble(5), "disassemble: expected a SPIR-V binary"),  # type: ignore[arg-type]
        (lambda: disassemble(None), "not NoneType"),  # type: ignore[arg-type]
    ],
)
def test_read_and_disassemble_say_what_they_take(call: Callable[[], object], fragment: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        call()
    assert fragment in str(caught.value)
