"""Modules of constant expressions for the folding tests, as SPIR-V assembly.

:func:`function_module`: each expression of :data:`EXPRESSIONS` computed in ``main`` from
``OpConstant`` operands, its value written to the storage buffer at binding 0 as 32-bit
words (an integer or float by its bits, low word first; a bool as 0 or 1; a vector one
component after another), and each of :data:`REFUSED` computed and left unused.
:func:`spec_module`: each expression of :data:`SPEC_EXPRESSIONS` an ``OpSpecConstantOp``
over ``OpConstant`` operands, named ``e<n>``.

An operand is written ``{type:literal}`` (a vector's components apart by commas): it
becomes a constant of that type, declared once.
"""

from __future__ import annotations

import re

EXPRESSIONS: tuple[str, ...] = (
    # integers: SPIR-V's wraparound, signed and unsigned readings, every width
    "OpIAdd %i32 {i32:2147483647} {i32:1}",
    "OpISub %i32 {i32:-5} {i32:7}",
    "OpIMul %u32 {u32:65537} {u32:65537}",
    "OpSDiv %i32 {i32:-7} {i32:2}",
    "OpSDiv %i32 {i32:7} {i32:-2}",
    "OpSRem %i32 {i32:-7} {i32:2}",
    "OpSMod %i32 {i32:-7} {i32:2}",
    "OpSMod %i32 {i32:7} {i32:-2}",
    "OpUDiv %u32 {u32:4294967295} {u32:3}",
    "OpUMod %u32 {u32:4294967295} {u32:10}",
    "OpShiftRightArithmetic %i32 {i32:-16} {i32:2}",
    "OpShiftRightLogical %i32 {i32:-16} {u32:2}",
    "OpShiftLeftLogical %u32 {u32:1} {u32:31}",
    "OpNot %i32 {i32:5}",
    "OpSNegate %i32 {i32:-2147483648}",
    "OpBitCount %u32 {u32:4294967295}",
    "OpBitReverse %u32 {u32:1}",
    "OpBitFieldInsert %u32 {u32:4294967295} {u32:0} {u32:4} {u32:8}",
    "OpBitFieldSExtract %i32 {i32:240} {u32:4} {u32:4}",
    "OpBitFieldUExtract %u32 {u32:240} {u32:4} {u32:4}",
    "OpSLessThan %bool {i32:-1} {i32:1}",
    "OpULessThan %bool {u32:4294967295} {u32:1}",
    "OpIEqual %bool {i32:3} {i32:3}",
    "OpSGreaterThanEqual %bool {i32:-3} {i32:-3}",
    "OpIAdd %i8 {i8:127} {i8:1}",
    "OpIMul %u8 {u8:200} {u8:2}",
    "OpSDiv %i8 {i8:-128} {i8:3}",
    "OpISub %u16 {u16:0} {u16:1}",
    "OpShiftRightArithmetic %i16 {i16:-32768} {u32:15}",
    "OpUConvert %u32 {u8:200}",
    "OpSConvert %i32 {i8:-3}",
    "OpSConvert %i16 {i32:70000}",
    "OpIAdd %i64 {i64:9223372036854775807} {i64:1}",
    "OpIMul %u64 {u64:4294967297} {u64:4294967297}",
    "OpSConvert %i64 {i32:-1}",
    "OpUConvert %u64 {u32:4294967295}",
    "OpShiftLeftLogical %u64 {u64:1} {u32:40}",
    # floats: one rounding to nearest-even, conversions
    "OpFAdd %f32 {f32:0.1} {f32:0.2}",
    "OpFMul %f32 {f32:1.1} {f32:3.3}",
    "OpFDiv %f32 {f32:1} {f32:3}",
    "OpFSub %f32 {f32:1e30} {f32:1e-30}",
    "OpFNegate %f32 {f32:0}",
    "OpConvertSToF %f32 {i32:16777217}",
    "OpConvertUToF %f32 {u64:9007199791611905}",
    "OpConvertSToF %f64 {i64:-9007199254740993}",
    "OpConvertFToS %i32 {f32:-3.7}",
    "OpConvertFToU %u32 {f32:3e9}",
    "OpFConvert %f32 {f64:0.1}",
    "OpFConvert %f16 {f32:0.333333343}",
    "OpFConvert %f64 {f32:0.1}",
    "OpBitcast %u32 {f32:1}",
    "OpBitcast %f32 {u32:1078530011}",
    "OpFOrdLessThan %bool {f32:1} {f32:2}",
    "OpFUnordEqual %bool {f32:1} {f32:-1}",
    "OpFAdd %f16 {f16:1} {f16:0.0010004}",
    "OpFMul %f16 {f16:3.140625} {f16:3.140625}",
    "OpFDiv %f64 {f64:1} {f64:3}",
    "OpFAdd %f64 {f64:0.1} {f64:0.2}",
    # logical, select
    "OpLogicalAnd %bool {bool:true} {bool:false}",
    "OpLogicalOr %bool {bool:true} {bool:false}",
    "OpLogicalNot %bool {bool:false}",
    "OpLogicalNotEqual %bool {bool:true} {bool:false}",
    "OpSelect %i32 {bool:false} {i32:10} {i32:20}",
    "OpSelect %v2i32 {v2bool:true,false} {v2i32:1,2} {v2i32:3,4}",
    # vectors and composites
    "OpIAdd %v2i32 {v2i32:2147483647,-1} {v2i32:1,-1}",
    "OpFMul %v2f32 {v2f32:1.5,-2} {v2f32:2,0.25}",
    "OpIEqual %v2bool {v2i32:1,2} {v2i32:1,3}",
    "OpCompositeConstruct %v3i32 {v2i32:7,8} {i32:9}",
    "OpCompositeExtract %i32 {v3i32:4,5,6} 2",
    "OpCompositeInsert %v2i32 {i32:42} {v2i32:1,2} 0",
    "OpVectorShuffle %v4i32 {v2i32:1,2} {v2i32:3,4} 3 0 2 1",
    "OpCopyObject %i32 {i32:-77}",
    # exact GLSL.std.450 instructions
    "OpExtInst %i32 %glsl SAbs {i32:-5}",
    "OpExtInst %i32 %glsl SSign {i32:-9}",
    "OpExtInst %f32 %glsl FAbs {f32:-2.5}",
    "OpExtInst %u32 %glsl UMin {u32:4294967295} {u32:7}",
    "OpExtInst %i32 %glsl SMax {i32:-4} {i32:-9}",
    "OpExtInst %f32 %glsl FClamp {f32:5} {f32:0} {f32:1}",
    "OpExtInst %f32 %glsl Floor {f32:-1.5}",
    "OpExtInst %f32 %glsl Ceil {f32:-0.5}",
    "OpExtInst %f32 %glsl Trunc {f32:-2.7}",
    "OpExtInst %f32 %glsl RoundEven {f32:2.5}",
)
"""Expressions whose value folding works out, one per line (each must be folded)."""

