"""Builder misuse: every wrong call fails at that call, with a located spvbuild error.

The contract checked here (issue 13, "Errors at the call, located"):

* a misuse raises a :class:`~spvbuild.errors.SpvbuildError` from the call that caused it,
  never later from ``to_words()``/``to_bytes()`` and never as a plain ``TypeError``;
* the message names the instruction, the operand (grammar or Python name), the offending
  value and the user's ``file:line`` (the first frame outside spvbuild: this file);
* a failed call leaves the module as it was: it serializes to the words of the same module
  built without that call;
* whatever ``Module.from_binary`` accepts, ``to_bytes`` writes back, and reading and writing
  that again gives the same bytes.

A misuse is written as a one-line lambda, so the line of the call is the lambda's first
line (``__code__.co_firstlineno``).
"""

from __future__ import annotations

import math
import random
import re
import struct
import subprocess
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from spvbuild.binary.encoder import encode_module
from spvbuild.binary.reader import read
from spvbuild.compute import invocation_index, storage_buffer
from spvbuild.enums import (
    AddressingModel,
    Capability,
    Decoration,
    DecorationLocation,
    ExecutionMode,
    ExecutionModel,
    ExecutionModeLocalSize,
    LoopControl,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryModel,
    Scope,
    SelectionControl,
    StorageClass,
)
from spvbuild.errors import SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.ir.module import FunctionHandle, Module
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import RawWords
from spvbuild.text.assembler import assemble
from spvbuild.text.disassembler import disassemble

Validator = Callable[[list[int], str], "subprocess.CompletedProcess[str]"]

HERE = Path(__file__).name
ASM = Path(__file__).parent.parent / "asm"
OP_CAPABILITY = tables.OPCODES_BY_NAME["OpCapability"]
OP_CONSTANT = tables.OPCODES_BY_NAME["OpConstant"]
OP_ENTRY_POINT = tables.OPCODES_BY_NAME["OpEntryPoint"]


# -- the contract -------------------------------------------------------------------------
def _caught(call: Callable[[], object]) -> SpvbuildError:
    """Run ``call``, which must raise a spvbuild error itself; return the error."""
    with pytest.raises(SpvbuildError) as info:
        call()
    return info.value


def _attempt(call: Callable[[], object]) -> SpvbuildError | None:
    """Run ``call``; the spvbuild error it raised, or None.  Other exceptions propagate."""
    try:
        call()
    except SpvbuildError as error:
        return error
    return None


def _line(call: Callable[..., object]) -> int:
    """The line of a one-line lambda: the line of the call it makes."""
    return call.__code__.co_firstlineno


def _assert_names(
    error: SpvbuildError,
    *,
    line: int | None,
    instruction: Sequence[str],
    operand: Sequence[str],
    value: Sequence[str],
) -> None:
    """The message names ``HERE:line`` (unless None) and one of each group given (an empty
    group is not checked)."""
    message = str(error)
    if line is not None:
        where = f"{HERE}:{line}"
        assert where in message, f"no call site {where!r} in: {message}"
    for what, group in (("instruction", instruction), ("operand", operand), ("value", value)):
        assert not group or any(s in message for s in group), (
            f"the {what} (one of {list(group)}) is not named in: {message}"
        )


@dataclass(frozen=True)
class Scene:
    """A small compute shader whose entry block is still open (see :func:`_scene`)."""

    u32: TypeId
    f32: TypeId
    boolean: TypeId
    one: Id  # u32 1
    half: Id  # f32 0.5
    true: Id
    pair: Id  # uvec2(1, 1)
    main: FunctionHandle
    local: Id  # a Function-storage u32 variable
    labels: tuple[Id, Id, Id]  # reserved for the control-flow cases


