"""The modules reflection is checked on, built once per test session: the GLSL corpus
compiled by glslangValidator, every catalogue module with an entry point, and every gallery
program's module.  Each is a :class:`Case`: a name, where it comes from, its words."""

from __future__ import annotations

import os
import subprocess
import sys
from array import array
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from spvbuild.reflection import reflect
from tests.modules.catalogue import CATALOGUE
from tests.reflect.glsl_corpus import compile_shader, glslang_path, shaders

GALLERY = Path(__file__).resolve().parent.parent.parent / "examples" / "gallery"


@dataclass(frozen=True)
class Case:
    """One module to reflect."""

    name: str
    origin: str  # "glsl", "catalogue" or "gallery"
    binary: bytes
    kernel: bool  # an OpenCL kernel (SPIRV-Cross refuses those)


@cache
def glsl_cases(workdir: Path) -> tuple[Case, ...]:
    """The GLSL corpus compiled (in parallel); empty without glslangValidator."""
    if glslang_path() is None:
        return ()
    corpus = shaders()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        binaries = list(pool.map(lambda s: compile_shader(s, workdir / "glsl"), corpus))
    return tuple(Case(s.name, "glsl", b, False) for s, b in zip(corpus, binaries, strict=True))


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
