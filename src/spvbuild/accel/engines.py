"""Which form of an engine runs: its plain-Python module or a mypyc-compiled one.

An *engine* is a plain-Python module of spvbuild whose hot loops are worth compiling
(:data:`ENGINES`: the assembler's ``spvbuild.text.asm_engine``, the reader's
``spvbuild.binary.read_engine`` and the module builder's ``spvbuild.ir.layout_engine``).  A compiled form comes from one of two places:

* **the wheel**: building a wheel (``pip install .``, ``python -m build``) compiles each
  engine with mypyc under its own name (``setup.py``), so an installed spvbuild imports
  the compiled module in place of the source beside it.  Nothing is compiled or written
  at run time.  A wheel built without mypyc or a C compiler, or with
  ``SPVBUILD_PURE_BUILD=1``, is pure Python;
* **a development checkout**: an editable install is never compiled in place (an edited
  source would then be shadowed by a stale build).  ``python -m spvbuild.accel.accelerate``
  (``make engines``) compiles a copy under the name ``spvbuild.accel._<engine>_mypyc``
  and records the :func:`source_digest` of the sources it was compiled from, both in it
  (``SOURCE_SHA256``) and beside it (:func:`digest_file`); :func:`compiled` gives that
  copy only while the digest still matches the sources on disk.

:func:`load` gives the compiled form when there is one, else the plain module; with the
environment variable ``SPVBUILD_PURE_PYTHON`` set to a non-empty value it always gives
the plain module (:func:`plain`: the source, even where the wheel's compiled module would
be imported), to compare the two or to debug with a Python debugger.  Both forms are the
same source, so they give the same results and raise the same documented exceptions (the
read engine rebinds its word readers when interpreted, see
:mod:`spvbuild.binary.read_engine`).  The test suite runs the assembler's and the reader's
tests on each.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Protocol

__all__ = [
    "ENGINES",
    "PURE_ENV",
    "RUNNING",
    "compiled",
    "compiled_form",
    "compiled_name",
    "digest_file",
    "kind",
    "load",
    "plain",
    "running",
    "sha256",
    "source_digest",
    "source_files",
    "source_path",
]

ENGINES = ("asm_engine", "read_engine", "layout_engine")
"""The modules ``python -m spvbuild.accel.accelerate`` compiles."""

PURE_ENV = "SPVBUILD_PURE_PYTHON"
"""Environment variable: when set to a non-empty value, :func:`load` ignores compiled copies."""

_MODULES = {
    "asm_engine": "text.asm_engine",
    "read_engine": "binary.read_engine",
    "layout_engine": "ir.layout_engine",
}
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
    digest = sha256()
    for path in source_files(engine):
        digest.update(path.relative_to(_ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class _Hash(Protocol):
    """What :func:`source_digest` asks of a hash."""

    def update(self, data: bytes, /) -> None: ...

    def hexdigest(self) -> str: ...


def sha256() -> _Hash:
    """A new SHA-256 hash: by Python's own module where it has one (``_sha2``,
    ``_sha256``), else by hashlib, whose OpenSSL library costs a process megabytes of
    memory for one digest of a few files."""
    for name in ("_sha2", "_sha256"):
        try:
            found: _Hash = importlib.import_module(name).sha256()
            return found
        except ImportError:
            continue
    import hashlib  # pragma: no cover - every CPython has one of the modules above

    return hashlib.sha256()  # pragma: no cover


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
        # ImportError: no module for this interpreter; ValueError: a mypyc runtime check
        # (e.g. of librt's version, where a copy uses it) failed.  The plain code runs.
        return None
    return module if getattr(module, "SOURCE_SHA256", None) == current else None


def load(engine: str) -> ModuleType:
    """The form of ``engine`` to run: a compiled one if there is one (a current development
    copy, else the wheel's), else the plain module; the plain module with
    ``SPVBUILD_PURE_PYTHON`` set."""
    if os.environ.get(PURE_ENV):
        return plain(engine)
    found = compiled(engine)
    if found is not None:
        return found
    return importlib.import_module(f"spvbuild.{_MODULES[engine]}")


RUNNING: dict[str, ModuleType] = {}
"""The form of each engine this process runs, by engine, as :func:`running` looked it up
(tests and benchmarks put the other form here to run it)."""


def running(engine: str) -> ModuleType:
    """The form of ``engine`` this process runs: :func:`load`'s answer on first use,
    kept in :data:`RUNNING`."""
    found = RUNNING.get(engine)
    if found is None:
        found = RUNNING[engine] = load(engine)
    return found


def compiled_form(engine: str) -> ModuleType | None:
    """A compiled form of ``engine`` (a current development copy, else the wheel's
    compiled module), or None where there is none."""
    found = compiled(engine)
    if found is not None:
        return found
    module = importlib.import_module(f"spvbuild.{_MODULES[engine]}")
    return module if kind(module) == "mypyc" else None


@cache
def plain(engine: str) -> ModuleType:
    """The plain-Python module of ``engine``: its source, interpreted, also where the
    wheel's compiled module is what ``import`` gives (then the source beside it is loaded
    under the name ``spvbuild.accel._<engine>_source``)."""
    module = importlib.import_module(f"spvbuild.{_MODULES[engine]}")
    if kind(module) == "python":
        return module
    name = f"spvbuild.accel._{engine}_source"
    spec = importlib.util.spec_from_file_location(name, source_path(engine))
    if spec is None or spec.loader is None:  # pragma: no cover - the source is shipped
        raise ImportError(f"no plain-Python source of {engine} at {source_path(engine)}")
    source = importlib.util.module_from_spec(spec)
    sys.modules[name] = source
    spec.loader.exec_module(source)
    return source


def kind(module: ModuleType) -> str:
    """``"mypyc"`` for a compiled module (an extension module: ``.so``/``.pyd``),
    ``"python"`` for a plain one."""
    file = getattr(module, "__file__", None) or ""
    return "mypyc" if file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "python"
