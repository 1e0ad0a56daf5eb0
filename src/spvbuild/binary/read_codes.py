"""The reader's fast-path codes, shared by :mod:`spvbuild.binary.reader` and its compiled loops
(:mod:`spvbuild.binary.read_engine`), and the padding those loops expect after the words.

A code says how the instructions of one first word (opcode and word count) are decoded;
``reader._CorePlan.code`` gives it.  But for GENERAL, DEFERRED and CONSTANT each stands
for a layout of ids only whose word count leaves every optional operand absent; the
common layouts have paths of their own, the others generic ones.
"""

from __future__ import annotations

from typing import Final

GENERAL: Final = 0  # the general decoder
DEFERRED: Final = 1  # context-dependent literals: decoded once every numeric type is known
BINARY: Final = 2  # result type, result id, two ids (OpIAdd)
LOAD: Final = 3  # result type, result id, one id, one absent optional (OpLoad)
STORE: Final = 4  # two ids, one absent optional (OpStore)
CHAIN: Final = 5  # result type, result id, one id, a variadic id of one item (OpAccessChain)
CONSTANT: Final = 6  # 32-bit OpConstant / OpSpecConstant: inline if its type is known
UNARY: Final = 7  # result type, result id, one id (OpBitcast)
LABEL: Final = 8  # a result id only (OpLabel)
JUMP: Final = 9  # one id (OpBranch)
BARE: Final = 10  # no operand (OpReturn)
CALL: Final = 11  # one-word operands: the decoder made for the first word
EXT: Final = 12  # OpExtInst of a known set: the decoder of its instruction

PADDING: Final = 16
"""Zero bytes after the words: the last instruction's first five words can be read."""
