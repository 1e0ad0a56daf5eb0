"""The module catalogue (tests/modules/catalogue.py): validity, order independence, spot checks.

* every entry passes spirv-val for its target env (or, for the one module spirv-val cannot
  accept, fails with the known message), and comes out with exactly the capabilities and
  extensions its entry lists;
* every entry built in scrambled call orders gives the same words as the natural build
  (what is scrambled is documented in the catalogue's module docstring);
* spirv-dis spot checks: 64-bit switch literals, capability/extension lines, constants.

The last section holds regression tests for Module gaps found while writing the catalogue
(canonical order within sections, any-of capability choice, Vector16 inference).
"""

from __future__ import annotations

import re
import struct
import subprocess
from collections.abc import Callable
from functools import cache

import pytest

from spvbuild import Id
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Capability,
    DecorationBuiltIn,
    Dim,
    ImageFormat,
    MemoryModel,
    StorageClass,
)
from spvbuild.ir.module import Module
from tests.modules.catalogue import (
    CATALOGUE,
    FLOAT_CONSTANTS,
    NO_WRAP_EXTENSION,
    SWITCH64_CASES,
    Entry,
    by_name,
)

Validator = Callable[[list[int], str], "subprocess.CompletedProcess[str]"]
Disassembler = Callable[[list[int]], str]

OP_EXTENSION, OP_CAPABILITY = 10, 17
SEEDS = (1, 2, 3, 4)
REQUIRED_ENVS = {"vulkan1.1", "vulkan1.2", "spv1.3", "spv1.4", "opencl2.2", "spv1.5"}


def _entries() -> list[object]:
    params: list[object] = []
    for item in CATALOGUE:
        marks = [pytest.mark.xfail(strict=True, reason=item.xfail)] if item.xfail else []
        params.append(pytest.param(item, id=item.name, marks=marks))
    return params


@cache
def _natural(name: str) -> tuple[int, ...]:
    """Words of the natural build, once per entry, through ``Entry.build(m)``."""
    item = by_name(name)
    m = item.module()
    item.build(m)
    return tuple(m.to_words())


def _heads(words: tuple[int, ...] | list[int]) -> tuple[list[str], list[str]]:
    """OpCapability names and OpExtension strings, read straight from the words."""
    capabilities: list[str] = []
    extensions: list[str] = []
    index = 5
    while index < len(words):
        opcode, count = words[index] & 0xFFFF, words[index] >> 16
        assert count > 0, f"zero word count at word {index}"
        if opcode == OP_CAPABILITY:
            capabilities.append(Capability(words[index + 1]).name)
        elif opcode == OP_EXTENSION:
            raw = struct.pack(f"<{count - 1}I", *words[index + 1 : index + count])
            extensions.append(raw.split(b"\0")[0].decode())
        index += count
    return capabilities, extensions


def _dis(spirv_dis: Disassembler, name: str) -> str:
    return spirv_dis(list(_natural(name)))


# -- the catalogue itself ------------------------------------------------------------------------


def test_catalogue_is_large_varied_and_well_formed() -> None:
    names = [item.name for item in CATALOGUE]
    assert len(names) == len(set(names))
    validated = [item for item in CATALOGUE if item.val_rejects is None and item.xfail is None]
    assert len(validated) >= 30
    assert REQUIRED_ENVS <= {item.target_env for item in CATALOGUE}
    assert {"capabilities", "merge_aggregates"} <= {k for i in CATALOGUE for k in i.options}
    for item in CATALOGUE:
        assert item.covers, f"{item.name}: no docstring"
        assert item.capabilities, f"{item.name}: no expected capabilities"


@pytest.mark.spirv_val
@pytest.mark.parametrize("item", _entries())
def test_spirv_val(item: Entry, spirv_val: Validator) -> None:
    done = spirv_val(list(_natural(item.name)), item.target_env)
    report = done.stdout + done.stderr
    if item.val_rejects is not None:
        # A known spirv-val limitation: if it starts accepting the module, drop val_rejects.
        assert done.returncode != 0, f"spirv-val now accepts {item.name}"
        assert re.search(item.val_rejects, report), report
    else:
        assert done.returncode == 0, report