def _scene(m: Module) -> Scene:
    u32 = m.type_int(32, 0)
    f32 = m.type_float(32)
    boolean = m.type_bool()
    one = m.constant(u32, 1)
    half = m.constant(f32, 0.5)
    true = m.constant_true(boolean)
    pair = m.constant_composite(m.type_vector(u32, 2), [one, one])
    main = m.define_function(m.type_void(), name="main")
    local = m.variable(m.type_pointer(StorageClass.Function, u32), StorageClass.Function)
    labels = (m.new_id(), m.new_id(), m.new_id())
    return Scene(u32, f32, boolean, one, half, true, pair, main, local, labels)


def _finish(m: Module, s: Scene) -> None:
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, s.main.id, "main")
    m.execution_mode(s.main.id, ExecutionModeLocalSize(1, 1, 1))


def assert_misuse(
    misuse: Callable[[Module, Scene], object],
    *,
    instruction: Sequence[str],
    operand: Sequence[str],
    value: Sequence[str],
    build: Callable[[Module], Scene] = _scene,
    finish: Callable[[Module, Scene], None] = _finish,
) -> str:
    """``misuse`` fails at the call, named and located, and leaves the module as it was."""
    m = Module()
    scene = build(m)
    error = _caught(lambda: misuse(m, scene))
    _assert_names(error, line=_line(misuse), instruction=instruction, operand=operand, value=value)
    finish(m, scene)
    reference = Module()
    finish(reference, build(reference))
    assert m.to_words() == reference.to_words(), "the failed call changed the module"
    return str(error)


def _starts(words: Sequence[int]) -> list[int]:
    """The index of each instruction's first word in a module's words."""
    out: list[int] = []
    index = 5
    while index < len(words) and words[index] >> 16:
        out.append(index)
        index += words[index] >> 16
    return out


def _split(words: Sequence[int]) -> list[tuple[int, ...]]:
    """The instructions of a module's words, each as its words."""
    return [tuple(words[i : i + (words[i] >> 16)]) for i in _starts(words)]


def _words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def _capabilities(words: Sequence[int]) -> list[int]:
    return [i[1] for i in _split(words) if i[0] & 0xFFFF == OP_CAPABILITY]


def _constant_values(words: Sequence[int]) -> dict[int, Any]:
    return {
        int(i.result_id): i.operands[0]
        for i in read(words).instructions
        if i.opcode == OP_CONSTANT and i.result_id is not None
    }


@pytest.mark.spirv_val
def test_the_scene_is_a_valid_module(spirv_val: Validator) -> None:
    m = Module()
    _finish(m, _scene(m))
    result = spirv_val(m.to_words(), "vulkan1.1")
    assert result.returncode == 0, result.stderr


# -- R1, R2, R3: equal bits are one constant, and the caches stay true -------------------
def test_r1_an_int_enum_as_a_constant_value_is_its_plain_value() -> None:
    assert int(Scope.QueueFamily) == 5
    m = Module()
    u32 = m.type_int(32, 0)
    assert m.constant(u32, Scope.QueueFamily) == m.constant(u32, 5)
    again = Module()
    u32 = again.type_int(32, 0)
    assert again.constant(u32, 5) == again.constant(u32, Scope.QueueFamily)


def _shader_with_constant(value: int) -> list[int]:
    m = Module()
    s = _scene(m)
    m.constant(s.u32, value)
    _finish(m, s)
    return m.to_words()


def test_r1_an_int_enum_as_a_constant_value_leaves_capabilities_alone() -> None:
    plain = _shader_with_constant(5)
    enum = _shader_with_constant(Scope.QueueFamily)
    assert _capabilities(enum) == _capabilities(plain) == [int(Capability.Shader)]
    assert enum == plain


@pytest.mark.parametrize("width", [16, 32, 64])
def test_r2_an_int_and_a_float_with_equal_bits_are_one_constant(width: int) -> None:
    m = Module()
    f = m.type_float(width)
    one = m.constant(f, 1)
    assert m.constant(f, 1.0) == one
    assert m.constant(f, 0) == m.constant(f, 0.0)
    assert m.constant(f, 2.0) != one
    assert _constant_values(m.to_words())[one] == 1.0


@pytest.mark.parametrize("width", [16, 32, 64])
def test_r2_zero_and_negative_zero_stay_two_constants(width: int) -> None:
    m = Module()
    f = m.type_float(width)
    assert m.constant(f, -0.0) != m.constant(f, 0.0)


