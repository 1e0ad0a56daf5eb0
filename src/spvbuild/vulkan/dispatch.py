"""One compute dispatch on an open device: shader module, pipeline, storage buffers in host
memory, descriptor set, command buffer, submission and read-back.

Buffers are bound as storage buffers in descriptor set 0, buffer ``i`` at binding ``i``;
push constants (if any) are one range at offset 0 visible to the compute stage.  Every
object made for the dispatch is destroyed again, also when a call fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any, NamedTuple

from spvbuild.vulkan.errors import VulkanError, vk_call

__all__ = ["DEFAULT_TIMEOUT"]

DEFAULT_TIMEOUT = 60.0
"""Seconds to wait for one dispatch."""


class DeviceHandles(NamedTuple):
    """What a dispatch needs of an open device (:class:`~spvbuild.vulkan.ComputeDevice`)."""

    vk: Any  # PyPI's vulkan module
    device: Any  # VkDevice
    queue: Any  # a compute VkQueue
    command_pool: Any  # VkCommandPool of the queue's family
    memory_properties: Any  # VkPhysicalDeviceMemoryProperties


def host_memory_type(handles: DeviceHandles, type_bits: int) -> int:
    """The index of a host-visible, host-coherent memory type among ``type_bits``."""
    vk = handles.vk
    wanted = vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
    props = handles.memory_properties
    for index in range(int(props.memoryTypeCount)):
        flags = int(props.memoryTypes[index].propertyFlags)
        if type_bits & (1 << index) and flags & wanted == wanted:
            return index
    raise VulkanError("no host-visible, host-coherent memory type for a storage buffer")


def dispatch(
    handles: DeviceHandles,
    spirv_words: Sequence[int],
    buffers: Sequence[bytes | bytearray],
    group_count: tuple[int, int, int],
    entry_point: str,
    push_constants: bytes | None,
    timeout: float,
) -> list[bytes]:
    """Dispatch ``entry_point`` once with ``group_count`` workgroups; the buffers after it.

    The arguments are checked already (:func:`~spvbuild.vulkan.arguments.check_arguments`).
    """
    with ExitStack() as stack:
        return _dispatch(
            handles, stack, spirv_words, buffers, group_count, entry_point, push_constants, timeout
        )


def _dispatch(
    handles: DeviceHandles,
    stack: ExitStack,
    spirv_words: Sequence[int],
    buffers: Sequence[bytes | bytearray],
    group_count: tuple[int, int, int],
    entry_point: str,
    push_constants: bytes | None,
    timeout: float,
) -> list[bytes]:
    """:func:`dispatch`, every object made destroyed by ``stack``."""
    vk = handles.vk
    device = handles.device

    def call(function: str, *args: Any) -> Any:
        return vk_call(vk, function, *args)

    def destroy(function: str, handle: Any) -> None:
        destroyer: Callable[..., Any] = getattr(vk, function)
        stack.callback(destroyer, device, handle, None)

    code = b"".join(int(word).to_bytes(4, "little") for word in spirv_words)
    shader = call(
        "vkCreateShaderModule",
        device,
        vk.VkShaderModuleCreateInfo(codeSize=len(code), pCode=code),
        None,
    )
    destroy("vkDestroyShaderModule", shader)

    bindings = [
        vk.VkDescriptorSetLayoutBinding(
            binding=index,
            descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            descriptorCount=1,
            stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT,
        )
        for index in range(len(buffers))
    ]
    set_layout = call(
        "vkCreateDescriptorSetLayout",
        device,
        vk.VkDescriptorSetLayoutCreateInfo(pBindings=bindings),
        None,
    )
    destroy("vkDestroyDescriptorSetLayout", set_layout)

    ranges: list[Any] = []
    if push_constants is not None:
        ranges.append(
            vk.VkPushConstantRange(
                stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT, offset=0, size=len(push_constants)
            )
        )
    layout = call(
        "vkCreatePipelineLayout",
        device,
        vk.VkPipelineLayoutCreateInfo(pSetLayouts=[set_layout], pPushConstantRanges=ranges or None),
        None,
    )
    destroy("vkDestroyPipelineLayout", layout)

    stage = vk.VkPipelineShaderStageCreateInfo(
        stage=vk.VK_SHADER_STAGE_COMPUTE_BIT, module=shader, pName=entry_point
    )
    pipelines = call(
        "vkCreateComputePipelines",
        device,
        vk.VK_NULL_HANDLE,
        1,
        [vk.VkComputePipelineCreateInfo(stage=stage, layout=layout)],
        None,
    )
    pipeline = pipelines[0]
    destroy("vkDestroyPipeline", pipeline)

    memories: list[Any] = []
    buffer_handles: list[Any] = []
    for data in buffers:
        handle = call(
            "vkCreateBuffer",
            device,
            vk.VkBufferCreateInfo(
                size=len(data),
                usage=vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE,
            ),
            None,
        )
        destroy("vkDestroyBuffer", handle)
        needs = vk.vkGetBufferMemoryRequirements(device, handle)
        memory = call(
            "vkAllocateMemory",
            device,
            vk.VkMemoryAllocateInfo(
                allocationSize=needs.size,
                memoryTypeIndex=host_memory_type(handles, int(needs.memoryTypeBits)),
            ),
            None,
        )
        destroy("vkFreeMemory", memory)
        call("vkBindBufferMemory", device, handle, memory, 0)
        mapped = call("vkMapMemory", device, memory, 0, len(data), 0)
        mapped[:] = bytes(data)
        vk.vkUnmapMemory(device, memory)
        memories.append(memory)
        buffer_handles.append(handle)

    pool = call(
        "vkCreateDescriptorPool",
        device,
        vk.VkDescriptorPoolCreateInfo(
            maxSets=1,
            pPoolSizes=[
                vk.VkDescriptorPoolSize(
                    type=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, descriptorCount=len(buffers)
                )
            ],
        ),
        None,
    )
    destroy("vkDestroyDescriptorPool", pool)  # frees its sets too
    descriptor_set = call(
        "vkAllocateDescriptorSets",
        device,
        vk.VkDescriptorSetAllocateInfo(
            descriptorPool=pool, descriptorSetCount=1, pSetLayouts=[set_layout]
        ),
    )[0]
    writes = [
        vk.VkWriteDescriptorSet(
            dstSet=descriptor_set,
            dstBinding=index,
            descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=handle, offset=0, range=len(data))],
        )
        for index, (handle, data) in enumerate(zip(buffer_handles, buffers, strict=True))
    ]
    vk.vkUpdateDescriptorSets(device, len(writes), writes, 0, None)

    command = call(
        "vkAllocateCommandBuffers",
        device,
        vk.VkCommandBufferAllocateInfo(
            commandPool=handles.command_pool,
            level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            commandBufferCount=1,
        ),
    )[0]
    stack.callback(vk.vkFreeCommandBuffers, device, handles.command_pool, 1, [command])
    call(
        "vkBeginCommandBuffer",
        command,
        vk.VkCommandBufferBeginInfo(flags=vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT),
    )
    vk.vkCmdBindPipeline(command, vk.VK_PIPELINE_BIND_POINT_COMPUTE, pipeline)
    vk.vkCmdBindDescriptorSets(
        command, vk.VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, [descriptor_set], 0, None
    )
    if push_constants is not None:
        vk.vkCmdPushConstants(
            command,
            layout,
            vk.VK_SHADER_STAGE_COMPUTE_BIT,
            0,
            len(push_constants),
            vk.ffi.new("char[]", bytes(push_constants)),
        )
    vk.vkCmdDispatch(command, *group_count)
    to_host = vk.VkMemoryBarrier(
        srcAccessMask=vk.VK_ACCESS_SHADER_WRITE_BIT, dstAccessMask=vk.VK_ACCESS_HOST_READ_BIT
    )
    vk.vkCmdPipelineBarrier(
        command,
        vk.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        vk.VK_PIPELINE_STAGE_HOST_BIT,
        0,
        1,
        [to_host],
        0,
        None,
        0,
        None,
    )
    call("vkEndCommandBuffer", command)

    fence = call("vkCreateFence", device, vk.VkFenceCreateInfo(), None)
    destroy("vkDestroyFence", fence)
    call(
        "vkQueueSubmit",
        handles.queue,
        1,
        [vk.VkSubmitInfo(pCommandBuffers=[command])],
        fence,
    )
    try:
        vk.vkWaitForFences(device, 1, [fence], vk.VK_TRUE, int(timeout * 1e9))
    except vk.VkTimeout:
        vk.vkDeviceWaitIdle(device)  # objects in use cannot be destroyed
        raise VulkanError(f"the dispatch did not finish within {timeout:g} s") from None
    except vk.VkError as exc:
        raise VulkanError(f"vkWaitForFences failed: {type(exc).__name__}") from None

    results: list[bytes] = []
    for memory, data in zip(memories, buffers, strict=True):
        mapped = call("vkMapMemory", device, memory, 0, len(data), 0)
        results.append(bytes(mapped))
        vk.vkUnmapMemory(device, memory)
    return results
