"""The reader's one-word paths (see the "Design for speed" section of spvbuild.binary.reader).

Every fast path must give exactly what the general decoder gives: the same values of the
same types (Id / TypeId / int / enum member / parameter object / list / RawWords), the
same BinaryError (word offset and message), and must fall back to the general decoder
for anything it cannot read (unknown enum values, masks with parameters where it expects
none, id 0, ids past the bound, undeclared result types).  The reference here is the
same reader with every first word sent to the general decoder (but constants, which wait
for the types in both).
"""

from __future__ import annotations

import gc
import struct
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spvbuild.binary.fast_paths as fast_paths
from spvbuild import Id, Instruction, TypeId
from spvbuild.binary import read_codes
from spvbuild.binary.encoder import encode_module
from spvbuild.binary.general import GeneralDecoder
from spvbuild.binary.plans import FLAT, PARAMS, STRING, VARIADIC, core_plan
from spvbuild.binary.reader import read
from spvbuild.enums import (
    BuiltIn,
    Capability,
    Decoration,
    DecorationBuiltIn,
    DecorationLocation,
    DecorationOffset,
    ExecutionMode,
    ExecutionModeLocalSize,
    FunctionControl,
    ImageOperandsConstOffset,
    ImageOperandsGrad,
    ImageOperandsLod,
    LoopControl,
    LoopControlDependencyLength,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryAccessMakePointerAvailable,
    MemoryAccessMakePointerVisible,
    Op,
    SelectionControl,
    StorageClass,
)
from spvbuild.errors import BinaryError
from spvbuild.spirv.instruction import RawWords
from spvbuild.spirv.params import EnumerantParameters

GLSL, OPENCL = "GLSL.std.450", "OpenCL.std"
SQRT, FMIX, MODF, FABS = 31, 46, 35, 4  # GLSL.std.450 instruction numbers (4: OpenCL asinh)
VLOADN = 171  # OpenCL.std vloadn: offset, p, LiteralInteger n
BOUND = 200

# -- helpers -----------------------------------------------------------------------------


def same(a: Any, b: Any, path: str = "") -> str | None:
    """Where two decoded values differ in type or value (floats by their bits), or None."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} {a!r} != {type(b).__name__} {b!r}"
    if isinstance(a, float):
        return None if struct.pack("<d", a) == struct.pack("<d", b) else f"{path}: {a} != {b}"
    if isinstance(a, EnumerantParameters):
        return same(a.parameters, b.parameters, f"{path}.parameters")
    if isinstance(a, tuple | list):
        if len(a) != len(b):
            return f"{path}: {a!r} != {b!r}"
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found = same(x, y, f"{path}[{index}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def test_same_tells_types_apart() -> None:
    assert same((Id(3), 1), (Id(3), 1)) is None
    assert same(Id(3), TypeId(3)) is not None
    assert same(3, Id(3)) is not None
    assert same(RawWords([1]), (1,)) is not None
    assert same([MemoryAccessAligned(4)], [MemoryAccessAligned(8)]) is not None
    assert same(float("nan"), -float("nan")) is not None
    assert same(MemoryAccess.Volatile, MemoryAccess.Volatile) is None


def outcome(data: bytes | Sequence[int]) -> tuple[Any, ...]:
    try:
        return ("ok", read(data).instructions)
    except BinaryError as error:
        return ("error", error.word_offset, str(error))


def reference(data: bytes | Sequence[int], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """The outcome with every first word sent to the general decoder, but constants
    (their literals wait until every type is known, so their errors come later)."""
    plan = core_plan()
    code = plan.code
    waiting = (read_codes.DEFERRED, read_codes.CONSTANT)

    def general(first: int) -> int:
        found = code(first)
        return found if found in waiting else read_codes.GENERAL

    with monkeypatch.context() as patch:
        patch.setattr(plan, "code", general)
        return outcome(data)


def check(data: bytes | Sequence[int], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """The fast outcome, checked against the general decoder's (type-aware)."""
    fast, slow = outcome(data), reference(data, monkeypatch)
    assert fast[0] == slow[0], (fast[:3], slow[:3])
    if fast[0] == "error":
        assert fast == slow
    else:
        difference = same(fast[1], slow[1])
        assert difference is None, difference
    return fast