@pytest.mark.parametrize("width", [16, 32, 64])
def test_r2_nans_with_the_same_bits_are_one_constant(width: int) -> None:
    m = Module()
    f = m.type_float(width)
    assert m.constant(f, math.nan) == m.constant(f, float("nan"))


def test_r2_nans_with_different_payloads_stay_two_constants() -> None:
    quiet = struct.unpack("<d", struct.pack("<Q", 0x7FF8_0000_0000_0000))[0]
    payload = struct.unpack("<d", struct.pack("<Q", 0x7FF8_0000_0000_0001))[0]
    m = Module()
    f64 = m.type_float(64)
    assert m.constant(f64, quiet) != m.constant(f64, payload)


def test_r3_rewrite_keeps_the_constant_cache_true() -> None:
    m = Module()
    f32 = m.type_float(32)
    two = m.constant(f32, 2.0)
    m.rewrite(lambda i: i._replace(operands=(0.5,)) if i.result_id == two else i)
    assert m.constant(f32, 0.5) == two
    fresh = m.constant(f32, 2.0)
    assert fresh != two
    values = _constant_values(m.to_words())
    assert values[two] == 0.5
    assert values[fresh] == 2.0


# -- R4: an id is defined once -----------------------------------------------------------
def _scene_with_reserved_constant(m: Module) -> Scene:
    s = _scene(m)
    m.constant(s.u32, 3, result_id=s.labels[0])
    return s


def test_r4_a_reserved_id_defined_twice_fails_at_the_second_definition() -> None:
    assert_misuse(
        lambda m, s: m.constant(s.u32, 4, result_id=s.labels[0]),
        instruction=["OpConstant"],
        operand=["result_id", "result id", "Result"],
        value=[repr(_scene(Module()).labels[0])],
        build=_scene_with_reserved_constant,
    )


def test_r4_an_id_already_defined_cannot_be_a_result_id() -> None:
    assert_misuse(
        lambda m, s: m.constant(s.u32, 4, result_id=s.u32),
        instruction=["OpConstant"],
        operand=["result_id", "result id", "Result"],
        value=[repr(_scene(Module()).u32)],
    )


# -- OpLine/OpNoLine between type declarations ------------------------------------------
LINES_AMONG_TYPES = """\
; SPIR-V
; Version: 1.3
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %file = OpString "a.comp"
               OpName %main "main"
       %void = OpTypeVoid
               OpLine %file 1 1
         %fn = OpTypeFunction %void
               OpNoLine
       %uint = OpTypeInt 32 0
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"""


@pytest.mark.spirv_val
def test_op_line_between_type_declarations_is_read_and_written_back(
    spirv_val: Validator,
) -> None:
    words = assemble(LINES_AMONG_TYPES)
    result = spirv_val(words, "spv1.3")
    assert result.returncode == 0, result.stderr
    m = Module.from_binary(words)
    assert disassemble(m.to_words()) == disassemble(words)


# -- merge placement ---------------------------------------------------------------------
def _in_selection_header(m: Module) -> Scene:
    s = _scene(m)
    m.selection_merge(s.labels[0], SelectionControl.None_)
    return s


def _after_selection(m: Module, s: Scene) -> None:
    merge, then, _ = s.labels
    m.branch_conditional(s.true, then, merge)
    m.label(result_id=then)
    m.branch(merge)
    m.label(result_id=merge)
    _finish(m, s)


def test_an_instruction_between_selection_merge_and_its_branch_fails_at_its_call() -> None:
    assert_misuse(
        lambda m, s: m.f_ord_less_than(s.boolean, s.half, s.half),
        instruction=["OpFOrdLessThan"],
        operand=[],
        value=["OpSelectionMerge"],
        build=_in_selection_header,
        finish=_after_selection,
    )


def _in_loop_header(m: Module) -> Scene:
    s = _scene(m)
    merge, continue_target, header = s.labels
    m.branch(header)
    m.label(result_id=header)
    m.loop_merge(merge, continue_target, LoopControl.None_)
    return s


