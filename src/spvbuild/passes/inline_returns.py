"""A callee's returns made branches to the block after its call, for inlining
(:mod:`spvbuild.passes.inline`; the rules are in that module's docstring): at the callee's
top level a branch (the value through a phi), inside constructs a break out of a loop that
runs once, inside loops a flag and a value stored into new ``Function`` variables."""

from __future__ import annotations

from collections.abc import Callable

from spvbuild.errors import PassError
from spvbuild.generated.core.enums import LoopControl, StorageClass
from spvbuild.generated.core.opcodes import (
    OP_BRANCH,
    OP_BRANCH_CONDITIONAL,
    OP_LABEL,
    OP_LOAD,
    OP_LOOP_MERGE,
    OP_PHI,
    OP_RETURN,
    OP_RETURN_VALUE,
    OP_STORE,
    OP_UNREACHABLE,
    OP_VARIABLE,
)
from spvbuild.passes.constructs import Construct, ConstructKind
from spvbuild.passes.control_flow import MERGES, terminator
from spvbuild.passes.ids import rename, used_ids
from spvbuild.passes.inline_context import InlineContext
from spvbuild.passes.program import Block, Function
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

__all__ = ["RETURNS", "Returns"]

RETURNS = frozenset({OP_RETURN, OP_RETURN_VALUE})
"""The instructions that return from a function."""


