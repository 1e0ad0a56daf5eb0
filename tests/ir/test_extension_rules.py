"""The seed extensions' rules, written as grammar data, enforced by the module builder."""

from __future__ import annotations

import pytest

from spvbuild import BuildError, TypeId
from spvbuild.enums import (
    AddressingModel,
    Capability,
    DecorationArgumentAttributeINTEL,
    FunctionParameterAttribute,
    MemoryModel,
    StorageClass,
)
from spvbuild.ir.module import FunctionHandle, Module

OP_EXTENSION = 10


def _kernel(version: tuple[int, int] = (1, 2)) -> Module:
    m = Module(version)
    m.capability(Capability.Kernel).capability(Capability.Addresses)
    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
    return m


def _exts(m: Module) -> list[object]:
    return [i.operands[0] for i in m.ordered_instructions() if i.opcode == OP_EXTENSION]


@pytest.mark.parametrize(
    ("version", "expected"), [((1, 3), ["SPV_KHR_no_integer_wrap_decoration"]), ((1, 4), [])]
)
def test_no_wrap_helper_and_version_logic(version: tuple[int, int], expected: list[str]) -> None:
    m = _kernel(version)
    i32 = m.type_int(32, 1)
    fn = m.define_function(i32, [i32, i32])
    total = m.no_wrap(m.i_mul(i32, *fn.parameters), signed=True, unsigned=True)
    m.return_value(total).function_end()
    assert _exts(m) == expected
    m.to_words()


def test_no_wrap_on_glsl_s_abs_is_allowed_and_on_f_abs_is_not() -> None:
    for method, ok in (("s_abs", True), ("f_abs", False)):
        m = Module((1, 4))
        m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        i32 = m.type_int(32, 1)
        fn = m.define_function(i32, [i32])
        value = getattr(m.glsl, method)(i32, fn.parameters[0])
        m.no_wrap(value)
        m.return_value(value).function_end()
        if ok:
            m.to_words()
        else:
            with pytest.raises(
                BuildError, match=r"is OpExtInst GLSL.std.450 FAbs, but rule no-signed-wrap-targets"
            ):
                m.to_words()


def test_no_unsigned_wrap_is_not_allowed_on_s_negate() -> None:
    m = _kernel((1, 4))
    i32 = m.type_int(32, 1)
    fn = m.define_function(i32, [i32])
    negated = m.no_wrap(m.s_negate(i32, fn.parameters[0]), signed=False, unsigned=True)
    m.return_value(negated).function_end()
    with pytest.raises(BuildError, match="is OpSNegate, but rule no-unsigned-wrap-targets"):
        m.to_words()


def _callee(m: Module, i32: TypeId) -> FunctionHandle:
    callee = m.define_function(i32, [i32], name="twice")
    m.return_value(m.i_add(i32, callee.parameters[0], callee.parameters[0])).function_end()
    return callee


def test_function_pointer_constant_and_call_are_checked() -> None:
    m = _kernel()
    m.capability(Capability.FunctionPointersINTEL)
    i32 = m.type_int(32, 1)
    callee = _callee(m, i32)
    fp_type = m.type_pointer(StorageClass.CodeSectionINTEL, callee.type)
    main = m.define_function(i32, [i32])
    pointer = m.constant_function_pointer_intel(fp_type, callee.id)
    call = m.function_pointer_call_intel(i32, pointer, [main.parameters[0]])
    m.decorate(call, DecorationArgumentAttributeINTEL(0, FunctionParameterAttribute.NoCapture))
    m.return_value(call).function_end()
    m.to_words()
    assert "SPV_INTEL_function_pointers" in _exts(m)


def test_function_pointer_constant_needs_a_code_section_pointer() -> None:
    m = _kernel()
    i32 = m.type_int(32, 1)
    callee = _callee(m, i32)
    wrong = m.type_pointer(StorageClass.CrossWorkgroup, callee.type)
    m.define_function(i32)
    m.return_value(m.constant_function_pointer_intel(wrong, callee.id)).function_end()
    with pytest.raises(
        BuildError,
        match="Result Type is not a CodeSectionINTEL pointer, but rule fp-constant-result-type",
    ):
        m.to_words()


def test_function_pointer_call_checks_types() -> None:
    m = _kernel()
    i32 = m.type_int(32, 1)
    f32 = m.type_float(32)
    callee = _callee(m, i32)
    fp_type = m.type_pointer(StorageClass.CodeSectionINTEL, callee.type)
    main = m.define_function(f32, [f32])
    pointer = m.constant_function_pointer_intel(fp_type, callee.id)
    m.return_value(m.function_pointer_call_intel(f32, pointer, [main.parameters[0]])).function_end()
    with pytest.raises(
        BuildError,
        match="Result Type differs from the function's Return Type, but rule fp-call-types",
    ):
        m.to_words()


def test_function_pointer_must_not_be_loaded() -> None:
    m = _kernel()
    i32 = m.type_int(32, 1)
    callee = _callee(m, i32)
    fp_type = m.type_pointer(StorageClass.CodeSectionINTEL, callee.type)
    m.define_function(i32)
    pointer = m.constant_function_pointer_intel(fp_type, callee.id)
    copied = m.copy_object(fp_type, pointer)  # still a function pointer (seed 004, Terms)
    m.load(callee.type, copied)
    m.return_value(m.constant(i32, 0)).function_end()
    with pytest.raises(
        BuildError, match="OpLoad operand 'Pointer' is the function pointer .* rule fp-illegal-uses"
    ):
        m.to_words()


def test_argument_attribute_only_on_function_pointer_calls() -> None:
    m = _kernel()
    i32 = m.type_int(32, 1)
    fn = m.define_function(i32, [i32])
    total = m.i_add(i32, fn.parameters[0], fn.parameters[0])
    m.decorate(total, DecorationArgumentAttributeINTEL(0, FunctionParameterAttribute.NoCapture))
    m.return_value(total).function_end()
    with pytest.raises(BuildError, match="is OpIAdd, but rule fp-argument-attribute-target"):
        m.to_words()
