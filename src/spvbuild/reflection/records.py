"""The records :func:`spvbuild.reflect` gives: what a runtime needs to bind a module.

Plain frozen dataclasses, built once by :mod:`spvbuild.reflection.analysis` and never changed;
:mod:`spvbuild.reflection.json_form` turns them into JSON by the schema it documents.  Ids are
the module's own numbers; names are its debug names (``""`` where it has none).  Sizes,
offsets and strides are in bytes, as the module's decorations give them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ArraySize",
    "BlockLayout",
    "DescriptorBinding",
    "DescriptorType",
    "EntryPoint",
    "ExecutionModeInfo",
    "ImageInfo",
    "Member",
    "PushConstantBlock",
    "Reflection",
    "SpecConstant",
    "SpecValue",
    "SHOWN_SCALARS",
    "scalar_count",
    "StageVariable",
    "TypeInfo",
    "TypeKind",
    "WorkgroupDimension",
    "WorkgroupSize",
]

TypeKind = Literal[
    "void",
    "bool",
    "int",
    "float",
    "vector",
    "matrix",
    "array",
    "runtime_array",
    "struct",
    "pointer",
    "image",
    "sampler",
    "sampled_image",
    "acceleration_structure",
    "function",
    "other",
]
"""What a type is, by its declaring instruction (``other``: a type reflection does not
describe further, such as an event or a ray query)."""

DescriptorType = Literal[
    "sampler",
    "combined_image_sampler",
    "sampled_image",
    "storage_image",
    "uniform_texel_buffer",
    "storage_texel_buffer",
    "uniform_buffer",
    "storage_buffer",
    "input_attachment",
    "acceleration_structure",
]
"""The Vulkan descriptor type a variable binds to (``VK_DESCRIPTOR_TYPE_*`` in lower case)."""

SpecValue = bool | int | float | tuple["SpecValue", ...] | None
"""A constant's value at its defaults: a scalar, a tuple for a composite, ``None`` where it
cannot be worked out (an operation reflection does not evaluate, a type it does not know).

A composite's tuple shares the tuples of the constants it is made of, so a value nested
``c_k = {c_(k-1), c_(k-1)}`` takes memory linear in the module while holding ``2**k``
scalars; :func:`scalar_count` counts them without walking the tree."""

SHOWN_SCALARS = 1024
"""The most scalars a default holds for the JSON and text forms to write it out; a larger
one is written as ``null`` (JSON) or by its count (text), so that their size stays linear in
the module's."""


def scalar_count(value: SpecValue) -> int:
    """How many scalars ``value`` holds (a ``None`` counts as one), each shared tuple
    counted once per place it appears but walked once."""
    counts: dict[int, int] = {}

    def count(item: SpecValue) -> int:
        if not isinstance(item, tuple):
            return 1
        known = counts.get(id(item))
        if known is None:
            known = counts[id(item)] = sum(count(part) for part in item)
        return known

    return count(value)


@dataclass(frozen=True, slots=True)
class ArraySize:
    """One dimension of an array: its length, and where a specialization constant sets it."""

    length: int | None
    """The length at the constants' defaults; 0 for a runtime array, ``None`` when it cannot
    be worked out."""
    constant_id: int | None = None
    """The id of the constant that sets the length when that constant is a specialization
    constant (or an operation on some); ``None`` for a literal length."""
    spec_id: int | None = None
    """That constant's SpecId decoration, when it has one."""
    stride: int | None = None
    """The ArrayStride of the array type this dimension is (the bytes from one element of
    this dimension to the next), when decorated."""


@dataclass(frozen=True, slots=True)
class ImageInfo:
    """The operands of an OpTypeImage."""

    dim: str
    """The Dim enumerant's name: ``Dim1D``, ``Dim2D``, ``Dim3D``, ``Cube``, ``Rect``,
    ``Buffer``, ``SubpassData``, ..."""
    depth: int
    """0 not a depth image, 1 a depth image, 2 not said."""
    arrayed: bool
    multisampled: bool
    sampled: int
    """0 known at run time, 1 used with a sampler, 2 used without (storage)."""
    format: str
    """The ImageFormat enumerant's name (``Unknown``, ``Rgba8``, ``R32f``, ...)."""
    sampled_type: str
    """The GLSL name of the sampled component type (``float``, ``int``, ``uint``, ...)."""


