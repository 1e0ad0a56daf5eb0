"""Host-side types of a reflected block: numpy dtypes and ``ctypes`` Structures whose bytes
are what the shader reads, and the size WebGPU wants bound.

Everything here is made from the block's own decorations as :func:`spvbuild.reflect` gives
them (:class:`~spvbuild.reflection.records.BlockLayout`), never from a layout rule, so it
holds for any module, one spvbuild did not build included: every member at its Offset,
array elements at their ArrayStride (each dimension its own), matrix columns (rows, when
the member is RowMajor) at the member's MatrixStride, a nested struct at the size its
members give it.  Where a stride is longer than what it steps over (a ``float`` array in
std140, a ``mat3``'s columns) each step is a record of one field, ``value``, followed by its
padding, as :mod:`spvbuild.constructs.host` does for the layouts spvbuild makes.  A matrix
is indexed as GLSL indexes it, ``[column][row]``, when column-major, and as it is stored,
``[row][column]``, when row-major.  A pointer (``PhysicalStorageBuffer``) is an unsigned
64-bit address; a 16-bit float is numpy's ``float16`` and, in ``ctypes``, its bits as a
``c_uint16``.  Members keep their debug names (``_<index>`` where a member has none).

A runtime array, the last member of a storage block, is the block's *tail*
(:class:`RuntimeTail`): ``count=None`` (the default) gives the fixed part alone (``itemsize``
or ``sizeof`` is the block's declared size, the tail's elements are the user's to append);
``count=n`` gives the whole buffer with ``n`` tail elements, the tail a field of its own.

numpy is optional: :func:`block_dtype` and :func:`tail_dtype` import it when called and
raise :class:`~spvbuild.errors.ReflectionError` when it is missing.

:func:`min_binding_size` is the WebGPU minimum binding size (see its docstring for the rule).
"""

from __future__ import annotations

import ctypes
import importlib
from dataclasses import dataclass
from typing import Any

from spvbuild.errors import ArgumentError, ReflectionError
from spvbuild.reflection.records import (
    BlockLayout,
    DescriptorBinding,
    Member,
    PushConstantBlock,
    TypeInfo,
)
from spvbuild.spirv.call_site import located

__all__ = [
    "BlockLike",
    "RuntimeTail",
    "block_ctypes",
    "block_dtype",
    "min_binding_size",
    "runtime_tail",
    "tail_ctypes",
    "tail_dtype",
]

BlockLike = BlockLayout | DescriptorBinding | PushConstantBlock
"""What the functions here take: a block, or the binding or push-constant block holding one."""

# -- the neutral description both renderers read ------------------------------------------


@dataclass(frozen=True, slots=True)
class _Leaf:
    kind: str  # numpy's kind letter: "f", "i", "u"
    size: int


@dataclass(frozen=True, slots=True)
class _Vector:
    leaf: _Leaf
    count: int


@dataclass(frozen=True, slots=True)
class _Padded:
    inner: _Node
    size: int  # bytes of one step, more than the inner node's


@dataclass(frozen=True, slots=True)
class _Array:
    step: _Node
    length: int


@dataclass(frozen=True, slots=True)
class _Record:
    name: str
    fields: tuple[tuple[str, _Node, int], ...]  # (name, node, offset)
    size: int


_Node = _Leaf | _Vector | _Padded | _Array | _Record


def _size(node: _Node) -> int:
    if isinstance(node, _Leaf):
        return node.size
    if isinstance(node, _Vector):
        return node.leaf.size * node.count
    if isinstance(node, _Array):
        return _size(node.step) * node.length
    return node.size


@dataclass(frozen=True, slots=True)
class RuntimeTail:
    """The runtime array a block ends with: where its elements start and how far apart."""

    name: str
    """The member's name (``_<index>`` where it has none)."""
    member: Member
    """The member itself, with its decorations."""
    offset: int
    """Where element 0 starts (the member's Offset)."""
    stride: int
    """Bytes from one element to the next (the runtime array's ArrayStride)."""

    def buffer_size(self, count: int) -> int:
        """Bytes a buffer needs for ``count`` elements (past the fixed part's end)."""
        return self.offset + count * self.stride


