"""Issue-level checks of the C-like DebugInfo example: it runs on lavapipe (also after
stripping, with the same result), and spvbuild's disassembly of every flavour equals
spirv-dis's."""

from __future__ import annotations

import struct
import subprocess

import pytest

from spvbuild.debuginfo import strip_debug_info
from spvbuild.text.disassembler import disassemble
from spvbuild.vulkan_runner import run_compute
from tests.conftest import spirv_tool
from tests.debuginfo.test_debuginfo_programs import KERNEL_TARGETS, SHADER_TARGET, Target, c_program

# sum(Point{1, 2}, 4) in the example: (1 + 2 + 4) * SCALE(3)
EXPECTED = (1 + 2 + 4) * 3


def _run(words: list[int]) -> int:
    (out,) = run_compute(words, [bytes(4)], (1, 1, 1))
    return int(struct.unpack("<I", out)[0])


@pytest.mark.vulkan
@pytest.mark.spirv_val
def test_nonsemantic_example_runs_on_lavapipe_before_and_after_stripping() -> None:
    m, _di = c_program(SHADER_TARGET)
    with_debug = m.to_words()
    assert _run(with_debug) == EXPECTED
    removed = strip_debug_info(m)
    stripped = m.to_words()
    assert removed > 0 and len(stripped) < len(with_debug)
    assert _run(stripped) == EXPECTED


@pytest.mark.spirv_val
@pytest.mark.parametrize("target", [*KERNEL_TARGETS, SHADER_TARGET], ids=lambda t: t.flavor)
def test_our_disassembly_of_the_example_equals_spirv_dis(target: Target) -> None:
    tool = spirv_tool("spirv-dis")
    assert tool is not None
    m, _di = c_program(target)
    data = m.to_bytes()
    for flags in ((), ("--raw-id",)):
        theirs = subprocess.run([str(tool), "-", *flags], input=data, capture_output=True)
        assert theirs.returncode == 0, theirs.stderr
        ours = disassemble(data, raw_id=bool(flags))
        assert ours == theirs.stdout.decode(), flags
