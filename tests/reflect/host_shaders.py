"""Compute shaders that read every scalar of their blocks back, for the lavapipe tests of
the host types (:mod:`spvbuild.reflection.host`), of rebinding and of ``run_compute``'s
uniform buffers and push constants.

A :class:`ReadBack` is GLSL with a ``BODY`` placeholder: compiled once with an empty body,
reflected, and every scalar of its blocks (runtime tails with :data:`TAIL_COUNT` elements)
gets a line ``result.v[k] = <bits of the scalar>;``; compiled again, it writes scalar ``k``
to word ``k`` of the output buffer.  :func:`pack` fills the blocks through their numpy
dtypes, scalar ``k`` with its own number, and :func:`expected` gives the words the shader
must write.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from spvbuild.reflection import BlockLayout, Member, Reflection, TypeInfo, block_dtype, reflect
from tests.reflect.glsl_corpus import Shader, compile_shader

TAIL_COUNT = 2
Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Scalar:
    """One scalar of a block: the GLSL expression that reads it, the path to it in the
    block's numpy record, and its kind (numpy's letter)."""

    glsl: str
    path: Path_
    kind: str
    width: int = 32  # bits (a PhysicalStorageBuffer pointer: 64, kind "p")


def _walk(
    member: Member, kind: TypeInfo, glsl: str, path: Path_, dims: int, dynamic: str
) -> Iterator[Scalar]:
    if kind.kind in ("array", "runtime_array") and dims < len(kind.dimensions):
        dimension = kind.dimensions[dims]
        length = dimension.length or TAIL_COUNT
        for index in range(length):
            at = f"{dynamic} + {index}" if dynamic and dimension.constant_id else str(index)
            yield from _walk(member, kind, f"{glsl}[{at}]", (*path, index), dims + 1, dynamic)
    elif kind.kind in ("array", "runtime_array"):
        assert kind.element is not None
        yield from _walk(member, kind.element, glsl, path, 0, dynamic)
    elif kind.kind == "struct":
        for inner in kind.members:
            yield from _walk(
                inner, inner.type, f"{glsl}.{inner.name}", (*path, inner.name), 0, dynamic
            )
    elif kind.kind == "matrix":
        assert kind.columns is not None and kind.rows is not None and kind.element is not None
        letter = "f" if kind.element.kind == "float" else "u"
        width = kind.element.width or 32
        for column, row in itertools.product(range(kind.columns), range(kind.rows)):
            at = (row, column) if member.row_major else (column, row)
            yield Scalar(f"{glsl}[{column}][{row}]", (*path, *at), letter, width)
    elif kind.kind == "vector":
        assert kind.components is not None and kind.element is not None
        for index in range(kind.components):
            yield from _walk(member, kind.element, f"{glsl}[{index}]", (*path, index), 0, dynamic)
    elif kind.kind == "pointer":
        yield Scalar(glsl, path, "p", 64)
    else:
        letter = "f" if kind.kind == "float" else ("i" if kind.signed else "u")
        yield Scalar(glsl, path, letter, kind.width or 32)


def scalars(block: BlockLayout, instance: str, dynamic: str = "") -> list[Scalar]:
    """Every scalar of ``block`` (declared as ``instance`` in GLSL), in member order; an
    index into an array a specialization constant sizes is ``dynamic + i`` where given (a
    value glslang cannot bound at compile time: it takes such an array as one element)."""
    found: list[Scalar] = []
    for member in block.members:
        found += _walk(
            member, member.type, f"{instance}.{member.name}", (member.name,), 0, dynamic
        )
    return found


def _bits(scalar: Scalar) -> str:
    if scalar.kind == "f":
        return f"floatBitsToUint({scalar.glsl})"
    return f"uint({scalar.glsl})"


def value(index: int, kind: str) -> Any:
    """Scalar ``index``'s own number."""
    if kind == "f":
        return np.float32(index + 0.5)
    if kind == "i":
        return np.int32(-(index + 1))
    return np.uint32(index + 1000)


@dataclass(frozen=True)
class ReadBack:
    """A compute shader reading its blocks back; ``blocks`` names each block instance
    (``params``, ``push``, ...) in the order their scalars are written out."""

    name: str
    source: str
    blocks: tuple[str, ...]
    env: str = "vulkan1.2"

    def compile(self, workdir: Path) -> tuple[bytes, Reflection, list[list[Scalar]]]:
        """The module, its reflection, and each block's scalars (in :attr:`blocks` order)."""
        first = compile_shader(self._shader("", "0"), workdir)
        found = reflect(first)
        groups = [scalars(_find(found, name), name) for name in self.blocks]
        lines = [
            f"result.v[{k}] = {_bits(s)};"
            for k, s in enumerate(itertools.chain.from_iterable(groups))
        ]
        binary = compile_shader(self._shader("\n    ".join(lines), "1"), workdir)
        return binary, reflect(binary), groups

    def _shader(self, body: str, suffix: str) -> Shader:
        source = self.source.replace("BODY", body)
        return Shader(f"{self.name}_{suffix}", "comp", source, self.env, ("ubo",))


def _find(found: Reflection, instance: str) -> BlockLayout:
    for binding in found.descriptor_bindings:
        if binding.name == instance and binding.block is not None:
            return binding.block
    for push in found.push_constants:
        if push.name == instance:
            return push.block
    raise KeyError(instance)


def block_of(found: Reflection, instance: str) -> BlockLayout:
    """The block declared as ``instance``."""
    return _find(found, instance)


def pack(block: BlockLayout, groups: list[list[Scalar]], which: int) -> bytes:
    """The bytes of ``block`` (group ``which`` of ``groups``) with every scalar set to its
    number (numbered across all groups), through :func:`spvbuild.reflection.block_dtype`."""
    has_tail = bool(block.members) and block.members[-1].type.kind == "runtime_array"
    dtype = block_dtype(block, count=TAIL_COUNT if has_tail else None)
    data = np.zeros(1, dtype)
    start = sum(len(g) for g in groups[:which])
    for offset, scalar in enumerate(groups[which]):
        _set(data[0], scalar.path, value(start + offset, scalar.kind))
    return data.tobytes()


def _unpadded(item: Any) -> Any:
    dtype = getattr(item, "dtype", None)
    if dtype is not None and dtype.names == ("value",):
        return item["value"]
    return item


def _set(record: Any, path: Path_, number: Any) -> None:
    target = record
    for step in path[:-1]:
        target = _unpadded(target[step])
    last = path[-1]
    item = target[last]
    if getattr(item, "dtype", None) is not None and item.dtype.names == ("value",):
        item["value"] = number
    else:
        target[last] = number


def expected(groups: list[list[Scalar]]) -> list[int]:
    """The words the shader writes: each scalar's number's bits."""
    words = []
    for index, scalar in enumerate(itertools.chain.from_iterable(groups)):
        words.append(int(np.asarray(value(index, scalar.kind)).view(np.uint32)))
    return words


def words_of(binary: bytes) -> list[int]:
    return [int(w) for w in np.frombuffer(binary, "<u4")]
