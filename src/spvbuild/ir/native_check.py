"""The type rules over a whole binary, without spirv-val: :func:`check`.

A binary (any producer's) is read into a :class:`~spvbuild.ir.module.Module` that knows the
type of every value, then each instruction whose opcode has a type rule
(``grammars/type_rules.yaml``) is checked by the same interpreter that checks builder
calls (:func:`spvbuild.ir.type_checks.check_instruction`).  Each problem names the
instruction's word offset and its text as ``spirv-dis`` prints it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from spvbuild.binary.framing import offsets, words_of
from spvbuild.binary.reader import read
from spvbuild.generated.core.opcodes import OP_EXT_INST
from spvbuild.generated.core.type_rules import TYPE_RULES
from spvbuild.ir.module import Module
from spvbuild.ir.targets import target_profile
from spvbuild.ir.type_checks import TypeMismatch, check_ext_instruction, check_instruction
from spvbuild.text.disassembler import disassemble

__all__ = ["TypeProblem", "check"]


class TypeProblem(NamedTuple):
    """One instruction of a binary that breaks its type rule.

    Attributes:
        word_offset: where the instruction starts, in words (0 is the magic number).
        instruction: the instruction as ``spirv-dis`` prints it (friendly names).
        message: what is wrong: the operand, the type it has, what the rule needs.
    """

    word_offset: int
    instruction: str
    message: str

    def __str__(self) -> str:
        return f"word {self.word_offset}: {self.instruction.strip()}: {self.message}"


def check(
    data: bytes | bytearray | memoryview | Sequence[int], *, target_env: str | None = None
) -> list[TypeProblem]:
    """The instructions of a SPIR-V binary that break their type rules (empty: none).

    ``target_env`` (spirv-val's names) adds the rules of an environment family (in Vulkan,
    no store into a uniform block).  A binary that cannot be read is a
    :class:`~spvbuild.errors.BinaryError`; what the rules do not model (types of other
    kinds, instructions without a rule) is not checked, so an empty list is no proof of
    validity: spirv-val remains the judge.
    """
    parsed = read(data)
    words, _ = words_of(data, "check")
    module = Module.from_binary(words, check_types=True)
    if target_env is not None:
        module.target = target_profile(target_env)  # (only its family is read here)
    instructions = parsed.instructions
    lines = [
        line
        for line in disassemble(words, header=False).splitlines()
        if line.strip() and not line.lstrip().startswith(";")
    ]
    if len(lines) != len(instructions):  # (one line per instruction, always so far)
        lines = [f"opcode {i.opcode}" for i in instructions]
    problems: list[TypeProblem] = []
    for start, inst, line in zip(offsets(words), instructions, lines, strict=False):
        try:
            if inst.ext_set is not None:
                if inst.opcode == OP_EXT_INST and len(inst.operands) >= 2:
                    number = inst.operands[1]
                    check_ext_instruction(
                        module, inst.ext_set, int(number), inst.result_type, inst.operands[2:]
                    )
            elif inst.opcode in TYPE_RULES:
                check_instruction(module, inst.opcode, inst.result_type, inst.operands)
        except TypeMismatch as mismatch:
            problems.append(TypeProblem(start, line, str(mismatch)))
    return problems