@pytest.mark.parametrize("item", _entries())
def test_header_capabilities_and_extensions(item: Entry) -> None:
    words = _natural(item.name)
    assert words[1] == (item.version[0] << 16) | (item.version[1] << 8)
    capabilities, extensions = _heads(words)
    assert sorted(capabilities) == sorted(item.capabilities)
    assert sorted(extensions) == sorted(item.extensions)
    assert len(set(capabilities)) == len(capabilities)


# -- order independence ------------------------------------------------------------------------


@pytest.mark.parametrize("item", _entries())
def test_scrambled_call_order_gives_identical_words(item: Entry) -> None:
    natural = _natural(item.name)
    traces: list[list[int]] = []
    scrambles = [item.scrambler(seed) for seed in SEEDS]
    scrambles += [item.scrambler(99, eagerness=0.0), item.scrambler(7, eagerness=0.9)]
    for steps in scrambles:
        assert tuple(item.words(steps)) == natural
        assert sorted(steps.trace) == list(range(steps.registered))
        traces.append(steps.trace)
    assert scrambles[0].registered >= 3, "too few module-level steps to scramble"
    assert any(trace != sorted(trace) for trace in traces), "no scramble changed the order"


def test_scrambles_move_most_steps() -> None:
    """Across the catalogue, the deferred-to-the-end scramble reorders nearly every module."""
    moved = 0
    for item in CATALOGUE:
        steps = item.scrambler(5, eagerness=0.0)
        item.words(steps)
        moved += steps.trace != sorted(steps.trace)
    assert moved >= len(CATALOGUE) - 2


def test_natural_build_is_deterministic() -> None:
    item = by_name("compute_storage_buffer")
    assert item.words() == item.words() == list(_natural(item.name))


# -- spot checks with spirv-dis ------------------------------------------------------------------


@pytest.mark.spirv_val
def test_switch64_literals(spirv_dis: Disassembler) -> None:
    text = _dis(spirv_dis, "kernel_switch64")
    switch = next(line for line in text.splitlines() if "OpSwitch" in line)
    # The selector is an unsigned 64-bit int: spirv-dis prints the 64-bit patterns unsigned.
    literals = [int(n) for n in re.findall(r" (\d+) %\d+", switch)]
    assert literals == [c & (2**64 - 1) for c in SWITCH64_CASES]
    assert "OpCapability Int64" in text
    assert "OpTypeInt 64 0" in text


@pytest.mark.spirv_val
def test_switch32_negative_literals(spirv_dis: Disassembler) -> None:
    switch = next(
        line for line in _dis(spirv_dis, "compute_switch32").splitlines() if "OpSwitch" in line
    )
    assert re.findall(r" (-?\d+) %\d+", switch) == [
        "-1",
        "-2147483648",
        "7",
        "2147483647",
        "0",
    ]


@pytest.mark.spirv_val
def test_no_wrap_extension_only_below_1_4(spirv_dis: Disassembler) -> None:
    older, newer = _dis(spirv_dis, "no_wrap_spv13"), _dis(spirv_dis, "no_wrap_spv14")
    line = f'OpExtension "{NO_WRAP_EXTENSION}"'
    assert line in older
    assert "OpExtension" not in newer
    for text in (older, newer):
        assert text.count("NoSignedWrap") == 6
        assert text.count("NoUnsignedWrap") == 4
        assert "OpCapability Kernel" in text and "OpCapability Addresses" in text


