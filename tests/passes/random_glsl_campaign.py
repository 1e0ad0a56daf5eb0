"""The offline differential of the main recipe over :mod:`tests.passes.random_glsl`'s
programs (not a test: it runs thousands of them)::

    python -m tests.passes.random_glsl_campaign FIRST COUNT [--out DIR] [--alone]

Each seed's program is compiled by glslangValidator (no optimization) and run on lavapipe
with seeded random inputs; then the main recipe's output (and with ``--alone`` each pass
of it run alone) must keep its result types and ids ids (not plain ints), pass spirv-val,
give the same buffers, and (the recipe's) hold no promotable ``Function`` variable.
Output that gives other buffers on lavapipe but the input's once spirv-cross has turned it
into GLSL and glslangValidator compiled that again is counted apart, as ``lavapipe``: a
shape of code the driver miscompiles (Mesa 22.3 has several; spirv-opt -O's output of
such programs is miscompiled too), not a wrong rewrite.  A failure of the recipe is localized: the shortest
prefix of the recipe that fails, and each pass alone and each ordered pair of its passes
that fails.  Each failing program is written to DIR (default ``/tmp/random_glsl``) as
``SEED.comp`` with a ``SEED.txt`` saying what failed; the last line printed counts the
programs run and the failures by kind and by pass.
"""

from __future__ import annotations

import argparse
import itertools
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from spvbuild.errors import PassError
from spvbuild.passes import Program, run
from spvbuild.passes.pipeline import RECIPES
from tests.conftest import spirv_tool
from tests.passes.driver import Dispatch, random_dispatch, run_dispatch
from tests.passes.driver_process import DriverProcess
from tests.passes.helpers import results_not_ids
from tests.passes.mem2reg_applies import promotable_variables
from tests.passes.random_glsl import program
from tests.reflect.glsl_corpus import Shader, compile_shader

ENV = "vulkan1.1"
MAIN = RECIPES["main"]


def validate(words: Sequence[int]) -> str:
    """spirv-val's complaint ('' where it accepts ``words``)."""
    tool = spirv_tool("spirv-val")
    assert tool is not None
    done = subprocess.run(
        [str(tool), "--target-env", ENV, "-"],
        input=struct.pack(f"<{len(words)}I", *words),
        capture_output=True,
    )
    return "" if done.returncode == 0 else (done.stderr + done.stdout).decode(errors="replace")


