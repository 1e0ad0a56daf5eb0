"""pykernel (examples/pykernel): Python functions compiled to SPIR-V and run on lavapipe.

Every kernel below is an ordinary Python function.  Each test compiles it, validates the
module with spirv-val (vulkan1.1), runs it on lavapipe for seeded random inputs and
compares the buffers with what the SAME function computes when Python runs it for
``i in range(n)``.  Float kernels are run in Python on :class:`F32` values (every + - * /
rounded to float32), so kernels made of those operations must match bit for bit; kernels
using transcendental functions are compared within float32 tolerance.
"""

from __future__ import annotations

import ast
import inspect
import math
import os
import random
import re
import runpy
import struct
import subprocess
import textwrap
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from examples.pykernel import (
    Array,
    Binding,
    CompileError,
    PushConstant,
    Scalar,
    compile_kernel,
    kernel,
    run,
    run_webgpu,
    uint,
)
from spvbuild import check as check_types_of
from spvbuild import disassemble
from spvbuild.errors import TargetWarning
from spvbuild.vulkan_runner import ComputeDevice
from spvbuild.webgpu.errors import WebGPUUnavailable

pytestmark = [pytest.mark.vulkan, pytest.mark.spirv_val]

ROOT = Path(__file__).resolve().parent.parent
Validate = Callable[[list[int], str], subprocess.CompletedProcess[str]]
Values = dict[str, Any]


def f32(value: float) -> float:
    """The nearest float32 to ``value``."""
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


class F32(float):
    """A float whose + - * / results are rounded to float32, as on the GPU.

    For float32 operands the exact result rounded to double and then to float32 is the
    correctly rounded float32 result (53 >= 2 * 24 + 2), so this is exact emulation.
    """

    def __new__(cls, value: float = 0.0) -> F32:
        return super().__new__(cls, f32(value))

    def __add__(self, other: float) -> F32:
        return F32(float(self) + float(other))

    def __radd__(self, other: float) -> F32:
        return F32(float(other) + float(self))

    def __sub__(self, other: float) -> F32:
        return F32(float(self) - float(other))

    def __rsub__(self, other: float) -> F32:
        return F32(float(other) - float(self))

    def __mul__(self, other: float) -> F32:
        return F32(float(self) * float(other))

    def __rmul__(self, other: float) -> F32:
        return F32(float(other) * float(self))

    def __truediv__(self, other: float) -> F32:
        return F32(float(self) / float(other))

    def __rtruediv__(self, other: float) -> F32:
        return F32(float(other) / float(self))

    def __neg__(self) -> F32:
        return F32(-float(self))


@pytest.fixture(scope="module", autouse=True)
def lavapipe() -> Iterator[None]:
    """Fail (not skip) early when lavapipe is missing; run() then reuses its device."""
    with ComputeDevice():
        yield


def check(
    validate: Validate,
    function: Callable[..., None],
    n: int,
    values: Values,
    tolerance: float | None = None,
) -> dict[str, list[Any]]:
    """Compile, validate, run on lavapipe, run in Python; compare every array.

    ``tolerance`` None: results must be equal (floats bit for bit); else relative and
    absolute tolerance for floats.
    """
    compiled = compile_kernel(function)
    done = validate(compiled.words, "vulkan1.1")
    assert done.returncode == 0, done.stderr + done.stdout
    assert check_types_of(compiled.words, target_env="vulkan1.1") == []  # (no false alarm)
    got = run(compiled, n, **values)

    reference = {k: list(v) if isinstance(v, list) else v for k, v in values.items()}
    names = list(inspect.signature(function).parameters)[1:]
    for i in range(n):
        function(i, *(reference[name] for name in names))
    for binding in compiled.bindings:
        want = reference[binding.name]
        have = got[binding.name]
        assert len(have) == len(want)
        if binding.element is not Scalar.FLOAT:
            assert have == want, binding.name
        elif tolerance is None:
            assert have == [f32(w) for w in want], binding.name
        else:
            for index, (h, w) in enumerate(zip(have, want, strict=True)):
                assert math.isclose(h, w, rel_tol=tolerance, abs_tol=tolerance), (index, h, w)
    return got


