"""spvbuild.reflect, its JSON and its text on hostile modules: operations whose exact result
would take any memory, absurd integer widths, types and constants shared as deep DAGs (the
tree they stand for is exponential in the module), members in another member's padding.
Each case under 1 s and 200 MB; the JSON and the text linear in the module."""

from __future__ import annotations

import json
import time
import tracemalloc
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from spvbuild import assemble
from spvbuild.cli import main
from spvbuild.reflection import Reflection, reflect
from spvbuild.reflection.json_form import SCHEMA, to_dict, to_json
from spvbuild.reflection.records import SHOWN_SCALARS
from spvbuild.reflection.text_form import summary

_T = TypeVar("_T")
_HEAD = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
_LIMIT_S = 1.0
_LIMIT_BYTES = 200 * 2**20


def _bounded(work: Callable[[], _T]) -> _T:
    """``work()``, asserted under a second (timed once the room's modules are loaded) and
    200 MB of Python allocations (a second run, traced)."""
    _all_forms(assemble(_HEAD))  # the lazily loaded modules, outside the figures
    start = time.perf_counter()
    result = work()
    elapsed = time.perf_counter() - start
    assert elapsed < _LIMIT_S, f"took {elapsed:.2f} s"
    tracemalloc.start()
    try:
        work()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < _LIMIT_BYTES, f"peaked at {peak / 2**20:.0f} MB"
    return result


def _all_forms(binary: Sequence[int]) -> tuple[Reflection, str, str]:
    found = reflect(binary)
    return found, to_json(found), summary(found)


def _spec_op(found: Reflection) -> object:
    (spec,) = [s for s in found.spec_constants if s.kind == "operation"]
    return spec.default


def test_a_64_bit_shift_by_2_to_the_40_is_not_worked_out() -> None:
    binary = assemble(
        "OpCapability Shader\nOpCapability Int64\nOpMemoryModel Logical GLSL450\n"
        "%u64 = OpTypeInt 64 0\n%a = OpConstant %u64 1\n%b = OpConstant %u64 1099511627776\n"
        "%c = OpSpecConstantOp %u64 ShiftLeftLogical %a %b\n"
        "%d = OpConstant %u64 63\n%e = OpSpecConstantOp %u64 ShiftLeftLogical %a %d\n"
    )
    found, _, text = _bounded(lambda: _all_forms(binary))
    by_id = {s.id: s.default for s in found.spec_constants}
    assert list(by_id.values()) == [None, 1 << 63]  # undefined; a shift in range still works
    assert "OpShiftLeftLogical, default None" in text


def test_an_absurd_integer_width_is_not_worked_out() -> None:
    binary = assemble(
        _HEAD + "%u32 = OpTypeInt 32 0\n%uw = OpTypeInt 4294967295 0\n"
        "%a = OpConstant %u32 7\n%c = OpSpecConstantOp %uw UConvert %a\n"
        "%u16 = OpTypeInt 16 0\n%n = OpSpecConstantOp %u16 UConvert %a\n"
    )
    found, _, _ = _bounded(lambda: _all_forms(binary))
    assert [s.default for s in found.spec_constants] == [None, 7]


def test_the_cli_on_a_huge_shift_prints_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "shift.spv"
    words = assemble(
        "OpCapability Shader\nOpCapability Int64\nOpMemoryModel Logical GLSL450\n"
        "%u64 = OpTypeInt 64 1\n%a = OpConstant %u64 -1\n"
        "%b = OpConstant %u64 -1\n%c = OpSpecConstantOp %u64 ShiftRightArithmetic %a %b\n"
    )
    path.write_bytes(array("I", words).tobytes())
    assert main(["reflect", str(path)]) == 0
    assert capsys.readouterr().out.endswith("OpShiftRightArithmetic, default None\n")


def _dag_module(shape: list[list[int]], block: bool) -> Sequence[int]:
    """Structs ``s_k`` whose members are earlier types (``shape[k-1]`` their indexes, 0 the
    float), a composite constant per struct, an OpSpecConstantComposite of the last and, with
    ``block``, a uniform block holding it with scalar-layout offsets."""
    sizes = [4]
    lines = []
    decorations = []
    for k, members in enumerate(shape, start=1):
        offset = 0
        for index, member in enumerate(members):
            decorations.append(f"OpMemberDecorate %s{k} {index} Offset {offset}")
            offset += sizes[member]
        sizes.append(offset)
        lines.append(f"%s{k} = OpTypeStruct " + " ".join(f"%s{m}" for m in members))
        lines.append(
            f"%c{k} = OpConstantComposite %s{k} " + " ".join(f"%c{m}" for m in members)
        )
    last = len(shape)
    lines.append(
        f"%top = OpSpecConstantComposite %s{last} "
        + " ".join(f"%c{m}" for m in shape[-1])
    )
    if block:
        decorations += [
            "OpDecorate %blk Block", "OpDecorate %var DescriptorSet 0",
            "OpDecorate %var Binding 0", "OpMemberDecorate %blk 0 Offset 0",
        ]
        lines += [
            f"%blk = OpTypeStruct %s{last}", "%ptr = OpTypePointer Uniform %blk",
            "%var = OpVariable %ptr Uniform",
        ]
    text = _HEAD + "\n".join(
        [*decorations, "%s0 = OpTypeFloat 32", "%c0 = OpConstant %s0 1.5", *lines]
    )
    return assemble(text + "\n")


def _leaves(shape: list[list[int]]) -> int:
    counts = [1]
    for members in shape:
        counts.append(sum(counts[m] for m in members))
    return counts[-1]


