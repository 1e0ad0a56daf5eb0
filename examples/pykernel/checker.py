"""Type checking: every expression gets a scalar type, every local one type for its life.

A local's type is its annotation (``x: float = 0``) or the type of its first assignment in
source order; later assignments must fit it (``int`` widens to ``float``, never the other
way).  Integer literals take the type their context needs (``u + 1`` is ``uint``).  The
checker records what the code generator needs to know per node, in
:class:`CheckedFunction`, and rejects everything outside the subset with a
:class:`~.errors.CompileError` located at the offending node.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field

from .errors import CompileError
from .frontend import Program, Signature, fits, literal_value, parse_type
from .typesys import ArrayType, Scalar, implicit

INT, UINT, FLOAT, BOOL = Scalar.INT, Scalar.UINT, Scalar.FLOAT, Scalar.BOOL

#: math functions float → float (``math.sqrt`` or a bare ``sqrt``), by arity.
FLOAT_FUNCTIONS: dict[str, int] = {
    **dict.fromkeys(
        "sqrt sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh exp exp2 log2 "
        "log10 fabs degrees radians".split(),
        1,
    ),
    **dict.fromkeys(["atan2", "pow", "fmod"], 2),
    "fma": 3,
}
#: math functions float → int (``math.floor(2.5) == 2``); identity on integers.
ROUNDING_FUNCTIONS = frozenset({"floor", "ceil", "trunc"})
#: math predicates float → bool.
PREDICATES = frozenset({"isnan", "isinf", "isfinite"})
MATH_CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf}
CONVERSIONS: dict[str, Scalar] = {"int": INT, "uint": UINT, "float": FLOAT, "bool": BOOL}

#: Friendly names for syntax outside the subset.
SYNTAX_NAMES: dict[type[ast.AST], str] = {
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
    ast.Lambda: "lambda",
    ast.List: "list display",
    ast.Tuple: "tuple",
    ast.Dict: "dict display",
    ast.Set: "set display",
    ast.JoinedStr: "f-string",
    ast.Slice: "slice",
    ast.Starred: "starred expression",
    ast.NamedExpr: "assignment expression (:=)",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield from",
    ast.Try: "try statement",
    ast.With: "with statement",
    ast.Raise: "raise statement",
    ast.Assert: "assert statement",
    ast.Delete: "del statement",
    ast.Global: "global statement",
    ast.Nonlocal: "nonlocal statement",
    ast.Import: "import statement",
    ast.ImportFrom: "import statement",
    ast.FunctionDef: "nested function definition",
    ast.ClassDef: "class definition",
    ast.Match: "match statement",
    ast.AsyncFunctionDef: "async function",
    ast.AsyncFor: "async for",
    ast.AsyncWith: "async with",
}


def unsupported(node: ast.AST) -> str:
    """``unsupported syntax: <what>`` for a node outside the subset."""
    return f"unsupported syntax: {SYNTAX_NAMES.get(type(node), type(node).__name__)}"


@dataclass(frozen=True)
class Builtin:
    """A call to a built-in (``abs``, ``int``, ``math.sqrt``, ...): argument and result types."""

    name: str
    args: tuple[Scalar, ...]
    result: Scalar


@dataclass(frozen=True)
class HelperCall:
    """A call to another function of the source, compiled to OpFunctionCall."""

    name: str
    args: tuple[Scalar, ...]
    result: Scalar | None


Callee = Builtin | HelperCall


@dataclass
class CheckedFunction:
    """One type-checked function: what the code generator needs beyond the AST."""

    signature: Signature
    is_kernel: bool
    #: Scalar parameters and locals, in order of declaration.
    variables: dict[str, Scalar] = field(default_factory=dict)
    #: Array parameters (kernels only), in parameter order.
    arrays: dict[str, ArrayType] = field(default_factory=dict)
    #: The type of every scalar-valued expression node.
    types: dict[ast.expr, Scalar] = field(default_factory=dict)
    #: BinOp / AugAssign: (type the operands are converted to, result type).
    binops: dict[ast.AST, tuple[Scalar, Scalar]] = field(default_factory=dict)
    #: Compare: the type each adjacent pair is compared in.
    compares: dict[ast.Compare, tuple[Scalar, ...]] = field(default_factory=dict)
    #: ``x ** k`` with a small non-negative integer literal ``k``: multiplied out.
    powers: dict[ast.AST, int] = field(default_factory=dict)
    #: For loops over range(): the counter type.
    ranges: dict[ast.For, Scalar] = field(default_factory=dict)
    #: Names and attributes that are compile-time constants (module constants, math.pi).
    constants: dict[ast.expr, int | float | bool] = field(default_factory=dict)
    calls: dict[ast.Call, Callee] = field(default_factory=dict)
    #: Int variables known to be >= 0 (a kernel's index parameter it never assigns):
    #: indexing with them needs no negative-index check.
    nonnegative: set[str] = field(default_factory=set)
    #: The first call site of each helper this function calls.
    callees: dict[str, ast.Call] = field(default_factory=dict)


def check_program(program: Program) -> dict[str, CheckedFunction]:
    """Check the kernel and every helper it reaches; the kernel comes first."""
    done: dict[str, CheckedFunction] = {}
    todo = [program.kernel.name]
    while todo:
        name = todo.pop()
        if name in done:
            continue
        is_kernel = name == program.kernel.name
        done[name] = _FunctionChecker(program, program.signature(name), is_kernel).run()
        todo.extend(done[name].callees)
    _reject_recursion(program, done)
    return done


def _reject_recursion(program: Program, functions: dict[str, CheckedFunction]) -> None:
    state: dict[str, int] = {}  # 1: on the stack, 2: done

    def visit(name: str) -> None:
        state[name] = 1
        for callee, site in functions[name].callees.items():
            if state.get(callee) == 1:
                raise program.error(site, f"recursion is not supported ({callee}() calls itself)")
            if callee not in state:
                visit(callee)
        state[name] = 2

    visit(program.kernel.name)


def is_constant_true(node: ast.expr) -> bool:
    """``while True:`` (or any non-zero number literal)."""
    literal = literal_value(node)
    return literal is not None and bool(literal[1])


def has_break(stmts: list[ast.stmt]) -> bool:
    """Does a ``break`` in ``stmts`` leave the loop these statements are the body of?"""
    for stmt in stmts:
        if isinstance(stmt, ast.Break):
            return True
        if isinstance(stmt, ast.If) and (has_break(stmt.body) or has_break(stmt.orelse)):
            return True
    return False


def always_returns(stmts: list[ast.stmt]) -> bool:
    """Does every path through ``stmts`` end in a ``return`` (or loop forever)?"""
    for stmt in stmts:
        if isinstance(stmt, ast.Return):
            return True
        if isinstance(stmt, ast.If) and always_returns(stmt.body) and always_returns(stmt.orelse):
            return True
        if isinstance(stmt, ast.While) and is_constant_true(stmt.test) and not has_break(stmt.body):
            return True
    return False


class _FunctionChecker:
    def __init__(self, program: Program, signature: Signature, is_kernel: bool) -> None:
        self.program = program
        self.out = CheckedFunction(signature, is_kernel)
        self.loops = 0
        self.weak: set[ast.expr] = set()  # see is_weak()
        self.assigned = {
            n.id
            for n in ast.walk(signature.node)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        index = signature.params[0].name if is_kernel else None
        if index is not None and index not in self.assigned:
            self.out.nonnegative.add(index)
        self.declared: dict[str, int] = {}  # local → line of its declaration
        for param in signature.params:
            if isinstance(param.type, ArrayType):
                self.out.arrays[param.name] = param.type
            else:
                self.declare(param.name, param.type, param.node)

    def error(self, node: ast.AST, message: str) -> CompileError:
        return self.program.error(node, message)

    def declare(self, name: str, scalar: Scalar, node: ast.AST) -> None:
        self.out.variables[name] = scalar
        self.declared[name] = getattr(node, "lineno", 0)

    def since(self, name: str) -> str:
        """`` ('k' is int since line 3)``: where a local got its type, for error messages."""
        return f" ({name!r} is {self.out.variables[name]} since line {self.declared[name]})"

    def run(self) -> CheckedFunction:
        signature = self.out.signature
        self.block(signature.node.body)
        if signature.returns is not None and not always_returns(signature.node.body):
            raise self.error(
                signature.node,
                f"{signature.name}() can reach its end without a return (it returns "
                f"{signature.returns})",
            )
        return self.out

    # -- statements ------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Assign):
            self.assign(node)
        elif isinstance(node, ast.AugAssign):
            self.aug_assign(node)
        elif isinstance(node, ast.AnnAssign):
            self.ann_assign(node)
        elif isinstance(node, ast.If):
            self.condition(node.test)
            self.block(node.body)
            self.block(node.orelse)
        elif isinstance(node, ast.While):
            if node.orelse:
                raise self.error(node.orelse[0], "unsupported syntax: while ... else")
            self.condition(node.test)
            self.loop_body(node.body)
        elif isinstance(node, ast.For):
            self.for_range(node)
        elif isinstance(node, ast.Break | ast.Continue):
            if not self.loops:
                word = "break" if isinstance(node, ast.Break) else "continue"
                raise self.error(node, f"'{word}' outside a loop")
        elif isinstance(node, ast.Return):
            self.return_(node)
        elif isinstance(node, ast.Expr):
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                return  # a docstring or a string used as a comment
            if isinstance(value, ast.Call):
                self.call(value, void_ok=True)
            else:
                self.expr(value)
        elif not isinstance(node, ast.Pass):
            raise self.error(node, unsupported(node))

    def loop_body(self, body: list[ast.stmt]) -> None:
        self.loops += 1
        self.block(body)
        self.loops -= 1

    def assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1:
            raise self.error(
                node.targets[1], "unsupported syntax: chained assignment (a = b = ...)"
            )
        target = node.targets[0]
        if isinstance(target, ast.Tuple):
            if not isinstance(node.value, ast.Tuple) or len(node.value.elts) != len(target.elts):
                raise self.error(
                    node.value, "tuple assignment needs a tuple of as many values on the right"
                )
            pairs = list(zip(target.elts, node.value.elts, strict=True))
        else:
            pairs = [(target, node.value)]
        types = [self.expr(value) for _, value in pairs]  # all values first, as in Python
        for (one, value), have in zip(pairs, types, strict=True):
            self.store(one, value, have)

    def store(self, target: ast.expr, value: ast.expr, have: Scalar) -> None:
        if isinstance(target, ast.Name):
            name = target.id
            if name in self.out.arrays:
                raise self.error(target, f"cannot assign to array parameter {name!r}")
            want = self.out.variables.get(name)
            if want is None:
                self.declare(name, have, target)
            else:
                what = f"assign {have} to {name!r} ({want})"
                self.convertible(value, have, want, what, self.since(name))
        elif isinstance(target, ast.Subscript):
            element = self.element(target)
            self.convertible(value, have, element, f"store {have} into an Array[{element}]")
        else:
            raise self.error(target, f"cannot assign to this target ({unsupported(target)})")

    def ann_assign(self, node: ast.AnnAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "an annotated assignment needs a plain name")
        name = node.target.id
        declared = parse_type(self.program, node.annotation, f"local {name!r}", arrays=False)
        assert isinstance(declared, Scalar)
        known = self.out.variables.get(name)
        if known is not None and known is not declared:
            raise self.error(node.annotation, f"type mismatch: {name!r} is already {known}")
        if node.value is not None:
            have = self.expr(node.value)
            self.convertible(node.value, have, declared, f"assign {have} to {name!r} ({declared})")
        if known is None:
            self.declare(name, declared, node)

    def aug_assign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            name = node.target.id
            target = self.out.variables.get(name)
            if target is None:
                raise self.error(node.target, f"{name!r} is used before it is assigned")
        elif isinstance(node.target, ast.Subscript):
            target = self.element(node.target)
        else:
            raise self.error(node.target, unsupported(node.target))
        have = self.expr(node.value)
        operands, result = self.arithmetic(node, node.op, node.target, target, node.value, have)
        self.out.binops[node] = (operands, result)
        if not implicit(result, target):
            shown = ast.unparse(node)
            since = self.since(node.target.id) if isinstance(node.target, ast.Name) else ""
            raise self.error(
                node,
                f"type mismatch: {shown!r} computes a {result}, which does not fit {target}; "
                f"write it out with {target}(...){since}",
            )

    def for_range(self, node: ast.For) -> None:
        if node.orelse:
            raise self.error(node.orelse[0], "unsupported syntax: for ... else")
        call = node.iter
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "range"
            and not call.keywords
            and 1 <= len(call.args) <= 3
        ):
            raise self.error(
                node.iter, "for loops must iterate over range(stop | start, stop[, step])"
            )
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "the for loop variable must be a plain name")
        args = [(arg, self.expr(arg)) for arg in call.args]
        for arg, have in args:
            if have is FLOAT:
                raise self.error(arg, "range() needs int or uint arguments, not float")
        counter = self.unify(args, "range()", call)
        if len(call.args) == 3:
            step = literal_value(call.args[2])
            if step is not None and step[1] == 0:
                raise self.error(call.args[2], "range() step must not be zero")
        self.out.ranges[node] = counter
        name = node.target.id
        known = self.out.variables.get(name)
        if known is None:
            self.declare(name, counter, node.target)
        elif known is not counter:
            raise self.error(
                node.target,
                f"type mismatch: loop variable {name!r} is {known}, range() gives {counter}",
            )
        self.loop_body(node.body)

    def return_(self, node: ast.Return) -> None:
        signature = self.out.signature
        returns = signature.returns
        if returns is None:
            if node.value is not None:
                if self.out.is_kernel:
                    raise self.error(node.value, "a kernel cannot return a value")
                raise self.error(
                    node.value, f"{signature.name}() returns a value: annotate its return type"
                )
            return
        if node.value is None:
            raise self.error(node, f"{signature.name}() must return a {returns}")
        have = self.expr(node.value)
        self.convertible(
            node.value, have, returns, f"return {have} from {signature.name}() ({returns})"
        )

    # -- type rules ------------------------------------------------------------------------
    def convertible(
        self, node: ast.expr, have: Scalar, want: Scalar, what: str, hint: str = ""
    ) -> None:
        """Can ``node`` (of type ``have``) be used as a ``want``? Else a type-mismatch error."""
        literal = literal_value(node)
        if literal is not None and literal[0] is INT and want is not BOOL:
            if not fits(int(literal[1]), want):
                raise self.error(node, f"integer literal {literal[1]} does not fit {want}")
            return
        if node in self.weak and want.is_integer:
            return
        if not implicit(have, want):
            raise self.error(
                node, f"type mismatch: cannot {what}; convert explicitly with {want}(...){hint}"
            )

    def unify(
        self, items: list[tuple[ast.expr, Scalar]], what: str, where: ast.AST, bools: bool = False
    ) -> Scalar:
        """The common type of operands (Python's numeric tower; literals adapt)."""
        if bools and all(t is BOOL for _, t in items):
            return BOOL
        kinds = [INT if t is BOOL else t for _, t in items]
        fixed = {t for (node, _), t in zip(items, kinds, strict=True) if node not in self.weak}
        if FLOAT in kinds:
            result = FLOAT
        elif fixed == {INT, UINT}:
            raise self.error(
                where,
                f"type mismatch: {what} mixes int and uint; convert one side with int() or uint()",
            )
        elif fixed:
            result = fixed.pop()
        else:
            result = UINT if UINT in kinds else INT
        for node, _ in items:
            literal = literal_value(node)
            if literal is not None and literal[0] is INT and not fits(int(literal[1]), result):
                raise self.error(node, f"integer literal {literal[1]} does not fit {result}")
        return result

    def is_weak(self, node: ast.expr) -> bool:
        """Is ``node`` an int made of integer literals only (``1 if b else 0``, ``-2 * 3``)?

        Such an expression adapts to the other operand's type, as a literal does.
        """
        literal = literal_value(node)
        if literal is not None:
            return literal[0] is INT
        if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
            return node.operand in self.weak
        if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.Div):
            return node.left in self.weak and node.right in self.weak
        if isinstance(node, ast.IfExp):
            return node.body in self.weak and node.orelse in self.weak
        if isinstance(node, ast.BoolOp):
            return all(value in self.weak for value in node.values)
        return False

    def condition(self, node: ast.expr) -> None:
        self.expr(node)  # any scalar has a truth value

    def element(self, node: ast.Subscript) -> Scalar:
        """Check ``array[index]``; the element type."""
        if not isinstance(node.value, ast.Name) or node.value.id not in self.out.arrays:
            raise self.error(node.value, "only Array parameters can be indexed")
        if isinstance(node.slice, ast.Slice | ast.Tuple):
            raise self.error(node.slice, unsupported(node.slice))
        index = self.expr(node.slice)
        if not index.is_integer:
            raise self.error(node.slice, f"an array index must be int or uint, not {index}")
        return self.out.arrays[node.value.id].element

    def arithmetic(
        self,
        node: ast.AST,
        op: ast.operator,
        left: ast.expr,
        lt: Scalar,
        right: ast.expr,
        rt: Scalar,
    ) -> tuple[Scalar, Scalar]:
        """(operand type, result type) of ``left <op> right``."""
        symbol = ast.unparse(ast.BinOp(ast.Constant(0), op, ast.Constant(0)))[2:-2]
        what = f"'{symbol}'"
        items = [(left, lt), (right, rt)]
        if isinstance(op, ast.Div):
            return FLOAT, FLOAT
        if isinstance(op, ast.Pow):
            exponent = literal_value(right)
            if exponent is not None and exponent[0] is INT and 0 <= int(exponent[1]) <= 64:
                base = INT if lt is BOOL else lt
                self.out.powers[node] = int(exponent[1])  # multiplied out: exact for integers
                return base, base
            if FLOAT in (lt, rt) or (exponent is not None and int(exponent[1]) < 0):
                return FLOAT, FLOAT
            raise self.error(
                node, "integer ** needs a literal exponent 0..64; use a float operand for pow"
            )
        if isinstance(op, ast.BitAnd | ast.BitOr | ast.BitXor):
            if lt is BOOL and rt is BOOL:
                return BOOL, BOOL
            common = self.unify(items, what, node)
            if common is FLOAT:
                raise self.error(node, f"{what} needs integer operands, not float")
            return common, common
        if isinstance(op, ast.LShift | ast.RShift):
            common = self.unify(items, what, node)
            if common is FLOAT:
                raise self.error(node, f"{what} needs integer operands, not float")
            return common, common
        if isinstance(op, ast.Add | ast.Sub | ast.Mult | ast.FloorDiv | ast.Mod):
            common = self.unify(items, what, node)
            return common, common
        raise self.error(node, f"unsupported operator {what}")

    # -- expressions -----------------------------------------------------------------------
    def expr(self, node: ast.expr) -> Scalar:
        """Check ``node`` and record its type."""
        result = self._expr(node)
        self.out.types[node] = result
        if result.is_integer and self.is_weak(node):
            self.weak.add(node)
        return result

    def _expr(self, node: ast.expr) -> Scalar:
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            if (
                isinstance(node.value, ast.Name)
                and node.value.id == "math"
                and node.attr in MATH_CONSTANTS
            ):
                self.out.constants[node] = MATH_CONSTANTS[node.attr]
                return FLOAT
            raise self.error(node, f"unsupported attribute {ast.unparse(node)!r}")
        if isinstance(node, ast.BinOp):
            lt, rt = self.expr(node.left), self.expr(node.right)
            operands, result = self.arithmetic(node, node.op, node.left, lt, node.right, rt)
            self.out.binops[node] = (operands, result)
            return result
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand)
            if isinstance(node.op, ast.Not):
                return BOOL
            result = INT if operand is BOOL else operand
            if isinstance(node.op, ast.Invert) and result is FLOAT:
                raise self.error(node, "'~' needs an integer operand, not float")
            literal = literal_value(node)
            if literal is not None and literal[0] is INT:  # -2147483648 is an int literal
                for scalar in (INT, UINT):
                    if fits(int(literal[1]), scalar):
                        return scalar
                raise self.error(node, f"integer literal {literal[1]} does not fit 32 bits")
            return result
        if isinstance(node, ast.BoolOp):
            items = [(value, self.expr(value)) for value in node.values]
            word = "and" if isinstance(node.op, ast.And) else "or"
            return self.unify(items, f"'{word}'", node, bools=True)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            self.condition(node.test)
            items = [(node.body, self.expr(node.body)), (node.orelse, self.expr(node.orelse))]
            return self.unify(items, "a conditional expression", node, bools=True)
        if isinstance(node, ast.Call):
            called = self.call(node)
            assert called is not None
            return called
        if isinstance(node, ast.Subscript):
            return self.element(node)
        raise self.error(node, unsupported(node))

    def constant(self, node: ast.Constant) -> Scalar:
        value = node.value
        if isinstance(value, bool):
            return BOOL
        if isinstance(value, int):
            for scalar in (INT, UINT):
                if fits(value, scalar):
                    return scalar
            raise self.error(node, f"integer literal {value} does not fit 32 bits")
        if isinstance(value, float):
            return FLOAT
        kind = "string" if isinstance(value, str) else type(value).__name__
        raise self.error(node, f"unsupported constant: {kind} {ast.unparse(node)}")

    def name(self, node: ast.Name) -> Scalar:
        name = node.id
        known = self.out.variables.get(name)
        if known is not None:
            return known
        if name in self.out.arrays:
            raise self.error(node, f"array {name!r} used as a value: index it ({name}[i])")
        if name in self.assigned:
            raise self.error(node, f"{name!r} is used before it is assigned")
        constant = self.program.constants.get(name)
        if constant is not None:
            self.out.constants[node] = constant[1]
            return constant[0]
        raise self.error(node, f"name {name!r} is not defined")

    def compare(self, node: ast.Compare) -> Scalar:
        operands = [node.left, *node.comparators]
        types = [self.expr(operand) for operand in operands]
        pairs: list[Scalar] = []
        for index, op in enumerate(node.ops):
            if not isinstance(op, ast.Eq | ast.NotEq | ast.Lt | ast.LtE | ast.Gt | ast.GtE):
                raise self.error(node, f"unsupported comparison {type(op).__name__!r} (is, in)")
            left, right = operands[index], operands[index + 1]
            items = [(left, types[index]), (right, types[index + 1])]
            pairs.append(
                self.unify(items, "a comparison", node, bools=isinstance(op, ast.Eq | ast.NotEq))
            )
        self.out.compares[node] = tuple(pairs)
        return BOOL

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: ast.Call, void_ok: bool = False) -> Scalar | None:
        if node.keywords:
            raise self.error(node.keywords[0], "keyword arguments are not supported")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.error(arg, unsupported(arg))
        func = node.func
        result: Scalar | None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            if func.value.id != "math":
                raise self.error(func, f"unsupported call {ast.unparse(func)}()")
            result = self.builtin(node, func.attr, math_only=True)
        elif isinstance(func, ast.Name):
            name = func.id
            if name in self.out.variables or name in self.out.arrays:
                raise self.error(func, f"{name!r} is not a function")
            if name == self.program.kernel.name:
                raise self.error(func, "a kernel cannot be called; move the code into a helper")
            if name in self.program.functions:
                result = self.helper(node, name)
            else:
                result = self.builtin(node, name, math_only=False)
        elif type(func) in SYNTAX_NAMES:
            raise self.error(func, unsupported(func))
        else:
            raise self.error(func, f"unsupported call {ast.unparse(func)}(...)")
        if result is None and not void_ok:
            raise self.error(node, f"{ast.unparse(func)}() returns nothing; it has no value")
        if result is not None:
            self.out.types[node] = result
        return result

    def helper(self, node: ast.Call, name: str) -> Scalar | None:
        signature = self.program.signature(name)
        if len(node.args) != len(signature.params):
            raise self.error(
                node, f"{name}() takes {len(signature.params)} arguments, got {len(node.args)}"
            )
        args: list[Scalar] = []
        for arg, param in zip(node.args, signature.params, strict=True):
            assert isinstance(param.type, Scalar)  # helpers take scalars only
            have = self.expr(arg)
            self.convertible(
                arg, have, param.type, f"pass {have} as {name}({param.name}: {param.type})"
            )
            args.append(param.type)
        self.out.calls[node] = HelperCall(name, tuple(args), signature.returns)
        self.out.callees.setdefault(name, node)
        return signature.returns

    def arity(self, node: ast.Call, name: str, *counts: int) -> None:
        if len(node.args) not in counts:
            wanted = " or ".join(map(str, counts))
            plural = "" if counts == (1,) else "s"
            raise self.error(
                node, f"{name}() takes {wanted} argument{plural}, got {len(node.args)}"
            )

    def builtin(self, node: ast.Call, name: str, math_only: bool) -> Scalar:
        shown = f"math.{name}" if math_only else name
        if name == "len" and not math_only:
            self.arity(node, name, 1)
            arg = node.args[0]
            if not isinstance(arg, ast.Name) or arg.id not in self.out.arrays:
                raise self.error(arg, "len() needs an Array parameter")
            return self.record(node, Builtin(name, (), INT))
        if name in FLOAT_FUNCTIONS or name == "log" or name in PREDICATES:
            counts = (1, 2) if name == "log" else (FLOAT_FUNCTIONS.get(name, 1),)
            self.arity(node, shown, *counts)
            for arg in node.args:
                have = self.expr(arg)
                self.convertible(arg, have, FLOAT, f"pass {have} to {shown}() (float)")
            result = BOOL if name in PREDICATES else FLOAT
            return self.record(node, Builtin(name, (FLOAT,) * len(node.args), result))
        if name in ROUNDING_FUNCTIONS or (name == "round" and not math_only):
            self.arity(node, shown, 1)
            have = self.expr(node.args[0])
            if have is FLOAT:
                return self.record(node, Builtin(name, (FLOAT,), INT))
            have = INT if have is BOOL else have
            return self.record(node, Builtin("identity", (have,), have))
        if math_only:
            raise self.error(node.func, f"unsupported function math.{name}()")
        if name in CONVERSIONS:
            self.arity(node, name, 1)
            have = self.expr(node.args[0])
            return self.record(node, Builtin(name, (have,), CONVERSIONS[name]))
        if name == "abs":
            self.arity(node, name, 1)
            have = self.expr(node.args[0])
            have = INT if have is BOOL else have
            return self.record(node, Builtin(name, (have,), have))
        if name in ("min", "max"):
            if len(node.args) < 2:
                raise self.error(node, f"{name}() needs at least 2 arguments")
            items = [(arg, self.expr(arg)) for arg in node.args]
            common = self.unify(items, f"{name}()", node)
            return self.record(node, Builtin(name, (common,) * len(items), common))
        raise self.error(node.func, f"unsupported function {name}()")

    def record(self, node: ast.Call, callee: Builtin) -> Scalar:
        self.out.calls[node] = callee
        return callee.result
