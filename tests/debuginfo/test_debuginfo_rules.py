"""Debug-info layer: each rule of the DebugInfo spec, broken once, names itself.

Every DebugInfoError cites the rule (review id, spec section, seed line).  Rules are
checked before an instruction is emitted (layer calls) and over a whole module
(:func:`check_module`, which also sees instructions made by the generated methods or raw
OpExtInst).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from spvbuild import BuildError
from spvbuild.debuginfo import (
    Base,
    DebugInfo,
    DebugInfoError,
    DwarfOp,
    Encoding,
    Flags,
    FlavorName,
    Member,
    Tag,
    check_module,
    strip_debug_info,
)
from spvbuild.debuginfo.rules import check_instructions
from spvbuild.enums import AddressingModel, Capability, MemoryModel, StorageClass
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id, TypeId
from spvbuild.spirv.instruction import Instruction

FLAVORS: list[FlavorName] = [
    "DebugInfo",
    "OpenCL.DebugInfo.100",
    "NonSemantic.Shader.DebugInfo.100",
]


@dataclass
class Setup:
    m: Module
    di: DebugInfo
    uint: TypeId


def setup(flavor: FlavorName = "DebugInfo", *, open_function: bool = True) -> Setup:
    m = Module(version=(1, 2))
    m.capability(Capability.Kernel).capability(Capability.Addresses)
    m.capability(Capability.Linkage)
    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
    uint = m.type_int(32, 0)
    di = DebugInfo(m, flavor)
    di.compile_unit("rules.c", "int main() {}\n")
    if open_function:
        m.define_function(m.type_void(), name="f")
    return Setup(m, di, uint)


def cites(rule: str, line: int) -> str:
    """A regex matching the citation of ``rule`` at seed line ``line``."""
    return rf"rule {re.escape(rule)} \(DebugInfo spec [^)]*seed [^)]*L{line}\b"


# -- R3: Result Type is OpTypeVoid --------------------------------------------------------------
def test_result_type_must_be_op_type_void() -> None:
    s = setup(open_function=False)
    with pytest.raises(
        DebugInfoError, match=r"DebugInfoNone %\d+ has Result Type %\d+, OpTypeInt"
    ) as e:
        s.m.debug_info.debug_info_none(s.uint)  # a generated method with the wrong result type
    assert re.search(cites("R3", 64), str(e.value))
    assert isinstance(e.value, BuildError)
    bare = Module()  # no layer: nothing checks the call, check_module does
    bare.debug_info.debug_info_none(bare.type_int(32, 0))
    with pytest.raises(DebugInfoError, match=cites("R3", 64)):
        check_module(bare)


# -- R2: Set is the right import ----------------------------------------------------------------
def test_set_must_be_the_import_of_the_instructions_set() -> None:
    s = setup()
    other = DebugInfo(s.m, "OpenCL.DebugInfo.100")
    other.compile_unit("rules.c")
    foreign = other.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(
        DebugInfoError,
        match=r"is a OpenCL.DebugInfo.100 DebugTypeBasic, but this instruction's Set is DebugInfo",
    ) as e:
        s.di.pointer_type(foreign, StorageClass.Function)
    assert re.search(cites("R2", 66), str(e.value))


def test_set_operand_must_be_an_op_ext_inst_import() -> None:
    void = Instruction(19, None, 1, ())
    glsl = Instruction(11, None, 2, ("GLSL.std.450",))
    made_as_debug = Instruction(12, 1, 3, (2, 0), "DebugInfo")  # DebugInfoNone, wrong Set
    with pytest.raises(
        DebugInfoError,
        match=r'made as a DebugInfo instruction but its Set operand %2 is OpExtInstImport "GLSL.std.450"',
    ) as e:
        check_instructions([void, glsl, made_as_debug], [False, False, False])
    assert re.search(cites("R2", 66), str(e.value))


# -- R7/R8: placement ---------------------------------------------------------------------------
@pytest.mark.parametrize("flavor", FLAVORS)
def test_debug_scope_outside_a_function_body(flavor: FlavorName) -> None:
    s = setup(flavor, open_function=False)
    with pytest.raises(DebugInfoError, match=r"DebugScope outside a function body") as e:
        s.di.scope(s.di.unit)
    assert re.search(cites("R7", 70), str(e.value))


def test_declare_and_value_outside_a_function_body() -> None:
    s = setup(open_function=False)
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    var = s.di.local_variable("x", int_t, s.di.unit)
    storage = s.m.variable(
        s.m.type_pointer(StorageClass.CrossWorkgroup, s.uint), StorageClass.CrossWorkgroup
    )
    with pytest.raises(DebugInfoError, match=cites("R7", 70)):
        s.di.declare(var, storage)
    with pytest.raises(DebugInfoError, match=r"DebugValue outside a function body"):
        s.di.value(var, s.m.constant(s.uint, 1))
    with pytest.raises(DebugInfoError, match=r"DebugNoScope outside a function body"):
        s.di.no_scope()


def test_a_global_debug_instruction_inside_a_function_body() -> None:
    s = setup()
    name = s.m.string("int")
    size = s.m.constant(s.uint, 32)
    # The Module routes even a raw ext_inst() to the globals; a module read or edited by
    # other means can still hold DebugTypeBasic (2) in a function body: put one there.
    misplaced = Instruction(
        12,
        s.m.type_void(),
        s.m.new_id(),
        (s.m.debug_info.set_id, 2, name, size, Id(5)),
        "DebugInfo",
    )
    s.m.return_().function_end()
    s.m.functions[-1].blocks[-1].items.insert(0, misplaced)
    with pytest.raises(
        DebugInfoError, match=r"DebugInfo DebugTypeBasic %\d+ inside a function body"
    ) as e:
        check_module(s.m)
    assert re.search(cites("R8", 70), str(e.value))


# -- parents and scopes -------------------------------------------------------------------------
@pytest.mark.parametrize("flavor", FLAVORS)
def test_composite_parent_is_one_of_the_four_scopes(flavor: FlavorName) -> None:
    s = setup(flavor)
    block = s.di.lexical_block(s.di.unit, line=2)
    disc = s.di.discriminator(block, 1)
    with pytest.raises(
        DebugInfoError,
        match=r"DebugTypeComposite operand 'Parent' is DebugLexicalBlockDiscriminator %\d+; it must be "
        r"DebugCompilationUnit or DebugFunction or DebugLexicalBlock or DebugTypeComposite",
    ) as e:
        s.di.composite_type("S", Tag.Structure, 0, parent=disc)
    assert re.search(cites("R12", 616), str(e.value))


def test_global_variable_parent() -> None:
    s = setup()
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    disc = s.di.discriminator(s.di.lexical_block(s.di.unit), 2)
    with pytest.raises(DebugInfoError, match=cites("R13", 950)):
        s.di.global_variable("g", int_t, None, parent=disc)


@pytest.mark.parametrize(
    ("call", "rule", "line"),
    [
        ("lexical_block", "R17", 1123),
        ("discriminator", "R18", 1158),
        ("local_variable", "R19", 1277),
        ("typedef", "R19", 488),
        ("inlined_at", "R21", 1236),
        ("scope", "R20", 1187),
    ],
)
def test_scope_operands_must_be_scopes(call: str, rule: str, line: int) -> None:
    s = setup()
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    not_a_scope = s.di.expression()
    calls: dict[str, Callable[[], object]] = {
        "lexical_block": lambda: s.di.lexical_block(not_a_scope),  # type: ignore[arg-type]
        "discriminator": lambda: s.di.discriminator(not_a_scope, 1),  # type: ignore[arg-type]
        "local_variable": lambda: s.di.local_variable("x", int_t, not_a_scope),  # type: ignore[arg-type]
        "typedef": lambda: s.di.typedef("t", int_t, parent=not_a_scope),  # type: ignore[arg-type]
        "inlined_at": lambda: s.di.inlined_at(3, not_a_scope),  # type: ignore[arg-type]
        "scope": lambda: s.di.scope(not_a_scope),  # type: ignore[arg-type]
    }
    with pytest.raises(DebugInfoError, match=r"is DebugExpression %\d+") as e:
        calls[call]()
    assert re.search(cites(rule, line), str(e.value))


def test_scope_inlined_at_must_be_debug_inlined_at() -> None:
    s = setup()
    with pytest.raises(DebugInfoError, match=cites("R20", 1189)):
        s.di.scope(s.di.unit, s.di.expression())  # type: ignore[arg-type]


# -- DebugDeclare, DebugValue, DebugExpression ---------------------------------------------------
@pytest.mark.parametrize("flavor", FLAVORS)
def test_declare_takes_a_local_variable_and_an_op_variable(flavor: FlavorName) -> None:
    s = setup(flavor)
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    var = s.di.local_variable("x", int_t, s.di.unit)
    storage = s.m.variable(s.m.type_pointer(StorageClass.Function, s.uint), StorageClass.Function)
    loaded = s.m.load(s.uint, storage)
    with pytest.raises(
        DebugInfoError,
        match=r"DebugDeclare operand 'Variable' is OpLoad %\d+; it must be OpVariable",
    ) as e:
        s.di.declare(var, loaded)
    assert re.search(cites("R22", 1343), str(e.value))
    glob = s.di.global_variable("g", int_t, None)
    with pytest.raises(
        DebugInfoError,
        match=r"DebugDeclare operand 'Local Variable' is DebugGlobalVariable %\d+; it must be DebugLocalVariable",
    ) as e:
        s.di.declare(glob, storage)  # type: ignore[arg-type]
    assert re.search(cites("R22", 1341), str(e.value))
    with pytest.raises(DebugInfoError, match=cites("R22", 1345)):
        s.di.declare(var, storage, s.di.operation(DwarfOp.Deref))  # type: ignore[arg-type]
    s.di.declare(var, storage)  # the right operands pass


def test_value_takes_a_local_variable_first() -> None:
    s = setup()
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(DebugInfoError, match=cites("R23", 1372)):
        s.di.value(s.di.global_variable("g", int_t, None), s.m.constant(s.uint, 1))  # type: ignore[arg-type]


def test_expression_takes_operations() -> None:
    s = setup()
    with pytest.raises(DebugInfoError, match=r"operand 'Operation' is DebugExpression") as e:
        s.di.expression(s.di.expression())  # type: ignore[arg-type]
    assert re.search(cites("R24", 1434), str(e.value))


# -- DebugOperation operand counts ---------------------------------------------------------------
SEED_COUNTS = {
    DwarfOp.Deref: 0, DwarfOp.Plus: 0, DwarfOp.Minus: 0, DwarfOp.PlusUconst: 1,
    DwarfOp.BitPiece: 2, DwarfOp.Swap: 0, DwarfOp.Xderef: 0, DwarfOp.StackValue: 0,
    DwarfOp.Constu: 1,
}  # fmt: skip


@pytest.mark.parametrize("op", list(SEED_COUNTS), ids=lambda op: op.name)
def test_operation_operand_counts(op: DwarfOp) -> None:
    s = setup()
    count = SEED_COUNTS[op]
    s.di.operation(op, *range(count))  # the right count passes
    with pytest.raises(
        DebugInfoError,
        match=rf"DebugOperation {op.name} takes {count} literal operand\(s\), not {count + 1}",
    ) as e:
        s.di.operation(op, *range(count + 1))
    assert re.search(cites("R25", 1409), str(e.value))


@pytest.mark.parametrize("flavor", FLAVORS[1:])
def test_operation_operand_counts_in_the_newer_sets(flavor: FlavorName) -> None:
    s = setup(flavor)
    s.di.operation(DwarfOp.Fragment, 0, 32)
    with pytest.raises(DebugInfoError, match=r"Fragment takes 2 literal operand\(s\), not 1"):
        s.di.operation(DwarfOp.Fragment, 0)


def test_an_operation_the_set_lacks() -> None:
    s = setup()
    with pytest.raises(DebugInfoError, match=r"DebugInfo has no DebugOperation.Fragment"):
        s.di.operation(DwarfOp.Fragment, 0, 32)


# -- opaque types --------------------------------------------------------------------------------
@pytest.mark.parametrize("flavor", FLAVORS)
def test_opaque_type_shape(flavor: FlavorName) -> None:
    s = setup(flavor)
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    opaque = s.di.opaque_type("image2d_t")
    assert opaque.name == "@image2d_t" and opaque.members == ()
    with pytest.raises(DebugInfoError, match=r"'@queue_t' is opaque but has 1 Members") as e:
        s.di.composite_type("@queue_t", Tag.Structure, None, [Member("x", int_t, 0, 32)])
    assert re.search(cites("R11", 72), str(e.value))
    with pytest.raises(DebugInfoError, match=r"'@event_t' is opaque but its Size is OpConstant"):
        s.di.composite_type("@event_t", Tag.Structure, 64)
    with pytest.raises(DebugInfoError, match=r"'sampler_t' has no Members and Size DebugInfoNone"):
        s.di.composite_type("sampler_t", Tag.Structure, None)
    s.di.composite_type("Later", Tag.Structure, None, flags=Flags.FlagFwdDecl)  # forward decl


# -- other operand rules -------------------------------------------------------------------------
def test_counts_of_at_least_one() -> None:
    s = setup()
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(DebugInfoError, match=r"DebugTypeArray has no 'Component Counts'") as e:
        s.di.array_type(int_t, [])
    assert re.search(cites("D10", 425), str(e.value))
    composite = s.di.composite_type("S", Tag.Structure, 0)
    with pytest.raises(DebugInfoError, match=cites("D10", 794)):
        s.di.template(composite, [])
    with pytest.raises(DebugInfoError, match=cites("D10", 907)):
        s.di.template_parameter_pack("Ts", [])


def test_inheritance_from_a_union() -> None:
    s = setup()
    union = s.di.composite_type("U", Tag.Union, 32)
    with pytest.raises(
        DebugInfoError, match=r"operand 'Parent' is a Union, not a class or structure"
    ) as e:
        s.di.composite_type("D", Tag.Class, 32, [Base(union, 0, 32)])
    assert re.search(cites("R15", 724), str(e.value))


def test_template_and_macro_references() -> None:
    s = setup()
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(DebugInfoError, match=cites("R35", 790)):
        s.di.template(int_t, [s.di.template_type_parameter("T", int_t)])  # type: ignore[arg-type]
    with pytest.raises(DebugInfoError, match=cites("R35", 907)):
        pack = s.di.template_template_parameter("A", "Alloc")
        s.di.template_parameter_pack("Ts", [pack, pack])
    with pytest.raises(DebugInfoError, match=cites("R39", 1498)):
        s.di.macro_undef(s.di.expression())  # type: ignore[arg-type]


def test_function_and_variable_references() -> None:
    s = setup()
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(
        DebugInfoError, match=r"'Type' is DebugTypeBasic %\d+; it must be DebugTypeFunction"
    ) as e:
        s.di.function("f", int_t)  # type: ignore[arg-type]
    assert re.search(cites("R31", 1054), str(e.value))
    not_a_function = s.m.constant(s.uint, 7)
    with pytest.raises(DebugInfoError, match=cites("R31", 1070)):
        s.di.function("f", s.di.function_type(None), function=not_a_function)
    with pytest.raises(DebugInfoError, match=cites("R33", 954)):
        s.di.global_variable("g", int_t, s.m.type_void())
    local = s.di.local_variable("x", int_t, s.di.unit)
    with pytest.raises(DebugInfoError, match=cites("R37", 1316)):
        s.di.inlined_variable(local, s.di.expression())  # type: ignore[arg-type]


def test_whole_module_check_sees_raw_instructions() -> None:
    """A DebugTypeBasic written with the generated method, its Name an OpConstant (L62), in a
    module without a layer (so without the check at the call)."""
    m = Module(version=(1, 2))
    uint = m.type_int(32, 0)
    m.debug_info.debug_type_basic(m.type_void(), m.constant(uint, 1), m.constant(uint, 32), 5)  # type: ignore[arg-type]
    with pytest.raises(
        DebugInfoError, match=r"operand 'Name' is OpConstant %\d+; it must be OpString"
    ) as e:
        check_module(m)
    assert re.search(cites("R4", 62), str(e.value))


def test_raw_generated_method_calls_are_checked_at_the_call() -> None:
    """The layer registers its set's check with Module.add_set_check: a generated method's
    call that breaks a rule raises there, naming the user's file:line, and changes nothing."""
    s = setup(open_function=False)
    void, one, size = s.m.type_void(), s.m.constant(s.uint, 1), s.m.constant(s.uint, 32)
    before = s.m.to_words()
    with pytest.raises(
        DebugInfoError, match=r"operand 'Name' is OpConstant %\d+; it must be OpString"
    ) as e:
        s.m.debug_info.debug_type_basic(void, one, size, 5)  # type: ignore[arg-type]
    assert re.search(cites("R4", 62), str(e.value))
    assert str(e.value).endswith(f"(at test_debuginfo_rules.py:{e.tb.tb_lineno})")
    assert s.m.to_words() == before


