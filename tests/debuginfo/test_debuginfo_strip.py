"""Debug-info removal as the spec defines it (seed L68): all at once, or one instruction
with every reference to it replaced by DebugInfoNone."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest

from spvbuild.debuginfo import (
    DEBUG_SETS,
    DebugInfo,
    DebugInfoError,
    Encoding,
    check_module,
    remove_debug_instruction,
    strip_debug_info,
)
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id
from tests.debuginfo.test_debuginfo_programs import (
    KERNEL_TARGETS,
    SHADER_TARGET,
    Target,
    assert_valid,
    c_program,
    cpp_program,
    ext_inst_numbers,
    imported_sets,
)

OP_EXT_INST = 12  # OpExtInst, what the DebugInfo layer emits

Validator = Callable[[list[int], str], subprocess.CompletedProcess[str]]
TARGETS = [*KERNEL_TARGETS, SHADER_TARGET]


def strings(words: list[int]) -> list[str]:
    out, at = [], 5
    while at < len(words):
        count, opcode = words[at] >> 16, words[at] & 0xFFFF
        if opcode == 7:
            raw = b"".join(w.to_bytes(4, "little") for w in words[at + 2 : at + count])
            out.append(raw.split(b"\0", 1)[0].decode())
        at += count
    return out


def extensions(words: list[int]) -> list[str]:
    out, at = [], 5
    while at < len(words):
        count, opcode = words[at] >> 16, words[at] & 0xFFFF
        if opcode == 10:
            raw = b"".join(w.to_bytes(4, "little") for w in words[at + 1 : at + count])
            out.append(raw.split(b"\0", 1)[0].decode())
        at += count
    return out


@pytest.mark.spirv_val
@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.flavor)
def test_strip_removes_every_debug_instruction_and_import(
    target: Target, spirv_val: Validator
) -> None:
    m, _ = c_program(target)
    before = m.to_words()
    removed = strip_debug_info(m)
    words = m.to_words()
    assert_valid(spirv_val, words, target.env)
    assert ext_inst_numbers(words) == {}
    assert not imported_sets(words) & set(DEBUG_SETS)
    assert removed >= sum(ext_inst_numbers(before)[target.flavor].values()) + 1
    assert "SPV_KHR_non_semantic_info" not in extensions(words)
    # names only the debug info used are gone; the file name stays (OpSource, OpLine use it)
    assert "total" in strings(before) and "total" not in strings(words)
    assert "example.c" in strings(words)
    assert len(words) < len(before)


@pytest.mark.spirv_val
@pytest.mark.parametrize("flavor", DEBUG_SETS)
def test_strip_the_cpp_programs(flavor: str, spirv_val: Validator) -> None:
    m, _ = cpp_program(flavor, inheritance=not flavor.startswith("NonSemantic"))  # type: ignore[arg-type]
    strip_debug_info(m)
    words = m.to_words()
    assert_valid(spirv_val, words, "opencl2.2")
    assert ext_inst_numbers(words) == {}


def test_strip_one_set_keeps_the_other() -> None:
    m, _ = c_program(KERNEL_TARGETS[0])
    other = DebugInfo(m, "OpenCL.DebugInfo.100")
    other.compile_unit("other.c")
    other.basic_type("char", 8, Encoding.SignedChar)
    strip_debug_info(m, ["DebugInfo"])
    found = ext_inst_numbers(m.to_words())
    assert set(found) == {"OpenCL.DebugInfo.100"}
    check_module(m)


@pytest.mark.spirv_val
def test_a_layer_after_strip_starts_afresh(spirv_val: Validator) -> None:
    m, _ = c_program(KERNEL_TARGETS[1])
    strip_debug_info(m)
    di = DebugInfo(m, "OpenCL.DebugInfo.100")
    di.compile_unit("again.c")
    di.basic_type("int", 32, Encoding.Signed)
    words = m.to_words()
    assert_valid(spirv_val, words, "opencl2.2")
    assert ext_inst_numbers(words)["OpenCL.DebugInfo.100"][0] == 0  # nothing unknown yet


def test_strip_without_debug_info_is_a_no_op() -> None:
    m = Module()
    assert strip_debug_info(m) == 0


# -- one instruction ------------------------------------------------------------------------------
def _find(m: Module, flavor: str, instruction: int) -> Id:
    di = DebugInfo(m, flavor)  # type: ignore[arg-type]
    set_id = int(di.emitter.group.set_id)
    for inst in m.all_instructions():
        if inst.opcode == OP_EXT_INST and inst.operands[:2] == (set_id, instruction):
            assert inst.result_id is not None
            return Id(inst.result_id)
    raise AssertionError(f"no instruction {instruction}")


@pytest.mark.spirv_val
def test_remove_a_member_listed_before_it_is_defined(spirv_val: Validator) -> None:
    """The composite lists the member ahead (a forward reference): DebugInfoNone moves
    before the composite so that every use still follows its definition."""
    m, _ = c_program(KERNEL_TARGETS[0])
    member = _find(m, "DebugInfo", 11)
    remove_debug_instruction(m, member)
    words = m.to_words()
    assert_valid(spirv_val, words, "opencl2.2")
    counts = ext_inst_numbers(words)["DebugInfo"]
    assert counts[11] == 1 and counts[0] == 1
    check_module(m)
    assert member not in {i.result_id for i in m.all_instructions()}
    assert m.definition(member) is None


@pytest.mark.spirv_val
def test_remove_a_type_used_everywhere(spirv_val: Validator) -> None:
    m, _ = c_program(KERNEL_TARGETS[0])
    remove_debug_instruction(m, _find(m, "DebugInfo", 2))  # the `int` DebugTypeBasic
    assert_valid(spirv_val, m.to_words(), "opencl2.2")
    check_module(m)  # DebugInfoNone may stand for any debug reference (L68)


@pytest.mark.spirv_val
@pytest.mark.parametrize("target", [KERNEL_TARGETS[1], SHADER_TARGET], ids=lambda t: t.flavor)
def test_remove_a_macro_in_the_newer_sets(target: Target, spirv_val: Validator) -> None:
    m, _ = c_program(target)
    had_none = 0 in ext_inst_numbers(m.to_words())[target.flavor]
    remove_debug_instruction(m, _find(m, target.flavor, 32))  # DebugMacroDef
    words = m.to_words()
    assert_valid(spirv_val, words, target.env)
    counts = ext_inst_numbers(words)[target.flavor]
    assert 32 not in counts and counts[33] == 1 and counts[0] == 1
    assert had_none is (target is not SHADER_TARGET)  # made here when the module had none


def test_remove_a_function_body_instruction() -> None:
    m, _ = c_program(KERNEL_TARGETS[0])
    before = ext_inst_numbers(m.to_words())["DebugInfo"][23]
    remove_debug_instruction(m, _find(m, "DebugInfo", 23))  # a DebugScope
    assert ext_inst_numbers(m.to_words())["DebugInfo"][23] == before - 1


def test_the_layer_keeps_working_after_a_removal() -> None:
    m, di = c_program(KERNEL_TARGETS[0])
    byte = di.basic_type("byte", 8, Encoding.Unsigned)
    remove_debug_instruction(m, di.unit)
    with pytest.raises(DebugInfoError, match="no compilation unit"):
        di.typedef("t", byte)  # the default parent is gone
    di.compile_unit("again.c")
    di.typedef("t", byte)
    check_module(m)
    m.to_words()


def test_removal_keeps_the_module_index_in_sync() -> None:
    """Removal goes through Module.rewrite: definition() forgets what went and knows the
    DebugInfoNone made in its place; strip lets the module make strings afresh."""
    m, di = c_program(KERNEL_TARGETS[1])  # OpenCL.DebugInfo.100: no DebugInfoNone yet
    macro = _find(m, "OpenCL.DebugInfo.100", 32)  # DebugMacroDef, used by DebugMacroUndef
    remove_debug_instruction(m, macro)
    assert m.definition(macro) is None
    none = di.emitter.none_id
    assert none is not None
    found = m.definition(none)
    assert found is not None and found.opcode == OP_EXT_INST and found.operands[1] == 0
    total = m.string("total")
    strip_debug_info(m)
    assert m.definition(total) is None
    assert m.string("total") != total
    m.to_words()


def test_what_cannot_be_removed() -> None:
    m, di = c_program(KERNEL_TARGETS[0])
    with pytest.raises(DebugInfoError, match=r"is DebugInfoNone.*rule R6"):
        remove_debug_instruction(m, di.emitter.none())
    with pytest.raises(DebugInfoError, match=r"%\d+ is not a debug-info instruction"):
        remove_debug_instruction(m, m.type_void())


# -- issue 29 ---------------------------------------------------------------------------------------
def _string_ids(m: Module) -> dict[int, str]:
    return {
        int(i.result_id): str(i.operands[0])
        for i in m.all_instructions()
        if i.opcode == 7 and i.result_id is not None  # OpString
    }


@pytest.mark.spirv_val
@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.flavor)
def test_strip_reads_only_id_operands(target: Target, spirv_val: Validator) -> None:
    """Seed 2 (L68, "can be safely removed from the module all at once"): the strings only
    the debug info used go, even when a literal elsewhere (an OpConstant's value, an entry
    point's execution model) equals a string's id."""
    m, _ = c_program(target)
    uint = m.type_int(32, 0)
    for sid in _string_ids(m):
        m.constant(uint, sid)  # a literal equal to every string's id
    strip_debug_info(m)
    assert set(_string_ids(m).values()) == {"example.c"}  # OpSource and OpLine name it
    assert_valid(spirv_val, m.to_words(), target.env)


def test_strip_does_not_take_an_execution_model_for_a_string() -> None:
    """Seed 2 (L68): ``OpEntryPoint Kernel`` (6) keeps no %6 string."""
    m, _ = c_program(KERNEL_TARGETS[1])
    assert 6 in _string_ids(m)
    strip_debug_info(m)
    assert 6 not in _string_ids(m)


@pytest.mark.spirv_val
@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.flavor)
def test_removing_a_lexical_block_moves_its_contents_to_the_enclosing_scope(
    target: Target, spirv_val: Validator
) -> None:
    """Seed 2 (L68) lets a removed instruction's references become DebugInfoNone; the newer
    sets' validator wants a lexical scope in Parent/Scope operands (rule R45), and so do
    spvbuild's rules now.  Removing a DebugLexicalBlock gives what it contained (its local
    variables, inner blocks, DebugScopes) the block's own Parent, as a compiler does, and
    the module passes spirv-val and the rules."""
    m, di = c_program(target)
    flavor = DebugInfo(m, target.flavor).flavor
    number = flavor.by_name["DebugLexicalBlock"].opcode
    outer = _find(m, target.flavor, number)  # the outer block, in sum()
    parent = m.definition(outer)
    assert parent is not None
    remove_debug_instruction(m, outer)
    check_module(m)
    assert_valid(spirv_val, m.to_words(), target.env)
    if target.flavor != "DebugInfo":  # there the rules refuse DebugInfoNone as a scope
        none = Id(di.emitter.none())
        with pytest.raises(DebugInfoError, match=r"operand 'Parent' is DebugInfoNone .*rule R45"):
            di.instruction(
                "DebugLexicalBlock", source=di.unit.source, line=1, column=1, parent=none
            )


def test_removing_the_compilation_unit_is_refused_where_a_scope_is_required() -> None:
    """Rule R45 (seed 2, L68): nothing encloses a DebugCompilationUnit, and the newer sets
    want a scope where it is named, so its removal is refused there (DebugInfo: allowed)."""
    m, di = c_program(KERNEL_TARGETS[1])
    before = m.to_words()
    with pytest.raises(DebugInfoError, match=r"cannot remove %\d+: .* operand 'Parent'.*R45"):
        remove_debug_instruction(m, di.unit)
    assert m.to_words() == before