@dataclass(frozen=True, slots=True)
class TypeInfo:
    """A type, described by its declaring instruction and the layout decorations on it.

    Only the fields of its kind are set: ``width``/``signed`` for scalars (and the
    components of vectors and matrices), ``components`` for vectors, ``columns`` and
    ``rows`` for matrices, ``element`` and ``dimensions`` for arrays (outermost first),
    ``members`` for structs, ``storage_class`` and ``element`` for pointers, ``image`` for
    images and sampled images.
    """

    id: int
    kind: TypeKind
    glsl: str
    """A GLSL spelling: ``vec4``, ``uint``, ``mat3x4``, ``i16vec2``, ``sampler2DArray``,
    ``image2D``, ``accelerationStructureEXT``; a struct's debug name (``_<id>`` without
    one); an array's element spelling (its dimensions are in ``dimensions``)."""
    width: int | None = None
    """Bits of a scalar, or of a vector's or matrix's component."""
    signed: bool | None = None
    components: int | None = None
    columns: int | None = None
    rows: int | None = None
    element: TypeInfo | None = None
    """An array's innermost element type, a pointer's pointee, a vector's or matrix's
    component type, a sampled image's image."""
    dimensions: tuple[ArraySize, ...] = ()
    array_stride: int | None = None
    """The ArrayStride of the outermost dimension, when decorated."""
    members: tuple[Member, ...] = ()
    storage_class: str | None = None
    image: ImageInfo | None = None
    size: int | None = None
    """Bytes the type takes in an explicitly laid-out block: a scalar's or vector's own
    size, a matrix's columns (rows when row-major) times its MatrixStride, an array's
    length times its stride (0 for a runtime array), a struct's end: the largest member
    offset plus that member's size; ``None`` where a layout does not say (no stride, or a
    type without a size such as an image)."""


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a struct, with its layout decorations."""

    index: int
    name: str
    type: TypeInfo
    offset: int | None
    """The Offset decoration (``None`` when the struct has no explicit layout)."""
    size: int | None
    """Bytes the member takes (see :attr:`TypeInfo.size`); 0 for a runtime array."""
    array_stride: int | None
    """The ArrayStride of the member's type, when it is an array."""
    matrix_stride: int | None
    """The MatrixStride decoration of a matrix member (or a member array of matrices)."""
    row_major: bool
    """RowMajor decoration (matrices are column-major without it)."""
    builtin: str | None = None
    """The BuiltIn decoration on the member (in a block of built-in outputs)."""
    location: int | None = None
    component: int | None = None
    readonly: bool = False
    """NonWritable decoration on the member."""
    writeonly: bool = False
    """NonReadable decoration on the member."""


@dataclass(frozen=True, slots=True)
class BlockLayout:
    """A block (uniform, storage or push-constant): its struct and how it is laid out."""

    type_id: int
    name: str
    """The struct's debug name."""
    size: int
    """Bytes from offset 0 to the end of the member that ends last, a runtime array counted
    as 0 elements (the block's *declared size*)."""
    members: tuple[Member, ...]
    runtime_array_stride: int | None
    """The stride of a last member that is a runtime array: the buffer holds ``size +
    n * runtime_array_stride`` bytes for ``n`` elements; ``None`` without one."""


@dataclass(frozen=True, slots=True)
class DescriptorBinding:
    """A resource variable bound through a descriptor set."""

    variable_id: int
    name: str
    """The variable's debug name."""
    set: int
    binding: int
    descriptor_type: DescriptorType
    type: TypeInfo
    """The variable's pointee type (arrays of resources included)."""
    dimensions: tuple[ArraySize, ...]
    """An array of resources: its dimensions, outermost first (0: runtime-sized)."""
    block: BlockLayout | None
    """For uniform and storage buffers: the block's layout."""
    readonly: bool
    """NonWritable on the variable, or on every member of its block."""
    writeonly: bool
    """NonReadable on the variable, or on every member of its block."""
    image: ImageInfo | None
    """For images, sampled images and texel buffers: the image type's operands."""
    input_attachment_index: int | None
    """The InputAttachmentIndex decoration of an input attachment."""
    storage_class: str
    """The variable's storage class (``UniformConstant``, ``Uniform``, ``StorageBuffer``)."""


@dataclass(frozen=True, slots=True)
class PushConstantBlock:
    """A push-constant block and the range a pipeline layout gives it."""

    variable_id: int
    name: str
    """The variable's debug name."""
    block: BlockLayout
    offset: int
    """The offset of the member that starts first (``VkPushConstantRange::offset``)."""
    size: int
    """Bytes from :attr:`offset` to the block's end (``VkPushConstantRange::size``)."""


@dataclass(frozen=True, slots=True)
class SpecConstant:
    """A specialization constant: an OpSpecConstant* instruction."""

    id: int
    spec_id: int | None
    """The SpecId decoration (``None`` for composites and operations, which have none)."""
    name: str
    type: TypeInfo
    kind: Literal["scalar", "composite", "operation"]
    default: SpecValue
    """The value at every constant's default (see :data:`SpecValue`)."""
    operation: str | None = None
    """For OpSpecConstantOp: the operation's opcode name (``OpIMul``, ...)."""
    constituents: tuple[int, ...] = ()
    """For composites and operations: the ids they are made of."""


