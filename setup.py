"""Build hook of spvbuild: the engines are compiled with mypyc when a wheel is built.

Everything else about the package is in ``pyproject.toml``; this file only adds the three
compiled engines (``spvbuild.text.asm_engine``, ``spvbuild.binary.read_engine``,
``spvbuild.ir.layout_engine``) as
extension modules of the same names, beside their sources, so that an installed
spvbuild imports them compiled, and the reader's C allocation helpers
(``spvbuild.accel._records``, from ``src/spvbuild/accel/_records.c``, with the digest of
that source compiled in: see ``spvbuild.accel.records``), and the hot modules of the passes
(``spvbuild.accel.compiled_passes.MODULES``) into ``spvbuild/passes/_mypyc/`` with the
digest of their sources.  Nothing is compiled at run time.

* No mypyc, no C compiler, or a compiler error: the build goes on and the wheel is pure
  Python (with a warning), which works the same, more slowly.
* ``SPVBUILD_PURE_BUILD=1``: a pure-Python wheel on purpose.
* An editable install (a development checkout) is never compiled in place, where an
  edited source would be shadowed by a stale build: there ``python -m
  spvbuild.accel.accelerate`` (``make engines``) builds digest-checked copies instead.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINES = [
    "src/spvbuild/text/asm_engine.py",
    "src/spvbuild/binary/read_engine.py",
    "src/spvbuild/ir/layout_engine.py",
]
RECORDS = "src/spvbuild/accel/_records.c"
PURE_BUILD_ENV = "SPVBUILD_PURE_BUILD"


def _say(message: str) -> None:
    print(f"spvbuild build: {message}", file=sys.stderr, flush=True)


def _editable() -> bool:
    """True when setuptools builds an editable install (PEP 660) or a develop install."""
    return any(command in sys.argv for command in ("editable_wheel", "develop"))


def _records() -> Any:
    """The extension module of the reader's C helpers, with its source's digest."""
    from setuptools import Extension

    digest = hashlib.sha256((ROOT / RECORDS).read_bytes()).hexdigest()
    return Extension(
        "spvbuild.accel._records", [RECORDS], define_macros=[("SOURCE_SHA256", f'"{digest}"')]
    )


def _passes_modules(mypycify: Any) -> list[Any]:
    """The mypyc extension modules of the hot modules of the passes, named into their
    folder ``spvbuild/passes/_mypyc/`` (see ``spvbuild.accel.compiled_passes``: the
    package puts that folder first on its ``__path__`` while the digest of the sources,
    written beside them by :class:`OptionalBuildExt`, matches)."""
    facts = _passes_facts()
    paths = [f"src/spvbuild/passes/{name}.py" for name in facts["modules"]]
    extensions = mypycify(paths, opt_level=facts["opt_level"], group_name=facts["group"])
    for extension in extensions:  # spvbuild.passes.X -> spvbuild.passes._mypyc.X
        package, _, module = extension.name.rpartition(".")
        extension.name = f"{package}.{facts['folder']}.{module}"
    return list(extensions)


_FACTS = """
import json
from spvbuild.accel import compiled_passes as c
print(json.dumps({"modules": c.MODULES, "group": c.GROUP, "folder": c.FOLDER,
                  "digest_name": c.DIGEST_NAME, "digest": c.source_digest(),
                  "opt_level": c.OPT_LEVEL}))
"""


def _passes_facts() -> dict[str, Any]:
    """What the checkout's ``spvbuild.accel.compiled_passes`` says of the compiled passes
    (asked in a child: the package being built is not imported into the build)."""
    import json
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", _FACTS],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        check=True,
    )
    facts: dict[str, Any] = json.loads(done.stdout)
    return facts


def _ext_modules() -> list[Any]:
    """The mypyc extension modules of the engines and the C helpers, or none (a
    pure-Python build)."""
    if os.environ.get(PURE_BUILD_ENV):
        _say(f"{PURE_BUILD_ENV} is set: a pure-Python build")
        return []
    if _editable():
        return []  # see the module's docstring: make engines builds checked copies
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc (part of mypy) is not installed: a pure-Python build")
        return []
    previous = os.environ.get("MYPYPATH")
    os.environ["MYPYPATH"] = str(ROOT / "src")  # mypy reads the engines' imports from here
    try:
        return [*mypycify(ENGINES, opt_level="3"), _records(), *_passes_modules(mypycify)]
    except Exception as exc:  # noqa: BLE001 - any failure here means: build it pure
        _say(f"mypyc could not prepare the engines ({exc}): a pure-Python build")
        return []
    finally:
        if previous is None:
            os.environ.pop("MYPYPATH", None)
        else:
            os.environ["MYPYPATH"] = previous


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to a pure-Python build when compiling fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no C compiler, a compiler error, ...
            _say(f"compiling the engines failed ({exc}): a pure-Python build")
            self.extensions = []
            return
        if any(".passes." in extension.name for extension in self.extensions):
            # The digest of the sources the passes were compiled from, beside them (without
            # it the installed package runs the plain passes).
            try:
                facts = _passes_facts()
                target = Path(self.build_lib, "spvbuild", "passes", facts["folder"])
                target.mkdir(parents=True, exist_ok=True)
                digest = facts["digest"] + "\n"
                (target / facts["digest_name"]).write_text(digest, encoding="ascii")
            except Exception as exc:  # noqa: BLE001 - the wheel still works, plain passes
                _say(f"the compiled passes' digest was not written ({exc}): they will not run")

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
