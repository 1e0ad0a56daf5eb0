"""The modules reflection is checked on, built once per test session: the GLSL corpus
compiled by glslangValidator, every catalogue module with an entry point, and every gallery
program's module.  Each is a :class:`Case`: a name, where it comes from, its words."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from array import array
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from spvbuild.reflection import reflect
from tests.modules.catalogue import CATALOGUE
from tests.reflect.glsl_corpus import Shader, compile_shader, glslang_path, shaders

GALLERY = Path(__file__).resolve().parent.parent.parent / "examples" / "gallery"


@dataclass(frozen=True)
class Case:
    """One module to reflect."""

    name: str
    origin: str  # "glsl", "catalogue" or "gallery"
    binary: bytes
    kernel: bool  # an OpenCL kernel (SPIRV-Cross refuses those)


CACHE = Path(__file__).resolve().parent.parent.parent / ".cache" / "glsl-corpus"
"""Compiled shaders kept between test runs (``make test`` runs the suite three times),
each under the digest of its source, stage, environment and glslangValidator's file."""


def compile_cached(shader: Shader, workdir: Path, tool: str) -> bytes:
    """``shader`` compiled, from the cache when it holds this very compilation."""
    tool_file = Path(tool).stat()
    digest = hashlib.sha256(
        "\0".join(
            (shader.source, shader.stage, shader.target_env, tool,
             str(tool_file.st_size), str(tool_file.st_mtime_ns))
        ).encode()
    ).hexdigest()[:32]
    kept = CACHE / f"{shader.name}-{digest}.spv"
    if kept.is_file():
        return kept.read_bytes()
    binary = compile_shader(shader, workdir / "glsl")
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(binary)
    partial.replace(kept)
    return binary


@cache
def glsl_cases(workdir: Path) -> tuple[Case, ...]:
    """The GLSL corpus compiled (in parallel, or from the cache); empty without
    glslangValidator."""
    tool = glslang_path()
    if tool is None:
        return ()
    corpus = shaders()
    binaries = compile_all(corpus, workdir, tool)
    return tuple(Case(s.name, "glsl", b, False) for s, b in zip(corpus, binaries, strict=True))


def compile_all(corpus: Sequence[Shader], workdir: Path, tool: str) -> list[bytes]:
    """Every shader of ``corpus`` compiled by ``tool`` (glslangValidator), in parallel,
    each from the cache when it holds that very compilation (:func:`compile_cached`)."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(lambda s: compile_cached(s, workdir, tool), corpus))


@cache
def catalogue_cases() -> tuple[Case, ...]:
    """Every catalogue module that has an entry point (built in its natural order)."""
    found = []
    for entry in CATALOGUE:
        if entry.xfail:
            continue
        binary = array("I", entry.words()).tobytes()
        if reflect(binary).entry_points:
            found.append(Case(entry.name, "catalogue", binary, _kernel(binary)))
    return tuple(found)


@cache
def gallery_cases(workdir: Path) -> tuple[Case, ...]:
    """Every gallery program's module (each program run with ``--out``)."""
    out = workdir / "gallery"
    out.mkdir(parents=True, exist_ok=True)
    found = []
    for program in sorted(p for p in GALLERY.glob("*.py") if p.stem != "common"):
        done = subprocess.run(
            [sys.executable, str(program), "--out", str(out)],
            capture_output=True,
            text=True,
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        binary = (out / f"{program.stem}.spv").read_bytes()
        found.append(Case(program.stem, "gallery", binary, _kernel(binary)))
    return tuple(found)


def _kernel(binary: bytes) -> bool:
    return any(e.execution_model == "Kernel" for e in reflect(binary).entry_points)