def floats(rng: random.Random, n: int, low: float, high: float) -> list[float]:
    return [F32(rng.uniform(low, high)) for _ in range(n)]


class Case(NamedTuple):
    """A kernel, its run's length and seeded inputs, and the float tolerance of
    :func:`check`: what a test below runs on lavapipe, and ``test_webgpu_runs_like_vulkan``
    runs through WebGPU too."""

    function: Callable[..., None]
    n: int
    values: Values
    tolerance: float | None = None


CASES: dict[str, Callable[[], Case]] = {}


def case(make: Callable[[], Case]) -> Callable[[], Case]:
    """Register a case maker under its kernel's name."""
    CASES[make.__name__.removesuffix("_case")] = make
    return make


# -- 1. saxpy -----------------------------------------------------------------------------------


@kernel
def saxpy(i: int, a: float, x: Array[float], y: Array[float]) -> None:
    y[i] = a * x[i] + y[i]


@case
def saxpy_case() -> Case:
    rng = random.Random(1)
    n = 1000  # not a multiple of the workgroup size
    values = {
        "a": F32(rng.uniform(-3, 3)),
        "x": floats(rng, n, -10, 10),
        "y": floats(rng, n, -10, 10),
    }
    return Case(saxpy, n, values)


def test_saxpy(spirv_val: Validate) -> None:
    check(spirv_val, *saxpy_case())  # bit-exact: a*x is not fused into an fma


# -- 2. vector add (uint index, a shorter dispatch than the buffers) ----------------------------------


def vector_add(i: uint, a: Array[float], b: Array[float], c: Array[float]) -> None:
    c[i] = a[i] + b[i]


@case
def vector_add_case() -> Case:
    rng = random.Random(2)
    n = 300
    values = {
        "a": floats(rng, n, -1e3, 1e3),
        "b": floats(rng, n, -1e3, 1e3),
        "c": [F32(0)] * (n + 5),
    }
    return Case(vector_add, n, values)


def test_vector_add(spirv_val: Validate) -> None:
    got = check(spirv_val, *vector_add_case())
    assert got["c"][300:] == [0.0] * 5  # invocations >= n do not run


# -- 3. clamp with if / elif / else ----------------------------------------------------------------


def clamp(
    i: int, lo: float, hi: float, xs: Array[float], out: Array[float], kind: Array[int]
) -> None:
    x = xs[i]
    if x < lo:
        out[i] = lo
        kind[i] = -1
    elif x > hi:
        out[i] = hi
        kind[i] = 1
    elif x == 0.0:
        out[i] = x
        kind[i] = 100
    else:
        out[i] = x * 2.0 - x
        kind[i] = 0


@case
def clamp_case() -> Case:
    rng = random.Random(3)
    n = 500
    xs = floats(rng, n - 3, -2, 2) + [F32(0.0), F32(-0.5), F32(0.5)]
    values = {"lo": F32(-0.5), "hi": F32(0.5), "xs": xs, "out": [F32(9)] * n, "kind": [7] * n}
    return Case(clamp, n, values)


def test_clamp_if_elif_else(spirv_val: Validate) -> None:
    got = check(spirv_val, *clamp_case())
    assert set(got["kind"]) == {-1, 0, 1, 100}


# -- 4. Collatz step counts: while loop, // and % -----------------------------------------------------


def collatz(i: int, starts: Array[int], steps: Array[int]) -> None:
    n = starts[i]
    count = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        count += 1
    steps[i] = count


@case
def collatz_case() -> Case:
    rng = random.Random(4)
    starts = [rng.randrange(1, 10_000) for _ in range(400)] + [1, 2, 27, 9663]
    return Case(collatz, len(starts), {"starts": starts, "steps": [0] * len(starts)})


def test_collatz_while_loop(spirv_val: Validate) -> None:
    got = check(spirv_val, *collatz_case())
    assert got["steps"][-2:] == [111, 184]