REFUSED: tuple[str, ...] = (
    "OpSDiv %i32 {i32:5} {i32:0}",
    "OpUMod %u32 {u32:5} {u32:0}",
    "OpSDiv %i32 {i32:-2147483648} {i32:-1}",
    "OpShiftLeftLogical %u32 {u32:1} {u32:32}",
    "OpConvertFToU %u32 {f32:-1}",
    "OpConvertFToS %i8 {f32:300}",
    "OpFDiv %f32 {f32:1} {f32:0}",
    "OpFMul %f32 {f32:1e-20} {f32:1e-20}",
    "OpFAdd %f32 {f32:3e38} {f32:3e38}",
    "OpBitFieldUExtract %u32 {u32:240} {u32:30} {u32:4}",
    "OpExtInst %f32 %glsl FAbs {f32:-0.0}",
    "OpExtInst %f32 %glsl FSign {f32:-0.0}",
)
"""Expressions SPIR-V leaves undefined, or whose value a device may round or flush
otherwise (or give another zero sign: lavapipe's FAbs and FSign of -0.0 are -0.0): folding
must leave each of them."""

SPEC_EXPRESSIONS: tuple[str, ...] = (
    "IAdd %i32 {i32:2147483647} {i32:1}",
    "ISub %u32 {u32:0} {u32:1}",
    "IMul %i32 {i32:-3} {i32:7}",
    "SDiv %i32 {i32:-7} {i32:2}",
    "UDiv %u32 {u32:100} {u32:7}",
    "SRem %i32 {i32:-7} {i32:3}",
    "SMod %i32 {i32:-7} {i32:3}",
    "UMod %u32 {u32:100} {u32:7}",
    "ShiftLeftLogical %u32 {u32:3} {u32:30}",
    "ShiftRightLogical %u32 {u32:4294967295} {u32:4}",
    "ShiftRightArithmetic %i32 {i32:-256} {u32:4}",
    "BitwiseOr %u32 {u32:12} {u32:3}",
    "BitwiseXor %u32 {u32:12} {u32:10}",
    "BitwiseAnd %u32 {u32:12} {u32:10}",
    "Not %i32 {i32:0}",
    "SNegate %i32 {i32:5}",
    "IEqual %bool {i32:3} {i32:4}",
    "INotEqual %bool {i32:3} {i32:4}",
    "ULessThan %bool {u32:4294967295} {u32:1}",
    "SLessThan %bool {i32:-1} {i32:1}",
    "UGreaterThanEqual %bool {u32:5} {u32:5}",
    "SGreaterThan %bool {i32:-5} {i32:-6}",
    "LogicalAnd %bool {bool:true} {bool:false}",
    "LogicalOr %bool {bool:false} {bool:false}",
    "LogicalNot %bool {bool:false}",
    "LogicalEqual %bool {bool:true} {bool:true}",
    "Select %i32 {bool:true} {i32:10} {i32:20}",
    "UConvert %u64 {u32:4294967295}",
    "SConvert %i64 {i32:-2}",
    "SConvert %i32 {i64:-4294967298}",
    "IAdd %i64 {i64:-1} {i64:9223372036854775807}",
    "IAdd %v2i32 {v2i32:1,2} {v2i32:2147483647,5}",
    "CompositeExtract %i32 {v2i32:8,9} 1",
    "CompositeInsert %v2i32 {i32:5} {v2i32:8,9} 0",
    "VectorShuffle %v2i32 {v2i32:1,2} {v2i32:3,4} 3 0",
)
"""OpSpecConstantOp operations over constants (the operation's name, as in
``OpSpecConstantOp %type <name> ...``)."""

