"""Compile spvbuild's engines with mypyc: ``python -m spvbuild.accel.accelerate``.

Each engine of :data:`spvbuild.accel.engines.ENGINES` (the assembler's
:mod:`spvbuild.text.asm_engine`, the reader's loops, :mod:`spvbuild.binary.read_engine`, and the
module builder's writing loops, :mod:`spvbuild.ir.layout_engine`) is plain, fully typed Python.  This command compiles a copy of it with mypyc (which comes with mypy)
and a C compiler into ``spvbuild/accel/_<engine>_mypyc*.so`` beside the sources, with the digest
of the sources it was built from; :mod:`spvbuild.accel.engines` then hands out the compiled
copy for as long as the sources stay the same.  The compiled assembler takes about a
third less time, the reader about half on a big module.

It also builds the reader's C allocation helpers, ``spvbuild/accel/_records.c``, into
``spvbuild/accel/_records*.so`` with the digest of that source compiled in (see
:mod:`spvbuild.accel.records`): the compiled reader uses them.

An engine whose compiled copy is current is skipped (``--force`` rebuilds it);
``--check`` only reports.  Exit status: 0 when every engine has a current compiled copy,
1 when one could not be built (mypyc or a C compiler missing, or a build error: the
plain-Python engine keeps working), 2 for a usage error.  ``make venv`` runs it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from spvbuild.accel import compiled_passes, engines, records

__all__ = ["build", "build_passes", "build_records", "main"]

_PACKAGE = Path(__file__).resolve().parent
_TIMEOUT = 900  # seconds for one mypyc run (about 10 s is usual)


def _say(message: str) -> None:
    print(f"accelerate: {message}", flush=True)


def _child(arguments: list[str], tmp: str) -> subprocess.CompletedProcess[str]:
    """This interpreter run with ``arguments`` in ``tmp`` (mypy's cache there too), its
    output captured; TimeoutExpired after :data:`_TIMEOUT` seconds."""
    env = {**os.environ, "MYPY_CACHE_DIR": str(Path(tmp) / "mypy-cache")}
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=_TIMEOUT,
    )


def _failed(what: str, done: subprocess.CompletedProcess[str]) -> bool:
    """Say that ``what`` failed, with its exit status and the last lines it printed; False."""
    _say(f"{what} failed (exit {done.returncode}):")
    for line in (done.stdout + done.stderr).strip().splitlines()[-15:]:
        print(f"    {line}", flush=True)
    return False


def build(engine: str) -> bool:
    """Compile ``engine`` now; True on success (problems are printed, not raised)."""
    if importlib.util.find_spec("mypyc") is None:
        _say(f"{engine}: mypyc is not installed (it comes with mypy: pip install mypy)")
        return False
    started = time.perf_counter()
    try:
        name = engines.compiled_name(engine)
        digest = engines.source_digest(engine)
        source = engines.source_path(engine).read_text(encoding="utf-8")
        engines.digest_file(engine).unlink(missing_ok=True)  # stale until the new build is in
        return _compile(engine, name, digest, source, _PACKAGE / f"{name}.py", started)
    except OSError as exc:  # a read-only installation, a full disk, ...
        _say(f"{engine}: cannot read or write the sources in {_PACKAGE}: {exc}")
        return False
    except subprocess.TimeoutExpired:
        _say(f"{engine}: mypyc took more than {_TIMEOUT} s; stopped")
        return False


def _compile(engine: str, name: str, digest: str, source: str, copy: Path, started: float) -> bool:
    """Write the copy, run mypyc on it, move the built modules in, record the digest."""
    try:
        copy.write_text(
            f"{source}\n\nSOURCE_SHA256 = {digest!r}\n"
            '"""Digest of the sources this copy was compiled from (spvbuild.accel.engines)."""\n',
            encoding="utf-8",
        )
        with tempfile.TemporaryDirectory(prefix="spvbuild-mypyc-") as tmp:
            built_in = Path(tmp) / "spvbuild" / "accel"  # mypyc writes the built modules there
            built_in.mkdir(parents=True)
            done = _child(["-m", "mypyc", str(copy)], tmp)
            if done.returncode != 0:
                return _failed(f"{engine}: mypyc", done)
            built = sorted(built_in.glob(f"{name}*.so")) + sorted(built_in.glob(f"{name}*.pyd"))
            if not built:
                _say(f"{engine}: mypyc reported success but wrote no module")
                return False
            for old in list(_PACKAGE.glob(f"{name}.*.so")) + list(
                _PACKAGE.glob(f"{name}__mypyc.*.so")
            ):
                old.unlink()
            for path in built:
                shutil.move(str(path), _PACKAGE / path.name)
    finally:
        copy.unlink(missing_ok=True)
    engines.digest_file(engine).write_text(digest + "\n", encoding="ascii")
    _say(f"{engine}: compiled in {time.perf_counter() - started:.0f} s")
    return True


_BUILD_RECORDS = """
import sys
from setuptools import Distribution, Extension
source, digest, out, temp = sys.argv[1:]
extension = Extension(
    "spvbuild.accel._records", [source], define_macros=[("SOURCE_SHA256", '"%s"' % digest)]
)
dist = Distribution({"name": "spvbuild-records", "ext_modules": [extension]})
command = dist.get_command_obj("build_ext")
command.build_lib = out
command.build_temp = temp
command.ensure_finalized()
command.run()
"""


def build_records() -> bool:
    """Compile the reader's C helpers (``_records.c``) in place now; True on success
    (problems are printed, not raised)."""
    started = time.perf_counter()
    digest = records.source_digest()
    if digest is None:
        _say("records: no C source (_records.c) beside the package")
        return False
    try:
        with tempfile.TemporaryDirectory(prefix="spvbuild-records-") as tmp:
            out, temp = Path(tmp) / "out", Path(tmp) / "temp"
            source = str(records.source_path())
            done = _child(["-c", _BUILD_RECORDS, source, digest, str(out), str(temp)], tmp)
            built = sorted((out / "spvbuild" / "accel").glob("_records*"))
            if done.returncode != 0 or not built:
                return _failed("records: the C build", done)
            for old in _PACKAGE.glob("_records.*.so"):
                old.unlink()
            for path in built:
                shutil.move(str(path), _PACKAGE / path.name)
    except OSError as exc:
        _say(f"records: cannot write the build into {_PACKAGE}: {exc}")
        return False
    except subprocess.TimeoutExpired:
        _say(f"records: the C build took more than {_TIMEOUT} s; stopped")
        return False
    _say(f"records: compiled in {time.perf_counter() - started:.0f} s")
    return True


_BUILD_PASSES = """
import sys
from setuptools import Distribution
from mypyc.build import mypycify
paths, group, out, temp, level = sys.argv[1].split(","), *sys.argv[2:6]
extensions = mypycify(paths, opt_level=level, group_name=group, target_dir="c")
dist = Distribution({"name": "spvbuild-passes", "ext_modules": extensions})
command = dist.get_command_obj("build_ext")
command.build_lib = out
command.build_temp = temp
command.ensure_finalized()
command.run()
"""


def build_passes() -> bool:
    """Compile the hot modules of the passes (:data:`compiled_passes.MODULES`) into
    ``spvbuild/passes/_mypyc/`` now; True on success (problems are printed, not raised)."""
    if importlib.util.find_spec("mypyc") is None:
        _say("passes: mypyc is not installed (it comes with mypy: pip install mypy)")
        return False
    started = time.perf_counter()
    target = compiled_passes.folder()
    paths = [str(target.parent / f"{name}.py") for name in compiled_passes.MODULES]
    try:
        digest = compiled_passes.source_digest()
        compiled_passes.digest_file().unlink(missing_ok=True)  # stale until the new build
        with tempfile.TemporaryDirectory(prefix="spvbuild-passes-") as tmp:
            out, temp = Path(tmp) / "out", Path(tmp) / "temp"
            group, level = compiled_passes.GROUP, compiled_passes.OPT_LEVEL
            arguments = [",".join(paths), group, str(out), str(temp), level]
            done = _child(["-c", _BUILD_PASSES, *arguments], tmp)
            built = sorted((out / "spvbuild" / "passes").glob("*.so"))
            built += sorted((out / "spvbuild" / "passes").glob("*.pyd"))
            if done.returncode != 0 or not built:
                return _failed("passes: the mypyc build", done)
            if target.exists():
                shutil.rmtree(target)
            target.mkdir()
            for path in built:
                shutil.move(str(path), target / path.name)
        compiled_passes.digest_file().write_text(digest + "\n", encoding="ascii")
    except OSError as exc:
        _say(f"passes: cannot write the build into {target}: {exc}")
        return False
    except subprocess.TimeoutExpired:
        _say(f"passes: mypyc took more than {_TIMEOUT} s; stopped")
        return False
    _say(f"passes: {len(paths)} modules compiled in {time.perf_counter() - started:.0f} s")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: compile every engine whose compiled copy is missing or stale."""
    parser = argparse.ArgumentParser(
        prog="python -m spvbuild.accel.accelerate",
        description="Compile spvbuild's engines with mypyc (optional: plain Python works).",
    )
    parser.add_argument("--force", action="store_true", help="rebuild even if current")
    parser.add_argument("--check", action="store_true", help="only report; build nothing")
    args = parser.parse_args(argv)
    ok = True
    for engine in engines.ENGINES:
        if engines.compiled(engine) is not None and not args.force:
            _say(f"{engine}: compiled copy is current")
        elif args.check:
            _say(f"{engine}: no current compiled copy")
            ok = False
        elif not build(engine):
            _say(f"{engine}: not compiled; the plain-Python engine runs")
            ok = False
    if records.compiled() is not None and not args.force:
        _say("records: C helpers are current")
    elif args.check:
        _say("records: no current C helpers")
        ok = False
    elif not build_records():
        _say("records: not compiled; the reader makes its objects in Python")
        ok = False
    if compiled_passes.current() and not args.force:
        _say("passes: compiled modules are current")
    elif args.check:
        _say("passes: no current compiled modules")
        ok = False
    elif not build_passes():
        _say("passes: not compiled; the plain-Python passes run")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
