"""The checks a module runs when it is written: the grammar's rules, the user's added
checks, and every id used being defined.

Rules run only when something can give them work (:func:`~spvbuild.ir.routing.may_trigger`
at the call, :func:`runs_trigger` for runs of words), on the instructions they look at.
"""

from __future__ import annotations

from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_CONSTANT_FUNCTION_POINTER_INTEL
from spvbuild.ir.body import BlockItem, decoded, ids_in, plain_id
from spvbuild.ir.body import records as records_of
from spvbuild.ir.requirements import requirement_records
from spvbuild.ir.routing import DECORATIONS
from spvbuild.ir.rules import TRIGGERS as RULE_TRIGGERS
from spvbuild.ir.rules import check_rules
from spvbuild.ir.state import ModuleState
from spvbuild.spirv.emission import Run

__all__ = ["check_defined", "run_rules", "runs_trigger"]

# Rules that look at every instruction in module order (function pointers: their uses).
WHOLE_MODULE_RULES = {OP_CONSTANT_FUNCTION_POINTER_INTEL}


def runs_trigger(runs: list[Run]) -> bool:
    """Whether a run of words holds an opcode a rule looks for (by its first words)."""
    if RULE_TRIGGERS is None:
        return True
    opcodes = RULE_TRIGGERS[0]
    for run in runs:
        if run.firsts:  # (most runs list none: their instructions need nothing)
            for first in run.firsts:
                if first & 0xFFFF in opcodes:
                    return True
    return False


def run_rules(
    state: ModuleState,
    capabilities: list[int],
    extensions: list[str],
    runs: list[Run],
    body: list[BlockItem],
) -> None:
    """The grammar's rules and the added checks, on the instructions they look at."""
    if not state._checks and not (
        state._rules_work or RULE_TRIGGERS is None or runs_trigger(runs)
    ):
        return  # no rule has anything to look at: none is run
    records = records_of(body)
    head = requirement_records(capabilities, extensions)
    if not runs:
        instructions = head + records
    elif state._checks or any(i.opcode in WHOLE_MODULE_RULES for i in records):
        instructions = head + decoded(body)
    else:
        # The other rules look at decorations and at the instructions they decorate.
        targets = {
            plain_id(i.operands[0]) for i in records if i.opcode in DECORATIONS and i.operands
        }
        instructions = head + records
        instructions += [
            inst
            for run in (runs if targets else ())
            if not targets.isdisjoint(run.words) and not targets.isdisjoint(run.result_ids())
            for inst in run.instructions()
            if inst.result_id in targets
        ]
    check_rules(instructions)
    for check in state._checks:
        check(instructions)


def check_defined(state: ModuleState, body: list[BlockItem], runs: list[Run], used: dict[int, str]) -> None:
    """BuildError for the first id an instruction uses that no instruction defines.

    Every id below the bound was handed out by a definition (a record's or a run's),
    reserved by :meth:`new_id` (``_pending_ids``, until something defines it) or read
    from a binary (``_from_binary``), and ``rewrite`` may remove definitions (their
    ids are pending again); so an id a record uses is undefined when it is at or past
    the bound, pending, or, in a module read from a binary, defined by no record and
    no run.  A run may use only a reserved id wrongly: its other
    operands were below the bound when it was made.
    """
    if not used and not state._pending_ids:
        return  # no id to look at: every call's ids were below the bound, none reserved
    records = records_of(body)
    defined = {int(i.result_id) for i in records if i.result_id is not None}
    pending = state._pending_ids - defined
    bound = state._bound
    undefined = {
        value
        for value in set(used) - defined
        if value >= bound or value in pending or state._from_binary
    }
    if undefined and runs and state._from_binary:
        undefined -= set().union(*(run.result_ids() for run in runs))
    if pending:
        # Runs and the records of words paths used ids below the bound: only a
        # reserved one can be undefined.
        cached = state._kept.get
        unlisted = [  # records whose used ids encoding did not list
            i
            for i in records
            if (entry := cached(id(i))) is None or entry[0] is not i or entry[2] is None
        ]
        for inst in unlisted:
            for value in (inst.result_type, *ids_in(inst.operands)):
                if value is not None and int(value) in pending:
                    info = tables.INSTRUCTIONS[inst.opcode]
                    used.setdefault(int(value), f"{info.name} operand")
                    undefined.add(int(value))
        for run in runs:
            if pending.isdisjoint(run.words):
                continue
            for inst in run.instructions():
                for value in (*inst.operands, inst.result_type):
                    if int(value) in pending:
                        info = tables.INSTRUCTIONS[inst.opcode]
                        used.setdefault(int(value), f"{info.name} operand")
                        undefined.add(int(value))
    if undefined:
        first = min(undefined)
        raise BuildError(f"{used[first]} uses %{first}, which no instruction defines")
