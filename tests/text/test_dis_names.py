"""Friendly names at their limits: long suggestions, long type chains, many equal names.

spirv-dis 2025.5 is the reference wherever every suggested name has at most 256 bytes.
Above that, the rule of SPIRV-Tools v2026.3 (``FriendlyNameMapper::SaveName``): a
suggestion longer than 256 bytes names the id by its decimal number; the expected names
below are written from that rule, not taken from spvbuild's output.
"""

from __future__ import annotations

import struct

import pytest

from spvbuild.text.dis_names import MAX_SUGGESTED, exact_names, friendly_names, too_long
from spvbuild.text.disassembler import disassemble
from tests.text.test_disassembler import ins, pack, spirv_dis

HEADER = [0x07230203, 0x00010000, 0, 0, 0]
CAPABILITY_SHADER = ins(17, 1)
MEMORY_MODEL = ins(14, 0, 1)  # Logical GLSL450
FUNCTION = 7  # StorageClass Function
OP_NAME, OP_TYPE_INT, OP_TYPE_FLOAT, OP_TYPE_POINTER, OP_CONSTANT = 5, 21, 22, 32, 43


def module(*instructions: list[int], bound: int) -> bytes:
    words = [*HEADER, *CAPABILITY_SHADER, *MEMORY_MODEL]
    words[3] = bound
    for instruction in instructions:
        words += instruction
    return pack(words)


def pointer_chain(depth: int) -> bytes:
    """%2 = OpTypeInt 32 0, then %(2 + k) = OpTypePointer Function %(1 + k), k = 1..depth."""
    chain = [ins(OP_TYPE_POINTER, 2 + k, FUNCTION, 1 + k) for k in range(1, depth + 1)]
    return module(ins(OP_TYPE_INT, 2, 32, 0), *chain, bound=depth + 3)


def names_of(data: bytes) -> dict[int, str]:
    """Result id → the name spvbuild prints for it (``%name = ...`` lines)."""
    names: dict[int, str] = {}
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    numbered = disassemble(data, raw_id=True, header=False).splitlines()
    friendly = disassemble(data, header=False).splitlines()
    for raw, line in zip(numbered, friendly, strict=True):
        if " = " in raw:
            names[int(raw.split(" = ")[0].strip()[1:])] = line.split(" = ")[0].strip()[1:]
    assert friendly_names(words) == {k: v for k, v in exact_names(words).items() if v != str(k)}
    return names


def chain_name(k: int) -> str:
    """The name of the k-th pointer of the chain while it fits: 14 bytes a level + 4."""
    return "_ptr_Function_" * k + "uint"


# -- as spirv-dis 2025.5, where every suggestion fits -----------------------------------------


@pytest.mark.spirv_val
@pytest.mark.parametrize("depth", [1, 10, 18])
def test_short_chains_like_spirv_dis(depth: int) -> None:
    data = pointer_chain(depth)
    code, expected = spirv_dis(data)
    assert code == 0
    assert disassemble(data) == expected
    assert len(names_of(data)[2 + depth]) == 14 * depth + 4  # 256 at depth 18: still kept


@pytest.mark.spirv_val
@pytest.mark.parametrize(
    "name, sanitized",  # 256 bytes each
    [("n" * 256, "n" * 256), ("é" * 128, "_" * 256), ("a.b" * 85 + "c", "a_b" * 85 + "c")],
)
def test_names_of_256_bytes_are_kept_like_spirv_dis(name: str, sanitized: str) -> None:
    data = module(ins(OP_NAME, 2, name), ins(OP_TYPE_INT, 2, 32, 0), bound=3)
    code, expected = spirv_dis(data)
    assert code == 0 and disassemble(data) == expected
    assert names_of(data)[2] == sanitized


@pytest.mark.spirv_val
@pytest.mark.parametrize("count", [1, 2, 300])
def test_many_equal_names_like_spirv_dis(count: int) -> None:
    # %2 is named "a_1" first, so the clashes of "a" skip that suffix
    names = [ins(OP_NAME, 2, "a_1")] + [ins(OP_NAME, 3 + k, "a") for k in range(count)]
    data = module(*names, bound=count + 3)
    code, expected = spirv_dis(data)
    assert code == 0 and disassemble(data) == expected


# -- above 256 bytes: SPIRV-Tools v2026.3's rule ----------------------------------------------


def test_the_limit() -> None:
    assert MAX_SUGGESTED == 256
    assert not too_long("x" * 256) and too_long("x" * 257)
    assert not too_long("é" * 128) and too_long("é" * 128 + "x")  # bytes, not characters
    assert too_long("\udcff" * 257) and not too_long("\udcff" * 256)  # one byte each


def test_a_long_chain_restarts_from_the_number() -> None:
    expected = {2: "uint"}
    for k in range(1, 19):  # level k (id 2 + k) suggests 14 * k + 4 bytes: up to 256
        expected[2 + k] = chain_name(k)
    # level 19 would be 270 bytes: %21 is named 21, and the chain restarts from it
    for k in range(19, 38):  # 14 * (k - 19) + 2 bytes: up to 254
        expected[2 + k] = "_ptr_Function_" * (k - 19) + "21"
    # level 38 would be 268 bytes: %40 is named 40
    expected[40] = "40"
    expected[41] = "_ptr_Function_40"
    expected[42] = "_ptr_Function__ptr_Function_40"
    assert names_of(pointer_chain(40)) == expected


def test_long_op_names_become_numbers() -> None:
    data = module(
        ins(OP_NAME, 2, "x" * 257),
        ins(OP_NAME, 3, "é" * 128 + "y"),  # 129 characters, 257 bytes
        ins(OP_NAME, 4, "2"),  # clashes with %2's name, which is now its number
        ins(OP_TYPE_INT, 2, 32, 0),
        ins(OP_TYPE_INT, 3, 32, 1),
        ins(OP_TYPE_FLOAT, 4, 32),
        bound=5,
    )
    assert names_of(data) == {2: "2", 3: "3", 4: "2_0"}


def test_long_type_names_make_constants_numbers() -> None:
    type_name = "t" * 250
    data = module(
        ins(OP_NAME, 2, type_name),
        ins(OP_NAME, 3, "w" * 245),
        ins(OP_TYPE_INT, 2, 32, 0),
        ins(OP_TYPE_INT, 3, 64, 0),
        ins(OP_CONSTANT, 2, 4, 12345),  # "t" * 250 + "_12345": 256 bytes, kept
        ins(OP_CONSTANT, 2, 5, 123456),  # 257 bytes
        ins(OP_CONSTANT, 3, 6, 1234567890, 0),  # a two-word value: "w" * 245 + "_1234567890"
        ins(OP_CONSTANT, 3, 7, 0, 256),  # 2**40: "w" * 245 + "_1099511627776", 259 bytes
        bound=8,
    )
    assert names_of(data) == {
        2: type_name,
        3: "w" * 245,
        4: type_name + "_12345",
        5: "5",
        6: "w" * 245 + "_1234567890",
        7: "7",
    }


def test_thousands_of_equal_names() -> None:
    count = 16_000
    data = module(*(ins(OP_NAME, 2 + k, "a") for k in range(count)), bound=count + 2)
    names = [line.split()[1] for line in disassemble(data, header=False).splitlines()[2:]]
    assert names == ["%a"] + [f"%a_{k}" for k in range(count - 1)]