def test_serialization_checks_raw_ext_inst() -> None:
    """A raw ext_inst() is routed by its set like the typed calls, and checked like them."""
    s = setup()
    s.m.ext_inst(s.uint, s.m.debug_info.set_id, 0)  # DebugInfoNone typed OpTypeInt
    s.m.return_().function_end()
    with pytest.raises(DebugInfoError, match=cites("R3", 64)):
        s.m.to_words()


def test_the_serialization_check_runs_once_per_to_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many layers and sets write into a module, one check per serialization."""
    from spvbuild.debuginfo import rules

    s = setup()
    DebugInfo(s.m, "DebugInfo")
    other = DebugInfo(s.m, "OpenCL.DebugInfo.100")
    other.compile_unit("other.c")
    s.m.return_().function_end()
    calls: list[int] = []
    check = rules.check_instructions

    def counted(*args: object, **kwargs: object) -> None:
        calls.append(1)
        check(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "check_instructions", counted)
    s.m.to_words()
    s.m.to_bytes()
    assert len(calls) == 2
    strip_debug_info(s.m)  # a layer made after stripping registers nothing more
    DebugInfo(s.m, "DebugInfo").compile_unit("again.c")
    s.m.to_words()
    assert len(calls) == 3


def test_whole_module_check_on_a_module_being_built() -> None:
    """check_module works with a function still open and knows its block labels."""
    s = setup()
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    local = s.di.local_variable("x", int_t, s.di.unit)
    storage = s.m.variable(s.m.type_pointer(StorageClass.Function, s.uint), StorageClass.Function)
    s.di.declare(local, storage)
    check_module(s.m)
    label = s.m.current_block
    assert label is not None
    with pytest.raises(DebugInfoError, match=r"'Variable' is OpLabel %\d+"):
        s.di.declare(local, label)
    with pytest.raises(DebugInfoError, match=r"'Variable' is OpLabel %\d+"):  # at the call
        s.m.debug_info.debug_declare(s.m.type_void(), local.id, label, s.di.expression().id)


def test_debug_info_none_may_stand_for_any_debug_reference() -> None:
    """L68: every reference to a debug instruction may be DebugInfoNone."""
    s = setup()
    none = Id(s.di.emitter.none())
    s.m.debug_info.debug_scope(s.m.type_void(), none)
    s.m.return_().function_end()
    check_module(s.m)


def test_good_modules_pass_the_whole_module_check() -> None:
    from tests.debuginfo.test_debuginfo_programs import (
        KERNEL_TARGETS,
        SHADER_TARGET,
        c_program,
        cpp_program,
    )

    for target in [*KERNEL_TARGETS, SHADER_TARGET]:
        check_module(c_program(target)[0])
    for flavor in FLAVORS:
        check_module(cpp_program(flavor)[0])


# -- integral constants, global variables, enumerated values (issue 29) --------------------------
@pytest.mark.parametrize("flavor", FLAVORS)
def test_sizes_offsets_and_enumerator_values_are_integer_constants(flavor: FlavorName) -> None:
    """Seed 4.3: "Size is an OpConstant with integral type" (L336, L618), "Offset is an
    OpConstant with integral type" (L675), and of DebugTypeEnum "Values must be id of
    OpConstant instruction, with integer result type" (L564): a float constant is refused."""
    s = setup(flavor)
    half = Id(s.m.constant(s.m.type_float(32), 32.0))
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(
        DebugInfoError, match=r"operand 'Size' is OpConstant %\d+ of a floating-point type"
    ) as e:
        s.di.basic_type("f", half, Encoding.Float)
    assert re.search(cites("R27", 336), str(e.value))
    with pytest.raises(DebugInfoError, match=cites("R27", 618)):
        s.di.composite_type("S", Tag.Structure, half)
    with pytest.raises(
        DebugInfoError, match=r"operand 'Offset' is OpConstant %\d+ of a float"
    ) as e:
        s.di.composite_type("T", Tag.Structure, 32, [Member("x", int_t, half, 32)])
    assert re.search(cites("R27", 675), str(e.value))
    with pytest.raises(
        DebugInfoError, match=r"enumerator Value #1 is OpConstant %\d+ of a float"
    ) as e:
        s.di.enum_type("E", [(0, "A"), (half, "B")], 32)
    assert re.search(cites("R29", 564), str(e.value))
    s.di.enum_type("E", [(0, "A"), (1, "B")], 32)  # integer values pass


