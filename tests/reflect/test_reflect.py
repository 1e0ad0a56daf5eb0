"""spvbuild.reflect on modules built here, with the numbers worked out by hand from the
Vulkan layout rules and the specification: offsets, sizes, strides, push-constant ranges,
specialization constants and their defaults, workgroup sizes, what each entry point uses,
stage interfaces, kernels; the JSON form against its schema; bad input; the command line."""

from __future__ import annotations

import io
import json
import random
from array import array
from pathlib import Path

import jsonschema
import pytest

from spvbuild import ArgumentError, BinaryError, Id, Module, ReflectionError, SpvbuildError
from spvbuild.cli import main
from spvbuild.constructs import (
    Array,
    Field,
    Struct,
    f32,
    input_variable,
    load,
    mat,
    output_variable,
    push_constant_block,
    storage_block,
    u32,
    uniform_block,
    vec,
)
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Decoration,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationComponent,
    DecorationDescriptorSet,
    DecorationSpecId,
    Dim,
    ExecutionMode,
    ExecutionModel,
    ExecutionModeLocalSize,
    ExecutionModeLocalSizeId,
    ImageFormat,
    MemoryModel,
    Op,
    StorageClass,
)
from spvbuild.reflection import Reflection, reflect
from spvbuild.reflection.json_form import SCHEMA, to_dict, to_json
from tests.reflect.modules import catalogue_cases, gallery_cases, glsl_cases


def test_uniform_block_std140_offsets_sizes_strides() -> None:
    m = Module((1, 3))
    params = Struct(
        "Params",
        (
            Field("a", vec(3)),
            Field("b", f32),
            Field("m", mat(4)),
            Field("arr", Array(f32, 3)),
            Field("rm", mat(3, 2), row_major=True),
        ),
    )
    block = uniform_block(m, params, set=2, binding=5, name="params")
    main_fn = m.define_function(m.type_void(), name="main")
    load(m, block.member(m, "b"))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    m.execution_mode(main_fn.id, ExecutionModeLocalSize(8, 1, 1))
    r = reflect(m)
    b = r.binding(2, 5)
    assert (b.descriptor_type, b.name, b.storage_class) == ("uniform_buffer", "params", "Uniform")
    assert b.block is not None and b.block.name == "Params"
    members = {x.name: x for x in b.block.members}
    # std140: vec3 at 0 (12 bytes), float packs after it at 12, mat4 at 16 (4 columns of 16),
    # float[3] at 80 with stride 16 (48 bytes), row-major mat3x2 (3 columns, 2 rows) at 128:
    # 2 row vectors of stride 16.
    assert [(x.offset, x.size) for x in b.block.members] == [
        (0, 12), (12, 4), (16, 64), (80, 48), (128, 32)
    ]  # fmt: skip
    assert members["m"].matrix_stride == 16 and not members["m"].row_major
    assert members["arr"].array_stride == 16 and members["arr"].type.dimensions[0].length == 3
    assert members["rm"].row_major and members["rm"].type.glsl == "mat3x2"
    assert b.block.size == 160 and b.block.runtime_array_stride is None
    assert [x.type.glsl for x in b.block.members] == ["vec3", "float", "mat4", "float", "mat3x2"]
    assert r.entry_points[0].bindings == ((2, 5),)


def test_push_constant_range_starts_at_the_first_member() -> None:
    m = Module((1, 3))
    block = push_constant_block(
        m, Struct("PC", (Field("tint", vec(4), offset=16), Field("scale", f32))), name="pc"
    )
    main_fn = m.define_function(m.type_void(), name="main")
    load(m, block.member(m, "scale"))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    m.execution_mode(main_fn.id, ExecutionModeLocalSize(1, 1, 1))
    (pc,) = reflect(m).push_constants
    # The range a pipeline layout needs: from 16 to the end of scale (32 + 4).
    assert (pc.name, pc.offset, pc.size, pc.block.size) == ("pc", 16, 20, 36)
    assert reflect(m).entry_points[0].push_constants == (pc.variable_id,)


