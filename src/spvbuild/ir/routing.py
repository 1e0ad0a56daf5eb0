"""Routing: where each instruction of a builder call goes.

:func:`record` puts one record into its layout section, its function or its block,
checking the block structure first (no instruction outside a block, one terminator,
a merge instruction followed by its branch), so a refused instruction changes nothing.
:data:`ROUTES` says, per opcode, how the words paths route a record without those
checks' other cases (see :func:`spvbuild.ir.words_paths.put`); :func:`enter` opens a
block to the fast path, :func:`note` keeps what an entry point's interface may need.
"""

from __future__ import annotations

from typing import Any

from spvbuild.errors import BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import StorageClass
from spvbuild.generated.core.opcodes import (
    OP_BRANCH,
    OP_BRANCH_CONDITIONAL,
    OP_DECORATE,
    OP_DECORATE_ID,
    OP_DECORATE_STRING,
    OP_EXT_INST_IMPORT,
    OP_FUNCTION,
    OP_FUNCTION_CALL,
    OP_FUNCTION_END,
    OP_FUNCTION_PARAMETER,
    OP_LABEL,
    OP_LINE,
    OP_LOOP_MERGE,
    OP_NO_LINE,
    OP_SELECTION_MERGE,
    OP_SWITCH,
    OP_TYPE_ARRAY,
    OP_TYPE_RUNTIME_ARRAY,
    OP_TYPE_STRUCT,
    OP_VARIABLE,
)
from spvbuild.generated.extinst import set_module
from spvbuild.ir.body import Block, Function, ids_in, plain_id
from spvbuild.ir.requirements import one_word
from spvbuild.ir.rules import TRIGGERS as RULE_TRIGGERS
from spvbuild.ir.state import ModuleState, name_of, note_definition
from spvbuild.ir.targets import CheckedFirsts
from spvbuild.spirv.emission import Run
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction, RawWords
from spvbuild.spirv.params import EnumerantParameters

EXT_INST_OPCODES = tables.EXT_INST_OPCODES  # OpExtInst, OpExtInstWithForwardRefsKHR
OP_LINE_OPCODES = {OP_LINE, OP_NO_LINE}
# What must come right after a merge instruction (OpLine/OpNoLine may stand between).
MERGE_FOLLOWERS = {
    OP_SELECTION_MERGE: {OP_BRANCH_CONDITIONAL, OP_SWITCH},
    OP_LOOP_MERGE: {OP_BRANCH, OP_BRANCH_CONDITIONAL},
}
FUNCTION_STORAGE = int(StorageClass.Function)
# The storage classes of the globals an entry point's interface lists before SPIR-V 1.4.
_INTERFACE_CLASSES = frozenset({int(StorageClass.Input), int(StorageClass.Output)})
AGGREGATES = {OP_TYPE_STRUCT, OP_TYPE_ARRAY, OP_TYPE_RUNTIME_ARRAY}
"""Merged only with ``merge_aggregates=True`` (their layout decorations usually differ)."""
DECORATIONS = {OP_DECORATE, OP_DECORATE_ID, OP_DECORATE_STRING}


# The section of each instruction that record() always routes to its module section
# (not OpVariable, whose storage class decides, not OpLine/OpNoLine, not OpExtInst).
_GLOBAL_SECTIONS = {
    opcode: info.section
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.section != "functions"
    and opcode not in EXT_INST_OPCODES
    and opcode not in OP_LINE_OPCODES
    and opcode != OP_VARIABLE
}
_TERMINATORS = tables.BLOCK_TERMINATORS


def may_trigger(inst: Instruction) -> bool:
    """Whether a rule of the grammar may find work in ``inst``: it has an opcode a rule
    looks for, or decorates with a decoration a rule restricts (see rules.TRIGGERS)."""
    if RULE_TRIGGERS is None:
        return True
    opcodes, decorations = RULE_TRIGGERS
    opcode = inst.opcode
    if opcode in opcodes:
        return True
    if opcode in DECORATIONS and len(inst.operands) > 1:
        decoration = inst.operands[1]
        if isinstance(decoration, EnumerantParameters):
            decoration = decoration.enumerant
        return not isinstance(decoration, int) or int(decoration) in decorations
    return False


# The opcodes of the instructions may_trigger looks at (the others never trigger).
RULE_WATCHED = DECORATIONS | (RULE_TRIGGERS[0] if RULE_TRIGGERS is not None else set())
# Block instructions that record() only appends to the open block (a terminator also ends
# it): not the function's structure, locals, debug lines, extended instructions (routed by
# their set), merges (only their branch may follow) or what a rule watches.
_PLAIN_BLOCK_OPCODES = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.section == "functions"
    and opcode not in {OP_FUNCTION, OP_FUNCTION_PARAMETER, OP_LABEL, OP_FUNCTION_END, OP_VARIABLE}
    and opcode not in OP_LINE_OPCODES
    and opcode not in EXT_INST_OPCODES
    and opcode not in MERGE_FOLLOWERS
    and opcode not in RULE_WATCHED
)

