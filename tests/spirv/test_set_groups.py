"""The extended sets' method groups (``m.glsl``, ``m.opencl``, ...): made on first read,
one per builder, each bound to its own builder (``spvbuild.spirv.emission.made_once``)."""

from __future__ import annotations

from spvbuild.generated.extinst import ExtInstSets
from spvbuild.generated.extinst.glsl import GlslInstructions
from spvbuild.ir.module import Module
from spvbuild.ir.recorder import Recorder
from spvbuild.spirv.emission import made_once


def test_a_group_is_made_once_per_builder_and_bound_to_it() -> None:
    first, second = Module(), Module()
    group = first.glsl
    assert type(group) is GlslInstructions
    assert first.glsl is group  # kept: the same object on every read
    assert second.glsl is not group and second.glsl._owner is second
    assert group._owner is first
    assert "glsl" not in vars(Module())  # nothing made before the first read


def test_a_group_works_on_every_builder_and_reads_as_its_descriptor_on_the_class() -> None:
    recorder = Recorder()
    assert recorder.opencl._owner is recorder
    descriptor = vars(ExtInstSets)["glsl"]
    assert isinstance(descriptor, made_once) and ExtInstSets.glsl is descriptor
    assert descriptor.__doc__ and "GLSL.std.450" in descriptor.__doc__


def test_the_groups_emit_into_their_own_builder() -> None:
    first, second = Module(), Module()
    for m in (first, second):
        m.define_function(m.type_void(), name="main")
    f32 = first.type_float(32)
    x = first.constant(f32, 2.0)
    first.glsl.sqrt(f32, x)
    assert any(i.opcode == 12 for f in first.functions for i in f.instructions())
    assert not any(i.opcode == 12 for f in second.functions for i in f.instructions())
