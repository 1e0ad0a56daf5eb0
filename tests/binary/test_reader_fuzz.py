"""Fuzzing the reader: any input either reads (and then writes back identically) or
raises BinaryError, never another exception, never a hang.

Bounded (a few hundred examples per property, no deadline) so the file runs in seconds.
"""

from __future__ import annotations

import struct

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spvbuild import Recorder
from spvbuild.binary.encoder import MAGIC
from spvbuild.binary.reader import read
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Capability,
    Decoration,
    DecorationBuiltIn,
    DecorationLinkageAttributes,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    LinkageType,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryModel,
    Op,
    SelectionControl,
    StorageClass,
)
from spvbuild.errors import BinaryError

FUZZ = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=False,
)


def seed_module() -> list[int]:
    """A module with a bit of everything the reader decodes."""
    b = Recorder()
    b.capability(Capability.Shader).capability(Capability.Int64).capability(Capability.Linkage)
    b.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    void = b.type_void()
    fnty = b.type_function(void)
    u32 = b.type_int(32, 0)
    i64 = b.type_int(64, 1)
    f32 = b.type_float(32)
    v4 = b.type_vector(f32, 4)
    p_f32 = b.type_pointer(StorageClass.Function, f32)
    p_out = b.type_pointer(StorageClass.Output, v4)
    out = b.variable(p_out, StorageClass.Output)
    big = b.constant(i64, -(2**40))
    one = b.constant(u32, 1)
    half = b.constant(f32, 0.5)
    b.spec_constant_op(u32, Op.IAdd, [one, one])
    main = b.function(void, FunctionControl.None_, fnty)
    b.entry_point(ExecutionModel.GLCompute, main, "main", [out])
    b.execution_mode(main, ExecutionModeLocalSize(8, 8, 1))
    b.decorate(out, DecorationBuiltIn(BuiltIn.Position))
    b.decorate(main, DecorationLinkageAttributes("main", LinkageType.Export))
    b.decorate(half, Decoration.RelaxedPrecision)
    b.name(main, "main ✓")
    b.label()
    var = b.variable(p_f32, StorageClass.Function)
    x = b.load(f32, var, [MemoryAccess.Volatile, MemoryAccessAligned(4)])
    y = b.glsl.sqrt(f32, b.f_mul(f32, x, half))
    b.store(var, y)
    merge, case = b.new_id(), b.new_id()
    wide = b.i_add(i64, big, big)
    b.selection_merge(merge, SelectionControl.None_)
    b.switch(wide, merge, [(-(2**40), case), (3, merge)])
    b.label(result_id=case)
    b.branch(merge)
    b.label(result_id=merge)
    b.return_().function_end()
    return b.to_words((1, 3))


SEED = seed_module()


def check(data: bytes | list[int]) -> None:
    """Read; on success writing must give the input back."""
    try:
        module = read(data)
        module.instructions  # noqa: B018 - decode
    except BinaryError:
        return
    if isinstance(data, bytes):
        assert module.to_bytes() == data
    else:
        assert module.to_words() == data


def test_seed_reads_back() -> None:
    assert read(SEED).to_words() == SEED


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    check(data)


@FUZZ
@given(st.binary(max_size=400), st.sampled_from(["<", ">"]), st.booleans())
def test_random_bytes_after_a_header(tail: bytes, order: str, whole_words: bool) -> None:
    if whole_words:
        tail = tail[: len(tail) - len(tail) % 4]
    check(struct.pack(f"{order}5I", MAGIC, 0x10300, 0, 40, 0) + tail)


words32 = st.one_of(
    st.integers(0, 40),  # ids, small literals, enum values
    st.integers(0, 2**32 - 1),
    st.sampled_from([0xFFFFFFFF, 0x7FC00001, 0x80000000, 0x00010000, 0xFFFF0000]),
)


@st.composite
def instruction(draw: st.DrawFn) -> list[int]:
    """A random instruction: a real or unknown opcode, random operand words."""
    from spvbuild.generated.core.tables import INSTRUCTIONS

    opcode = draw(st.one_of(st.sampled_from(sorted(INSTRUCTIONS)), st.integers(0, 0xFFFF)))
    operands = draw(st.lists(words32, max_size=10))
    return [((len(operands) + 1) << 16) | opcode, *operands]


@FUZZ
@given(st.lists(instruction(), max_size=12), st.integers(0, 50))
def test_random_instructions(instructions: list[list[int]], bound: int) -> None:
    words = [MAGIC, 0x10300, 0, bound, 0]
    for inst in instructions:
        words.extend(inst)
    check(words)


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(SEED) - 1), words32), min_size=1, max_size=4))
def test_seed_with_words_replaced(changes: list[tuple[int, int]]) -> None:
    words = list(SEED)
    for index, value in changes:
        words[index] = value
    check(words)


@FUZZ
@given(st.integers(0, len(SEED) - 1), st.integers(0, 31))
def test_seed_with_a_bit_flipped(index: int, bit: int) -> None:
    words = list(SEED)
    words[index] ^= 1 << bit
    check(words)
    check(struct.pack(f">{len(words)}I", *words))


@FUZZ
@given(st.integers(0, len(SEED)))
def test_seed_truncated(size: int) -> None:
    check(SEED[:size])
    check(struct.pack(f"<{len(SEED)}I", *SEED)[: size * 4 - size % 3])


def instruction_starts(words: list[int]) -> list[int]:
    starts = []
    i = 5
    while i < len(words):
        starts.append(i)
        i += words[i] >> 16
    return starts


STARTS = instruction_starts(SEED)


@FUZZ
@given(st.sampled_from(STARTS), st.sampled_from([0, 1, 2, 0xFFFF]), st.booleans())
def test_seed_with_a_word_count_changed(start: int, count: int, keep_opcode: bool) -> None:
    words = list(SEED)
    words[start] = (count << 16) | (words[start] & 0xFFFF if keep_opcode else 0)
    check(words)


@FUZZ
@given(
    st.sampled_from(STARTS),
    st.text(max_size=300),
    st.booleans(),
    st.binary(max_size=8),
)
def test_seed_with_a_string_inserted(start: int, text: str, terminated: bool, junk: bytes) -> None:
    """OpName/OpSourceExtension with long, unterminated or non-UTF-8 strings."""
    data = text.encode("utf-8") + junk + (b"\0" if terminated else b"")
    data += b"\0" * (-len(data) % 4)
    string = list(struct.unpack(f"<{len(data) // 4}I", data))
    for inst in ([Op.Name, 1, *string], [Op.SourceExtension, *string]):
        if len(inst) > 0xFFFF:
            continue
        inst[0] = (len(inst) << 16) | inst[0]
        check(SEED[:start] + inst + SEED[start:])
