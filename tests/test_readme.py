"""The README's example runs and its module passes spirv-val."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_one_example_of_at_most_twenty_lines() -> None:
    blocks = _python_blocks()
    assert len(blocks) == 1
    assert len(blocks[0].strip().splitlines()) <= 20
    # On inferred result types it takes fewer lines of code than the 19 it took when
    # every call named its result type (issue 25), imports included.
    code = [line for line in blocks[0].splitlines() if line.strip() and not line.startswith("#")]
    assert len(code) < 19


@pytest.mark.spirv_val
@pytest.mark.vulkan
def test_readme_example_runs_validates_and_computes(
    spirv_val: Callable[[list[int], str], subprocess.CompletedProcess[str]],
) -> None:
    import math
    import struct

    namespace: dict[str, object] = {}
    exec(compile(_python_blocks()[0], str(README), "exec"), namespace)
    m = namespace["m"]
    words = m.to_words()  # type: ignore[attr-defined]
    result = spirv_val(words, "vulkan1.1")
    assert result.returncode == 0, result.stderr
    computed = list(namespace["result"])  # type: ignore[call-overload]
    expected = [struct.unpack("<f", struct.pack("<f", v * v + math.sqrt(v)))[0] for v in range(256)]
    assert len(computed) == 256
    assert all(math.isclose(a, b, rel_tol=1e-6) for a, b in zip(computed, expected, strict=True))


def test_readme_names_the_two_commands_and_ci_runs_the_test_one() -> None:
    text = README.read_text()
    assert "make demo" in text and "make test" in text
    ci = (README.parent / ".ci" / "run").read_text()
    assert "make test" in ci
