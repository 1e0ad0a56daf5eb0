"""The SPIR-V assembler: assembly text → the words ``spirv-as`` produces.

    >>> from spvbuild.assembler import assemble
    >>> words = assemble("OpCapability Shader\\nOpMemoryModel Logical GLSL450\\n")
    >>> [hex(w) for w in words[5:]]
    ['0x20011', '0x1', '0x3000e', '0x0', '0x1']

The syntax is SPIRV-Tools' (decimal and hex numbers, floats with their bit patterns,
strings with escapes, named enumerants and ``A|B`` masks with their parameters, named and
numeric ids numbered like ``spirv-as``, extended-instruction and OpSpecConstantOp names,
``!<integer>`` words).  Where spvbuild is stricter or looser than ``spirv-as`` (see
:func:`assemble`), the difference never changes the words of a text both accept.

The work is done by :mod:`spvbuild.asm_engine`, in its mypyc-compiled copy when one was
built from the same source (``python -m spvbuild.accelerate``), otherwise as plain
Python; :data:`ENGINE` says which one runs.  Both give the same words and errors.
"""

from __future__ import annotations

import warnings

from spvbuild import asm_engine as _plain
from spvbuild import engines
from spvbuild.asm_engine import DEFAULT_TARGET_ENV

__all__ = ["DEFAULT_TARGET_ENV", "ENGINE", "assemble"]

_engine = engines.load("asm_engine")

ENGINE: str = engines.kind(_engine)
"""``"mypyc"`` when the compiled engine runs, ``"python"`` otherwise."""


def assemble(
    text: str,
    *,
    target_env: str = DEFAULT_TARGET_ENV,
    preserve_numeric_ids: bool = False,
    file: str = "<input>",
) -> list[int]:
    """Assemble SPIR-V assembly ``text`` into the words of a module (header included).

    The words are those ``spirv-as --target-env <target_env>`` writes, except the
    generator word (header word 2), which is spvbuild's.  ``target_env`` takes the names
    of ``spirv-as --target-env`` (``spv1.0`` … ``spv1.6``, ``vulkan1.0`` … ``vulkan1.4``,
    ``opencl…``, ``opengl…``); it sets the version word and which opcodes exist.
    With ``preserve_numeric_ids`` an id written as a number (``%12``) keeps that number
    and named ids fill the gaps, like ``spirv-as --preserve-numeric-ids``.

    Every problem in the text raises :class:`~spvbuild.errors.AssemblyError` whose
    message reads ``file:line:col: ...`` and names the opcode, the operand, what was
    expected and what was found (with a did-you-mean suggestion when a name is close).
    An unknown ``target_env`` raises ValueError.

    Differences from ``spirv-as`` (none changes the words of a text both accept): an id
    used but defined by no instruction is an error (spirv-as numbers it silently);
    extended instructions may also be given by number for known sets, and by name for
    the sets spirv-as knows only by number (NonSemantic.DebugPrintf, DebugBreak,
    VkspReflection); a mask of several
    bits (``Aligned|Nontemporal 4``) is read in a *required* MemoryAccess operand
    (OpCooperativeMatrixLoadTensorNV, OpCooperativeMatrixStoreTensorNV) as in an
    optional one, where spirv-as 2025.5 refuses it ("Invalid memory access") although
    spirv-dis prints it so.
    """
    engine = _engine
    try:
        words: list[int] = engine.assemble(
            text, target_env=target_env, preserve_numeric_ids=preserve_numeric_ids, file=file
        )
    except TypeError as exc:
        if engines.kind(engine) != "mypyc":
            raise
        # mypyc checks types at run time where Python does not: should a compiled check
        # ever fail, the plain engine (the same source) gives the answer, with a warning.
        words = _plain.assemble(
            text, target_env=target_env, preserve_numeric_ids=preserve_numeric_ids, file=file
        )
        warnings.warn(
            f"spvbuild: the compiled assembler engine failed ({exc}); the plain-Python "
            "engine assembled the text. Please report it with the text.",
            RuntimeWarning,
            stacklevel=2,
        )
    return words