HEAD = """OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability Float64
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
"""

DECORATIONS = """OpDecorate %words ArrayStride 4
OpMemberDecorate %block 0 Offset 0
OpDecorate %block Block
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
"""

TYPES = """%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%i8 = OpTypeInt 8 1
%u8 = OpTypeInt 8 0
%i16 = OpTypeInt 16 1
%u16 = OpTypeInt 16 0
%i32 = OpTypeInt 32 1
%u32 = OpTypeInt 32 0
%i64 = OpTypeInt 64 1
%u64 = OpTypeInt 64 0
%f16 = OpTypeFloat 16
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%v2bool = OpTypeVector %bool 2
%v2i32 = OpTypeVector %i32 2
%v3i32 = OpTypeVector %i32 3
%v4i32 = OpTypeVector %i32 4
%v2f32 = OpTypeVector %f32 2
%words = OpTypeRuntimeArray %u32
%block = OpTypeStruct %words
%ptr_block = OpTypePointer StorageBuffer %block
%ptr_word = OpTypePointer StorageBuffer %u32
%out = OpVariable %ptr_block StorageBuffer
"""

_COMPONENT = {"v2bool": "bool", "v2i32": "i32", "v3i32": "i32", "v4i32": "i32", "v2f32": "f32"}
_PLACEHOLDER = re.compile(r"\{(\w+):([^}]*)\}")


