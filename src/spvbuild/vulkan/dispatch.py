"""One compute dispatch on an open device: shader module, pipeline, buffers in host
memory, descriptor sets, command buffer, submission and read-back.

Buffers are bound where the :class:`~spvbuild.vulkan.bindings.BindingPlan` puts them, as
uniform or storage buffers; push constants (if any) are one range visible to the compute
stage.  Every object made for the dispatch is destroyed again, also when a call fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from typing import Any, NamedTuple

from spvbuild.vulkan.bindings import BindingPlan
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
    plan: BindingPlan,
) -> list[bytes]:
    """Dispatch ``entry_point`` once with ``group_count`` workgroups; the buffers after it.

    The arguments are checked already (:func:`~spvbuild.vulkan.arguments.check_arguments`)
    and ``plan`` says where each buffer goes (:func:`~spvbuild.vulkan.bindings.plan_bindings`).
    """
    with ExitStack() as stack:
        return _dispatch(
            handles,
            stack,
            spirv_words,
            buffers,
            group_count,
            entry_point,
            push_constants,
            timeout,
            plan,
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
    plan: BindingPlan,
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

    kinds = {
        "uniform_buffer": vk.VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        "storage_buffer": vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    }
    usages = {
        "uniform_buffer": vk.VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
        "storage_buffer": vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
    }
    set_layouts = []
    for set_number in range(plan.set_count):
        bindings = [
            vk.VkDescriptorSetLayoutBinding(
                binding=slot.binding,
                descriptorType=kinds[slot.kind],
                descriptorCount=1,
                stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT,
            )
            for slot in plan.slots
            if slot.set == set_number
        ]
        set_layout = call(
            "vkCreateDescriptorSetLayout",
            device,
            vk.VkDescriptorSetLayoutCreateInfo(pBindings=bindings or None),
            None,
        )
        destroy("vkDestroyDescriptorSetLayout", set_layout)
        set_layouts.append(set_layout)

    ranges: list[Any] = []
    if plan.push_range is not None:
        start, size = plan.push_range
        ranges.append(
            vk.VkPushConstantRange(
                stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT, offset=start, size=size
            )
        )
    layout = call(
        "vkCreatePipelineLayout",
        device,
        vk.VkPipelineLayoutCreateInfo(pSetLayouts=set_layouts, pPushConstantRanges=ranges or None),
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
    for data, slot in zip(buffers, plan.slots, strict=True):
        handle = call(
            "vkCreateBuffer",
            device,
            vk.VkBufferCreateInfo(
                size=len(data),
                usage=usages[slot.kind],
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
            maxSets=plan.set_count,
            pPoolSizes=[
                vk.VkDescriptorPoolSize(
                    type=kinds[kind],
                    descriptorCount=sum(slot.kind == kind for slot in plan.slots),
                )
                for kind in sorted({slot.kind for slot in plan.slots})
            ],
        ),
        None,
    )
    destroy("vkDestroyDescriptorPool", pool)  # frees its sets too
    descriptor_sets = call(
        "vkAllocateDescriptorSets",
        device,
        vk.VkDescriptorSetAllocateInfo(
            descriptorPool=pool, descriptorSetCount=len(set_layouts), pSetLayouts=set_layouts
        ),
    )
    writes = [
        vk.VkWriteDescriptorSet(
            dstSet=descriptor_sets[slot.set],
            dstBinding=slot.binding,
            descriptorType=kinds[slot.kind],
            pBufferInfo=[vk.VkDescriptorBufferInfo(buffer=handle, offset=0, range=len(data))],
        )
        for slot, handle, data in zip(plan.slots, buffer_handles, buffers, strict=True)
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
        command,
        vk.VK_PIPELINE_BIND_POINT_COMPUTE,
        layout,
        0,
        len(descriptor_sets),
        list(descriptor_sets),
        0,
        None,
    )
    if push_constants is not None and plan.push_range is not None:
        start, size = plan.push_range
        vk.vkCmdPushConstants(
            command,
            layout,
            vk.VK_SHADER_STAGE_COMPUTE_BIT,
            start,
            size,
            vk.ffi.new("char[]", bytes(push_constants[start:])),
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
