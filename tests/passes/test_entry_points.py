"""``split_entry_points``: one module per entry point, each spirv-val clean, holding the
functions and globals its entry point reaches (by the module's call graph, read off by
hand below) and nothing spirv-opt's dead-code elimination would still remove."""

from __future__ import annotations

from pathlib import Path

import pytest

from spvbuild import Module, assemble
from spvbuild.generated.core.enums import Capability
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_ENTRY_POINT,
    OP_FUNCTION,
    OP_NAME,
    OP_VARIABLE,
)
from spvbuild.passes import Program, split_entry_points
from tests.passes import link_differential as diff
from tests.passes.helpers import val

pytestmark = [pytest.mark.spirv_val]

# Three entry points, two named "main" (Vertex, Fragment), sharing helpers and globals;
# an exported library function nothing calls.
TEXT = """OpCapability Shader
OpCapability Linkage
OpExtension "SPV_KHR_storage_buffer_storage_class"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %vs "main" %pos
OpEntryPoint Fragment %fs "main" %color
OpEntryPoint GLCompute %cs "compute"
OpExecutionMode %fs OriginUpperLeft
OpExecutionMode %cs LocalSize 8 1 1
OpName %vs "vs"
OpName %fs "fs"
OpName %cs "cs"
OpName %scale "scale"
OpName %tint "tint"
OpName %shared "shared"
OpName %lib "lib"
OpName %pos "pos"
OpName %color "color"
OpName %buf "buf"
OpName %private "private"
OpDecorate %pos BuiltIn Position
OpDecorate %color Location 0
OpDecorate %blk Block
OpMemberDecorate %blk 0 Offset 0
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
OpDecorate %lib LinkageAttributes "lib" Export
%void = OpTypeVoid
%vfn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%ffn = OpTypeFunction %float %float
%pout4 = OpTypePointer Output %v4
%pos = OpVariable %pout4 Output
%color = OpVariable %pout4 Output
%blk = OpTypeStruct %float
%pblk = OpTypePointer StorageBuffer %blk
%pbf = OpTypePointer StorageBuffer %float
%buf = OpVariable %pblk StorageBuffer
%int = OpTypeInt 32 1
%c0 = OpConstant %int 0
%two = OpConstant %float 2
%half = OpConstant %float 0.5
%ppf = OpTypePointer Private %float
%private = OpVariable %ppf Private %half
%shared = OpFunction %float None %ffn
%shared_x = OpFunctionParameter %float
%shared_l = OpLabel
%shared_r = OpExtInst %float %glsl FAbs %shared_x
OpReturnValue %shared_r
OpFunctionEnd
%scale = OpFunction %float None %ffn
%scale_x = OpFunctionParameter %float
%scale_l = OpLabel
%scale_a = OpFMul %float %scale_x %two
%scale_r = OpFunctionCall %float %shared %scale_a
OpReturnValue %scale_r
OpFunctionEnd
%tint = OpFunction %float None %ffn
%tint_x = OpFunctionParameter %float
%tint_l = OpLabel
%tint_p = OpLoad %float %private
%tint_r = OpFMul %float %tint_x %tint_p
OpReturnValue %tint_r
OpFunctionEnd
%lib = OpFunction %float None %ffn
%lib_x = OpFunctionParameter %float
%lib_l = OpLabel
%lib_r = OpFunctionCall %float %tint %lib_x
OpReturnValue %lib_r
OpFunctionEnd
%vs = OpFunction %void None %vfn
%vs_l = OpLabel
%vs_s = OpFunctionCall %float %scale %half
%vs_v = OpCompositeConstruct %v4 %vs_s %vs_s %vs_s %vs_s
OpStore %pos %vs_v
OpReturn
OpFunctionEnd
%fs = OpFunction %void None %vfn
%fs_l = OpLabel
%fs_s = OpFunctionCall %float %tint %two
%fs_v = OpCompositeConstruct %v4 %fs_s %fs_s %fs_s %fs_s
OpStore %color %fs_v
OpReturn
OpFunctionEnd
%cs = OpFunction %void None %vfn
%cs_l = OpLabel
%cs_p = OpAccessChain %pbf %buf %c0
%cs_x = OpLoad %float %cs_p
%cs_s = OpFunctionCall %float %scale %cs_x
OpStore %cs_p %cs_s
OpReturn
OpFunctionEnd
"""

