"""Compute shaders that read the GLSL corpus's blocks back on lavapipe, for the host types of
reflected blocks (:func:`spvbuild.reflection.block_dtype`).

For a corpus shader, :func:`read_back_shader` keeps the GLSL declarations its blocks need
(structs, constants, buffer-reference types and the blocks themselves, as written) in a
compute shader whose ``main`` copies every scalar of the blocks into one std430 ``uint``
array, in the order of :func:`tests.reflect.host_shaders.scalars`: a 64-bit scalar as two
words (low first), a 16- or 8-bit one widened (a signed one sign-extended).  The layout is
glslang's from the same declarations; the test checks that it is the corpus block's.
``bool`` members become ``uint`` (glslang stores a bool in a block as a 32-bit uint), a
block's instance is named ``rb<j>`` (an array of blocks or an anonymous block becomes one
named block), ``writeonly`` is dropped, and a push-constant block larger than the device
allows is declared as a storage buffer of the same packing.

:func:`random_record` fills a block's numpy record with random numbers (finite floats, no
NaN), and :func:`expected_words` gives the words the shader must write for it.
:data:`NO_GLSL` names the corpus shaders without GLSL (read back from their SPIR-V by
:mod:`tests.reflect.module_read_back`); :data:`NOT_READ_BACK` lists the corpus's blocks
neither read-back covers, with the reason (none now).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from spvbuild.reflection import BlockLayout
from tests.reflect.glsl_corpus import Shader
from tests.reflect.glslang_reflection import Packing
from tests.reflect.host_shaders import Scalar, _unpadded, scalars

OUT = (7, 30)
"""The (set, binding) of the output words (no corpus block is there)."""

_STAGE_EXTENSIONS = ("GL_EXT_ray_tracing", "GL_EXT_mesh_shader", "GL_NV_mesh_shader")
_BLOCK = re.compile(
    r"^(?:layout\s*\((?P<qualifiers>[^)]*)\)\s*)?(?P<modifiers>(?:\w+\s+)*?)"
    r"(?P<storage>uniform|buffer)\s+(?P<name>\w+)\s*\{(?P<body>.*)\}\s*(?P<instance>[^;]*)$",
    re.S,
)


@dataclass(frozen=True)
class Picked:
    """A corpus block to read back: its reflection, packing and whether it is the
    push-constant block."""

    block: BlockLayout
    packing: Packing
    push: bool


def _statements(declarations: str) -> list[str]:
    """The top-level statements of GLSL declarations (comments and preprocessor lines
    left out); a function definition is one statement, ending with its body."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", declarations, flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    found: list[str] = []
    depth = start = 0
    for at, char in enumerate(text):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            head = text[start:at].split("{", 1)[0].rstrip()
            if depth == 0 and head.endswith(")"):  # a function's body
                found.append(text[start : at + 1].strip())
                start = at + 1
        elif char == ";" and depth == 0:
            found.append(text[start:at].strip())
            start = at + 1
    return [s for s in found if s]


def _uint_bools(text: str) -> str:
    return re.sub(r"\bbvec(\d)\b", r"uvec\1", re.sub(r"\bbool\b", "uint", text))


def read_back_shader(
    shader: Shader, picked: dict[str, Picked], push_limit: int
) -> tuple[Shader, dict[str, str]]:
    """A compute shader reading back the blocks of ``shader`` named in ``picked`` (by block
    name), with ``BODY`` where its statements go, and each block's instance name."""
    head = re.split(r"\bvoid\s+main\s*\(", shader.source, maxsplit=1)[0]
    extensions = [
        line.strip()
        for line in head.splitlines()
        if line.strip().startswith("#extension")
        and not any(name in line for name in _STAGE_EXTENSIONS)
    ]
    kept: list[str] = []
    instances: dict[str, str] = {}
    for statement in _statements(head):
        block = _BLOCK.match(statement)
        qualifiers = (block["qualifiers"] or "") if block else ""
        if statement.startswith("struct "):
            kept.append(_uint_bools(statement))
        elif "buffer_reference" in qualifiers or (
            block is None and "buffer_reference" in statement
        ):
            kept.append(_uint_bools(statement))
        elif block is not None and block["name"] in picked:
            item = picked[block["name"]]
            instance = f"rb{len(instances)}"
            instances[block["name"]] = instance
            storage = block["storage"]
            listed = [q.strip() for q in qualifiers.split(",") if q.strip()]
            if item.push and item.block.size > push_limit:
                listed = [q for q in listed if q != "push_constant"]
                if item.packing.rule not in listed:
                    listed.append(item.packing.rule)
                listed.append(f"set = 6, binding = {len(instances)}")
                storage = "buffer"
            modifiers = re.sub(r"\bwriteonly\b", "", block["modifiers"])
            kept.append(
                f"layout({', '.join(listed)}) {modifiers}{storage} {block['name']}\n"
                f"{{{_uint_bools(block['body'])}}} {instance}"
            )
        elif re.match(r"^(layout\s*\(\s*constant_id[^)]*\)\s*)?const\b", statement):
            kept.append(statement)
    missing = set(picked) - set(instances)
    assert not missing, f"{shader.name}: no declaration found for {sorted(missing)}"
    lines = ["#version 460", *extensions]
    lines += ["#extension GL_EXT_shader_explicit_arithmetic_types : enable", ""]
    lines += ["layout(local_size_x = 1) in;", *(f"{s};" for s in kept)]
    lines += [
        f"layout(std430, set = {OUT[0]}, binding = {OUT[1]}) buffer ReadBackWords "
        "{ uint v[]; } rb_out;",
        "void main() {",
        "    uint rb_zero = gl_LocalInvocationIndex;  // 0, unknown to the compiler",
        "    BODY",
        "}",
        "",
    ]
    source = "\n".join(lines)
    return Shader(f"readback_{shader.name}", "comp", source, "vulkan1.2", ()), instances


