"""The encoder's plain path (instructions of ids and 32-bit integer literals only) writes
exactly what its general, table-walking path writes, and gives way to it for anything
else: every such instruction of the GLSL corpus and of the passes' output, and values at
the edges."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from spvbuild.binary import encoder as encoder_module
from spvbuild.binary.encoder import Encoder
from spvbuild.binary.reader import read
from spvbuild.errors import EncodeError
from spvbuild.generated.core.opcodes import OP_COMPOSITE_EXTRACT, OP_I_ADD, OP_VECTOR_SHUFFLE
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from tests.reflect.modules import glsl_cases


def _general(inst: Instruction) -> list[int]:
    """The general path's words (an encoder that records the ids it meets takes no plain
    path)."""
    return Encoder(lambda _: None, used_ids={}).instruction(inst)


def _plain(inst: Instruction) -> list[int] | None:
    plan = encoder_module._plain_plan(
        encoder_module._core_tables()[0].get(inst.opcode), encoder_module._core_tables()[1]
    )
    return None if plan is None else encoder_module._plain_words(inst, plan)


@pytest.mark.corpus
def test_the_plain_path_writes_the_general_paths_words_on_the_corpus(tmp_path: Path) -> None:
    cases = glsl_cases(tmp_path)
    if len(cases) < 200:
        pytest.fail(f"the GLSL corpus gave {len(cases)} modules: glslangValidator missing?")
    plain = 0
    for case in cases:
        data = case.binary
        words = list(struct.unpack(f"<{len(data) // 4}I", data))
        for inst in read(words).instructions:
            found = _plain(inst)
            if found is not None:
                plain += 1
                assert found == _general(inst), (case.name, inst)
    assert plain > 10_000  # (most of a shader's instructions take it)


def test_values_that_are_not_plain_go_the_general_way() -> None:
    u32, a, b = TypeId(1), Id(2), Id(3)
    add = Instruction(OP_I_ADD, u32, Id(4), (a, b))
    assert _plain(add) == _general(add) == [0x50080, 1, 4, 2, 3]
    for operands in [(a, 3), (a, True), (a, None), (a,), (a, b, b), (a, Id(2**32)), (a, RawWords((3,)))]:
        assert _plain(Instruction(OP_I_ADD, u32, Id(4), operands)) is None, operands
    not_an_id: object = 1  # (a plain int where the result type's id belongs)
    assert _plain(Instruction(OP_I_ADD, not_an_id, Id(4), (a, b))) is None  # type: ignore[arg-type]
    extract = Instruction(OP_COMPOSITE_EXTRACT, u32, Id(5), (a, (0, 2**32 - 1)))
    assert _plain(extract) == _general(extract)
    for indexes in [(-1,), (2**32,), (Id(1),), [0, True], RawWords((1,))]:
        assert _plain(Instruction(OP_COMPOSITE_EXTRACT, u32, Id(5), (a, indexes))) is None
    shuffle = Instruction(OP_VECTOR_SHUFFLE, u32, Id(6), (a, b, [0, 1, 0xFFFFFFFF]))
    assert _plain(shuffle) == _general(shuffle)


def test_the_encoder_still_names_a_wrong_operand() -> None:
    inst = Instruction(OP_I_ADD, TypeId(1), Id(4), (Id(2), "x"))
    with pytest.raises(EncodeError, match="OpIAdd operand 'Operand 2'"):
        Encoder(lambda _: None).instruction(inst)