REACHES = {
    "main:Vertex": ({"vs", "scale", "shared"}, {"pos"}),
    "main:Fragment": ({"fs", "tint"}, {"color", "private"}),
    "compute": ({"cs", "scale", "shared"}, {"buf"}),
}
"""Each piece's functions and global variables, by name, from the call graph above."""

ENTRIES = {
    "main:Vertex": ("main", "Vertex"),
    "main:Fragment": ("main", "Fragment"),
    "compute": ("compute", "GLCompute"),
}


def _names(program: Program, opcode: int) -> set[str]:
    names = {
        int(i.operands[0]): str(i.operands[1]) for i in program.instructions if i.opcode == OP_NAME
    }
    return {
        names.get(int(i.result_id), f"%{i.result_id}")
        for i in program.instructions
        if i.opcode == opcode
        and i.result_id is not None
        and (opcode != OP_VARIABLE or str(i.operands[0]) != "StorageClass.Function")
    }


def _counts(words: list[int]) -> tuple[int, int]:
    program = Program.from_words(words)
    functions = sum(1 for i in program.instructions if i.opcode == OP_FUNCTION)
    variables = sum(1 for i in program.instructions if i.opcode == OP_VARIABLE)
    return functions, variables


def test_each_piece_holds_what_its_entry_point_reaches(tmp_path: Path) -> None:
    words = list(assemble(TEXT, target_env="spv1.3"))
    pieces = split_entry_points(Program.from_words(words))
    assert set(pieces) == set(REACHES)
    optimized = []
    for name, piece in pieces.items():
        functions, variables = REACHES[name]
        entries = [i for i in piece.instructions if i.opcode == OP_ENTRY_POINT]
        assert [(str(e.operands[2]), e.operands[0].name) for e in entries] == [ENTRIES[name]]
        assert _names(piece, OP_FUNCTION) == functions, name
        assert _names(piece, OP_VARIABLE) == variables, name
        assert not any(
            i.opcode == OP_CAPABILITY and i.operands[0] == Capability.Linkage
            for i in piece.instructions
        )
        assert val(piece.to_words(), "spv1.3") == "", name
        source, target = tmp_path / f"{name}.spv", tmp_path / f"{name}.opt.spv"
        source.write_bytes(diff.to_bytes(piece.to_words()))
        optimized.append(
            (
                piece.to_words(),
                target,
                [
                    diff.tool("spirv-opt"),
                    "--eliminate-dead-code-aggressive",
                    str(source),
                    "-o",
                    str(target),
                ],
            )
        )
    for (mine, target, _), result in zip(
        optimized, diff.run_all([c for _, _, c in optimized]), strict=True
    ):
        assert result.returncode == 0, result.stderr
        assert _counts(diff.to_words(target.read_bytes())) == _counts(mine)


def test_modules_in_modules_out_and_no_entry_point() -> None:
    module = Module.from_binary(assemble(TEXT, target_env="spv1.3"))
    before = module.to_words()
    pieces = split_entry_points(module)
    assert set(pieces) == set(REACHES)
    assert all(isinstance(p, Module) for p in pieces.values())
    assert module.to_words() == before
    library = assemble(TEXT.split("OpEntryPoint")[0] + "%void = OpTypeVoid\n", target_env="spv1.3")
    assert split_entry_points(library) == {}


def test_pieces_link_back_into_all_entry_points() -> None:
    """Linking the pieces gives every entry point again, spirv-val clean."""
    from spvbuild.passes import link

    pieces = split_entry_points(assemble(TEXT, target_env="spv1.3"))
    joined = link(list(pieces.values()))
    assert isinstance(joined, Program)
    entries = {
        (str(i.operands[2]), i.operands[0].name)
        for i in joined.instructions
        if i.opcode == OP_ENTRY_POINT
    }
    assert entries == {("main", "Vertex"), ("main", "Fragment"), ("compute", "GLCompute")}
    assert val(joined.to_words(), "spv1.3") == ""