def word_expressions(scalar: Scalar) -> list[str]:
    """The GLSL expressions of the words ``scalar`` is written as."""
    glsl = scalar.glsl
    if scalar.kind == "f" and scalar.width == 64:
        pair = f"unpackDouble2x32({glsl})"
        return [f"{pair}.x", f"{pair}.y"]
    if scalar.kind == "f" and scalar.width == 16:
        return [f"uint(float16BitsToUint16({glsl}))"]
    if scalar.kind == "f":
        return [f"floatBitsToUint({glsl})"]
    if scalar.width == 64:
        pair = f"unpackUint2x32(uint64_t({glsl}))"
        return [f"{pair}.x", f"{pair}.y"]
    return [f"uint({glsl})"]


def word_scalars(group: list[Scalar]) -> list[Scalar]:
    """The scalar each word of ``group`` comes from (a 64-bit one gives two words)."""
    return [scalar for scalar in group for _ in word_expressions(scalar)]


def body(groups: list[list[Scalar]]) -> str:
    """``main``'s statements: every scalar of ``groups`` in order, word by word."""
    lines = []
    at = 0
    for group in groups:
        for scalar in group:
            for expression in word_expressions(scalar):
                lines.append(f"rb_out.v[{at}] = {expression};")
                at += 1
    return "\n    ".join(lines)


def random_record(dtype: Any, rng: np.random.Generator) -> Any:
    """One record of ``dtype`` with every field random (floats finite, padding zero)."""
    data = np.zeros(1, dtype)
    _fill(data, rng)
    return data


def _fill(view: Any, rng: np.random.Generator) -> None:
    kind = view.dtype
    if kind.names is not None:
        for name in kind.names:
            _fill(view[name], rng)
    elif kind.kind == "f":
        view[...] = rng.normal(0.0, 1000.0 if kind.itemsize > 2 else 100.0, view.shape)
    else:
        info = np.iinfo(kind)
        view[...] = rng.integers(info.min, info.max, view.shape, dtype=kind, endpoint=True)


def expected_words(record: Any, group: list[Scalar]) -> list[int]:
    """The words the shader writes for ``group``, the scalars of the block held by
    ``record`` (a numpy record)."""
    words = []
    for scalar in group:
        target = record
        for step in scalar.path:
            target = _unpadded(target[step])
        value = np.asarray(target)
        if scalar.kind == "f":
            bits = int(value.view(f"<u{scalar.width // 8}"))
        else:
            bits = int(value) & ((1 << max(scalar.width, 32)) - 1)
        words.append(bits & 0xFFFFFFFF)
        if scalar.width == 64:
            words.append(bits >> 32)
    return words


def scalars_of(picked: Picked, instance: str) -> list[Scalar]:
    """The scalars of a picked block, as the read-back shader names them."""
    return scalars(picked.block, instance, dynamic="rb_zero")


# -- the blocks that are not read back here ------------------------------------------------

NO_GLSL = ("hlsl_vert_buffers", "hlsl_comp_images")
"""The corpus shaders declared in HLSL (glslang's HLSL front end): no GLSL declaration to
declare again, their 8 blocks are read back by a read-back module that spvbuild builds from
their SPIR-V (:mod:`tests.reflect.module_read_back`), as are the catalogue's and the
gallery's."""

NOT_READ_BACK: dict[tuple[str, str], str] = {}
"""The corpus's blocks (by shader and block name) that neither read-back covers, each with
the reason: every other block of the corpus is read back, from its GLSL or (those of
:data:`NO_GLSL`) from its SPIR-V."""
