"""From a module to its :class:`~spvbuild.reflection.records.Reflection`: entry points and
what each uses, descriptor bindings, push-constant blocks, specialization constants, stage
inputs and outputs.

Resources are classified by storage class, type and decorations, as the Vulkan
specification's "Shader Resource Interface" chapter does: a UniformConstant sampler,
image, sampled image or acceleration structure; a Uniform Block (uniform buffer) or
BufferBlock (storage buffer); a StorageBuffer block; arrays of any of these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, Union

from spvbuild.binary.read_module import ReadModule
from spvbuild.binary.reader import read
from spvbuild.errors import ArgumentError, ReflectionError
from spvbuild.generated.core import opcodes as op
from spvbuild.generated.core.enums import BuiltIn, Decoration
from spvbuild.reflection.constants import SPEC_OPCODES, ConstantValues
from spvbuild.reflection.module_facts import ModuleFacts, enum_name, word
from spvbuild.reflection.records import (
    ArraySize,
    BlockLayout,
    DescriptorBinding,
    DescriptorType,
    EntryPoint,
    ExecutionModeInfo,
    PushConstantBlock,
    Reflection,
    SpecConstant,
    StageVariable,
    TypeInfo,
    WorkgroupDimension,
    WorkgroupSize,
)
from spvbuild.reflection.type_table import TypeTable, struct_end
from spvbuild.spirv.call_site import located
from spvbuild.spirv.ids import Id

if TYPE_CHECKING:
    from spvbuild.ir.module import Module

__all__ = ["STAGES", "reflect"]

# ExecutionModel name → the short stage name tools use (glslang's -S, SPIRV-Cross's mode).
STAGES = {
    "Vertex": "vert",
    "TessellationControl": "tesc",
    "TessellationEvaluation": "tese",
    "Geometry": "geom",
    "Fragment": "frag",
    "GLCompute": "comp",
    "Kernel": "kernel",
    "TaskNV": "task",
    "MeshNV": "mesh",
    "TaskEXT": "task",
    "MeshEXT": "mesh",
    "RayGenerationKHR": "rgen",
    "IntersectionKHR": "rint",
    "AnyHitKHR": "rahit",
    "ClosestHitKHR": "rchit",
    "MissKHR": "rmiss",
    "CallableKHR": "rcall",
}

SpecKind = Literal["scalar", "composite", "operation"]
ModuleLike = Union["Module", ReadModule, bytes, bytearray, memoryview, Sequence[int]]
"""What :func:`reflect` takes: a module being built, a module read, or a binary."""


def reflect(module: ModuleLike) -> Reflection:
    """What a runtime needs to bind ``module``: its entry points, descriptor bindings,
    push-constant blocks, specialization constants, stage interfaces, capabilities,
    extensions and memory model (see :class:`~spvbuild.reflection.records.Reflection`).

    ``module`` is a :class:`~spvbuild.ir.module.Module` (reflected as it serializes), a
    module :func:`spvbuild.read` gave, or the binary itself (bytes, or a sequence of
    32-bit words).  A binary that does not read raises
    :class:`~spvbuild.errors.BinaryError`; one that reads but declares what reflection
    cannot follow (an id used as a type that declares none) raises
    :class:`~spvbuild.errors.ReflectionError`.
    """
    read_module = _as_read_module(module)
    try:
        return _Reflector(read_module).reflection()
    except RecursionError:
        raise ReflectionError(
            "types or constants nest too deeply to reflect (a chain of thousands of arrays, "
            "structs or composites)"
        ) from None


def _as_read_module(module: object) -> ReadModule:
    if isinstance(module, ReadModule):
        return module
    if isinstance(module, bytes | bytearray | memoryview):
        return read(module)
    from spvbuild.ir.module import Module

    if isinstance(module, Module):
        return read(module.to_bytes())
    if isinstance(module, Sequence) and not isinstance(module, str):
        return read(module)
    raise ArgumentError(
        located(
            "reflect: module must be a Module, a module spvbuild.read gave, or a SPIR-V "
            f"binary (bytes or 32-bit words), not {type(module).__name__}"
        )
    )


class _Reflector:
    def __init__(self, module: ReadModule) -> None:
        self.module = module
        self.facts = facts = ModuleFacts(module.instructions)
        self.constants = ConstantValues(facts)
        self.types = TypeTable(facts, self.constants)

    def reflection(self) -> Reflection:
        facts = self.facts
        bindings: list[DescriptorBinding] = []
        push_constants: list[PushConstantBlock] = []
        for vid in facts.global_order:
            storage = enum_name(facts.globals[vid].operands[0])
            if storage == "PushConstant":
                push_constants.append(self._push_constant(vid))
            elif storage in ("UniformConstant", "Uniform", "StorageBuffer"):
                found = self._binding(vid, storage)
                if found is not None:
                    bindings.append(found)
        bindings.sort(key=lambda b: (b.set, b.binding, b.variable_id))
        model = facts.memory_model
        return Reflection(
            version=self.module.version,
            generator=self.module.generator,
            addressing_model=enum_name(model.operands[0]) if model else None,
            memory_model=enum_name(model.operands[1]) if model else None,
            capabilities=tuple(facts.capabilities),
            extensions=tuple(facts.extensions),
            ext_inst_imports=tuple(facts.imports),
            entry_points=tuple(self._entry_point(e, bindings) for e in facts.entry_points),
            descriptor_bindings=tuple(bindings),
            push_constants=tuple(push_constants),
            spec_constants=tuple(self._spec_constants()),
        )

    # -- variables ------------------------------------------------------------------

    def _pointee(self, vid: int) -> TypeInfo:
        variable = self.facts.globals[vid]
        if variable.result_type is None:
            raise ReflectionError(f"OpVariable %{vid} has no result type")
        pointer = self.types.info(word(variable.result_type))
        if pointer.kind != "pointer" or pointer.element is None:
            raise ReflectionError(
                f"OpVariable %{vid}: its result type %{word(variable.result_type)} is "
                f"{pointer.kind}, not a pointer"
            )
        return pointer.element

    def _literal(self, target: int, number: int) -> int | None:
        found = self.facts.decoration(target, number)
        return word(found[0]) if found else None

    def _binding(self, vid: int, storage: str) -> DescriptorBinding | None:
        pointee = self._pointee(vid)
        dimensions: tuple[ArraySize, ...] = ()
        resource = pointee
        if pointee.kind in ("array", "runtime_array") and pointee.element is not None:
            dimensions, resource = pointee.dimensions, pointee.element
        block: BlockLayout | None = None
        readonly = self.facts.decoration(vid, Decoration.NonWritable) is not None
        writeonly = self.facts.decoration(vid, Decoration.NonReadable) is not None
        kind: DescriptorType
        if resource.kind == "struct":
            if storage == "UniformConstant":
                return None
            decorated_block = self.facts.decoration(resource.id, Decoration.Block) is not None
            buffer_block = self.facts.decoration(resource.id, Decoration.BufferBlock) is not None
            if storage == "StorageBuffer" or buffer_block:
                kind = "storage_buffer"
            elif decorated_block:
                kind = "uniform_buffer"
            else:
                return None
            block = self._block(resource)
            if block.members:
                readonly = readonly or all(m.readonly for m in block.members)
                writeonly = writeonly or all(m.writeonly for m in block.members)
        elif resource.kind == "sampler":
            kind = "sampler"
        elif resource.kind == "sampled_image":
            kind = "combined_image_sampler"
            if resource.image is not None and resource.image.dim == "Buffer":
                kind = "uniform_texel_buffer"
        elif resource.kind == "image" and resource.image is not None:
            image = resource.image
            if image.dim == "SubpassData":
                kind = "input_attachment"
            elif image.dim == "Buffer":
                kind = "storage_texel_buffer" if image.sampled == 2 else "uniform_texel_buffer"
            else:
                kind = "storage_image" if image.sampled == 2 else "sampled_image"
        elif resource.kind == "acceleration_structure":
            kind = "acceleration_structure"
        else:
            return None
        return DescriptorBinding(
            variable_id=vid,
            name=self.facts.names.get(vid, ""),
            set=self._literal(vid, Decoration.DescriptorSet) or 0,
            binding=self._literal(vid, Decoration.Binding) or 0,
            descriptor_type=kind,
            type=pointee,
            dimensions=dimensions,
            block=block,
            readonly=readonly,
            writeonly=writeonly,
            image=resource.image,
            input_attachment_index=self._literal(vid, Decoration.InputAttachmentIndex),
            storage_class=storage,
        )

    def _block(self, struct: TypeInfo) -> BlockLayout:
        members = struct.members
        size = struct_end(members)
        last = members[-1] if members else None
        stride = None
        if last is not None and last.type.kind == "runtime_array":
            stride = last.type.array_stride
        return BlockLayout(struct.id, struct.glsl, size, members, stride)

    def _push_constant(self, vid: int) -> PushConstantBlock:
        pointee = self._pointee(vid)
        if pointee.kind != "struct":
            raise ReflectionError(
                f"PushConstant variable %{vid} points to a {pointee.kind}, not a struct"
            )
        block = self._block(pointee)
        offsets = [m.offset for m in block.members if m.offset is not None]
        start = min(offsets) if offsets else 0
        return PushConstantBlock(
            variable_id=vid,
            name=self.facts.names.get(vid, ""),
            block=block,
            offset=start,
            size=block.size - start,
        )

    def _stage_variable(self, vid: int, storage: str) -> StageVariable:
        facts = self.facts
        builtin = facts.decoration(vid, Decoration.BuiltIn)
        return StageVariable(
            variable_id=vid,
            name=facts.names.get(vid, ""),
            storage_class="Input" if storage == "Input" else "Output",
            type=self._pointee(vid),
            location=self._literal(vid, Decoration.Location),
            component=self._literal(vid, Decoration.Component),
            builtin=enum_name(builtin[0]) if builtin else None,
            patch=facts.decoration(vid, Decoration.Patch) is not None,
            flat=facts.decoration(vid, Decoration.Flat) is not None,
            index=self._literal(vid, Decoration.Index),
        )

    # -- entry points ---------------------------------------------------------------

    def _entry_point(self, inst: Any, bindings: list[DescriptorBinding]) -> EntryPoint:
        facts = self.facts
        model = enum_name(inst.operands[0])
        function = word(inst.operands[1])
        interface = tuple(word(i) for i in inst.operands[3])
        modes = tuple(
            self._mode(m) for m in facts.execution_modes if word(m.operands[0]) == function
        )
        used: set[int] = set()
        for reached in facts.reachable(function):
            used.update(facts.function_refs.get(reached, ()))
        static_uses = tuple(sorted(v for v in used if v in facts.globals))
        inputs: list[StageVariable] = []
        outputs: list[StageVariable] = []
        for vid in sorted(set(interface)):
            variable = facts.globals.get(vid)
            if variable is None:
                continue
            storage = enum_name(variable.operands[0])
            if storage == "Input":
                inputs.append(self._stage_variable(vid, storage))
            elif storage == "Output":
                outputs.append(self._stage_variable(vid, storage))
        uses = set(static_uses)
        push = tuple(
            v for v in static_uses if enum_name(facts.globals[v].operands[0]) == "PushConstant"
        )
        return EntryPoint(
            name=str(inst.operands[2]),
            execution_model=model,
            stage=STAGES.get(model, model),
            function_id=function,
            execution_modes=modes,
            workgroup_size=self._workgroup_size(modes),
            interface=interface,
            static_uses=static_uses,
            inputs=tuple(inputs),
            outputs=tuple(outputs),
            bindings=tuple(sorted({(b.set, b.binding) for b in bindings if b.variable_id in uses})),
            push_constants=push,
        )

    def _mode(self, inst: Any) -> ExecutionModeInfo:
        mode = inst.operands[1]
        parameters = getattr(mode, "parameters", ())
        values = tuple(word(v) for v in _flat(parameters))
        return ExecutionModeInfo(
            enum_name(mode), values, by_id=inst.opcode == op.OP_EXECUTION_MODE_ID
        )

    def _dimension(self, cid: int) -> WorkgroupDimension:
        value = self.constants.value(cid)
        size = value if isinstance(value, int) and not isinstance(value, bool) else None
        if not self.constants.is_spec(cid):
            return WorkgroupDimension(size, cid)
        return WorkgroupDimension(size, cid, self._literal(cid, Decoration.SpecId))

    def _workgroup_size(self, modes: tuple[ExecutionModeInfo, ...]) -> WorkgroupSize | None:
        facts = self.facts
        for cid in facts.constant_order:
            found = facts.decoration(cid, Decoration.BuiltIn)
            if found and int(found[0]) == int(BuiltIn.WorkgroupSize):
                parts = facts.constants[cid].operands
                items = parts[0] if parts and isinstance(parts[0], tuple) else ()
                if len(items) == 3:
                    x, y, z = (self._dimension(word(i)) for i in items)
                    return WorkgroupSize(x, y, z, "WorkgroupSize")
        for mode in modes:
            if mode.mode == "LocalSizeId" and len(mode.operands) == 3:
                x, y, z = (self._dimension(i) for i in mode.operands)
                return WorkgroupSize(x, y, z, "LocalSizeId")
            if mode.mode == "LocalSize" and len(mode.operands) == 3:
                x, y, z = (WorkgroupDimension(v) for v in mode.operands)
                return WorkgroupSize(x, y, z, "LocalSize")
        return None

    # -- specialization constants ---------------------------------------------------

    def _spec_constants(self) -> list[SpecConstant]:
        facts = self.facts
        found: list[SpecConstant] = []
        for cid in facts.constant_order:
            inst = facts.constants[cid]
            if inst.opcode not in SPEC_OPCODES or inst.result_type is None:
                continue
            kind: SpecKind
            if inst.opcode == op.OP_SPEC_CONSTANT_OP:
                kind = "operation"
                operation: str | None = "Op" + enum_name(inst.operands[0])
                parts = tuple(_flat(inst.operands[1:]))
            elif inst.opcode in (
                op.OP_SPEC_CONSTANT_COMPOSITE,
                op.OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT,
            ):
                kind, operation = "composite", None
                parts = tuple(_flat(inst.operands))
            else:
                kind, operation, parts = "scalar", None, ()
            found.append(
                SpecConstant(
                    id=cid,
                    spec_id=self._literal(cid, Decoration.SpecId),
                    name=facts.names.get(cid, ""),
                    type=self.types.info(word(inst.result_type)),
                    kind=kind,
                    default=self.constants.value(cid),
                    operation=operation,
                    constituents=tuple(word(p) for p in parts if isinstance(p, Id)),
                )
            )
        return found


def _flat(values: Any) -> list[Any]:
    """The values of nested operand tuples, in order."""
    out: list[Any] = []
    for value in values:
        if isinstance(value, tuple):
            out.extend(_flat(value))
        else:
            out.append(value)
    return out