class Returns:
    """The callee's returns made branches to the block after the call (see the module's
    docstring)."""

    def __init__(
        self,
        context: InlineContext,
        callee: Function,
        copies: list[Block],
        new: Callable[[int], int],
        post: int,
        result_type: int | None,
    ) -> None:
        self.context = context
        self.callee = callee.id
        self.copies = copies
        self.new = new
        self.post = post
        self.result_type = result_type
        self.nest = context.nesting_of(callee)
        self.old_label = {copy.id: old.id for copy, old in zip(copies, callee.blocks, strict=True)}
        self.returning = [
            c for c in copies if (t := terminator(c)) is not None and t.opcode in RETURNS
        ]
        self.wrapped = any(self.nest.enclosing(self.old_label[c.id]) for c in self.returning)
        self.pairs: list[tuple[Id, Id]] = []

    def rewrite(
        self, before: Block, variables: list[Instruction]
    ) -> tuple[list[Block], list[tuple[Id, Id]]]:
        """Make ``before`` enter the copy and the returns leave it; the blocks to insert
        after ``before`` and the (value, parent) pairs that reach the block after the call."""
        declarations = self.context.declarations
        program = declarations.program
        entry = Id(self.copies[0].id)
        if not self.wrapped:
            before.body.append(Instruction(OP_BRANCH, None, None, (entry,)))
            for block in self.returning:
                self._leave(block, self.post)
            return self.copies, self.pairs
        loop_header, loop_continue = program.new_id(), program.new_id()
        self._break_unreachable()
        chains = {c.id: self._loops(self.old_label[c.id]) for c in self.returning}
        flagged = any(chains.values())
        flag = ret = 0
        if flagged:
            bool_type = declarations.bool_type()
            flag = program.new_id()
            variables.append(self._variable(bool_type, flag))
            before.body.append(
                Instruction(OP_STORE, None, None, (Id(flag), Id(declarations.boolean(False))))
            )
            if self.result_type is not None:
                ret = program.new_id()
                variables.append(self._variable(self.result_type, ret))
        before.body.append(Instruction(OP_BRANCH, None, None, (Id(loop_header),)))
        head = Block(
            Instruction(OP_LABEL, None, Id(loop_header), ()),
            [
                Instruction(
                    OP_LOOP_MERGE, None, None, (Id(self.post), Id(loop_continue), LoopControl.None_)
                ),
                Instruction(OP_BRANCH, None, None, (entry,)),
            ],
        )
        tail = Block(
            Instruction(OP_LABEL, None, Id(loop_continue), ()),
            [Instruction(OP_BRANCH, None, None, (Id(loop_header),))],
        )
        exits: dict[int, int] = {}  # header (callee's label) → its new pre-merge block
        for chain in chains.values():
            for construct in chain:
                exits.setdefault(construct.header, program.new_id())
        late_edges: list[tuple[int, int]] = []  # (from, to): new edges into pre-merge blocks
        for block in self.returning:
            chain = chains[block.id]
            if not chain:
                self._leave(block, self.post)
                continue
            last = block.body.pop()
            if ret:
                block.body.append(Instruction(OP_STORE, None, None, (Id(ret), self._value(last))))
            block.body.append(
                Instruction(OP_STORE, None, None, (Id(flag), Id(declarations.boolean(True))))
            )
            block.body.append(Instruction(OP_BRANCH, None, None, (Id(exits[chain[0].header]),)))
            late_edges.append((block.id, exits[chain[0].header]))
        blocks = list(self.copies)
        made: dict[int, Block] = {}
        for header, label in exits.items():
            construct = self.nest.constructs[header]
            outer = self._loops(header)
            target = exits[outer[0].header] if outer else self.post
            exit_block = self._exit_block(construct, label, flag, ret, target)
            made[label] = exit_block
            if target != self.post:
                late_edges.append((label, target))
            merge_at = next(n for n, b in enumerate(blocks) if b.id == self.new(construct.merge))
            blocks.insert(merge_at, exit_block)
        for source, target in late_edges:
            target_block = made[target]
            target_block.body = [
                self._undef_pair(inst, source) if inst.opcode == OP_PHI else inst
                for inst in target_block.body
            ]
        return [head, *blocks, tail], self.pairs

    def _break_unreachable(self) -> None:
        """Each ``OpUnreachable`` of the copy made a break: to the merge of the innermost
        loop of the callee around it, else out of the one-trip loop (a block that ends the
        invocation would keep a call in a continue construct from reaching its back
        edge, which structured control flow asks of every path)."""
        for copy in self.copies:
            if copy.body[-1].opcode != OP_UNREACHABLE:
                continue
            loops = self._loops(self.old_label[copy.id])
            target = self.new(loops[0].merge) if loops else self.post
            copy.body[-1] = Instruction(OP_BRANCH, None, None, (Id(target),))
            if target == self.post:
                if self.result_type is not None:
                    undef = self.context.declarations.undef(self.result_type)
                    self.pairs.append((Id(undef), Id(copy.id)))
                continue
            merge = next(c for c in self.copies if c.id == target)
            merge.body = [
                self._undef_pair(inst, copy.id) if inst.opcode == OP_PHI else inst
                for inst in merge.body
            ]

    def _loops(self, old_label: int) -> list[Construct]:
        """The loops of the callee around block ``old_label``, innermost first."""
        return [c for c in self.nest.enclosing(old_label) if c.kind is ConstructKind.LOOP]

    def _variable(self, type_id: int, rid: int) -> Instruction:
        pointer = self.context.declarations.function_pointer(type_id)
        return Instruction(OP_VARIABLE, TypeId(pointer), Id(rid), (StorageClass.Function, None))

    def _leave(self, block: Block, target: int) -> None:
        """A return made a branch to ``target``, its value a pair of the phi there."""
        last = block.body[-1]
        if self.result_type is not None:
            self.pairs.append((self._value(last), Id(block.id)))
        block.body[-1] = Instruction(OP_BRANCH, None, None, (Id(target),))

    def _value(self, last: Instruction) -> Id:
        """The value a return returns (PassError for none)."""
        if not last.operands or not isinstance(last.operands[0], Id):
            raise self.context.fail("returns no value from a function that returns one", last)
        return last.operands[0]

    def _exit_block(
        self, construct: Construct, label: int, flag: int, ret: int, target: int
    ) -> Block:
        """The block before the merge of ``construct`` (made its merge): the edges from
        inside the construct to the merge come here, with the merge's phis for them; on
        to the merge when the flag is clear, else to ``target``."""
        declarations = self.context.declarations
        program = declarations.program
        merge = self.new(construct.merge)
        moved: set[int] = set()
        for copy in self.copies:
            if not self.nest.inside(self.old_label[copy.id], construct.header):
                continue
            last = copy.body[-1]
            if merge in used_ids(last):
                copy.body[-1] = rename(last, lambda i: label if i == merge else i)
                moved.add(copy.id)
            if self.old_label[copy.id] == construct.header:
                where = copy.body[-2]
                merge_index = MERGES[where.opcode][0]
                operands = list(where.operands)
                operands[merge_index] = Id(label)
                copy.body[-2] = where._replace(operands=tuple(operands))
        merge_block = next((c for c in self.copies if c.id == merge), None)
        if merge_block is None:
            raise PassError(
                self.context.name,
                f"the merge block %{construct.merge} of %{construct.header} is no block of "
                f"function %{self.callee}",
            )
        body: list[Instruction] = []
        kept: list[Instruction] = []
        for inst in merge_block.body:
            if inst.opcode != OP_PHI:
                kept.append(inst)
                continue
            pairs = inst.operands[0]
            inside = tuple(p for p in pairs if int(p[1]) in moved)
            if not inside:
                kept.append(inst)
                continue
            value = program.new_id()
            assert inst.result_type is not None
            body.append(Instruction(OP_PHI, inst.result_type, Id(value), (inside,)))
            outside = tuple(p for p in pairs if int(p[1]) not in moved)
            kept.append(
                inst._replace(operands=((*outside, (Id(value), Id(label))), *inst.operands[1:]))
            )
        merge_block.body = kept
        if target == self.post and ret:
            assert self.result_type is not None
            loaded = program.new_id()
            body.append(Instruction(OP_LOAD, TypeId(self.result_type), Id(loaded), (Id(ret),)))
            self.pairs.append((Id(loaded), Id(label)))
        condition = program.new_id()
        body.append(
            Instruction(OP_LOAD, TypeId(declarations.bool_type()), Id(condition), (Id(flag),))
        )
        body.append(
            Instruction(
                OP_BRANCH_CONDITIONAL, None, None, (Id(condition), Id(target), Id(merge), ())
            )
        )
        return Block(Instruction(OP_LABEL, None, Id(label), ()), body)

    def _undef_pair(self, phi: Instruction, parent: int) -> Instruction:
        assert phi.result_type is not None
        undef = self.context.declarations.undef(int(phi.result_type))
        return phi._replace(
            operands=((*phi.operands[0], (Id(undef), Id(parent))), *phi.operands[1:])
        )
