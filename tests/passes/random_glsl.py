"""Seeded random GLSL compute shaders for the main recipe's differential (:func:`program`).

A program is structured GLSL over ``uint``, ``int``, ``float``, ``bool``, their vectors,
arrays and structs, all in ``Function`` storage as glslangValidator emits them without
optimization (a few ``Private`` globals and specialization constants beside): nested
``for``/``while``/``do``-``while`` loops with ``break`` and ``continue``, ``switch`` with
fallthrough and ``default``, ``if``/``else if`` chains, helper functions with ``in``,
``out`` and ``inout`` parameters and early returns (inside loops and switches too), calls
in loop conditions and continue expressions, locals initialized to constants (so that
branches and arithmetic fold once they are SSA values), local arrays indexed dynamically.

Every invocation reads ``inp.u[gid]`` (a random ``uvec4``) and writes only
``outp.r[gid]``: once where ``main`` starts, where a statement says so, and a hash of
``main``'s locals where ``main`` ends.  What a program computes is defined on any driver: every loop is bounded by a
counter no statement writes, every dynamic index is reduced modulo its bound, every
divisor is nonzero (and positive for ``int``), every ``int`` dividend of ``%`` is
non-negative (GLSL leaves the rest undefined, and lavapipe computes ``OpSMod`` of a
negative as ``OpSRem`` in some shapes of code and not in others: seeds 741130, 742503),
every shift is below 32, every ``out`` parameter is written before it is read, every float
converted to an integer is first clamped (a NaN to 0), and nothing is read before it is
written.  A float is hashed by its bits, but either zero as 0 (``bitsOf``): lavapipe does
not keep the sign of a zero in every shape of code even under ``SignedZeroInfNanPreserve``
(seed 742472: ``v.z *= float(0)`` with ``v.z = -3.25`` gives +0.0 in the compiler's
module, -0.0 after ``ssa-rewrite``; the folding tests check zero signs themselves).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

SCALARS = ("uint", "int", "float", "bool")
_VECTOR_PREFIX = {"uint": "uvec", "int": "ivec", "float": "vec", "bool": "bvec"}
_COMPONENTS = "xyzw"


@dataclass(frozen=True)
class Type:
    """A GLSL type: ``kind`` ("scalar", "vector", "array", "struct"), ``base`` (the scalar
    of a scalar or vector), ``size`` (components or elements), ``element`` (an array's),
    ``name`` (a struct's), ``fields`` (a struct's (name, type) pairs)."""

    kind: str
    base: str = ""
    size: int = 0
    element: Type | None = None
    name: str = ""
    fields: tuple[tuple[str, Type], ...] = ()

    def glsl(self) -> str:
        """The type's name (an array's element type; see :meth:`suffix`)."""
        if self.kind == "scalar":
            return self.base
        if self.kind == "vector":
            return f"{_VECTOR_PREFIX[self.base]}{self.size}"
        if self.kind == "array":
            assert self.element is not None
            return self.element.glsl()
        return self.name

    def suffix(self) -> str:
        """What follows a declared name: an array's ``[n]``s."""
        if self.kind == "array":
            assert self.element is not None
            return f"[{self.size}]{self.element.suffix()}"
        return ""

    def constructor(self) -> str:
        """The name a constructor of the type is called by."""
        return self.glsl() + self.suffix()


def scalar(base: str) -> Type:
    """The scalar type ``base``."""
    return Type("scalar", base)


def vector(base: str, size: int) -> Type:
    """The vector of ``size`` ``base`` components."""
    return Type("vector", base, size)


UINT, INT, FLOAT, BOOL = (scalar(b) for b in SCALARS)


@dataclass
class Variable:
    """A name in scope: ``name``, ``type``, ``writable`` (False for loop counters,
    constants and ``in`` parameters that must stay as they are)."""

    name: str
    type: Type
    writable: bool = True


@dataclass
class Helper:
    """A helper function: ``name``, ``result`` (None: void), ``params`` (qualifier,
    variable)."""

    name: str
    result: Type | None
    params: list[tuple[str, Variable]] = field(default_factory=list)


