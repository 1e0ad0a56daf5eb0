"""glslangValidator's reflection (``-q --reflect-all-block-variables``) read as records, and
the packing each block of a GLSL source declares: the facts the host types of reflected
blocks are compared with (``tests/reflect/test_host.py``).

glslang prints its reflection in sections.  ``Uniform block reflection`` (and ``Buffer
block reflection`` where it lists storage blocks apart) holds one line per block, an array
of blocks one line per element (``Ssbo0[1]``); the line's place in the section is the
block's *index*.  ``Uniform reflection`` (and ``Buffer variable reflection``) holds one line
per variable of the blocks: its name (``Block.member[0].field``, no block prefix for an
anonymous block), its byte offset, the index of its block, and for an array its
``arrayStride`` (the innermost dimension's) and ``topLevelArrayStride`` (the block
member's).  Names may leave out an array's index (``m1_1``, ``Ssbo0.m0_0.f0``): element 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from tests.reflect.glsl_corpus import Shader


@dataclass(frozen=True)
class GlslangBlock:
    """One line of ``Uniform block reflection``: a block (an element of an array of
    blocks named by its index) and the size glslang gives it."""

    name: str  # the block's name, without an array index
    element: int | None  # the index of ``Ssbo0[1]``; None for a block that is no array
    size: int


@dataclass(frozen=True)
class GlslangVariable:
    """One line of ``Uniform reflection``: a variable inside a block."""

    name: str
    offset: int
    block: int  # the index of its block's line
    array_stride: int | None
    top_level_array_stride: int | None


@dataclass(frozen=True)
class GlslangReflection:
    """What glslang's ``-q`` says of one shader's blocks."""

    blocks: tuple[GlslangBlock, ...]  # in glslang's order: a variable's ``block`` indexes it
    variables: tuple[GlslangVariable, ...]

    def sizes(self) -> dict[str, set[int]]:
        """The size of each block by name (an array of blocks: one per element)."""
        found: dict[str, set[int]] = {}
        for block in self.blocks:
            found.setdefault(block.name, set()).add(block.size)
        return found


def _section(output: str, title: str) -> list[str]:
    """The lines of one section (none when it is empty: a blank line follows its title)."""
    parts = output.split(f"{title}:\n", 1)
    return ("\n" + parts[1]).split("\n\n", 1)[0].splitlines()[1:] if len(parts) == 2 else []


_LINE = re.compile(
    r"^(?P<name>\S+): offset (?P<offset>-?\d+), type \w+, size \d+, "
    r"index (?P<index>-?\d+),(?P<rest>.*)$"
)
_ELEMENT = re.compile(r"^(?P<name>.+?)\[(?P<element>\d+)\]$")


def _field(rest: str, key: str) -> int | None:
    found = re.search(rf"\b{key} (-?\d+)", rest)
    return int(found.group(1)) if found else None


@cache
def parse(output: str) -> GlslangReflection:
    """The blocks and block variables of glslang's ``-q`` output (kept per output: the
    tests of a session read each shader's once)."""
    blocks = []
    for title in ("Uniform block reflection", "Buffer block reflection"):
        for line in _section(output, title):
            found = _LINE.match(line)
            assert found, line
            name, element = found["name"], None
            indexed = _ELEMENT.match(name)
            if indexed:
                name, element = indexed["name"], int(indexed["element"])
            size = re.search(r"size (\d+)", line)
            assert size
            blocks.append(GlslangBlock(name, element, int(size.group(1))))
    variables = []
    for title in ("Uniform reflection", "Buffer variable reflection"):
        for line in _section(output, title):
            found = _LINE.match(line)
            assert found, line
            if int(found["offset"]) < 0 or int(found["index"]) < 0:
                continue  # an image, a sampler: no block's
            variables.append(
                GlslangVariable(
                    found["name"],
                    int(found["offset"]),
                    int(found["index"]),
                    _field(found["rest"], "arrayStride"),
                    _field(found["rest"], "topLevelArrayStride"),
                )
            )
    return GlslangReflection(tuple(blocks), tuple(variables))


_DECLARATION = re.compile(
    r"layout\s*\((?P<qualifiers>[^)]*)\)\s*(?:\w+\s+)*?(?P<storage>uniform|buffer)\s+(?P<name>\w+)\s*\{"
)
_HLSL_BUFFER = re.compile(r"\bcbuffer\s+(?P<name>\w+)")


@dataclass(frozen=True)
class Packing:
    """How a GLSL block is declared: its layout rule and whether its matrices are row-major
    by default (``layout(row_major)`` on the block)."""

    rule: str  # std140, std430 or scalar
    row_major: bool


def block_packings(shader: Shader) -> dict[str, Packing]:
    """Each block's packing by its name, as its declaration says, with GLSL's defaults
    under Vulkan (a uniform block std140, a storage or push-constant block std430); HLSL's
    ``cbuffer`` std140 (its other blocks, not listed: std430)."""
    if "hlsl" in shader.covers:
        return {m["name"]: Packing("std140", False) for m in _HLSL_BUFFER.finditer(shader.source)}
    found = {}
    for declared in _DECLARATION.finditer(shader.source):
        qualifiers = [q.split("=")[0].strip() for q in declared["qualifiers"].split(",")]
        rule = next((q for q in qualifiers if q in ("std140", "std430", "scalar")), None)
        if rule is None:
            buffer = declared["storage"] == "buffer" or "push_constant" in qualifiers
            rule = "std430" if buffer else "std140"
        found[declared["name"]] = Packing(rule, "row_major" in qualifiers)
    return found
