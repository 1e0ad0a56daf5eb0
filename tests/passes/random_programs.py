"""Random programs made by a random sequence of builder calls: :func:`programs` draws
(with hypothesis) a compute shader over 32-bit unsigned values, :func:`build` makes it
through :class:`~spvbuild.ir.module.Module`'s methods and the structured constructs of
:mod:`spvbuild.constructs`, the way a frontend does: every local a ``Function`` variable,
helper functions called (some taking a local by pointer, as ``inout``), ``if``/``else``,
loops with ``break``/``continue``, ``switch``, returns from anywhere.

A program reads ``data[i]`` (``i`` the invocation's x) into its first local and writes
``data[i]`` where it says so, and a mix of its locals wherever ``main`` ends; every loop has a constant trip count and every division a
divisor with its low bit set, so a program always ends and computes the same on any
driver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from spvbuild.constructs import (
    STD430,
    Array,
    Field,
    Struct,
    builtin,
    declare_struct,
    for_range,
    if_else,
    if_then,
    load,
    switch,
    u32,
)
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    DecorationBinding,
    DecorationDescriptorSet,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    StorageClass,
)
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id, TypeId

LOCALS = 4
HELPERS = 3
BINARY = ("add", "sub", "mul", "and", "or", "xor", "shl", "shr", "div", "mod", "min", "select")

Expr = tuple[Any, ...]
"""``("const", n)``, ``("local", k)``, ``("param", k)``, ``(op, a, b)`` of :data:`BINARY`,
``("call", helper, a, b)``."""
Stmt = tuple[Any, ...]
"""``("set", k, e)``, ``("out", e)``, ``("if", e, then, else)``, ``("loop", n, body)``,
``("break",)``, ``("continue",)``, ``("switch", e, cases, default)``, ``("return", e)``,
``("inout", helper, k)``."""


@dataclass(frozen=True)
class Helper:
    """A helper function: ``inout`` (takes a pointer to a local and a value, else two
    values), its ``body`` and the expression it returns at its end."""

    inout: bool
    body: tuple[Stmt, ...]
    result: Expr


@dataclass(frozen=True)
class RandomProgram:
    """``helpers`` (helper ``h`` calls only helpers below ``h``) and ``main``'s body."""

    helpers: tuple[Helper, ...]
    main: tuple[Stmt, ...]