@dataclass
class Context:
    """Where a statement is: inside a loop, inside a switch, in which function."""

    loop: bool = False
    switch: bool = False
    helper: Helper | None = None


class Generator:
    """One program drawn from ``random.Random(seed)``; :meth:`source` writes it."""

    def __init__(self, seed: str | int, size: int = 40) -> None:
        self.rng = random.Random(seed)
        self.budget = size  # statements left to draw
        self.counter = 0
        self.structs: list[Type] = []
        self.helpers: list[Helper] = []
        self.globals: list[Variable] = []
        self.spec: list[Variable] = []
        self.scopes: list[list[Variable]] = []
        self.lines: list[str] = []
        self.indent = 0
        self.context = Context()
        self.call_depth = 0

    # ---- names, scopes, text

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    @contextmanager
    def scope(self) -> Iterator[None]:
        self.scopes.append([])
        self.indent += 1
        try:
            yield
        finally:
            self.indent -= 1
            self.scopes.pop()

    def visible(self) -> list[Variable]:
        found = [*self.spec, *self.globals]
        for frame in self.scopes:
            found += frame
        return found

    def declare(self, variable: Variable) -> None:
        self.scopes[-1].append(variable)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # ---- types

    def random_type(self, depth: int = 0) -> Type:
        roll = self.rng.random()
        if roll < 0.5 or depth > 1:
            return scalar(self.rng.choice(("uint", "uint", "int", "int", "float", "bool")))
        if roll < 0.75:
            return vector(self.rng.choice(("uint", "int", "float", "bool")), self.rng.randint(2, 4))
        if roll < 0.9 or not self.structs:
            element = self.random_type(depth + 1)
            return Type("array", size=self.rng.choice((2, 3, 4, 5, 8)), element=element)
        return self.rng.choice(self.structs)

    def make_struct(self) -> Type:
        fields = tuple((f"m{k}", self.random_type(1)) for k in range(self.rng.randint(1, 4)))
        made = Type("struct", name=self.fresh("S"), fields=fields)
        self.structs.append(made)
        return made

    # ---- literals

    def literal(self, t: Type) -> str:
        if t.kind == "scalar":
            if t.base == "uint":
                return self.rng.choice(
                    (
                        f"{self.rng.randint(0, 9)}u",
                        f"{self.rng.randint(0, 1000)}u",
                        "0xFFFFFFFFu",
                        "0x80000000u",
                        f"{self.rng.getrandbits(32):#x}u",
                    )
                )
            if t.base == "int":
                return self.rng.choice(
                    (
                        str(self.rng.randint(-9, 9)),
                        str(self.rng.randint(-1000, 1000)),
                        "0x7FFFFFFF",
                        "(-7)",
                    )
                )
            if t.base == "float":
                return self.rng.choice(
                    ("0.0", "1.0", "-1.0", "0.5", "2.5", "-3.25", "0.1", "1024.0", "-0.0", "7.0")
                )
            return self.rng.choice(("true", "false"))
        return self.construct(t, lambda inner: self.literal(inner))

    def construct(self, t: Type, part: Callable[[Type], str]) -> str:
        if t.kind == "vector":
            if self.chance(0.3):
                return f"{t.glsl()}({part(scalar(t.base))})"
            return f"{t.glsl()}({', '.join(part(scalar(t.base)) for _ in range(t.size))})"
        if t.kind == "array":
            assert t.element is not None
            element = t.element
            return f"{t.constructor()}({', '.join(part(element) for _ in range(t.size))})"
        assert t.kind == "struct"
        return f"{t.name}({', '.join(part(f) for _, f in t.fields)})"

    # ---- expressions

    def index(self, bound: int, depth: int) -> str:
        """A dynamic index below ``bound``."""
        if self.chance(0.3) or depth > 8:  # (a read's index reads again: bound the chain)
            return str(self.rng.randrange(bound))
        inner = self.expr(UINT, depth + 1)
        if bound & (bound - 1) == 0:
            return f"(({inner}) & {bound - 1}u)"
        return f"(({inner}) % {bound}u)"

    def contains(self, t: Type, target: Type) -> bool:
        if t == target:
            return True
        if t.kind == "vector":
            return target.kind == "scalar" and target.base == t.base
        if t.kind == "array":
            assert t.element is not None
            return self.contains(t.element, target)
        if t.kind == "struct":
            return any(self.contains(f, target) for _, f in t.fields)
        return False

    def access(self, text: str, t: Type, target: Type, depth: int) -> str:
        """``text`` (of type ``t``) followed down to a part of type ``target``."""
        if t == target and (t.kind in ("scalar",) or self.chance(0.5)):
            return text
        if t.kind == "vector":
            if t == target:
                return text
            if self.chance(0.7):
                return f"{text}.{_COMPONENTS[self.rng.randrange(t.size)]}"
            return f"{text}[{self.index(t.size, depth)}]"
        if t.kind == "array":
            if t == target:
                return text
            assert t.element is not None
            return self.access(f"{text}[{self.index(t.size, depth)}]", t.element, target, depth)
        if t.kind == "struct":
            if t == target:
                return text
            name, inner = self.rng.choice([(n, f) for n, f in t.fields if self.contains(f, target)])
            return self.access(f"{text}.{name}", inner, target, depth)
        return text

    def read(self, target: Type, depth: int) -> str | None:
        """A readable place of type ``target`` (or None)."""
        found = [v for v in self.visible() if self.contains(v.type, target)]
        if not found:
            return None
        chosen = self.rng.choice(found)
        return self.access(chosen.name, chosen.type, target, depth)

    def call(self, target: Type, depth: int) -> str | None:
        """A call of a helper returning ``target`` (or None)."""
        if self.call_depth > 1:
            return None
        found = [h for h in self.helpers if h.result == target]
        if not found:
            return None
        return self.call_text(self.rng.choice(found), depth)

    def call_text(self, helper: Helper, depth: int) -> str | None:
        args = []
        written: set[str] = set()
        for qualifier, param in helper.params:
            if qualifier == "in":
                args.append(self.expr(param.type, depth + 1))
                continue
            places = [
                v
                for v in self.visible()
                if v.writable and v.type == param.type and v.name not in written
            ]
            if not places:
                return None
            chosen = self.rng.choice(places)
            written.add(chosen.name)
            args.append(chosen.name)
        return f"{helper.name}({', '.join(args)})"

    def expr(self, t: Type, depth: int = 0) -> str:
        """An expression of type ``t``."""
        if depth > 3 or self.chance(0.15 + 0.2 * depth):
            if self.chance(0.7):
                place = self.read(t, depth)
                if place is not None:
                    return place
            return self.literal(t)
        if self.chance(0.12):
            self.call_depth += 1
            try:
                called = self.call(t, depth)
            finally:
                self.call_depth -= 1
            if called is not None:
                return called
        if t.kind == "scalar":
            return self.scalar_expr(t.base, depth)
        if t.kind == "vector":
            return self.vector_expr(t, depth)
        if self.chance(0.5):
            place = self.read(t, depth)
            if place is not None:
                return place
        return self.construct(t, lambda inner: self.expr(inner, depth + 1))

    def cond(self, depth: int) -> str:
        return self.expr(BOOL, depth)

    def ternary(self, t: Type, depth: int) -> str:
        return f"({self.cond(depth + 1)} ? {self.expr(t, depth + 1)} : {self.expr(t, depth + 1)})"

    def scalar_expr(self, base: str, depth: int) -> str:
        d = depth + 1
        e = self.expr
        t = scalar(base)
        roll = self.rng.random()
        if roll < 0.08:
            return self.ternary(t, depth)
        if roll < 0.16:
            return self.convert(base, depth)
        if base == "bool":
            choice = self.rng.randrange(7)
            if choice == 0:
                other = self.rng.choice(("uint", "int", "float"))
                op = self.rng.choice(("<", "<=", ">", ">=", "==", "!="))
                return f"({e(scalar(other), d)} {op} {e(scalar(other), d)})"
            if choice == 1:
                return (
                    f"({e(BOOL, d)} {self.rng.choice(('&&', '||', '^^', '==', '!='))} {e(BOOL, d)})"
                )
            if choice == 2:
                return f"(!{e(BOOL, d)})"
            if choice == 3:
                v = vector(
                    self.rng.choice(("uint", "int", "float", "bool")), self.rng.randint(2, 4)
                )
                return f"{self.rng.choice(('any', 'all'))}({self.bool_vector(v.size, v, d)})"
            if choice == 4:
                composite = self.random_type()
                return f"({e(composite, d)} {self.rng.choice(('==', '!='))} {e(composite, d)})"
            if choice == 5:
                return f"({e(INT, d)} {self.rng.choice(('<', '>', '=='))} {self.literal(INT)})"
            return f"({e(UINT, d)} {self.rng.choice(('<', '>=', '!='))} {self.literal(UINT)})"
        if base == "float":
            choice = self.rng.randrange(7)
            if choice <= 2:
                return f"({e(t, d)} {self.rng.choice(('+', '-', '*'))} {e(t, d)})"
            if choice == 3:
                return f"({e(t, d)} / (abs({e(t, d)}) + 1.0))"
            if choice == 4:
                fn = self.rng.choice(("min", "max"))
                return f"{fn}({e(t, d)}, {e(t, d)})"
            if choice == 5:
                fn = self.rng.choice(("abs", "floor", "-", "sign"))
                return f"{fn}({e(t, d)})"
            return f"clamp({e(t, d)}, -64.0, 64.0)"
        choice = self.rng.randrange(10)
        if choice <= 2:
            return f"({e(t, d)} {self.rng.choice(('+', '-', '*', '&', '|', '^'))} {e(t, d)})"
        if choice == 3:
            return f"({e(t, d)} {self.rng.choice(('<<', '>>'))} ({e(t, d)} & 31{'u' if base == 'uint' else ''}))"
        if choice == 4:
            op = self.rng.choice(("/", "%"))
            if base == "uint":
                return f"({e(t, d)} {op} ({e(t, d)} | 1u))"
            if op == "%":  # (GLSL leaves % of a negative int undefined)
                return f"(({e(t, d)} & 0x7FFFFFFF) % (({e(t, d)} & 255) + 1))"
            return f"({e(t, d)} {op} (({e(t, d)} & 255) + 1))"
        if choice == 5:
            fn = self.rng.choice(("min", "max"))
            return f"{fn}({e(t, d)}, {e(t, d)})"
        if choice == 6:
            if base == "int":
                return f"{self.rng.choice(('-', 'abs', '~', 'sign'))}({e(t, d)})"
            if self.chance(0.3):
                return f"uint(bitCount({e(t, d)}))"
            return f"{self.rng.choice(('~', 'bitfieldReverse'))}({e(t, d)})"
        if choice == 7:
            v = vector(base, self.rng.randint(2, 4))
            place = self.read(v, d)
            if place is not None:
                return f"{place}[{self.index(v.size, d)}]"
            return f"({e(t, d)} * {self.literal(t)})"
        if choice == 8:
            return f"({e(t, d)} + {self.literal(t)})"
        if self.chance(0.2):
            return f"min(max({e(t, d)}, {self.literal(t)}), {self.literal(t)})"
        return f"({e(t, d)} - {e(t, d)})"

    def convert(self, base: str, depth: int) -> str:
        """A conversion into ``base`` from another scalar kind."""
        d = depth + 1
        source = self.rng.choice([b for b in SCALARS if b != base])
        inner = self.expr(scalar(source), d)
        if source == "float" and base in ("uint", "int"):
            low = "0.0" if base == "uint" else "-65536.0"
            return f"{base}(isnan({inner}) ? 0.0 : clamp({inner}, {low}, 65536.0))"
        if base == "float" and source == "uint":
            return f"float({inner} & 0xFFFFFu)"
        if base == "float" and source == "int":
            return f"float({inner} >> 8)"
        return f"{base}({inner})"

    def bool_vector(self, size: int, source: Type, depth: int) -> str:
        v = vector(source.base, size)
        if source.base == "bool":
            return self.expr(vector("bool", size), depth)
        fn = self.rng.choice(("lessThan", "greaterThanEqual", "equal", "notEqual"))
        return f"{fn}({self.expr(v, depth)}, {self.expr(v, depth)})"

    def vector_expr(self, t: Type, depth: int) -> str:
        d = depth + 1
        base = t.base
        roll = self.rng.randrange(7)
        if roll == 0:
            return self.ternary(t, depth)
        if roll == 1:
            wider = [v for v in self.visible() if v.type.kind == "vector" and v.type.base == base]
            if wider:
                chosen = self.rng.choice(wider)
                picks = "".join(
                    _COMPONENTS[self.rng.randrange(chosen.type.size)] for _ in range(t.size)
                )
                return f"{chosen.name}.{picks}"
        if roll == 2 and base != "bool":
            source = self.rng.choice([b for b in ("uint", "int", "float") if b != base])
            inner = self.expr(vector(source, t.size), d)
            if source == "float":
                zero = f"{vector('float', t.size).glsl()}(0.0)"
                return f"{t.glsl()}(mix(clamp({inner}, -100.0, 100.0), {zero}, isnan({inner})))"
            return f"{t.glsl()}({inner})"
        if base == "bool":
            if roll == 3:
                return f"not({self.expr(t, d)})"
            other = vector(self.rng.choice(("uint", "int", "float")), t.size)
            return self.bool_vector(t.size, other, d)
        if roll in (3, 4):
            ops = ("+", "-", "*") if base == "float" else ("+", "-", "*", "&", "|", "^")
            right = self.expr(t if self.chance(0.7) else scalar(base), d)
            return f"({self.expr(t, d)} {self.rng.choice(ops)} {right})"
        if roll == 5:
            return f"{self.rng.choice(('min', 'max'))}({self.expr(t, d)}, {self.expr(t, d)})"
        return self.construct(t, lambda inner: self.expr(inner, d))

    # ---- statements

    def writable_place(self) -> tuple[str, Type] | None:
        found = [v for v in self.visible() if v.writable]
        if not found:
            return None
        chosen = self.rng.choice(found)
        text, t = chosen.name, chosen.type
        while self.chance(0.6):
            if t.kind == "array":
                assert t.element is not None
                text, t = f"{text}[{self.index(t.size, 1)}]", t.element
            elif t.kind == "struct":
                name, t = self.rng.choice(t.fields)
                text = f"{text}.{name}"
            elif t.kind == "vector":
                if self.chance(0.3):
                    text = f"{text}[{self.index(t.size, 1)}]"
                else:
                    text = f"{text}.{_COMPONENTS[self.rng.randrange(t.size)]}"
                t = scalar(t.base)
            else:
                break
        return text, t

    def statements(self, count: int) -> None:
        for _ in range(count):
            if self.budget <= 0:
                return
            self.statement()

    def body(self, context: Context, count: int) -> None:
        saved = self.context
        self.context = context
        try:
            with self.scope():
                self.statements(count)
        finally:
            self.context = saved

    def statement(self) -> None:
        self.budget -= 1
        kinds = [
            ("declare", 5),
            ("assign", 8),
            ("compound", 4),
            ("output", 3),
            ("if", 4),
            ("for", 3),
            ("while", 2),
            ("do", 2),
            ("switch", 2),
            ("callstmt", 2),
            ("block", 1),
        ]
        if self.context.loop:
            kinds += [("break", 2), ("continue", 2)]
        elif self.context.switch:
            kinds += [("break", 1)]
        kinds += [("return", 2 if self.context.helper is not None else 1)]
        depth = self.indent
        if depth > 5:
            kinds = [
                k for k in kinds if k[0] not in ("for", "while", "do", "switch", "if", "block")
            ]
        (kind,) = self.rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])
        getattr(self, f"stmt_{kind}")()

    def stmt_declare(self) -> None:
        t = self.random_type() if self.chance(0.7) else self.make_struct()
        name = self.fresh("v")
        value = self.literal(t) if self.chance(0.4) else self.expr(t)
        const = "const " if self.chance(0.1) and "(" not in value else ""
        self.emit(f"{const}{t.glsl()} {name}{t.suffix()} = {value};")
        self.declare(Variable(name, t, writable=not const))

    def stmt_assign(self) -> None:
        place = self.writable_place()
        if place is None:
            return self.stmt_declare()
        text, t = place
        if t.kind == "vector" and self.chance(0.2) and t.size >= 2:
            picks = self.rng.sample(_COMPONENTS[: t.size], self.rng.randint(1, t.size))
            part = scalar(t.base) if len(picks) == 1 else vector(t.base, len(picks))
            self.emit(f"{text}.{''.join(picks)} = {self.expr(part)};")
            return None
        self.emit(f"{text} = {self.expr(t)};")
        return None

    def stmt_compound(self) -> None:
        place = self.writable_place()
        if place is None or place[1].kind != "scalar" or place[1].base == "bool":
            return self.stmt_assign()
        text, t = place
        if self.chance(0.3):
            self.emit(
                f"{text}{self.rng.choice(('++', '--'))};"
                if t.base != "float"
                else f"{text} += 1.0;"
            )
            return None
        ops = ("+=", "-=", "*=") if t.base == "float" else ("+=", "-=", "*=", "^=", "|=", "&=")
        self.emit(f"{text} {self.rng.choice(ops)} {self.expr(t)};")
        return None

    def hash_of(self, t: Type, text: str) -> str:
        """A uint expression of every scalar in ``text`` (of type ``t``)."""
        if t.kind == "scalar":
            if t.base == "float":  # (either zero gives 0: see the module's docstring)
                return f"bitsOf({text})"
            return f"uint({text})"
        if t.kind == "vector":
            parts = [
                self.hash_of(scalar(t.base), f"{text}.{_COMPONENTS[k]}") for k in range(t.size)
            ]
            return " * 3u + ".join(parts)
        if t.kind == "array":
            assert t.element is not None
            element = t.element
            return " * 5u + ".join(
                f"({self.hash_of(element, f'{text}[{k}]')})" for k in range(t.size)
            )
        return " * 7u + ".join(f"({self.hash_of(f, f'{text}.{n}')})" for n, f in t.fields)

    def stmt_output(self) -> None:
        component = self.rng.choice(_COMPONENTS)
        t = self.random_type()
        self.emit(
            f"outp.r[gl_GlobalInvocationID.x].{component} = "
            f"outp.r[gl_GlobalInvocationID.x].{component} * 31u + ({self.hash_of(t, self.expr(t))});"
            if t.kind in ("scalar", "vector")
            else f"outp.r[gl_GlobalInvocationID.x].{component} ^= {self.expr(UINT)};"
        )

    def stmt_if(self) -> None:
        self.emit(f"if ({self.cond(0)}) {{")
        self.body(self.context, self.rng.randint(1, 4))
        while self.chance(0.35):
            self.emit(f"}} else if ({self.cond(0)}) {{")
            self.body(self.context, self.rng.randint(1, 3))
        if self.chance(0.5):
            self.emit("} else {")
            self.body(self.context, self.rng.randint(1, 3))
        self.emit("}")

    def loop_context(self) -> Context:
        return Context(loop=True, switch=False, helper=self.context.helper)

    def guard(self) -> str:
        """A bound for a loop counter: a constant, or a reduced value."""
        if self.chance(0.5):
            return str(self.rng.randint(0, 6))
        spec = [v for v in self.spec if v.type == INT]
        if spec and self.chance(0.3):
            return f"min({self.rng.choice(spec).name}, 6)"
        return f"int(({self.expr(UINT, 2)}) % 5u)"

    def loop_extra(self) -> str:
        """Something more for a loop's condition: a call or a test, or nothing."""
        if self.chance(0.5):
            return ""
        call = self.call(BOOL, 1)
        return f" && {call if call is not None and self.chance(0.6) else self.cond(2)}"

    def stmt_for(self) -> None:
        k = self.fresh("k")
        step = f"{k}++"
        if self.chance(0.3):
            helpers = [h for h in self.helpers if h.params or h.result is not None]
            place = self.writable_place()
            if place is not None and place[1].kind == "scalar" and place[1].base != "bool":
                value = self.call(place[1], 1) if helpers and self.chance(0.6) else None
                step += f", {place[0]} = {value or self.expr(place[1], 2)}"
        bound = self.guard()
        self.scopes.append([Variable(k, INT, writable=False)])
        self.emit(f"for (int {k} = 0; {k} < {bound}{self.loop_extra()}; {step}) {{")
        self.body(self.loop_context(), self.rng.randint(1, 5))
        self.emit("}")
        self.scopes.pop()

    def stmt_while(self) -> None:
        g = self.fresh("g")
        self.emit(f"int {g} = 0;")
        self.declare(Variable(g, INT, writable=False))
        self.emit(f"while ({g} < {self.guard()}{self.loop_extra()}) {{")
        self.indent += 1
        self.emit(f"{g}++;")
        self.indent -= 1
        self.body(self.loop_context(), self.rng.randint(1, 5))
        self.emit("}")

    def stmt_do(self) -> None:
        g = self.fresh("g")
        self.emit(f"int {g} = 0;")
        self.declare(Variable(g, INT, writable=False))
        bound = self.guard()
        self.emit("do {")
        self.indent += 1
        self.emit(f"{g}++;")
        self.indent -= 1
        self.body(self.loop_context(), self.rng.randint(1, 5))
        self.emit(f"}} while ({g} < {bound}{self.loop_extra()});")

    def stmt_switch(self) -> None:
        base = self.rng.choice(("int", "uint"))
        suffix = "u" if base == "uint" else ""
        self.emit(f"switch ({self.expr(scalar(base))} & 7{suffix}) {{")
        labels = self.rng.sample(range(8), self.rng.randint(1, 5))
        context = Context(loop=self.context.loop, switch=True, helper=self.context.helper)
        cases = [f"case {n}{suffix}:" for n in labels]
        if self.chance(0.7):
            cases.insert(self.rng.randrange(len(cases) + 1), "default:")
        for n, label in enumerate(cases):
            self.emit(label)
            if n + 1 < len(cases) and self.chance(0.2):
                continue  # (two labels on one body)
            self.body(context, self.rng.randint(1, 3))
            if self.chance(0.65):
                self.indent += 1
                self.emit("break;")
                self.indent -= 1
        self.emit("}")

    def stmt_callstmt(self) -> None:
        callable_ = [
            h for h in self.helpers if any(q != "in" for q, _ in h.params) or h.result is None
        ]
        if not callable_ or self.call_depth > 0:
            return self.stmt_output()
        text = self.call_text(self.rng.choice(callable_), 1)
        if text is None:
            return self.stmt_assign()
        self.emit(f"{text};")
        return None

    def stmt_block(self) -> None:
        self.emit("{")
        self.body(self.context, self.rng.randint(1, 3))
        self.emit("}")

    def stmt_break(self) -> None:
        self.jump("break")

    def stmt_continue(self) -> None:
        if self.context.switch and not self.context.loop:
            return self.stmt_assign()
        self.jump("continue")
        return None

    def jump(self, word: str) -> None:
        if self.chance(0.7):
            self.emit(f"if ({self.cond(1)}) {{")
            self.indent += 1
            self.emit(f"{word};")
            self.indent -= 1
            self.emit("}")
        else:
            self.emit(f"{word};")

    def stmt_return(self) -> None:
        helper = self.context.helper
        value = ""
        if helper is not None and helper.result is not None:
            value = " " + self.expr(helper.result, 1)
        self.jump(f"return{value}")

    # ---- functions and program

    def make_helper(self) -> None:
        result = None if self.chance(0.2) else self.random_type()
        while result is not None and result.kind == "array":
            result = result.element
        helper = Helper(self.fresh("h"), result)
        for _ in range(self.rng.randint(0, 3)):
            qualifier = self.rng.choice(("in", "in", "out", "inout"))
            helper.params.append(
                (
                    qualifier,
                    Variable(
                        self.fresh("p"),
                        self.random_type(),
                        writable=qualifier != "in" or self.chance(0.5),
                    ),
                )
            )
        params = ", ".join(
            f"{q} {v.type.glsl()} {v.name}{v.type.suffix()}" for q, v in helper.params
        )
        self.emit(f"{result.glsl() if result else 'void'} {helper.name}({params}) {{")
        self.scopes.append([v for _, v in helper.params])
        self.indent += 1
        saved, self.context = self.context, Context(helper=helper)
        outs = [v for q, v in helper.params if q == "out"]
        for v in outs:  # hidden until written: nothing reads them before
            self.scopes[-1].remove(v)
        for v in outs:
            self.emit(f"{v.name} = {self.expr(v.type, 2)};")
            self.scopes[-1].append(v)
        self.budget = self.rng.randint(3, 12)
        self.statements(self.budget)
        if result is not None:
            self.emit(f"return {self.expr(result, 1)};")
        self.context = saved
        self.indent -= 1
        self.scopes.pop()
        self.emit("}")
        self.emit("")
        self.helpers.append(helper)

    def source(self) -> str:
        """The program's GLSL text."""
        head = ["#version 450", "layout(local_size_x = 64) in;"]
        for k in range(self.rng.randint(0, 3)):
            base = self.rng.choice(("int", "uint", "bool"))
            t = scalar(base)
            name = f"SC{k}"
            value = {
                "int": str(self.rng.randint(1, 9)),
                "uint": f"{self.rng.randint(1, 9)}u",
                "bool": self.rng.choice(("true", "false")),
            }[base]
            head.append(f"layout(constant_id = {k}) const {base} {name} = {value};")
            self.spec.append(Variable(name, t, writable=False))
        if self.spec and self.chance(0.6):
            first = self.spec[0]
            op = {"int": " * 2 + 1", "uint": " * 3u + 1u", "bool": " == false"}[first.type.base]
            head.append(f"const {first.type.glsl()} SCX = {first.name}{op};")
            self.spec.append(Variable("SCX", first.type, writable=False))
        head.append("layout(std430, binding = 0) buffer In { uvec4 u[]; } inp;")
        head.append("layout(std430, binding = 1) buffer Out { uvec4 r[]; } outp;")
        for _ in range(self.rng.randint(0, 2)):
            self.make_struct()
        self.scopes.append([])
        for _ in range(self.rng.randint(0, 2)):
            t = self.random_type()
            name = self.fresh("gp")
            self.lines.append(f"{t.glsl()} {name}{t.suffix()} = {self.literal(t)};")
            self.globals.append(Variable(name, t))
        self.lines.append("")
        size = self.budget
        for _ in range(self.rng.randint(0, 3)):
            self.make_helper()
        self.emit("void main() {")
        self.indent += 1
        self.emit("uvec4 seed = inp.u[gl_GlobalInvocationID.x];")
        self.emit("outp.r[gl_GlobalInvocationID.x].x = seed.x * 0x9E3779B1u + 1u;")
        self.declare(Variable("seed", vector("uint", 4), writable=False))
        for _ in range(self.rng.randint(2, 6)):  # locals from the input and constants
            self.stmt_declare()
        self.budget = size
        self.statements(size)
        while self.budget > 0:
            self.statement()
        hashed = [v for v in self.scopes[-1] if v.name != "seed"]
        total = (
            " + ".join(
                f"({self.hash_of(v.type, v.name)}) * {2 * k + 3}u" for k, v in enumerate(hashed)
            )
            or "0u"
        )
        self.emit(f"outp.r[gl_GlobalInvocationID.x].w += {total};")
        self.indent -= 1
        self.emit("}")
        structs = []
        for s in self.structs:
            members = " ".join(f"{f.glsl()} {n}{f.suffix()};" for n, f in s.fields)
            structs.append(f"struct {s.name} {{ {members} }};")
        bits = "uint bitsOf(float x) { return x == 0.0 ? 0u : floatBitsToUint(x); }"
        return "\n".join(head[:2] + head[2:] + structs + [bits] + self.lines) + "\n"


def program(seed: str | int, size: int = 40) -> str:
    """The GLSL text of the program drawn from ``seed`` (about ``size`` statements in
    ``main``)."""
    return Generator(seed, size).source()
