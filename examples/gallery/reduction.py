"""A compute reduction: each workgroup of 64 sums its values in shared memory (a halving
loop with barriers), writes its sum, and adds it atomically to the total.  With ``--run``
it runs on a Vulkan device (lavapipe without a GPU) and checks the sums."""

from __future__ import annotations

import random
import struct
import sys

from common import gallery_main

from spvbuild import Id, Module
from spvbuild.constructs import (
    Array,
    Field,
    Struct,
    access_chain,
    atomic,
    builtin,
    control_barrier,
    if_then,
    load,
    storage_block,
    u32,
    while_loop,
)  # fmt: skip
from spvbuild.enums import (
    AddressingModel,
    BuiltIn,
    ExecutionModel,
    ExecutionModeLocalSize,
    MemoryModel,
    StorageClass,
)  # fmt: skip

GROUP, GROUPS = 64, 16


def build(target_env: str = "vulkan1.1") -> Module:
    m = Module(target_env=target_env)
    uint, boolean = m.type_int(32, 0), m.type_bool()
    values = storage_block(m, Struct("In", (Field("values", Array(u32, None)),)), binding=0)
    sums = storage_block(
        m, Struct("Out", (Field("total", u32), Field("sums", Array(u32, None)))), binding=1
    )
    shared = m.variable(
        m.type_pointer(StorageClass.Workgroup, m.type_array(uint, m.constant(uint, GROUP))),
        StorageClass.Workgroup,
    )
    main = m.define_function(m.type_void(), name="main")
    stride = m.variable(m.type_pointer(StorageClass.Function, uint), StorageClass.Function)

    def x(which: BuiltIn) -> Id:
        return m.composite_extract(uint, load(m, builtin(m, which)), [0])

    local, group = x(BuiltIn.LocalInvocationId), x(BuiltIn.WorkgroupId)
    item = x(BuiltIn.GlobalInvocationId)
    m.store(access_chain(m, shared, [local]), load(m, values.member(m, "values", item)))
    control_barrier(m)
    m.store(stride, m.constant(uint, GROUP // 2))
    with while_loop(m, lambda: m.u_greater_than(boolean, m.load(uint, stride), m.constant(uint, 0))):
        step = m.load(uint, stride)
        with if_then(m, m.u_less_than(boolean, local, step)):
            mine = access_chain(m, shared, [local])
            theirs = load(m, access_chain(m, shared, [m.i_add(uint, local, step)]))
            m.store(mine, m.i_add(uint, load(m, mine), theirs))
        control_barrier(m)
        m.store(stride, m.shift_right_logical(uint, step, m.constant(uint, 1)))
    with if_then(m, m.i_equal(boolean, local, m.constant(uint, 0))):
        total = load(m, access_chain(m, shared, [0]))
        m.store(sums.member(m, "sums", group), total)
        atomic(m, m.atomic_i_add, sums.member(m, "total"), total)
    m.return_().function_end()
    m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
    m.entry_point(ExecutionModel.GLCompute, main.id, "main")
    m.execution_mode(main.id, ExecutionModeLocalSize(GROUP, 1, 1))
    return m


def run(m: Module) -> None:
    """Run it on GROUPS workgroups of random values; exit 1 if a sum is wrong."""
    from spvbuild.vulkan_runner import run_compute

    data = [random.Random(13).randrange(10_000) for _ in range(GROUP * GROUPS)]
    inputs = struct.pack(f"<{len(data)}I", *data)
    _, out = run_compute(m.to_words(), [inputs, bytes(4 * (1 + GROUPS))], (GROUPS, 1, 1))
    total, *sums = struct.unpack(f"<{1 + GROUPS}I", out)
    expected = [sum(data[g * GROUP : (g + 1) * GROUP]) for g in range(GROUPS)]
    ok = sums == expected and total == sum(data)
    print(f"sums {'ok' if ok else 'WRONG'}: total {total} (expected {sum(data)})")
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    gallery_main("reduction", build, "vulkan1.1", run)
