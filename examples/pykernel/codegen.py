"""Code generation: checked functions → one SPIR-V module with a GLCompute entry point.

Layout of the module (SPIR-V 1.3, valid for Vulkan 1.1):

* ``gl_GlobalInvocationID`` (Input); the kernel runs for ``x < n`` only, ``n`` being the
  first push constant;
* one ``StorageBuffer`` block ``{ T data[]; }`` per ``Array[T]`` parameter, descriptor
  set 0, binding = its position among the array parameters;
* one ``PushConstant`` block ``{ uint n; <scalar parameters in order> }`` (bool as uint);
* the kernel body inlined in the entry point; every helper an OpFunction with value
  parameters, called with OpFunctionCall.

Every parameter and local is a Function-storage OpVariable (loads and stores, no SSA
construction); ``if``/``while``/``for`` become structured selections and loops, ``and``/
``or``/``x if c else y`` branch (OpSelectionMerge + OpPhi) unless the right side is
trivially safe to evaluate eagerly.  Every statement gets an OpLine into the source file's
OpString.  Float arithmetic is decorated NoContraction, as Python never fuses a*b+c.
"""

from __future__ import annotations

import ast
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from spvbuild import Id, TypeId
from spvbuild.constructs import Loop, if_else, if_then, while_loop
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Decoration,
    DecorationArrayStride,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationDescriptorSet,
    DecorationOffset,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    SourceLanguage,
    StorageClass,
)
from spvbuild.ir.module import Module

from .checker import (
    Builtin,
    CheckedFunction,
    HelperCall,
    always_returns,
    has_break,
    is_constant_true,
)
from .frontend import Program, literal_value
from .typesys import ArrayType, Scalar

INT, UINT, FLOAT, BOOL = Scalar.INT, Scalar.UINT, Scalar.FLOAT, Scalar.BOOL
PUSH_CONSTANT_LIMIT = 128  # bytes every Vulkan device supports
Number = int | float | bool


@dataclass(frozen=True)
class Binding:
    """An ``Array[T]`` parameter: storage buffer at set 0, ``binding``, of ``element``."""

    name: str
    binding: int
    element: Scalar


@dataclass(frozen=True)
class PushConstant:
    """A scalar parameter: 4 bytes at ``offset`` in the push-constant block (bool: uint 0/1)."""

    name: str
    offset: int
    type: Scalar


@dataclass(frozen=True)
class CompiledKernel:
    """A compiled kernel: the SPIR-V words and how to bind its parameters.

    The kernel is named :attr:`name` and its entry point :attr:`entry_point` (the kernel's
    name unless ``compile_kernel`` was given another, e.g. ``"main"`` for Kompute);
    :attr:`target_env` is the environment it was built for (None: SPIR-V 1.3 without a
    profile, what Vulkan 1.1 takes).  Invocation ``i`` of ``n`` runs the body with
    the index parameter :attr:`index` set to ``i``.  Push-constant bytes 0..3 hold ``n``
    (uint), then :attr:`push_constants` follow.
    """

    name: str
    entry_point: str
    target_env: str | None
    words: list[int]
    index: tuple[str, Scalar]
    bindings: tuple[Binding, ...]
    push_constants: tuple[PushConstant, ...]
    push_constant_size: int
    local_size: int
    filename: str
    helpers: tuple[str, ...]

    @property
    def parameters(self) -> tuple[str, ...]:
        """The names ``run()`` takes: arrays and scalars (not the index)."""
        names = [b.name for b in self.bindings] + [p.name for p in self.push_constants]
        return tuple(names)


