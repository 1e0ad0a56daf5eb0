"""Structured control flow as context managers: the blocks, merges and branches made for you.

SPIR-V's structured control flow needs, for every ``if``, a header block ending in
``OpSelectionMerge`` + ``OpBranchConditional``, the branches' blocks and a merge block;
for every loop a header with ``OpLoopMerge``, a continue target and a merge block.  Here
a frontend writes the construct and the library makes them::

    with if_else(m, condition) as (then, otherwise):
        with then:
            ...
        with otherwise:
            ...
    with for_range(m, u32, zero, count) as (loop, i):
        with if_then(m, m.u_less_than(bool_type, i, limit)):
            loop.break_()
        ...
    with switch(m, selector, cases=[1, 2]) as cases:
        with cases.case(1):
            ...
        with cases.default():
            ...

Each construct ends its blocks with the branch they need unless the code in them already
ended them (a ``break_()``, a ``return_()``); the code after a construct goes to its merge
block.  ``break_()`` and ``continue_()`` branch to their loop's merge block and continue
target; only the innermost open loop's (SPIR-V's structured exits: an outer loop is left by
a flag tested after the inner loop).  Misuse is a :class:`~spvbuild.errors.BuildError` at
the call: a ``break_()`` outside its loop, after it ended or from inside an inner loop, a
branch opened twice, a case not listed, a construct opened outside a block, a ``switch``
selector that is no integer, a ``for_range`` bound or step of another type than the loop's.
Values that flow around a loop: :func:`phi`, whose incoming pairs can be added later
(``Phi.add``); one still without any when the module is serialized is a BuildError located
at its ``phi`` call.  A construct left by an exception makes no more instructions.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field

from spvbuild.errors import BuildError
from spvbuild.generated.core.enums import LoopControl, SelectionControl
from spvbuild.generated.core.opcodes import OP_PHI, OP_TYPE_INT
from spvbuild.ir.module import Module
from spvbuild.spirv.call_site import caller_location, located
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

__all__ = [
    "Branch",
    "Cases",
    "Loop",
    "Phi",
    "do_while",
    "for_range",
    "if_else",
    "if_then",
    "phi",
    "switch",
    "while_loop",
]

# The loops open in each module, innermost last (break_/continue_ check theirs is there).
_open_loops: weakref.WeakKeyDictionary[Module, list[Loop]] = weakref.WeakKeyDictionary()


def _error(message: str) -> BuildError:
    return BuildError(located(message))


def _in_block(m: Module, what: str) -> Id:
    """The current block's label; BuildError where there is none or it has ended."""
    label = m.current_block
    if label is None or m.block_terminated:
        raise _error(f"{what}: no open block to start it in (call label() or end the construct)")
    return label


def _integer_typed(m: Module, what: str, name: str, value: Id, expected: TypeId | None) -> None:
    """BuildError unless ``value`` is a value of an integer scalar type of ``m`` (of
    ``expected``, when given)."""
    found = m.definition(value) if isinstance(value, int) else None
    if found is None or found.result_type is None:
        raise _error(f"{what}: {name} {value!r} is no value this module defines")
    typed = m.definition(found.result_type)
    if expected is not None and found.result_type != expected:
        raise _error(
            f"{what}: {name} {value!r} is of type {found.result_type!r}, not of the loop's "
            f"type {expected!r}"
        )
    if typed is None or typed.opcode != OP_TYPE_INT:
        raise _error(
            f"{what}: {name} {value!r} must be an integer scalar, not of type "
            f"{found.result_type!r}"
        )


def _end_with_branch(m: Module, target: Id) -> None:
    """Branch to ``target`` unless the current block already has its terminator."""
    if m.current_block is not None and not m.block_terminated:
        m.branch(target)


# -- if ---------------------------------------------------------------------------------
@contextmanager
def if_then(m: Module, condition: Id) -> Iterator[None]:
    """``if (condition) { ... }``: the body goes to the then-block; the code after the
    ``with`` to the merge block."""
    _in_block(m, "if_then")
    then, merge = m.new_id(), m.new_id()
    m.selection_merge(merge, SelectionControl.None_)
    m.branch_conditional(condition, then, merge)
    m.label(result_id=then)
    yield
    _end_with_branch(m, merge)
    m.label(result_id=merge)


@dataclass
class Branch:
    """One branch of :func:`if_else`: a context manager for the code that goes in it."""

    module: Module
    label: Id
    merge: Id
    name: str
    state: str = "waiting"  # waiting → open → done

    def __enter__(self) -> Branch:
        if self.state != "waiting":
            raise _error(f"if_else: the {self.name} branch was opened already")
        if not self.module.block_terminated and self.module.current_block is not None:
            raise _error(
                f"if_else: the {self.name} branch opens where another block is still open "
                "(open the branches directly inside the if_else)"
            )
        self.state = "open"
        self.module.label(result_id=self.label)
        return self

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        self.state = "done"
        if kind is None:
            _end_with_branch(self.module, self.merge)