class _Constants:
    """The constants the expressions name, each declared once."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ids: dict[tuple[str, str], str] = {}

    def get(self, type_name: str, literal: str) -> str:
        key = (type_name, literal)
        if key not in self.ids:
            if type_name in _COMPONENT:
                parts = [self.get(_COMPONENT[type_name], part) for part in literal.split(",")]
            name = f"%k{len(self.ids)}"
            if type_name in _COMPONENT:
                self.lines.append(f"{name} = OpConstantComposite %{type_name} {' '.join(parts)}")
            elif type_name == "bool":
                self.lines.append(f"{name} = OpConstant{literal.title()} %bool")
            else:
                self.lines.append(f"{name} = OpConstant %{type_name} {literal}")
            self.ids[key] = name
        return self.ids[key]

    def expand(self, text: str) -> str:
        return _PLACEHOLDER.sub(lambda m: self.get(m[1], m[2]), text)


def _words(value: str, type_name: str, code: list[str], constants: _Constants) -> list[str]:
    """Instructions (into ``code``) making ``value`` 32-bit words; their ids."""
    n = len(code)
    if type_name in _COMPONENT:
        count = int(type_name[1])
        out = []
        for index in range(count):
            code.append(
                f"%x{n}_{index} = OpCompositeExtract %{_COMPONENT[type_name]} {value} {index}"
            )
            out += _words(f"%x{n}_{index}", _COMPONENT[type_name], code, constants)
        return out
    if type_name == "bool":
        one, zero = constants.get("u32", "1"), constants.get("u32", "0")
        code.append(f"%w{n} = OpSelect %u32 {value} {one} {zero}")
        return [f"%w{n}"]
    if type_name in ("u32",):
        return [value]
    if type_name in ("i32", "f32"):
        code.append(f"%w{n} = OpBitcast %u32 {value}")
        return [f"%w{n}"]
    if type_name in ("i8", "u8", "i16", "u16"):
        code.append(f"%w{n} = OpUConvert %u32 {value}")
        return [f"%w{n}"]
    if type_name == "f16":
        code.append(f"%b{n} = OpBitcast %u16 {value}")
        code.append(f"%w{n} = OpUConvert %u32 %b{n}")
        return [f"%w{n}"]
    bits = value
    if type_name == "f64":
        code.append(f"%b{n} = OpBitcast %u64 {value}")
        bits = f"%b{n}"
    code.append(f"%lo{n} = OpUConvert %u32 {bits}")
    code.append(f"%sh{n} = OpShiftRightLogical %u64 {bits} {constants.get('u32', '32')}")
    code.append(f"%hi{n} = OpUConvert %u32 %sh{n}")
    return [f"%lo{n}", f"%hi{n}"]


def function_module() -> tuple[str, int]:
    """The module of :data:`EXPRESSIONS` and :data:`REFUSED` (each named ``e<n>`` /
    ``r<n>``) and how many words it writes."""
    constants = _Constants()
    names, code = [], []
    stored: list[str] = []
    zero = constants.get("i32", "0")
    for number, text in enumerate(EXPRESSIONS):
        result_type = text.split()[1][1:]
        names.append(f'OpName %e{number} "e{number}"')
        code.append(f"%e{number} = {constants.expand(text)}")
        stored += _words(f"%e{number}", result_type, code, constants)
    for number, text in enumerate(REFUSED):
        names.append(f'OpName %r{number} "r{number}"')
        code.append(f"%r{number} = {constants.expand(text)}")
    for index, word in enumerate(stored):
        code.append(
            f"%p{index} = OpAccessChain %ptr_word %out {zero} {constants.get('u32', str(index))}"
        )
        code.append(f"OpStore %p{index} {word}")
    body = "\n".join(
        [
            "%main = OpFunction %void None %fn",
            "%entry = OpLabel",
            *code,
            "OpReturn",
            "OpFunctionEnd",
        ]
    )
    head = HEAD + "\n".join(names) + "\n" + DECORATIONS
    return head + TYPES + "\n".join(constants.lines) + "\n" + body + "\n", len(stored)


def spec_module() -> str:
    """The module of :data:`SPEC_EXPRESSIONS`, each ``%e<n> = OpSpecConstantOp``, stored
    in that order into a ``Function`` variable of ``main`` (so that the constant each
    becomes is found by the store, whatever its id)."""
    constants = _Constants()
    names, lines, code = [], [], []
    pointers: dict[str, str] = {}
    for number, text in enumerate(SPEC_EXPRESSIONS):
        operation, result_type, rest = text.split(" ", 2)
        names.append(f'OpName %e{number} "e{number}"')
        lines.append(
            f"%e{number} = OpSpecConstantOp {result_type} {operation} {constants.expand(rest)}"
        )
        pointer = pointers.setdefault(result_type, f"%ptr_{result_type[1:]}")
        code.append(f"%v{number} = OpVariable {pointer} Function")
    stores = [f"OpStore %v{number} %e{number}" for number in range(len(SPEC_EXPRESSIONS))]
    lines += [f"{p} = OpTypePointer Function {t}" for t, p in pointers.items()]
    body = "\n".join(
        [
            "%main = OpFunction %void None %fn",
            "%entry = OpLabel",
            *code,
            *stores,
            "OpReturn",
            "OpFunctionEnd",
            "",
        ]
    )
    return (
        HEAD
        + "\n".join(names)
        + "\n"
        + DECORATIONS
        + TYPES
        + "\n".join(constants.lines + lines)
        + "\n"
        + body
    )