@pytest.mark.parametrize("flavor", FLAVORS)
def test_global_variable_is_not_a_function_variable(flavor: FlavorName) -> None:
    """Seed 4.5 (L954): "Variable is id of the global variable or constant which is described
    by this instruction": an OpVariable of the Function storage class is refused; a global one
    and a constant pass."""
    s = setup(flavor)
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    local = s.m.variable(s.m.type_pointer(StorageClass.Function, s.uint), StorageClass.Function)
    with pytest.raises(
        DebugInfoError,
        match=r"operand 'Variable' is OpVariable %\d+ in the Function storage class",
    ) as e:
        s.di.global_variable("g", int_t, local)
    assert re.search(cites("R33", 954), str(e.value))
    private = StorageClass.CrossWorkgroup
    s.di.global_variable("g", int_t, s.m.variable(s.m.type_pointer(private, s.uint), private))
    s.di.global_variable("k", int_t, s.m.constant(s.uint, 7))


NONSEMANTIC: FlavorName = "NonSemantic.Shader.DebugInfo.100"


def test_nonsemantic_encoding_outside_its_table() -> None:
    """Seed 3.3 (L140, L338): Encoding is a value of the Base Type Attribute Encodings table;
    NonSemantic.Shader.DebugInfo.100 writes it as an OpConstant, whose value is checked too."""
    s = setup(NONSEMANTIC)
    with pytest.raises(
        DebugInfoError,
        match=r"operand 'Encoding' is 99: not a value of the DebugBaseTypeAttributeEncoding table",
    ) as e:
        s.di.basic_type("int", 32, 99)  # type: ignore[arg-type]
    assert re.search(cites("R44", 140), str(e.value))
    s.di.basic_type("int", 32, 4)  # type: ignore[arg-type]  # Signed there: passes


