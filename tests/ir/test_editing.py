"""Editing a module: find, replace all uses, remove, insert before or after an
instruction (also in a run of words and in an ended block), every cache kept true."""

from __future__ import annotations

import pytest

from spvbuild import BuildError, Id, Module
from spvbuild.enums import AddressingModel, ExecutionModel, ExecutionModeLocalSize, MemoryModel
from spvbuild.generated.core.opcodes import OP_CONSTANT, OP_I_ADD, OP_I_MUL, OP_NAME, OP_RETURN


def kernel() -> tuple[Module, Id, Id, Id]:
    """A shader whose body is a run of words: (x + 2) * 2; the module, two, the sum, the
    product."""
    m = Module(version=(1, 3))
    uint = m.type_int(32, 0)
    two = m.named(m.constant(uint, 2), "two")
    main = m.define_function(m.type_void(), name="main")
    total = m.i_add(uint, two, two)
    product = m.i_mul(uint, total, two)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    return m, two, total, product


def test_find_by_name_opcode_and_id() -> None:
    m, two, total, _ = kernel()
    (found,) = m.find(name="two")
    assert found.result_id == two and found.opcode == OP_CONSTANT
    assert [i.result_id for i in m.find(opcode=OP_I_ADD)] == [total]
    assert m.find(result_id=total, opcode=OP_I_MUL) == []
    assert len(m.find(opcode=OP_NAME)) == 2


@pytest.mark.spirv_val
def test_replace_all_uses_and_remove_keep_the_module_valid(spirv_val) -> None:  # type: ignore[no-untyped-def]
    m, two, total, product = kernel()
    uint = m.type_int(32, 0)
    three = m.constant(uint, 3)
    assert m.replace_all_uses(two, three) == 4  # two in the OpIAdd, one in the OpIMul, the OpName
    (old,) = m.find(result_id=two)
    m.remove(old)
    assert m.definition(two) is None
    assert m.constant(uint, 2) != two  # the cache forgot the removed constant
    assert spirv_val(m.to_words(), "vulkan1.1").returncode == 0
    assert m.replace_all_uses(total, product, where=lambda i: i.opcode == OP_RETURN) == 0


@pytest.mark.spirv_val
def test_insert_into_a_run_and_before_a_terminator(spirv_val) -> None:  # type: ignore[no-untyped-def]
    m, two, total, product = kernel()
    uint = m.type_int(32, 0)
    (add,) = m.find(opcode=OP_I_ADD)
    with m.inserting(after=add):
        doubled = m.i_add(uint, total, total)
    m.replace_all_uses(total, doubled, where=lambda i: i.opcode == OP_I_MUL)
    (ret,) = m.find(opcode=OP_RETURN)
    with m.inserting(before=ret):
        last = m.i_sub(uint, product, two)
    order = [i.result_id for i in m.functions[0].instructions()]
    assert order.index(total) < order.index(doubled) < order.index(product) < order.index(last)
    assert spirv_val(m.to_words(), "vulkan1.1").returncode == 0


def test_editing_misuse_is_a_build_error() -> None:
    m, two, _, _ = kernel()
    (ret,) = m.find(opcode=OP_RETURN)
    with pytest.raises(BuildError, match="give one of before= or after="):
        with m.inserting():
            pass
    with pytest.raises(BuildError, match="a terminator or merge instruction cannot be inserted"):
        with m.inserting(before=ret):
            m.return_()
    with pytest.raises(BuildError, match="replace_all_uses: .* is defined by nothing"):
        m.replace_all_uses(two, Id(999))
    (name,) = m.find(name="two")
    m.remove(name)
    with pytest.raises(BuildError, match="remove: the module holds no OpConstant like this"):
        m.remove(name)


@pytest.mark.spirv_val
def test_a_constant_made_after_its_new_user_is_laid_out_before_it(spirv_val) -> None:  # type: ignore[no-untyped-def]
    m = Module(version=(1, 3))
    uint = m.type_int(32, 0)
    one = m.constant(uint, 1)
    pair = m.constant_composite(m.type_vector(uint, 2), [one, one])
    main = m.define_function(m.type_void(), name="main")
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    m2 = Module.from_binary(m.to_words())
    # a new type and a constant of it, both declared after the composite that will use them
    seven = m2.constant(m2.type_int(32, 0), 7)
    wide = m2.constant(m2.type_int(64, 0), 7)
    assert m2.replace_all_uses(one, seven) == 2
    order = [i.result_id for i in m2.sections["types_globals"]]
    assert order.index(seven) < order.index(pair)
    assert order.index(wide) > order.index(pair)  # what no edit made use of keeps its place
    assert spirv_val(m2.to_words(), "vulkan1.1").returncode == 0
    # transitively: a vector type made now, used by a composite made before it
    vec3 = m2.type_vector(uint, 3)
    triple = m2.constant_composite(vec3, [seven, seven, seven])
    (old_pair,) = m2.find(result_id=pair)
    m2.rewrite(
        lambda i: i._replace(result_type=vec3, operands=((seven, seven, seven),))
        if i is old_pair else i
    )
    order = [i.result_id for i in m2.sections["types_globals"]]
    assert order.index(vec3) < order.index(pair) < order.index(triple)
    assert spirv_val(m2.to_words(), "vulkan1.1").returncode == 0


@pytest.mark.spirv_val
def test_inserting_at_a_loops_branch_goes_before_its_merge(spirv_val) -> None:  # type: ignore[no-untyped-def]
    from spvbuild.constructs import while_loop
    from spvbuild.generated.core.opcodes import OP_BRANCH, OP_LOOP_MERGE

    m = Module(version=(1, 3))
    uint, boolean = m.type_int(32, 0), m.type_bool()
    main = m.define_function(m.type_void(), name="main")
    with while_loop(m, lambda: m.constant_false(boolean)):
        pass
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    (merge,) = m.find(opcode=OP_LOOP_MERGE)
    body = list(m.functions[0].instructions())
    branch = body[body.index(merge) + 1]
    assert branch.opcode == OP_BRANCH
    with m.inserting(before=branch):
        first = m.i_add(uint, m.constant(uint, 1), m.constant(uint, 2))
    with m.inserting(after=merge):
        second = m.i_add(uint, first, first)
    opcodes = [(i.opcode, i.result_id) for i in m.functions[0].instructions()]
    at = opcodes.index((OP_LOOP_MERGE, None))
    assert opcodes[at - 2 : at + 2] == [
        (OP_I_ADD, first), (OP_I_ADD, second), (OP_LOOP_MERGE, None), (OP_BRANCH, None)
    ]
    assert spirv_val(m.to_words(), "vulkan1.1").returncode == 0
