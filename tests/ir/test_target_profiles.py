"""Target profiles: ``Module(target_env=...)`` builds only what the environment allows.

Every catalogue module of an environment's family (universal SPIR-V takes them all) is
built for every profile whose version it fits: each either passes spirv-val for that
environment or is refused at a call, with the capability, the environment and the call
named.  A forbidden capability is refused per family (Vulkan, OpenCL, universal SPIR-V),
and the data's names agree with spirv-val's and the assembler's.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from spvbuild import ArgumentError, BuildError, Module
from spvbuild.cli import main
from spvbuild.constructs import Array, Field, Struct, atomic, storage_block, u32, u64
from spvbuild.enums import (
    AddressingModel,
    Capability,
    DecorationArrayStride,
    Dim,
    ExecutionModel,
    ExecutionModeLocalSize,
    ExecutionModeLocalSizeId,
    ImageFormat,
    MemoryModel,
    StorageClass,
)
from spvbuild.generated.core.targets import SOURCES, TARGET_ENVS
from spvbuild.ir.targets import target_profile
from spvbuild.ir.validation import spirv_val_path
from spvbuild.text.asm_grammar import TARGET_ENVS as ASSEMBLER_ENVS
from tests.modules.catalogue import CATALOGUE, Entry

FAMILIES = {
    "vulkan": [
        "vulkan1.0", "vulkan1.1", "vulkan1.1spv1.4", "vulkan1.2", "vulkan1.3", "vulkan1.4", "webgpu"
    ],
    "opencl": [
        "opencl1.2",
        "opencl1.2embedded",
        "opencl2.0",
        "opencl2.0embedded",
        "opencl2.1",
        "opencl2.1embedded",
        "opencl2.2",
        "opencl2.2embedded",
    ],
    "universal": [f"spv1.{minor}" for minor in range(7)],
}
# What the catalogue's modules need that a profile refuses, as the data says (module,
# what is refused) → the environments: these refusals and no others.
EMBEDDED = ["opencl1.2embedded", "opencl2.0embedded", "opencl2.1embedded", "opencl2.2embedded"]
EXPECTED_REFUSALS = {
    ("compute_local_size_id", "ExecutionMode.LocalSizeId"): ["vulkan1.2"],
    ("float_widths_kernel", "Float16"): ["opencl1.2", "opencl2.0", "opencl2.1", "opencl2.2"],
    ("float_widths_kernel", "Int64"): EMBEDDED,
    ("float_widths_shader", "Float16"): ["vulkan1.1", "vulkan1.1spv1.4", "webgpu"],
    ("kernel_atomics", "Int64Atomics"): FAMILIES["opencl"],
    ("kernel_capabilities_off", "Int64"): EMBEDDED,
    ("kernel_generic_vectors", "GenericPointer"): ["opencl1.2", "opencl1.2embedded"],
    ("kernel_generic_vectors", "Int64"): EMBEDDED[1:],
    ("kernel_images", "Int64"): EMBEDDED,
    ("kernel_opencl_std", "Int64"): EMBEDDED,
    ("kernel_spec_constants", "Int64"): EMBEDDED,
    ("kernel_switch64", "Int64"): EMBEDDED,
    ("library_linkage", "Linkage"): ["vulkan1.2", "vulkan1.3", "vulkan1.4"],
    ("small_int_storage", "Int8"): ["vulkan1.1", "vulkan1.1spv1.4"],
    # What naga (WebGPU) does not read: combined image samplers, formatless storage images,
    # 8-bit storage, tessellation.
    ("compute_image_fetch", "rule no-combined-image-sampler"): ["webgpu"],
    ("compute_storage_images", "StorageImageReadWithoutFormat"): ["webgpu"],
    ("fragment_sampled_texture", "rule no-combined-image-sampler"): ["webgpu"],
    ("small_int_storage", "StorageBuffer8BitAccess"): ["webgpu"],
    ("tessellation_control_verify", "Tessellation"): ["webgpu"],
}
_REFUSAL = re.compile(
    r"(?:([\w.]+) is not allowed by (\S+?)(?: \(.*\))?: (?:needed|declared|used) by "
    r"|\w+ needs (SPIR-V \d\.\d); the module is \d\.\d"
    r"|.* is not allowed by (webgpu) \(rule ([\w-]+): )"
    r".* \(at catalogue\.py:\d+\)$"
)


def _family(env: str) -> str:
    return next(f for f, names in FAMILIES.items() if env in names)


def _validate(words: bytes, env: str) -> subprocess.CompletedProcess[bytes]:
    tool = spirv_val_path()
    assert tool is not None
    validator = TARGET_ENVS[env].validator  # (webgpu: vulkan1.1; spirv-val has no webgpu)
    return subprocess.run(
        [tool, "--target-env", validator, "-"], input=words, capture_output=True
    )


def _entry_family(entry: Entry) -> str:
    """A kernel (it declares Kernel) is OpenCL's, a shader Vulkan's."""
    return "opencl" if "Kernel" in entry.capabilities else "vulkan"


def _cases(env: str) -> list[Entry]:
    """The catalogue modules built for ``env``: its family's (universal: all) whose version
    it accepts; kernels also at an earlier version (OpenCL 1.2 to 2.1 take SPIR-V 1.0 only,
    the kernels are written for 1.2), shaders only at their own (their entry points list
    their interfaces for their version)."""
    info = TARGET_ENVS[env]
    return [
        e
        for e in CATALOGUE
        if not e.xfail
        and not e.val_rejects
        and (info.family == "universal" or _entry_family(e) == info.family)
        and (e.version <= info.version or info.family == "opencl")
    ]


def test_every_family_is_described() -> None:
    assert set(TARGET_ENVS) == {name for names in FAMILIES.values() for name in names}
    for name, info in TARGET_ENVS.items():
        assert info.family == _family(name)
        assert info.source in SOURCES
        # The version a profile writes is the one spirv-as gives that --target-env; an
        # environment spirv-as and spirv-val do not know is validated as another.
        if info.validator == name:
            assert info.version == ASSEMBLER_ENVS[name], name
        else:
            assert name not in ASSEMBLER_ENVS and TARGET_ENVS[info.validator].validator == (
                info.validator
            ), name
        if info.family == "universal":
            assert info.everything
        else:
            assert not info.everything and "Shader" in info.capabilities or (
                "Kernel" in info.capabilities
            )


@pytest.mark.spirv_val
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_modules_built_for_a_profile_pass_spirv_val(family: str) -> None:
    """Each catalogue module of the family, built for each of its profiles (see
    :func:`_cases`): spirv-val accepts it for that environment, or the profile refused it at
    a call, naming what and where."""
    built = 0
    refused: dict[tuple[str, str], list[str]] = {}
    for env in FAMILIES[family]:
        for entry in _cases(env):
            version = min(entry.version, TARGET_ENVS[env].version)
            module = Module(version, target_env=env, **entry.options)
            try:
                entry.build(module)
                words = module.to_bytes()
            except BuildError as exc:
                found = _REFUSAL.fullmatch(str(exc))
                assert found, str(exc)
                assert found.group(2) in (None, env) and found.group(4) in (None, env), str(exc)
                what = found.group(1) or found.group(3) or f"rule {found.group(5)}"
                refused.setdefault((entry.name, what), []).append(env)
                continue
            done = _validate(words, env)
            assert done.returncode == 0, (env, entry.name, done.stderr.decode())
            built += 1
    expected = {
        key: [e for e in envs if e in FAMILIES[family]] for key, envs in EXPECTED_REFUSALS.items()
    }
    assert refused == {key: envs for key, envs in expected.items() if envs}
    assert built >= {"vulkan": 80, "opencl": 50, "universal": 150}[family], built


def _atomic_64(env: str) -> Module:
    m = Module(target_env=env)
    block = storage_block(m, Struct("Out", (Field("total", u64),)), binding=0)
    main_fn = m.define_function(m.type_void(), name="main")
    atomic(m, m.atomic_i_add, block.member(m, "total"), m.constant(m.type_int(64, 0), 1))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    m.execution_mode(main_fn.id, ExecutionModeLocalSize(1, 1, 1))
    return m


def test_vulkan_refuses_int64_atomics_at_the_call() -> None:
    with pytest.raises(BuildError) as caught:
        _atomic_64("vulkan1.0")
    message = str(caught.value)
    assert message.startswith(
        "Int64Atomics is not allowed by vulkan1.0: needed by OpAtomicIAdd on a 64-bit integer "
        "(at test_target_profiles.py:"
    ), message
    line = int(message.rsplit(":", 1)[1].rstrip(")"))
    source = Path(__file__).read_text().splitlines()[line - 1]
    assert "atomic(m, m.atomic_i_add" in source


@pytest.mark.spirv_val
@pytest.mark.parametrize("env", ["vulkan1.2", "vulkan1.3", "spv1.0", "spv1.5"])
def test_int64_atomics_inferred_where_allowed(env: str) -> None:
    words = _atomic_64(env).to_bytes()
    assert _validate(words, env).returncode == 0
    # Inferred without a profile too (spirv-val requires it for 64-bit atomics).
    assert "OpCapability Int64Atomics" in _dis(words)


def _dis(words: bytes) -> str:
    from spvbuild import disassemble

    return disassemble(words)


def test_vulkan_refuses_a_declared_kernel_capability() -> None:
    m = Module(target_env="vulkan1.1")
    with pytest.raises(BuildError, match=r"^Kernel is not allowed by vulkan1\.1: declared by "
                       r"OpCapability \(at test_target_profiles\.py:\d+\)$"):
        m.capability(Capability.Kernel)
    assert m.sections["capabilities"] == []  # the refused call changed nothing


def test_opencl_refuses_shader_only_instructions() -> None:
    m = Module(target_env="opencl2.0")
    f32 = m.type_float(32)
    fn = m.define_function(f32, [f32])
    before = m.bound
    with pytest.raises(
        BuildError,
        match=r"^Shader is not allowed by opencl2\.0: needed by OpDPdx \(at test_target_profiles",
    ):
        m.d_pdx(f32, fn.parameters[0])  # the fast path's run of id-only instructions
    assert m.bound == before  # the refused call changed nothing
    m.f_add(f32, fn.parameters[0], fn.parameters[0])  # the same run takes the next one
    m.return_value(fn.parameters[0]).function_end()
    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)  # (to_bytes needs one)
    assert "OpDPdx" not in _dis(m.to_bytes())


def test_universal_refuses_what_a_later_version_brings() -> None:
    m = Module(target_env="spv1.0")
    with pytest.raises(BuildError, match=r"GroupNonUniform is not allowed by spv1\.0: declared"):
        m.capability(Capability.GroupNonUniform)
    # An extension that enables a capability makes it allowed (universal: every extension).
    m2 = Module(target_env="spv1.0")
    m2.capability(Capability.StorageBuffer16BitAccess)  # SPV_KHR_16bit_storage, inferred


def test_vulkan_refuses_an_extension_it_does_not_list() -> None:
    m = Module(target_env="vulkan1.3")
    with pytest.raises(
        BuildError, match=r"^SPV_INTEL_function_pointers is not allowed by vulkan1\.3: declared"
    ):
        m.extension("SPV_INTEL_function_pointers")


def test_versions_and_names() -> None:
    assert Module(target_env="vulkan1.1").version == (1, 3)
    assert Module((1, 0), target_env="vulkan1.1").version == (1, 0)
    assert Module(target_env="opencl2.2").version == (1, 2)
    assert Module().version == (1, 3)
    with pytest.raises(ArgumentError, match=r"version \(1, 4\) is later than vulkan1\.1 accepts"):
        Module((1, 4), target_env="vulkan1.1")
    with pytest.raises(ArgumentError, match=r"target_env must be one of vulkan1\.0, .*not 'dx12'"):
        Module(target_env="dx12")
    assert target_profile("vulkan1.2").allows_capability(int(Capability.Int64Atomics), (1, 5))
    assert not target_profile("vulkan1.0").allows_capability(int(Capability.Int64Atomics), (1, 0))


def test_cli_val_and_as_take_the_same_names(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["val", "--target-env", "vulkan9", "-"])
    assert caught.value.code == 2
    assert "unknown target env 'vulkan9'" in capsys.readouterr().err
    for name, info in TARGET_ENVS.items():
        assert (name in ASSEMBLER_ENVS) == (info.validator == name)


@pytest.mark.spirv_val
@pytest.mark.parametrize("env", ["vulkan1.1", "vulkan1.3"])
def test_local_size_id_from_vulkan_1_3(env: str) -> None:
    m = Module(target_env=env)
    uint = m.type_int(32, 0)
    size = m.constant(uint, 8)
    main_fn = m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    if env == "vulkan1.1":
        with pytest.raises(
            BuildError,
            match=r"^ExecutionMode\.LocalSizeId is not allowed by vulkan1\.1 \(needs "
            r"maintenance4, core from Vulkan 1\.3\): used by OpExecutionModeId",
        ):
            m.execution_mode_id(main_fn.id, ExecutionModeLocalSizeId(size, size, size))
        return
    m.execution_mode_id(main_fn.id, ExecutionModeLocalSizeId(size, size, size))
    assert _validate(m.to_bytes(), env).returncode == 0


def _pointer_arithmetic(target_env: str | None) -> bytes:
    """OpPtrAccessChain on a storage buffer: Addresses or VariablePointers (any of)."""
    m = Module(target_env=target_env) if target_env else Module((1, 3))
    block = storage_block(m, Struct("B", (Field("v", Array(u32, None)),)), binding=0)
    uint = m.type_int(32, 0)
    main_fn = m.define_function(m.type_void(), name="main")
    base = block.member(m, "v", m.constant(uint, 0))
    pointer = m.type_pointer(StorageClass.StorageBuffer, uint)
    m.decorate(pointer, DecorationArrayStride(4))
    m.store(m.ptr_access_chain(pointer, base, m.constant(uint, 1), []), m.constant(uint, 7))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    m.execution_mode(main_fn.id, ExecutionModeLocalSize(1, 1, 1))
    return m.to_bytes()


@pytest.mark.spirv_val
def test_inference_chooses_what_the_target_allows() -> None:
    """OpPtrAccessChain needs Addresses or VariablePointers (or ...): without a target the
    first is chosen, which Vulkan refuses; for vulkan1.1 the first it allows."""
    plain = _pointer_arithmetic(None)
    assert "OpCapability Addresses" in _dis(plain)
    assert _validate(plain, "vulkan1.1").returncode != 0
    targeted = _pointer_arithmetic("vulkan1.1")
    capabilities = [line.strip() for line in _dis(targeted).splitlines() if "OpCapability" in line]
    assert capabilities == ["OpCapability VariablePointers"]
    assert _validate(targeted, "vulkan1.1").returncode == 0


# -- one test per reproducer of issue 28 (profiles) ------------------------------------------
def _called_here(message: str, needle: str) -> None:
    """``message`` ends with this file's ``(at test_target_profiles.py:LINE)`` and that line
    holds ``needle``, the call that was refused."""
    found = re.search(r"\(at test_target_profiles\.py:(\d+)\)$", message)
    assert found is not None, message
    assert needle in Path(__file__).read_text().splitlines()[int(found[1]) - 1], message


def test_texture_box_filter_qcom_is_refused_below_spirv_1_4() -> None:
    """Its only enabling extension, SPV_QCOM_image_processing, needs SPIR-V 1.4."""
    m = Module(target_env="spv1.3")
    with pytest.raises(BuildError) as caught:
        m.capability(Capability.TextureBoxFilterQCOM)
    message = str(caught.value)
    assert message.startswith(
        "TextureBoxFilterQCOM is not allowed by spv1.3 (SPV_QCOM_image_processing needs "
        "SPIR-V 1.4): declared by OpCapability"
    ), message
    _called_here(message, "m.capability(Capability.TextureBoxFilterQCOM)")
    assert m.sections["capabilities"] == []
    Module(target_env="spv1.4").capability(Capability.TextureBoxFilterQCOM)


def test_an_instruction_needing_texture_box_filter_qcom_is_refused_below_spirv_1_4() -> None:
    m = Module(target_env="spv1.3")
    f32 = m.type_float(32)
    v2, v4 = m.type_vector(f32, 2), m.type_vector(f32, 4)
    image = m.type_image(f32, Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown)
    fn = m.define_function(v4, [m.type_sampled_image(image), v2])
    texture, at = fn.parameters
    with pytest.raises(BuildError) as caught:
        m.image_box_filter_qcom(v4, texture, at, at)
    message = str(caught.value)
    assert message.startswith(
        "TextureBoxFilterQCOM is not allowed by spv1.3 (SPV_QCOM_image_processing needs "
        "SPIR-V 1.4): needed by OpImageBoxFilterQCOM"
    ), message
    _called_here(message, "m.image_box_filter_qcom(v4, texture, at, at)")


@pytest.mark.parametrize("env", ["spv1.1", "spv1.2"])
def test_vulkan_memory_model_is_refused_below_spirv_1_3(env: str) -> None:
    m = Module(target_env=env)
    with pytest.raises(BuildError) as caught:
        m.capability(Capability.VulkanMemoryModel)
    assert str(caught.value).startswith(
        f"VulkanMemoryModel is not allowed by {env} (SPV_KHR_vulkan_memory_model needs "
        "SPIR-V 1.3): declared by OpCapability"
    ), caught.value
    _called_here(str(caught.value), "m.capability(Capability.VulkanMemoryModel)")


@pytest.mark.parametrize("env", ["opencl1.2", "opencl2.0", "opencl2.2"])
def test_image_buffer_is_refused_on_opencl_until_image_basic_is_declared(env: str) -> None:
    m = Module(target_env=env)
    m.capability(Capability.Addresses).capability(Capability.Kernel)
    with pytest.raises(BuildError) as caught:
        m.capability(Capability.ImageBuffer)
    assert str(caught.value).startswith(
        f"ImageBuffer is not allowed by {env} (only after ImageBasic is declared): declared by "
        "OpCapability"
    ), caught.value
    _called_here(str(caught.value), "m.capability(Capability.ImageBuffer)")
    m.capability(Capability.ImageBasic).capability(Capability.ImageBuffer)  # now allowed


@pytest.mark.spirv_val
@pytest.mark.parametrize("env", ["opencl2.0", "spv1.4"])
def test_physical64_with_function_pointers_writes_addresses(env: str) -> None:
    """FunctionPointersINTEL implies Addresses; a physical addressing model needs Addresses
    declared all the same (spirv-val), so it is written."""
    m = Module(target_env=env)
    m.capability(Capability.Kernel).capability(Capability.FunctionPointersINTEL)
    kernel = m.define_function(m.type_void(), name="k")
    m.return_().function_end()
    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
    m.entry_point(ExecutionModel.Kernel, kernel.id, "k")
    words = m.to_bytes()
    assert "OpCapability Addresses" in _dis(words)
    done = _validate(words, env)
    assert done.returncode == 0, done.stderr.decode()


@pytest.mark.parametrize("env", ["vulkan1.3", "spv1.6"])
def test_graph_arm_without_a_graph_entry_point_is_refused_when_written(env: str) -> None:
    m = Module(target_env=env)
    m.capability(Capability.GraphARM)  # allowed at the call: the entry point may come later
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    with pytest.raises(
        BuildError,
        match=r"^GraphARM declared: the module needs an OpGraphEntryPointARM \(spirv-val: No "
        r"OpGraphEntryPointARM instruction was found but the GraphARM capability is declared\)",
    ):
        m.to_bytes()
