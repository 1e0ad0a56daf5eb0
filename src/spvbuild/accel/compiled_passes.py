"""Which form of the passes runs: the plain-Python modules of :mod:`spvbuild.passes`, or
the hot ones (:data:`MODULES`) compiled with mypyc.

The compiled modules keep their names (``spvbuild.passes.dead_code``, ...) and live in
one folder, :func:`folder` (``spvbuild/passes/_mypyc/``), with the digest of the sources
they were compiled from (:func:`digest_file`).  When :mod:`spvbuild.passes` is imported it
calls :func:`use`, which puts that folder first on the package's ``__path__`` if the
digest still matches the sources on disk: Python then imports a compiled module in place
of the source of the same name, and every module not compiled from the sources.  A stale
build (a source edited since), one for another interpreter, or the environment variable
``SPVBUILD_PURE_PYTHON`` set (:data:`spvbuild.accel.engines.PURE_ENV`) leaves the path as
it is: the plain modules run.

The folder comes from one of two places, as the engines' compiled forms do
(:mod:`spvbuild.accel.engines`):

* **the wheel**: building a wheel compiles :data:`MODULES` into it (``setup.py``);
* **a development checkout**: ``python -m spvbuild.accel.accelerate`` (``make engines``).

Both forms are the same source and give the same results and errors; the test suite runs
on the compiled form in the checkout and the compiled wheel, and on the plain form in the
pure wheel.  The compiled form takes about a third less time (the main recipe over the
GLSL corpus of ``tests/reflect``).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from spvbuild.accel.engines import PURE_ENV, sha256

__all__ = [
    "DIGEST_NAME",
    "FOLDER",
    "GROUP",
    "MODULES",
    "OPT_LEVEL",
    "digest_file",
    "folder",
    "kind",
    "source_digest",
    "source_files",
    "current",
    "use",
]

MODULES = (
    "block_merging",
    "cfg",
    "cfg_cleanup",
    "constant_values",
    "control_flow",
    "dead_branches",
    "dead_code",
    "declarations",
    "dedup",
    "effects",
    "empty_selections",
    "fold",
    "ids",
    "mem2reg",
    "program",
    "rewriting",
    "scalar_replacement",
    "unreachable",
    "write_only",
)
"""The modules of :mod:`spvbuild.passes` that are compiled: those the passes spend their
time in (measured with cProfile over the main recipe)."""

OPT_LEVEL = "1"
"""The C compiler's optimization level for them (mypyc's ``opt_level``): the main recipe
runs as fast as at 3 here (0.23 s over the GLSL corpus either way; 0.44 s at 0) and the
build takes about 30 s, not 40, twice in ``make test`` (the checkout, the wheel)."""

FOLDER = "_mypyc"
"""The folder, inside the ``spvbuild/passes`` package folder, of the compiled modules."""

GROUP = "spvbuild.passes._native"
"""mypyc's group name for :data:`MODULES`: their shared library is ``_native__mypyc``,
in :data:`FOLDER` too (imported through the package's ``__path__``)."""

_PACKAGE = Path(__file__).resolve().parent.parent / "passes"
_ROOT = _PACKAGE.parent  # the spvbuild package
_IMPORT = re.compile(r"^[ \t]*(?:from|import) (spvbuild(?:\.\w+)+)", re.MULTILINE)


def folder(package: Path = _PACKAGE) -> Path:
    """The folder of the compiled modules of the passes package at ``package``."""
    return package / FOLDER


DIGEST_NAME = "sources.sha256"
"""The file, in :data:`FOLDER`, of the digest of the sources a build compiled."""


def digest_file(package: Path = _PACKAGE) -> Path:
    """Where a build writes :func:`source_digest` of the sources it compiled."""
    return folder(package) / DIGEST_NAME


def source_files(package: Path = _PACKAGE) -> list[Path]:
    """The sources of :data:`MODULES` and the other spvbuild modules they import
    directly (whose types compiled code relies on), in a fixed order."""
    root = package.parent
    found = [package / f"{name}.py" for name in MODULES]
    imported: set[str] = set()
    for path in found:
        imported.update(_IMPORT.findall(path.read_text(encoding="utf-8")))
    for dotted in sorted(imported):
        parts = dotted.split(".")[1:]
        module = root.joinpath(*parts).with_suffix(".py")
        package_init = root.joinpath(*parts, "__init__.py")
        if module in found:
            continue
        if module.is_file():
            found.append(module)
        elif package_init.is_file():
            found.append(package_init)
    return found


def source_digest(package: Path = _PACKAGE) -> str:
    """SHA-256 (hex) over the interpreter's cache tag, :data:`OPT_LEVEL` and the names and
    contents of :func:`source_files`."""
    digest = sha256()
    digest.update(f"{sys.implementation.cache_tag}\0{OPT_LEVEL}\0".encode())
    root = package.parent
    for path in source_files(package):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def current(package: Path = _PACKAGE) -> bool:
    """True when the compiled folder of ``package`` was built from its sources as they
    are now (False: no build, a stale one, no sources to compare)."""
    try:
        recorded = digest_file(package).read_text(encoding="ascii").strip()
        return recorded == source_digest(package)
    except (OSError, UnicodeDecodeError):
        return False


def use(path: list[str], package: Path = _PACKAGE) -> None:
    """Put the compiled folder of ``package`` first on ``path`` (the passes package's
    ``__path__``) when it is :func:`current` and ``SPVBUILD_PURE_PYTHON`` is not set."""
    if os.environ.get(PURE_ENV):
        return
    if current(package) and str(folder(package)) not in path:
        path.insert(0, str(folder(package)))


def kind() -> str:
    """``"mypyc"`` when this process runs (or, before it imports them, will run) the
    compiled passes, else ``"python"``."""
    loaded = sys.modules.get(f"spvbuild.passes.{MODULES[0]}")
    if loaded is not None:
        return "python" if str(getattr(loaded, "__file__", "")).endswith(".py") else "mypyc"
    if os.environ.get(PURE_ENV) or not current():
        return "python"
    return "mypyc" if any(folder().glob(f"{MODULES[0]}.*")) else "python"