def _block(value: object, caller: str) -> BlockLayout:
    if isinstance(value, BlockLayout):
        return value
    if isinstance(value, PushConstantBlock):
        return value.block
    if isinstance(value, DescriptorBinding):
        if value.block is None:
            raise ArgumentError(
                located(
                    f"{caller}: binding {value.name or value.variable_id!r} (set {value.set}, "
                    f"binding {value.binding}) is a {value.descriptor_type}, not a block"
                )
            )
        return value.block
    raise ArgumentError(
        located(
            f"{caller}: block must be a BlockLayout, DescriptorBinding or PushConstantBlock "
            f"(from spvbuild.reflect), not {type(value).__name__}"
        )
    )


def _names(members: tuple[Member, ...]) -> list[str]:
    """Each member's field name: its debug name, ``_<index>`` without one or when taken."""
    names: list[str] = []
    for member in members:
        name = member.name if member.name.isidentifier() else f"_{member.index}"
        while name in names:
            name = f"{name}_{member.index}"
        names.append(name)
    return names


def _tail_member(block: BlockLayout) -> Member | None:
    last = block.members[-1] if block.members else None
    return last if last is not None and last.type.kind == "runtime_array" else None


def runtime_tail(block: BlockLike) -> RuntimeTail | None:
    """The runtime array ``block`` ends with, or ``None`` when it has none.

    ReflectionError when the array has no ArrayStride or the member no Offset.
    """
    found = _block(block, "runtime_tail")
    member = _tail_member(found)
    if member is None:
        return None
    name = _names(found.members)[-1]
    if member.offset is None or member.type.array_stride is None:
        raise ReflectionError(
            f"block {found.name!r}: its runtime array {name!r} has no Offset or ArrayStride"
        )
    return RuntimeTail(name, member, member.offset, member.type.array_stride)