@contextmanager
def if_else(m: Module, condition: Id) -> Iterator[tuple[Branch, Branch]]:
    """``if (condition) { ... } else { ... }``: gives the two branches, each a context
    manager for its code (a branch not opened is an empty block); the code after the
    ``with`` goes to the merge block."""
    _in_block(m, "if_else")
    merge = m.new_id()
    then = Branch(m, m.new_id(), merge, "then")
    otherwise = Branch(m, m.new_id(), merge, "else")
    m.selection_merge(merge, SelectionControl.None_)
    m.branch_conditional(condition, then.label, otherwise.label)
    yield then, otherwise
    for branch in (then, otherwise):
        if branch.state == "open":
            raise _error(f"if_else: the {branch.name} branch is still open")
        if branch.state == "waiting":  # never opened: an empty block
            with branch:
                pass
    m.label(result_id=merge)


# -- loops --------------------------------------------------------------------------------
@dataclass
class Loop:
    """An open loop: its header, continue target and merge block; ``break_()`` and
    ``continue_()`` branch out of the current block to them."""

    module: Module
    header: Id
    continue_target: Id
    merge: Id
    open: bool = field(default=True)

    def _check(self, what: str) -> None:
        loops = _open_loops.get(self.module, [])
        if not self.open or self not in loops:
            raise _error(f"{what}: the loop with header {self.header!r} has ended")
        if loops[-1] is not self:
            raise _error(
                f"{what}: the loop with header {self.header!r} is not the innermost open "
                f"loop (that is {loops[-1].header!r}); a branch to an outer loop is no "
                "structured exit: leave the inner loop and test a flag after it"
            )
        if self.module.current_block is None or self.module.block_terminated:
            raise _error(f"{what}: no open block to branch from")

    def break_(self) -> None:
        """Leave the loop: branch to its merge block (the current block ends)."""
        self._check("break_")
        self.module.branch(self.merge)

    def continue_(self) -> None:
        """Go to the next iteration: branch to the continue target (the block ends)."""
        self._check("continue_")
        self.module.branch(self.continue_target)


@contextmanager
def _loop(m: Module, what: str) -> Iterator[Loop]:
    """The header block (OpLoopMerge, then a branch to the block after it) and the loop's
    registration; the caller makes the rest."""
    _in_block(m, what)
    loop = Loop(m, m.new_id(), m.new_id(), m.new_id())
    m.branch(loop.header)
    m.label(result_id=loop.header)
    loops = _open_loops.setdefault(m, [])
    loops.append(loop)
    try:
        yield loop
    finally:
        loop.open = False
        loops.remove(loop)


@contextmanager
def while_loop(
    m: Module, condition: Callable[[], Id], step: Callable[[], object] | None = None
) -> Iterator[Loop]:
    """``while (condition()) { ... }``: ``condition`` makes the condition's instructions
    (it is called once, in the block that tests it, before every iteration); ``step``, if
    given, makes those of the continue target, run after each iteration and each
    ``continue_()`` (a C ``for`` loop's increment)."""
    with _loop(m, "while_loop") as loop:
        test, body = m.new_id(), m.new_id()
        m.loop_merge(loop.merge, loop.continue_target, LoopControl.None_)
        m.branch(test)
        m.label(result_id=test)
        m.branch_conditional(condition(), body, loop.merge)
        m.label(result_id=body)
        yield loop
        _end_with_branch(m, loop.continue_target)
        m.label(result_id=loop.continue_target)
        if step is not None:
            step()
        m.branch(loop.header)
    m.label(result_id=loop.merge)


@contextmanager
def do_while(m: Module, condition: Callable[[], Id]) -> Iterator[Loop]:
    """``do { ... } while (condition())``: the body runs once before the first test;
    ``condition`` makes its instructions in the continue target."""
    with _loop(m, "do_while") as loop:
        body = m.new_id()
        m.loop_merge(loop.merge, loop.continue_target, LoopControl.None_)
        m.branch(body)
        m.label(result_id=body)
        yield loop
        _end_with_branch(m, loop.continue_target)
        m.label(result_id=loop.continue_target)
        m.branch_conditional(condition(), loop.header, loop.merge)
    m.label(result_id=loop.merge)


@contextmanager
def for_range(
    m: Module, type: TypeId, start: Id, stop: Id, step: Id | None = None
) -> Iterator[tuple[Loop, Id]]:
    """``for (i = start; i < stop; i += step) { ... }`` over the integer ``type`` (signed
    or unsigned, as declared; ``step`` is 1 by default): gives the loop and ``i``, an
    OpPhi of the header."""
    definition = m.definition(type)
    if definition is None or definition.opcode != OP_TYPE_INT or len(definition.operands) < 2:
        raise _error(f"for_range: {type!r} is no integer type of this module")
    signed = bool(definition.operands[1])
    bool_type = m.type_bool()
    if step is None:
        step = m.constant(type, 1)
    for what, value in (("start", start), ("stop", stop), ("step", step)):
        _integer_typed(m, "for_range", what, value, type)
    before = _in_block(m, "for_range")
    with _loop(m, "for_range") as loop:
        counter = phi(m, type, [(start, before)])
        test, body = m.new_id(), m.new_id()
        m.loop_merge(loop.merge, loop.continue_target, LoopControl.None_)
        m.branch(test)
        m.label(result_id=test)
        less = m.s_less_than if signed else m.u_less_than
        m.branch_conditional(less(bool_type, counter.id, stop), body, loop.merge)
        m.label(result_id=body)
        yield loop, counter.id
        _end_with_branch(m, loop.continue_target)
        m.label(result_id=loop.continue_target)
        counter.add(m.i_add(type, counter.id, step), loop.continue_target)
        m.branch(loop.header)
    m.label(result_id=loop.merge)