# How words_paths.put routes a record of each opcode: into a module section (a rule may watch it),
# to the open block (a terminator ends it), a global variable, a label, or through
# record (everything else, and whatever these cannot take); and whether it is merged
# with an equal one (always, or aggregates when asked).
(
    GLOBAL,
    GLOBAL_WATCHED,
    DECORATION,
    BLOCK,
    BLOCK_END,
    EXT_INST,
    GLOBAL_VARIABLE,
    LABEL,
    FUNCTION,
    FUNCTION_END,
    RECORD,
) = range(11)
# The decorations a rule restricts (a decoration whose word is one gives the rules work).
TRIGGER_DECORATIONS = RULE_TRIGGERS[1] if RULE_TRIGGERS is not None else frozenset[int]()
MERGED, MERGED_AGGREGATE = 1, 2
ROUTES: dict[int, tuple[int, int, str]] = {}
_STRUCTURE = {
    OP_VARIABLE: GLOBAL_VARIABLE,  # (a Function one goes through record)
    OP_LABEL: LABEL,
    OP_FUNCTION: FUNCTION,
    OP_FUNCTION_END: FUNCTION_END,
}
for _opcode, _info in tables.INSTRUCTIONS.items():
    _merged = (
        MERGED if _opcode in tables.DEDUPLICATED else MERGED_AGGREGATE if _opcode in AGGREGATES else 0
    )
    _section = _GLOBAL_SECTIONS.get(_opcode)
    if _section is not None:
        _how = GLOBAL_WATCHED if _opcode in RULE_WATCHED else GLOBAL
        if RULE_TRIGGERS is not None and _opcode in DECORATIONS - RULE_TRIGGERS[0]:
            _how = DECORATION  # (target, decoration, ...): the decoration is word 2
    elif _opcode in _PLAIN_BLOCK_OPCODES:
        _how = BLOCK_END if _opcode in _TERMINATORS else BLOCK
    elif _opcode in _STRUCTURE and _opcode not in RULE_WATCHED:
        _how = _STRUCTURE[_opcode]
    elif _opcode in EXT_INST_OPCODES and _opcode not in RULE_WATCHED:
        _how = EXT_INST  # an open block's when its set says it belongs in functions
    else:
        _how = RECORD
    ROUTES[_opcode] = (_merged, _how, _section or "")
ROUTED_BY_RECORD = (0, RECORD, "")


def ext_section(instruction: Instruction) -> str:
    """The layout section of an extended instruction whose set is known by name."""
    return set_section(instruction.ext_set or "", instruction.operands[1])


_set_sections: dict[tuple[str, Any], str] = {}


def set_section(import_name: str, number: Any) -> str:
    """The layout section of instruction ``number`` of the set ``import_name`` names:
    the set's, or "functions" for its instructions that belong in functions and for an
    unknown set (looked up once per known set and number)."""
    key = (import_name, number)
    found = _set_sections.get(key)
    if found is None:
        module = set_module(import_name)
        if module is None:
            return "functions"
        found = "functions"
        if module.SECTION != "functions" and number not in module.FUNCTION_INSTRUCTIONS:
            found = str(module.SECTION)
        if len(_set_sections) < 4096:  # bounded: numbers come from users
            _set_sections[key] = found
    return found


_NON_SEMANTIC = "NonSemantic."
"""The prefix of the non-semantic sets' import names (SPV_KHR_non_semantic_info)."""

_DEBUG_SETS = frozenset({"DebugInfo", "OpenCL.DebugInfo.100"})
"""The debug-info sets that are not non-semantic, whose instructions (``DebugScope``,
``DebugNoScope``, ...) producers also put between a terminator and the next label."""


def _set_name(state: ModuleState, instruction: Instruction) -> str:
    """The import name of an OpExtInst's set ("" when its import is unknown)."""
    if instruction.ext_set is not None:
        return instruction.ext_set
    imported = state._definitions.get(plain_id(instruction.operands[0])) if instruction.operands else None
    if imported is None or imported.opcode != OP_EXT_INST_IMPORT or not imported.operands:
        return ""
    return str(imported.operands[0])


def _after_functions(state: ModuleState, instruction: Instruction) -> bool:
    """True for a non-semantic instruction that stays after an OpFunctionEnd: of a set the
    tables lack, or one its set's grammar places neither among the globals (those go to
    their section) nor in function bodies only (``DebugScope``, ``DebugDeclare``, ...:
    spirv-val refuses them there, and so does the builder, at the call)."""
    name = _set_name(state, instruction)
    if not name.startswith(_NON_SEMANTIC):
        return False
    module = set_module(name)
    if module is None:
        return True  # (a set the tables lack: kept where it stands)
    number = instruction.operands[1] if len(instruction.operands) > 1 else None
    # One the set places among the globals goes there, as a call of the builder does.
    return number not in module.FUNCTION_INSTRUCTIONS and set_section(name, number) == "functions"