def to_float32(value: float) -> float:
    """``value`` rounded to float32 (beyond its range: ±inf, as a conversion would give)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", value))[0])
    except OverflowError:
        return math.copysign(math.inf, value)


def foldable(literal: Scalar, want: Scalar) -> bool:
    """Can a number literal of type ``literal`` be emitted directly as a ``want`` constant?"""
    return want is not BOOL and (literal is INT or want is FLOAT)


def generate(
    program: Program,
    functions: dict[str, CheckedFunction],
    local_size: int,
    *,
    target_env: str | None = None,
    entry_point: str | None = None,
) -> CompiledKernel:
    """Emit the module for a checked program (the kernel first in ``functions``), for
    ``target_env`` (spvbuild's ``Module(target_env=...)``; None: SPIR-V 1.3, no profile),
    its entry point named ``entry_point`` (None: the kernel's name)."""
    return _ModuleBuilder(program, functions, local_size, target_env, entry_point).build()


class _ModuleBuilder:
    """Module-wide state: types, constants, globals, helper ids."""

    def __init__(
        self,
        program: Program,
        functions: dict[str, CheckedFunction],
        local_size: int,
        target_env: str | None,
        entry_point: str | None,
    ) -> None:
        self.program = program
        self.functions = functions
        self.kernel = functions[program.kernel.name]
        self.local_size = local_size
        self.entry_name = program.kernel.name if entry_point is None else entry_point
        self.target_env = target_env
        # each call against the type rules (the default), and against the target's profile
        # when given
        m = self.m = Module(None if target_env else (1, 3), target_env=target_env)
        m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
        self.file = m.string(program.filename)
        m.source(SourceLanguage.Unknown, 0, self.file)
        self.types: dict[Scalar, TypeId] = {
            INT: m.type_int(32, 1),
            UINT: m.type_int(32, 0),
            FLOAT: m.type_float(32),
            BOOL: m.type_bool(),
        }
        self.void = m.type_void()
        helpers = sorted(
            (f for name, f in functions.items() if name != self.kernel_name),
            key=lambda f: f.signature.node.lineno,
        )  # in source order
        self.function_ids = {f.signature.name: m.new_id() for f in helpers}
        self.buffers: dict[str, tuple[Id, Scalar]] = {}
        self.blocks: dict[Scalar, TypeId] = {}

    @property
    def kernel_name(self) -> str:
        return self.program.kernel.name

    # -- small helpers -----------------------------------------------------------------------
    def type(self, scalar: Scalar) -> TypeId:
        return self.types[scalar]

    def pointer(self, storage: StorageClass, scalar: Scalar) -> TypeId:
        return self.m.type_pointer(storage, self.types[scalar])

    def const(self, scalar: Scalar, value: Number) -> Id:
        m, t = self.m, self.types[scalar]
        if scalar is BOOL:
            return m.constant_true(t) if value else m.constant_false(t)
        if scalar is FLOAT:
            return m.constant(t, to_float32(float(value)))
        return m.constant(t, int(value))

    # -- globals ----------------------------------------------------------------------------
    def storage_buffer(self, name: str, binding: int, element: Scalar) -> Id:
        """``buffer { element data[]; } name`` at set 0, ``binding``."""
        m = self.m
        block = self.blocks.get(element)
        if block is None:
            array = m.type_runtime_array(self.types[element])
            m.decorate(array, DecorationArrayStride(4))
            block = m.type_struct([array])
            m.decorate(block, Decoration.Block).member_decorate(block, 0, DecorationOffset(0))
            m.name(block, f"Array_{element}")
            m.member_name(block, 0, "data")
            self.blocks[element] = block
        var = m.variable(
            m.type_pointer(StorageClass.StorageBuffer, block), StorageClass.StorageBuffer
        )
        m.decorate(var, DecorationDescriptorSet(0)).decorate(var, DecorationBinding(binding))
        m.name(var, name)
        self.buffers[name] = (var, element)
        return var

    def push_block(self, scalars: list[tuple[str, Scalar]]) -> tuple[Id, tuple[PushConstant, ...]]:
        """``push_constant { uint n; scalars... }``; the variable and the scalars' layout."""
        m = self.m
        size = 4 * (1 + len(scalars))
        if size > PUSH_CONSTANT_LIMIT:
            node = self.program.kernel
            raise self.program.error(
                node,
                f"too many scalar parameters ({len(scalars)}): at most "
                f"{PUSH_CONSTANT_LIMIT // 4 - 1} fit in push constants",
            )
        members = [UINT] + [UINT if t is BOOL else t for _, t in scalars]
        block = m.type_struct([self.types[t] for t in members])
        m.decorate(block, Decoration.Block)
        m.name(block, "Params")
        m.member_name(block, 0, "n")
        layout = []
        for index, _ in enumerate(members):
            m.member_decorate(block, index, DecorationOffset(4 * index))
        for index, (name, scalar) in enumerate(scalars, start=1):
            m.member_name(block, index, name)
            layout.append(PushConstant(name, 4 * index, scalar))
        var = m.variable(
            m.type_pointer(StorageClass.PushConstant, block), StorageClass.PushConstant
        )
        m.name(var, "params")
        return var, tuple(layout)

    # -- the module -------------------------------------------------------------------------
    def build(self) -> CompiledKernel:
        m = self.m
        signature = self.kernel.signature
        index = signature.params[0]
        assert isinstance(index.type, Scalar)
        bindings: list[Binding] = []
        scalars: list[tuple[str, Scalar]] = []
        for param in signature.params[1:]:
            if isinstance(param.type, ArrayType):
                bindings.append(Binding(param.name, len(bindings), param.type.element))
                self.storage_buffer(param.name, bindings[-1].binding, param.type.element)
            else:
                scalars.append((param.name, param.type))
        push, layout = self.push_block(scalars)
        v3u = m.type_vector(self.types[UINT], 3)
        gid = m.variable(m.type_pointer(StorageClass.Input, v3u), StorageClass.Input)
        m.decorate(gid, DecorationBuiltIn(BuiltIn.GlobalInvocationId))
        m.name(gid, "gl_GlobalInvocationID")

        main = m.define_function(self.void, name=self.kernel_name)
        emitter = _FunctionEmitter(self, self.kernel)
        self.line(self.program.kernel)
        x = m.composite_extract(self.types[UINT], m.load(v3u, gid), [0])
        count_ptr = m.access_chain(
            self.pointer(StorageClass.PushConstant, UINT), push, [self.const(INT, 0)]
        )
        inside = m.u_less_than(self.types[BOOL], x, m.load(self.types[UINT], count_ptr))
        with if_then(m, inside):
            emitter.declare()
            m.store(emitter.vars[index.name], emitter.convert(x, UINT, index.type))
            for member, (name, scalar) in enumerate(scalars, start=1):
                stored = UINT if scalar is BOOL else scalar
                pointer = self.pointer(StorageClass.PushConstant, stored)
                value = m.load(
                    self.types[stored], m.access_chain(pointer, push, [self.const(INT, member)])
                )
                m.store(emitter.vars[name], emitter.convert(value, stored, scalar))
            emitter.block(signature.node.body)
        m.return_().function_end()

        for name in self.function_ids:
            self.helper(self.functions[name])

        m.entry_point(ExecutionModel.GLCompute, main.id, self.entry_name, [gid])
        m.execution_mode(main.id, ExecutionModeLocalSize(self.local_size, 1, 1))
        return CompiledKernel(
            name=self.kernel_name,
            entry_point=self.entry_name,
            target_env=self.target_env,
            words=m.to_words(),
            index=(index.name, index.type),
            bindings=tuple(bindings),
            push_constants=layout,
            push_constant_size=4 * (1 + len(scalars)),
            local_size=self.local_size,
            filename=self.program.filename,
            helpers=tuple(self.function_ids),
        )

    def helper(self, checked: CheckedFunction) -> None:
        """One helper: OpFunction, parameters copied into locals, the body."""
        m = self.m
        signature = checked.signature
        params = [p.type for p in signature.params]
        assert all(isinstance(t, Scalar) for t in params)
        returns = self.void if signature.returns is None else self.types[signature.returns]
        handle = m.define_function(
            returns,
            [self.types[t] for t in params if isinstance(t, Scalar)],
            name=signature.name,
            result_id=self.function_ids[signature.name],
        )
        emitter = _FunctionEmitter(self, checked)
        emitter.declare()
        self.line(signature.node)
        for param, value in zip(signature.params, handle.parameters, strict=True):
            m.name(value, param.name)
            m.store(emitter.vars[param.name], value)
        emitter.block(signature.node.body)
        if not m.block_terminated:
            if signature.returns is None:
                m.return_()
            else:  # the checker proved every path returns: this block is never reached
                assert always_returns(signature.node.body)
                m.unreachable()
        m.function_end()

    def line(self, node: ast.stmt) -> None:
        """OpLine for ``node`` (1-based column)."""
        self.m.line(self.file, node.lineno, node.col_offset + 1)


class _FunctionEmitter:
    """Statements and expressions of one function, into the currently open function."""

    def __init__(self, builder: _ModuleBuilder, checked: CheckedFunction) -> None:
        self.b = builder
        self.m = builder.m
        self.fn = checked
        self.vars: dict[str, Id] = {}
        self.loops: list[Loop] = []  # the enclosing loops, innermost last

    def declare(self) -> None:
        """One Function-storage OpVariable per parameter and local."""
        for name, scalar in self.fn.variables.items():
            self.vars[name] = self.local(scalar, name)

    def local(self, scalar: Scalar, name: str) -> Id:
        pointer = self.b.pointer(StorageClass.Function, scalar)
        return self.m.named(self.m.variable(pointer, StorageClass.Function), name)

    def t(self, scalar: Scalar) -> TypeId:
        return self.b.types[scalar]

    # -- statements ------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            if self.m.block_terminated:
                return  # after return / break / continue: dead code
            self.stmt(stmt)

    def stmt(self, node: ast.stmt) -> None:
        m = self.m
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            return  # docstring
        self.b.line(node)
        if isinstance(node, ast.Assign):
            target = node.targets[0]
            if isinstance(target, ast.Tuple):
                assert isinstance(node.value, ast.Tuple)
                pairs = list(zip(target.elts, node.value.elts, strict=True))
            else:
                pairs = [(target, node.value)]
            values = [self.value(value, self.target_type(one)) for one, value in pairs]
            for (one, _), value in zip(pairs, values, strict=True):
                m.store(self.target_pointer(one), value)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                assert isinstance(node.target, ast.Name)
                m.store(
                    self.target_pointer(node.target),
                    self.value(node.value, self.target_type(node.target)),
                )
        elif isinstance(node, ast.AugAssign):
            self.aug_assign(node)
        elif isinstance(node, ast.If):
            self.if_(node)
        elif isinstance(node, ast.While):
            self.while_(node)
        elif isinstance(node, ast.For):
            self.for_(node)
        elif isinstance(node, ast.Break):
            self.loops[-1].break_()
        elif isinstance(node, ast.Continue):
            self.loops[-1].continue_()
        elif isinstance(node, ast.Return):
            returns = self.fn.signature.returns
            if node.value is None or returns is None:
                m.return_()
            else:
                m.return_value(self.value(node.value, returns))
        elif isinstance(node, ast.Expr):
            if isinstance(node.value, ast.Call):
                self.call(node.value)
            else:
                self.expr(node.value)
        else:
            assert isinstance(node, ast.Pass), node

    def target_type(self, target: ast.expr) -> Scalar:
        if isinstance(target, ast.Name):
            return self.fn.variables[target.id]
        assert isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
        return self.b.buffers[target.value.id][1]

    def target_pointer(self, target: ast.expr) -> Id:
        if isinstance(target, ast.Name):
            return self.vars[target.id]
        assert isinstance(target, ast.Subscript)
        return self.element_pointer(target)

    def aug_assign(self, node: ast.AugAssign) -> None:
        m = self.m
        operands, result = self.fn.binops[node]
        target_type = self.target_type(node.target)
        pointer = self.target_pointer(node.target)  # evaluated once, as in Python
        current = self.convert(m.load(self.t(target_type), pointer), target_type, operands)
        right = self.value(node.value, operands)
        value = self.binary(node, node.op, current, right, operands, result)
        m.store(pointer, self.convert(value, result, target_type))

    def if_(self, node: ast.If) -> None:
        m = self.m
        condition = self.truth(node.test)
        if not node.orelse:
            with if_then(m, condition):
                self.block(node.body)
            return
        reached = False
        with if_else(m, condition) as (then, otherwise):
            for branch, body in ((then, node.body), (otherwise, node.orelse)):
                with branch:
                    self.block(body)
                    reached = reached or not m.block_terminated
        if not reached:
            m.unreachable()  # both branches returned, broke or continued

    def loop_body(self, loop: Loop, body: list[ast.stmt]) -> None:
        """A loop's statements (``break`` and ``continue`` go to ``loop``'s blocks)."""
        self.loops.append(loop)
        self.block(body)
        self.loops.pop()

    def while_(self, node: ast.While) -> None:
        m = self.m
        forever = is_constant_true(node.test)

        def test() -> Id:
            if forever:
                return m.constant_true(self.t(BOOL))
            self.b.line(node)
            return self.truth(node.test)

        with while_loop(m, test) as loop:
            self.loop_body(loop, node.body)
        if forever and not has_break(node.body):
            m.unreachable()

    def for_(self, node: ast.For) -> None:
        """``for k in range(...)``: a hidden counter; ``k`` is set from it each iteration."""
        m = self.m
        scalar = self.fn.ranges[node]
        assert isinstance(node.iter, ast.Call) and isinstance(node.target, ast.Name)
        args = node.iter.args
        values = [self.value(arg, scalar) for arg in args]
        zero = self.b.const(scalar, 0)
        if len(values) == 1:
            values.insert(0, zero)
        if len(values) == 2:
            values.append(self.b.const(scalar, 1))
        start, stop, step = values
        step_literal = literal_value(args[2]) if len(args) == 3 else (INT, 1)
        counter = self.local(scalar, f"{node.target.id}.counter")
        m.store(counter, start)
        current: list[Id] = []

        def more() -> Id:
            self.b.line(node)
            current[:] = [m.load(self.t(scalar), counter)]
            if step_literal is not None:  # the direction is known
                less = ast.Lt() if step_literal[1] > 0 else ast.Gt()
                return self.compare(less, current[0], stop, scalar)
            up = self.compare(ast.Lt(), current[0], stop, scalar)
            down = self.compare(ast.Gt(), current[0], stop, scalar)
            positive = self.compare(ast.Gt(), step, zero, scalar)
            return m.select(self.t(BOOL), positive, up, down)

        def advance() -> None:
            m.store(counter, m.i_add(self.t(scalar), m.load(self.t(scalar), counter), step))

        with while_loop(m, more, advance) as loop:
            m.store(self.vars[node.target.id], current[0])
            self.loop_body(loop, node.body)

    # -- values ----------------------------------------------------------------------------
    def value(self, node: ast.expr, want: Scalar) -> Id:
        """``node`` evaluated and converted to ``want`` (number literals emitted as ``want``)."""
        literal = literal_value(node)
        if literal is not None and foldable(literal[0], want):
            return self.b.const(want, literal[1])
        return self.convert(self.expr(node), self.fn.types[node], want)

    def convert(self, value: Id, have: Scalar, want: Scalar) -> Id:
        m, t = self.m, self.t(want)
        if have is want:
            return value
        if want is BOOL:
            return self.truth_of(value, have)
        if have is BOOL:
            return m.select(t, value, self.b.const(want, 1), self.b.const(want, 0))
        if want is FLOAT:
            return m.convert_s_to_f(t, value) if have is INT else m.convert_u_to_f(t, value)
        if have is FLOAT:
            return m.convert_f_to_s(t, value) if want is INT else m.convert_f_to_u(t, value)
        return m.bitcast(t, value)  # int <-> uint: the same 32 bits

    def truth(self, node: ast.expr) -> Id:
        """Python's truth value of ``node`` as an OpTypeBool value."""
        return self.truth_of(self.expr(node), self.fn.types[node])

    def truth_of(self, value: Id, have: Scalar) -> Id:
        m, boolean = self.m, self.t(BOOL)
        if have is BOOL:
            return value
        if have is FLOAT:
            return m.f_unord_not_equal(boolean, value, self.b.const(FLOAT, 0.0))  # nan is true
        return m.i_not_equal(boolean, value, self.b.const(have, 0))

    def safe(self, node: ast.expr) -> bool:
        """May ``node`` be evaluated although Python would skip it?

        Not if it calls a helper (which may loop), indexes an array (which may be out of
        bounds) or divides integers by something that may be zero.
        """
        for sub in ast.walk(node):
            if isinstance(sub, ast.Subscript):
                return False
            if isinstance(sub, ast.Call) and isinstance(self.fn.calls.get(sub), HelperCall):
                return False
            if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.FloorDiv | ast.Mod):
                divisor = literal_value(sub.right)
                if self.fn.binops[sub][0] is not FLOAT and (divisor is None or not divisor[1]):
                    return False  # an integer division by a value that may be zero
        return True

    def either(
        self,
        condition: Id,
        when_true: Callable[[], Id],
        when_false: Callable[[], Id],
        scalar: Scalar,
        eager: bool,
    ) -> Id:
        """``when_true() if condition else when_false()``: OpSelect if ``eager``, else branches.

        Only the chosen side runs when ``eager`` is false (OpSelectionMerge, then OpPhi).
        """
        m = self.m
        if eager:
            return m.select(self.t(scalar), condition, when_true(), when_false())
        with if_else(m, condition) as (yes, no):
            with yes:
                first = when_true()
                from_yes = m.current_block
            with no:
                second = when_false()
                from_no = m.current_block
        assert from_yes is not None and from_no is not None
        return m.phi(self.t(scalar), [(first, from_yes), (second, from_no)])

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.expr) -> Id:
        """``node``'s value in its own type (``self.fn.types[node]``)."""
        m, fn = self.m, self.fn
        scalar = fn.types[node]
        literal = literal_value(node)
        if literal is not None:
            return self.b.const(scalar, literal[1])
        if node in fn.constants:
            return self.b.const(scalar, fn.constants[node])
        if isinstance(node, ast.Name):
            return m.load(self.t(scalar), self.vars[node.id])
        if isinstance(node, ast.BinOp):
            operands, result = fn.binops[node]
            left = self.value(node.left, operands)
            right = self.value(node.right, operands)
            return self.binary(node, node.op, left, right, operands, result)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, scalar)
        if isinstance(node, ast.BoolOp):
            return self.bool_op(node, scalar)
        if isinstance(node, ast.Compare):
            return self.compare_chain(node)
        if isinstance(node, ast.IfExp):
            eager = self.safe(node.body) and self.safe(node.orelse)
            return self.either(
                self.truth(node.test),
                lambda: self.value(node.body, scalar),
                lambda: self.value(node.orelse, scalar),
                scalar,
                eager,
            )
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript):
            return m.load(self.t(scalar), self.element_pointer(node))
        raise AssertionError(f"unchecked node {ast.dump(node)}")

    def unary(self, node: ast.UnaryOp, scalar: Scalar) -> Id:
        m, t = self.m, self.t(scalar)
        if isinstance(node.op, ast.Not):
            return m.logical_not(t, self.truth(node.operand))
        operand = self.value(node.operand, scalar)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.Invert):
            return m.not_(t, operand)
        return m.f_negate(t, operand) if scalar is FLOAT else m.s_negate(t, operand)

    def bool_op(self, node: ast.BoolOp, scalar: Scalar) -> Id:
        """``a and b`` / ``a or b`` with Python's value and short-circuit semantics."""
        m, is_and = self.m, isinstance(node.op, ast.And)
        result = self.value(node.values[0], scalar)
        for operand in node.values[1:]:
            eager = self.safe(operand)
            if scalar is BOOL and eager:
                right = self.value(operand, BOOL)
                logical = m.logical_and if is_and else m.logical_or
                result = logical(self.t(BOOL), result, right)
                continue
            condition = self.truth_of(result, scalar)
            if eager:
                right = self.value(operand, scalar)
                chosen = (right, result) if is_and else (result, right)
                result = m.select(self.t(scalar), condition, *chosen)
            else:
                result = self.short_circuit(
                    condition, result, partial(self.value, operand, scalar), scalar, is_and
                )
        return result

    def short_circuit(
        self, condition: Id, kept: Id, rest: Callable[[], Id], scalar: Scalar, when: bool
    ) -> Id:
        """``rest() if condition == when else kept``, running ``rest`` only when needed.

        The current block becomes a selection header that either branches straight to the
        merge block (keeping ``kept``) or through the blocks of ``rest``; an OpPhi joins.
        """
        m = self.m
        here = m.current_block
        test = condition if when else m.logical_not(self.t(BOOL), condition)
        with if_then(m, test):
            value = rest()
            there = m.current_block
        assert here is not None and there is not None
        return m.phi(self.t(scalar), [(kept, here), (value, there)])

    def compare_chain(self, node: ast.Compare) -> Id:
        """``a < b <= c``: pairwise, each operand evaluated once, later ones only if needed."""
        operands = [node.left, *node.comparators]
        pair_types = self.fn.compares[node]
        cache: dict[int, Id] = {}

        def operand(index: int, scalar: Scalar) -> Id:
            item = operands[index]
            literal = literal_value(item)
            if literal is not None and foldable(literal[0], scalar):
                return self.b.const(scalar, literal[1])
            if index not in cache:
                cache[index] = self.expr(item)
            return self.convert(cache[index], self.fn.types[item], scalar)

        def pair(index: int) -> Id:
            scalar = pair_types[index]
            left, right = operand(index, scalar), operand(index + 1, scalar)
            return self.compare(node.ops[index], left, right, scalar)

        result = pair(0)
        for index in range(1, len(node.ops)):
            eager = all(self.safe(item) for item in operands[index + 1 :])
            if eager:
                result = self.m.logical_and(self.t(BOOL), result, pair(index))
            else:
                result = self.short_circuit(result, result, partial(pair, index), BOOL, True)
        return result

    def compare(self, op: ast.cmpop, left: Id, right: Id, scalar: Scalar) -> Id:
        m, boolean = self.m, self.t(BOOL)
        table: dict[type[ast.cmpop], Callable[[TypeId, Id, Id], Id]]
        if scalar is BOOL:
            table = {ast.Eq: m.logical_equal, ast.NotEq: m.logical_not_equal}
        elif scalar is FLOAT:
            table = {
                ast.Eq: m.f_ord_equal,
                ast.NotEq: m.f_unord_not_equal,  # nan != x is True in Python
                ast.Lt: m.f_ord_less_than,
                ast.LtE: m.f_ord_less_than_equal,
                ast.Gt: m.f_ord_greater_than,
                ast.GtE: m.f_ord_greater_than_equal,
            }
        elif scalar is INT:
            table = {
                ast.Eq: m.i_equal,
                ast.NotEq: m.i_not_equal,
                ast.Lt: m.s_less_than,
                ast.LtE: m.s_less_than_equal,
                ast.Gt: m.s_greater_than,
                ast.GtE: m.s_greater_than_equal,
            }
        else:
            table = {
                ast.Eq: m.i_equal,
                ast.NotEq: m.i_not_equal,
                ast.Lt: m.u_less_than,
                ast.LtE: m.u_less_than_equal,
                ast.Gt: m.u_greater_than,
                ast.GtE: m.u_greater_than_equal,
            }
        return table[type(op)](boolean, left, right)

    def binary(
        self, node: ast.AST, op: ast.operator, left: Id, right: Id, operands: Scalar, result: Scalar
    ) -> Id:
        """``left <op> right`` for operands of type ``operands`` giving ``result``."""
        m, t = self.m, self.t(result)
        if node in self.fn.powers:
            return self.power(left, self.fn.powers[node], operands)
        if operands is FLOAT:
            float_ops: dict[type[ast.operator], Callable[[TypeId, Id, Id], Id]] = {
                ast.Add: m.f_add,
                ast.Sub: m.f_sub,
                ast.Mult: m.f_mul,
                ast.Div: m.f_div,
                ast.Mod: m.f_mod,  # sign of the divisor, as Python's %
                ast.Pow: m.glsl.pow,
            }
            if isinstance(op, ast.FloorDiv):
                return m.glsl.floor(t, self.exact(m.f_div(t, left, right)))
            return self.exact(float_ops[type(op)](t, left, right))
        if operands is BOOL:
            bool_ops = {
                ast.BitAnd: m.logical_and,
                ast.BitOr: m.logical_or,
                ast.BitXor: m.logical_not_equal,
            }
            return bool_ops[type(op)](t, left, right)
        signed = operands is INT
        int_ops: dict[type[ast.operator], Callable[[TypeId, Id, Id], Id]] = {
            ast.Add: m.i_add,
            ast.Sub: m.i_sub,
            ast.Mult: m.i_mul,
            ast.Mod: m.u_mod,
            ast.BitAnd: m.bitwise_and,
            ast.BitOr: m.bitwise_or,
            ast.BitXor: m.bitwise_xor,
            ast.LShift: m.shift_left_logical,
            ast.RShift: m.shift_right_arithmetic if signed else m.shift_right_logical,
        }
        if isinstance(op, ast.FloorDiv | ast.Mod) and signed:
            return self.floor_div_mod(left, right, isinstance(op, ast.FloorDiv))
        if isinstance(op, ast.FloorDiv):
            return m.u_div(t, left, right)
        return int_ops[type(op)](t, left, right)

    def exact(self, value: Id) -> Id:
        """Decorate a float result NoContraction (no fused multiply-add, as in Python)."""
        self.m.decorate(value, Decoration.NoContraction)
        return value

    def floor_div_mod(self, left: Id, right: Id, quotient: bool) -> Id:
        """Python's ``//`` or ``%`` on int, from the truncating OpSDiv / OpSRem.

        When the remainder is non-zero and its sign differs from the divisor's, the
        quotient steps down by one and the remainder up by the divisor.  (OpSMod would
        give ``%`` directly, but lavapipe computes it as OpSRem; see README.md.)
        """
        m, t, boolean = self.m, self.t(INT), self.t(BOOL)
        zero = self.b.const(INT, 0)
        remainder = m.s_rem(t, left, right)
        inexact = m.i_not_equal(boolean, remainder, zero)
        signs = m.logical_not_equal(
            boolean, m.s_less_than(boolean, remainder, zero), m.s_less_than(boolean, right, zero)
        )
        adjust = m.logical_and(boolean, inexact, signs)
        if quotient:
            step = m.select(t, adjust, self.b.const(INT, 1), zero)
            return m.i_sub(t, m.s_div(t, left, right), step)
        return m.select(t, adjust, m.i_add(t, remainder, right), remainder)

    def power(self, base: Id, exponent: int, scalar: Scalar) -> Id:
        """``base ** exponent`` for a literal exponent: square and multiply."""
        m, t = self.m, self.t(scalar)

        def multiply(a: Id, b: Id) -> Id:
            return self.exact(m.f_mul(t, a, b)) if scalar is FLOAT else m.i_mul(t, a, b)

        result: Id | None = None
        while exponent:
            if exponent & 1:
                result = base if result is None else multiply(result, base)
            exponent >>= 1
            if exponent:
                base = multiply(base, base)
        return self.b.const(scalar, 1) if result is None else result

    def element_pointer(self, node: ast.Subscript) -> Id:
        """Pointer to ``array[index]``; a negative int index counts from the end."""
        m, b = self.m, self.b
        assert isinstance(node.value, ast.Name)
        buffer, element = b.buffers[node.value.id]
        index_type = self.fn.types[node.slice]
        index = self.value(node.slice, index_type)
        literal = literal_value(node.slice)
        known = isinstance(node.slice, ast.Name) and node.slice.id in self.fn.nonnegative
        if index_type is INT and not known and (literal is None or int(literal[1]) < 0):
            length = m.bitcast(self.t(INT), m.array_length(self.t(UINT), buffer, 0))
            negative = m.s_less_than(self.t(BOOL), index, b.const(INT, 0))
            index = m.select(self.t(INT), negative, m.i_add(self.t(INT), index, length), index)
        pointer = b.pointer(StorageClass.StorageBuffer, element)
        return m.access_chain(pointer, buffer, [b.const(INT, 0), index])

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: ast.Call) -> Id:
        callee = self.fn.calls[node]
        args = [
            self.value(arg, scalar) for arg, scalar in zip(node.args, callee.args, strict=False)
        ]
        if isinstance(callee, HelperCall):
            returns = self.b.void if callee.result is None else self.t(callee.result)
            return self.m.function_call(returns, self.b.function_ids[callee.name], args)
        return self.builtin(node, callee, args)

    def builtin(self, node: ast.Call, callee: Builtin, args: list[Id]) -> Id:
        m, b = self.m, self.b
        name, result = callee.name, callee.result
        t = self.t(result)
        glsl = m.glsl
        if name == "len":
            assert isinstance(node.args[0], ast.Name)
            buffer = b.buffers[node.args[0].id][0]
            return m.bitcast(t, m.array_length(self.t(UINT), buffer, 0))
        if name in ("int", "uint", "float", "bool"):
            return self.convert(args[0], callee.args[0], result)
        if name == "identity":
            return args[0]
        if name == "abs":
            if result is UINT:
                return args[0]
            return glsl.f_abs(t, args[0]) if result is FLOAT else glsl.s_abs(t, args[0])
        if name in ("min", "max"):
            pick = {
                ("min", INT): glsl.s_min,
                ("min", UINT): glsl.u_min,
                ("min", FLOAT): glsl.f_min,
                ("max", INT): glsl.s_max,
                ("max", UINT): glsl.u_max,
                ("max", FLOAT): glsl.f_max,
            }[(name, result)]
            value = args[0]
            for arg in args[1:]:
                value = pick(t, value, arg)
            return value
        f32 = self.t(FLOAT)
        if name in ("floor", "ceil", "round", "trunc"):
            rounding = {"floor": glsl.floor, "ceil": glsl.ceil, "round": glsl.round_even}
            value = rounding[name](f32, args[0]) if name in rounding else args[0]
            return m.convert_f_to_s(t, value)  # math.floor() & co. return int in Python
        if name in ("isnan", "isinf", "isfinite"):
            if name == "isnan":
                return m.is_nan(t, args[0])
            if name == "isinf":
                return m.is_inf(t, args[0])
            bad = m.logical_or(t, m.is_nan(t, args[0]), m.is_inf(t, args[0]))
            return m.logical_not(t, bad)
        if name == "log" and len(args) == 2:
            return self.exact(m.f_div(t, glsl.log(t, args[0]), glsl.log(t, args[1])))
        if name == "log10":
            scale = b.const(FLOAT, math.log10(2.0))
            return self.exact(m.f_mul(t, glsl.log2(t, args[0]), scale))
        if name == "fmod":
            return m.f_rem(t, args[0], args[1])  # C fmod: the sign of the dividend
        if name == "fma":
            return glsl.fma(t, args[0], args[1], args[2])
        binary: dict[str, Callable[[TypeId, Id, Id], Id]] = {"atan2": glsl.atan2, "pow": glsl.pow}
        if name in binary:
            return binary[name](t, args[0], args[1])
        unary: dict[str, Callable[[TypeId, Id], Id]] = {
            "sqrt": glsl.sqrt, "sin": glsl.sin, "cos": glsl.cos, "tan": glsl.tan,
            "asin": glsl.asin, "acos": glsl.acos, "atan": glsl.atan, "sinh": glsl.sinh,
            "cosh": glsl.cosh, "tanh": glsl.tanh, "asinh": glsl.asinh, "acosh": glsl.acosh,
            "atanh": glsl.atanh, "exp": glsl.exp, "exp2": glsl.exp2, "log": glsl.log,
            "log2": glsl.log2, "fabs": glsl.f_abs, "degrees": glsl.degrees,
            "radians": glsl.radians,
        }  # fmt: skip
        return unary[name](t, args[0])
