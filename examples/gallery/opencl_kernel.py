"""An OpenCL kernel: global pointers, a call to a helper function and a 64-bit loop,

    float mul(float a, float b) { return a * b; }
    kernel void scale(global float *data, ulong n, float k) {
        for (ulong i = 0; i < n; i++) data[i] = mul(data[i], k);
    }
"""

from __future__ import annotations

from common import gallery_main

from spvbuild import Module
from spvbuild.constructs import for_range
from spvbuild.enums import (
    AddressingModel,
    Capability,
    ExecutionModel,
    FunctionControl,
    MemoryAccessAligned,
    MemoryModel,
    StorageClass,
)  # fmt: skip


def build(target_env: str = "opencl1.2") -> Module:
    m = Module(target_env=target_env)
    m.capability(Capability.Addresses).capability(Capability.Kernel)
    f32, u64 = m.type_float(32), m.type_int(64, 0)
    global_float = m.type_pointer(StorageClass.CrossWorkgroup, f32)

    mul = m.define_function(f32, [f32, f32], FunctionControl.Inline, name="mul")
    m.return_value(m.f_mul(f32, *mul.parameters)).function_end()

    scale = m.define_function(m.type_void(), [global_float, u64, f32], name="scale")
    data, n, k = scale.parameters
    with for_range(m, u64, m.constant(u64, 0), n) as (_, i):
        element = m.in_bounds_ptr_access_chain(global_float, data, i)
        aligned = MemoryAccessAligned(4)
        value = m.load(f32, element, aligned)
        m.store(element, m.function_call(f32, mul.id, [value, k]), aligned)
    m.return_().function_end()

    m.memory_model(AddressingModel.Physical64, MemoryModel.OpenCL)
    m.entry_point(ExecutionModel.Kernel, scale.id, "scale")
    return m


if __name__ == "__main__":
    gallery_main("opencl_kernel", build, "opencl1.2")