@pytest.mark.spirv_val
def test_capability_and_extension_lines(spirv_dis: Disassembler) -> None:
    old_buffer = _dis(spirv_dis, "compute_storage_buffer_spv10")
    assert 'OpExtension "SPV_KHR_storage_buffer_storage_class"' in old_buffer
    assert "OpCapability Shader" in old_buffer
    debug = _dis(spirv_dis, "shader_debug_info")
    assert 'OpExtension "SPV_KHR_non_semantic_info"' in debug
    assert 'OpExtInstImport "NonSemantic.Shader.DebugInfo.100"' in debug
    assert "DebugFunctionDefinition" in debug and "DebugDeclare" in debug
    storage = _dis(spirv_dis, "small_int_storage")
    assert 'OpExtension "SPV_KHR_8bit_storage"' in storage
    assert "SPV_KHR_16bit_storage" not in storage  # core since SPIR-V 1.3
    pointers = _dis(spirv_dis, "kernel_function_pointers")
    assert 'OpExtension "SPV_INTEL_function_pointers"' in pointers
    assert "OpCapability FunctionPointersINTEL" in pointers
    assert re.search(r"OpTypePointer CodeSectionINTEL %\d+", pointers)
    assert pointers.count("OpConstantFunctionPointerINTEL") == 2
    assert "OpFunctionPointerCallINTEL" in pointers
    widths = _dis(spirv_dis, "int_widths_shader")
    for cap in ("Int8", "Int16", "Int64"):
        assert f"OpCapability {cap}\n" in widths


@pytest.mark.spirv_val
def test_spec_constant_ops(spirv_dis: Disassembler) -> None:
    text = _dis(spirv_dis, "spec_constants")
    assert re.search(r"OpSpecConstantOp %\d+ IAdd %\d+ %\d+", text)
    assert re.search(r"OpSpecConstantOp %\d+ CompositeExtract %\d+ 1\n", text)
    assert re.search(r"OpSpecConstantOp %\d+ VectorShuffle %\d+ %\d+ 2 0\n", text)
    assert [int(n) for n in re.findall(r"SpecId (\d+)", text)] == [0, 1, 2, 3, 4]
    assert re.search(r"OpDecorate %\d+ BuiltIn WorkgroupSize", text)
    kernel = _dis(spirv_dis, "kernel_spec_constants")
    for op in ("FAdd", "ConvertFToU", "UConvert", "ShiftLeftLogical"):
        assert re.search(rf"OpSpecConstantOp %\d+ {op} ", kernel)


@pytest.mark.spirv_val
def test_constants_of_every_width(spirv_dis: Disassembler) -> None:
    ints = _dis(spirv_dis, "int_widths_shader")
    for literal in (
        "-128",
        "-32768",
        "-2147483648",
        "-9223372036854775808",
        "255",
        "65535",
        "4294967295",
        "18446744073709551615",
        "9223372036854775807",
    ):
        assert re.search(rf"OpConstant %\d+ {literal}\n", ints), literal
    floats = _dis(spirv_dis, "float_widths_kernel")
    constants = re.findall(r"OpConstant %\d+ (\S+)\n", floats)
    for text in (
        "0x1.ffcp+15",
        "0x1p-24",
        "0x1p+16",
        "-0x1p+16",
        "0x1.8p+16",  # half
        "0x1p+128",
        "-0x1p+128",
        "0x1.8p+128",
        "0x1p-149",  # float: inf, -inf, NaN
        "0x1p+1024",
        "-0x1p+1024",
        "0x1.8p+1024",
        "0x1p-1074",
    ):  # double
        assert text in constants, text
    assert len([c for c in constants if c in ("-0", "-0x0p+0")]) == 3  # -0.0 in each width
    assert sum(len(v) for v in FLOAT_CONSTANTS.values()) <= len(constants)


@pytest.mark.spirv_val
def test_merge_aggregates_shares_one_block(spirv_dis: Disassembler) -> None:
    text = _dis(spirv_dis, "compute_merged_blocks")
    assert text.count("OpTypeStruct") == 1
    assert text.count("OpTypeRuntimeArray") == 1
    assert len(re.findall(r"OpDecorate %\d+ Block\n", text)) == 1
    assert len(re.findall(r"OpDecorate %\d+ Binding \d\n", text)) == 3


