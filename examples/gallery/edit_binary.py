"""An edit of an existing binary: a compute shader that doubles its values (from ``--in
FILE``, else assembled here from the text glslang would give for it) is read into a
Module, made to triple them and clamp them at 1000, its debug names stripped, and
written back.  With ``--run`` both are run and compared with Python."""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

from common import gallery_main

from spvbuild import Id, Module, assemble
from spvbuild.constructs import type_of
from spvbuild.generated.core.opcodes import OP_CONSTANT, OP_I_MUL, OP_NAME, OP_STORE

ORIGINAL = """\
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpName %main "main"
               OpName %gid "gl_GlobalInvocationID"
               OpName %factor "factor"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %Data 0 Offset 0
               OpDecorate %Data BufferBlock
               OpDecorate %data DescriptorSet 0
               OpDecorate %data Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %uint3 = OpTypeVector %uint 3
   %in_uint3 = OpTypePointer Input %uint3
        %gid = OpVariable %in_uint3 Input
        %arr = OpTypeRuntimeArray %uint
       %Data = OpTypeStruct %arr
   %ptr_Data = OpTypePointer Uniform %Data
       %data = OpVariable %ptr_Data Uniform
   %ptr_uint = OpTypePointer Uniform %uint
     %uint_0 = OpConstant %uint 0
     %factor = OpConstant %uint 2
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %id = OpLoad %uint3 %gid
          %i = OpCompositeExtract %uint %id 0
          %p = OpAccessChain %ptr_uint %data %uint_0 %i
          %v = OpLoad %uint %p
    %doubled = OpIMul %uint %v %factor
               OpStore %p %doubled
               OpReturn
               OpFunctionEnd
"""
LIMIT = 1000


def original() -> bytes:
    """The binary to edit: ``--in FILE``, else the text above, assembled."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--in", dest="source", type=Path)
    given, _ = parser.parse_known_args()
    source: Path | None = given.source
    if source is not None:
        return source.read_bytes()
    words = assemble(ORIGINAL, target_env="spv1.0")
    return struct.pack(f"<{len(words)}I", *words)


def build() -> Module:
    m = Module.from_binary(original())
    (factor,) = m.find(name="factor", opcode=OP_CONSTANT)
    uint = type_of(m, Id(factor.result_id or 0))
    m.replace_all_uses(Id(factor.result_id or 0), m.constant(uint, 3))
    m.remove(factor)  # dead now
    (product,) = m.find(opcode=OP_I_MUL)
    with m.inserting(after=product):
        clamped = m.glsl.u_min(uint, Id(product.result_id or 0), m.constant(uint, LIMIT))
    m.replace_all_uses(Id(product.result_id or 0), clamped, where=lambda i: i.opcode == OP_STORE)
    for name in m.find(opcode=OP_NAME):
        m.remove(name)
    return m


def run(m: Module) -> None:
    """Run the original and the edit on the same values; exit 1 unless the edit gives
    min(3 v, 1000) and the original 2 v."""
    from spvbuild.vulkan_runner import run_compute

    values = list(range(0, 640, 10))
    data = struct.pack(f"<{len(values)}I", *values)
    before = Module.from_binary(original()).to_words()
    (doubled,) = run_compute(before, [data], (1, 1, 1))
    (edited,) = run_compute(m.to_words(), [data], (1, 1, 1))
    ok = struct.unpack(f"<{len(values)}I", doubled) == tuple(2 * v for v in values) and struct.unpack(
        f"<{len(values)}I", edited
    ) == tuple(min(3 * v, LIMIT) for v in values)
    print(f"edit {'ok' if ok else 'WRONG'}: min(3 v, {LIMIT}) where it was 2 v")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    gallery_main("edit_binary", build, "vulkan1.0", run)
