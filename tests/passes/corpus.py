"""The real modules the passes are checked on: the GLSL corpus of ``tests/reflect``
(glslangValidator, no optimization) and the module catalogue, each with the environment
and spirv-val flags it validates under."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.modules.catalogue import CATALOGUE
from tests.reflect.glsl_corpus import shaders
from tests.reflect.modules import glsl_cases


@dataclass(frozen=True)
class RealModule:
    """A module, where it comes from, and how spirv-val takes it."""

    name: str
    words: tuple[int, ...]
    target_env: str
    flags: tuple[str, ...]


@cache
def real_modules(workdir: Path) -> tuple[RealModule, ...]:
    """The GLSL corpus compiled (empty without glslangValidator), then the catalogue."""
    found = []
    by_name = {s.name: s for s in shaders()}
    for case in glsl_cases(workdir):
        shader = by_name[case.name]
        words = tuple(array("I", case.binary))
        found.append(RealModule(f"glsl/{case.name}", words, shader.target_env, tuple(shader.spirv_val_flags)))
    for entry in CATALOGUE:
        if entry.xfail is None and entry.val_rejects is None:
            found.append(RealModule(f"catalogue/{entry.name}", tuple(entry.words()), entry.target_env, ()))
    return tuple(found)
