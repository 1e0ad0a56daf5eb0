"""Block layouts: the figures of the Vulkan rules by hand, offsets the user gives, wrong
descriptions, and the host-side types (ctypes, numpy) against the layout.

The rules' figures for the common cases are written here from the Vulkan specification
("Offset and Stride Assignment"); ``test_layouts_glslang.py`` compares 110 blocks with
glslang's.
"""

from __future__ import annotations

import ctypes
from typing import Any

import pytest

from spvbuild import LayoutError, Module
from spvbuild.constructs import (
    SCALAR,
    STD140,
    STD430,
    Array,
    Field,
    Scalar,
    Struct,
    Vector,
    ctypes_type,
    declare_struct,
    f32,
    i32,
    lay_out,
    mat,
    numpy_dtype,
    u32,
    vec,
)

LIGHT = Struct("Light", (Field("position", vec(3)), Field("intensity", f32)))
PARAMS = Struct(
    "Params",
    (
        Field("mvp", mat(4)),
        Field("tint", vec(3)),
        Field("scale", f32),
        Field("weights", Array(f32, 3)),
        Field("lights", Array(LIGHT, 2)),
        Field("normal", mat(3), row_major=True),
        Field("count", u32),
    ),
)


def offsets(struct: Struct, rule: Any) -> dict[str, int]:
    return {m.name: m.offset for m in lay_out(struct, rule).members}


def test_std140_figures() -> None:
    layout = lay_out(PARAMS, STD140)
    assert offsets(PARAMS, STD140) == {
        "mvp": 0,  # mat4: 4 columns of 16
        "tint": 64,
        "scale": 76,  # a float fills a vec3's last 4 bytes
        "weights": 80,  # float[3]: stride 16 in std140
        "lights": 128,
        "normal": 160,  # Light is 16 bytes, 2 of them
        "count": 208,  # mat3 row-major: 3 rows of 16
    }
    assert layout.member("weights").arrays[0].stride == 16
    assert layout.member("normal").matrix_stride == 16
    assert layout.size == 224  # rounded up to 16
    assert layout.alignment == 16


def test_std430_and_scalar_figures() -> None:
    assert offsets(PARAMS, STD430)["weights"] == 80
    assert lay_out(PARAMS, STD430).member("weights").arrays[0].stride == 4
    assert offsets(PARAMS, STD430)["lights"] == 96  # float[3] is 12 bytes, Light aligns to 16
    scalar = lay_out(PARAMS, SCALAR)
    assert [m.offset for m in scalar.members] == [0, 64, 76, 80, 92, 124, 160]
    assert scalar.member("normal").matrix_stride == 12
    assert scalar.size == 164 and scalar.alignment == 4


def test_a_given_offset_is_kept_when_the_rule_allows_it() -> None:
    padded = Struct("Padded", (Field("a", f32), Field("b", vec(4), offset=32)))
    assert offsets(padded, STD430) == {"a": 0, "b": 32}


@pytest.mark.parametrize(
    ("field", "rule", "message"),
    [
        (
            Field("b", vec(4), offset=8),
            STD430,
            r"struct Bad member 'b': offset 8 breaks the std430 layout: the lowest offset "
            r"allowed after 'a' is 16 \(a multiple of its std430 alignment 16\)",
        ),
        (
            Field("b", f32, offset=2),
            SCALAR,
            r"member 'b': offset 2 breaks the scalar layout: the lowest offset allowed "
            r"after 'a' is 12",
        ),
        (
            Field("b", Array(f32, 2), offset=20),
            STD140,
            r"member 'b': offset 20 breaks the std140 layout: the lowest offset allowed is 16 "
            r"\(a multiple of its std140 alignment 16\)",
        ),
        (Field("b", f32, offset=-4), STD430, r"member 'b': the offset must be an int of 0 or more"),
    ],
)
def test_a_given_offset_that_breaks_the_rule_is_a_layout_error(
    field: Field, rule: Any, message: str
) -> None:
    bad = Struct("Bad", (Field("a", vec(3)), field))
    with pytest.raises(LayoutError, match=message):
        lay_out(bad, rule)


def test_wrong_descriptions_are_layout_errors() -> None:
    with pytest.raises(LayoutError, match="a float is 16, 32, 64 bits wide, not 24"):
        Scalar("float", 24)
    with pytest.raises(LayoutError, match="2, 3 or 4 components, not 5"):
        Vector(f32, 5)
    with pytest.raises(LayoutError, match="the columns must be float vectors"):
        mat(3, component=i32)
    with pytest.raises(LayoutError, match="positive int or None, not 0"):
        Array(f32, 0)
    with pytest.raises(LayoutError, match="member names used twice: a"):
        Struct("S", (Field("a", f32), Field("a", u32)))
    with pytest.raises(LayoutError, match="member 'data' holds a runtime array; only the last"):
        Struct("S", (Field("data", Array(f32, None)), Field("n", u32)))
    with pytest.raises(LayoutError, match="lay_out: the rule is STD140, STD430 or SCALAR"):
        lay_out(LIGHT, "std140")  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match="has no member 'nope'"):
        lay_out(LIGHT, STD140).member("nope")