def through_spirv_cross(words: Sequence[int]) -> list[int] | None:
    """``words`` turned into GLSL by spirv-cross and compiled again by glslangValidator
    (None where either fails): the same program in the shape glslang gives every program,
    to tell a driver that miscompiles a shape of code from a wrong rewrite."""
    with tempfile.TemporaryDirectory() as folder:
        given = Path(folder) / "in.spv"
        given.write_bytes(struct.pack(f"<{len(words)}I", *words))
        done = subprocess.run(
            ["spirv-cross", "--version", "450", "--vulkan-semantics", str(given)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            return None
        try:
            binary = compile_shader(Shader("cross", "comp", done.stdout, ENV, ()), Path(folder))
        except RuntimeError:
            return None
    return list(struct.unpack(f"<{len(binary) // 4}I", binary))


class Checker:
    """Runs passes over one program and says what is wrong with their output."""

    def __init__(self, device: DriverProcess, words: list[int], name: str) -> None:
        self.device = device
        self.words = words
        self.dispatch: Dispatch = random_dispatch(words, name)
        self.before = run_dispatch(device, words, self.dispatch)

    def problem(self, passes: Sequence[str], *, mem2reg: bool = False) -> tuple[str, str]:
        """(kind, message) of what is wrong after ``passes``; ("", "") when nothing is,
        ("refused", reason) for a PassError."""
        try:
            program = run(Program.from_words(self.words), list(passes))
            after = program.to_words()
        except PassError as error:
            return "refused", str(error)
        except Exception:
            return "crash", traceback.format_exc(limit=-4)
        plain = results_not_ids(program)
        if plain:
            return "ids", f"result fields that are no ids: {plain[:3]}"
        complaint = validate(after)
        if complaint:
            return "invalid", complaint.strip().splitlines()[0]
        try:
            result = run_dispatch(self.device, after, self.dispatch)
        except AssertionError as crash:
            return "driver", str(crash)
        if result != self.before:
            crossed = through_spirv_cross(after)
            if crossed is not None and run_dispatch(self.device, crossed, self.dispatch) == (
                self.before
            ):
                return "lavapipe", "buffers differ, but not through spirv-cross and glslang"
            return "differs", "buffers differ"
        if mem2reg:
            left = promotable_variables(Program.from_words(after))
            if left:
                return "mem2reg", f"promotable left: {left}"
        return "", ""


def localize(checker: Checker) -> list[str]:
    """The shortest failing prefix of the main recipe, and the failing passes alone and
    ordered pairs."""
    found = []
    for end in range(1, len(MAIN) + 1):
        kind, message = checker.problem(MAIN[:end])
        if kind and kind != "refused":
            found.append(f"prefix ..{MAIN[end - 1]}: {kind}: {message[:300]}")
            break
    for first, second in itertools.combinations(MAIN, 2):
        kind, message = checker.problem([first, second])
        if kind and kind != "refused":
            found.append(f"pair {first},{second}: {kind}: {message[:200]}")
    return found


def compile_many(seeds: Sequence[int], workdir: Path) -> list[tuple[int, str, list[int] | str]]:
    def one(seed: int) -> tuple[int, str, list[int] | str]:
        source = program(seed)
        try:
            binary = compile_shader(Shader(f"r{seed}", "comp", source, ENV, ()), workdir)
        except RuntimeError as error:
            return seed, source, str(error)[:2000]
        return seed, source, list(struct.unpack(f"<{len(binary) // 4}I", binary))

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, seeds))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("first", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("--out", type=Path, default=Path("/tmp/random_glsl"))
    parser.add_argument("--alone", action="store_true", help="each pass alone too")
    parser.add_argument("--no-localize", action="store_true")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp())
    kinds: Counter[str] = Counter()
    ran = 0
    start = time.perf_counter()
    with DriverProcess() as device:
        for base in range(args.first, args.first + args.count, 20):
            seeds = range(base, min(base + 20, args.first + args.count))
            for seed, source, compiled in compile_many(seeds, workdir):
                ran += 1
                if isinstance(compiled, str):
                    kinds["glslang"] += 1
                    (args.out / f"{seed}.comp").write_text(source)
                    (args.out / f"{seed}.txt").write_text(f"glslang: {compiled}\n")
                    continue
                try:
                    checker = Checker(device, compiled, f"random_glsl_{seed}")
                except AssertionError as crash:
                    kinds["unoptimized run"] += 1
                    (args.out / f"{seed}.comp").write_text(source)
                    (args.out / f"{seed}.txt").write_text(f"unoptimized: {crash}\n")
                    continue
                report = []
                kind, message = checker.problem(MAIN, mem2reg=True)
                if kind:
                    kinds[f"main {kind}"] += 1
                    report.append(f"main: {kind}: {message[:2000]}")
                    if kind != "refused" and not args.no_localize:
                        report += localize(checker)
                if args.alone:
                    for name in dict.fromkeys(MAIN):
                        kind, message = checker.problem([name])
                        if kind:
                            kinds[f"{name} {kind}"] += 1
                            report.append(f"alone {name}: {kind}: {message[:300]}")
                if report:
                    (args.out / f"{seed}.comp").write_text(source)
                    (args.out / f"{seed}.txt").write_text("\n".join(report) + "\n")
                    print(seed, report[0][:200], *report[1:3], sep="\n  ", flush=True)
            print(
                f"-- {ran} programs, {time.perf_counter() - start:.0f} s, {dict(kinds)}", flush=True
            )
    print(f"ran {ran} programs; failures: {dict(kinds)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
