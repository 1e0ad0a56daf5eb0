"""Inlining (``inline-entry-points-exhaustive``, ``inline-all``): a call replaced by a copy of
the function it calls.

``inline-entry-points-exhaustive`` inlines every call in the functions an entry point
reaches, so that the entry points call nothing (spirv-opt's pass of that name);
``inline-all`` every call in every function.  Functions are inlined into callers callees
first, so a copy never holds a call that could have been inlined.  A call to a function
without a body (an import) stays.  A call cycle (recursion, which SPIR-V forbids) is a
PassError naming a function on it.  Functions that were called and no longer are, and
are not exported, go with their names and decorations.

At a call the block is split: what precedes the call branches into the copy of the
callee's blocks (every id the callee defines made fresh, its parameters replaced by the
arguments); what follows the call goes into a new block, which returns reach.

* The callee's ``Function`` variables move to the caller's first block (an initializer
  becomes a store where the copy starts, so a call in a loop starts again from it).
* A return becomes a branch to the block after the call; the value returned reaches it
  through an ``OpPhi`` holding the call's result id (one return at the callee's top
  level: its value replaces the result's uses, no phi).
* Where a return lies inside a construct (a selection, a switch, a loop), the copy is
  wrapped in a loop that runs once (its merge block the block after the call, its
  continue target a block nothing reaches), so that a return is a break out of it, which
  structured control flow allows from selections and switches (a break of the innermost
  loop).  A loop cannot be left for any merge but its own: a return inside one stores
  its value into a new ``Function`` variable, sets a new ``Function`` flag variable and
  breaks out of the innermost loop around it, to a new block before that loop's merge
  block, which goes on to the merge when the flag is clear and else breaks on outwards
  the same way.  An ``OpUnreachable`` of such a copy becomes a break too (of the innermost
  loop around it, else of the one-trip loop), so that a copy in a continue construct
  leaves no path that misses its back edge.
  These variables are only loaded and stored whole: mem2reg turns them into SSA values.
* The callee's ``OpLine``/``OpNoLine`` are kept; its instructions of the DebugInfo sets
  (scopes, declarations of its locals) are dropped.  Decorations of the ids the callee
  defines are copied to the fresh ids; its names are not.

Unreachable blocks are removed first (:mod:`spvbuild.passes.unreachable`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from spvbuild.debuginfo.flavors import DEBUG_SETS
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import Decoration, LinkageType
from spvbuild.generated.core.opcodes import (
    OP_BRANCH,
    OP_ENTRY_POINT,
    OP_FUNCTION_CALL,
    OP_LABEL,
    OP_LOOP_MERGE,
    OP_PHI,
    OP_STORE,
    OP_VARIABLE,
)
from spvbuild.passes.control_flow import merge_of
from spvbuild.passes.dead_code import import_names
from spvbuild.passes.declarations import DeclarationPool
from spvbuild.passes.ids import is_targeting, rename, used_ids, uses_any
from spvbuild.passes.inline_context import InlineContext
from spvbuild.passes.inline_returns import Returns
from spvbuild.passes.program import Block, Function, Program, join, split
from spvbuild.passes.unreachable import remove_unreachable_blocks
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters

__all__ = ["ALL_NAME", "ENTRY_POINTS_NAME", "inline_all", "inline_entry_points"]

ENTRY_POINTS_NAME = "inline-entry-points-exhaustive"
ALL_NAME = "inline-all"

_DECORATIONS = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.section == "annotations"
    and not info.has_result
    and info.operands
    and info.operands[0].kind == "IdRef"
    and not any(op.quantifier == "*" for op in info.operands)
)
"""Decorations of one target, operand 0 (not the group ones)."""


def inline_entry_points(program: Program) -> Program:
    """``program`` with every call in the functions its entry points reach inlined (a new
    program; ``program`` unchanged).  PassError on a call cycle or a call to an id that is
    no function of the module."""
    return _inline(program, ENTRY_POINTS_NAME, entry_points_only=True)


def inline_all(program: Program) -> Program:
    """``program`` with every call of every function inlined, where the callee has a body
    (a new program; ``program`` unchanged).  PassError as :func:`inline_entry_points`."""
    return _inline(program, ALL_NAME, entry_points_only=False)


def _inline(program: Program, name: str, *, entry_points_only: bool) -> Program:
    if not program.holds(OP_FUNCTION_CALL):
        return program.copy()  # (nothing to inline)
    program = remove_unreachable_blocks(program)
    layout = split(program, name)
    out = program.copy()
    functions = {f.id: f for f in layout.functions}
    if entry_points_only:
        roots = [
            int(inst.operands[1])
            for inst in layout.head
            if inst.opcode == OP_ENTRY_POINT
            and len(inst.operands) > 1
            and isinstance(inst.operands[1], Id)
        ]
    else:
        roots = list(functions)
    decorations: dict[int, list[Instruction]] = defaultdict(list)
    for inst in layout.head:
        if inst.opcode in _DECORATIONS and inst.operands and isinstance(inst.operands[0], Id):
            decorations[int(inst.operands[0])].append(inst)
    debug = {rid for rid, set_name in import_names(layout.head).items() if set_name in DEBUG_SETS}
    context = InlineContext(name, functions, DeclarationPool(out, layout.head), decorations, debug)
    inlined: set[int] = set()
    for fid in _callees_first(context, [r for r in roots if r in functions]):
        inlined |= _inline_calls(context, functions[fid])
    if not inlined:
        return program
    layout.head = context.declarations.head_with_additions()
    _remove_uncalled(layout.head, layout.functions, inlined, context.substituted)
    out.instructions = join(layout)
    return out


def _calls(context: InlineContext, function: Function) -> Iterable[tuple[Instruction, Function]]:
    """The calls of ``function`` that can be inlined, with their callees."""
    for block in function.blocks:
        for inst in block.body:
            if inst.opcode != OP_FUNCTION_CALL:
                continue
            target = inst.operands[0] if inst.operands else None
            callee = context.functions.get(int(target)) if isinstance(target, Id) else None
            if callee is None:
                raise context.fail(f"calls {target!r}, which is no function of the module", inst)
            if callee.blocks:
                yield inst, callee


def _callees_first(context: InlineContext, roots: list[int]) -> list[int]:
    """The functions ``roots`` reach through calls, each after every function it calls;
    PassError on a cycle."""
    order: list[int] = []
    state: dict[int, bool] = {}  # False: being visited, True: done
    for root in roots:
        if root in state:
            continue
        state[root] = False
        path = [root]
        stack = [iter([callee.id for _, callee in _calls(context, context.functions[root])])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                done = path.pop()
                state[done] = True
                order.append(done)
                continue
            seen = state.get(nxt)
            if seen is False:
                cycle = " -> ".join(f"%{f}" for f in path[path.index(nxt) :] + [nxt])
                start = context.functions[nxt].start[0]
                raise context.fail(f"recursion, which SPIR-V forbids: {cycle}", start)
            if seen is None:
                state[nxt] = False
                path.append(nxt)
                stack.append(
                    iter([callee.id for _, callee in _calls(context, context.functions[nxt])])
                )
    return order


def _inline_calls(context: InlineContext, function: Function) -> set[int]:
    """Inline every call of ``function`` that can be; the callees inlined."""
    inlined: set[int] = set()
    substitute: dict[int, int] = {}
    index = 0
    while index < len(function.blocks):
        block = function.blocks[index]
        found = None
        for position, inst in enumerate(block.body):
            if inst.opcode == OP_FUNCTION_CALL:
                callee = context.functions.get(int(inst.operands[0]))
                if callee is not None and callee.blocks:
                    found = position, callee
                    break
        if found is None:
            index += 1
            continue
        position, callee = found
        index = _inline_call(context, function, index, position, callee, substitute)
        inlined.add(callee.id)
    if substitute:

        def final(rid: int) -> int:
            while rid in substitute:
                rid = substitute[rid]
            return rid

        replaced = substitute.keys()
        for block in function.blocks:
            block.body = [
                inst if not uses_any(inst, replaced) else rename(inst, final)
                for inst in block.body
            ]
        context.substituted |= substitute.keys()
    return inlined


def _retarget_phis(function: Function, last: Instruction, old: int, new: int) -> None:
    """The phis of the blocks ``last`` (a terminator moved from block ``old`` to block
    ``new``) branches to name ``new`` as their parent where they named ``old``."""
    targets = set(used_ids(last))
    for block in function.blocks:
        if block.id not in targets:
            continue
        block.body = [
            _phi_renamed_parent(inst, old, new) if inst.opcode == OP_PHI else inst
            for inst in block.body
        ]


def _phi_renamed_parent(inst: Instruction, old: int, new: int) -> Instruction:
    pairs = inst.operands[0]
    return inst._replace(
        operands=(tuple((v, Id(new) if int(p) == old else p) for v, p in pairs), *inst.operands[1:])
    )


def _split_loop_header(context: InlineContext, function: Function, index: int) -> None:
    """Split a loop header holding a call: its phis and merge instruction stay, the rest
    goes into a new block after it (the header then branches there)."""
    block = function.blocks[index]
    phis = 0
    while phis < len(block.body) and block.body[phis].opcode == OP_PHI:
        phis += 1
    rest_label = context.declarations.program.new_id()
    rest = Block(
        Instruction(OP_LABEL, None, Id(rest_label), ()), block.body[phis:-2] + block.body[-1:]
    )
    block.body = [
        *block.body[:phis],
        block.body[-2],
        Instruction(OP_BRANCH, None, None, (Id(rest_label),)),
    ]
    function.blocks.insert(index + 1, rest)
    _retarget_phis(function, rest.body[-1], block.id, rest_label)


def _inline_call(
    context: InlineContext,
    caller: Function,
    index: int,
    position: int,
    callee: Function,
    substitute: dict[int, int],
) -> int:
    """Inline the call at ``position`` of block ``index`` of ``caller``; the index of the
    block that holds what followed the call."""
    program = context.declarations.program
    block = caller.blocks[index]
    header = merge_of(block)
    if header is not None and block.body[-2].opcode == OP_LOOP_MERGE:
        found = block.body[position]
        _split_loop_header(context, caller, index)
        index += 1
        block = caller.blocks[index]
        position = next(n for n, i in enumerate(block.body) if i is found)
    call = block.body[position]
    if position == len(block.body) - 1:
        raise context.fail("ends its block: a block without a terminator", call)
    args = call.operands[1] if len(call.operands) > 1 else ()
    params = callee.start[1:]
    if len(args) != len(params):
        raise context.fail(
            f"passes {len(args)} arguments to %{callee.id}, which takes {len(params)}", call
        )

    fresh = {int(p.result_id or 0): int(a) for p, a in zip(params, args, strict=True)}
    defined = []
    for callee_block in callee.blocks:
        defined.append(callee_block.id)
        defined.extend(
            int(inst.result_id) for inst in callee_block.body if inst.result_id is not None
        )
    for old in defined:
        fresh[old] = program.new_id()

    def new(rid: int) -> int:
        return fresh.get(rid, rid)

    copies, variables = _copy_blocks(context, callee, new)
    for old in defined:
        for decoration in context.decorations.get(old, ()):
            context.declarations.annotate(rename(decoration, new))

    post_label = program.new_id()
    post = Block(Instruction(OP_LABEL, None, Id(post_label), ()), block.body[position + 1 :])
    _retarget_phis(caller, post.body[-1], block.id, post_label)
    block.body = block.body[:position]
    result_type = int(call.result_type) if call.result_type is not None else None
    valued = result_type is not None and not context.is_void(result_type)

    returns = Returns(context, callee, copies, new, post_label, result_type if valued else None)
    new_blocks, pairs = returns.rewrite(block, variables)

    if valued and call.result_id is not None:
        assert result_type is not None
        result = int(call.result_id)
        if not pairs:
            substitute[result] = context.declarations.undef(result_type)
        elif len(pairs) == 1 and not returns.wrapped:
            substitute[result] = int(pairs[0][0])
        else:
            phi = Instruction(OP_PHI, TypeId(result_type), Id(result), (tuple(pairs),))
            post.body.insert(0, phi)
    caller.blocks[index + 1 : index + 1] = [*new_blocks, post]
    entry = caller.blocks[0].body
    at = 0
    for n, inst in enumerate(entry):
        if inst.opcode == OP_VARIABLE:
            at = n + 1
        elif inst.opcode not in _LINES:
            break
    entry[at:at] = variables
    return index + 1 + len(new_blocks)


_LINES = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.cls == "Debug" and info.section == "functions"
)
"""``OpLine``, ``OpNoLine``: what may stand among a function's first variables."""


