"""``spvbuild reflect``'s text for two claims its documentation makes, checked line by line
against text written here by hand: a pointer is shown as ``T*`` (and a block does not go
on through it), and a stage variable that is a block of built-ins (``gl_PerVertex``) is
said to be one.  The format is the one :mod:`spvbuild.reflection.text_form` shows."""

from __future__ import annotations

import io
from pathlib import Path

from spvbuild.cli import main
from spvbuild.text.assembler import assemble

POINTERS = """
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main" %roots
OpExecutionMode %main LocalSize 8 1 1
OpName %Node "Node"
OpMemberName %Node 0 "value"
OpName %Root "Root"
OpMemberName %Root 0 "head"
OpMemberName %Root 1 "count"
OpMemberName %Root 2 "data"
OpName %roots "roots"
OpMemberDecorate %Node 0 Offset 0
OpDecorate %Node Block
OpMemberDecorate %Root 0 Offset 0
OpMemberDecorate %Root 1 Offset 8
OpMemberDecorate %Root 2 Offset 16
OpDecorate %Root Block
OpDecorate %roots DescriptorSet 1
OpDecorate %roots Binding 3
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%Node = OpTypeStruct %float
%node_ptr = OpTypePointer PhysicalStorageBuffer %Node
%float_ptr = OpTypePointer PhysicalStorageBuffer %float
%Root = OpTypeStruct %node_ptr %uint %float_ptr
%root_ptr = OpTypePointer StorageBuffer %Root
%roots = OpVariable %root_ptr StorageBuffer
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"""

# Root: head (a pointer, 8 bytes) at 0, count (4) at 8, data (a pointer, 8) at 16: the
# block ends at 24.  Node's member is not listed: the block does not go on through a pointer.
POINTERS_TEXT = """\
module SPIR-V 1.5, PhysicalStorageBuffer64 GLSL450; capabilities Shader, PhysicalStorageBufferAddresses
entry point main (GLCompute, comp), workgroup size 8 x 1 x 1 (LocalSize)
  modes LocalSize 8 1 1
set 1 binding 3: storage_buffer Root roots, 24 bytes
  +0 Node* head (8 bytes)
  +8 uint count (4 bytes)
  +16 float* data (8 bytes)
"""

BUILT_INS = """
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %position %vertex_index %per_vertex %color
OpName %position "position"
OpName %vertex_index "vertex_index"
OpName %PerVertex "gl_PerVertex"
OpMemberName %PerVertex 0 "gl_Position"
OpMemberName %PerVertex 1 "gl_PointSize"
OpName %per_vertex "per_vertex"
OpName %color "color"
OpDecorate %position Location 0
OpDecorate %vertex_index BuiltIn VertexIndex
OpMemberDecorate %PerVertex 0 BuiltIn Position
OpMemberDecorate %PerVertex 1 BuiltIn PointSize
OpDecorate %PerVertex Block
OpDecorate %color Location 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%vec4 = OpTypeVector %float 4
%PerVertex = OpTypeStruct %vec4 %float
%in_vec4 = OpTypePointer Input %vec4
%in_int = OpTypePointer Input %int
%out_block = OpTypePointer Output %PerVertex
%out_vec4 = OpTypePointer Output %vec4
%position = OpVariable %in_vec4 Input
%vertex_index = OpVariable %in_int Input
%per_vertex = OpVariable %out_block Output
%color = OpVariable %out_vec4 Output
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"""

# Inputs, then outputs, each in id order (the order of the OpVariables above).
BUILT_INS_TEXT = """\
module SPIR-V 1.0, Logical GLSL450; capabilities Shader
entry point main (Vertex, vert)
  input vec4 position (location 0)
  input int vertex_index (builtin VertexIndex)
  output gl_PerVertex per_vertex (block of built-ins)
  output vec4 color (location 2)
"""


def _reflect_text(source: str, version: str, tmp_path: Path) -> str:
    path = tmp_path / "module.spv"
    words = assemble(source, target_env=version)
    path.write_bytes(b"".join(w.to_bytes(4, "little") for w in words))
    out = io.BytesIO()
    assert main(["reflect", str(path)], out=out) == 0
    return out.getvalue().decode()


def test_a_pointer_is_shown_as_t_star(tmp_path: Path) -> None:
    assert _reflect_text(POINTERS, "spv1.5", tmp_path) == POINTERS_TEXT


def test_a_block_of_built_ins_is_said_to_be_one(tmp_path: Path) -> None:
    assert _reflect_text(BUILT_INS, "spv1.0", tmp_path) == BUILT_INS_TEXT
