"""The opcodes the passes treat alike, by what the grammar says of them: their class, their
logical-layout section and whether they define a result.

Read from the grammar's small tables (:mod:`spvbuild.generated.core.word_layouts`), so
that linking on the words (:mod:`spvbuild.passes.word_link`) and the typed passes share one
definition of each set without the first loading the instruction records.
"""

from __future__ import annotations

from typing import Final

from spvbuild.generated.core.opcodes import OP_EXT_INST_IMPORT
from spvbuild.generated.core.word_layouts import INSTRUCTIONS

__all__ = [
    "ANNOTATIONS",
    "MERGED_CLASSES",
    "MERGED_OPCODES",
    "RESULT_AT",
    "TARGETING",
    "result_at",
    "section_of",
]

_RESULT_TYPE = "IdResultType"
_RESULT = "IdResult"


def result_at(opcode: int) -> int:
    """Where the result id of an instruction is: 2 after a result type, else 1; 0 for an
    instruction without one (or an opcode the grammar lacks)."""
    found = INSTRUCTIONS.get(opcode)
    if found is None:
        return 0
    operands = found[2]
    if _RESULT not in operands[:2]:
        return 0
    return 2 if operands[0] == _RESULT_TYPE else 1


RESULT_AT: Final = {opcode: result_at(opcode) for opcode in INSTRUCTIONS}
"""opcode → :func:`result_at` of every opcode of the grammar."""

TARGETING: Final = frozenset(
    opcode
    for opcode, (_, section, _) in INSTRUCTIONS.items()
    if section in ("debug_names", "annotations") and not RESULT_AT[opcode]
)
"""OpName, OpMemberName, OpDecorate, OpMemberDecorate, OpGroupDecorate, ...: operand 0 is
the id they name or decorate (a decoration group for the group ones)."""

ANNOTATIONS: Final = frozenset(
    opcode for opcode, (_, section, _) in INSTRUCTIONS.items() if section == "annotations"
)
"""The decorations (the grammar's ``annotations`` section, OpDecorationGroup included)."""

MERGED_CLASSES: Final = frozenset({"Type-Declaration", "Constant-Creation"})
"""The classes of the instructions merged when equal (with OpExtInstImport)."""

MERGED_OPCODES: Final = frozenset(
    opcode
    for opcode, (cls, _, _) in INSTRUCTIONS.items()
    if RESULT_AT[opcode] and (cls in MERGED_CLASSES or opcode == OP_EXT_INST_IMPORT)
)
"""The opcodes of the instructions ``remove-duplicates`` merges when equal."""

_GLOBALS = "types_globals"


def section_of(opcode: int) -> str:
    """The logical-layout section of an instruction found outside the functions: the
    grammar's, the types and globals for one the grammar puts in functions or lacks."""
    found = INSTRUCTIONS.get(opcode)
    return _GLOBALS if found is None or found[1] == "functions" else found[1]