def _after_loop(m: Module, s: Scene) -> None:
    merge, continue_target, header = s.labels
    m.branch(continue_target)
    m.label(result_id=continue_target)
    m.branch(header)
    m.label(result_id=merge)
    _finish(m, s)


def test_an_instruction_between_loop_merge_and_its_branch_fails_at_its_call() -> None:
    assert_misuse(
        lambda m, s: m.i_add(s.u32, s.one, s.one),
        instruction=["OpIAdd"],
        operand=[],
        value=["OpLoopMerge"],
        build=_in_loop_header,
        finish=_after_loop,
    )


# -- hostile binaries are written back ---------------------------------------------------
UNKNOWN_CAPABILITY = bytes.fromhex("0302230700050100000000000100000000000000110002009f860100")


def test_an_unknown_capability_is_written_back() -> None:
    out = Module.from_binary(UNKNOWN_CAPABILITY).to_bytes()
    assert (0x0002_0011, 99999) in _split(_words(out))


ENTRY_SHADER = """\
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"""


def test_an_unknown_execution_model_is_written_back() -> None:
    words = assemble(ENTRY_SHADER)
    entry = next(i for i in _split(words) if i[0] & 0xFFFF == OP_ENTRY_POINT)
    hostile = (entry[0], 0x7777, *entry[2:])  # no ExecutionModel has the value 0x7777
    start = words.index(entry[0])
    words[start : start + len(entry)] = hostile
    out = Module.from_binary(words).to_bytes()
    assert hostile in _split(_words(out))


# -- values range-checked at the call ----------------------------------------------------
def test_a_negative_decoration_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.decorate(s.one, -1),  # type: ignore[arg-type]
        instruction=["OpDecorate"],
        operand=["decoration", "Decoration"],
        value=["-1"],
    )


def test_a_decoration_past_32_bits_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.decorate(s.one, 2**40),  # type: ignore[arg-type]
        instruction=["OpDecorate"],
        operand=["decoration", "Decoration"],
        value=[str(2**40), hex(2**40)],
    )


def test_a_capability_past_32_bits_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.capability(2**32),  # type: ignore[arg-type]
        instruction=["OpCapability"],
        operand=["capability", "Capability"],
        value=[str(2**32), hex(2**32)],
    )


def test_a_negative_memory_access_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.load(s.u32, s.local, -1),  # type: ignore[arg-type]
        instruction=["OpLoad"],
        operand=["memory_access", "MemoryAccess", "Memory Access"],
        value=["-1"],
    )


def test_a_float_width_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.type_int(32.0, 0),  # type: ignore[arg-type]
        instruction=["OpTypeInt"],
        operand=["width", "Width"],
        value=["32.0"],
    )


def test_a_float_location_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.decorate(s.one, DecorationLocation(1.5)),  # type: ignore[arg-type]
        instruction=["OpDecorate", "DecorationLocation"],
        operand=["location", "Location"],
        value=["1.5"],
    )


def test_an_unsigned_constant_past_its_width_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.constant(s.u32, 2**32),
        instruction=["OpConstant"],
        operand=["value", "Value"],
        value=[str(2**32), hex(2**32)],
    )


# -- None, enums given as ints, parameter classes ----------------------------------------
def test_none_as_a_name_target_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.name(None, "x"),  # type: ignore[arg-type]
        instruction=["OpName"],
        operand=["target", "Target"],
        value=["None"],
    )


def test_none_as_a_decoration_target_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.decorate(None, Decoration.RelaxedPrecision),  # type: ignore[arg-type]
        instruction=["OpDecorate"],
        operand=["target", "Target"],
        value=["None"],
    )