class _Describer:
    """Reflected types to the neutral description, checked against their decorations."""

    def __init__(self, block: BlockLayout) -> None:
        self.block = block

    def fail(self, where: str, what: str) -> ReflectionError:
        return ReflectionError(f"block {self.block.name!r}, {where}: {what}")

    def scalar(self, kind: TypeInfo, where: str) -> _Leaf:
        if kind.kind == "float" and kind.width in (16, 32, 64):
            return _Leaf("f", kind.width // 8)
        if kind.kind == "int" and kind.width in (8, 16, 32, 64):
            return _Leaf("i" if kind.signed else "u", kind.width // 8)
        if kind.kind == "pointer" and kind.size == 8:
            return _Leaf("u", 8)
        raise self.fail(where, f"a {kind.glsl} ({kind.kind}) has no host form in a block")

    def member(self, member: Member, kind: TypeInfo, where: str) -> _Node:
        """A member's node (of type ``kind``: the member's type, or an array's element)."""
        if kind.kind == "vector":
            assert kind.element is not None and kind.components is not None
            return _Vector(self.scalar(kind.element, where), kind.components)
        if kind.kind == "matrix":
            return self.matrix(member, kind, where)
        if kind.kind == "array":
            return self.array(member, kind, where)
        if kind.kind == "struct":
            return self.struct(kind, where)
        return self.scalar(kind, where)

    def matrix(self, member: Member, kind: TypeInfo, where: str) -> _Node:
        assert kind.element is not None and kind.columns is not None and kind.rows is not None
        if member.matrix_stride is None:
            raise self.fail(where, "a matrix without a MatrixStride")
        leaf = self.scalar(kind.element, where)
        vectors, components = (
            (kind.rows, kind.columns) if member.row_major else (kind.columns, kind.rows)
        )
        return _Array(self.step(_Vector(leaf, components), member.matrix_stride, where), vectors)

    def step(self, node: _Node, stride: int, where: str) -> _Node:
        size = _size(node)
        if stride == size:
            return node
        if stride < size:
            raise self.fail(where, f"a stride of {stride} bytes over {size}-byte elements")
        return _Padded(node, stride)

    def array(self, member: Member, kind: TypeInfo, where: str, skip: int = 0) -> _Node:
        """An array's node, its ``skip`` outermost dimensions left out (a runtime array's
        element: ``skip=1``)."""
        assert kind.element is not None
        node = self.member(member, kind.element, where)
        for dimension in reversed(kind.dimensions[skip:]):
            if dimension.stride is None:
                raise self.fail(where, "an array without an ArrayStride")
            if dimension.length is None:
                raise self.fail(where, "an array whose length cannot be worked out")
            node = _Array(self.step(node, dimension.stride, where), dimension.length)
        return node

    def struct(self, kind: TypeInfo, where: str) -> _Record:
        if kind.size is None:
            raise self.fail(where, f"struct {kind.glsl!r} has members without Offset or size")
        fields = []
        for name, member in zip(_names(kind.members), kind.members, strict=True):
            inner = f"{where}.{name}"
            assert member.offset is not None
            if member.type.kind == "runtime_array":
                raise self.fail(inner, "a runtime array inside a nested struct")
            fields.append((name, self.member(member, member.type, inner), member.offset))
        return _Record(kind.glsl, tuple(fields), kind.size)

    def block_record(self, count: int | None) -> _Record:
        """The block's record: the fixed part, and the tail with ``count`` elements."""
        block = self.block
        fields = []
        end = block.size
        for name, member in zip(_names(block.members), block.members, strict=True):
            if member.offset is None:
                raise self.fail(name, "a member without an Offset")
            if member.type.kind == "runtime_array":
                if count is None:
                    continue
                tail = runtime_tail(block)
                assert tail is not None
                element = self.array(member, member.type, name, skip=1)
                node: _Node = _Array(self.step(element, tail.stride, name), count)
                end = max(end, tail.buffer_size(count))
            else:
                node = self.member(member, member.type, name)
            fields.append((name, node, member.offset))
        return _Record(block.name or f"_{block.type_id}", tuple(fields), end)

    def tail_element(self) -> _Node | None:
        tail = runtime_tail(self.block)
        if tail is None:
            return None
        element = self.array(tail.member, tail.member.type, tail.name, skip=1)
        return self.step(element, tail.stride, tail.name)


def _count(count: object, caller: str) -> int | None:
    if count is None:
        return None
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ArgumentError(located(f"{caller}: count must be None or an int >= 0, not {count!r}"))
    return count


# -- numpy ----------------------------------------------------------------------------------


def _numpy(caller: str) -> Any:
    try:
        return importlib.import_module("numpy")  # optional: imported only here
    except ImportError:
        raise ReflectionError(f"{caller}: numpy is not installed (pip install numpy)") from None


def _dtype(np: Any, node: _Node) -> Any:
    if isinstance(node, _Leaf):
        return np.dtype(f"<{node.kind}{node.size}")
    if isinstance(node, _Vector):
        return np.dtype((_dtype(np, node.leaf), (node.count,)))
    if isinstance(node, _Padded):
        inner = _dtype(np, node.inner)
        return np.dtype(
            {"names": ["value"], "formats": [inner], "offsets": [0], "itemsize": node.size}
        )
    if isinstance(node, _Array):
        return np.dtype((_dtype(np, node.step), (node.length,)))
    return np.dtype(
        {
            "names": [name for name, _, _ in node.fields],
            "formats": [_dtype(np, inner) for _, inner, _ in node.fields],
            "offsets": [offset for _, _, offset in node.fields],
            "itemsize": node.size,
        }
    )


def block_dtype(block: BlockLike, count: int | None = None) -> Any:
    """A numpy structured dtype (``numpy.dtype``) with the bytes of ``block``.

    Its fields are the block's members at their offsets; ``itemsize`` is the block's declared
    size (:attr:`~spvbuild.reflection.records.BlockLayout.size`).  With ``count`` the block's
    runtime array is a field of ``count`` elements and ``itemsize`` covers them
    (:meth:`RuntimeTail.buffer_size`).  ReflectionError when numpy is missing or a member
    lacks a decoration the host type needs (an Offset, an ArrayStride, a MatrixStride).
    """
    made = _count(count, "block_dtype")
    found = _block(block, "block_dtype")
    record = _Describer(found).block_record(made)
    return _dtype(_numpy("block_dtype"), record)


def tail_dtype(block: BlockLike) -> Any:
    """The dtype of one element of ``block``'s runtime array (``itemsize`` its stride), or
    ``None`` when the block has none."""
    found = _block(block, "tail_dtype")
    element = _Describer(found).tail_element()
    return None if element is None else _dtype(_numpy("tail_dtype"), element)


# -- ctypes ---------------------------------------------------------------------------------

_CTYPES: dict[tuple[str, int], Any] = {
    ("f", 2): ctypes.c_uint16,  # float16 has no ctypes type: its bits
    ("f", 4): ctypes.c_float,
    ("f", 8): ctypes.c_double,
    ("i", 1): ctypes.c_int8,
    ("i", 2): ctypes.c_int16,
    ("i", 4): ctypes.c_int32,
    ("i", 8): ctypes.c_int64,
    ("u", 1): ctypes.c_uint8,
    ("u", 2): ctypes.c_uint16,
    ("u", 4): ctypes.c_uint32,
    ("u", 8): ctypes.c_uint64,
}


def _structure(name: str, fields: list[tuple[str, Any]], anonymous: tuple[str, ...] = ()) -> Any:
    namespace: dict[str, Any] = {"_pack_": 1, "_fields_": fields}
    if anonymous:
        namespace["_anonymous_"] = anonymous
    return type(name, (ctypes.Structure,), namespace)


def _overlap(name: str, members: list[tuple[str, Any, int]], start: int) -> Any:
    """A ``ctypes.Union`` of members that overlap, each in a Structure of its own after
    ``_padding_<name>`` bytes from ``start``; every level anonymous, so the members are
    reached as fields of the struct holding the union."""
    inner = []
    for field, made, offset in members:
        parts: list[tuple[str, Any]] = []
        if offset > start:
            parts.append((f"_padding_{field}", ctypes.c_ubyte * (offset - start)))
        parts.append((field, made))
        inner.append((f"_at_{field}", _structure(f"{name}_{field}", parts)))
    namespace = {"_pack_": 1, "_fields_": inner, "_anonymous_": tuple(n for n, _ in inner)}
    return type(f"{name}_overlap", (ctypes.Union,), namespace)


def _ctype(node: _Node, name: str) -> Any:
    if isinstance(node, _Leaf):
        return _CTYPES[node.kind, node.size]
    if isinstance(node, _Vector):
        return _ctype(node.leaf, name) * node.count
    if isinstance(node, _Padded):
        inner = _ctype(node.inner, name)
        padding = ctypes.c_ubyte * (node.size - ctypes.sizeof(inner))
        return _structure(f"{name}_step", [("value", inner), ("_padding", padding)])
    if isinstance(node, _Array):
        return _ctype(node.step, name) * node.length
    # Members in offset order, grouped where one starts before the one before it ends.
    groups: list[list[tuple[str, Any, int]]] = []
    end = 0
    for field, inner, offset in sorted(node.fields, key=lambda f: f[2]):
        made = _ctype(inner, field)
        if groups and offset < end:
            groups[-1].append((field, made, offset))
        else:
            groups.append([(field, made, offset)])
        end = max(end, offset + ctypes.sizeof(made))
    fields: list[tuple[str, Any]] = []
    anonymous: list[str] = []
    at = 0
    for index, group in enumerate(groups):
        start = group[0][2]
        if start > at:
            fields.append((f"_padding{index}", ctypes.c_ubyte * (start - at)))
        if len(group) == 1:
            field, made, _ = group[0]
        else:
            field, made = f"_overlap{index}", _overlap(f"{node.name}_{index}", group, start)
            anonymous.append(field)
        fields.append((field, made))
        at = start + ctypes.sizeof(made)
    if node.size > at:
        fields.append(("_padding", ctypes.c_ubyte * (node.size - at)))
    return _structure(node.name, fields, tuple(anonymous))


def block_ctypes(block: BlockLike, count: int | None = None) -> type[ctypes.Structure]:
    """A ``ctypes.Structure`` (``_pack_ = 1``, padding as explicit ``_padding*`` byte
    arrays) with the bytes of ``block``: as :func:`block_dtype`, ``sizeof`` the block's
    declared size, or covering ``count`` elements of its runtime array when given.

    Members whose bytes overlap (one placed by its Offset inside the one before it, most
    often in the padding after an array's last element) are held by an anonymous
    ``ctypes.Union`` (a field ``_overlap<n>``), each in a Structure of its own that starts
    where the first of them does: every member is still a field of the struct
    (``value.m1``), at its offset.  Assigning a whole such member writes all of its bytes,
    the padding the other member sits in included.

    ReflectionError where a member lacks a decoration.
    """
    made = _count(count, "block_ctypes")
    found = _block(block, "block_ctypes")
    structure: type[ctypes.Structure] = _ctype(_Describer(found).block_record(made), "")
    return structure


def tail_ctypes(block: BlockLike) -> Any:
    """The ``ctypes`` type of one element of ``block``'s runtime array (``sizeof`` its
    stride), or ``None`` when the block has none."""
    found = _block(block, "tail_ctypes")
    element = _Describer(found).tail_element()
    return None if element is None else _ctype(element, f"{found.name}_tail")


# -- WebGPU -----------------------------------------------------------------------------------


def _alignment(member: Member, kind: TypeInfo) -> int:
    """WGSL's AlignOf for a member of type ``kind`` (a matrix aligns as the vectors it is
    stored as)."""
    if kind.kind in ("array", "runtime_array") and kind.element is not None:
        return _alignment(member, kind.element)
    if kind.kind == "struct":
        return max((_alignment(m, m.type) for m in kind.members), default=1)
    component = (kind.width or 32) // 8
    if kind.kind == "vector":
        return component * (2 if kind.components == 2 else 4)
    if kind.kind == "matrix":
        count = kind.columns if member.row_major else kind.rows
        return component * (2 if count == 2 else 4)
    if kind.kind == "pointer":
        return 8
    return component


def min_binding_size(block: BlockLike) -> int:
    """The WebGPU minimum binding size of ``block`` (``minBindingSize`` of a buffer entry of
    ``createBindGroupLayout``; a buffer bound smaller is refused).

    The rule (WebGPU, "minimum buffer binding size", over WGSL's "Alignment and Size"):
    SizeOf the block's struct, a runtime array counted as one element: the end of its last
    member (the declared size, or the runtime array's offset plus one stride) rounded up to
    the struct's alignment, the largest of its members' WGSL alignments: a scalar its size,
    a 2-vector twice its component, a 3- or 4-vector four times it, a matrix as the vectors
    it is stored as (columns, rows when row-major), an array as its element, a struct as
    its largest member, a pointer 8.  A std140 block of 88 bytes holding a ``vec4`` needs 96.
    """
    found = _block(block, "min_binding_size")
    end = found.size
    tail = runtime_tail(found)
    if tail is not None:
        end = max(end, tail.buffer_size(1))
    align = max((_alignment(m, m.type) for m in found.members), default=1)
    return -(-end // align) * align