# -- switch -------------------------------------------------------------------------------
@dataclass
class Cases:
    """The cases of an open :func:`switch`: ``case(value)`` and ``default()`` are context
    managers for their blocks (no fallthrough: each ends with a branch to the merge)."""

    module: Module
    merge: Id
    labels: dict[int, Id]
    default_label: Id
    opened: set[int | None] = field(default_factory=set)

    @contextmanager
    def _block(self, key: int | None, label: Id, what: str) -> Iterator[None]:
        if key in self.opened:
            raise _error(f"switch: {what} was opened already")
        m = self.module
        if m.current_block is not None and not m.block_terminated:
            raise _error(f"switch: {what} opens where another block is still open")
        self.opened.add(key)
        m.label(result_id=label)
        yield
        _end_with_branch(m, self.merge)

    def case(self, value: int) -> AbstractContextManager[None]:
        """The block of ``case value:`` (a value listed in ``cases``)."""
        label = self.labels.get(value) if isinstance(value, int) else None
        if label is None:
            listed = ", ".join(map(str, self.labels)) or "none"
            raise _error(f"switch: case {value!r} is not among the cases listed ({listed})")
        return self._block(value, label, f"case {value}")

    def default(self) -> AbstractContextManager[None]:
        """The block of ``default:``."""
        return self._block(None, self.default_label, "default")


@contextmanager
def switch(m: Module, selector: Id, cases: Sequence[int]) -> Iterator[Cases]:
    """``switch (selector) { case ...: ... default: ... }`` over the integer ``cases``
    (each once): gives the :class:`Cases`; a case or the default not opened is an empty
    block; the code after the ``with`` goes to the merge block."""
    _in_block(m, "switch")
    _integer_typed(m, "switch", "the selector", selector, None)
    values = list(cases)
    if len(set(values)) != len(values) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in values
    ):
        raise _error(f"switch: the cases must be distinct ints, not {values!r}")
    merge, default = m.new_id(), m.new_id()
    labels = {value: m.new_id() for value in values}
    m.selection_merge(merge, SelectionControl.None_)
    m.switch(selector, default, [(value, label) for value, label in labels.items()])
    found = Cases(m, merge, labels, default)
    yield found
    for value, label in labels.items():
        if value not in found.opened:
            with found._block(value, label, f"case {value}"):
                pass
    if None not in found.opened:
        with found._block(None, default, "default"):
            pass
    m.label(result_id=merge)


# -- phi ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Phi:
    """An OpPhi whose incoming pairs can be added after it is made."""

    module: Module
    id: Id

    def add(self, value: Id, parent: Id | None = None) -> Phi:
        """Add (``value``, ``parent``): ``parent`` is the block it comes from, the current
        block by default."""
        block = parent if parent is not None else self.module.current_block
        if block is None:
            raise _error("Phi.add: no current block to take the value from; give parent=")
        self.module.add_phi_incoming(self.id, value, block)
        return self


def phi(m: Module, type: TypeId, incoming: Sequence[tuple[Id, Id]] = ()) -> Phi:
    """An OpPhi of ``type`` at the start of the current block with the (value, parent
    block) pairs in ``incoming``; more can be added with :meth:`Phi.add`.  An OpPhi made
    without pairs that still has none when the module is serialized is a BuildError
    located at this call."""
    _in_block(m, "phi")
    made = Phi(m, m.phi(type, list(incoming)))
    if not incoming:
        pending = _empty_phis.get(m)
        if pending is None:
            pending = _empty_phis[m] = {}
            m.add_check(_phis_have_pairs(pending))
        pending[int(made.id)] = caller_location() or "?"
    return made


# The phis of each module made without pairs: their ids and where phi() was called.
_empty_phis: weakref.WeakKeyDictionary[Module, dict[int, str]] = weakref.WeakKeyDictionary()


def _phis_have_pairs(pending: dict[int, str]) -> Callable[[list[Instruction]], None]:
    """A module check: BuildError for an OpPhi of ``pending`` that has no incoming pairs."""

    def check(instructions: list[Instruction]) -> None:
        for inst in instructions:
            if inst.opcode == OP_PHI and inst.result_id in pending and not inst.operands[0]:
                raise BuildError(
                    f"phi: the OpPhi %{inst.result_id} has no incoming (value, parent) pairs; "
                    f"add one per predecessor block with Phi.add "
                    f"(at {pending[inst.result_id]})"
                )

    return check