@pytest.mark.parametrize(
    ("call", "operand"),
    [
        ("member_parent", "parent"),
        ("inlined_at_keyword", "inlined_at"),
        ("function_variable", "Definition"),
    ],
)
def test_nonsemantic_refuses_facts_it_cannot_hold(call: str, operand: str) -> None:
    """Seed 4.3 (L673: a member's Parent), 4.6 (L1070: DebugFunction's Function is an
    OpFunction), 4.8 (L1316: DebugInlinedVariable's Inlined): a fact given for an operand
    NonSemantic.Shader.DebugInfo.100 lacks is refused, not dropped, and the OpFunction it
    ties with DebugFunctionDefinition is checked at the call."""
    s = setup(NONSEMANTIC)
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    shell = s.di.composite_type("S", Tag.Structure, 32, [Member("x", int_t, 0, 32)])
    fn = s.di.function("f", s.di.function_type(None))
    local = s.di.local_variable("x", int_t, fn)
    variable = s.m.variable(s.m.type_pointer(StorageClass.Function, s.uint), StorageClass.Function)
    calls: dict[str, Callable[[], object]] = {
        "member_parent": lambda: s.di.instruction(
            "DebugTypeMember", name="y", type=int_t, parent=shell, offset=0, size=32
        ),
        "inlined_at_keyword": lambda: s.di.instruction(
            "DebugInlinedVariable", variable=local, inlined_at=s.di.inlined_at(3, fn)
        ),
        "function_variable": lambda: s.di.function(
            "g", s.di.function_type(None), function=variable
        ),
    }
    with pytest.raises(DebugInfoError, match=rf"'{operand}'") as e:
        calls[call]()
    assert NONSEMANTIC in str(e.value)


