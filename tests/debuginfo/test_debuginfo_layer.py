"""Debug-info layer: operand making, deduplication and the set-specific paths."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from spvbuild.debuginfo import (
    FLAVORS,
    DebugInfo,
    DebugInfoError,
    Encoding,
    Flags,
    FlavorName,
    ImportedEntity,
    Method,
    Qualifier,
    Tag,
)
from spvbuild.debuginfo.emitter import MAX_STRING_BYTES
from spvbuild.debuginfo.flavors import method_name
from spvbuild.enums import (
    AddressingModel,
    Capability,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    StorageClass,
)
from spvbuild.generated.extinst import debug_info, opencl_debug_info_100, shader_debug_info_100
from spvbuild.ir.module import Module
from tests.debuginfo.test_debuginfo_programs import assert_valid, ext_inst_numbers

Validator = Callable[[list[int], str], subprocess.CompletedProcess[str]]
OP_SOURCE_CONTINUED, OP_LINE = 2, 8


def kernel_module() -> Module:
    m = Module(version=(1, 2))
    m.capability(Capability.Kernel).capability(Capability.Addresses)
    m.capability(Capability.Linkage)
    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
    return m


def opcodes(words: list[int]) -> list[int]:
    out, at = [], 5
    while at < len(words):
        out.append(words[at] & 0xFFFF)
        at += words[at] >> 16
    return out


@pytest.mark.parametrize("flavor", list(FLAVORS))
def test_every_instruction_maps_to_its_generated_method(flavor: str) -> None:
    table = FLAVORS[flavor]
    for name in table.by_name:
        params = table.parameters(name)
        assert [op.name for _, op in params] == list(table.operand_names(name))
        assert hasattr(table.builder_class, method_name(name))


def test_one_debug_info_none_strings_and_sources_per_module() -> None:
    m = kernel_module()
    a, b = DebugInfo(m), DebugInfo(m)
    a.compile_unit("x.c", "int x;")
    int_t = a.basic_type("int", 32, Encoding.Signed)
    a.global_variable("x", int_t, None)
    b.global_variable("y", int_t, None)
    b.function_declaration("f", b.function_type(None))
    assert b.source("x.c", "int x;") is a.unit.source
    words = m.to_words()
    assert ext_inst_numbers(words)["DebugInfo"][0] == 1
    assert opcodes(words).count(3) == 1  # one OpSource
    assert a.emitter is b.emitter


def test_enums_convert_by_name_into_each_sets_numbering() -> None:
    got = {}
    for flavor, module in [
        ("DebugInfo", debug_info),
        ("OpenCL.DebugInfo.100", opencl_debug_info_100),
    ]:
        m = kernel_module()
        di = DebugInfo(m, flavor)  # type: ignore[arg-type]
        di.compile_unit("f.c")
        di.basic_type("float", 32, Encoding.Float)
        basic = next(i for i in m.sections["types_globals"] if i.operands[1:2] == (2,))
        got[flavor] = basic.operands[4]
        assert isinstance(basic.operands[4], module.DebugBaseTypeAttributeEncoding)
    assert (int(got["DebugInfo"]), int(got["OpenCL.DebugInfo.100"])) == (4, 3)


def test_a_member_the_set_lacks_is_an_error() -> None:
    m = kernel_module()
    di = DebugInfo(m)
    di.compile_unit("f.c")
    int_t = di.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(DebugInfoError, match=r"DebugInfo has no DebugTypeQualifier.AtomicType"):
        di.qualified_type(int_t, Qualifier.AtomicType)
    with pytest.raises(DebugInfoError, match=r"DebugInfo has no DebugInfoFlags.FlagIsEnumClass"):
        di.enum_type("E", [(0, "A")], 32, flags=Flags.FlagIsEnumClass)
    with pytest.raises(DebugInfoError, match=r"DebugInfo has no DebugImportedEntity"):
        di.instruction("DebugImportedEntity", name="x")


def test_flags_made_of_several_bits() -> None:
    m = kernel_module()
    di = DebugInfo(m, "OpenCL.DebugInfo.100")
    di.compile_unit("f.c")
    fn_type = di.function_type(None, flags=Flags.FlagIsPublic | Flags.FlagIsDefinition)
    inst = next(i for i in m.sections["types_globals"] if i.result_id == fn_type.id)
    assert int(inst.operands[2]) == 0x3 | 0x8


@pytest.mark.parametrize("flavor", ["DebugInfo", "NonSemantic.Shader.DebugInfo.100"])
def test_a_long_source_text_is_continued(flavor: FlavorName) -> None:
    m = kernel_module()
    di = DebugInfo(m, flavor)
    text = "é" * (MAX_STRING_BYTES // 2) + "x" * 10  # two bytes per é: two pieces
    di.compile_unit("long.c", text)
    words = m.to_words()
    if flavor == "DebugInfo":
        assert opcodes(words).count(OP_SOURCE_CONTINUED) == 1
    else:
        assert ext_inst_numbers(words)[flavor][102] == 1  # DebugSourceContinued


def test_opencl_cannot_continue_a_long_source() -> None:
    di = DebugInfo(kernel_module(), "OpenCL.DebugInfo.100")
    with pytest.raises(DebugInfoError, match="cannot continue a DebugSource text"):
        di.compile_unit("long.c", "x" * (MAX_STRING_BYTES + 1))


def test_member_functions_need_forward_references() -> None:
    di = DebugInfo(kernel_module(), "NonSemantic.Shader.DebugInfo.100")
    di.compile_unit("f.cpp")
    method = Method("area", di.function_type(None))
    with pytest.raises(DebugInfoError, match="member function would need a forward reference"):
        di.composite_type("S", Tag.Class, 0, [method])


def test_declare_indexes_only_where_the_set_has_them() -> None:
    m = kernel_module()
    di = DebugInfo(m)
    di.compile_unit("f.c")
    int_t = di.basic_type("int", 32, Encoding.Signed)
    fn = m.define_function(m.type_void())
    var = m.variable(
        m.type_pointer(StorageClass.Function, m.type_int(32, 0)), StorageClass.Function
    )
    local = di.local_variable("x", int_t, di.function("f", di.function_type(None), function=fn.id))
    with pytest.raises(DebugInfoError, match="DebugDeclare has no Indexes"):
        di.declare(local, var, indexes=[m.constant(m.type_int(32, 0), 0)])


def test_unknown_flavor() -> None:
    with pytest.raises(DebugInfoError, match=r"unknown debug-info set 'Debug'.*rule R1"):
        DebugInfo(Module(), "Debug")  # type: ignore[arg-type]


def test_lines_are_op_line_or_debug_line() -> None:
    for flavor, core in [("DebugInfo", True), ("NonSemantic.Shader.DebugInfo.100", False)]:
        m = kernel_module()
        di = DebugInfo(m, flavor)  # type: ignore[arg-type]
        di.compile_unit("f.c")
        m.define_function(m.type_void())
        di.line(3, 4)
        di.no_line()
        m.return_().function_end()
        words = m.to_words()
        assert (OP_LINE in opcodes(words)) is core
        assert (103 in ext_inst_numbers(words).get(flavor, {})) is not core


@pytest.mark.spirv_val
def test_nonsemantic_extras_through_the_generic_instruction(spirv_val: Validator) -> None:
    m = Module(version=(1, 5))
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    di = DebugInfo(m, "NonSemantic.Shader.DebugInfo.100")
    unit = di.compile_unit("m.glsl", "void main() {}\n")
    float_t = di.basic_type("float", 32, Encoding.Float)
    vec4 = di.vector_type(float_t, 4)
    di.instruction("DebugTypeMatrix", vector_type=vec4, vector_count=4, column_major=1)
    ns = di.namespace("ns")
    di.instruction(
        "DebugImportedEntity", name="x", tag=ImportedEntity.ImportedModule, source=unit.source,
        entity=ns, line=1, column=1, parent=unit,
    )  # fmt: skip
    fn = m.define_function(m.type_void(), name="main")
    dbg = di.function("main", di.function_type(None), function=fn.id, line=1)
    di.scope(dbg)  # DebugFunctionDefinition first: this is main's entry block
    m.return_().function_end()
    m.entry_point(ExecutionModel.GLCompute, fn.id, "main", [])
    m.execution_mode(fn.id, ExecutionModeLocalSize(1, 1, 1))
    di.instruction(
        "DebugEntryPoint", entry_point=dbg, compilation_unit=unit, compiler_signature="spvbuild",
        command_line_arguments="",
    )  # fmt: skip
    words = m.to_words()
    assert_valid(spirv_val, words, "vulkan1.2")
    counts = ext_inst_numbers(words)["NonSemantic.Shader.DebugInfo.100"]
    assert counts[108] == counts[34] == counts[101] == counts[107] == 1


def test_function_definition_only_in_the_functions_entry_block() -> None:
    m = Module(version=(1, 5))
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    di = DebugInfo(m, "NonSemantic.Shader.DebugInfo.100")
    di.compile_unit("m.glsl")
    fn = m.define_function(m.type_void(), name="main")
    dbg = di.function("main", di.function_type(None), function=fn.id)
    later = m.new_id()
    m.branch(later)
    m.label(result_id=later)
    di.scope(dbg)  # not the entry block: no definition here
    di.scope(dbg)
    m.return_().function_end()
    assert 101 not in ext_inst_numbers(m.to_words())["NonSemantic.Shader.DebugInfo.100"]


def test_handles_know_their_members() -> None:
    di = DebugInfo(kernel_module())
    di.compile_unit("f.c")
    int_t = di.basic_type("int", 32, Encoding.Signed)
    from spvbuild.debuginfo import Member

    point = di.composite_type("P", Tag.Structure, 64, [Member("x", int_t, 0, 32)])
    assert point.member("x").kind == "DebugTypeMember"
    with pytest.raises(KeyError):
        point.member("z")


def test_shader_set_grammar_is_the_one_used() -> None:
    assert FLAVORS["NonSemantic.Shader.DebugInfo.100"].tables is shader_debug_info_100
