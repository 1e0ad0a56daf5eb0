"""Types at the call: a builder call checked against its instruction's type rule.

The rules are grammar data (``grammars/type_rules.yaml`` → :mod:`spvbuild.generated.core.type_rules`);
this module is their one interpreter.  The module keeps the type of every value it defines
(``ModuleState._value_types``: result id → result type id, filled where a record is defined
and by the generated fast paths) and reads each type's facts from its declaration, by the
rules' type forms (:class:`TypeShape`, cached per module).  :func:`check_call` tests the
call's result type and operands against the rule's constraints and raises a
:class:`~spvbuild.errors.BuildError` naming the instruction, the operand, the type it has
and what the rule needs, ending with the user's ``file:line``.

A rule only speaks about the types it models: an operand whose type is of another kind (a
cooperative matrix, an image), or not known yet (a forward reference, an id reserved with
``new_id``), is not tested, so a call is refused only for a mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import (
    OP_ACCESS_CHAIN,
    OP_DECORATE,
    OP_EXT_INST,
    OP_IN_BOUNDS_ACCESS_CHAIN,
    OP_PTR_ACCESS_CHAIN,
    OP_VARIABLE,
)
from spvbuild.generated.core.type_rules import EXT_RESULTS, READ_ONLY, TYPE_FORMS, TYPE_RULES
from spvbuild.ir.inspection import definition
from spvbuild.ir.state import ModuleState, name_of
from spvbuild.ir.type_shapes import (
    SCALARS,
    TypeShape,
    describe,
    scalar_of,
    shape_of,
    storage_name,
    type_bits,
)
from spvbuild.ir.value_types import flush_streak, value_types
from spvbuild.spirv.call_site import located
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.tables import (
    RESULT,
    TypeConstraint,
    TypeRule,
)

__all__ = [
    "TypeMismatch",
    "check_call",
    "check_ext_call",
    "check_ext_instruction",
    "check_instruction",
]

_CHAINS = frozenset({OP_ACCESS_CHAIN, OP_IN_BOUNDS_ACCESS_CHAIN, OP_PTR_ACCESS_CHAIN})


class TypeMismatch(Exception):
    """A call or an instruction breaks its type rule: the message says how (without a
    place; :func:`check_call` adds the user's call site, :func:`check_instruction`'s
    caller the instruction's offset)."""


def _error(message: str) -> TypeMismatch:
    return TypeMismatch(message)


def check_call(
    state: ModuleState, opcode: int, result_type: Any, operands: Sequence[Any]
) -> bool:
    """Check a call of ``opcode`` against its type rule; raise a located BuildError for a
    mistake.  True when every operand the rule constrains has a known type (the call's
    words may go down the fast path); False when one is not known yet (a forward reference
    or a reserved id: the general path, which knows those, takes the call)."""
    try:
        return check_instruction(state, opcode, result_type, operands)
    except TypeMismatch as mismatch:
        error = BuildError(located(str(mismatch)))
        error.located = True  # type: ignore[attr-defined]
        raise error from None


def check_ext_call(
    state: ModuleState, set_name: str, number: int, result_type: Any, operands: Sequence[Any]
) -> None:
    """:func:`check_ext_instruction` for a builder call: a mistake is a located
    BuildError."""
    try:
        check_ext_instruction(state, set_name, number, result_type, operands)
    except TypeMismatch as mismatch:
        error = BuildError(located(str(mismatch)))
        error.located = True  # type: ignore[attr-defined]
        raise error from None


def check_instruction(
    state: ModuleState, opcode: int, result_type: Any, operands: Sequence[Any]
) -> bool:
    """:func:`check_call` without the call site: a mistake is a :class:`TypeMismatch`."""
    rule = TYPE_RULES.get(opcode)
    if rule is None:
        return True
    if (
        result_type is not None
        and result_type.__class__ is not TypeId
        and (not isinstance(result_type, int) or isinstance(result_type, bool))
    ):
        return False  # not an id: the general path's encoder says what is wrong
    typed = _TYPED.get(opcode)
    if typed is None:
        typed = _TYPED[opcode] = _typed_operands(rule)
    types = state._value_types  # (value_types(state), inline: the streak written in)
    assert types is not None
    if state._streak_end > state._streak_from:
        flush_streak(state)
    known = True
    found: dict[int, int] = {}  # position → the operand's type
    count = len(operands)
    for position, name in typed:
        if position < count:
            value = operands[position]
            kind = value.__class__
            if kind is Id or kind is TypeId or (kind is not bool and isinstance(value, int)):
                value_type = types.get(value)
                if value_type is not None:
                    found[position] = value_type
                else:
                    _not_a_value(state, opcode, rule, name, int(value))
                    known = False
            # (else an absent optional, a variadic list: not a single value)
    if not known or (opcode in _BY_VALUE and _value_matters(state, rule, found)):
        # (an operand of no known type yet: its position is not in a signature)
        _check_rule(state, opcode, rule, result_type, operands, found)
        return known
    key: tuple[Any, ...] = (opcode, result_type, *found.values())
    if opcode in _BY_LITERALS:
        literals = _literals(operands, typed)
        if literals is None:
            _check_rule(state, opcode, rule, result_type, operands, found)
            return known
        key += literals
    memo = state._type_memo
    if memo is None:
        memo = state._type_memo = set()
    if key in memo:
        if result_type is not None and result_type not in state._type_bits:
            type_bits(state, result_type)  # seen twice: the fast paths may accept it at once
        return known
    so_far = state._defined_so_far
    if so_far is None or (so_far, key) not in _PASSED:
        _check_rule(state, opcode, rule, result_type, operands, found)
        if so_far is not None and len(_PASSED) < 1 << 14:  # bounded, as the memo
            _PASSED.add((so_far, key))
    if len(memo) < 4096:  # bounded: a module's distinct signatures are few
        memo.add(key)
    return known


_PASSED: set[tuple[int, tuple[Any, ...]]] = set()
"""The signatures of calls found right in any module, each with the number of the global
definitions its module had made (``ModuleState._defined_so_far``): at an equal number, the
ids of the signature mean the same types, so a module built like an earlier one is not
checked again call by call (the README's shader, a frontend's prelude)."""


def _literals(operands: Sequence[Any], typed: tuple[tuple[int, str], ...]) -> tuple[Any, ...] | None:
    """The operands a rule reads by value besides the typed ones (a composite's indexes,
    a shuffle's components), as a hashable tuple (None: one that cannot be)."""
    positions = {position for position, _ in typed}
    out: list[Any] = []
    for position, value in enumerate(operands):
        if position in positions:
            continue
        if isinstance(value, list):
            value = tuple(value)
        try:
            hash(value)
        except TypeError:
            return None
        out.append(value)
    return tuple(out)


def check_ext_instruction(
    state: ModuleState,
    set_name: str,
    number: int,
    result_type: Any,
    operands: Sequence[Any],
) -> None:
    """An extended instruction against its set's result rule (``ext_results`` of
    ``grammars/type_rules.yaml``): the result type is like the first operand's type
    (``like_first``: its component type, width and count, signedness aside, which for
    floats is the same type) or like its component type (``component_of_first``).  A
    mistake is a :class:`TypeMismatch`; what the rule does not model is not checked."""
    how = EXT_RESULTS.get((set_name, number))
    if how is None or result_type is None or not operands:
        return
    first = operands[0]
    kind = first.__class__
    if not (kind is Id or kind is TypeId or (kind is not bool and isinstance(first, int))):
        return
    types = value_types(state)
    first_type = types.get(first) if types is not None else None
    if first_type is None:
        return  # (not defined yet, or no value: the encoder or spirv-val says so)
    wanted = int(result_type)
    key = (OP_EXT_INST, set_name, number, wanted, first_type)
    memo = state._type_memo
    if memo is not None and key in memo:
        return
    so_far = state._defined_so_far
    if so_far is not None and (so_far, key) in _PASSED:
        return
    shape = shape_of(state, first_type)
    if shape is None:
        return
    decided = shape.component if how == "component_of_first" and shape.category == "vector" else first_type
    need = _like(state, wanted, int(decided))
    if need is not None:
        name = _ext_info(set_name, number)
        whose = "the component type of " if how == "component_of_first" else ""
        raise _error(
            f"{set_name} {name}: the result type is {describe(state, wanted)}; {name} needs "
            f"{need} {whose}operand 1's type {describe(state, first_type)} (operand 1 is "
            f"%{int(first)})"
        )
    if memo is None:
        memo = state._type_memo = set()
    if len(memo) < 4096:
        memo.add(key)
    if so_far is not None and len(_PASSED) < 1 << 14:
        _PASSED.add((so_far, key))


def _ext_info(set_name: str, number: int) -> str:
    """An extended instruction's name in its set (``instruction 7`` where the set's
    table is not generated)."""
    from spvbuild.generated.extinst import set_module  # (imports the set's module once)

    found = set_module(set_name)
    info = found.INSTRUCTIONS.get(number) if found is not None else None
    return str(info.name) if info is not None else f"instruction {number}"


_BY_VALUE = frozenset(
    opcode
    for opcode, rule in TYPE_RULES.items()
    if any(c.writable for _, _, c in rule.operands)
)
"""Rules whose outcome depends on an operand's value, not its type alone (a store's
pointer is read-only by the variable it comes from): never remembered by signature."""

_READ_ONLY_STORAGES = frozenset(storage for storage, _, _ in READ_ONLY)


def _value_matters(state: ModuleState, rule: TypeRule, found: dict[int, int]) -> bool:
    """Whether a rule of :data:`_BY_VALUE` reads a value this call: a pointer it must store
    through into a storage class that may be read-only (by the variable's decoration, or
    the target's family); other calls are remembered by signature."""
    for position, _, constraint in rule.operands:
        if constraint.writable and (type_id := found.get(position)) is not None:
            declaration = state._definitions.get(type_id)
            form = TYPE_FORMS.get(declaration.opcode) if declaration is not None else None
            if form is None or form.storage < 0:
                continue  # (not a pointer: the rule says so, by value or not)
            operands = declaration.operands  # type: ignore[union-attr]
            if form.storage >= len(operands) or operands[form.storage] in _READ_ONLY_STORAGES:
                return True
    return False


_BY_LITERALS = frozenset(
    opcode
    for opcode, rule in TYPE_RULES.items()
    if rule.indexes is not None or rule.shuffle is not None
)
"""Rules that also read operands by value (a composite's indexes, a shuffle's components):
remembered with those values in the signature."""

_TYPED: dict[int, tuple[tuple[int, str], ...]] = {}  # opcode → _typed_operands of its rule


def _typed_operands(rule: TypeRule) -> tuple[tuple[int, str], ...]:
    """The (position, name) of each operand whose type the rule reads: the constrained
    ones, and the composites and vectors of its relations."""
    found = [(position, name) for position, name, _ in rule.operands]
    named = {position for position, _ in found}
    related: tuple[int, ...] = (rule.indexes[0],) if rule.indexes else ()
    related += rule.shuffle[:2] if rule.shuffle else ()
    found += [(p, f"operand {p + 1}") for p in related if p not in named]
    return tuple(found)


def _not_a_value(state: ModuleState, opcode: int, rule: TypeRule, name: str, value: int) -> None:
    """Raise when ``value`` is defined but is no value (a type, a label, a function)."""
    declaration = state._definitions.get(value)
    if declaration is None:
        return  # not defined yet: a forward reference or a reserved id
    info = tables.INSTRUCTIONS.get(declaration.opcode)
    what = "a type" if info is not None and info.cls == "Type-Declaration" else "no value"
    raise _error(
        f"{name_of(opcode)}: operand '{name}' is %{value}, {what} "
        f"(%{value} = {name_of(declaration.opcode)}); {rule.name} needs a value here"
    )


def _check_rule(
    state: ModuleState,
    opcode: int,
    rule: TypeRule,
    result_type: Any,
    operands: Sequence[Any],
    found: dict[int, int],
) -> None:
    """Every constraint and relation of ``rule`` (operand types in ``found``)."""
    instruction = name_of(opcode)

    def type_at(reference: int) -> int | None:
        if reference == RESULT:
            return None if result_type is None else int(result_type)
        return found.get(reference)

    def called(reference: int) -> str:
        if reference == RESULT:
            return "the result type"
        for position, name, _ in rule.operands:
            if position == reference:
                return f"operand '{name}'"
        return f"operand {reference}"

    if rule.result is not None and result_type is not None:
        need = _unmet(state, rule.result, int(result_type), type_at, called)
        if need is not None:
            raise _error(
                f"{instruction}: the result type is {describe(state, int(result_type))}; "
                f"{rule.name} needs {need}"
            )
    for position, name, constraint in rule.operands:
        value_type = found.get(position)
        if value_type is None:
            continue
        need = _unmet(state, constraint, value_type, type_at, called, int(operands[position]))
        if need is not None:
            raise _error(
                f"{instruction}: operand '{name}' is %{int(operands[position])} of type "
                f"{describe(state, value_type)}; {rule.name} needs {need}"
            )
    if rule.indexes is not None:
        _check_indexes(state, instruction, rule, result_type, operands, found)
    if rule.shuffle is not None:
        _check_shuffle(state, instruction, rule, result_type, operands, found)


def _unmet(
    state: ModuleState,
    constraint: TypeConstraint,
    type_id: int,
    type_at: Any,
    called: Any,
    value: int = 0,
) -> str | None:
    """What ``type_id`` (the type of ``value``; 0: a result type) lacks to meet
    ``constraint`` (None: it meets it, or the rule does not model its types)."""
    shape = shape_of(state, type_id)
    if shape is None:
        return None  # not a type the rules model: no opinion
    is_ = constraint.is_
    scalar = (
        scalar_of(state, shape)
        if is_ is not None or constraint.shape is not None or constraint.signedness is not None
        else None
    )
    if is_ is not None:
        if is_ in SCALARS or is_ == "numeric":
            wanted = ("int", "float") if is_ == "numeric" else (is_,)
            if scalar is None or scalar.category not in wanted:
                return _kind_words(constraint)
        elif shape.category != is_:
            return _kind_words(constraint)
    if constraint.shape is not None:
        vector = shape.category == "vector"
        ok = {
            "scalar": shape.category in SCALARS,
            "vector": vector,
            "scalar_or_vector": scalar is not None,
        }[constraint.shape]
        if not ok:
            return _kind_words(constraint)
    if constraint.signedness is not None and (
        scalar is None or scalar.category != "int" or scalar.signedness != constraint.signedness
    ):
        return _kind_words(constraint)
    for reference, test in _relations(constraint):
        other = type_at(reference)
        if other is None:
            continue  # not known
        need = test(state, type_id, other)
        if need is not None:
            return f"{need} {called(reference)} {describe(state, other)}"
    if constraint.count_as is not None:
        other = type_at(constraint.count_as)
        other_shape = shape_of(state, other) if other is not None else None
        if other is not None and other_shape is not None:
            count = _count(shape)
            if count != _count(other_shape) and not (constraint.or_scalar and count == 1):
                return (
                    f"{_kind_words(constraint)} with as many components as "
                    f"{called(constraint.count_as)} {describe(state, other)}"
                )
    if constraint.writable:
        why = _read_only(state, shape, value)
        if why is not None:
            return f"a pointer it may store through, not one into {why}"
    return None


_Test = Callable[[ModuleState, int, int], "str | None"]
_RELATIONS: dict[int, tuple[TypeConstraint, tuple[tuple[int, _Test], ...]]] = {}
"""By id() of a constraint (hashing the record costs more than the rest of a check)."""


def _relations(constraint: TypeConstraint) -> tuple[tuple[int, _Test], ...]:
    """The (reference, test) pairs of ``constraint``'s relations to another type."""
    entry = _RELATIONS.get(id(constraint))
    if entry is not None and entry[0] is constraint:
        return entry[1]
    pairs = (
        (constraint.same, _same),
        (constraint.like, _like),
        (constraint.width_as, _width_as),
        (constraint.element_is, _element_is),
        (constraint.pointer_to, _pointer_to),
        (constraint.pointee_of, _pointee_of),
    )
    found = tuple((r, t) for r, t in pairs if r is not None)
    if len(_RELATIONS) < 4096:  # the generated rules' constraints, which live as long
        _RELATIONS[id(constraint)] = (constraint, found)
    return found


def _count(shape: TypeShape) -> int:
    return shape.number if shape.category == "vector" else 1


def _kind_words(constraint: TypeConstraint) -> str:
    """``an int scalar or vector``, ``a bool scalar``, ``a pointer``..."""
    kind = constraint.is_ or "value"
    if constraint.signedness is not None:
        kind = ("unsigned " if constraint.signedness == 0 else "signed ") + kind
    shape = (constraint.shape or "").replace("_", " ")
    text = f"{kind} {shape}".strip()
    return ("an " if text[0] in "aeiou" else "a ") + text


def _same(state: ModuleState, type_id: int, other: int) -> str | None:
    return None if type_id == other else "the same type as"


def _like(state: ModuleState, type_id: int, other: int) -> str | None:
    mine, theirs = shape_of(state, type_id), shape_of(state, other)
    if mine is None or theirs is None:
        return None  # a type the rules do not model
    a, b = scalar_of(state, mine), scalar_of(state, theirs)
    if (
        a is not None
        and b is not None
        and a.category == b.category
        and a.width == b.width
        and _count(mine) == _count(theirs)
    ):
        return None
    return "the component type, width and count (signedness aside) of"


def _width_as(state: ModuleState, type_id: int, other: int) -> str | None:
    mine, theirs = shape_of(state, type_id), shape_of(state, other)
    if mine is None or theirs is None:
        return None  # a type the rules do not model
    a, b = scalar_of(state, mine), scalar_of(state, theirs)
    if a is None or b is None or a.width == b.width:
        return None
    return "the component width of"


def _element_is(state: ModuleState, type_id: int, other: int) -> str | None:
    mine = shape_of(state, type_id)
    if mine is None:
        return None
    if mine.category == "vector" and mine.component == other:
        return None
    return "a vector whose components are"


def _pointer_to(state: ModuleState, type_id: int, other: int) -> str | None:
    mine = shape_of(state, type_id)
    if mine is None:
        return None
    if mine.category == "pointer" and mine.component == other:
        return None
    return "a pointer to"


def _pointee_of(state: ModuleState, type_id: int, other: int) -> str | None:
    theirs = shape_of(state, other)
    if theirs is None:
        return None
    if theirs.category != "pointer" or theirs.component == type_id:
        return None
    return "the pointee type of"


def _read_only(state: ModuleState, shape: TypeShape, value: int) -> str | None:
    """The read-only storage a pointer ``value`` of ``shape`` points into, in words (None:
    none).  A rule that names a decoration looks at the variable the pointer is taken from
    (through access chains): its pointee, through arrays, must be a struct so decorated."""
    if shape.category != "pointer":
        return None
    family = state.target.info.family if state.target is not None else None
    for storage, decoration, only_in in READ_ONLY:
        if storage != shape.storage or (only_in is not None and only_in != family):
            continue
        if decoration is None:
            return storage_name(storage)
        root = _root_variable(state, value)
        if root is None or root.result_type is None:
            continue
        struct = shape_of(state, int(root.result_type))
        struct_id = struct.component if struct is not None else 0
        pointee = shape_of(state, struct_id)
        while pointee is not None and pointee.category == "array":
            struct_id = pointee.component
            pointee = shape_of(state, struct_id)
        if pointee is not None and pointee.category == "struct" and _decorated(
            state, struct_id, decoration
        ):
            return f"{storage_name(storage)} (a block of uniforms: read-only)"
    return None


def _root_variable(state: ModuleState, pointer: int) -> Instruction | None:
    """The OpVariable a pointer value is taken from through access chains (None: another
    origin, or not known)."""
    for _ in range(64):  # (a chain of chains is short; a cycle of ids is no valid module)
        found = definition(state, pointer)
        if found is None:
            return None
        if found.opcode == OP_VARIABLE:
            return found
        if found.opcode not in _CHAINS or not found.operands:
            return None
        pointer = int(found.operands[0])
    return None


def _decorated(state: ModuleState, target: int, decoration: int) -> bool:
    return any(
        i.opcode == OP_DECORATE and int(i.operands[0]) == target and int(i.operands[1]) == decoration
        for i in state.sections["annotations"]
    )


def _check_indexes(
    state: ModuleState,
    instruction: str,
    rule: TypeRule,
    result_type: Any,
    operands: Sequence[Any],
    found: dict[int, int],
) -> None:
    """The literal indexes reach a member of the composite, whose type is the result's."""
    assert rule.indexes is not None
    composite, indexes = rule.indexes
    current = found.get(composite)
    if current is None or indexes >= len(operands):
        return
    path: list[str] = []
    for index in operands[indexes] or ():
        shape = shape_of(state, current)
        if shape is None:
            return
        if shape.category in ("vector", "matrix"):
            size: int | None = shape.number
            inner = shape.component
        elif shape.category == "struct":
            size = len(shape.members)
            inner = shape.members[index] if 0 <= index < size else 0
        elif shape.category == "array":
            size, inner = None, shape.component  # (its length is a constant: not checked)
        else:
            raise _error(
                f"{instruction}: index {index} after {''.join(path) or 'the composite'} goes "
                f"into {describe(state, current)}, which is no composite"
            )
        if size is not None and not 0 <= index < size:
            raise _error(
                f"{instruction}: index {index} into {describe(state, current)}: "
                f"{rule.name} needs an index from 0 to {size - 1}"
            )
        path.append(f"[{index}]")
        current = inner
    if result_type is not None and int(result_type) != current and shape_of(state, current):
        raise _error(
            f"{instruction}: the result type is {describe(state, int(result_type))}; the "
            f"indexes {''.join(path)} reach {describe(state, current)}"
        )


def _check_shuffle(
    state: ModuleState,
    instruction: str,
    rule: TypeRule,
    result_type: Any,
    operands: Sequence[Any],
    found: dict[int, int],
) -> None:
    """Each literal component selects from the two vectors (or is 0xFFFFFFFF: undefined);
    the result has as many components, of their component type."""
    assert rule.shuffle is not None
    first, second, components = rule.shuffle
    shapes = [shape_of(state, found[p]) if p in found else None for p in (first, second)]
    if shapes[0] is None or shapes[1] is None or components >= len(operands):
        return
    total = shapes[0].number + shapes[1].number
    chosen = tuple(operands[components] or ())
    for component in chosen:
        if component != 0xFFFFFFFF and not 0 <= component < total:
            raise _error(
                f"{instruction}: component {component} is past the {total} components of "
                f"the two vectors ({rule.name} needs 0 to {total - 1}, or 0xFFFFFFFF)"
            )
    result = shape_of(state, int(result_type)) if result_type is not None else None
    if result is not None and result.category == "vector" and (
        result.number != len(chosen) or result.component != shapes[0].component
    ):
        raise _error(
            f"{instruction}: the result type is {describe(state, int(result_type))}; "
            f"{len(chosen)} components of {describe(state, shapes[0].component)} make "
            f"a vector of {len(chosen)} of them"
        )