# -- 5. Horner's rule: for over a descending range --------------------------------------------------


def horner(i: int, coeffs: Array[float], xs: Array[float], out: Array[float]) -> None:
    acc = 0.0
    for k in range(len(coeffs) - 1, -1, -1):
        acc = acc * xs[i] + coeffs[k]
    out[i] = acc


@case
def horner_case() -> Case:
    rng = random.Random(5)
    n = 256
    values = {"coeffs": floats(rng, 7, -2, 2), "xs": floats(rng, n, -1.5, 1.5), "out": [F32(0)] * n}
    return Case(horner, n, values)


def test_horner_for_range(spirv_val: Validate) -> None:
    check(spirv_val, *horner_case())  # bit-exact: every step rounded like Python's F32


# -- 6. gcd / lcm through helper functions ------------------------------------------------------------


def gcd(a: int, b: int) -> int:
    while b != 0:
        a, b = b, a % b
    return abs(a)


def lcm(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return abs(a // gcd(a, b) * b)


def gcd_lcm(i: int, xs: Array[int], ys: Array[int], g: Array[int], m: Array[int]) -> None:
    g[i] = gcd(xs[i], ys[i])
    m[i] = lcm(xs[i], ys[i])


@case
def gcd_lcm_case() -> Case:
    rng = random.Random(6)
    n = 500
    xs = [rng.randrange(-3000, 3000) for _ in range(n)]
    ys = [rng.randrange(-3000, 3000) for _ in range(n - 1)] + [0]
    return Case(gcd_lcm, n, {"xs": xs, "ys": ys, "g": [0] * n, "m": [0] * n})


def test_gcd_helper_functions(spirv_val: Validate) -> None:
    compiled = compile_kernel(gcd_lcm)
    assert set(compiled.helpers) == {"gcd", "lcm"}
    check(spirv_val, *gcd_lcm_case())


# -- 7. per-element prefix sums -----------------------------------------------------------------------


def prefix_sums(
    i: int, stride: int, xs: Array[float], counts: Array[int], sums: Array[float], odd: Array[int]
) -> None:
    total = 0.0
    odds = 0
    for k in range(i + 1):
        total += xs[k]
        if counts[k] % 2 == 1:
            odds += counts[k]
    sums[i] = total
    for k in range(i, -1, -stride):  # a step known only at run time
        odds += 1000 * counts[k]
    odd[i] = odds


@case
def prefix_sums_case() -> Case:
    rng = random.Random(7)
    n = 200
    values = {
        "stride": 3,
        "xs": floats(rng, n, -1, 1),
        "counts": [rng.randrange(-50, 50) for _ in range(n)],
        "sums": [F32(0)] * n,
        "odd": [0] * n,
    }
    return Case(prefix_sums, n, values)


def test_prefix_sum_loop(spirv_val: Validate) -> None:
    check(spirv_val, *prefix_sums_case())


# -- 8. math builtins through GLSL.std.450 ---------------------------------------------------------------


def transcendental(i: int, xs: Array[float], out: Array[float], whole: Array[int]) -> None:
    x = xs[i]
    y = math.sqrt(x) * math.sin(x) + math.exp(-x) + math.cos(x) ** 2
    z = math.log(x) + math.pow(x, 1.5) + math.atan2(x, 1.0 + x) + math.log2(x)
    w = max(abs(math.tanh(x - 1.5)), 0.25) + min(x, 2.0, 1.0 + x) + math.fabs(-x) * math.pi
    out[i] = y + z + w / math.log(x + 2.0, 10.0)
    whole[i] = math.floor(x * 3.0) + math.ceil(-x) + round(x * 7.0)


@case
def transcendental_case() -> Case:
    rng = random.Random(8)
    n = 300
    xs = floats(rng, n, 0.1, 3.0)
    values = {"xs": xs, "out": [F32(0)] * n, "whole": [0] * n}
    return Case(transcendental, n, values, tolerance=2e-5)


def test_math_builtins(spirv_val: Validate) -> None:
    check(spirv_val, *transcendental_case())


# -- 9. boolean logic: and / or / not, short-circuits, chained comparisons --------------------------


FALLBACK = 7  # a module constant, visible to kernels


def logic(i: int, n: int, xs: Array[int], out: Array[int]) -> None:
    x = xs[i]
    j = i + 1
    rising = j < n and xs[j] > x  # xs[n] must not be read
    neither = not (x % 3 == 0 or x % 5 == 0)
    small = 0 < x < 50 and (x != 0 and 100 // x > 3)  # no division by zero
    fallback = x or FALLBACK  # Python's value semantics: x if x else 7
    ratio = x and 1000 // x  # branches (OpPhi): 1000 // 0 is never evaluated
    both = is_prime(x) and not is_prime(x + 2)
    flag = (x > 10) ^ (x % 2 == 0) | (x == 3)
    score = int(rising) + 2 * neither + 4 * small + 8 * int(both) + 16 * int(flag)
    out[i] = score + 100 * fallback + 100_000 * ratio


def is_prime(n: int) -> bool:  # defined after its caller, as Python allows
    if n < 2:
        return False
    k = 2
    while k * k <= n:
        if n % k == 0:
            return False
        k += 1
    return True


@case
def logic_case() -> Case:
    rng = random.Random(9)
    xs = [rng.randrange(-20, 120) for _ in range(400)] + [0, 0, 3, 97]
    return Case(logic, len(xs), {"n": len(xs), "xs": xs, "out": [0] * len(xs)})


def test_boolean_logic(spirv_val: Validate) -> None:
    got = check(spirv_val, *logic_case())
    assert len(set(got["out"])) > 50


# -- 10. int <-> float conversions and Python's division rules ---------------------------------------------


def conversions(
    i: int, xs: Array[float], ks: Array[int], ints: Array[int], fs: Array[float]
) -> None:
    x = xs[i]
    k = ks[i]
    base = 8 * i
    ints[base] = int(x)  # truncates towards zero
    ints[base + 1] = k // 7  # floors
    ints[base + 2] = k % 7  # sign of the divisor
    ints[base + 3] = k // -3 + k % -3
    ints[base + 4] = round(x)  # half to even
    ints[base + 5] = int(uint(k) >> 28)  # two's complement bits, logical shift
    ints[base + 6] = int(float(k) * 0.5) + int(True) - (k > 0)
    ints[base + 7] = 2**10 + k**2 - (-k) ** 3 // 1000
    fs[4 * i] = k / 4  # true division of ints gives a float
    fs[4 * i + 1] = x // 0.5 + x % 0.5
    fs[4 * i + 2] = float(k) + x
    fs[4 * i + 3] = (x + k) / 3


@case
def conversions_case() -> Case:
    rng = random.Random(10)
    n = 300
    xs = [F32(rng.choice([-1, 1]) * rng.randrange(0, 4000) / 8) for _ in range(n)]
    ks = [rng.randrange(-1000, 1000) for _ in range(n)]
    values = {"xs": xs, "ks": ks, "ints": [0] * 8 * n, "fs": [F32(0)] * 4 * n}
    return Case(conversions, n, values, tolerance=1e-6)


def test_int_float_conversions(spirv_val: Validate) -> None:
    check(spirv_val, *conversions_case())


# -- 11. early exits: break, continue, return from the kernel -----------------------------------------


def find_first(
    i: int, needles: Array[int], hay: Array[int], where: Array[int], seen: Array[int]
) -> None:
    if i >= len(where):
        return
    found = -1
    skipped = 0
    for k in range(len(hay)):
        if hay[k] < 0:
            skipped += 1
            continue
        if hay[k] == needles[i]:
            found = k
            break
    where[i] = found
    k = 0
    while k < len(hay) and hay[k] != needles[i]:  # short-circuit in a loop condition
        k += 1
    seen[i] = k * 1000 + skipped


@case
def find_first_case() -> Case:
    rng = random.Random(11)
    hay = [rng.randrange(-10, 60) for _ in range(200)]
    needles = [rng.randrange(0, 80) for _ in range(150)]
    values = {"needles": needles, "hay": hay, "where": [0] * 150, "seen": [0] * 150}
    return Case(find_first, 150, values)


def test_early_exit_break_continue(spirv_val: Validate) -> None:
    got = check(spirv_val, *find_first_case())
    assert -1 in got["where"] and max(got["where"]) > 0


# -- 12. uint hashing with exact 32-bit masks ----------------------------------------------------------------


def xorshift(i: int, seeds: Array[uint], out: Array[uint]) -> None:
    h = seeds[i]
    for _ in range(3):
        h ^= (h << 13) & 0xFFFFFFFF
        h ^= h >> 17
        h ^= (h << 5) & 0xFFFFFFFF
    out[i] = h % 1000003 + (h & 0xFF) * (h >> 24) % 7 + (1 if h & 1 else 2) - ~h + ~h


@case
def xorshift_case() -> Case:
    rng = random.Random(12)
    seeds = [uint(rng.getrandbits(32)) for _ in range(256)]
    return Case(xorshift, 256, {"seeds": seeds, "out": [0] * 256})


def test_uint_xorshift(spirv_val: Validate) -> None:
    check(spirv_val, *xorshift_case())


# -- 13. helpers that return from inside loops, conditional expressions, negative indices ---------------


def escape(x: int) -> int:
    while True:
        if x > 100:
            return x
        x = x * 2 + 1


def neighbours(i: int, xs: Array[int], out: Array[int]) -> None:
    left = xs[i - 1]  # xs[-1] is the last element, as in Python
    right = xs[(i + 1) % len(xs)]
    out[i] = escape(abs(left)) if left % 2 == 0 else -escape(right) if right > 0 else left * right


@case
def neighbours_case() -> Case:
    rng = random.Random(13)
    xs = [rng.randrange(-50, 50) for _ in range(100)]
    return Case(neighbours, 100, {"xs": xs, "out": [0] * 100})


def test_helpers_ternary_negative_index(spirv_val: Validate) -> None:
    check(spirv_val, *neighbours_case())


# -- the same kernels through WebGPU ---------------------------------------------------------------


@pytest.mark.parametrize("name", list(CASES))
def test_webgpu_runs_like_vulkan(name: str, spirv_val: Validate) -> None:
    """Each kernel above built with ``target_env="webgpu"`` and an entry point ``main``:
    spirv-val takes it, naga reads it (``create_shader_module``, in the WebGPU runner) and
    it gives the Vulkan runner's numbers for the same inputs; floats decorated
    NoContraction are warned about, as naga drops the decoration."""
    function, n, values, _ = CASES[name]()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = compile_kernel(function, target_env="webgpu", entry_point="main")
    contraction = [w for w in caught if issubclass(w.category, TargetWarning)]
    assert all("NoContraction" in str(w.message) for w in contraction)
    assert bool(contraction) == (re.search(r"OpDecorate %\w+ NoContraction",
                                           disassemble(compiled.words)) is not None)
    assert re.search(r'OpEntryPoint GLCompute %\w+ "main"', disassemble(compiled.words))
    done = spirv_val(compiled.words, "vulkan1.1")
    assert done.returncode == 0, done.stderr + done.stdout
    try:
        through_webgpu = run_webgpu(compiled, n, **values)
    except WebGPUUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{exc} (CI=true: WebGPU tests must run)")
        pytest.skip(str(exc))
    assert through_webgpu == run(compiled, n, **values)


# -- the compiled module ------------------------------------------------------------------------------------


def statement_lines(function: Callable[..., Any]) -> set[int]:
    """The line of every statement in ``function``'s body (its file's numbering)."""
    lines, start = inspect.getsourcelines(function)
    definition = ast.parse(textwrap.dedent("".join(lines))).body[0]
    assert isinstance(definition, ast.FunctionDef)
    found = {node.lineno + start - 1 for node in ast.walk(definition) if isinstance(node, ast.stmt)}
    return found - {definition.lineno + start - 1}  # not the def line itself


def test_layout_and_debug_lines(spirv_dis: Callable[[list[int]], str]) -> None:
    compiled = compile_kernel(clamp)
    assert compiled.name == "clamp" and compiled.index == ("i", Scalar.INT)
    assert compiled.bindings == (
        Binding("xs", 0, Scalar.FLOAT),
        Binding("out", 1, Scalar.FLOAT),
        Binding("kind", 2, Scalar.INT),
    )
    assert compiled.push_constants == (
        PushConstant("lo", 4, Scalar.FLOAT),
        PushConstant("hi", 8, Scalar.FLOAT),
    )
    assert compiled.push_constant_size == 12 and compiled.filename == __file__
    assert compiled.parameters == ("xs", "out", "kind", "lo", "hi")

    compiled = compile_kernel(gcd_lcm, optimize=False)  # as generated, before the passes
    assert compiled.helpers == ("gcd", "lcm")  # source order
    text = spirv_dis(compiled.words)
    file_id = text.split(f' = OpString "{__file__}"')[0].split()[-1]
    emitted = {
        int(line.split()[2])
        for line in text.splitlines()
        if line.strip().startswith(f"OpLine {file_id} ")
    }
    for function in (gcd_lcm, gcd, lcm):  # every statement of the kernel and its helpers
        assert statement_lines(function) <= emitted, function.__name__
    assert f"OpSource Unknown 0 {file_id}" in text
    assert "OpEntryPoint GLCompute" in text and '"gcd_lcm"' in text
    assert text.count("OpFunctionCall") == 3 and text.count("OpLoopMerge") == 1


def test_short_circuits_branch_only_when_needed(spirv_dis: Callable[[list[int]], str]) -> None:
    text = spirv_dis(compile_kernel(logic, optimize=False).words)
    # rising, both halves of small, ratio and both branch; neither and flag are eager
    assert text.count("OpPhi") == 5
    assert "OpLogicalOr" in text and "OpSelect" in text
    assert "OpSMod" not in text  # see README.md: lavapipe gets OpSMod wrong


def test_readme_example(tmp_path: Path) -> None:
    readme = (ROOT / "examples" / "pykernel" / "README.md").read_text()
    example = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(example) == 1
    script = tmp_path / "example.py"
    script.write_text(example[0])
    runpy.run_path(str(script))  # its own assert checks the result


def test_run_arguments_are_checked() -> None:
    compiled = compile_kernel(saxpy)
    with pytest.raises(TypeError, match="missing y; unknown z"):
        run(compiled, 1, a=1.0, x=[1.0], z=[1.0])
    with pytest.raises(ValueError, match="x must be a non-empty sequence"):
        run(compiled, 1, a=1.0, x=[], y=[1.0])
    with pytest.raises(TypeError, match="a is a float scalar"):
        run(compiled, 1, a=[1.0], x=[1.0], y=[1.0])


def test_compile_from_source_text(spirv_val: Validate) -> None:
    source = """
        from examples.pykernel import Array

        def double(i: int, xs: Array[int]) -> None:
            xs[i] *= 2

        def unused(a):  # only what the kernel calls is compiled
            return [a]
    """
    compiled = compile_kernel(source, "double", filename="double.py")
    assert spirv_val(compiled.words, "vulkan1.1").returncode == 0
    assert run(compiled, 3, xs=[1, -2, 3, 4])["xs"] == [2, -4, 6, 4]


# -- compile errors --------------------------------------------------------------------------------------------

HEAD = "def k(i: int, x: Array[float], n: Array[int]) -> None:\n"

ERRORS = [
    ("    y = [v * 2 for v in range(3)]\n", 2, 9, "unsupported syntax: list comprehension"),
    (
        "    k = 1\n    k = x[i]\n",
        3,
        9,
        "type mismatch: cannot assign float to 'k' (int); convert explicitly with int(...) "
        "('k' is int since line 2)",
    ),
    ("    k = 0\n    k += 0.5\n", 3, 5, "type mismatch: 'k += 0.5' computes a float"),
    ("    x[i] = z\n    z = 2.0\n", 2, 12, "'z' is used before it is assigned"),
    ("    u = uint(i)\n    u = -1\n", 3, 9, "integer literal -1 does not fit uint"),
    ("    x[i] = v(1)\n\ndef v(a: int) -> None:\n    pass\n", 2, 12, "v() returns nothing"),
    ("    x[i] = k(i, x, n)\n", 2, 12, "a kernel cannot be called"),
    ("    u = uint(i)\n    n[i] = u + i\n", 3, 12, "mixes int and uint"),
    ("    x[i] = y0\n", 2, 12, "name 'y0' is not defined"),
    ("    x[i] = 'a'\n", 2, 12, "unsupported constant: string 'a'"),
    ("    try:\n        pass\n    except Exception:\n        pass\n", 2, 5, "try statement"),
    ("    if i > 0:\n        break\n", 3, 9, "'break' outside a loop"),
    ("    while i:\n        pass\n    else:\n        pass\n", 5, 9, "while ... else"),
    ("    x[i] = f(x=1.0)\n", 2, 14, "keyword arguments are not supported"),
    ("    x[i] = float(i is 0)\n", 2, 18, "unsupported comparison 'Is'"),
    ("    x[i] = math.gamma(1.0)\n", 2, 12, "unsupported function math.gamma()"),
    ("    for k in x:\n        pass\n", 2, 14, "for loops must iterate over range("),
    ("    x[i] = len(x) + x\n", 2, 21, "array 'x' used as a value"),
    ("    n[i] = 0xFFFFFFFF & i\n", 2, 12, "integer literal 4294967295 does not fit int"),
    ("    x[i] = g(1)\n\ndef g(a: int) -> int:\n    return g(a)\n", 5, 12, "recursion"),
    (
        "    x[i] = h(1)\n\ndef h(a: int) -> int:\n    if a:\n        return 1\n",
        4,
        1,
        "h() can reach its end without a return (it returns int)",
    ),
    (
        "    x[i] = s(x)\n\ndef s(a: Array[float]) -> float:\n    return 1.0\n",
        4,
        10,
        "arrays are allowed only as kernel parameters",
    ),
    (
        "    x[i] = q(1)\n\ndef q(a) -> float:\n    return 1.0\n",
        4,
        7,
        "parameter 'a' needs a type annotation",
    ),
    ("    x[i] = (\n", 2, 12, "syntax error"),
    ("    x[i] = d(1, 2)\n\ndef d(a: int, a: int) -> int:\n    return a\n", 4, 15, "duplicate"),
]


@pytest.mark.parametrize(("body", "line", "col", "message"), ERRORS)
def test_compile_errors(body: str, line: int, col: int, message: str) -> None:
    with pytest.raises(CompileError) as caught:
        compile_kernel(HEAD + body, "k", filename="bad.py")
    error = caught.value
    assert (error.filename, error.line, error.col) == ("bad.py", line, col), str(error)
    assert message in error.message
    assert str(error).startswith(f"bad.py:{line}:{col}: ")


def bad_kernel(i: int, x: Array[float]) -> None:
    x[i] = (lambda v: v)(1.0)


def test_compile_error_points_into_the_defining_file() -> None:
    with pytest.raises(CompileError) as caught:
        compile_kernel(bad_kernel)
    line = inspect.getsourcelines(bad_kernel)[1] + 1
    assert str(caught.value) == f"{__file__}:{line}:13: unsupported syntax: lambda"


def test_kernel_signature_errors() -> None:
    with pytest.raises(CompileError, match=r"<kernel>:1:7: a kernel's first parameter"):
        compile_kernel("def k(x: float, y: Array[float]) -> None:\n    pass\n")
    with pytest.raises(CompileError, match=r"<kernel>:1:1: a kernel needs at least one Array"):
        compile_kernel("def k(i: int) -> None:\n    pass\n")
    with pytest.raises(CompileError, match=r"<kernel>:1:1: name the kernel"):
        compile_kernel("def a(i: int) -> None:\n    pass\ndef b(i: int) -> None:\n    pass\n")
