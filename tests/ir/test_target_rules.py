"""The webgpu profile's rules (grammars/target_envs.yaml, spvbuild.ir.target_rules): each
call that breaks one is refused at that call, naming the environment, the rule and the
call site; NoContraction warns at its call; what the rules let through passes spirv-val as
vulkan1.1, the webgpu profile's validator."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from spvbuild import BuildError, Module
from spvbuild.constructs import Field, Struct, storage_block, u32
from spvbuild.enums import (
    AddressingModel,
    Capability,
    Decoration,
    DecorationBinding,
    DecorationDescriptorSet,
    DecorationOffset,
    Dim,
    ExecutionModel,
    ExecutionModeLocalSize,
    ExecutionModeLocalSizeId,
    ImageFormat,
    MemoryModel,
    StorageClass,
)
from spvbuild.errors import TargetWarning
from spvbuild.ir.targets import target_profile, validator_env

SOURCE = Path(__file__).read_text().splitlines()


def _refused_at(caught: pytest.ExceptionInfo[BuildError], rule: str, call: str) -> None:
    """The message names webgpu and ``rule`` and ends with the line of ``call``."""
    message = str(caught.value)
    assert f"is not allowed by webgpu (rule {rule}: " in message, message
    found = re.search(r"\(at test_target_rules\.py:(\d+)\)$", message)
    assert found, message
    assert call in SOURCE[int(found.group(1)) - 1], message


def _compute(m: Module) -> int:
    """Open ``main``, a GLCompute entry point of LocalSize 1 (its function id)."""
    main = m.define_function(m.type_void(), name="main")
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    return int(main.id)


def _image(m: Module, sampled: int, format: ImageFormat) -> int:
    return int(m.type_image(m.type_float(32), Dim.Dim2D, 0, 0, 0, sampled, format))


def test_combined_image_sampler_variable_refused() -> None:
    m = Module(target_env="webgpu")
    combined = m.type_sampled_image(_image(m, 1, ImageFormat.Unknown))
    array = m.type_array(combined, m.constant(m.type_int(32, 0), 4))
    for pointee in (combined, array):  # itself, and through an array
        pointer = m.type_pointer(StorageClass.UniformConstant, pointee)
        with pytest.raises(BuildError) as caught:
            m.variable(pointer, StorageClass.UniformConstant)  # the combined sampler
        _refused_at(caught, "no-combined-image-sampler", "# the combined sampler")
    # A separate image and sampler are fine.
    m.variable(m.type_pointer(StorageClass.UniformConstant, m.type_sampler()),
               StorageClass.UniformConstant)


def test_line_outside_functions_refused() -> None:
    m = Module(target_env="webgpu")
    file = m.string("shader.py")
    with pytest.raises(BuildError) as caught:
        m.line(file, 1, 1)  # among the globals
    _refused_at(caught, "no-line-outside-functions", "# among the globals")
    with pytest.raises(BuildError) as caught:
        m.no_line()  # OpNoLine among the globals
    _refused_at(caught, "no-line-outside-functions", "# OpNoLine among the globals")
    _compute(m)
    m.line(file, 2, 1).no_line()  # inside a function: fine
    m.return_().function_end()
    m.validate("webgpu")


def test_execution_mode_id_refused() -> None:
    m = Module(target_env="webgpu")
    one = m.constant(m.type_int(32, 0), 1)
    main = _compute(m)
    with pytest.raises(BuildError) as caught:
        m.execution_mode_id(main, ExecutionModeLocalSizeId(one, one, one))  # LocalSizeId
    _refused_at(caught, "local-size-only", "# LocalSizeId")
    # Vulkan 1.3 takes the same call.
    vulkan = Module(target_env="vulkan1.3")
    one = vulkan.constant(vulkan.type_int(32, 0), 1)
    vulkan.execution_mode_id(_compute(vulkan), ExecutionModeLocalSizeId(one, one, one))


def test_extended_instruction_sets() -> None:
    m = Module(target_env="webgpu")
    with pytest.raises(BuildError) as caught:
        m.ext_inst_import("OpenCL.std")  # not a set naga reads
    _refused_at(caught, "extended-instruction-sets", "# not a set naga reads")
    m.ext_inst_import("GLSL.std.450")
    m.ext_inst_import("NonSemantic.Shader.DebugInfo.100")


def test_kernel_capabilities_refused() -> None:
    m = Module(target_env="webgpu")
    with pytest.raises(BuildError, match=r"^Addresses is not allowed by webgpu: declared by "
                       r"OpCapability \(at test_target_rules\.py:\d+\)$"):
        m.capability(Capability.Addresses)
    with pytest.raises(BuildError, match=r"^Kernel is not allowed by webgpu"):
        m.capability(Capability.Kernel)
    with pytest.raises(BuildError, match=r"^Tessellation is not allowed by webgpu"):
        m.capability(Capability.Tessellation)  # naga refuses it


@pytest.mark.spirv_val
@pytest.mark.parametrize(
    ("format", "access", "refused"),
    [
        (ImageFormat.Rgba32f, None, True),
        (ImageFormat.Rgba8, None, True),
        (ImageFormat.Rgba32f, Decoration.NonReadable, False),
        (ImageFormat.Rgba32f, Decoration.NonWritable, False),
        (ImageFormat.R32f, None, False),
        (ImageFormat.R32ui, None, False),
    ],
)
def test_storage_image_access_by_format(
    format: ImageFormat, access: Decoration | None, refused: bool
) -> None:
    m = Module(target_env="webgpu")
    image = _image(m, 2, format)
    variable = m.variable(  # the storage image
        m.type_pointer(StorageClass.UniformConstant, image), StorageClass.UniformConstant
    )
    m.decorate(variable, DecorationDescriptorSet(0)).decorate(variable, DecorationBinding(0))
    if access is not None:  # a decoration may follow the variable: checked when written
        m.decorate(variable, access)
    _compute(m)
    m.return_().function_end()
    if not refused:
        m.validate("webgpu")
        return
    with pytest.raises(BuildError) as caught:
        m.to_words()
    assert f"read-write storage image of format {format.name}" in str(caught.value)
    _refused_at(caught, "storage-texture-access", "# the storage image")


def _buffer_variable(m: Module, storage: StorageClass, block: Decoration) -> int:
    """A variable of ``storage`` pointing to a struct of one uint decorated ``block``."""
    struct = m.type_struct([m.type_int(32, 0)])
    m.decorate(struct, block).member_decorate(struct, 0, DecorationOffset(0))
    variable = m.variable(m.type_pointer(storage, struct), storage)
    m.decorate(variable, DecorationDescriptorSet(0)).decorate(variable, DecorationBinding(0))
    return int(variable)


def test_write_only_storage_buffer_refused() -> None:
    m = Module(target_env="webgpu")
    storage = _buffer_variable(m, StorageClass.StorageBuffer, Decoration.Block)
    with pytest.raises(BuildError) as caught:
        m.decorate(storage, Decoration.NonReadable)  # a write-only storage buffer
    assert f"Decoration.NonReadable on a storage buffer variable (%{storage})" in str(
        caught.value
    )
    _refused_at(caught, "no-write-only-storage-buffer", "# a write-only storage buffer")
    buffer_block = _buffer_variable(m, StorageClass.Uniform, Decoration.BufferBlock)
    with pytest.raises(BuildError) as caught:
        m.decorate(buffer_block, Decoration.NonReadable)  # the old storage buffer form
    _refused_at(caught, "no-write-only-storage-buffer", "# the old storage buffer form")
    with pytest.raises(BuildError) as caught:
        storage_block(m, Struct("Out", (Field("v", u32),)), binding=3, access="write_only")
    _refused_at(caught, "no-write-only-storage-buffer", 'access="write_only")')
    # What naga takes: read-only, a uniform buffer's NonReadable, NonReadable on members
    # and on a storage image; and Vulkan takes a write-only storage buffer.
    m.decorate(storage, Decoration.NonWritable)
    m.decorate(_buffer_variable(m, StorageClass.Uniform, Decoration.Block), Decoration.NonReadable)
    struct = m.type_struct([m.type_float(32)])
    m.member_decorate(struct, 0, Decoration.NonReadable)
    image = m.variable(
        m.type_pointer(StorageClass.UniformConstant, _image(m, 2, ImageFormat.Rgba32f)),
        StorageClass.UniformConstant,
    )
    m.decorate(image, Decoration.NonReadable)
    v = Module(target_env="vulkan1.1")
    v.decorate(_buffer_variable(v, StorageClass.StorageBuffer, Decoration.Block),
               Decoration.NonReadable)


def test_no_contraction_warns_at_the_call() -> None:
    m = Module(target_env="webgpu")
    f32 = m.type_float(32)
    one = m.constant(f32, 1.0)
    _compute(m)
    total = m.f_add(f32, one, one)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m.decorate(total, Decoration.NoContraction)  # dropped by naga
    assert len(caught) == 1
    warning = caught[0]
    assert warning.category is TargetWarning
    assert str(warning.message).startswith(
        "Decoration.NoContraction is dropped by webgpu (rule no-contraction-dropped: "
    )
    assert Path(warning.filename).name == "test_target_rules.py"
    assert "# dropped by naga" in SOURCE[warning.lineno - 1]
    # Other targets say nothing.
    v = Module(target_env="vulkan1.1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v.decorate(v.constant(v.type_float(32), 1.0), Decoration.NoContraction)


def test_validator() -> None:
    assert validator_env("webgpu") == "vulkan1.1"
    assert validator_env("vulkan1.2") == "vulkan1.2"
    assert target_profile("webgpu").validator == "vulkan1.1"
    assert Module(target_env="webgpu").version == (1, 3)