@pytest.mark.parametrize(
    ("flavor", "encoding"), [("DebugInfo", 3), ("OpenCL.DebugInfo.100", 99), (NONSEMANTIC, 99)]
)
def test_raw_enum_numbers_outside_their_table_are_spvbuild_errors(
    flavor: FlavorName, encoding: int
) -> None:
    """Seed 3.3: DebugInfo has no encoding 3 (Float is 4), OpenCL.DebugInfo.100 none above 7:
    through the layer and through the generated method alike, a DebugInfoError citing the
    table, ending with the user's file:line (no bare ValueError)."""
    s = setup(flavor, open_function=False)
    with pytest.raises(DebugInfoError, match=rf"'Encoding' is {encoding}: not a value") as e:
        s.di.basic_type("x", 32, encoding)  # type: ignore[arg-type]
    assert str(e.value).endswith(f"(at test_debuginfo_rules.py:{e.tb.tb_lineno})")
    assert re.search(cites("R44", 140), str(e.value))
    group = s.di.emitter.group
    name, size = s.m.string("x"), s.m.constant(s.uint, 32)
    literal: object = s.m.constant(s.uint, encoding) if flavor == NONSEMANTIC else encoding
    extra = [s.m.constant(s.uint, 0)] if flavor == NONSEMANTIC else []
    with pytest.raises(DebugInfoError, match=rf"'Encoding' is {encoding}: not a value") as e:
        group.debug_type_basic(s.m.type_void(), name, size, literal, *extra)
    assert str(e.value).endswith(f"(at test_debuginfo_rules.py:{e.tb.tb_lineno})")


