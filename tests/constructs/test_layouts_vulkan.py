"""Host and shader agree with glslang: data packed at glslang's offsets, read by a shader on
lavapipe.

For blocks of vectors, row- and column-major matrices, arrays (also of structs, also
nested), a nested struct and a runtime array of structs, under std140, std430 and scalar:
the same block is declared in GLSL and compiled by glslangValidator, and every scalar is
packed at the offset its decorations give (Offset, ArrayStride, MatrixStride, RowMajor) to
its own number; a compute shader built with :func:`spvbuild.constructs.declare_struct`
reads each one (an access chain to it, a load, a conversion to float) and writes it to an
output buffer, and the output must be those numbers in order.  The same values set through
:func:`spvbuild.constructs.ctypes_type` must give the same bytes.  Fails, never skips, without Vulkan
(``make test`` installs lavapipe).
"""

from __future__ import annotations

import ctypes
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spvbuild.constructs import (
    SCALAR,
    STD140,
    STD430,
    Array,
    Field,
    Matrix,
    Rule,
    Scalar,
    Struct,
    StructLayout,
    Vector,
    ctypes_type,
    declare_struct,
    f32,
    i32,
    lay_out,
    mat,
    u32,
    vec,
)
from spvbuild.enums import (
    AddressingModel,
    DecorationBinding,
    DecorationDescriptorSet,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    StorageClass,
)
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.vulkan_runner import run_compute
from tests.conftest import spirv_tool
from tests.constructs.layout_shapes import Shape, glsl
from tests.constructs.test_layouts_glslang import compile_glsl, layout_tree

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val]

LIGHT = Struct("Light", (Field("position", vec(3)), Field("intensity", f32), Field("id", i32)))
INNER = Struct("Inner", (Field("m", mat(2, 3)), Field("v", vec(2, u32))))
BLOCKS = [
    Struct(
        "Mixed",
        (
            Field("a", f32),
            Field("v3", vec(3)),
            Field("u", u32),
            Field("m3", mat(3)),
            Field("r", mat(3, 2), row_major=True),
            Field("weights", Array(f32, 3)),
            Field("iv", vec(2, i32)),
        ),
    ),
    Struct(
        "Nested",
        (
            Field("inner", INNER),
            Field("lights", Array(LIGHT, 2)),
            Field("grid", Array(Array(vec(3), 2), 2)),
            Field("rows", Array(mat(2), 2), row_major=True),
        ),
    ),
    Struct("Runtime", (Field("count", u32), Field("lights", Array(LIGHT, None)))),
]
RUNTIME_COUNT = 3  # elements of a runtime array the test writes


def _step(obj: Any) -> Any:
    """An array element or matrix vector as the host type holds it (a padded step's
    ``value``)."""
    if isinstance(obj, ctypes.Structure) and [n for n, _ in obj._fields_][:1] == ["value"]:
        return obj.value
    return obj


def _leaves(
    data: Any, host: Any, path: tuple[int, ...], row_major: bool
) -> Iterator[tuple[tuple[int, ...], Any, Any, Scalar]]:
    """(access-chain path, host object, index in it, scalar type) of every scalar."""
    if isinstance(data, Array):
        length = data.length if data.length is not None else RUNTIME_COUNT
        for j in range(length):
            item = host[j]
            if isinstance(data.element, Scalar):  # a padded step holds it as its value
                padded = isinstance(item, ctypes.Structure)
                yield (
                    (*path, j),
                    (item if padded else host),
                    ("value" if padded else j),
                    data.element,
                )
            else:
                yield from _leaves(data.element, _step(item), (*path, j), row_major)
    elif isinstance(data, Struct):
        for index, field in enumerate(data.fields):
            if isinstance(field.type, Scalar):
                yield (*path, index), host, field.name, field.type
            else:
                member = getattr(host, field.name)
                yield from _leaves(field.type, member, (*path, index), field.row_major)
    elif isinstance(data, Matrix):
        for column in range(data.columns):
            for row in range(data.column.count):
                outer, inner = (row, column) if row_major else (column, row)
                yield (*path, column, row), _step(host[outer]), inner, data.column.component
    elif isinstance(data, Vector):
        for component in range(data.count):
            yield (*path, component), host, component, data.component
    else:
        raise AssertionError(f"a scalar is reached through its container: {data!r}")