def _copy_blocks(
    context: InlineContext, callee: Function, new: Callable[[int], int]
) -> tuple[list[Block], list[Instruction]]:
    """The callee's blocks with fresh ids, without its variables and DebugInfo
    instructions; its variables (without initializers, which become stores at the start
    of the copy)."""
    copies: list[Block] = []
    variables: list[Instruction] = []
    stores: list[Instruction] = []
    for number, callee_block in enumerate(callee.blocks):
        body = []
        for inst in callee_block.body:
            if (
                inst.opcode in tables.EXT_INST_OPCODES
                and inst.operands
                and int(inst.operands[0]) in context.debug_imports
            ):
                continue
            copy = rename(inst, new)
            if number == 0 and inst.opcode == OP_VARIABLE and copy.result_id is not None:
                if len(copy.operands) > 1 and copy.operands[1] is not None:
                    pointer = Id(int(copy.result_id))
                    stores.append(Instruction(OP_STORE, None, None, (pointer, copy.operands[1])))
                    copy = copy._replace(operands=(copy.operands[0], None))
                variables.append(copy)
                continue
            body.append(copy)
        if not body:
            raise context.fail("a block without a terminator", callee_block.label)
        copies.append(Block(rename(callee_block.label, new), body))
    copies[0].body[:0] = stores
    return copies, variables


