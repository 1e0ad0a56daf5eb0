"""The passes' plain form: :func:`split` against the instruction-by-instruction reading of
the layout (functions, parameters, blocks, the refusals), and :meth:`Program.to_words`,
which writes the instructions no pass replaced as the words they were read from: the same
words as the encoder gives, over every pass and the real modules."""

from __future__ import annotations

import random

import pytest

from spvbuild.binary.encoder import encode_module
from spvbuild.errors import PassError
from spvbuild.generated.core.opcodes import OP_FUNCTION_END, OP_LABEL, OP_NOP
from spvbuild.passes import PASSES, Program, run
from spvbuild.passes.ids import used_ids, uses_any
from spvbuild.passes.program import join, split
from spvbuild.spirv.instruction import Instruction
from tests.passes.corpus import RealModule, real_modules
from tests.passes.helpers import program

TWO_FUNCTIONS = """OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%int = OpTypeInt 32 1
%fn = OpTypeFunction %void
%fn_int = OpTypeFunction %void %int %int
%first = OpFunction %void None %fn_int
%a = OpFunctionParameter %int
%b = OpFunctionParameter %int
%l1 = OpLabel
%s = OpIAdd %int %a %b
OpBranch %l2
%l2 = OpLabel
OpReturn
OpFunctionEnd
%second = OpFunction %void None %fn
%l3 = OpLabel
OpReturn
OpFunctionEnd
"""


def test_split_gives_functions_parameters_and_blocks() -> None:
    source = program(TWO_FUNCTIONS)
    layout = split(source, "test")
    assert len(layout.head) == 7
    first, second = layout.functions
    assert [len(first.start), len(first.blocks), len(second.start), len(second.blocks)] == [
        3,
        2,
        1,
        1,
    ]
    assert [len(b.body) for b in first.blocks] == [2, 1]
    assert first.end is not None and second.end is not None
    assert join(layout) == source.instructions


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda i: i.insert(10, Instruction(OP_NOP, None, None, ())),
            "before the function's first block",
        ),
        (
            lambda i: i.insert(16, Instruction(OP_NOP, None, None, ())),
            "an instruction between functions",
        ),
        (
            lambda i: i.append(Instruction(OP_NOP, None, None, ())),
            "an instruction between functions",
        ),
        (lambda i: i.pop(15), "a function starts before the last one ended"),
        (
            lambda i: i.insert(16, Instruction(OP_LABEL, None, None, ())),
            "an instruction between functions",
        ),
        (
            lambda i: i.insert(16, Instruction(OP_FUNCTION_END, None, None, ())),
            "an instruction between functions",
        ),
    ],
)
def test_split_refuses_what_is_outside_the_layout(change: object, message: str) -> None:
    source = program(TWO_FUNCTIONS)
    assert (
        source.instructions[10].opcode == OP_LABEL
        and source.instructions[15].opcode == OP_FUNCTION_END
    )
    change(source.instructions)  # type: ignore[operator]
    with pytest.raises(PassError, match=message) as caught:
        split(source, "test")
    assert caught.value.pass_name == "test"


def test_to_words_copies_what_was_read_and_encodes_the_rest() -> None:
    source = program(TWO_FUNCTIONS)
    words = source.to_words()
    assert source.source is not None and words == list(source.source.words)
    changed = source.copy()
    add = next(k for k, i in enumerate(changed.instructions) if i.opcode == 128)  # OpIAdd
    changed.instructions[add] = changed.instructions[add]._replace(opcode=130)  # OpISub
    changed.instructions.insert(3, changed.instructions.pop(5))  # moved
    expected = encode_module(
        changed.instructions, changed.bound, changed.version, changed.generator
    )
    assert changed.to_words() == expected
    assert changed.to_words() != words


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> tuple[RealModule, ...]:
    found = real_modules(tmp_path_factory.mktemp("program"))
    assert len(found) >= 250
    return found


@pytest.mark.corpus
def test_to_words_equals_the_encoder_after_every_pass(modules: tuple[RealModule, ...]) -> None:
    differ = []
    for module in modules[::3]:
        source = Program.from_words(module.words)
        assert source.to_words() == list(module.words), module.name
        for name in PASSES:
            try:
                out = run(source, [name])
            except PassError:
                continue
            plain = encode_module(out.instructions, out.bound, out.version, out.generator)
            if out.to_words() != plain:
                differ.append(f"{module.name}: {name}")
    assert differ == []


def test_the_source_is_let_go_once_little_of_it_is_left() -> None:
    constants = "".join(f"%c{k} = OpConstant %int {k}\n" for k in range(40))
    source = program(
        TWO_FUNCTIONS.replace(
            "%fn = OpTypeFunction %void\n", f"%fn = OpTypeFunction %void\n{constants}"
        )
    )
    assert source.reuses_source()
    out = run(source, ["eliminate-dead-code-aggressive"])  # no entry point, no export
    assert 16 * len(out.instructions) < len(source.instructions)
    assert out.source is None and not out.reuses_source()
    assert run(source, ["strip-debug"]).source is source.source


def test_uses_any_says_what_used_ids_says(modules: tuple[RealModule, ...]) -> None:
    """``uses_any(inst, ids)`` is ``not ids.isdisjoint(used_ids(inst))``, over the real
    modules' instructions and sets that hold a used id, none, or random ids."""
    rng = random.Random(26)
    checked = 0
    for module in modules[::4]:
        for inst in Program.from_words(module.words).instructions:
            used = used_ids(inst)
            picks: list[set[int]] = [set(), set(used[:1]), set(used[-1:]), set(used[1:2])]
            picks.append({rng.randrange(1, 200) for _ in range(3)})
            for ids in picks:
                assert uses_any(inst, ids) == (not ids.isdisjoint(used)), (inst, ids)
                assert uses_any(inst, dict.fromkeys(ids).keys()) == bool(ids & set(used))
            checked += 1
    assert checked > 2000


def test_rename_takes_result_fields_for_ids_by_their_place() -> None:
    """A result type or result id is an id by where it stands: a plain ``int`` there (as
    compiled code can leave one) is renamed too, and comes out an id again."""
    from spvbuild.generated.core.opcodes import OP_COMPOSITE_CONSTRUCT
    from spvbuild.passes.ids import rename
    from spvbuild.spirv.ids import Id, TypeId

    given = Instruction(OP_COMPOSITE_CONSTRUCT, 7, 9, ((Id(3), Id(4)),))
    names = {7: 70, 9: 90, 3: 30}
    renamed = rename(given, lambda i: names.get(i, i))
    assert renamed.result_type == 70 and type(renamed.result_type) is TypeId
    assert renamed.result_id == 90 and type(renamed.result_id) is Id
    assert renamed.operands == ((Id(30), Id(4)),)
    assert rename(given, lambda i: i) is given
