"""What inlining one program shares (:mod:`spvbuild.passes.inline`): the functions, the
declarations found or added, the decorations of each id, each function's constructs."""

from __future__ import annotations

from dataclasses import dataclass, field

from spvbuild.errors import PassError
from spvbuild.generated.core.opcodes import OP_TYPE_VOID
from spvbuild.passes.constructs import Nesting, nesting
from spvbuild.passes.declarations import DeclarationPool
from spvbuild.passes.program import Function, opcode_name
from spvbuild.spirv.instruction import Instruction

__all__ = ["InlineContext"]


@dataclass(slots=True)
class InlineContext:
    """What inlining one program shares: the pass's name, the functions by id, the
    declarations found or added, the decorations of each id, the DebugInfo imports."""

    name: str
    functions: dict[int, Function]
    declarations: DeclarationPool
    decorations: dict[int, list[Instruction]]
    debug_imports: set[int]
    nestings: dict[int, Nesting] = field(default_factory=dict)
    substituted: set[int] = field(default_factory=set)

    def nesting_of(self, function: Function) -> Nesting:
        found = self.nestings.get(function.id)
        if found is None:
            found = self.nestings[function.id] = nesting(function)
        return found

    def fail(self, reason: str, inst: Instruction) -> PassError:
        return PassError(self.name, reason, opcode_name(inst.opcode), inst.result_id)

    def is_void(self, type_id: int) -> bool:
        return self.declarations.find(OP_TYPE_VOID, None, ()) == type_id