def test_storage_block_runtime_array_and_access() -> None:
    m = Module((1, 3))
    data = storage_block(
        m,
        Struct("Data", (Field("count", u32), Field("items", Array(vec(3), None)))),
        binding=1,
        name="data",
    )
    m.member_decorate(data.declared.type, 0, Decoration.NonWritable)
    m.member_decorate(data.declared.type, 1, Decoration.NonWritable)
    main_fn = m.define_function(m.type_void(), name="main")
    load(m, data.member(m, "count"))
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    m.execution_mode(main_fn.id, ExecutionModeLocalSize(1, 1, 1))
    b = reflect(m).binding(0, 1)
    assert b.descriptor_type == "storage_buffer" and b.readonly and not b.writeonly
    assert b.block is not None
    # std430: the vec3 elements take 16 bytes each; the array starts at 16 (its alignment).
    assert (b.block.size, b.block.runtime_array_stride) == (16, 16)
    items = b.block.members[1]
    assert (items.offset, items.size, items.type.kind) == (16, 0, "runtime_array")
    assert items.type.dimensions[0].length == 0


def _spec_module() -> tuple[Module, dict[str, Id]]:
    m = Module((1, 3))
    uint, f64_t, boolean = m.type_int(32, 0), m.type_float(64), m.type_bool()
    n = m.spec_constant(uint, 4)
    m.decorate(n, DecorationSpecId(3))
    m.name(n, "N")
    doubled = m.spec_constant_op(uint, Op.IMul, [n, m.constant(uint, 2)])
    flag = m.spec_constant_true(boolean)
    m.decorate(flag, DecorationSpecId(7))
    picked = m.spec_constant_op(uint, Op.Select, [flag, doubled, n])
    scale = m.spec_constant(f64_t, 2.5)
    m.decorate(scale, DecorationSpecId(9))
    x = m.spec_constant(uint, 16)
    m.decorate(x, DecorationSpecId(0))
    size = m.spec_constant_composite(m.type_vector(uint, 3), [x, m.constant(uint, 2), n])
    m.decorate(size, DecorationBuiltIn(BuiltIn.WorkgroupSize))
    main_fn = m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    m.execution_mode(main_fn.id, ExecutionModeLocalSize(1, 1, 1))
    return m, {"n": n, "doubled": doubled, "picked": picked, "size": size, "x": x}


def test_spec_constants_ids_names_types_defaults() -> None:
    m, ids = _spec_module()
    r = reflect(m)
    by_id = {s.id: s for s in r.spec_constants}
    n = r.spec_constant(3)
    assert (n.name, n.type.glsl, n.kind, n.default) == ("N", "uint", "scalar", 4)
    doubled = by_id[int(ids["doubled"])]
    assert (doubled.kind, doubled.operation, doubled.default, doubled.spec_id) == (
        "operation", "OpIMul", 8, None
    )  # fmt: skip
    assert by_id[int(ids["picked"])].default == 8  # Select(true, 8, 4)
    assert r.spec_constant(7).default is True and r.spec_constant(7).type.glsl == "bool"
    assert r.spec_constant(9).default == 2.5 and r.spec_constant(9).type.glsl == "double"
    size = by_id[int(ids["size"])]
    assert (size.kind, size.default, size.type.glsl) == ("composite", (16, 2, 4), "uvec3")
    assert size.constituents[0] == int(ids["x"]) and size.constituents[2] == int(ids["n"])


def test_workgroup_size_builtin_wins_over_local_size() -> None:
    m, ids = _spec_module()
    w = reflect(m).entry_points[0].workgroup_size
    assert w is not None and w.source == "WorkgroupSize"
    assert (w.x.size, w.x.spec_id, w.x.constant_id) == (16, 0, int(ids["x"]))
    assert (w.y.size, w.y.spec_id) == (2, None)
    assert (w.z.size, w.z.spec_id) == (4, 3)