def leaves(
    layout: StructLayout, buffer: bytearray
) -> list[tuple[tuple[int, ...], Any, Any, Scalar]]:
    """Every scalar of the block in ``buffer`` (its runtime array: RUNTIME_COUNT elements)."""
    host_type = ctypes_type(layout)
    host = host_type.from_buffer(buffer)
    found: list[tuple[tuple[int, ...], Any, Any, Scalar]] = []
    for index, member in enumerate(layout.members):
        data = member.field.type
        if member.arrays and member.arrays[0].length is None:
            assert isinstance(data, Array)
            element_type = type(getattr(host, member.name))._type_
            stride = member.arrays[0].stride
            for j in range(RUNTIME_COUNT):
                element = _step(element_type.from_buffer(buffer, member.offset + j * stride))
                found += _leaves(data.element, element, (index, j), member.field.row_major)
            continue
        if isinstance(data, Scalar):
            found.append(((index,), host, member.name, data))
            continue
        found += _leaves(data, getattr(host, member.name), (index,), member.field.row_major)
    return found


def shader(block: Struct, rule: Rule, paths: list[tuple[tuple[int, ...], Scalar]]) -> list[int]:
    """A compute shader that copies each scalar at ``paths`` of binding 0 (the block) to
    element k of binding 1 (floats), as a float."""
    m = Module(version=(1, 5))
    declared = declare_struct(m, block, rule)
    out = declare_struct(m, Struct("Out", (Field("values", Array(f32, None)),)), STD430)
    variables = []
    for binding, type_id in enumerate((declared.type, out.type)):
        pointer = m.type_pointer(StorageClass.StorageBuffer, type_id)
        variable = m.variable(pointer, StorageClass.StorageBuffer)
        m.decorate(variable, DecorationDescriptorSet(0)).decorate(
            variable, DecorationBinding(binding)
        )
        variables.append(variable)
    main = m.define_function(m.type_void(), name="main")
    float32 = m.type_float(32)
    uint = m.type_int(32, 0)

    def index(value: int) -> Id:
        return m.constant(uint, value)

    for k, (path, scalar) in enumerate(paths):
        scalar_type: TypeId = (
            float32 if scalar.kind == "float" else m.type_int(32, 1 if scalar.kind == "sint" else 0)
        )
        pointer = m.type_pointer(StorageClass.StorageBuffer, scalar_type)
        value = m.load(scalar_type, m.access_chain(pointer, variables[0], [index(i) for i in path]))
        if scalar.kind == "sint":
            value = m.convert_s_to_f(float32, value)
        elif scalar.kind == "uint":
            value = m.convert_u_to_f(float32, value)
        target = m.access_chain(
            m.type_pointer(StorageClass.StorageBuffer, float32), variables[1], [index(0), index(k)]
        )
        m.store(target, value)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    words: list[int] = m.to_words()
    return words


_FORMATS = {("float", 32): "f", ("sint", 32): "i", ("uint", 32): "I"}


