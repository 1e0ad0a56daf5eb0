"""The reader's two bulk allocations: in C where built, else the same in Python.

A typed read makes one :class:`~spvbuild.spirv.instruction.Instruction` (a tuple
subclass) per instruction and one :class:`~spvbuild.spirv.ids.Id` (an int subclass) per
result id; on a big module those allocations are most of the reader's time.  Python can
make either object only through a generic call (``tuple.__new__(Instruction, items)``
builds two argument tuples and a slice first; ``Id(n)`` passes through ``type.__call__``,
int's argument parser and ``__init__``), so ``spvbuild/accel/_records.c`` does the same
work with one allocation each:

* ``new_record(cls, items)`` is ``tuple.__new__(cls, items)`` (``items`` a tuple);
* ``new_ids(cls, count)`` is ``list(map(cls, range(count)))`` (``cls`` an int subclass
  without ``__new__`` of its own).

The objects are the same either way; only the time differs.  The C module is built next
to the mypyc engines and goes with them: :func:`for_engine` gives its functions to the
reader's compiled engine and the Python ones (:data:`PLAIN`) to the interpreted engine, so
the test suite, which runs the reader's tests on both forms, runs both here too.

Where it comes from, as for the engines (:mod:`spvbuild.accel.engines`): the wheel
compiles it as ``spvbuild.accel._records`` (``setup.py``); in a development checkout
``python -m spvbuild.accel.accelerate`` (``make engines``) builds it in place.  Each build
holds the SHA-256 of the C source it was made from (``SOURCE_SHA256``), and
:func:`compiled` uses a build only while that matches the source on disk (a wheel, which
ships no C source, has nothing to compare with).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from spvbuild.accel import engines

__all__ = ["PLAIN", "Records", "compiled", "for_engine", "source_digest", "source_path"]


class Records(NamedTuple):
    """The two allocation functions of one form.

    Fields:
        new_record: ``(cls, items) -> cls``: ``tuple.__new__(cls, items)``.
        new_ids: ``(cls, count) -> list``: ``list(map(cls, range(count)))``.
        kind: ``"c"`` (the built module) or ``"python"``.
    """

    new_record: Callable[[Any, tuple[Any, ...]], Any]
    new_ids: Callable[[type[int], int], list[Any]]
    kind: str


def _python_new_ids(cls: type[int], count: int) -> list[Any]:
    """``new_ids`` in Python."""
    return list(map(cls, range(count)))


PLAIN = Records(tuple.__new__, _python_new_ids, "python")
"""The Python form."""


def source_path() -> Path:
    """The C source, ``spvbuild/accel/_records.c`` (absent from a wheel)."""
    return Path(__file__).resolve().parent / "_records.c"


def source_digest() -> str | None:
    """SHA-256 (hex) of the C source, or None where it is not shipped."""
    try:
        data = source_path().read_bytes()
    except OSError:
        return None
    digest = engines.sha256()
    digest.update(data)
    return digest.hexdigest()


@cache
def _module() -> ModuleType | None:
    """The built C module if it imports and is current (see the module's docstring)."""
    try:
        module = importlib.import_module("spvbuild.accel._records")
    except ImportError:
        return None
    current = source_digest()
    if current is not None and getattr(module, "SOURCE_SHA256", None) != current:
        return None  # built from another version of the source
    return module


def compiled() -> Records | None:
    """The C form, or None where it is not built (or stale)."""
    module = _module()
    if module is None:
        return None
    return Records(module.new_record, module.new_ids, "c")


def for_engine(engine: ModuleType) -> Records:
    """The form that goes with a form of the read engine: the C one with the compiled
    engine (when built and ``SPVBUILD_PURE_PYTHON`` is not set), else :data:`PLAIN`."""
    if engines.kind(engine) != "mypyc" or os.environ.get(engines.PURE_ENV):
        return PLAIN
    return compiled() or PLAIN
