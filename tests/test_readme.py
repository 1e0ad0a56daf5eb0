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


@pytest.mark.spirv_val
def test_readme_example_runs_and_validates(
    spirv_val: Callable[[list[int], str], subprocess.CompletedProcess[str]],
) -> None:
    namespace: dict[str, object] = {}
    exec(compile(_python_blocks()[0], str(README), "exec"), namespace)
    words = namespace["words"]
    assert isinstance(words, list) and words[0] == 0x07230203
    result = spirv_val(words, "vulkan1.1")
    assert result.returncode == 0, result.stderr