def glslang_leaves(
    block: Struct, rule: Rule, tmp: Path
) -> list[tuple[tuple[int, ...], int, Scalar]]:
    """(access-chain path, byte offset, scalar type) of every scalar of ``block`` as
    glslang lays it out: the same block in GLSL (``layout_shapes.glsl``), compiled by
    glslangValidator, its Offset, ArrayStride, MatrixStride and RowMajor decorations read
    back (its runtime array: RUNTIME_COUNT elements)."""
    tree = layout_tree(compile_glsl(glsl(Shape(block, rule, False)), tmp), block.name)
    found: list[tuple[tuple[int, ...], int, Scalar]] = []

    def walk(
        data: Any, at: int, member: Any, strides: tuple[int, ...], path: tuple[int, ...]
    ) -> None:
        _, _, matrix_stride, row_major, _, nested = member
        if isinstance(data, Array):
            length = data.length if data.length is not None else RUNTIME_COUNT
            for j in range(length):
                walk(data.element, at + j * strides[0], member, strides[1:], (*path, j))
        elif isinstance(data, Struct):
            members(data, nested, at, path)
        elif isinstance(data, Matrix):
            step = data.column.component.width // 8
            for column in range(data.columns):
                for row in range(data.column.count):
                    major, minor = (row, column) if row_major else (column, row)
                    offset = at + major * matrix_stride + minor * step
                    found.append(((*path, column, row), offset, data.column.component))
        elif isinstance(data, Vector):
            for k in range(data.count):
                found.append(((*path, k), at + k * data.component.width // 8, data.component))
        else:
            found.append((path, at, data))

    def members(struct: Struct, tree: Any, at: int, path: tuple[int, ...]) -> None:
        assert [m[0] for m in tree] == [f.name for f in struct.fields]
        for index, (field, member) in enumerate(zip(struct.fields, tree, strict=True)):
            walk(field.type, at + member[1], member, member[4], (*path, index))

    members(block, tree, 0, ())
    return found


@pytest.mark.parametrize("rule", [STD140, STD430, SCALAR], ids=lambda r: r.value)
@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.name)
def test_the_shader_reads_what_glslang_laid_out(block: Struct, rule: Rule, tmp_path: Path) -> None:
    """The host data is packed at glslang's offsets (not spvbuild's): the shader that
    declare_struct declares reads each scalar where glslang put it, and ctypes_type packs
    the same bytes."""
    found = glslang_leaves(block, rule, tmp_path)
    buffer = bytearray(max(offset + scalar.width // 8 for _, offset, scalar in found))
    for k, (_, offset, scalar) in enumerate(found):
        struct.pack_into("<" + _FORMATS[scalar.kind, scalar.width], buffer, offset, k + 1)
    words = shader(block, rule, [(path, scalar) for path, _, scalar in found])
    tool = spirv_tool("spirv-val")
    assert tool is not None
    flags = ["--scalar-block-layout"] if rule is SCALAR else []
    done = subprocess.run(
        [str(tool), "--target-env", "vulkan1.2", *flags, "-"],
        input=struct.pack(f"<{len(words)}I", *words),
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr.decode()
    outputs = run_compute(words, [bytes(buffer), bytes(4 * len(found))], (1, 1, 1))
    assert list(struct.unpack(f"<{len(found)}f", outputs[1])) == [
        float(k + 1) for k in range(len(found))
    ]
    assert len(found) > 10
    host = _ctypes_packed(block, rule, {path: k + 1 for k, (path, _, _) in enumerate(found)})
    assert host[: len(buffer)] == bytes(buffer), "ctypes_type packs other bytes than glslang's"
    assert not any(host[len(buffer) :]), "ctypes_type writes past glslang's last scalar"


def _ctypes_packed(block: Struct, rule: Rule, values: dict[tuple[int, ...], int]) -> bytes:
    """The block packed through ctypes_type (spvbuild's host side), each scalar at path p
    set to ``values[p]``."""
    layout = lay_out(block, rule)
    size = layout.size
    last = layout.members[-1]
    if last.arrays and last.arrays[0].length is None:
        size = last.offset + RUNTIME_COUNT * last.arrays[0].stride
    buffer = bytearray(size)
    found = leaves(layout, buffer)
    assert sorted(path for path, _, _, _ in found) == sorted(values)
    for path, host, key, scalar in found:
        if isinstance(key, str):
            setattr(host, key, values[path])
        else:
            host[key] = float(values[path]) if scalar.kind == "float" else values[path]
    return bytes(buffer)
