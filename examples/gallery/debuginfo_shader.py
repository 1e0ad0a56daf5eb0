"""A compute shader with full NonSemantic.Shader.DebugInfo.100: its source, types, the
function, its local variables and a line for every statement, as a debugger reads them.

    // double.comp
    layout(set = 0, binding = 0) buffer Data { uint values[]; };
    void main() {
        uint i = gl_GlobalInvocationID.x;
        uint doubled = values[i] * 2u;
        values[i] = doubled;
    }
"""

from __future__ import annotations

from common import gallery_main

from spvbuild import Module
from spvbuild.constructs import Array, Field, Struct, builtin, load, storage_block, u32
from spvbuild.debuginfo import DebugInfo, Encoding, Flags
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    SourceLanguage,
    StorageClass,
)  # fmt: skip

SOURCE = __doc__.split("\n\n", 1)[1] if __doc__ else ""


def build(target_env: str = "vulkan1.2") -> Module:
    m = Module(target_env=target_env)
    uint = m.type_int(32, 0)
    data = storage_block(m, Struct("Data", (Field("values", Array(u32, None)),)), name="data")
    di = DebugInfo(m, "NonSemantic.Shader.DebugInfo.100")
    di.compile_unit("double.comp", SOURCE, language=SourceLanguage.GLSL, language_version=450)
    uint_t = di.basic_type("uint", 32, Encoding.Unsigned)
    main = m.define_function(m.type_void(), name="main")
    main_dbg = di.function(
        "main", di.function_type(None, []), function=main.id, line=3, column=5,
        flags=Flags.FlagIsDefinition,
    )  # fmt: skip
    pointer = m.type_pointer(StorageClass.Function, uint)
    i_var, doubled_var = (m.variable(pointer, StorageClass.Function) for _ in range(2))
    di.scope(main_dbg)
    di.declare(di.local_variable("i", uint_t, main_dbg, line=4, column=10), i_var)
    di.line(4, 14)
    m.store(i_var, m.composite_extract(uint, load(m, builtin(m, BuiltIn.GlobalInvocationId)), [0]))
    di.declare(di.local_variable("doubled", uint_t, main_dbg, line=5, column=10), doubled_var)
    di.line(5, 20)
    value = load(m, data.member(m, "values", m.load(uint, i_var)))
    m.store(doubled_var, m.i_mul(uint, value, m.constant(uint, 2)))
    di.line(6, 5)
    m.store(data.member(m, "values", m.load(uint, i_var)), m.load(uint, doubled_var))
    di.no_line()
    di.no_scope()
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(64, 1, 1))
    di.check()
    return m


if __name__ == "__main__":
    # Its debug information is the point of it, and the recipe of the moment strips it.
    gallery_main("debuginfo_shader", build, "vulkan1.2", optimize=False)