@pytest.mark.spirv_val
def test_phi_names_a_value_defined_later(spirv_dis: Disassembler) -> None:
    text = _dis(spirv_dis, "compute_loop_phi")
    defined: dict[str, int] = {}
    phis: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines()):
        found = re.match(r"\s*(%\d+) = (\w+)(.*)", line)
        if found:
            defined[found.group(1)] = number
            if found.group(2) == "OpPhi":
                phis.append((number, re.findall(r"%\d+", found.group(3))[1::2]))
    forward = [v for at, values in phis for v in values if defined[v] > at]
    assert len(forward) == 2  # next_i and next_sum, reserved with new_id()


# -- Module gaps found while writing the catalogue (now closed; kept as regressions) ---------------


def test_any_order_within_a_section_gives_identical_words() -> None:
    item = by_name("compute_storage_buffer")
    steps = item.scrambler(3, eagerness=0.0, keep_section_order=False)
    words = item.words(steps)
    assert steps.trace != sorted(steps.trace)
    assert tuple(words) == _natural(item.name)


def _shader_module() -> Module:
    m = Module((1, 3))
    m.capability(Capability.Shader)
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    return m


def test_any_of_inference_prefers_capabilities_the_module_can_have() -> None:
    m = _shader_module()
    u32 = m.type_int(32, 0)
    lane = m.variable(m.type_pointer(StorageClass.Input, u32), StorageClass.Input)
    m.decorate(lane, DecorationBuiltIn(BuiltIn.SubgroupLocalInvocationId))
    image = m.type_image(m.type_float(32), Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown)
    fn = m.define_function(m.type_void(), [image])
    m.image_query_size_lod(m.type_vector(u32, 2), fn.parameters[0], m.constant(u32, 0))
    m.return_().function_end()
    assert "Kernel" not in _heads(m.to_words())[0]


def test_vector16_is_inferred() -> None:
    m = Module((1, 2))
    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
    m.type_vector(m.type_float(32), 16)
    assert "Vector16" in _heads(m.to_words())[0]


def test_reserved_function_id_works_with_plain_function() -> None:
    """The workaround the catalogue uses for calls to later functions (define_function has no
    result_id): reserve with new_id() and pass it to function()."""
    m = _shader_module()
    void = m.type_void()
    callee = m.new_id()
    m.define_function(void)
    m.function_call(void, callee)
    m.return_().function_end()
    from spvbuild.enums import FunctionControl

    assert m.function(void, FunctionControl.None_, m.type_function(void), result_id=callee) == Id(
        callee
    )
    m.label()
    m.return_().function_end()
    assert len(m.to_words()) > 5


def test_needs_listed_at_the_calls_are_the_walks_in_every_catalogue_module() -> None:
    """Capability inference has one implementation: the walk over the grammar's operand
    kinds.  A words path lists its record's needs at the call, worked out once per needs
    key (spvbuild.ir.requirements.instruction_needs); over every catalogue module (every
    kind of capability and extension the catalogue infers) each listed list must be what
    the walk finds in that record, plus what its result type needs (64-bit atomics)."""
    from spvbuild.ir.requirements import _Collector, result_type_needs

    compared = typed_seen = 0
    for item in CATALOGUE:
        if item.xfail:
            continue
        m = item.module()
        item.build(m)
        for inst, _words, _used, needs in list(m._kept.values()):
            if needs is None:
                continue
            walk = _Collector()
            walk.walk(inst)
            typed = result_type_needs(inst.opcode, inst.result_type, m._definitions)
            assert needs == tuple(walk.found.items()) + typed, (item.name, inst)
            compared += 1
            typed_seen += bool(typed)
    assert compared > 500
    assert typed_seen > 0  # kernel_atomics: OpAtomicIAdd on a 64-bit integer
