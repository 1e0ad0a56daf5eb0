"""A module's five header words: the magic number, the version, the generator, the bound and
the schema (the SPIR-V specification, section 2.3, "Physical Layout of a SPIR-V Module").

Plain ints and no imports, for every tool that writes or reads a header (the encoder, the
framing of a binary, linking on the words).
"""

from __future__ import annotations

__all__ = ["GENERATOR", "MAGIC", "header_words", "version_of"]

MAGIC = 0x07230203
"""Word 0 of every module, in the module's byte order."""

GENERATOR = 0x0000_0001
"""The header's generator word for everything spvbuild writes: the high 16 bits are a tool
id registered with Khronos (spvbuild has none yet: 0, which spirv-dis shows as
"Khronos"), the low 16 bits the tool's own version (1)."""


def header_words(
    version: tuple[int, int], bound: int, generator: int = GENERATOR, schema: int = 0
) -> list[int]:
    """The five header words of a module: magic, version, generator, bound, schema."""
    return [MAGIC, (version[0] << 16) | (version[1] << 8), generator, bound, schema]


def version_of(word: int) -> tuple[int, int]:
    """(major, minor) of a header's version word."""
    return ((word >> 16) & 0xFF, (word >> 8) & 0xFF)