def _exported(head: list[Instruction]) -> set[int]:
    """The ids a ``LinkageAttributes ... Export`` decoration names."""
    out = set()
    for inst in head:
        if not is_targeting(inst):
            continue
        for value in inst.operands[1:]:
            if (
                isinstance(value, EnumerantParameters)
                and value.enumerant == Decoration.LinkageAttributes
                and LinkageType.Export in value.parameters
            ):
                out.add(int(inst.operands[0]))
    return out


def _remove_uncalled(
    head: list[Instruction], functions: list[Function], inlined: set[int], substituted: set[int]
) -> None:
    """Remove the functions of ``inlined`` nothing uses any more (exports stay), and the
    names and decorations of what they defined and of the calls' results replaced."""
    used: set[int] = set()
    for inst in head:
        if not is_targeting(inst):
            used.update(used_ids(inst))
    for function in functions:
        own: set[int] = set()
        for inst in function.instructions():
            own.update(used_ids(inst))
        own.discard(function.id)  # (a DebugFunctionDefinition in its body names it)
        used |= own
    keep = _exported(head) | used
    gone = set(substituted)
    kept_functions = []
    for function in functions:
        if function.id in inlined and function.id not in keep:
            gone.update(
                int(i.result_id) for i in function.instructions() if i.result_id is not None
            )
        else:
            kept_functions.append(function)
    functions[:] = kept_functions
    if gone:
        head[:] = [i for i in head if not (is_targeting(i) and int(i.operands[0]) in gone)]
