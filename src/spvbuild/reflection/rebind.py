"""Moving resources to other descriptor sets and bindings in a binary (:func:`rebind`).

The DescriptorSet and Binding decorations of each variable moved are edited in place (their
literal words); a variable that has no DescriptorSet decoration (set 0 by default) and is
moved to another set gets one, written beside its Binding decoration.  Nothing else in the
module changes: ids, instructions and their order stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Union

from spvbuild.binary.read_module import ReadModule
from spvbuild.binary.reader import read
from spvbuild.errors import ArgumentError
from spvbuild.generated.core.enums import Decoration
from spvbuild.generated.core.opcodes import OP_DECORATE, OP_GROUP_DECORATE
from spvbuild.reflection.analysis import reflect
from spvbuild.spirv.call_site import located

if TYPE_CHECKING:
    from spvbuild.ir.module import Module

__all__ = ["rebind"]

Pair = tuple[int, int]
ModuleInput = Union["Module", ReadModule, bytes, bytearray, memoryview, Sequence[int]]
"""What :func:`rebind` takes: a module being built, a module read, or a binary."""


def _words(module: object) -> list[int]:
    if isinstance(module, ReadModule):
        return module.to_words()
    if isinstance(module, bytes | bytearray | memoryview):
        return read(module).to_words()
    from spvbuild.ir.module import Module

    if isinstance(module, Module):
        return module.to_words()
    if isinstance(module, Sequence) and not isinstance(module, str):
        return [int(w) for w in module]
    raise ArgumentError(
        located(
            "rebind: module must be a Module, a module spvbuild.read gave, or a SPIR-V binary "
            f"(bytes or 32-bit words), not {type(module).__name__}"
        )
    )


def _pair(value: object, what: str) -> Pair:
    if (
        isinstance(value, tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        return (value[0], value[1])
    raise ArgumentError(
        located(f"rebind: each {what} must be a (set, binding) pair of ints >= 0, not {value!r}")
    )


def rebind(module: ModuleInput, moves: Mapping[Pair, Pair]) -> list[int]:
    """The module's words with each resource at a (set, binding) of ``moves`` moved to the
    pair it maps to: ``rebind(words, {(0, 1): (2, 0)})``.

    ``module`` is a :class:`~spvbuild.ir.module.Module`, a module :func:`spvbuild.read`
    gave, or a binary (bytes or words).  Every variable at a moved pair moves (aliases
    included), all at once, so two resources may swap.  Raises
    :class:`~spvbuild.errors.ArgumentError` (at the caller's line) when a pair is not two
    ints >= 0, when no resource is at a pair to move, when two pairs move to one, or when
    a resource lands where one that does not move stays; and when a moved variable takes
    its set or binding from a decoration group, which would move the group's other
    variables too.
    """
    if not isinstance(moves, Mapping):
        raise ArgumentError(
            located(f"rebind: moves must be a mapping of pairs, not {type(moves).__name__}")
        )
    wanted = {_pair(old, "key"): _pair(new, "value") for old, new in moves.items()}
    words = _words(module)
    found = reflect(words).descriptor_bindings
    held = {(b.set, b.binding) for b in found}
    for old in wanted:
        if old not in held:
            raise ArgumentError(
                located(f"rebind: the module has no resource at set {old[0]}, binding {old[1]}")
            )
    targets: dict[Pair, Pair] = {}
    for old, new in wanted.items():
        if new in targets:
            raise ArgumentError(
                located(f"rebind: {targets[new]} and {old} would both move to {new}")
            )
        targets[new] = old
        if new in held and new not in wanted:
            raise ArgumentError(
                located(f"rebind: {old} would move to {new}, where a resource stays")
            )
    variables = {
        b.variable_id: wanted[(b.set, b.binding)] for b in found if (b.set, b.binding) in wanted
    }
    return _edit(words, variables)


def _edit(words: list[int], variables: dict[int, Pair]) -> list[int]:
    """``words`` with each variable's DescriptorSet and Binding set to its pair."""
    out = list(words)
    seen: dict[int, dict[int, int]] = {}  # variable → decoration → index of its literal word
    grouped: set[int] = set()
    index = 5
    while index < len(words):
        count, opcode = words[index] >> 16, words[index] & 0xFFFF
        if count == 0:
            break
        if opcode == OP_DECORATE and count == 4 and words[index + 1] in variables:
            seen.setdefault(words[index + 1], {})[words[index + 2]] = index + 3
        elif opcode == OP_GROUP_DECORATE:
            grouped.update(w for w in words[index + 2 : index + count] if w in variables)
        index += count
    inserts: list[tuple[int, list[int]]] = []
    for variable, (set_number, binding) in variables.items():
        literals = seen.get(variable, {})
        if variable in grouped and not (
            Decoration.DescriptorSet in literals and Decoration.Binding in literals
        ):
            raise ArgumentError(
                located(
                    f"rebind: %{variable} takes its set or binding from a decoration group; "
                    "moving it would move the group's other variables too"
                )
            )
        at_binding = literals.get(Decoration.Binding)
        if at_binding is None:
            raise ArgumentError(located(f"rebind: %{variable} has no Binding decoration"))
        out[at_binding] = binding
        at_set = literals.get(Decoration.DescriptorSet)
        if at_set is not None:
            out[at_set] = set_number
        elif set_number != 0:
            decorate = [(4 << 16) | OP_DECORATE, variable, int(Decoration.DescriptorSet)]
            inserts.append((at_binding + 1, [*decorate, set_number]))
    for position, inserted in sorted(inserts, reverse=True):
        out[position:position] = inserted
    return out
