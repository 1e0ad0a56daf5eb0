"""Which copy of an engine runs: the plain-Python module or its mypyc-compiled twin.

An *engine* is a plain-Python module of spvbuild whose hot loops are worth compiling
(:data:`ENGINES`).  ``python -m spvbuild.accel.accelerate`` compiles a copy of it with mypyc
under the name ``spvbuild.accel._<engine>_mypyc`` and records the :func:`source_digest` of the
sources it was compiled from, both in it (``SOURCE_SHA256``) and beside it
(:func:`digest_file`).  :func:`load` gives the
compiled copy only while that digest still matches the sources on disk, so an edited
engine is never shadowed by a stale build; otherwise it gives the plain module.  Setting
the environment variable ``SPVBUILD_PURE_PYTHON`` to a non-empty value always selects the
plain module (to compare the two, or to debug with a Python debugger).

Each engine runs whichever form is current: both forms are the same source, so they give
the same results and raise the same documented exceptions (the read engine rebinds its
three word readers to ``struct``'s when interpreted, see :mod:`spvbuild.binary.read_engine`).
The test suite runs the assembler's and the reader's tests on each.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
from pathlib import Path
from types import ModuleType

__all__ = [
    "ENGINES",
    "PURE_ENV",
    "compiled",
    "compiled_name",
    "digest_file",
    "kind",
    "load",
    "source_digest",
    "source_files",
    "source_path",
]

ENGINES = ("asm_engine", "read_engine")
"""The modules ``python -m spvbuild.accel.accelerate`` compiles."""

PURE_ENV = "SPVBUILD_PURE_PYTHON"
"""Environment variable: when set to a non-empty value, :func:`load` ignores compiled copies."""

_MODULES = {"asm_engine": "text.asm_engine", "read_engine": "binary.read_engine"}
"""Each engine's module, under ``spvbuild``."""

_ROOT = Path(__file__).resolve().parent.parent  # the spvbuild package
_HERE = Path(__file__).resolve().parent  # where compiled copies and their digests live
_IMPORT = re.compile(r"^[ \t]*(?:from|import) (spvbuild(?:\.\w+)+)", re.MULTILINE)


def compiled_name(engine: str) -> str:
    """The module name of an engine's compiled copy (``_asm_engine_mypyc``)."""
    return f"_{engine}_mypyc"


def source_path(engine: str) -> Path:
    """The plain-Python source of ``engine`` (``spvbuild/text/asm_engine.py``)."""
    return _ROOT.joinpath(*_MODULES[engine].split(".")).with_suffix(".py")


def source_files(engine: str) -> list[Path]:
    """The engine's source and the spvbuild modules it imports directly, in a fixed order.

    Direct imports are the ``from spvbuild.x import ...`` / ``import spvbuild.x`` lines,
    at module level or inside functions.
    A compiled copy depends on the types of what it imports, so all of them take part
    in its digest.
    """
    path = source_path(engine)
    found = [path]
    for dotted in sorted(set(_IMPORT.findall(path.read_text(encoding="utf-8")))):
        parts = dotted.split(".")[1:]
        module = _ROOT.joinpath(*parts).with_suffix(".py")
        package = _ROOT.joinpath(*parts, "__init__.py")
        if module.is_file():
            found.append(module)
        elif package.is_file():
            found.append(package)
    return found


def source_digest(engine: str) -> str:
    """SHA-256 (hex) over the engine's :func:`source_files`, names and contents."""
    digest = hashlib.sha256()
    for path in source_files(engine):
        digest.update(path.relative_to(_ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def digest_file(engine: str) -> Path:
    """Where the build writes the digest of a compiled copy, read before importing it."""
    return _HERE / f"{compiled_name(engine)}.sha256"


def compiled(engine: str) -> ModuleType | None:
    """The engine's compiled copy if it is built and current, else None.

    The digest written beside the build is compared first, so a stale copy is never
    imported; the digest compiled into the copy is compared again after the import.
    """
    try:
        current = source_digest(engine)
        recorded = digest_file(engine).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):  # no build, or no plain sources to check
        return None
    if recorded != current:
        return None
    try:
        module = importlib.import_module(f"spvbuild.accel.{compiled_name(engine)}")
    except (ImportError, ValueError):
        # ImportError: no module for this interpreter, or librt (which comes with mypy)
        # uninstalled since the build; ValueError: librt's version no longer matches the
        # one the copy was compiled against.  Either way the plain code runs.
        return None
    return module if getattr(module, "SOURCE_SHA256", None) == current else None


def load(engine: str) -> ModuleType:
    """The copy of ``engine`` to run: the current compiled one if any, else the plain one."""
    if not os.environ.get(PURE_ENV):
        found = compiled(engine)
        if found is not None:
            return found
    return importlib.import_module(f"spvbuild.{_MODULES[engine]}")


def kind(module: ModuleType) -> str:
    """``"mypyc"`` for a compiled copy, ``"python"`` for a plain module."""
    return "mypyc" if module.__name__.endswith("_mypyc") else "python"