def _check_linear(binary: Sequence[int], shape: list[list[int]]) -> None:
    found, json_text, text = _bounded(lambda: _all_forms(binary))
    # linear in the module: so much per word, plus at most one default written out
    words, shown = len(binary), 16 * SHOWN_SCALARS
    assert len(to_json(found, indent=None)) < 100 * words + shown
    assert len(json_text) < 200 * words + 4 * shown
    assert len(text) < 40 * words + shown
    data = json.loads(json_text)
    jsonschema.validate(data, SCHEMA)
    types = {t["id"]: t for t in data["types"]}
    assert len(types) == len(data["types"])
    # every struct written once, its members by type id, as the module declares them
    (spec,) = data["spec_constants"]
    top = types[spec["type"]]
    assert [m["type"] for m in top["members"]] == [
        found.spec_constants[0].type.members[i].type.id for i in range(len(shape[-1]))
    ]
    leaves = _leaves(shape)
    if leaves <= SHOWN_SCALARS:
        assert spec["default"] == json.loads(json.dumps(found.spec_constants[0].default))
        assert str(found.spec_constants[0].default) in text
    else:
        assert spec["default"] is None
        assert f"default a composite of {leaves} scalars" in text
    if found.descriptor_bindings:
        assert found.descriptor_bindings[0].block is not None
        assert found.descriptor_bindings[0].block.size == 4 * leaves


@pytest.mark.parametrize("depth", [16, 24])
def test_a_struct_dag_reflects_in_linear_json_and_text(depth: int) -> None:
    shape = [[k - 1, k - 1] for k in range(1, depth + 1)]
    _check_linear(_dag_module(shape, block=depth <= 24), shape)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate],
)
@given(st.data())
def test_deep_dags_of_structs_reflect_in_linear_json_and_text(data: st.DataObject) -> None:
    depth = data.draw(st.integers(1, 40), label="depth")
    shape: list[list[int]] = []
    for k in range(1, depth + 1):
        # members drawn from the last few types, so the DAG stays deep and shared
        pick = st.integers(max(0, k - 3), k - 1)
        shape.append(data.draw(st.lists(pick, min_size=1, max_size=3), label=f"s{k}"))
    fits = _leaves(shape) * 4 < 2**31
    _check_linear(_dag_module(shape, block=fits), shape)


_PADDING = _HEAD + """OpDecorate %blk Block
OpDecorate %var DescriptorSet 0
OpDecorate %var Binding 0
{decorations}
%f = OpTypeFloat 32
%v2 = OpTypeVector %f 2
%v3 = OpTypeVector %f 3
%u = OpTypeInt 32 0
%two = OpConstant %u 2
%arr = OpTypeArray %v2 %two
%m = OpTypeMatrix %v3 2
%blk = OpTypeStruct {members}
%ptr = OpTypePointer Uniform %blk
%var = OpVariable %ptr Uniform
"""


@pytest.mark.parametrize(
    ("decorations", "members", "size"),
    [
        # vec2[2], stride 16: the last element ends at 24, a float placed there ends at 28
        ("OpDecorate %arr ArrayStride 16\nOpMemberDecorate %blk 0 Offset 0\n"
         "OpMemberDecorate %blk 1 Offset 24", "%arr %f", 28),
        # the same array last: its stride's padding counts (as std140 and spirv-cross say)
        ("OpDecorate %arr ArrayStride 16\nOpMemberDecorate %blk 0 Offset 4\n"
         "OpMemberDecorate %blk 1 Offset 0", "%arr %f", 36),
        # row-major mat2x3, MatrixStride 16: three rows of two floats end at 40
        ("OpMemberDecorate %blk 0 Offset 0\nOpMemberDecorate %blk 0 RowMajor\n"
         "OpMemberDecorate %blk 0 MatrixStride 16\nOpMemberDecorate %blk 1 Offset 40",
         "%m %f", 44),
        # column-major: two columns of three floats end at 28
        ("OpMemberDecorate %blk 0 Offset 0\nOpMemberDecorate %blk 0ColMajor\n"
         "OpMemberDecorate %blk 0 MatrixStride 16\nOpMemberDecorate %blk 1 Offset 28",
         "%m %f", 32),
        # a float placed past the padding: the padded end is not reached, its end wins
        ("OpDecorate %arr ArrayStride 16\nOpMemberDecorate %blk 0 Offset 0\n"
         "OpMemberDecorate %blk 1 Offset 36", "%arr %f", 40),
    ],
)
def test_a_member_in_the_padding_of_an_array_or_matrix(
    decorations: str, members: str, size: int
) -> None:
    binary = assemble(
        _PADDING.format(decorations=decorations.replace("0ColMajor", "0 ColMajor"),
                        members=members)
    )
    block = reflect(binary).binding(0, 0).block
    assert block is not None and block.size == size


def test_floats_carry_no_signedness() -> None:
    found = reflect(assemble(_PADDING.format(
        decorations="OpDecorate %arr ArrayStride 8\nOpMemberDecorate %blk 0 Offset 0\n"
        "OpMemberDecorate %blk 1 Offset 16\nOpMemberDecorate %blk 2 Offset 20",
        members="%arr %f %u",
    )))
    data = to_dict(found)
    types = {t["glsl"]: t for t in data["types"]}
    assert types["float"]["signed"] is None and types["vec2"]["signed"] is None
    assert types["uint"]["signed"] is False
    assert found.binding(0, 0).type.members[1].type.signed is None