@pytest.mark.parametrize("enum_first", [True, False], ids=["enum-then-int", "int-then-enum"])
def test_an_int_for_a_decoration_means_that_decoration_or_fails_at_the_call(
    enum_first: bool,
) -> None:
    assert int(Decoration.Flat) == 14

    def build(m: Module) -> Scene:
        s = _scene(m)
        if enum_first:
            m.decorate(s.one, Decoration.RelaxedPrecision)
        return s

    def finish(m: Module, s: Scene) -> None:
        if not enum_first:
            m.decorate(s.one, Decoration.RelaxedPrecision)
        _finish(m, s)

    m = Module()
    s = build(m)
    line = _line(misuse := lambda: m.decorate(s.one, 14))  # type: ignore[arg-type]
    error = _attempt(misuse)
    finish(m, s)
    reference = Module()
    s = build(reference)
    if error is None:  # accepted: then it means Decoration.Flat
        reference.decorate(s.one, Decoration.Flat)
    else:  # refused: then named and located, and the module is as it was
        _assert_names(error, line=line, instruction=["OpDecorate"], operand=[], value=["14"])
    finish(reference, s)
    assert m.to_words() == reference.to_words()


def test_a_float_local_size_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.execution_mode(s.main.id, ExecutionModeLocalSize(1.5, 1, 1)),  # type: ignore[arg-type]
        instruction=["OpExecutionMode", "ExecutionModeLocalSize"],
        operand=["x_size", "x size", "LocalSize"],
        value=["1.5"],
    )


def test_a_huge_constant_fails_with_a_short_message() -> None:
    message = assert_misuse(
        lambda m, s: m.constant(s.u32, 10**5000),
        instruction=["OpConstant"],
        operand=["value", "Value"],
        value=[],
    )
    assert len(message) < 300, message


# -- Module's own arguments --------------------------------------------------------------
BAD_MODULE_ARGUMENTS: list[tuple[str, object]] = [
    ("generator", -1),
    ("generator", 2**32),
    ("version", "1.3"),
    ("version", (1,)),
    ("version", (1, 300)),
    ("version", (-1, 3)),
]


@pytest.mark.parametrize(
    ("parameter", "value"),
    BAD_MODULE_ARGUMENTS,
    ids=[f"{p}={v!r}" for p, v in BAD_MODULE_ARGUMENTS],
)
def test_a_bad_module_argument_fails_at_construction(parameter: str, value: object) -> None:
    arguments: dict[str, Any] = {parameter: value}
    error = _caught(lambda: Module(**arguments))
    _assert_names(error, line=None, instruction=[], operand=[parameter], value=[repr(value)])


# -- sizes claimed by the caller never drive the work ------------------------------------
def test_a_huge_integer_width_is_refused_without_a_huge_computation() -> None:
    m = Module()
    made: list[TypeId] = []
    line = _line(make_type := lambda: made.append(m.type_int(2**31, 0)))
    error = _attempt(make_type)
    if error is not None:
        _assert_names(
            error, line=line, instruction=["OpTypeInt"], operand=["width", "Width"], value=[]
        )
        return
    line = _line(make_constant := lambda: m.constant(made[0], 1))
    error = _caught(make_constant)
    _assert_names(error, line=line, instruction=["OpConstant"], operand=[], value=[])


# -- strings -----------------------------------------------------------------------------
def test_a_nul_inside_a_name_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.name(s.one, "a\0b"),
        instruction=["OpName"],
        operand=["name", "Name"],
        value=[repr("a\0b"), "a\0b", "\\x00", "NUL"],
    )


# -- what mypy rejects still fails as a spvbuild error -----------------------------------
def test_an_int_for_a_sequence_of_indexes_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.composite_extract(s.u32, s.pair, 0),  # type: ignore[arg-type]
        instruction=["OpCompositeExtract"],
        operand=["indexes", "Indexes"],
        value=["0"],
    )


def test_a_function_handle_for_an_id_fails_at_the_call() -> None:
    assert_misuse(
        lambda m, s: m.entry_point(ExecutionModel.GLCompute, s.main, "main"),  # type: ignore[arg-type]
        instruction=["OpEntryPoint"],
        operand=["entry_point", "Entry Point"],
        value=["FunctionHandle"],
    )


# -- property: random builder calls -----------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """Stands for an id made earlier in the sequence (its index, wrapped around)."""

    index: int


