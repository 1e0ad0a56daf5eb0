"""Removing the blocks no path from a function's entry reaches (``remove-unreachable-blocks``).

Structured control flow keeps some of them: the merge block and continue target that a
reachable header names stay, emptied to what SPIR-V asks of an unreachable one (an
unreachable merge block holds only ``OpUnreachable``; an unreachable continue target only
an ``OpBranch`` back to its loop's header).  An unreachable merge block inside a continue
construct (structurally dominated by a reachable loop's continue target) keeps instead a
branch to the first block that stays on its paths as written (its first successor that
stays, or past the blocks that go: a loop removed after it, to that loop's merge): every
path of a continue construct must reach its back edge, even the structured graph's path
through an unreachable merge block.  Every ``OpPhi`` left is made to list exactly
its block's predecessors: pairs from removed blocks go, a pair whose value was defined in a
removed or emptied block takes an ``OpUndef`` of the phi's type, and a predecessor the phi
did not list (an emptied continue target) gets one.  The names and decorations of removed
ids go with them.
"""

from __future__ import annotations

from collections.abc import Callable

from spvbuild.errors import PassError
from spvbuild.generated.core.opcodes import OP_BRANCH, OP_PHI, OP_UNDEF, OP_UNREACHABLE
from spvbuild.passes.cfg import Graph, dominator_tree, graph
from spvbuild.passes.control_flow import merge_of, reachable, successors
from spvbuild.passes.ids import is_targeting, used_ids
from spvbuild.passes.program import Block, Function, Program, join, opcode_name, split
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

__all__ = ["NAME", "UndefMaker", "prune", "remove_unreachable_blocks"]

NAME = "remove-unreachable-blocks"


def remove_unreachable_blocks(program: Program) -> Program:
    """``program`` without its unreachable blocks (a new program; ``program`` unchanged).

    PassError when a block kept uses a value only a removed block defined (elsewhere than
    in an ``OpPhi``): a module no valid SPIR-V is, whose meaning removal would change."""
    layout = split(program, NAME)
    out = program.copy()
    undef = UndefMaker(out)
    removed_ids: set[int] = set()
    for function in layout.functions:
        removed_ids |= prune(function, undef)
    if not removed_ids and not undef.made:
        return out
    layout.head = [
        inst
        for inst in layout.head
        if not (is_targeting(inst) and int(inst.operands[0]) in removed_ids)
    ] + undef.made
    out.instructions = join(layout)
    return out


class UndefMaker:
    """One ``OpUndef`` per type, made on first need with a fresh id of ``program``;
    ``made``: the new instructions, for the module's globals."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.ids: dict[int, int] = {}
        self.made: list[Instruction] = []

    def __call__(self, type_id: int) -> Id:
        if type_id not in self.ids:
            self.ids[type_id] = self.program.new_id()
            self.made.append(Instruction(OP_UNDEF, TypeId(type_id), Id(self.ids[type_id]), ()))
        return Id(self.ids[type_id])


def prune(function: Function, undef: Callable[[int], Id]) -> set[int]:
    """Remove ``function``'s unreachable blocks in place (see the module's docstring);
    the ids it no longer defines.  ``undef`` gives the ``OpUndef`` of a type."""
    if not function.blocks:
        return set()
    live = reachable(function)
    labels = {b.id: b for b in function.blocks}
    emptied: dict[int, list[Instruction]] = {}  # label → its new body
    for block in function.blocks:
        if block.id not in live:
            continue
        merge = merge_of(block)
        if merge is None:
            continue
        if merge.merge in labels and merge.merge not in live:
            emptied.setdefault(merge.merge, [Instruction(OP_UNREACHABLE, None, None, ())])
        target = merge.continue_target
        if target is not None and target in labels and target not in live:
            emptied[target] = [Instruction(OP_BRANCH, None, None, (Id(block.id),))]
    if len(live) + len(emptied) == len(function.blocks):
        return set()
    _keep_continue_paths(function, live, emptied)
    gone: set[int] = set()  # ids no longer defined: removed blocks', emptied blocks' values
    kept: list[Block] = []
    for block in function.blocks:
        if block.id in live:
            kept.append(block)
            continue
        defined = [int(i.result_id) for i in block.body if i.result_id is not None]
        gone.update(defined)
        if block.id in emptied:
            kept.append(Block(block.label, emptied[block.id]))
        else:
            gone.add(block.id)
    kept_labels = {b.id: b for b in kept}
    preds: dict[int, list[int]] = {b.id: [] for b in kept}
    for block in kept:
        for nxt in successors(block, kept_labels):
            preds[nxt].append(block.id)
    for block in kept:
        block.body = [
            _fixed_phi(inst, preds[block.id], gone, undef) if inst.opcode == OP_PHI else inst
            for inst in block.body
        ]
        for inst in block.body:
            if inst.opcode == OP_PHI:
                continue
            for used in used_ids(inst):
                if used in gone:
                    raise PassError(
                        NAME,
                        f"uses %{used}, defined only in a block no path reaches",
                        opcode_name(inst.opcode),
                        inst.result_id,
                    )
    function.blocks = kept
    return gone


def _keep_continue_paths(
    function: Function, live: set[int], emptied: dict[int, list[Instruction]]
) -> None:
    """Give each emptied merge block inside a continue construct a branch to its first
    successor that stays (see the module's docstring), in ``emptied``."""
    merges = [label for label, body in emptied.items() if body[0].opcode == OP_UNREACHABLE]
    if not merges:
        return
    cfg = graph(function, structured=True)
    continues = [
        m.continue_target
        for header, m in cfg.merges.items()
        if header in live and m.continue_target is not None
    ]
    if not continues:
        return
    tree = dominator_tree(cfg)
    for label in merges:
        if not any(tree.dominates(c, label) for c in continues):
            continue
        stays = _first_staying(cfg, label, live, emptied)
        if stays is not None:
            emptied[label] = [Instruction(OP_BRANCH, None, None, (Id(stays),))]


def _first_staying(
    cfg: Graph, label: int, live: set[int], emptied: dict[int, list[Instruction]]
) -> int | None:
    """The first block that stays on the paths from ``label`` as written (breadth first,
    each block's successors in order, through the blocks that go: past a removed loop or
    selection to where it led); None when no path reaches one."""
    seen = {label}
    todo = [label]
    for at in todo:
        for nxt in cfg.succs[at]:
            if nxt in seen:
                continue
            if nxt in live or nxt in emptied:
                return nxt
            seen.add(nxt)
            todo.append(nxt)
    return None


def _fixed_phi(
    inst: Instruction, preds: list[int], gone: set[int], undef: Callable[[int], Id]
) -> Instruction:
    """The phi ``inst`` listing exactly ``preds`` (see the module's docstring)."""
    pairs = inst.operands[0] if inst.operands else ()
    if not isinstance(pairs, tuple | list) or inst.result_type is None:
        raise PassError(
            NAME, "a phi without its pairs or type", opcode_name(inst.opcode), inst.result_id
        )
    by_parent: dict[int, object] = {}
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise PassError(
                NAME,
                "a phi pair that is not (value, parent)",
                opcode_name(inst.opcode),
                inst.result_id,
            )
        value, parent = pair
        by_parent.setdefault(int(parent), value)
    new_pairs = []
    for parent in preds:
        value = by_parent.get(parent)
        if value is None or (isinstance(value, int) and int(value) in gone):
            value = undef(int(inst.result_type))
        new_pairs.append((value, Id(parent)))
    return inst._replace(operands=(tuple(new_pairs), *inst.operands[1:]))
