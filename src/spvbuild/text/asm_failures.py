"""The assembler's failures: where in the text, what is wrong, and what was probably meant.

The engine (:mod:`spvbuild.text.asm_engine`) raises an :class:`AsmFailure` at a word
index; :func:`assembly_error` turns it into the public
:class:`~spvbuild.errors.AssemblyError` with a line and column, computed only then.  The
functions here build the messages of the failures that need more than one line to
explain (an unknown opcode, a malformed instruction start, an undefined or invalid id),
each returning the failure for the engine to raise; none of them is on the engine's
fast path.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from spvbuild.errors import AssemblyError
from spvbuild.text.asm_grammar import Plan, core_plans
from spvbuild.text.asm_source import AssemblyText
from spvbuild.text.asm_tokens import ID_LETTERS, id_name_match, line_col, token_offset, tokens

__all__ = [
    "AsmFailure",
    "assembly_error",
    "instruction_start_failure",
    "invalid_id_failure",
    "result_id_failure",
    "suggest",
    "undefined_id_failure",
    "unknown_import_failure",
    "unknown_opcode_failure",
]


class AsmFailure(Exception):
    """An error at word ``index`` of the text (``len(words)``: the end of the text)."""

    def __init__(self, index: int, message: str) -> None:
        """Remember the word index and the message."""
        super().__init__(message)
        self.index = index
        self.message = message


def suggest(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or an empty string."""
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def assembly_error(text: str, failure: AsmFailure, file: str) -> AssemblyError:
    """The public error of a failure at a word index: ``file:line:col: message``."""
    line, col = line_col(text, token_offset(text, failure.index))
    return AssemblyError(file, line, col, failure.message)


def instruction_start_failure(words: list[str], i: int, n: int) -> AsmFailure:
    """Why word ``i`` (of the first ``n`` of ``words``) does not start an instruction,
    which is neither ``OpX`` nor ``%id = OpX``."""
    word = words[i]
    if word[0] != "%":
        hint = f" (did you mean 'Op{word}'?)" if "Op" + word in core_plans() else ""
        return AsmFailure(
            i,
            "expected an opcode (OpName) or a result id ('%name =') at the start "
            f"of an instruction, found '{word}'{hint}",
        )
    if i + 1 >= n:
        return AsmFailure(n, f"expected '=' after result id '{word}', found the end of the text")
    if words[i + 1] != "=":
        return AsmFailure(i + 1, f"expected '=' after result id '{word}', found '{words[i + 1]}'")
    if i + 2 >= n:
        return AsmFailure(n, f"expected an opcode after '{word} =', found the end of the text")
    opname = words[i + 2]
    extra = (
        " (an instruction written as !<integer> words cannot take a result id)"
        if opname[0] == "!"
        else suggest("Op" + opname, core_plans())
    )
    return AsmFailure(i + 2, f"expected an opcode after '{word} =', found '{opname}'{extra}")


def result_id_failure(plan: Plan, opname: str, result_word: str | None, i: int) -> AsmFailure:
    """A result id given to an instruction without one, or missing where there is one."""
    if plan.has_result:
        return AsmFailure(i, f"{opname} produces a result id: write '%name = {opname} ...'")
    return AsmFailure(
        i, f"{opname} does not produce a result id: remove '{result_word} =' before it"
    )


def unknown_opcode_failure(
    opname: str, index: int, version: tuple[int, int], target_env: str
) -> AsmFailure:
    """An opcode the target lacks (and what it needs), or one that does not exist."""
    plans = core_plans()
    plan = plans.get(opname)
    if plan is None:
        return AsmFailure(index, f"unknown opcode '{opname}'{suggest(opname, plans)}")
    info = plan.info
    needs = (
        f"SPIR-V {info.version[0]}.{info.version[1]}"
        if info.version is not None
        else "an extension"
    )
    if info.last_version is not None and info.version is not None and info.version <= version:
        needs = f"SPIR-V {info.last_version[0]}.{info.last_version[1]} or older"
    return AsmFailure(
        index,
        f"{opname} is not available for target env '{target_env}' (SPIR-V "
        f"{version[0]}.{version[1]}): it needs {needs}",
    )


def unknown_import_failure(name: str, j: int) -> AsmFailure:
    """An OpExtInstImport of a set that is neither known nor ``NonSemantic.*``."""
    from spvbuild.generated.extinst import IMPORT_NAMES

    return AsmFailure(
        j,
        f"OpExtInstImport: unknown extended instruction set '{name}'"
        f"{suggest(name, IMPORT_NAMES)} (known: {', '.join(IMPORT_NAMES)}, or any "
        "'NonSemantic.' set)",
    )


def undefined_id_failure(ids: dict[str, int], pending: dict[int, int]) -> AsmFailure | None:
    """The first use of an id no instruction defines, or None.

    ``ids`` numbers every id word; ``pending`` maps the numbers still waiting for a
    definition to the word index of their first use.
    """
    if not pending:
        return None
    first = min(pending, key=lambda v: pending[v])
    names = {v: k for k, v in ids.items()}
    name = names.get(first, f"%{first}")
    # Candidates for a suggestion: defined names of about the same length (bounded, so
    # that a huge module does not make the error slow).
    defined_names = [
        k for k, v in ids.items() if v not in pending and abs(len(k) - len(name)) <= 2
    ][:20000]
    return AsmFailure(
        pending[first],
        f"undefined id '{name}': no instruction defines it{suggest(name, defined_names)}",
    )


def invalid_id_failure(ids: dict[str, int], source: AssemblyText, before: int) -> AsmFailure | None:
    """The first word of ``source`` numbered in ``ids`` that is not a valid id, if it comes
    before word ``before`` (where another failure is); else None.

    The engine's fast path numbers result ids without checking their spelling; this
    checks them all at once, and splits the text into words again only to find the
    first invalid one.
    """
    names = list(ids)
    valid = "%" not in ids
    step = 4096  # names checked a slice at a time: little memory on a huge module
    start = 0
    while valid and start < len(names):
        part = names[start : start + step]
        try:
            letters = " ".join(part).encode("ascii").translate(None, ID_LETTERS)
        except UnicodeEncodeError:
            letters = b""
        valid = letters == b"% " * (len(part) - 1) + b"%"
        start += step
    if valid:
        return None
    every_word = tokens(source.whole())
    first = min(
        (every_word.index(name) for name in names if id_name_match(name) is None),
        default=before,
    )
    if first >= before:
        return None
    return AsmFailure(
        first,
        f"invalid id '{every_word[first]}': an id is '%' followed by letters, digits or '_'",
    )