@dataclass(frozen=True)
class Handle:
    """Stands for the scene's FunctionHandle."""


# The positional arity of each method called.
CALLS: dict[str, int] = {
    "type_int": 2,
    "type_float": 1,
    "type_vector": 2,
    "type_pointer": 2,
    "constant": 2,
    "decorate": 2,
    "name": 2,
    "i_add": 3,
    "load": 3,
    "store": 3,
    "capability": 1,
    "composite_extract": 3,
    "variable": 2,
}

ENUMERANTS: list[object] = [
    Scope.QueueFamily,
    Decoration.Flat,
    Decoration.RelaxedPrecision,
    Decoration.Location,
    DecorationLocation(3),
    DecorationLocation(-1),
    Capability.Shader,
    Capability.Float64,
    StorageClass.Function,
    StorageClass.Private,
    MemoryAccess.Volatile,
    MemoryAccessAligned(4),
    ExecutionModel.GLCompute,
    ExecutionMode.LocalSize,
    SelectionControl.Flatten,
]

# Integers avoid 257 .. 2**32 - 1: a width there is what the dedicated test above checks,
# and today it makes serialization take seconds per example.
WILD = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([-1, 0, 1, 2, 8, 16, 32, 64, 2**32, 2**40, 2**64, -(2**63), 10**30]),
    st.integers(0, 256),
    st.integers(-(2**80), -1),
    st.integers(2**32, 2**80),
    st.floats(),
    st.text(max_size=4),
    st.sampled_from(ENUMERANTS),
    st.lists(st.integers(-1, 3), max_size=3),
    st.just(Handle()),
)
ARGUMENT = st.one_of(st.builds(Pick, st.integers(0, 63)), WILD)
CALL_SEQUENCES = st.lists(
    st.tuples(st.sampled_from(sorted(CALLS)), st.lists(ARGUMENT, min_size=3, max_size=3)),
    max_size=12,
)


def _invoke(method: Callable[..., object], args: Sequence[object]) -> object:
    return method(*args)


INVOKE_LINE = _invoke.__code__.co_firstlineno + 1


def _instruction_of(method_name: str) -> str:
    """``OpTypeInt`` for ``type_int``: the first word of the generated docstring."""
    doc = getattr(Module, method_name).__doc__ or ""
    return doc.split()[0]


def _serialized(m: Module, scene: Scene) -> list[int] | type[SpvbuildError]:
    try:
        _finish(m, scene)
        return m.to_words()
    except SpvbuildError as error:
        return type(error)


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(CALL_SEQUENCES)
def test_random_builder_calls_fail_only_with_located_spvbuild_errors(
    calls: list[tuple[str, list[object]]],
) -> None:
    m, mirror = Module(), Module()  # mirror: receives only the calls that succeed
    scene = _scene(m)
    assert _scene(mirror) == scene
    made: list[object] = [scene.u32, scene.f32, scene.boolean, scene.one, scene.half]
    made += [scene.true, scene.pair, scene.local, scene.main.id]

    def resolve(argument: object) -> object:
        if isinstance(argument, Pick):
            return made[argument.index % len(made)]
        return scene.main if isinstance(argument, Handle) else argument

    for name, raw in calls:
        args = [resolve(a) for a in raw[: CALLS[name]]]
        try:
            result = _invoke(getattr(m, name), args)
        except SpvbuildError as error:
            message = str(error)
            assert f"{HERE}:{INVOKE_LINE}" in message, f"{name}{tuple(args)}: {message}"
            assert _instruction_of(name) in message, f"{name}{tuple(args)}: {message}"
            event("a call was refused")
            continue
        mirrored = _invoke(getattr(mirror, name), args)
        if isinstance(result, Id):
            assert mirrored == result, f"{name}{tuple(args)}: another id after a failed call"
            made.append(result)
    assert _serialized(m, scene) == _serialized(mirror, scene)


