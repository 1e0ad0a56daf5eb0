"""The SPIR-V assembler: assembly text → the words ``spirv-as`` produces.

    >>> from spvbuild.text.assembler import assemble
    >>> words = assemble("OpCapability Shader\\nOpMemoryModel Logical GLSL450\\n")
    >>> [hex(w) for w in words[5:]]
    ['0x20011', '0x1', '0x3000e', '0x0', '0x1']

The syntax is SPIRV-Tools' (decimal and hex numbers, floats with their bit patterns,
strings with escapes, named enumerants and ``A|B`` masks with their parameters, named and
numeric ids numbered like ``spirv-as``, extended-instruction and OpSpecConstantOp names,
``!<integer>`` words).  Where spvbuild is stricter or looser than ``spirv-as`` (see
:func:`assemble`), the difference never changes the words of a text both accept.

The work is done by :mod:`spvbuild.text.asm_engine`, in its mypyc-compiled copy when one was
built from the same source (``python -m spvbuild.accel.accelerate``), otherwise as plain
Python; :data:`ENGINE` says which one runs.  Both give the same words and errors.
"""

from __future__ import annotations

import sys
import warnings
from array import array
from os import PathLike, fspath

from spvbuild.accel import engines
from spvbuild.errors import ArgumentError, SpvbuildError
from spvbuild.text.asm_engine import DEFAULT_TARGET_ENV
from spvbuild.text.asm_grammar import TARGET_ENVS
from spvbuild.text.asm_source import AssemblyText, target_env_of_header, target_env_of_lines

__all__ = [
    "DEFAULT_TARGET_ENV",
    "ENGINE",
    "TARGET_ENVS",
    "assemble",
    "assemble_binary",
    "assemble_file",
    "assemble_words",
    "target_env_of_header",
]

_engine = engines.load("asm_engine")

ENGINE: str = engines.kind(_engine)
"""``"mypyc"`` when the compiled engine runs, ``"python"`` otherwise."""


def assemble(
    text: str,
    *,
    target_env: str | None = None,
    preserve_numeric_ids: bool = False,
    strict_ids: bool = False,
    file: str = "<input>",
) -> list[int]:
    """Assemble SPIR-V assembly ``text`` into the words of a module (header included).

    The words are those ``spirv-as`` writes for the same text and options, except the
    generator word (header word 2), which is spvbuild's.

    ``target_env`` takes the names of ``spirv-as --target-env`` (``spv1.0`` …
    ``spv1.6``, ``vulkan1.0`` … ``vulkan1.4``, ``opencl…``, ``opengl…``); it sets the
    version word and which opcodes exist.  Left out (None), the target is chosen as
    spirv-as chooses it: from the text's header comment ``; Version: 1.X`` (the form
    spirv-dis prints), read among the blank and ``;`` comment lines before the first
    instruction, with one digit X from 0 to 6, giving ``spv1.X``; without one,
    ``spv1.6`` (:data:`DEFAULT_TARGET_ENV`).  So disassembled text assembles back to
    its version.  :func:`target_env_of_header` applies that rule alone.

    With ``preserve_numeric_ids`` an id written as a number (``%12``) keeps that number
    and named ids fill the gaps, like ``spirv-as --preserve-numeric-ids``.  An id that
    is used but defined by no instruction is numbered like any other (where it first
    appears), as spirv-as does, so partial modules and snippets assemble; with
    ``strict_ids=True`` it is an AssemblyError at its first use instead (``undefined id
    '%x': no instruction defines it``).

    Every problem in the text raises :class:`~spvbuild.errors.AssemblyError` whose
    message reads ``file:line:col: ...`` and names the opcode, the operand, what was
    expected and what was found (with a did-you-mean suggestion when a name is close).
    A ``text`` that is not a str, or an unknown ``target_env``, raises
    :class:`~spvbuild.errors.ArgumentError` (also a TypeError and a ValueError).

    Differences from ``spirv-as`` (none changes the words of a text both accept):
    extended instructions may also be given by number for known sets, and by name for
    the sets spirv-as knows only by number (NonSemantic.DebugPrintf, DebugBreak,
    VkspReflection); a mask of several bits (``Aligned|Nontemporal 4``) is read in a
    *required* MemoryAccess operand (OpCooperativeMatrixLoadTensorNV,
    OpCooperativeMatrixStoreTensorNV) as in an optional one, where spirv-as 2025.5
    refuses it ("Invalid memory access") although spirv-dis prints it so.
    """
    return _run(text, target_env, preserve_numeric_ids, strict_ids, file).tolist()