def test_local_size_id() -> None:
    m = Module((1, 5))
    uint = m.type_int(32, 0)
    x = m.spec_constant(uint, 32)
    m.decorate(x, DecorationSpecId(1))
    main_fn = m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main_fn.id, "main")
    one = m.constant(uint, 1)
    m.execution_mode_id(main_fn.id, ExecutionModeLocalSizeId(x, one, one))
    w = reflect(m).entry_points[0].workgroup_size
    assert w is not None and w.source == "LocalSizeId"
    assert [(d.size, d.spec_id) for d in (w.x, w.y, w.z)] == [(32, 1), (1, None), (1, None)]


def test_static_uses_per_entry_point_and_stage_interfaces() -> None:
    m = Module((1, 3))
    a = storage_block(m, Struct("A", (Field("v", u32),)), binding=0, name="a")
    b = storage_block(m, Struct("B", (Field("v", u32),)), binding=1, name="b")
    f32_t = m.type_float(32)
    v4 = m.type_vector(f32_t, 4)
    uv = input_variable(m, m.type_vector(f32_t, 2), 3, "uv")
    m.decorate(uv, DecorationComponent(2))
    m.decorate(uv, Decoration.Flat)
    color = output_variable(m, v4, 0, "color")
    helper = m.define_function(m.type_void(), name="helper")
    load(m, b.member(m, "v"))
    m.return_().function_end()
    first = m.define_function(m.type_void(), name="first")
    load(m, a.member(m, "v"))
    m.return_().function_end()
    second = m.define_function(m.type_void(), name="second")
    m.function_call(m.type_void(), helper.id, [])
    m.store(color, m.constant_null(v4))
    load(m, uv)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, first.id, "first")
    m.execution_mode(first.id, ExecutionModeLocalSize(1, 1, 1))
    m.entry_point(ExecutionModel.Fragment, second.id, "second")
    m.execution_mode(second.id, ExecutionMode.OriginUpperLeft)
    r = reflect(m)
    one, two = r.entry_point("first"), r.entry_point("second")
    assert (one.stage, one.bindings, one.inputs, one.outputs) == ("comp", ((0, 0),), (), ())
    assert two.stage == "frag" and two.bindings == ((0, 1),)  # through helper
    assert int(b.variable) in two.static_uses and int(a.variable) not in two.static_uses
    (inp,) = two.inputs
    assert (inp.name, inp.location, inp.component, inp.flat, inp.type.glsl) == (
        "uv", 3, 2, True, "vec2"
    )  # fmt: skip
    (out,) = two.outputs
    assert (out.name, out.location, out.builtin, out.type.glsl) == ("color", 0, None, "vec4")


def test_images_samplers_and_arrays_of_resources() -> None:
    m = Module((1, 3))
    f32_t = m.type_float(32)
    image = m.type_image(f32_t, Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown)
    sampled = m.type_sampled_image(image)
    arr = m.type_array(sampled, m.constant(m.type_int(32, 0), 4))
    textures = m.variable(m.type_pointer(StorageClass.UniformConstant, arr),
                          StorageClass.UniformConstant)
    m.decorate(textures, DecorationBinding(3))
    m.decorate(textures, DecorationDescriptorSet(1))
    storage = m.type_image(f32_t, Dim.Dim3D, 0, 0, 0, 2, ImageFormat.Rgba16f)
    volume = m.variable(m.type_pointer(StorageClass.UniformConstant, storage),
                        StorageClass.UniformConstant)
    m.decorate(volume, DecorationBinding(4))
    m.decorate(volume, Decoration.NonReadable)
    r = reflect(m)
    tex = r.binding(1, 3)
    assert (tex.descriptor_type, tex.type.glsl, [d.length for d in tex.dimensions]) == (
        "combined_image_sampler", "sampler2D", [4]
    )  # fmt: skip
    vol = r.binding(0, 4)
    assert vol.descriptor_type == "storage_image" and vol.type.glsl == "image3D"
    assert vol.image is not None and vol.image.format == "Rgba16f" and vol.writeonly