# -- property: from_binary → to_bytes is a fixed point on whatever from_binary accepts ----
def _readme_module() -> list[int]:
    m = Module(version=(1, 3))
    f32 = m.type_float(32)
    data = storage_buffer(m, f32, binding=0)
    main = m.define_function(m.type_void(), name="main")
    p = data.at(m, invocation_index(m))
    x = m.load(f32, p)
    m.store(p, m.f_add(f32, m.f_mul(f32, x, x), m.glsl.sqrt(f32, x)))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(64, 1, 1))
    return m.to_words()


@cache
def _seed_binaries() -> tuple[tuple[int, ...], ...]:
    texts = [
        "02_compute_shader",
        "03_opencl_kernel",
        "13_enum_params",
        "14_glsl_std_450",
        "19_spec_constant_op",
        "20_switch_64",
        "25_optional_variadic",
        "33_constants_composite",
    ]
    seeds = [tuple(assemble((ASM / f"{t}.spvasm").read_text())) for t in texts]
    return (tuple(_readme_module()), *seeds)


SPECIAL_WORDS = [0, 1, 2, 3, 0xFF, 0xFFFF, 99999, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]
EXT_INST_OPCODES = {tables.OPCODES_BY_NAME["OpExtInstImport"], tables.OPCODES_BY_NAME["OpExtInst"]}
OP_FUNCTION = tables.OPCODES_BY_NAME["OpFunction"]
OP_FUNCTION_END = tables.OPCODES_BY_NAME["OpFunctionEnd"]
OP_MEMORY_MODEL = tables.OPCODES_BY_NAME["OpMemoryModel"]
UNDEFINED_ID = re.compile(r"uses %(\d+), which no instruction defines")


def _with_ids(value: object, replace: Callable[[int], int]) -> object:
    """``value`` (an operand) with each id in it passed through ``replace``."""
    if isinstance(value, Id):
        return type(value)(replace(int(value)))
    if isinstance(value, tuple) and not isinstance(value, RawWords):
        return tuple(_with_ids(item, replace) for item in value)
    return value


def _id_count(value: object) -> int:
    if isinstance(value, Id):
        return 1
    if isinstance(value, tuple) and not isinstance(value, RawWords):
        return sum(_id_count(item) for item in value)
    return 0


def _other_id(rng: random.Random, seed: Sequence[int]) -> list[int] | None:
    """The seed with one id of one instruction (its result type or an id among its
    operands; its result id rarely, which mostly defines an id twice) replaced by another
    id below the bound, through the typed records and the encoder, so that the word stays
    an id; None when the seed is unreadable already or the encoder refuses the result."""
    try:
        module = read(seed, lazy=False)
    except SpvbuildError:
        return None
    instructions = list(module.instructions)
    n = rng.randrange(len(instructions))
    inst = instructions[n]
    header = [inst.result_type, inst.result_id if rng.random() < 0.1 else None]
    count = _id_count(inst.operands) + sum(i is not None for i in header)
    if count == 0:
        return None
    which = rng.randrange(count)
    new = rng.randrange(1, module.bound)
    seen = -1

    def replace(old: int) -> int:
        nonlocal seen
        seen += 1
        return new if seen == which else old

    result_type, result_id = (None if i is None else type(i)(replace(int(i))) for i in header)
    operands = tuple(_with_ids(value, replace) for value in inst.operands)
    instructions[n] = inst._replace(
        result_type=result_type, result_id=result_id or inst.result_id, operands=operands
    )
    try:
        return encode_module(instructions, module.bound, module.version, schema=module.schema)
    except SpvbuildError:
        return None


MUTATIONS = ["id"] * 4 + ["drop", "double", "move", "operand word", "set word", "any word"]