@dataclass(frozen=True, slots=True)
class StageVariable:
    """A stage input or output variable."""

    variable_id: int
    name: str
    storage_class: Literal["Input", "Output"]
    type: TypeInfo
    """The pointee type."""
    location: int | None
    component: int | None
    builtin: str | None
    """The BuiltIn decoration on the variable; for a block of built-ins see
    :attr:`TypeInfo.members` (each member's ``builtin``)."""
    patch: bool = False
    flat: bool = False
    index: int | None = None
    """The Index decoration (dual-source blending)."""


@dataclass(frozen=True, slots=True)
class WorkgroupDimension:
    """One dimension of a workgroup size."""

    size: int | None
    """The size at the constants' defaults (``None`` when it cannot be worked out)."""
    constant_id: int | None = None
    """The id that sets the size when it is a (specialization) constant id, else ``None``."""
    spec_id: int | None = None
    """That constant's SpecId, when it is a specialization constant with one."""


@dataclass(frozen=True, slots=True)
class WorkgroupSize:
    """An entry point's workgroup size and what sets it."""

    x: WorkgroupDimension
    y: WorkgroupDimension
    z: WorkgroupDimension
    source: Literal["LocalSize", "LocalSizeId", "WorkgroupSize"]
    """What sets it: the LocalSize or LocalSizeId execution mode, or a constant decorated
    BuiltIn WorkgroupSize (which wins over both, as the specification says)."""


@dataclass(frozen=True, slots=True)
class ExecutionModeInfo:
    """An OpExecutionMode or OpExecutionModeId of an entry point."""

    mode: str
    """The ExecutionMode enumerant's name."""
    operands: tuple[int, ...]
    """Its literal operands, or for OpExecutionModeId the ids."""
    by_id: bool = False


@dataclass(frozen=True, slots=True)
class EntryPoint:
    """An OpEntryPoint and what it uses."""

    name: str
    execution_model: str
    """The ExecutionModel enumerant's name (``GLCompute``, ``Fragment``, ...)."""
    stage: str
    """The short stage name (``vert``, ``frag``, ``comp``, ``rgen``, ..., ``kernel``)."""
    function_id: int
    execution_modes: tuple[ExecutionModeInfo, ...]
    workgroup_size: WorkgroupSize | None
    interface: tuple[int, ...]
    """The interface ids OpEntryPoint lists."""
    static_uses: tuple[int, ...]
    """The global variables its functions (the entry function and every function it calls)
    reference, in id order."""
    inputs: tuple[StageVariable, ...]
    """Its Input variables (from the interface), in id order."""
    outputs: tuple[StageVariable, ...]
    """Its Output variables (from the interface), in id order."""
    bindings: tuple[tuple[int, int], ...]
    """The (set, binding) pairs of the descriptor bindings it uses statically, sorted."""
    push_constants: tuple[int, ...]
    """The variable ids of the push-constant blocks it uses statically."""


@dataclass(frozen=True, slots=True)
class Reflection:
    """What :func:`spvbuild.reflect` finds in a module."""

    version: tuple[int, int]
    generator: int
    addressing_model: str | None
    memory_model: str | None
    capabilities: tuple[str, ...]
    """The declared capabilities' names, in module order."""
    extensions: tuple[str, ...]
    ext_inst_imports: tuple[str, ...]
    entry_points: tuple[EntryPoint, ...]
    descriptor_bindings: tuple[DescriptorBinding, ...]
    """Every descriptor-bound variable of the module, sorted by (set, binding, id)."""
    push_constants: tuple[PushConstantBlock, ...]
    spec_constants: tuple[SpecConstant, ...]
    """Every OpSpecConstant* of the module, in module order."""

    def binding(self, set: int, binding: int) -> DescriptorBinding:  # noqa: A002
        """The descriptor binding at (``set``, ``binding``); KeyError when there is none."""
        for found in self.descriptor_bindings:
            if found.set == set and found.binding == binding:
                return found
        raise KeyError(f"no descriptor binding at set {set}, binding {binding}")

    def entry_point(self, name: str) -> EntryPoint:
        """The entry point named ``name`` (the first, when several models share it);
        KeyError when there is none."""
        for found in self.entry_points:
            if found.name == name:
                return found
        raise KeyError(f"no entry point named {name!r}")

    def spec_constant(self, spec_id: int) -> SpecConstant:
        """The specialization constant with SpecId ``spec_id``; KeyError when none has it."""
        for found in self.spec_constants:
            if found.spec_id == spec_id:
                return found
        raise KeyError(f"no specialization constant with SpecId {spec_id}")
