"""The builder's words paths: generated methods make an instruction's words at the call.

A core instruction whose operands are ids handed out already, 32-bit literals, strings,
enumerants (with parameters of those kinds) or OpConstant's plain number hands its words
to the module (``Module._put``); an extended instruction of ids only does the same.
Anything else takes the general path, which encodes the record.  Each test builds the
same module with the words paths and without them (``_put_words`` set to None, as for a
bare sink) and compares what comes out.
"""

from __future__ import annotations

import pytest

from spvbuild import BuildError, Id, Module
from spvbuild.compute import invocation_index, storage_buffer
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    Decoration,
    DecorationBuiltIn,
    DecorationSpecId,
    ExecutionModel,
    ExecutionModeLocalSize,
    FunctionControl,
    MemoryModel,
    SourceLanguage,
    StorageClass,
)


def _module(words_paths: bool) -> Module:
    """Types, constants of every width, decorations with parameters, strings, optional
    operands, an extended instruction and a forward reference."""
    m = Module(version=(1, 3))
    if not words_paths:
        m._put_words = None
    m.source(SourceLanguage.GLSL, 450, None, "void main() {}")
    f32 = m.type_float(32)
    f64 = m.type_float(64)
    i8 = m.type_int(8, 1)
    u16 = m.type_int(16, 0)
    i32 = m.type_int(32, 1)
    u64 = m.type_int(64, 0)
    constants = [
        m.constant(i8, -3),
        m.constant(u16, 65535),
        m.constant(i32, -1),
        m.constant(i32, 2**31 - 1),
        m.constant(u64, 2**64 - 1),
        m.constant(f32, 0.1),
        m.constant(f32, 1),  # an int for a float type: the general path, same bits as 1.0
        m.constant(f32, 1.0),
        m.constant(f64, -2.5),
    ]
    spec = m.spec_constant(i32, 4)
    m.decorate(spec, DecorationSpecId(7))
    data = storage_buffer(m, f32, binding=3, set=1, name="data")
    later = m.new_id()  # defined below: a words path may use it before
    m.decorate(later, Decoration.RelaxedPrecision)
    main = m.define_function(m.type_void(), (), FunctionControl.Inline, name="main")
    p = data.at(m, invocation_index(m))
    x = m.load(f32, p)
    m.store(p, m.f_add(f32, m.glsl.sqrt(f32, x), m.glsl.f_max(f32, x, x)))
    m.f_mul(f32, x, x, result_id=later)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(8, 4, 1))
    m.member_name(data.block, 0, "values")
    assert len(set(constants)) == len(constants) - 1  # 1 and 1.0 are one constant
    return m


def test_words_paths_write_what_the_general_path_writes() -> None:
    fast, general = _module(True), _module(False)
    assert fast.to_words() == general.to_words()
    assert fast.ordered_instructions() == general.ordered_instructions()


def test_words_paths_are_taken() -> None:
    m = _module(True)
    kept = {id(i) for i, _words, used, _needs in m._kept.values() if used is None}
    globals_ = m.sections["types_globals"] + m.sections["annotations"]
    assert sum(id(i) in kept for i in globals_) > len(globals_) // 2


def test_needs_listed_at_the_call_are_what_the_walk_finds() -> None:
    """A words path lists its record's needs at the call (by its needs key); the module
    written from them declares what the walk over the records declares."""
    from spvbuild.ir.requirements import _Collector

    m = _module(True)
    listed = [(i, needs) for i, _words, _used, needs in m._kept.values() if needs is not None]
    assert len(listed) > 10
    assert any(needs for _i, needs in listed)  # some need something (Shader, ...)
    for inst, needs in listed:
        walk = _Collector()
        walk._instruction(inst)
        assert needs == tuple(walk.found.items()), inst
    general = _module(False)
    assert all(entry[3] is None for entry in general._kept.values())
    assert m.to_words() == general.to_words()


def test_a_words_path_and_the_general_path_share_deduplication() -> None:
    m = Module()
    f32 = m.type_float(32)
    one = m.constant(f32, 1.0)  # words path
    assert m.constant(f32, 1) == one  # general path: same words, same id
    m._put_words = None
    assert m.type_float(32) == f32
    assert m.type_pointer(StorageClass.Input, f32) == Module.type_pointer(
        m, StorageClass.Input, f32
    )


def test_a_reserved_id_a_words_path_used_must_be_defined() -> None:
    m = Module()
    f32 = m.type_float(32)
    never = m.new_id()
    m.decorate(never, DecorationBuiltIn(BuiltIn.Position))
    m.name(f32, "float")
    with pytest.raises(BuildError, match=f"uses %{int(never)}, which no instruction defines"):
        m.to_words()


@pytest.mark.parametrize("value", [2**32, -(2**31) - 1, True, 1.5])
def test_a_constant_that_does_not_fit_is_an_error_of_the_call(value: object) -> None:
    m = Module()
    i32 = m.type_int(32, 1)
    bound = m.bound
    with pytest.raises(Exception, match=r"constant|OpConstant"):
        m.constant(i32, value)  # type: ignore[arg-type]
    assert m.bound == bound


def test_an_id_not_handed_out_takes_the_general_path_which_refuses_it() -> None:
    m = Module()
    f32 = m.type_float(32)
    with pytest.raises(BuildError, match="OpDecorate operand 'Target' is %50, an id this module has not handed out"):
        m.decorate(Id(50), Decoration.Flat)
    m.decorate(m.new_id(), Decoration.Flat)  # reserved: a forward reference...
    m.name(f32, "f")
    with pytest.raises(BuildError, match="uses %2, which no instruction defines"):
        m.to_words()  # ...that nothing defined