def _mutant(rng: random.Random) -> list[int]:
    """A seed mutated so that it mostly stays readable: whole instructions moved, dropped
    or doubled, one id replaced by another, or (less often) one word replaced."""
    words = list(rng.choice(_seed_binaries()))
    for _ in range(rng.randint(1, 3)):
        spans = [(i, i + (words[i] >> 16)) for i in _starts(words)]
        if not spans:
            break
        how = rng.choice(MUTATIONS)
        if how == "id":
            mutated = _other_id(rng, words)
            if mutated is not None:
                words = mutated
                continue
            how = "operand word"
        if how in ("drop", "double", "move"):
            if how == "double":  # mostly one without a result: doubled, it stays readable
                spans = [s for s in spans if not _has_result(words[s[0]])] or spans
            start, end = rng.choice(spans)
            piece = words[start:end]
            del words[start:end]
            if how == "double":
                words[start:start] = piece + piece
            elif how == "move":
                to = rng.choice([s for s, _ in spans if s <= start])
                words[to:to] = piece
            continue
        choices = []
        if how in ("operand word", "set word"):
            # "set word": an operand word of an OpExtInstImport or OpExtInst, where the
            # module (not the reader) looks the set and its instruction up.
            choices = [
                i
                for start, end in spans
                if how == "operand word" or words[start] & 0xFFFF in EXT_INST_OPCODES
                for i in range(start + 1, min(end, len(words)))
            ]
        index = rng.choice(choices or range(len(words)))
        kind = rng.randrange(5)
        if kind == 4:
            words[index] = (words[index] + rng.choice([-1, 1])) % 2**32
        elif kind == 0:
            words[index] = rng.choice(SPECIAL_WORDS)
        elif kind == 1:
            words[index] = rng.randint(0, 64)
        elif kind == 2:
            words[index] = rng.getrandbits(32)
        else:
            words[index] ^= 1 << rng.randrange(32)
    return words


def _has_result(first_word: int) -> bool:
    info = tables.INSTRUCTIONS.get(first_word & 0xFFFF)
    return info is not None and info.has_result


def _written_twice(words: Sequence[int]) -> str:
    """How one input fares: "refused" by from_binary, "open" or "fixed" (read, written,
    read and written again to the same bytes).  Anything else fails.

    "open": the module read is one still under construction, which ``to_bytes`` refuses
    as it refuses a builder's, in three cases only: the input uses an id none of its
    instructions defines (``from_binary`` keeps it open for a later call to define), its
    last OpFunction has no OpFunctionEnd (left open for later calls to end), or it has code
    and no OpMemoryModel (left for a later call to memory_model)."""
    try:
        module = Module.from_binary(words)
    except SpvbuildError:
        return "refused"
    try:
        first = module.to_bytes()
    except SpvbuildError as error:
        instructions = read(words).instructions
        undefined = UNDEFINED_ID.search(str(error))
        if undefined is not None:
            defined = {int(i.result_id) for i in instructions if i.result_id is not None}
            assert int(undefined[1]) not in defined, f"%{undefined[1]} is defined: {error}"
            return "open"
        opcodes = [i.opcode for i in instructions]
        if "no OpMemoryModel" in str(error):
            assert OP_MEMORY_MODEL not in opcodes, f"the input has an OpMemoryModel: {error}"
            return "open"
        not_ended = opcodes.count(OP_FUNCTION) > opcodes.count(OP_FUNCTION_END)
        assert not_ended and "is not ended" in str(error), (
            f"to_bytes refuses what from_binary accepted: {error}"
        )
        return "open"
    second = Module.from_binary(first).to_bytes()
    assert second == first, "from_binary -> to_bytes is not a fixed point"
    return "fixed"


def test_from_binary_then_to_bytes_is_a_fixed_point() -> None:
    """On every input ``from_binary`` accepts, ``to_bytes`` writes it, and reading and
    writing that again gives the same bytes; ``to_bytes`` refuses only the three kinds of
    modules still under construction that ``_written_twice`` names.  1,500 mutants, the same every run (a seeded generator per case); the
    mutations keep most of them readable, so most are written back."""
    outcomes: Counter[str] = Counter()
    for case in range(1500):
        words = _mutant(random.Random(f"fixed point {case}"))
        try:
            outcomes[_written_twice(words)] += 1
        except AssertionError as error:
            raise AssertionError(f"case {case}: {error}") from None
    assert outcomes["fixed"] >= 600, outcomes
    assert outcomes["open"] >= 40, outcomes