def _outside_blocks(state: ModuleState, instruction: Instruction) -> bool:
    """True for what may stand in a function outside its blocks (before the first label,
    after a terminator): debug line information, and the instructions of the debug-info
    and non-semantic sets."""
    if instruction.opcode in OP_LINE_OPCODES:
        return True
    if instruction.opcode not in EXT_INST_OPCODES:
        return False
    name = _set_name(state, instruction)
    return name.startswith(_NON_SEMANTIC) or name in _DEBUG_SETS


def _known_ext_inst(imported: Instruction, instruction: Instruction) -> bool:
    """True when ``imported`` is an OpExtInstImport of a set the tables know that has the
    instruction number ``instruction`` (an OpExtInst) gives."""
    if imported.opcode != OP_EXT_INST_IMPORT or len(instruction.operands) < 2:
        return False
    module = set_module(str(imported.operands[0]))
    number = instruction.operands[1]
    return module is not None and isinstance(number, int) and number in module.INSTRUCTIONS


def record(state: ModuleState, instruction: Instruction) -> None:
    """Route one instruction into its section, function or block.

    Every check comes before any change, so an instruction that is refused (outside
    a block, after a terminator, between a merge and its branch, ...) leaves the
    module as it was.
    """
    opcode = instruction.opcode
    if opcode in RULE_WATCHED and may_trigger(instruction):
        state._rules_work = True  # (also when the instruction is refused: a rule runs)
    if opcode in EXT_INST_OPCODES and instruction.ext_set is None and instruction.operands:
        # A raw ext_inst(): find the set from its import so it is routed like the others.
        # Only a set and instruction the tables know: any other stays raw, written back as
        # given (its operands by the core layout), as the reader keeps it.
        imported = state._definitions.get(plain_id(instruction.operands[0]))
        if imported is not None and _known_ext_inst(imported, instruction):
            # Same shape as the typed calls make: (set, number, *operands).
            flat = instruction.operands[:2] + tuple(
                v
                for part in instruction.operands[2:]
                for v in (
                    part
                    if isinstance(part, tuple) and not isinstance(part, RawWords)
                    else (part,)
                )
            )
            instruction = instruction._replace(ext_set=str(imported.operands[0]), operands=flat)
    info = tables.INSTRUCTIONS.get(opcode)
    section = info.section if info is not None else "functions"
    function = state._function
    open_function = function is not None and not function.ended
    if opcode in EXT_INST_OPCODES and not open_function and state.functions:
        if _after_functions(state, instruction):
            # After an OpFunctionEnd (between functions or after the last one), where a
            # non-semantic instruction may stand: kept there, written back there.
            define(state, instruction)
            state.functions[-1].after.append(instruction)
            return
    if opcode in EXT_INST_OPCODES and instruction.ext_set is not None:
        section = ext_section(instruction)
    elif opcode in EXT_INST_OPCODES and not open_function and _set_name(
        state, instruction
    ).startswith(_NON_SEMANTIC):
        section = "types_globals"  # a set the tables lack, among the global declarations
    elif opcode in OP_LINE_OPCODES and not open_function:
        section = "types_globals"  # debug line information between global declarations
    elif opcode == OP_VARIABLE and instruction.operands[:1] == (FUNCTION_STORAGE,):
        if function is None or function.ended:
            raise BuildError("OpVariable in the Function storage class outside a function")
        define(state, instruction)
        function.variables.append(instruction)
        note(state, instruction)
        return
    if section != "functions":
        define(state, instruction)
        state.sections[section].append(instruction)
        if opcode == OP_VARIABLE and instruction.result_id is not None and instruction.operands:
            add_global(state, int(instruction.result_id), one_word(instruction.operands[0]))
        return
    if opcode == OP_FUNCTION:
        if function is not None and not function.ended:
            raise BuildError(
                f"OpFunction while function {function.id!r} is still open: "
                "call function_end() first"
            )
        define(state, instruction)
        state._function = Function(instruction, noted=state._noting)
        enter(state, None)
        state.functions.append(state._function)
        return
    if function is None or function.ended:
        raise BuildError(f"{name_of(opcode)} outside a function")
    block = state._block
    if block is None and not function.blocks and _outside_blocks(state, instruction):
        define(state, instruction)
        function.parameters.append(instruction)  # before the first block: kept in place
        note(state, instruction)
    elif opcode == OP_FUNCTION_PARAMETER:
        if function.blocks:
            raise BuildError("OpFunctionParameter after the function's first block")
        define(state, instruction)
        function.parameters.append(instruction)
    elif opcode == OP_LABEL:
        if block is not None and not block.terminated:
            raise BuildError(
                f"block {block.label!r} has no terminator: OpLabel "
                f"{instruction.result_id!r} cannot start a new block"
            )
        assert instruction.result_id is not None
        define(state, instruction)
        new_block = Block(Id(instruction.result_id))
        function.blocks.append(new_block)
        state._blocks_by_label[int(instruction.result_id)] = new_block
        enter(state, new_block)
    elif opcode == OP_FUNCTION_END:
        if block is not None and not block.terminated:
            raise BuildError(f"OpFunctionEnd: block {block.label!r} has no terminator")
        function.ended = True
        state._function = None
        enter(state, None)
    else:
        if block is None:
            raise BuildError(f"{name_of(opcode)} outside a block: call label() first")
        if block.terminated and _outside_blocks(state, instruction):
            # Debug line information (or a debug-info or non-semantic instruction) may
            # stand between a terminator and the next OpLabel: kept after the terminator,
            # where it is written back.
            define(state, instruction)
            block.items.append(instruction)
            note(state, instruction)
            return
        if block.terminated:
            raise BuildError(
                f"{name_of(opcode)} after the terminator of block {block.label!r} "
                "(a block has exactly one terminator, last)"
            )
        merge = block.merge
        if merge is not None and opcode not in OP_LINE_OPCODES:
            allowed = MERGE_FOLLOWERS[merge]
            if opcode not in allowed:
                names = " or ".join(sorted(tables.INSTRUCTIONS[o].name for o in allowed))
                raise BuildError(
                    f"{name_of(opcode)} between {tables.INSTRUCTIONS[merge].name} and its branch: "
                    f"the merge instruction must be followed by {names} (compute "
                    "values before the merge instruction)"
                )
        define(state, instruction)
        block.items.append(instruction)
        note(state, instruction)
        if opcode in MERGE_FOLLOWERS:
            block.merge = opcode
        elif opcode not in OP_LINE_OPCODES:
            block.merge = None
        if opcode in tables.BLOCK_TERMINATORS:
            block.terminated = True
        enter(state, block)


