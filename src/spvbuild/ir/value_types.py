"""Each value's type, as the type checks keep it: a map and the current streak.

A module with type checks keeps the type of every value it defines
(``ModuleState._value_types``, result id → type id).  The generated fast paths do not
write each value of a run of arithmetic into that map: after a fast path accepts a call
by its result type's ``TYPE_*`` bits, the values that follow it with the same result type
(a *streak*: ids ``_streak_from`` up to ``_streak_end``, none made another way in between)
have the streak's type, ``_streak_type`` (with its bits, ``_streak_bits``), and an operand
inside the streak is known to be of that type by comparing two numbers.
:func:`value_types` writes the streak's values into the map before anything else reads
it, so the map read through it is whole; :func:`flush_streak` does that for a fast path
that starts a new streak (the module's ``_flush_streak``).
"""

from __future__ import annotations

from spvbuild.ir.state import ModuleState
from spvbuild.spirv.ids import TypeId

__all__ = ["end_streak", "flush_streak", "value_types"]


def value_types(state: ModuleState) -> dict[int, TypeId] | None:
    """The module's map of value types, with the current streak's values written in
    (None: no type checks)."""
    types = state._value_types
    if types is not None and state._streak_end > state._streak_from:
        flush_streak(state)
    return types


def flush_streak(state: ModuleState) -> None:
    """Write the values of the current streak into the map (the streak goes on from its
    end)."""
    start, end = state._streak_from, state._streak_end
    types = state._value_types
    if types is not None and end > start:
        types.update(dict.fromkeys(range(start, end), state._streak_type))
    state._streak_from = end


def end_streak(state: ModuleState) -> None:
    """Write the streak's values into the map and end it (before the module's
    instructions change)."""
    flush_streak(state)
    state._streak_from = state._streak_end = 0
    state._streak_type = None