def test_declare_struct_needs_its_rule() -> None:
    m = Module()
    with pytest.raises(LayoutError, match="say the layout rule of struct Light"):
        declare_struct(m, LIGHT)
    with pytest.raises(LayoutError, match="laid out by std430, not std140"):
        declare_struct(m, lay_out(LIGHT, STD430), STD140)
    with pytest.raises(LayoutError, match="a Struct or a StructLayout is declared, not int"):
        declare_struct(m, 3)  # type: ignore[arg-type]
    declared = declare_struct(m, LIGHT, STD430)
    assert declared.index("intensity") == 1
    assert m.definition(declared.type) is not None


def _ctypes_offsets(host: Any) -> dict[str, int]:
    return {
        name: getattr(host, name).offset for name, _ in host._fields_ if not name.startswith("_")
    }


@pytest.mark.parametrize("rule", [STD140, STD430, SCALAR])
def test_the_ctypes_type_has_the_layout_bytes(rule: Any) -> None:
    layout = lay_out(PARAMS, rule)
    host = ctypes_type(layout)
    assert ctypes.sizeof(host) == layout.size
    assert _ctypes_offsets(host) == {m.name: m.offset for m in layout.members}
    value = host()
    weights = value.weights
    stride = layout.member("weights").arrays[0].stride
    assert ctypes.sizeof(weights) == 3 * stride
    # a light's intensity sits where the layout says
    value.lights[1].intensity = 2.5
    raw = bytes(value)
    at = layout.member("lights").offset + layout.member("lights").arrays[0].stride + 12
    assert raw[at : at + 4] == bytes(ctypes.c_float(2.5))


def test_a_runtime_array_takes_no_room_in_the_host_type() -> None:
    block = Struct("Data", (Field("n", u32), Field("values", Array(vec(3), None))))
    layout = lay_out(block, STD430)
    assert layout.size == layout.member("values").offset == 16
    assert ctypes.sizeof(ctypes_type(layout)) == 16
    assert layout.member("values").arrays[0].stride == 16


@pytest.mark.parametrize("rule", [STD140, STD430, SCALAR])
def test_the_numpy_dtype_has_the_layout_bytes(rule: Any) -> None:
    np = pytest.importorskip("numpy")
    layout = lay_out(PARAMS, rule)
    dtype = numpy_dtype(layout)
    assert dtype.itemsize == layout.size
    assert {name: dtype.fields[name][1] for name in dtype.names} == {
        m.name: m.offset for m in layout.members
    }
    data = np.zeros(1, dtype)
    data["lights"][0, 1]["intensity"] = 2.5
    host = ctypes_type(layout).from_buffer_copy(data.tobytes())
    assert host.lights[1].intensity == 2.5


@pytest.mark.spirv_val
def test_a_buffer_block_for_spirv_1_0(spirv_val: Any) -> None:
    from spvbuild.enums import (
        AddressingModel,
        DecorationBinding,
        DecorationDescriptorSet,
        ExecutionModel,
        ExecutionModeLocalSize,
        MemoryModel,
        StorageClass,
    )  # fmt: skip

    m = Module(version=(1, 0))
    declared = declare_struct(m, PARAMS, STD430, buffer_block=True)
    variable = m.variable(m.type_pointer(StorageClass.Uniform, declared.type), StorageClass.Uniform)
    m.decorate(variable, DecorationDescriptorSet(0)).decorate(variable, DecorationBinding(0))
    main = m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    words = m.to_words()
    decorate = [3 << 16 | 71, int(declared.type), 3]  # OpDecorate %struct BufferBlock
    assert any(words[i : i + 3] == decorate for i in range(len(words)))
    done = spirv_val(words, "vulkan1.0")
    assert done.returncode == 0, done.stderr


def test_struct_fields_from_any_sequence_are_kept_as_a_tuple() -> None:
    listed = Struct("S", [Field("a", f32), Field("b", vec(3))])
    assert listed.fields == (Field("a", f32), Field("b", vec(3)))
    assert listed == Struct("S", (Field("a", f32), Field("b", vec(3))))
    assert hash(listed) == hash(Struct("S", (Field("a", f32), Field("b", vec(3)))))
    assert lay_out(listed, STD430).size == 32
    m = Module()
    declare_struct(m, listed, STD430)  # hashed by the declaration cache
    with pytest.raises(LayoutError, match="Struct S: fields must be a sequence of Field, not str"):
        Struct("S", "ab")  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match="Struct S: fields must be Field, not 3"):
        Struct("S", [Field("a", f32), 3])  # type: ignore[list-item]