def _expressions(helpers: int, params: bool) -> st.SearchStrategy[Expr]:
    leaves: list[st.SearchStrategy[Expr]] = [
        st.tuples(st.just("const"), st.integers(0, 2**32 - 1) | st.integers(0, 9)),
        st.tuples(st.just("local"), st.integers(0, LOCALS - 1)),
    ]
    if params:
        leaves.append(st.tuples(st.just("param"), st.integers(0, 1)))

    def extend(inner: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        made: list[st.SearchStrategy[Expr]] = [st.tuples(st.sampled_from(BINARY), inner, inner)]
        if helpers:
            made.append(st.tuples(st.just("call"), st.integers(0, helpers - 1), inner, inner))
        return st.one_of(made)

    return st.recursive(st.one_of(leaves), extend, max_leaves=6)


def _statements(
    expr: st.SearchStrategy[Expr], helpers: int, in_loop: bool, depth: int, returns: bool
) -> st.SearchStrategy[tuple[Stmt, ...]]:
    simple: list[st.SearchStrategy[Stmt]] = [
        st.tuples(st.just("set"), st.integers(0, LOCALS - 1), expr),
        st.tuples(st.just("out"), expr),
        st.tuples(st.just("return"), expr) if returns else st.just(("return", None)),
    ]
    if helpers:
        simple.append(
            st.tuples(st.just("inout"), st.integers(0, helpers - 1), st.integers(0, LOCALS - 1))
        )
    if in_loop:
        simple += [st.just(("break",)), st.just(("continue",))]
    choices = list(simple)
    if depth > 0:
        inner = _statements(expr, helpers, in_loop, depth - 1, returns)
        looped = _statements(expr, helpers, True, depth - 1, returns)
        choices += [
            st.tuples(st.just("if"), expr, inner, inner),
            st.tuples(st.just("loop"), st.integers(0, 4), looped),
            st.tuples(st.just("switch"), expr, st.lists(inner, max_size=3).map(tuple), inner),
        ]
    return st.lists(st.one_of(choices), max_size=5).map(tuple)


@st.composite
def programs(draw: st.DrawFn) -> RandomProgram:
    """A random program (see the module's docstring)."""
    helpers = []
    for index in range(draw(st.integers(0, HELPERS))):
        expr = _expressions(index, params=True)
        body = draw(_statements(expr, index, False, 2, returns=True))
        helpers.append(Helper(draw(st.booleans()), body, draw(expr)))
    main = draw(
        _statements(_expressions(len(helpers), params=False), len(helpers), False, 3, False)
    )
    return RandomProgram(tuple(helpers), main)


@dataclass
class _Scope:
    """The function being emitted: its locals' variables, its parameters."""

    locals: list[Id]
    index: Id
    params: Sequence[Id] = ()
    pointer_param: Id | None = None
    stopped: bool = False
    loops: list[Any] = field(default_factory=list)


class _Emitter:
    def __init__(self, program: RandomProgram) -> None:
        m = self.m = Module(version=(1, 3))
        self.u32: TypeId = m.type_int(32, 0)
        self.bool: TypeId = m.type_bool()
        self.ptr: TypeId = m.type_pointer(StorageClass.Function, self.u32)
        block = declare_struct(m, Struct("Data", (Field("data", Array(u32, None)),)), STD430)
        self.buffer = m.variable(
            m.type_pointer(StorageClass.StorageBuffer, block.type), StorageClass.StorageBuffer
        )
        m.decorate(self.buffer, DecorationDescriptorSet(0)).decorate(
            self.buffer, DecorationBinding(0)
        )
        self.element = m.type_pointer(StorageClass.StorageBuffer, self.u32)
        self.program = program
        self.helpers: list[tuple[Id, bool]] = []

    # -- expressions --------------------------------------------------------------------
    def const(self, value: int) -> Id:
        return self.m.constant(self.u32, value)

    def expr(self, e: Expr, scope: _Scope) -> Id:
        m, t = self.m, self.u32
        kind = e[0]
        if kind == "const":
            return self.const(e[1])
        if kind == "local":
            return m.load(t, scope.locals[e[1]])
        if kind == "param":
            return scope.params[e[1]]
        if kind == "call":
            function, inout = self.helpers[e[1]]
            a, b = self.expr(e[2], scope), self.expr(e[3], scope)
            if inout:
                temporary = scope.locals[LOCALS - 1]
                m.store(temporary, a)
                return m.function_call(t, function, [temporary, b])
            return m.function_call(t, function, [a, b])
        a, b = self.expr(e[1], scope), self.expr(e[2], scope)
        if kind in ("div", "mod"):
            b = m.bitwise_or(t, b, self.const(1))
            return m.u_div(t, a, b) if kind == "div" else m.u_mod(t, a, b)
        if kind in ("shl", "shr"):
            b = m.bitwise_and(t, b, self.const(31))
            return (
                m.shift_left_logical(t, a, b) if kind == "shl" else m.shift_right_logical(t, a, b)
            )
        if kind == "min":
            return m.select(t, m.u_less_than(self.bool, a, b), a, b)
        if kind == "select":
            return m.select(
                t, m.i_equal(self.bool, m.bitwise_and(t, a, self.const(1)), self.const(0)), a, b
            )
        method = {
            "add": m.i_add,
            "sub": m.i_sub,
            "mul": m.i_mul,
            "and": m.bitwise_and,
            "or": m.bitwise_or,
            "xor": m.bitwise_xor,
        }[kind]
        return method(t, a, b)

    def condition(self, e: Expr, scope: _Scope) -> Id:
        value = self.expr(e, scope)
        return self.m.u_less_than(
            self.bool, self.m.bitwise_and(self.u32, value, self.const(7)), self.const(3)
        )

    # -- statements ---------------------------------------------------------------------
    def block(self, body: Sequence[Stmt], scope: _Scope, returns: bool) -> None:
        for statement in body:
            if scope.stopped:
                return
            self.statement(statement, scope, returns)

    def statement(self, s: Stmt, scope: _Scope, returns: bool) -> None:
        m, t = self.m, self.u32
        kind = s[0]
        if kind == "set":
            m.store(scope.locals[s[1]], self.expr(s[2], scope))
        elif kind == "out":
            pointer = m.access_chain(self.element, self.buffer, [self.const(0), scope.index])
            m.store(pointer, self.expr(s[1], scope))
        elif kind == "inout":
            function, inout = self.helpers[s[1]]
            if inout:
                m.function_call(t, function, [scope.locals[s[2]], self.const(s[2])])
            else:
                value = m.function_call(t, function, [m.load(t, scope.locals[s[2]]), self.const(5)])
                m.store(scope.locals[s[2]], value)
        elif kind == "if":
            with if_else(m, self.condition(s[1], scope)) as (then, otherwise):
                for branch, body in ((then, s[2]), (otherwise, s[3])):
                    with branch:
                        self.block(body, scope, returns)
                        scope.stopped = False
        elif kind == "loop":
            with for_range(m, t, self.const(0), self.const(s[1])) as (loop, _):
                scope.loops.append(loop)
                self.block(s[2], scope, returns)
                scope.loops.pop()
                scope.stopped = False
        elif kind == "switch":
            cases = list(range(len(s[2])))
            selector = m.bitwise_and(t, self.expr(s[1], scope), self.const(3))
            with switch(m, selector, cases=cases) as made:
                for value, body in enumerate(s[2]):
                    with made.case(value):
                        self.block(body, scope, returns)
                        scope.stopped = False
                with made.default():
                    self.block(s[3], scope, returns)
                    scope.stopped = False
        elif kind in ("break", "continue"):
            loop = scope.loops[-1]
            # Under a condition, so that what follows it stays reachable.
            with if_then(m, self.condition(("local", 0), scope)):
                loop.break_() if kind == "break" else loop.continue_()
        elif kind == "return":
            if returns:
                m.return_value(self.expr(s[1], scope))
            else:
                self.write_locals(scope)
                m.return_()
            scope.stopped = True

    def write_locals(self, scope: _Scope) -> None:
        """``data[i]`` = a mix of every local (what ``main`` does wherever it ends)."""
        m, t = self.m, self.u32
        mixed = m.load(t, scope.locals[0])
        for local in scope.locals[1:]:
            mixed = m.bitwise_xor(t, m.i_mul(t, mixed, self.const(0x9E3779B1)), m.load(t, local))
        pointer = m.access_chain(self.element, self.buffer, [self.const(0), scope.index])
        m.store(pointer, mixed)

    # -- functions ----------------------------------------------------------------------
    def scope(self) -> _Scope:
        """A function's locals and its invocation's index, made in its entry block."""
        m = self.m
        variables = [m.variable(self.ptr, StorageClass.Function) for _ in range(LOCALS)]
        invocation = load(m, builtin(m, BuiltIn.GlobalInvocationId))
        return _Scope(variables, m.composite_extract(self.u32, invocation, [0]))

    def helper(self, helper: Helper) -> None:
        m, t = self.m, self.u32
        first = self.ptr if helper.inout else t
        handle = m.define_function(t, [first, t])
        scope = self.scope()
        if helper.inout:
            pointer, value = handle.parameters
            m.store(scope.locals[0], m.load(t, pointer))
            scope.params = (m.load(t, pointer), value)
        else:
            scope.params = handle.parameters
            m.store(scope.locals[0], handle.parameters[0])
        for local in scope.locals[1:]:
            m.store(local, handle.parameters[1])
        self.block(helper.body, scope, returns=True)
        if not scope.stopped:
            result = self.expr(helper.result, scope)
            if helper.inout:
                m.store(handle.parameters[0], m.load(t, scope.locals[0]))
            m.return_value(result)
        m.function_end()
        self.helpers.append((handle.id, helper.inout))

    def build(self) -> list[int]:
        m, t = self.m, self.u32
        for helper in self.program.helpers:
            self.helper(helper)
        main = m.define_function(m.type_void(), name="main")
        scope = self.scope()
        pointer = m.access_chain(self.element, self.buffer, [self.const(0), scope.index])
        m.store(scope.locals[0], m.load(t, pointer))
        for k, local in enumerate(scope.locals[1:], start=1):
            m.store(local, self.const(k))
        self.block(self.program.main, scope, returns=False)
        if not scope.stopped:
            self.write_locals(scope)
            m.return_()
        m.function_end()
        m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        m.entry_point(ExecutionModel.GLCompute, main.id, "main")
        m.execution_mode(main.id, ExecutionModeLocalSize(64, 1, 1))
        words: list[int] = m.to_words()
        return words


def build(program: RandomProgram) -> list[int]:
    """The words of ``program`` built through the module's methods."""
    return _Emitter(program).build()
