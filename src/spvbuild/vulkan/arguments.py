"""The checks a compute run's arguments pass before any Vulkan object is made."""

from __future__ import annotations

from collections.abc import Sequence

from spvbuild.generated.core.opcodes import OP_ENTRY_POINT
from spvbuild.vulkan.errors import VulkanError

__all__ = ["check_arguments", "compute_entry_points"]


def check_arguments(
    spirv_words: Sequence[int],
    buffers: Sequence[bytes | bytearray],
    group_count: tuple[int, int, int],
    entry_point: str,
    push_constants: bytes | None,
) -> None:
    """Raise :class:`VulkanError` for arguments no dispatch can use (see
    :func:`~spvbuild.vulkan.run_compute`)."""
    if len(spirv_words) < 5 or spirv_words[0] != 0x07230203:
        raise VulkanError("spirv_words is not a SPIR-V module (no 0x07230203 magic word first)")
    if any(not 0 <= int(word) <= 0xFFFF_FFFF for word in spirv_words):
        raise VulkanError("spirv_words holds a value that is not a 32-bit word")
    if not buffers:
        raise VulkanError("run_compute needs at least one buffer")
    for index, data in enumerate(buffers):
        if not isinstance(data, bytes | bytearray) or len(data) == 0:
            raise VulkanError(f"buffer {index} must be non-empty bytes or bytearray")
    if len(group_count) != 3 or any(int(n) < 1 for n in group_count):
        raise VulkanError(f"group_count must be three counts >= 1, not {group_count!r}")
    if push_constants is not None and (len(push_constants) == 0 or len(push_constants) % 4):
        raise VulkanError(
            f"push constants must be a non-empty multiple of 4 bytes, not {len(push_constants)}"
        )
    found = compute_entry_points(spirv_words)
    if entry_point not in found:
        raise VulkanError(
            f"the module has no GLCompute entry point named {entry_point!r} "
            f"(it has: {', '.join(map(repr, found)) or 'none'})"
        )


def compute_entry_points(words: Sequence[int]) -> list[str]:
    """Names of the module's GLCompute entry points (a scan of OpEntryPoint instructions)."""
    from spvbuild.generated.core.enums import ExecutionModel

    gl_compute = int(ExecutionModel.GLCompute)
    names: list[str] = []
    index = 5
    while index < len(words):
        count, opcode = words[index] >> 16, words[index] & 0xFFFF
        if count == 0:
            break
        if opcode == OP_ENTRY_POINT and count > 3 and words[index + 1] == gl_compute:
            raw = b"".join(int(w).to_bytes(4, "little") for w in words[index + 3 : index + count])
            names.append(raw.split(b"\0", 1)[0].decode("utf-8", errors="replace"))
        index += count
    return names