def assemble_binary(
    text: str,
    *,
    target_env: str | None = None,
    preserve_numeric_ids: bool = False,
    strict_ids: bool = False,
    file: str = "<input>",
) -> bytes:
    """The module of :func:`assemble` as the bytes of a ``.spv`` file (little-endian).

    Takes the same arguments and raises the same errors; like :func:`assemble_words`, it
    needs far less memory than :func:`assemble` on a large text.
    """
    words = _run(text, target_env, preserve_numeric_ids, strict_ids, file)
    if sys.byteorder != "little":
        words.byteswap()
    return words.tobytes()


def assemble_words(
    text: str,
    *,
    target_env: str | None = None,
    preserve_numeric_ids: bool = False,
    strict_ids: bool = False,
    file: str = "<input>",
) -> array[int]:
    """The words of :func:`assemble` as an ``array('I')`` (native byte order).

    Takes the same arguments and raises the same errors.  The words stay compact (4 bytes
    each, no Python int per word) from start to end, so a large text needs far less
    memory than the list of :func:`assemble`; the ``spvbuild as`` command uses it.
    """
    return _run(text, target_env, preserve_numeric_ids, strict_ids, file)


def assemble_file(
    path: str | PathLike[str],
    *,
    target_env: str | None = None,
    preserve_numeric_ids: bool = False,
    strict_ids: bool = False,
) -> array[int]:
    """The words of the assembly text in the file at ``path``, like :func:`assemble_words`.

    The file is read a piece at a time and never held whole (errors name it as given);
    bytes that are not UTF-8 are kept inside string literals, as spirv-as keeps them.
    The ``spvbuild as`` command uses it.  An unreadable file raises OSError.
    """
    if not isinstance(path, (str, PathLike)):
        raise ArgumentError(
            f"assemble_file: path must be a str or a path, not {type(path).__name__}"
        )
    source = AssemblyText.of_file(path)
    return _run(source, target_env, preserve_numeric_ids, strict_ids, fspath(path))


def _check(text: object, target_env: object, file: object) -> str:
    """The target environment to use; ArgumentError for arguments assemble does not take."""
    if isinstance(text, str):
        source = AssemblyText.of_str(text)
    elif isinstance(text, AssemblyText):
        source = text
    else:
        hint = (
            "; decode it first, e.g. data.decode('utf-8', 'surrogateescape')"
            if isinstance(text, (bytes, bytearray, memoryview))
            else ""
        )
        raise ArgumentError(
            f"assemble: text must be a str (SPIR-V assembly text), not {type(text).__name__}{hint}"
        )
    if not isinstance(file, str):
        raise ArgumentError(
            f"assemble: file must be a str (the name used in error messages), not "
            f"{type(file).__name__}"
        )
    if target_env is None:
        return target_env_of_lines(source.lines()) or DEFAULT_TARGET_ENV
    if not isinstance(target_env, str) or target_env not in TARGET_ENVS:
        raise ArgumentError(
            f"assemble: unknown target env {target_env!r}; expected one of {', '.join(TARGET_ENVS)}"
        )
    return target_env


def _run(
    text: str | AssemblyText,
    target_env: str | None,
    preserve_numeric_ids: bool,
    strict_ids: bool,
    file: str,
) -> array[int]:
    """The engine's words for checked arguments (the compiled engine when there is one)."""
    env = _check(text, target_env, file)
    preserve = bool(preserve_numeric_ids)
    strict = bool(strict_ids)
    engine = _engine
    try:
        words: array[int] = engine.assemble(
            text, target_env=env, preserve_numeric_ids=preserve, strict_ids=strict, file=file
        )
    except TypeError as exc:
        if engines.kind(engine) != "mypyc" or isinstance(exc, SpvbuildError):
            raise
        # mypyc checks types at run time where Python does not: should a compiled check
        # ever fail, the plain engine (the same source) gives the answer, with a warning.
        words = engines.plain("asm_engine").assemble(
            text, target_env=env, preserve_numeric_ids=preserve, strict_ids=strict, file=file
        )
        warnings.warn(
            f"spvbuild: the compiled assembler engine failed ({exc}); the plain-Python "
            "engine assembled the text. Please report it with the text.",
            RuntimeWarning,
            stacklevel=3,
        )
    return words
