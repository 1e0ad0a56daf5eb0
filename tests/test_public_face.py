"""The public face: the package's names and the three tool fronts name the rooms' objects."""

from __future__ import annotations

import importlib

import pytest

import spvbuild


@pytest.mark.parametrize(
    ("front", "room"),
    [
        ("spvbuild.assembler", "spvbuild.text.assembler"),
        ("spvbuild.disassembler", "spvbuild.text.disassembler"),
        ("spvbuild.reader", "spvbuild.binary.reader"),
    ],
)
def test_a_front_gives_its_rooms_public_names(front: str, room: str) -> None:
    front_module = importlib.import_module(front)
    room_module = importlib.import_module(room)
    assert front_module.__all__ == room_module.__all__
    for name in front_module.__all__:
        assert getattr(front_module, name) is getattr(room_module, name), name


def test_the_package_names_module_read_assemble_and_disassemble() -> None:
    from spvbuild.binary.reader import read
    from spvbuild.ir.module import Module
    from spvbuild.text.assembler import assemble
    from spvbuild.text.disassembler import disassemble

    assert spvbuild.Module is Module and spvbuild.read is read
    assert spvbuild.assemble is assemble and spvbuild.disassemble is disassemble
    words = spvbuild.assemble("OpCapability Shader\nOpMemoryModel Logical GLSL450\n")
    assert [inst.opcode for inst in spvbuild.read(words).instructions] == [17, 14]
    assert "OpMemoryModel Logical GLSL450" in spvbuild.disassemble(words)