def add_global(state: ModuleState, variable: int, storage_class: int) -> None:
    """Remember a global OpVariable if an entry point's interface lists it."""
    if state.version >= (1, 4) or storage_class in _INTERFACE_CLASSES:
        state._listed.add(variable)


def note(state: ModuleState, instruction: Instruction) -> None:
    """Note in the open function what ``instruction`` uses that an entry point's
    interface may need: global variables and reserved ids (a global defined later),
    and every id of a call (the callee among them)."""
    function = state._function
    if function is None or not function.noted:
        return
    if instruction.opcode == OP_FUNCTION_CALL:
        function.callees.update(ids_in(instruction.operands))
    named, pending = state._listed, state._pending_ids
    if named or pending:
        for value in ids_in(instruction.operands):
            if value in named or value in pending:
                function.uses.add(value)


def enter(state: ModuleState, block: Block | None) -> None:
    """Make ``block`` (or none) the one instructions go to; the fast path may append
    to it while it is open: not terminated, no merge instruction waiting for its
    branch.  A new run of words starts after any record."""
    state._block = block
    state._run = None
    state._fast_block = (
        block
        if block is not None
        and not block.terminated
        and block.merge is None
        and not state._general_only
        else None
    )


def new_run(state: ModuleState, block: Block) -> Run:
    """Start a run of words at the end of ``block`` (of the open function)."""
    run = state._run = Run()
    if state.target is not None:
        run.firsts = CheckedFirsts(state.target, state.sections, state.version)
    block.items.append(run)
    if state._function is not None:
        state._function.runs.append(run)
    return run


_TYPES_AND_CONSTANTS = frozenset(
    opcode
    for opcode, info in tables.INSTRUCTIONS.items()
    if info.cls in ("Type-Declaration", "Constant-Creation")
)
"""The definitions the type checks read (a type's facts, an array's length)."""


def define(state: ModuleState, instruction: Instruction) -> None:
    """Remember the instruction that defines its result id (and the type of the value it
    defines, for the type checks: a function's id is no value of its return type)."""
    if instruction.result_id is not None:
        rid = int(instruction.result_id)
        state._definitions[rid] = instruction
        types = state._value_types
        if (
            types is not None
            and instruction.result_type is not None
            and instruction.opcode != OP_FUNCTION
        ):
            types[rid] = TypeId(instruction.result_type)
        if types is not None and instruction.opcode in _TYPES_AND_CONSTANTS:
            try:
                note_definition(state, (instruction.opcode, instruction.result_type, rid, instruction.operands))
            except TypeError:  # an operand that cannot be hashed: the definitions unknown
                state._defined_so_far = None