def test_kernels() -> None:
    kernels = [c for c in catalogue_cases() if c.kernel]
    assert kernels
    for case in kernels:
        r = reflect(case.binary)
        assert {e.execution_model for e in r.entry_points} == {"Kernel"}
        assert {e.stage for e in r.entry_points} == {"kernel"}
        assert r.memory_model == "OpenCL" and "Kernel" in r.capabilities
        assert r.descriptor_bindings == () and r.push_constants == ()


def test_a_module_and_its_words_reflect_alike() -> None:
    m, _ = _spec_module()
    assert reflect(m) == reflect(m.to_bytes()) == reflect(array("I", m.to_words()))


def test_json_follows_the_schema(reflect_workdir: Path) -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    validator.check_schema(SCHEMA)
    cases = glsl_cases(reflect_workdir) + catalogue_cases() + gallery_cases(reflect_workdir)
    assert len(cases) >= 150
    for case in cases:
        found = reflect(case.binary)
        data = to_dict(found)
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], case.name
        assert json.loads(to_json(found)) == data


def test_bad_input_is_a_spvbuild_error() -> None:
    with pytest.raises(BinaryError):
        reflect(b"not a module")
    with pytest.raises(BinaryError):
        reflect(_spec_module()[0].to_bytes()[:-6])
    with pytest.raises(ArgumentError, match=r"^reflect: module must be a Module.*not float "
                       r"\(at test_reflect\.py:\d+\)"):
        reflect(2.5)


def test_deep_nesting_is_a_reflection_error() -> None:
    m = Module()
    length = m.constant(m.type_int(32, 0), 2)
    chain = m.type_sampler()
    for _ in range(5000):
        chain = m.type_array(chain, length)
    m.variable(m.type_pointer(StorageClass.UniformConstant, chain), StorageClass.UniformConstant)
    with pytest.raises(ReflectionError, match="nest too deeply"):
        reflect(m)


def test_mutated_modules_raise_only_spvbuild_errors(reflect_workdir: Path) -> None:
    """Words changed at random in real modules: reflection gives records or a spvbuild
    error, never another exception."""
    cases = list(catalogue_cases()) + list(glsl_cases(reflect_workdir))[::8]
    rng = random.Random(15)
    outcomes = {"reflected": 0, "refused": 0}
    for _ in range(1500):
        words = array("I", rng.choice(cases).binary)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(5, len(words))
            words[at] = rng.choice(
                [0, 1, 0xFFFFFFFF, rng.randrange(1 << 32), words[at] ^ (1 << rng.randrange(32)),
                 words[rng.randrange(len(words))]]
            )
        try:
            found = reflect(words.tobytes())
        except SpvbuildError:
            outcomes["refused"] += 1
        else:
            assert isinstance(found, Reflection)
            outcomes["reflected"] += 1
    assert outcomes["reflected"] > 100 and outcomes["refused"] > 100


def test_cli_reflect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m, _ = _spec_module()
    path = tmp_path / "spec.spv"
    path.write_bytes(m.to_bytes())
    out = io.BytesIO()
    assert main(["reflect", str(path)], out=out) == 0
    text = out.getvalue().decode()
    assert "entry point main (GLCompute, comp), workgroup size 16 (SpecId 0) x 2 x 4 (SpecId 3)" in (
        text
    )
    assert "spec constant SpecId 3: uint N, default 4" in text
    assert main(["reflect", str(path), "--json", "-o", str(tmp_path / "r.json")]) == 0
    data = json.loads((tmp_path / "r.json").read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["entry_points"][0]["workgroup_size"]["x"]["spec_id"] == 0
    assert main(["reflect", "--schema", "-o", str(tmp_path / "schema.json")]) == 0
    assert json.loads((tmp_path / "schema.json").read_text()) == SCHEMA
    (tmp_path / "bad.spv").write_bytes(b"\x03\x02\x23\x07junk")
    assert main(["reflect", str(tmp_path / "bad.spv")]) == 1
    assert "spvbuild reflect: word" in capsys.readouterr().err