@pytest.mark.parametrize("flavor", FLAVORS)
def test_flags_outside_the_debug_info_flags_table(flavor: FlavorName) -> None:
    """Seed 3.2 (L76, L369): "Flags is a single word literal formed by bitwise OR-ing values
    from the Debug Info Flags table": a bit outside it is refused citing rule 3.2."""
    s = setup(flavor)
    int_t = s.di.basic_type("int", 32, Encoding.Signed)
    with pytest.raises(DebugInfoError, match=r"bits 0x100000 are in no entry") as e:
        s.di.pointer_type(int_t, StorageClass.Function, flags=Flags(1 << 20))
    assert re.search(cites("R43", 369), str(e.value))
    assert "3.2 Debug Info Flags" in str(e.value)


def test_every_layer_error_ends_with_the_users_call_site() -> None:
    """Every DebugInfoError of a layer call names the user's file:line (the rules' seed
    sections, e.g. 4.3 for the R12 Parent rule, are cited before it)."""
    s = setup()
    disc = s.di.discriminator(s.di.lexical_block(s.di.unit, line=2), 1)
    with pytest.raises(DebugInfoError) as e:
        s.di.composite_type("S", Tag.Structure, 0, parent=disc)
    assert str(e.value).endswith(f"(at test_debuginfo_rules.py:{e.tb.tb_lineno})")
    with pytest.raises(DebugInfoError) as e:
        DebugInfo(s.m, "DebugInfo.200")  # type: ignore[arg-type]
    assert str(e.value).endswith(f"(at test_debuginfo_rules.py:{e.tb.tb_lineno})")


def test_rules_cite_the_seed_by_name() -> None:
    """The rules cite the seed (the DebugInfo spec's text, 000_01119fa73200a173) by name and
    section, never by a path of one machine."""
    from pathlib import Path

    from spvbuild.debuginfo import references, spec_rules

    assert spec_rules.SEED == "000_01119fa73200a173"
    assert (
        "seed 000_01119fa73200a173 L616"
        in references.REFERENCES[("DebugTypeComposite", "Parent")][1].cite()
    )
    folder = Path(spec_rules.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(/work|/home|/tmp|[A-Z]:\\)\S*seeds", text), path.name
        assert "shared/seeds" not in text, path.name
