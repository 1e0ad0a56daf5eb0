"""Typed values (spvbuild.constructs.expressions): the instruction each operator makes and
the result type the type rules give it; the module passes spirv-val with the type checks on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spvbuild.constructs.expressions import Value, extract, glsl, load, store, value
from spvbuild.enums import (
    AddressingModel,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    StorageClass,
)
from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import TypeId


def _module() -> tuple[Module, dict[str, TypeId]]:
    m = Module(version=(1, 3), check_types=True)
    f32, i32, u32 = m.type_float(32), m.type_int(32, 1), m.type_int(32, 0)
    types = {"f32": f32, "i32": i32, "u32": u32, "vec3": m.type_vector(f32, 3)}
    m.define_function(m.type_void(), name="main")
    return m, types


def _constant(m: Module, t: TypeId, number: float) -> Value:
    return value(m, m.constant(t, number))


def _made(v: Value) -> str:
    found = v.module.definition(v.id)
    assert found is not None
    return tables.INSTRUCTIONS[found.opcode].name


CASES: list[tuple[str, str, Callable[[Value, Value], Value], str, str]] = [
    # (operand type, name, expression, instruction, result type)
    ("f32", "+", lambda a, b: a + b, "OpFAdd", "f32"),
    ("f32", "*", lambda a, b: a * b, "OpFMul", "f32"),
    ("f32", "/", lambda a, b: a / b, "OpFDiv", "f32"),
    ("f32", "%", lambda a, b: a % b, "OpFMod", "f32"),
    ("i32", "-", lambda a, b: a - b, "OpISub", "i32"),
    ("i32", "/", lambda a, b: a / b, "OpSDiv", "i32"),
    ("u32", "/", lambda a, b: a / b, "OpUDiv", "u32"),
    ("u32", "%", lambda a, b: a % b, "OpUMod", "u32"),
    ("i32", "neg", lambda a, b: -a, "OpSNegate", "i32"),
    ("f32", "neg", lambda a, b: -a, "OpFNegate", "f32"),
    ("f32", "lt", lambda a, b: a.lt(b), "OpFOrdLessThan", "bool"),
    ("i32", "ge", lambda a, b: a.ge(b), "OpSGreaterThanEqual", "bool"),
    ("u32", "gt", lambda a, b: a.gt(b), "OpUGreaterThan", "bool"),
    ("u32", "eq", lambda a, b: a.eq(b), "OpIEqual", "bool"),
    ("f32", "number right", lambda a, b: a * 2.0, "OpFMul", "f32"),
    ("f32", "number left", lambda a, b: 1 - a, "OpFSub", "f32"),
]


@pytest.mark.parametrize(("kind", "name", "expression", "instruction", "result"), CASES)
def test_each_operator_makes_its_instruction_of_the_inferred_type(
    kind: str, name: str, expression: Callable[[Value, Value], Value], instruction: str, result: str
) -> None:
    m, t = _module()
    a, b = _constant(m, t[kind], 3), _constant(m, t[kind], 2)
    made = expression(a, b)
    assert _made(made) == instruction
    expected = m.type_bool() if result == "bool" else t[result]
    assert made.type == expected


def test_vectors_keep_their_shape_and_a_float_scalar_scales_them() -> None:
    m, t = _module()
    v = value(m, m.constant_composite(t["vec3"], [m.constant(t["f32"], 1.0)] * 3))
    s = _constant(m, t["f32"], 2.0)
    assert (_made(v * s), (v * s).type) == ("OpVectorTimesScalar", t["vec3"])
    assert (_made(s * v), (s * v).type) == ("OpVectorTimesScalar", t["vec3"])
    plus_one = v + 1.0  # the number spread over the components
    assert _made(plus_one) == "OpFAdd" and plus_one.type == t["vec3"]
    less = v.lt(v)
    assert less.type == m.type_vector(m.type_bool(), 3)
    assert (_made(glsl("length", v)), glsl("length", v).type) == ("OpExtInst", t["f32"])
    assert glsl("normalize", v).type == t["vec3"]
    assert extract(v, 1).type == t["f32"]


def test_a_module_of_expressions_passes_spirv_val(spirv_val: Callable[..., object]) -> None:
    m, t = _module()
    f32 = t["f32"]
    cell = m.variable(m.type_pointer(StorageClass.Function, f32), StorageClass.Function)
    store(m, cell, m.constant(f32, 2.0))
    x = load(m, cell)
    assert x.type == f32
    store(m, cell, glsl("fmix", x, x * x, 0.5) + glsl("sqrt", x) - x / 3.0)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    main = next(i for i in m.all_instructions() if i.opcode == tables.OPCODES_BY_NAME["OpFunction"])
    assert main.result_id is not None
    m.entry_point(ExecutionModel.GLCompute, main.result_id, "main")
    m.execution_mode(main.result_id, ExecutionModeLocalSize(1, 1, 1))
    done = spirv_val(m.to_words(), "vulkan1.1")
    assert done.returncode == 0, done.stderr  # type: ignore[attr-defined]


def test_mistakes_are_refused_at_the_call() -> None:
    m, t = _module()
    truth = value(m, m.constant_true(m.type_bool()))
    with pytest.raises(BuildError, match=r"'\+' takes numbers, not bools \(at test_expressions"):
        truth + truth  # noqa: B018
    other, t2 = _module()
    with pytest.raises(BuildError, match=r"an expression mixes values of two modules"):
        _constant(m, t["f32"], 1.0) + _constant(other, t2["f32"], 1.0)  # noqa: B018
    with pytest.raises(BuildError, match=r"glsl: 'nosuch' is no GLSL.std.450 function"):
        glsl("nosuch", _constant(m, t["f32"], 1.0))
    with pytest.raises(BuildError, match=r"OpFAdd: operand 'Operand 2' .* float arithmetic"):
        _constant(m, t["f32"], 1.0) + _constant(m, t["u32"], 1)  # the type rule says why