@pytest.fixture
def decoded_generally(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The opcodes the general decoder takes, with a decoder made on a first word's first
    sight (so that every instance of a fast shape must take its fast path)."""
    seen: list[int] = []
    general = GeneralDecoder.instruction

    def instruction(self: Any, start: int, end: int, op: int, context: Any) -> Instruction:
        seen.append(op)
        return general(self, start, end, op, context)

    monkeypatch.setattr(fast_paths, "_SIGHTS", 1)
    monkeypatch.setattr(GeneralDecoder, "instruction", instruction)
    yield seen


# -- a module with every shape -----------------------------------------------------------

VOID, FN_TYPE, U32, F32, V4, P_F32, BOOL, STRUCT = (TypeId(n) for n in range(1, 9))
P_V4 = TypeId(9)
IMAGE, SAMPLED, V2, I32 = TypeId(10), TypeId(11), TypeId(12), TypeId(13)
ONE, TWO, FLOAT_ONE, VEC, NAN = (Id(n) for n in range(20, 25))
I_MIN, I_MINUS_ONE, I_MAX, U_MAX, U_HALF = (Id(n) for n in range(25, 30))
GLSL_SET, CL_SET = Id(30), Id(31)
FILE, MAIN, LABEL, MERGE, CONTINUE, VAR, VAR2, PTR, SAMPLER, COORD = (Id(n) for n in range(40, 50))


def inst(
    op: Op, rt: int | None, rid: int | None, *operands: Any, ext: str | None = None
) -> Instruction:
    return Instruction(int(op), rt, rid, tuple(operands), ext)


def declarations() -> list[Instruction]:
    return [
        inst(Op.Capability, None, None, Capability.Shader),
        inst(Op.Capability, None, None, Capability.VulkanMemoryModel),
        inst(Op.ExtInstImport, None, GLSL_SET, GLSL),
        inst(Op.ExtInstImport, None, CL_SET, OPENCL),
        inst(Op.ExecutionMode, None, None, MAIN, ExecutionModeLocalSize(8, 8, 1)),
        inst(Op.ExecutionMode, None, None, MAIN, ExecutionMode.OriginUpperLeft),
        inst(Op.String, None, FILE, "a.glsl"),
        inst(Op.SourceExtension, None, None, "GL_GOOGLE_include_directive"),
        inst(Op.Name, None, None, MAIN, "main"),
        inst(Op.Name, None, None, VAR, "dé"),  # UTF-8 of more than one byte
        inst(Op.Name, None, None, VAR2, ""),  # one word of padding
        inst(Op.Name, None, None, Id(STRUCT), "S"),  # an Id until declared
        inst(Op.MemberName, None, None, Id(STRUCT), 0, "x"),
        inst(Op.MemberName, None, None, Id(STRUCT), 1, "abcd"),  # a word of NUL after
        inst(Op.Decorate, None, None, Id(STRUCT), Decoration.Block),  # an Id until declared
        inst(Op.Decorate, None, None, VAR, DecorationLocation(3)),
        inst(Op.Decorate, None, None, VAR2, DecorationBuiltIn(BuiltIn.Position)),
        inst(Op.MemberDecorate, None, None, Id(STRUCT), 0, DecorationOffset(16)),
        inst(Op.MemberDecorate, None, None, Id(STRUCT), 1, Decoration.NonWritable),
        inst(Op.TypeVoid, None, VOID),
        inst(Op.TypeFunction, None, FN_TYPE, VOID, ()),
        inst(Op.TypeInt, None, U32, 32, 0),
        inst(Op.TypeInt, None, I32, 32, 1),
        inst(Op.TypeFloat, None, F32, 32, None),
        inst(Op.TypeVector, None, V4, F32, 4),
        inst(Op.TypeVector, None, V2, F32, 2),
        inst(Op.TypePointer, None, P_F32, StorageClass.Function, F32),
        inst(Op.TypePointer, None, P_V4, StorageClass.Function, V4),
        inst(Op.TypeBool, None, BOOL),
        inst(Op.TypeStruct, None, STRUCT, (F32, F32)),
        inst(Op.TypeArray, None, TypeId(14), F32, ONE),  # a length declared later
        inst(Op.TypeRuntimeArray, None, TypeId(15), V4),
        inst(Op.TypeFunction, None, TypeId(16), F32, (F32, P_V4, STRUCT)),
        inst(Op.TypeStruct, None, TypeId(17), ()),
        inst(Op.TypeMatrix, None, TypeId(18), V4, 4),
        inst(Op.TypePointer, None, TypeId(19), StorageClass.Uniform, STRUCT),
        inst(Op.Constant, U32, ONE, 1),
        inst(Op.Constant, U32, TWO, 2),
        inst(Op.Constant, I32, I_MIN, -(1 << 31)),  # the edges of the sign
        inst(Op.Constant, I32, I_MINUS_ONE, -1),
        inst(Op.Constant, I32, I_MAX, (1 << 31) - 1),
        inst(Op.Constant, U32, U_MAX, (1 << 32) - 1),
        inst(Op.Constant, U32, U_HALF, 1 << 31),
        inst(Op.Constant, F32, FLOAT_ONE, 1.0),
        inst(Op.Constant, F32, NAN, RawWords([0x7F800001])),  # a signaling NaN: kept raw
        inst(Op.ConstantComposite, V4, VEC, (FLOAT_ONE, FLOAT_ONE, FLOAT_ONE, FLOAT_ONE)),
    ]


def body() -> list[Instruction]:
    """One instruction of each one-word shape (ids 100 on are results)."""
    r = iter(range(100, BOUND))

    def new() -> Id:
        return Id(next(r))

    return [
        inst(Op.Function, VOID, MAIN, FunctionControl.None_, FN_TYPE),
        inst(Op.Function, VOID, new(), FunctionControl.Inline | FunctionControl.Pure, FN_TYPE),
        inst(Op.Label, None, LABEL),
        inst(Op.Variable, P_F32, VAR, StorageClass.Function, None),
        inst(Op.Variable, P_F32, VAR2, StorageClass.Function, FLOAT_ONE),  # an initializer
        inst(Op.Load, F32, new(), VAR, MemoryAccess.Volatile),
        inst(Op.Load, F32, new(), VAR, [MemoryAccessAligned(4)]),
        inst(Op.Load, F32, new(), VAR, [MemoryAccess.Volatile, MemoryAccessAligned(16)]),
        inst(
            Op.Load,
            F32,
            new(),
            VAR,
            [MemoryAccess.NonPrivatePointer, MemoryAccessMakePointerVisible(ONE)],
        ),
        inst(Op.Store, None, None, VAR, FLOAT_ONE, [MemoryAccessAligned(4)]),
        inst(
            Op.Store,
            None,
            None,
            VAR,
            FLOAT_ONE,
            [MemoryAccess.NonPrivatePointer, MemoryAccessMakePointerAvailable(TWO)],
        ),
        inst(Op.CopyMemory, None, None, VAR, VAR2, MemoryAccess.Volatile, MemoryAccess.Nontemporal),
        inst(Op.CopyMemory, None, None, VAR, VAR2, [MemoryAccessAligned(4)], None),
        inst(Op.CompositeExtract, F32, new(), VEC, (0,)),
        inst(Op.CompositeExtract, F32, new(), VEC, (1, 2, 3)),
        inst(Op.CompositeInsert, V4, new(), FLOAT_ONE, VEC, (2,)),
        inst(Op.VectorShuffle, V4, new(), VEC, VEC, (0, 5, 2, 7)),
        inst(Op.VectorShuffle, V2, new(), VEC, VEC, (0xFFFFFFFF, 1)),
        inst(Op.CompositeConstruct, V4, new(), (FLOAT_ONE, NAN, FLOAT_ONE, FLOAT_ONE)),
        inst(Op.FunctionCall, F32, new(), MAIN, tuple(Id(n) for n in range(100, 110))),
        inst(Op.AccessChain, P_F32, new(), VAR, (ONE, TWO)),
        inst(Op.Select, F32, new(), ONE, FLOAT_ONE, NAN),
        inst(Op.Line, None, None, FILE, 12, 34),
        inst(Op.ExtInst, F32, new(), GLSL_SET, SQRT, FLOAT_ONE, ext=GLSL),
        inst(Op.ExtInst, F32, new(), GLSL_SET, FMIX, FLOAT_ONE, NAN, FLOAT_ONE, ext=GLSL),
        inst(Op.ExtInst, F32, new(), GLSL_SET, MODF, FLOAT_ONE, VAR, ext=GLSL),
        inst(Op.ExtInst, V4, new(), CL_SET, VLOADN, ONE, VAR, 4, ext=OPENCL),
        inst(Op.ImageSampleExplicitLod, V4, new(), SAMPLER, COORD, [ImageOperandsLod(FLOAT_ONE)]),
        inst(
            Op.ImageSampleExplicitLod, V4, new(), SAMPLER, COORD, [ImageOperandsGrad(COORD, COORD)]
        ),
        inst(
            Op.ImageSampleExplicitLod,
            V4,
            new(),
            SAMPLER,
            COORD,
            [ImageOperandsLod(FLOAT_ONE), ImageOperandsConstOffset(ONE)],
        ),
        inst(Op.ImageSampleImplicitLod, V4, new(), SAMPLER, COORD, None),
        inst(Op.SelectionMerge, None, None, MERGE, SelectionControl.None_),
        inst(Op.SelectionMerge, None, None, MERGE, SelectionControl.Flatten),
        inst(Op.BranchConditional, None, None, ONE, LABEL, MERGE, ()),
        inst(Op.BranchConditional, None, None, ONE, LABEL, MERGE, (1, 2)),
        inst(Op.LoopMerge, None, None, MERGE, CONTINUE, LoopControl.Unroll),
        inst(Op.LoopMerge, None, None, MERGE, CONTINUE, [LoopControlDependencyLength(4)]),
        inst(
            Op.LoopMerge,
            None,
            None,
            MERGE,
            CONTINUE,
            [LoopControl.Unroll, LoopControlDependencyLength(2)],
        ),
        inst(Op.Phi, F32, new(), ((FLOAT_ONE, LABEL),)),
        inst(Op.Phi, F32, new(), ((FLOAT_ONE, LABEL), (NAN, MERGE))),
        inst(Op.Phi, F32, new(), tuple((Id(n), LABEL) for n in range(100, 105))),
        inst(Op.EnqueueKernel, U32, new(), *(Id(n) for n in range(100, 110)), (ONE, TWO)),
        inst(Op.AliasScopeDeclINTEL, None, new(), ONE, None),
        inst(Op.Return, None, None),
        inst(Op.FunctionEnd, None, None),
    ]


FAST = {  # the opcodes of body() that must take a one-word path
    Op.Function,
    Op.Variable,
    Op.Load,
    Op.Store,
    # (not Op.CopyMemory: "Aligned 4" in the first of its two optional masks fills the word
    # of the second: the one-word reading's lookup refuses it; the general decoder reads it)
    Op.CompositeExtract,
    Op.CompositeInsert,
    Op.VectorShuffle,
    Op.CompositeConstruct,
    Op.FunctionCall,
    Op.AccessChain,
    Op.Select,
    Op.Line,
    Op.ExtInst,
    Op.ImageSampleExplicitLod,
    Op.ImageSampleImplicitLod,
    Op.SelectionMerge,
    Op.BranchConditional,
    Op.LoopMerge,
    Op.Phi,
    Op.EnqueueKernel,
    Op.AliasScopeDeclINTEL,
    Op.Capability,
    Op.ExecutionMode,
    Op.Decorate,
    Op.MemberDecorate,
    # type declarations define their result id as a TypeId (not OpTypeInt/OpTypeFloat,
    # which size later literals)
    Op.TypeVoid,
    Op.TypeFunction,
    Op.TypeVector,
    Op.TypePointer,
    Op.TypeBool,
    Op.TypeStruct,
    Op.TypeArray,
    Op.TypeRuntimeArray,
    Op.TypeMatrix,
    # a string that fills the rest of the instruction
    Op.String,
    Op.SourceExtension,
    Op.Name,
    Op.MemberName,
}


PADDING = [inst(Op.Nop, None, None)] * BOUND  # more words than the bound: ids in a list


def module_words(
    instructions: list[Instruction] | None = None, repeat: int = 1, padded: bool = True
) -> list[int]:
    """The declarations, then ``instructions`` (default: body()) ``repeat`` times, then
    (``padded``) OpNop enough for the reader to make the ids in bulk (see _zero_error);
    without, it makes each on first sight (and refuses id 0 at once)."""
    tail = PADDING if padded else []
    return encode_module(
        [*declarations(), *(instructions or body()) * repeat, *tail], BOUND, version=(1, 6)
    )


def test_the_typed_instructions_read_back(
    monkeypatch: pytest.MonkeyPatch, decoded_generally: list[int]
) -> None:
    expected = [*declarations(), *body(), *PADDING]
    fast = check(module_words(), monkeypatch)[1]
    # The reader makes the same values, of the same types, as the typed instructions.
    for got, want in zip(fast, expected, strict=True):
        if want.opcode == Op.Constant and isinstance(want.operands[0], RawWords):
            assert got.operands == want.operands  # the NaN left alone
            continue
        difference = same(tuple(got), tuple(want))
        assert difference is None, (Op(got.opcode).name, difference)


def test_every_shape_takes_its_fast_path(decoded_generally: list[int]) -> None:
    read(module_words()).instructions  # noqa: B018
    taken_by_general = {Op(op) for op in decoded_generally}
    assert not taken_by_general & FAST, taken_by_general & FAST


@pytest.mark.parametrize("sights", [1, 2, 3, 5])
@pytest.mark.parametrize("order", ["<", ">"])
def test_same_as_the_general_decoder(
    monkeypatch: pytest.MonkeyPatch, sights: int, order: str
) -> None:
    monkeypatch.setattr(fast_paths, "_SIGHTS", sights)
    words = module_words(repeat=4)
    check(words, monkeypatch)
    check(struct.pack(f"{order}{len(words)}I", *words), monkeypatch)


def test_a_bound_past_the_words_reads_ids_on_first_sight(
    monkeypatch: pytest.MonkeyPatch, decoded_generally: list[int]
) -> None:
    words = module_words(padded=False)
    words[3] = 1 << 20  # ids in a dict, not a list
    read(words).instructions  # noqa: B018
    assert not {Op(op) for op in decoded_generally} & FAST
    check(words, monkeypatch)


# -- plans -------------------------------------------------------------------------------


def reading(op: Op, count: int) -> tuple[Any, ...] | None:
    return core_plan().reading((count << 16) | op)


def test_readings() -> None:
    ID, LITERAL, PAIR = "@id", "@literal", "@pair"
    assert reading(Op.Variable, 4) == (FLAT, ("StorageClass",), "", 0, (None,))
    assert reading(Op.Variable, 5) == (FLAT, ("StorageClass", ID), "", 0, ())
    assert reading(Op.Load, 5) == (FLAT, (ID, "MemoryAccess"), "", 0, ())
    assert reading(Op.Load, 6) == (PARAMS, (ID,), "MemoryAccess", 1, ())
    assert reading(Op.CopyMemory, 4) == (FLAT, (ID, ID, "MemoryAccess"), "", 0, (None,))
    assert reading(Op.CopyMemory, 6) == (PARAMS, (ID, ID, "MemoryAccess"), "MemoryAccess", 1, ())
    assert reading(Op.BranchConditional, 4) == (FLAT, (ID, ID, ID), "", 0, ((),))
    assert reading(Op.VectorShuffle, 9) == (VARIADIC, (ID, ID), LITERAL, 4, ())
    assert reading(Op.Phi, 7) == (VARIADIC, (), PAIR, 4, ())
    assert reading(Op.Phi, 6) is None  # half a pair: the general decoder's error
    assert reading(Op.Line, 4) == (FLAT, (ID, LITERAL, LITERAL), "", 0, ())
    assert reading(Op.Line, 5) is None  # a word past the layout: RawWords
    assert reading(Op.Decorate, 4) == (PARAMS, (ID,), "Decoration", 1, ())
    assert reading(Op.Name, 4) == (STRING, (ID,), "", 2, ())  # a string to the end
    assert reading(Op.MemberName, 4) == (STRING, (ID, LITERAL), "", 1, ())
    assert reading(Op.EntryPoint, 5) is None  # a string, then more operands
    assert reading(Op.ExtInstImport, 3) is None  # it names a set: the general decoder
    assert reading(Op.TypePointer, 4) == (FLAT, ("StorageClass", ID), "", 0, ())
    assert reading(Op.TypeInt, 4) is None  # it sizes literals: the general decoder
    assert reading(Op.Switch, 5) is None  # context-dependent literals wait
    assert core_plan().code((4 << 16) | Op.Switch) == read_codes.DEFERRED


# -- what the fast paths hand to the general decoder -------------------------------------


def with_body(*extra: Instruction, padded: bool = True) -> list[int]:
    return module_words([*body()[:3], *extra, *body()[-2:]], padded=padded)


def patched(words: list[int], opcode: Op, index: int, value: int, nth: int = 0) -> list[int]:
    """``words`` with word ``index`` of the ``nth`` instruction of ``opcode`` replaced."""
    out = list(words)
    i, seen = 5, 0
    while i < len(out):
        if out[i] & 0xFFFF == opcode:
            if seen == nth:
                out[i + index] = value
                return out
            seen += 1
        i += out[i] >> 16
    raise AssertionError(f"no {opcode!r}")


EDGES = [
    # (instruction, word index to change, value): each a fallback, an error or a RawWords
    (inst(Op.Variable, P_F32, Id(150), StorageClass.Function, None), 3, 0x7777),  # unknown
    (inst(Op.SelectionMerge, None, None, MERGE, SelectionControl.None_), 2, 1 << 31),
    (inst(Op.SelectionMerge, None, None, MERGE, SelectionControl.None_), 2, 3),
    (inst(Op.Function, VOID, Id(150), FunctionControl.None_, FN_TYPE), 3, 1 << 30),
    (inst(Op.Load, F32, Id(150), VAR, MemoryAccess.Volatile), 4, 2),  # Aligned, no word
    (inst(Op.Load, F32, Id(150), VAR, [MemoryAccessAligned(4)]), 4, 1),  # a word too many
    (inst(Op.Load, F32, Id(150), VAR, [MemoryAccessAligned(4)]), 4, 8),  # an IdScope param
    (inst(Op.Load, F32, Id(150), VAR, [MemoryAccessAligned(4)]), 4, 0x80000000),
    (inst(Op.LoopMerge, None, None, MERGE, CONTINUE, LoopControl.Unroll), 3, 0x4),  # param
    (inst(Op.Decorate, None, None, VAR, DecorationLocation(3)), 2, Decoration.Block),
    (inst(Op.Decorate, None, None, VAR, DecorationLocation(3)), 2, 0x7FFF0000),
    (inst(Op.Decorate, None, None, VAR2, DecorationBuiltIn(BuiltIn.Position)), 3, 0x7777),
    (inst(Op.ExecutionMode, None, None, MAIN, ExecutionMode.OriginUpperLeft), 2, 17),
    (
        inst(Op.CopyMemory, None, None, VAR, VAR2, MemoryAccess.Volatile, MemoryAccess.Nontemporal),
        3,
        2,
    ),
    (inst(Op.Phi, F32, Id(150), ((FLOAT_ONE, LABEL), (NAN, MERGE))), 0, (6 << 16) | Op.Phi),
    (inst(Op.Line, None, None, FILE, 12, 34), 0, (3 << 16) | Op.Line),
    (inst(Op.ExtInst, F32, Id(150), GLSL_SET, SQRT, FLOAT_ONE, ext=GLSL), 4, 9999),
    (inst(Op.ExtInst, F32, Id(150), GLSL_SET, SQRT, FLOAT_ONE, ext=GLSL), 3, VAR),  # no set
    (inst(Op.ExtInst, F32, Id(150), GLSL_SET, SQRT, FLOAT_ONE, ext=GLSL), 4, FMIX),  # short
    (inst(Op.ExtInst, F32, Id(150), GLSL_SET, SQRT, FLOAT_ONE, ext=GLSL), 1, 150),  # no type
    (inst(Op.CompositeExtract, F32, Id(150), VEC, (0,)), 1, 199),  # a type declared later
    # strings: not UTF-8, non-zero padding, no NUL, a NUL before the last word
    (inst(Op.Name, None, None, VAR, "abc"), 2, 0x00FFFFFF),
    (inst(Op.Name, None, None, VAR, "abc"), 2, 0x07636261),
    (inst(Op.Name, None, None, VAR, "abcd"), 3, 0x61616161),
    (inst(Op.Name, None, None, VAR, "abcdefgh"), 2, 0),
    (inst(Op.MemberName, None, None, VAR, 3, "abcd"), 3, 0x00000061),
    # type declarations: result id 0, past the bound, an unknown storage class (after its
    # result id was defined), an id declared again as a type
    (inst(Op.TypePointer, None, TypeId(150), StorageClass.Function, F32), 1, 0),
    (inst(Op.TypePointer, None, TypeId(150), StorageClass.Function, F32), 1, BOUND + 5),
    (inst(Op.TypePointer, None, TypeId(150), StorageClass.Function, F32), 2, 0x7777),
    (inst(Op.TypeVector, None, TypeId(150), F32, 3), 1, int(VAR)),
    (inst(Op.TypeStruct, None, TypeId(150), (F32, V4)), 3, 0),
]


@pytest.mark.parametrize("sights", [1, 3])
@pytest.mark.parametrize(("instruction", "index", "value"), EDGES)
def test_what_a_fast_path_cannot_read(
    monkeypatch: pytest.MonkeyPatch, sights: int, instruction: Instruction, index: int, value: int
) -> None:
    monkeypatch.setattr(fast_paths, "_SIGHTS", sights)
    words = patched(with_body(*[instruction] * 3), Op(instruction.opcode), index, value, nth=2)
    check(words, monkeypatch)


PAST_THE_PARAMETERS = [
    inst(Op.Load, F32, Id(150), VAR, [MemoryAccessAligned(4)], RawWords([9])),
    inst(
        Op.Load, F32, Id(150), VAR, [MemoryAccess.Volatile, MemoryAccessAligned(4)], RawWords([9])
    ),
    inst(Op.Store, None, None, VAR, FLOAT_ONE, [MemoryAccessAligned(4)], RawWords([9, 9])),
    inst(Op.Decorate, None, None, VAR, DecorationLocation(3), RawWords([9])),
    inst(Op.ExecutionMode, None, None, MAIN, ExecutionModeLocalSize(8, 8, 1), RawWords([9])),
    inst(
        Op.LoopMerge, None, None, MERGE, CONTINUE, [LoopControlDependencyLength(4)], RawWords([9])
    ),
]


@pytest.mark.parametrize("instruction", PAST_THE_PARAMETERS)
def test_words_past_the_parameters_stay_raw(
    monkeypatch: pytest.MonkeyPatch, instruction: Instruction
) -> None:
    monkeypatch.setattr(fast_paths, "_SIGHTS", 1)
    fast = check(with_body(instruction, instruction), monkeypatch)[1]
    got = [i for i in fast if i.opcode == instruction.opcode]
    assert same(tuple(got[-1]), tuple(instruction)) is None


def test_unknown_values_stay_raw_as_in_the_general_decoder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fast_paths, "_SIGHTS", 1)
    variable = inst(Op.Variable, P_F32, Id(150), StorageClass.Function, None)
    fast = check(patched(with_body(variable), Op.Variable, 3, 0x7777), monkeypatch)[1]
    (raw,) = [i for i in fast if i.result_id == 150]
    assert raw.operands == (RawWords([0x7777]), None)
    load = inst(Op.Load, F32, Id(150), VAR, [MemoryAccessAligned(4)])
    fast = check(patched(with_body(load), Op.Load, 4, 1), monkeypatch)[1]
    (extra,) = [i for i in fast if i.result_id == 150]
    assert extra.operands == (VAR, MemoryAccess.Volatile, RawWords([4]))


OPERAND_IDS = [  # (instruction, index of an id word)
    (inst(Op.Phi, F32, Id(150), ((FLOAT_ONE, LABEL), (NAN, MERGE))), 6),
    (inst(Op.Phi, F32, Id(150), tuple((Id(n), LABEL) for n in range(100, 105))), 11),
    (inst(Op.ExtInst, F32, Id(150), GLSL_SET, FMIX, FLOAT_ONE, NAN, FLOAT_ONE, ext=GLSL), 7),
    (
        inst(
            Op.Load,
            F32,
            Id(150),
            VAR,
            [MemoryAccess.NonPrivatePointer, MemoryAccessMakePointerVisible(ONE)],
        ),
        5,
    ),
    (inst(Op.Variable, P_F32, Id(150), StorageClass.Function, FLOAT_ONE), 4),
    (inst(Op.CompositeConstruct, V4, Id(150), (FLOAT_ONE, NAN, FLOAT_ONE, FLOAT_ONE)), 6),
    (inst(Op.FunctionCall, F32, Id(150), MAIN, tuple(Id(n) for n in range(100, 110))), 13),
    (inst(Op.EnqueueKernel, U32, Id(150), *(Id(n) for n in range(100, 110)), (ONE, TWO)), 8),
    (
        inst(
            Op.ImageSampleExplicitLod,
            V4,
            Id(150),
            SAMPLER,
            COORD,
            [ImageOperandsGrad(COORD, COORD)],
        ),
        7,
    ),
    (inst(Op.BranchConditional, None, None, ONE, LABEL, MERGE, ()), 3),
    (inst(Op.Line, None, None, FILE, 12, 34), 1),
    (inst(Op.AliasScopeDeclINTEL, None, Id(150), ONE, None), 2),
]


def test_opcodes_that_share_a_cache_index_alternate(
    monkeypatch: pytest.MonkeyPatch, decoded_generally: list[int]
) -> None:
    # The compiled read engine caches the code of a first word by the opcode's low bits:
    # OpAccessChain (one index: its own path) and OpDepthAttachmentReadEXT (a one-word
    # path) share an index; so do OpAccessChain's two word counts.
    assert int(Op.AccessChain) % 1024 == int(Op.DepthAttachmentReadEXT) % 1024
    r = iter(range(100, BOUND))
    body = []
    for _ in range(6):
        body += [
            inst(Op.AccessChain, P_F32, Id(next(r)), VAR, (ONE,)),
            inst(Op.DepthAttachmentReadEXT, F32, Id(next(r)), None),
            inst(Op.AccessChain, P_F32, Id(next(r)), VAR, (ONE, TWO)),
        ]
    words = module_words(body)
    check(words, monkeypatch)
    decoded_generally.clear()
    read(words).instructions  # noqa: B018
    taken_by_general = {Op(op) for op in decoded_generally}  # the declarations only:
    assert not taken_by_general & {Op.AccessChain, Op.DepthAttachmentReadEXT}


@pytest.mark.parametrize("sights", [1, 3])  # a decoder, or the first sight's path
@pytest.mark.parametrize("padded", [True, False])
@pytest.mark.parametrize("value", [0, BOUND, 0xFFFFFFFF])
@pytest.mark.parametrize(("instruction", "index"), OPERAND_IDS)
def test_id_0_and_ids_past_the_bound(
    monkeypatch: pytest.MonkeyPatch,
    instruction: Instruction,
    index: int,
    value: int,
    padded: bool,
    sights: int,
) -> None:
    monkeypatch.setattr(fast_paths, "_SIGHTS", sights)
    words = patched(with_body(instruction, padded=padded), Op(instruction.opcode), index, value)
    fast = check(words, monkeypatch)
    assert fast[0] == "error" and "is not" in fast[2]
    # ... also when a later instruction fails in the general decoder (no NUL)
    later = with_body(instruction, inst(Op.Name, None, None, VAR, "abc"), padded=padded)
    later = patched(patched(later, Op(instruction.opcode), index, value), Op.Name, 2, 0x41414141)
    assert check(later, monkeypatch) == fast


def test_an_import_decoded_again_changes_the_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_paths, "_SIGHTS", 1)
    fabs = inst(Op.ExtInst, F32, Id(150), GLSL_SET, FABS, FLOAT_ONE, ext=GLSL)
    again = inst(Op.ExtInstImport, None, GLSL_SET, OPENCL)  # the same id, now OpenCL.std
    fast = check(with_body(fabs, fabs, again, fabs, fabs), monkeypatch)[1]
    assert [i.ext_set for i in fast if i.opcode == Op.ExtInst] == [GLSL, GLSL, OPENCL, OPENCL]
    unknown = inst(Op.ExtInstImport, None, GLSL_SET, "NoSuch.set")
    fast = check(with_body(fabs, fabs, unknown, fabs), monkeypatch)[1]
    last = [i for i in fast if i.opcode == Op.ExtInst][-1]
    assert last.ext_set is None
    assert last.operands == (GLSL_SET, FABS, (RawWords([int(FLOAT_ONE)]),))


def test_a_nan_constant_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = check(module_words(), monkeypatch)[1]
    (nan,) = [i for i in fast if i.result_id == NAN]
    assert nan.operands == (RawWords([0x7F800001]),)


def test_no_reference_cycle_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_paths, "_SIGHTS", 1)
    words = module_words(repeat=2)
    gc.collect()
    paused = gc.isenabled()
    gc.disable()
    try:
        for _ in range(3):
            read(words).instructions  # noqa: B018
        assert gc.collect() == 0
    finally:
        if paused:
            gc.enable()


# -- random damage -----------------------------------------------------------------------

SEED = module_words(repeat=3)
FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
WORD = st.one_of(
    st.integers(0, 8),
    st.integers(BOUND - 2, BOUND + 2),
    st.sampled_from([0x7777, 0x7F800001, 1 << 31, 0xFFFFFFFF]),
    st.integers(0, 2**32 - 1),
)


@FUZZ
@given(
    changes=st.lists(st.tuples(st.integers(5, len(SEED) - 1), WORD), min_size=1, max_size=4),
    sights=st.sampled_from([1, 3]),
)
def test_damaged_modules_read_as_by_the_general_decoder(
    changes: list[tuple[int, int]], sights: int
) -> None:
    words = list(SEED)
    for index, value in changes:
        words[index] = value
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(fast_paths, "_SIGHTS", sights)
        check(words, monkeypatch)
