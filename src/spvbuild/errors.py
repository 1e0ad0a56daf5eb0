"""spvbuild's exceptions.  Every error spvbuild raises on bad input is a :class:`SpvbuildError`."""

from __future__ import annotations


class SpvbuildError(Exception):
    """Base class of every error spvbuild raises for bad input."""


class ArgumentError(SpvbuildError, TypeError, ValueError):
    """A public function called with an argument it does not take.

    The message names the function, the parameter, what it takes and what it was given,
    e.g. ``assemble: text must be a str (SPIR-V assembly text), not bytes; decode it
    first``.  It is also a :class:`TypeError` and a :class:`ValueError`, what Python
    raises for a wrong type or value, so existing ``except`` clauses keep working.
    """


class MemberNameError(SpvbuildError, AttributeError):
    """An enum member looked up by a name it does not have, where the name it has is known.

    ``Op.OpDecorate`` raises it: the ``Op`` enum drops the ``Op`` prefix, and the message
    says so, ``Op has no member 'OpDecorate': members drop the 'Op' prefix, OpDecorate is
    Op.Decorate``.  It is an :class:`AttributeError`, so ``hasattr`` and ``getattr`` with
    a default behave as for any missing attribute.
    """


class BuildError(SpvbuildError):
    """A builder call that cannot make a valid instruction.

    The message names the instruction (``OpDecorate``) and the operand at fault, e.g.
    ``OpLoad operand 'memory_access': MemoryAccess.Aligned needs its parameter``.
    """


class EncodeError(BuildError):
    """An operand value that cannot be encoded as SPIR-V words."""


class LayoutError(BuildError):
    """A block layout that cannot be (:mod:`spvbuild.constructs.layouts`).

    The message names the struct and the member, e.g. ``struct Params member 'scale':
    offset 8 breaks the std140 layout: the lowest offset allowed after 'mvp' is 64 (a
    multiple of its std140 alignment 16)``.  It is a :class:`BuildError`, as declaring
    such a block is a builder call that cannot make a valid module.
    """


class ValidationError(SpvbuildError):
    """spirv-val found the module invalid (:meth:`spvbuild.ir.module.Module.validate`).

    ``problems`` holds each problem (:class:`spvbuild.ir.validation.ValidationProblem`):
    spirv-val's message, the instruction and, where the module remembers call sites, the
    Python ``file:line`` of the call that made it.
    """

    def __init__(self, message: str, problems: list[object]) -> None:
        super().__init__(message)
        self.problems = problems


class SpvbuildWarning(UserWarning):
    """Base class of the warnings spvbuild gives about what it was asked to build."""


class TargetWarning(SpvbuildWarning):
    """A call whose instruction the target environment accepts but does not honour, e.g.
    ``Decoration.NoContraction is dropped by webgpu (rule no-contraction-dropped: ...)``;
    the warning is located at the user's call (its filename and line number)."""


class ToolUnavailable(SpvbuildError):
    """An external tool spvbuild runs on request (spirv-val) is not installed; the
    message says how to install it."""


class BinaryError(SpvbuildError):
    """A SPIR-V binary that cannot be read.

    ``word_offset`` is the index of the offending word (0 = the magic number); the
    message says what is wrong there (bad magic, word count 0 or past the end, string
    without NUL, id out of bound, ...).
    """

    def __init__(self, word_offset: int, message: str) -> None:
        self.word_offset = word_offset
        self.reason = message
        super().__init__(f"word {word_offset}: {message}")


class AssemblyError(SpvbuildError):
    """Assembly text that cannot be assembled.

    ``str(error)`` reads ``file:line:col: message``; the message names the opcode and
    operand being parsed, what was expected and what was found, with a did-you-mean
    suggestion where one is close.
    """

    def __init__(self, file: str, line: int, col: int, message: str) -> None:
        self.file = file
        self.line = line
        self.col = col
        self.reason = message
        super().__init__(f"{file}:{line}:{col}: {message}")


class ReflectionError(SpvbuildError):
    """A module that reads as SPIR-V but cannot be reflected
    (:func:`spvbuild.reflect`): an id used as a type that declares none, a
    function without its end, a constant of a type that is not one.  The message names
    the id or the instruction at fault."""


class PassError(SpvbuildError):
    """A pass of :mod:`spvbuild.passes` met a module it cannot handle.

    ``pass_name`` is the pass (its command-line name, ``compact-ids``), ``opcode_name`` the
    name of the instruction at fault (None when the problem is no one instruction's),
    ``result_id`` the id it concerns (None when none), ``reason`` what is wrong; the
    message joins them, e.g. ``compact-ids: OpExtInst %12: operands of an unknown
    extended set may hold ids that cannot be renumbered``.  The module given to the pass
    is left unchanged.
    """

    def __init__(
        self, pass_name: str, reason: str, opcode_name: str | None = None, result_id: int | None = None
    ) -> None:
        self.pass_name = pass_name
        self.reason = reason
        self.opcode_name = opcode_name
        self.result_id = None if result_id is None else int(result_id)  # (an Id prints as %n)
        where = ""
        if opcode_name is not None:
            where = opcode_name + (f" %{self.result_id}" if result_id is not None else "") + ": "
        elif result_id is not None:
            where = f"%{self.result_id}: "
        super().__init__(f"{pass_name}: {where}{reason}")


class LinkError(PassError):
    """Modules that cannot be linked into one (:func:`spvbuild.link`).

    ``reason`` says what is wrong and names the inputs concerned (as given in ``names=``,
    by default ``modules[1]``), e.g. ``link: modules[0] imports "scale", which no module
    exports``; ``symbol`` is the LinkageAttributes name (or entry point name) concerned,
    ``module`` the input at fault (None when the problem is no one symbol's or input's).
    It is a :class:`PassError` whose ``pass_name`` is ``link``; the inputs are left
    unchanged.  Raised for: an import no module exports (unless partial linkage is
    allowed), a name exported twice that an import names, an import and its export of
    different types or decorations, a LinkageAttributes on what is neither a global
    variable nor a function, addressing or memory models that differ, the same entry
    point in two modules, SPIR-V versions that differ when the highest is not asked for.
    """

    def __init__(
        self, reason: str, *, symbol: str | None = None, module: str | None = None
    ) -> None:
        super().__init__("link", reason)
        self.symbol = symbol
        self.module = module
