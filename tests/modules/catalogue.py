"""The module catalogue: varied SPIR-V modules built only through the public API.

Every entry is a builder ``steps(m, s)`` plus metadata (name, SPIR-V version, spirv-val
target env, :class:`~spvbuild.ir.module.Module` keyword arguments, the capabilities and
extensions the module must come out with).  ``Entry.build(m)`` runs it in its natural
order; ``Entry.words(entry.scrambler(seed))`` builds it in a scrambled order.

What is scrambled, exactly
--------------------------
Ids are numbered in creation order and the module keeps, inside one logical-layout
section, the order of the calls.  So a builder separates two kinds of calls:

* calls that create ids (types, constants, variables, strings, imports, function bodies)
  run inline, in program order, in both builds;
* calls that create no id and only reference existing ones (OpCapability, OpExtension,
  OpMemoryModel, OpEntryPoint, OpExecutionMode(Id), OpName/OpMemberName, OpDecorate and
  friends, OpModuleProcessed) go through the :class:`Steps` object ``s``.

In the natural build ``s`` runs each step at once.  In a scrambled build it queues the
step and, at every later step registration, runs a random number of queued steps drawn at
random from the queues; the rest run at the end in a random interleaving.  So a
capability or the memory model may land after the function bodies, a decoration in the
middle of another function's body, an entry point before the names, and so on.  Steps of
the capability and extension sections are drawn in any order (the module sorts them, in its
default "infer" mode), as is the single OpMemoryModel; steps of the other sections keep
their relative order within their section (the module writes those sections in call
order).  Builders therefore never route a call through ``s`` whose section also receives
id-creating calls (OpSource next to OpString), and never name through
``define_function(name=...)`` (an inline OpName).

Not scrambled: the order of id-creating calls (it decides the ids and, inside a section,
the positions), hence the order of whole functions (a Module keeps one function open at a
time and writes functions in creation order).  The natural builds already mix sections
freely, though: types and constants are created inside function bodies, globals between
functions, callees and DebugFunction targets are referenced before they are defined.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, ParamSpec, TypedDict

from spvbuild import Id, TypeId
from spvbuild.enums import (
    AccessQualifier,
    AddressingModel,
    BuiltIn,
    Capability,
    Decoration,
    DecorationArrayStride,
    DecorationBinding,
    DecorationBuiltIn,
    DecorationDescriptorSet,
    DecorationFuncParamAttr,
    DecorationLinkageAttributes,
    DecorationLocation,
    DecorationMatrixStride,
    DecorationOffset,
    DecorationSpecId,
    Dim,
    ExecutionMode,
    ExecutionModel,
    ExecutionModeLocalSize,
    ExecutionModeLocalSizeId,
    FunctionControl,
    FunctionParameterAttribute,
    GroupOperation,
    ImageFormat,
    ImageOperandsLod,
    LinkageType,
    LoopControl,
    MemoryAccess,
    MemoryAccessAligned,
    MemoryAccessMakePointerAvailable,
    MemoryAccessMakePointerVisible,
    MemoryModel,
    MemorySemantics,
    Op,
    Scope,
    SelectionControl,
    StorageClass,
)
from spvbuild.ir.module import Module

P = ParamSpec("P")

SORTED_SECTIONS = frozenset({"capabilities", "extensions"})
"""Sections a Module in the default ``capabilities="infer"`` mode sorts on output.

In the ``"verify"`` and ``"off"`` modes it writes the declared capabilities and extensions in
call order, so :class:`Steps` then keeps their order (``heads_sorted=False``)."""


class Steps:
    """Module-level calls that create no id: run now (``rng=None``) or in a scrambled order.

    ``eagerness`` is the chance, after each registration, of running one more queued step
    (repeatedly); 0 defers every step to :meth:`finish`.  ``keep_section_order=False`` also
    draws the steps of order-sensitive sections in any order (the module does not sort those
    sections, so the words then differ; see the xfail test).  :attr:`trace` lists the
    registration numbers of the steps in the order they ran.
    """

    def __init__(
        self,
        rng: random.Random | None = None,
        eagerness: float = 0.5,
        keep_section_order: bool = True,
        heads_sorted: bool = True,
    ) -> None:
        self._rng = rng
        self._eagerness = eagerness
        self._keep_section_order = keep_section_order
        self._any_order = {"memory_model"} | (SORTED_SECTIONS if heads_sorted else set())
        self._queues: dict[str, list[tuple[int, Callable[[], object]]]] = {}
        self.registered = 0
        self.trace: list[int] = []

    def _add(self, section: str, step: Callable[[], object]) -> None:
        number = self.registered
        self.registered += 1
        if self._rng is None:
            self.trace.append(number)
            step()
            return
        self._queues.setdefault(section, []).append((number, step))
        while self._rng.random() < self._eagerness and self._run_one():
            pass

    def _run_one(self) -> bool:
        assert self._rng is not None
        ready = [section for section, queue in self._queues.items() if queue]
        if not ready:
            return False
        section = self._rng.choice(ready)
        queue = self._queues[section]
        any_order = section in self._any_order or not self._keep_section_order
        number, step = queue.pop(self._rng.randrange(len(queue)) if any_order else 0)
        self.trace.append(number)
        step()
        return True

    def finish(self) -> None:
        """Run every queued step (in a random interleaving when scrambling)."""
        if self._rng is not None:
            while self._run_one():
                pass

    # One method per section; each takes a Module method and its arguments.
    def capability(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """An OpCapability call."""
        self._add("capabilities", lambda: fn(*args, **kwargs))

    def extension(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """An OpExtension call."""
        self._add("extensions", lambda: fn(*args, **kwargs))

    def memory_model(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """The OpMemoryModel call."""
        self._add("memory_model", lambda: fn(*args, **kwargs))

    def entry(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """An OpEntryPoint call."""
        self._add("entry_points", lambda: fn(*args, **kwargs))

    def mode(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """An OpExecutionMode / OpExecutionModeId call."""
        self._add("execution_modes", lambda: fn(*args, **kwargs))

    def debug(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """An OpName / OpMemberName call."""
        self._add("debug_names", lambda: fn(*args, **kwargs))

    def processed(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """An OpModuleProcessed call."""
        self._add("debug_module_processed", lambda: fn(*args, **kwargs))

    def annotate(self, fn: Callable[P, object], *args: P.args, **kwargs: P.kwargs) -> None:
        """An OpDecorate / OpMemberDecorate / OpDecorateId / OpDecorateString call."""
        self._add("annotations", lambda: fn(*args, **kwargs))


class ModuleOptions(TypedDict, total=False):
    """Keyword arguments for :class:`Module` (besides the version)."""

    capabilities: Literal["infer", "verify", "off"]
    merge_aggregates: bool
    check_types: bool


StepsFn = Callable[[Module, Steps], None]


@dataclass(frozen=True)
class Entry:
    """One catalogue module: its builder and what it must come out as."""

    name: str
    covers: str
    version: tuple[int, int]
    target_env: str
    steps: StepsFn
    options: ModuleOptions
    capabilities: tuple[str, ...]
    """Every OpCapability the words must hold (names; inferred and declared alike)."""
    extensions: tuple[str, ...]
    """Every OpExtension the words must hold."""
    xfail: str | None = None
    """A Module bug this entry runs into (the tests expect failure until it is fixed)."""
    val_rejects: str | None = None
    """Regex for the spirv-val error on a module spirv-val cannot accept (a tool limitation)."""

    def module(self) -> Module:
        """A fresh, empty module with this entry's version and options, the type checks
        on (every catalogue module is valid: none may be refused by a type rule)."""
        options: ModuleOptions = {"check_types": True}
        options.update(self.options)
        return Module(self.version, **options)

    def build(self, m: Module) -> None:
        """Build the module into ``m`` in the natural call order."""
        steps = Steps()
        self.steps(m, steps)
        steps.finish()

    def scrambler(
        self, seed: int, eagerness: float = 0.5, keep_section_order: bool = True
    ) -> Steps:
        """A :class:`Steps` that scrambles this entry's module-level calls (seeded)."""
        heads_sorted = self.options.get("capabilities", "infer") == "infer"
        return Steps(random.Random(seed), eagerness, keep_section_order, heads_sorted)

    def words(self, steps: Steps | None = None) -> list[int]:
        """The module's words, built naturally or through ``steps`` (e.g. a scrambling one)."""
        m = self.module()
        steps = steps or Steps()
        self.steps(m, steps)
        steps.finish()
        return m.to_words()


CATALOGUE: list[Entry] = []


def entry(
    version: tuple[int, int],
    target_env: str,
    capabilities: tuple[str, ...],
    extensions: tuple[str, ...] = (),
    options: ModuleOptions | None = None,
    xfail: str | None = None,
    val_rejects: str | None = None,
    name: str | None = None,
    note: str = "",
) -> Callable[[StepsFn], StepsFn]:
    """Register a builder under ``name`` (default: the function's name); its docstring, plus
    ``note``, says what it covers.  One builder may be registered several times."""

    def register(fn: StepsFn) -> StepsFn:
        covers = " ".join(f"{fn.__doc__ or ''} {note}".split())
        CATALOGUE.append(
            Entry(
                name or fn.__name__,
                covers,
                version,
                target_env,
                fn,
                options or {},
                capabilities,
                extensions,
                xfail,
                val_rejects,
            )
        )
        return fn

    return register


def by_name(name: str) -> Entry:
    """The catalogue entry called ``name``."""
    for item in CATALOGUE:
        if item.name == name:
            return item
    raise KeyError(name)


# -- shared pieces ---------------------------------------------------------------------------


def _shader(m: Module, s: Steps, declare: bool = True) -> None:
    """Logical GLSL450; ``declare=False`` leaves the Shader capability to inference."""
    if declare:
        s.capability(m.capability, Capability.Shader)
    s.memory_model(m.memory_model, AddressingModel.Logical, MemoryModel.GLSL450)


def _kernel(m: Module, s: Steps, declare: bool = True) -> None:
    """Physical64 OpenCL; ``declare=False`` leaves Kernel and Addresses to inference."""
    if declare:
        s.capability(m.capability, Capability.Kernel)
        s.capability(m.capability, Capability.Addresses)
    s.memory_model(m.memory_model, AddressingModel.Physical64, MemoryModel.OpenCL)


def _builtin(m: Module, s: Steps, storage: StorageClass, ty: TypeId, builtin: BuiltIn) -> Id:
    var = m.variable(m.type_pointer(storage, ty), storage)
    s.annotate(m.decorate, var, DecorationBuiltIn(builtin))
    s.debug(m.name, var, f"gl_{builtin.name}")
    return var


def _located(
    m: Module, s: Steps, storage: StorageClass, ty: TypeId, location: int, name: str
) -> Id:
    var = m.variable(m.type_pointer(storage, ty), storage)
    s.annotate(m.decorate, var, DecorationLocation(location))
    s.debug(m.name, var, name)
    return var


def _ssbo(
    m: Module, s: Steps, element: TypeId, stride: int, binding: int, name: str
) -> tuple[Id, TypeId]:
    """``buffer { element data[]; } name`` at set 0: the variable and the element pointer."""
    array = m.type_runtime_array(element)
    block = m.type_struct([array])
    var = m.variable(m.type_pointer(StorageClass.StorageBuffer, block), StorageClass.StorageBuffer)
    s.annotate(m.decorate, array, DecorationArrayStride(stride))
    s.annotate(m.decorate, block, Decoration.Block)
    s.annotate(m.member_decorate, block, 0, DecorationOffset(0))
    s.annotate(m.decorate, var, DecorationDescriptorSet(0))
    s.annotate(m.decorate, var, DecorationBinding(binding))
    s.debug(m.name, block, f"{name}_block")
    s.debug(m.member_name, block, 0, "data")
    s.debug(m.name, var, name)
    return var, m.type_pointer(StorageClass.StorageBuffer, element)


def _u32(m: Module, value: int) -> Id:
    return m.constant(m.type_int(32, 0), value)


def _compute_main(
    m: Module, s: Steps, interfaces: list[Id], size: tuple[int, int, int] = (64, 1, 1)
) -> Id:
    """``void main()`` as a GLCompute entry point; leaves the entry block open."""
    void = m.type_void()
    main = m.define_function(void).id
    s.debug(m.name, main, "main")
    s.entry(m.entry_point, ExecutionModel.GLCompute, main, "main", interfaces)
    s.mode(m.execution_mode, main, ExecutionModeLocalSize(*size))
    return main


# -- Vulkan shaders: compute, vertex, fragment, geometry -------------------------------------


@entry((1, 3), "vulkan1.1", ("Shader",))
def compute_storage_buffer(m: Module, s: Steps) -> None:
    """GLCompute, LocalSize, StorageBuffer block, GlobalInvocationId, GLSL.std.450 Sqrt/FMax."""
    _shader(m, s)
    u32, f32 = m.type_int(32, 0), m.type_float(32)
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    buf, p_f32 = _ssbo(m, s, f32, 4, 0, "values")
    _compute_main(m, s, [gid])
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    p = m.access_chain(p_f32, buf, [_u32(m, 0), x])
    v = m.glsl.sqrt(f32, m.glsl.f_max(f32, m.load(f32, p), m.constant(f32, 0.0)))
    m.store(p, m.f_mul(f32, v, m.constant(f32, 2.0)))
    m.return_().function_end()


@entry((1, 0), "vulkan1.0", ("Shader",), ("SPV_KHR_storage_buffer_storage_class",))
def compute_storage_buffer_spv10(m: Module, s: Steps) -> None:
    """SPIR-V 1.0: the StorageBuffer class infers its extension; GLSL450 infers Shader."""
    _shader(m, s, declare=False)
    u32 = m.type_int(32, 0)
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    src, p_src = _ssbo(m, s, u32, 4, 0, "src")
    dst, p_dst = _ssbo(m, s, u32, 4, 1, "dst")
    _compute_main(m, s, [gid])
    zero = _u32(m, 0)
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    value = m.load(u32, m.access_chain(p_src, src, [zero, x]))
    shifted = m.shift_left_logical(u32, value, _u32(m, 3))
    m.store(m.access_chain(p_dst, dst, [zero, x]), m.bitwise_xor(u32, shifted, _u32(m, 0xA5A5)))
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader",))
def vertex_transform(m: Module, s: Steps) -> None:
    """Vertex: Location inputs/outputs, gl_PerVertex block with BuiltIn Position/PointSize
    members, a uniform block with a column-major mat4 (MatrixStride, Offset), OpMatrixTimesVector."""
    _shader(m, s)
    f32 = m.type_float(32)
    v2, v4 = m.type_vector(f32, 2), m.type_vector(f32, 4)
    mat4 = m.type_matrix(v4, 4)
    position = _located(m, s, StorageClass.Input, v4, 0, "in_position")
    uv_in = _located(m, s, StorageClass.Input, v2, 1, "in_uv")
    uv_out = _located(m, s, StorageClass.Output, v2, 0, "out_uv")
    per_vertex = m.type_struct([v4, f32])
    s.annotate(m.decorate, per_vertex, Decoration.Block)
    s.annotate(m.member_decorate, per_vertex, 0, DecorationBuiltIn(BuiltIn.Position))
    s.annotate(m.member_decorate, per_vertex, 1, DecorationBuiltIn(BuiltIn.PointSize))
    s.debug(m.name, per_vertex, "gl_PerVertex")
    s.debug(m.member_name, per_vertex, 0, "gl_Position")
    s.debug(m.member_name, per_vertex, 1, "gl_PointSize")
    out = m.variable(m.type_pointer(StorageClass.Output, per_vertex), StorageClass.Output)
    ubo_type = m.type_struct([mat4])
    s.annotate(m.decorate, ubo_type, Decoration.Block)
    s.annotate(m.member_decorate, ubo_type, 0, DecorationOffset(0))
    s.annotate(m.member_decorate, ubo_type, 0, Decoration.ColMajor)
    s.annotate(m.member_decorate, ubo_type, 0, DecorationMatrixStride(16))
    ubo = m.variable(m.type_pointer(StorageClass.Uniform, ubo_type), StorageClass.Uniform)
    s.annotate(m.decorate, ubo, DecorationDescriptorSet(0))
    s.annotate(m.decorate, ubo, DecorationBinding(0))
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.Vertex, main, "main", [position, uv_in, uv_out, out])
    s.debug(m.name, main, "main")
    i0, i1 = m.constant(m.type_int(32, 1), 0), m.constant(m.type_int(32, 1), 1)
    mvp = m.load(mat4, m.access_chain(m.type_pointer(StorageClass.Uniform, mat4), ubo, [i0]))
    clip = m.matrix_times_vector(v4, mvp, m.load(v4, position))
    m.store(m.access_chain(m.type_pointer(StorageClass.Output, v4), out, [i0]), clip)
    m.store(
        m.access_chain(m.type_pointer(StorageClass.Output, f32), out, [i1]), m.constant(f32, 1.0)
    )
    m.store(uv_out, m.load(v2, uv_in))
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader",))
def vertex_plain_position(m: Module, s: Steps) -> None:
    """Vertex with a plain Output vec4 decorated BuiltIn Position and BuiltIn VertexIndex input,
    positions picked from a constant array (OpConstantComposite, OpVariable with initializer)."""
    _shader(m, s, declare=False)
    f32, i32 = m.type_float(32), m.type_int(32, 1)
    v4 = m.type_vector(f32, 4)
    index = _builtin(m, s, StorageClass.Input, i32, BuiltIn.VertexIndex)
    position = _builtin(m, s, StorageClass.Output, v4, BuiltIn.Position)
    arr = m.type_array(v4, m.constant(m.type_int(32, 0), 3))
    one, zero, minus = m.constant(f32, 1.0), m.constant(f32, 0.0), m.constant(f32, -1.0)
    corners = [
        m.constant_composite(v4, [minus, minus, zero, one]),
        m.constant_composite(v4, [one, minus, zero, one]),
        m.constant_composite(v4, [zero, one, zero, one]),
    ]
    table = m.variable(
        m.type_pointer(StorageClass.Private, arr),
        StorageClass.Private,
        m.constant_composite(arr, corners),
    )
    s.debug(m.name, table, "corners")
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.Vertex, main, "main", [index, position])
    corner = m.access_chain(m.type_pointer(StorageClass.Private, v4), table, [m.load(i32, index)])
    m.store(position, m.load(v4, corner))
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader",))
def fragment_color(m: Module, s: Steps) -> None:
    """Fragment, OriginUpperLeft, Location inputs (one Flat int), BuiltIn FragCoord, Location 0
    output, an if whose then-branch ends in OpKill."""
    _shader(m, s)
    f32, i32 = m.type_float(32), m.type_int(32, 1)
    v4 = m.type_vector(f32, 4)
    color = _located(m, s, StorageClass.Input, v4, 0, "in_color")
    mode = _located(m, s, StorageClass.Input, i32, 1, "in_mode")
    s.annotate(m.decorate, mode, Decoration.Flat)
    frag = _builtin(m, s, StorageClass.Input, v4, BuiltIn.FragCoord)
    out = _located(m, s, StorageClass.Output, v4, 0, "out_color")
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.Fragment, main, "main", [color, mode, frag, out])
    s.mode(m.execution_mode, main, ExecutionMode.OriginUpperLeft)
    s.debug(m.name, main, "main")
    discard, keep = m.new_id(), m.new_id()
    bool_ = m.type_bool()
    x = m.composite_extract(f32, m.load(v4, frag), [0])
    test = m.logical_and(
        bool_,
        m.f_ord_less_than(bool_, x, m.constant(f32, 0.5)),
        m.i_equal(bool_, m.load(i32, mode), m.constant(i32, 7)),
    )
    m.selection_merge(keep, SelectionControl.None_)
    m.branch_conditional(test, discard, keep)
    m.label(result_id=discard)
    m.kill()
    m.label(result_id=keep)
    m.store(out, m.vector_times_scalar(v4, m.load(v4, color), m.constant(f32, 0.5)))
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader",))
def fragment_sampled_texture(m: Module, s: Steps) -> None:
    """Fragment: OpTypeSampledImage in UniformConstant (set/binding), OpImageSampleImplicitLod and
    OpImageSampleExplicitLod with the Lod image operand."""
    _shader(m, s)
    f32 = m.type_float(32)
    v2, v4 = m.type_vector(f32, 2), m.type_vector(f32, 4)
    image = m.type_image(f32, Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown)
    sampled = m.type_sampled_image(image)
    tex = m.variable(
        m.type_pointer(StorageClass.UniformConstant, sampled), StorageClass.UniformConstant
    )
    s.annotate(m.decorate, tex, DecorationDescriptorSet(0))
    s.annotate(m.decorate, tex, DecorationBinding(1))
    s.debug(m.name, tex, "tex")
    uv = _located(m, s, StorageClass.Input, v2, 0, "uv")
    out = _located(m, s, StorageClass.Output, v4, 0, "color")
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.Fragment, main, "main", [uv, out])
    s.mode(m.execution_mode, main, ExecutionMode.OriginUpperLeft)
    coords = m.load(v2, uv)
    texture = m.load(sampled, tex)
    a = m.image_sample_implicit_lod(v4, texture, coords)
    b = m.image_sample_explicit_lod(v4, texture, coords, ImageOperandsLod(m.constant(f32, 2.0)))
    m.store(out, m.f_add(v4, a, b))
    m.return_().function_end()


@entry((1, 5), "vulkan1.2", ("Shader",))
def compute_separate_sampler(m: Module, s: Steps) -> None:
    """SPIR-V 1.5: OpTypeSampler and a sampled OpTypeImage bound separately, OpSampledImage,
    OpImageSampleExplicitLod with Lod; every global in the entry point interface."""
    _shader(m, s)
    f32, u32 = m.type_float(32), m.type_int(32, 0)
    v2, v4 = m.type_vector(f32, 2), m.type_vector(f32, 4)
    image = m.type_image(f32, Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown)
    sampler_type = m.type_sampler()
    uc = StorageClass.UniformConstant
    texture = m.variable(m.type_pointer(uc, image), uc)
    sampler = m.variable(m.type_pointer(uc, sampler_type), uc)
    for binding, var in enumerate((texture, sampler)):
        s.annotate(m.decorate, var, DecorationDescriptorSet(1))
        s.annotate(m.decorate, var, DecorationBinding(binding))
    out, p_out = _ssbo(m, s, v4, 16, 2, "out")
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    _compute_main(m, s, [gid, texture, sampler, out], (8, 8, 1))
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    combined = m.sampled_image(
        m.type_sampled_image(image), m.load(image, texture), m.load(sampler_type, sampler)
    )
    u = m.f_mul(f32, m.convert_u_to_f(f32, x), m.constant(f32, 1.0 / 64))
    coords = m.composite_construct(v2, [u, m.constant(f32, 0.5)])
    texel = m.image_sample_explicit_lod(
        v4, combined, coords, ImageOperandsLod(m.constant(f32, 0.0))
    )
    m.store(m.access_chain(p_out, out, [_u32(m, 0), x]), texel)
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader", "ImageQuery"))
def compute_image_fetch(m: Module, s: Steps) -> None:
    """OpImage of a combined sampler, OpImageFetch with an integer Lod, OpImageQuerySizeLod
    (ImageQuery declared by the author: the grammar's any-of lists Kernel first)."""
    _shader(m, s)
    s.capability(m.capability, Capability.ImageQuery)
    f32, i32, u32 = m.type_float(32), m.type_int(32, 1), m.type_int(32, 0)
    v2i, v4 = m.type_vector(i32, 2), m.type_vector(f32, 4)
    image = m.type_image(f32, Dim.Dim2D, 0, 0, 0, 1, ImageFormat.Unknown)
    sampled = m.type_sampled_image(image)
    tex = m.variable(
        m.type_pointer(StorageClass.UniformConstant, sampled), StorageClass.UniformConstant
    )
    s.annotate(m.decorate, tex, DecorationDescriptorSet(0))
    s.annotate(m.decorate, tex, DecorationBinding(0))
    out, p_out = _ssbo(m, s, v4, 16, 1, "out")
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    _compute_main(m, s, [gid], (8, 8, 1))
    ids = m.load(m.type_vector(u32, 3), gid)
    x = m.composite_extract(u32, ids, [0])
    coords = m.bitcast(v2i, m.vector_shuffle(m.type_vector(u32, 2), ids, ids, [0, 1]))
    img = m.image(image, m.load(sampled, tex))
    lod = m.constant(i32, 1)
    size = m.image_query_size_lod(v2i, img, lod)
    clamped = m.glsl.s_min(
        v2i, coords, m.i_sub(v2i, size, m.constant_composite(v2i, [m.constant(i32, 1)] * 2))
    )
    texel = m.image_fetch(v4, img, clamped, ImageOperandsLod(lod))
    m.store(m.access_chain(p_out, out, [_u32(m, 0), x]), texel)
    m.return_().function_end()


@entry(
    (1, 3),
    "vulkan1.1",
    ("Shader", "StorageImageReadWithoutFormat", "StorageImageWriteWithoutFormat"),
)
def compute_storage_images(m: Module, s: Steps) -> None:
    """Storage images (Sampled 2): OpImageRead/OpImageWrite on Rgba32f, and on an Unknown-format
    image with StorageImageRead/WriteWithoutFormat declared by the author."""
    _shader(m, s)
    s.capability(m.capability, Capability.StorageImageReadWithoutFormat)
    s.capability(m.capability, Capability.StorageImageWriteWithoutFormat)
    f32, i32, u32 = m.type_float(32), m.type_int(32, 1), m.type_int(32, 0)
    v2i, v4 = m.type_vector(i32, 2), m.type_vector(f32, 4)
    rgba = m.type_image(f32, Dim.Dim2D, 0, 0, 0, 2, ImageFormat.Rgba32f)
    anyfmt = m.type_image(f32, Dim.Dim2D, 0, 0, 0, 2, ImageFormat.Unknown)
    uc = StorageClass.UniformConstant
    typed = m.variable(m.type_pointer(uc, rgba), uc)
    untyped = m.variable(m.type_pointer(uc, anyfmt), uc)
    for binding, var in enumerate((typed, untyped)):
        s.annotate(m.decorate, var, DecorationDescriptorSet(0))
        s.annotate(m.decorate, var, DecorationBinding(binding))
    s.annotate(m.decorate, untyped, Decoration.Coherent)
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    _compute_main(m, s, [gid], (8, 8, 1))
    ids = m.load(m.type_vector(u32, 3), gid)
    coords = m.bitcast(v2i, m.vector_shuffle(m.type_vector(u32, 2), ids, ids, [0, 1]))
    a = m.image_read(v4, m.load(rgba, typed), coords)
    b = m.image_read(v4, m.load(anyfmt, untyped), coords)
    m.image_write(m.load(anyfmt, untyped), coords, m.f_add(v4, a, b))
    m.image_write(m.load(rgba, typed), coords, m.f_sub(v4, a, b))
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Geometry",))
def geometry_points_to_triangles(m: Module, s: Steps) -> None:
    """Geometry (capability inferred from the execution model): InputPoints, OutputTriangleStrip,
    OutputVertices, Invocations, arrayed gl_in input, OpEmitVertex/OpEndPrimitive in a loop."""
    from spvbuild.enums import ExecutionModeInvocations, ExecutionModeOutputVertices

    s.memory_model(m.memory_model, AddressingModel.Logical, MemoryModel.GLSL450)
    f32, i32, u32 = m.type_float(32), m.type_int(32, 1), m.type_int(32, 0)
    v4 = m.type_vector(f32, 4)
    per_vertex = m.type_struct([v4])
    s.annotate(m.decorate, per_vertex, Decoration.Block)
    s.annotate(m.member_decorate, per_vertex, 0, DecorationBuiltIn(BuiltIn.Position))
    gl_in_type = m.type_array(per_vertex, m.constant(u32, 1))
    gl_in = m.variable(m.type_pointer(StorageClass.Input, gl_in_type), StorageClass.Input)
    out_vertex = m.type_struct([v4])
    s.annotate(m.decorate, out_vertex, Decoration.Block)
    s.annotate(m.member_decorate, out_vertex, 0, DecorationBuiltIn(BuiltIn.Position))
    out = m.variable(m.type_pointer(StorageClass.Output, out_vertex), StorageClass.Output)
    s.debug(m.name, gl_in, "gl_in")
    s.debug(m.name, out, "gl_out")
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.Geometry, main, "main", [gl_in, out])
    s.mode(m.execution_mode, main, ExecutionMode.InputPoints)
    s.mode(m.execution_mode, main, ExecutionMode.OutputTriangleStrip)
    s.mode(m.execution_mode, main, ExecutionModeOutputVertices(3))
    s.mode(m.execution_mode, main, ExecutionModeInvocations(1))
    entry_label = m.current_block
    assert entry_label is not None
    zero, one, three = m.constant(i32, 0), m.constant(i32, 1), m.constant(i32, 3)
    center = m.load(v4, m.access_chain(m.type_pointer(StorageClass.Input, v4), gl_in, [zero, zero]))
    header, body, cont, merge = m.new_id(), m.new_id(), m.new_id(), m.new_id()
    next_i = m.new_id()
    m.branch(header)
    m.label(result_id=header)
    i = m.phi(i32, [(zero, entry_label), (next_i, cont)])
    more = m.s_less_than(m.type_bool(), i, three)
    m.loop_merge(merge, cont, LoopControl.None_)
    m.branch_conditional(more, body, merge)
    m.label(result_id=body)
    offset = m.f_mul(f32, m.convert_s_to_f(f32, i), m.constant(f32, 0.25))
    moved = m.composite_insert(
        v4, m.f_add(f32, m.composite_extract(f32, center, [0]), offset), center, [0]
    )
    m.store(m.access_chain(m.type_pointer(StorageClass.Output, v4), out, [zero]), moved)
    m.emit_vertex()
    m.branch(cont)
    m.label(result_id=cont)
    m.i_add(i32, i, one, result_id=next_i)
    m.branch(header)
    m.label(result_id=merge)
    m.end_primitive()
    m.return_().function_end()


# -- atomics and barriers ----------------------------------------------------------------------


@entry((1, 3), "vulkan1.1", ("Shader",))
def compute_atomics(m: Module, s: Steps) -> None:
    """OpAtomicIAdd / OpAtomicCompareExchange / OpAtomicLoad on a StorageBuffer counter and a
    Workgroup variable, scope and semantics as OpConstant ids, OpControlBarrier."""
    _shader(m, s)
    u32 = m.type_int(32, 0)
    counters, p_u32 = _ssbo(m, s, u32, 4, 0, "counters")
    shared = m.variable(m.type_pointer(StorageClass.Workgroup, u32), StorageClass.Workgroup)
    s.debug(m.name, shared, "shared_counter")
    device, workgroup = _u32(m, Scope.Device), _u32(m, Scope.Workgroup)
    acq_rel_uniform = _u32(m, MemorySemantics.AcquireRelease | MemorySemantics.UniformMemory)
    acq_uniform = _u32(m, MemorySemantics.Acquire | MemorySemantics.UniformMemory)
    acq_rel_wg = _u32(m, MemorySemantics.AcquireRelease | MemorySemantics.WorkgroupMemory)
    relaxed = _u32(m, MemorySemantics.Relaxed)
    _compute_main(m, s, [])
    zero, one = _u32(m, 0), _u32(m, 1)
    counter = m.access_chain(p_u32, counters, [zero, zero])
    flag = m.access_chain(p_u32, counters, [zero, one])
    before = m.atomic_i_add(u32, counter, device, acq_rel_uniform, one)
    m.atomic_compare_exchange(u32, flag, device, acq_rel_uniform, acq_uniform, before, zero)
    m.atomic_i_add(u32, shared, workgroup, acq_rel_wg, one)
    m.control_barrier(workgroup, workgroup, acq_rel_wg)
    seen = m.atomic_load(u32, shared, workgroup, relaxed)
    m.atomic_u_max(u32, counter, device, acq_rel_uniform, seen)
    m.return_().function_end()


@entry((1, 2), "spv1.2", ("Addresses", "Kernel", "Int64Atomics"))
def kernel_atomics(m: Module, s: Steps) -> None:
    """OpenCL atomics on CrossWorkgroup and Workgroup pointers: 32-bit OpAtomicIAdd and
    OpAtomicCompareExchange, 64-bit OpAtomicIAdd (Int64Atomics declared), OpMemoryBarrier."""
    _kernel(m, s)
    s.capability(m.capability, Capability.Int64Atomics)
    u32, u64 = m.type_int(32, 0), m.type_int(64, 0)
    cross = StorageClass.CrossWorkgroup
    p32, p64 = m.type_pointer(cross, u32), m.type_pointer(cross, u64)
    local32 = m.type_pointer(StorageClass.Workgroup, u32)
    void = m.type_void()
    device, workgroup = _u32(m, Scope.Device), _u32(m, Scope.Workgroup)
    seq_cst_global = _u32(
        m, MemorySemantics.SequentiallyConsistent | MemorySemantics.CrossWorkgroupMemory
    )
    seq_cst_local = _u32(
        m, MemorySemantics.SequentiallyConsistent | MemorySemantics.WorkgroupMemory
    )
    acquire_global = _u32(m, MemorySemantics.Acquire | MemorySemantics.CrossWorkgroupMemory)
    fn = m.define_function(void, [p32, p64, local32])
    counter, total, scratch = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "count", [])
    for param, label in zip(fn.parameters, ("counter", "total", "scratch"), strict=True):
        s.debug(m.name, param, label)
    one32, zero32 = _u32(m, 1), _u32(m, 0)
    old = m.atomic_i_add(u32, counter, device, seq_cst_global, one32)
    m.atomic_compare_exchange(u32, scratch, workgroup, seq_cst_local, seq_cst_local, old, zero32)
    m.atomic_i_add(u64, total, device, seq_cst_global, m.u_convert(u64, old))
    m.memory_barrier(device, acquire_global)
    m.atomic_i_decrement(u32, counter, device, seq_cst_global)
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader",))
def compute_shared_memory(m: Module, s: Steps) -> None:
    """Workgroup array, BuiltIn LocalInvocationIndex and WorkgroupId, OpControlBarrier and
    OpMemoryBarrier with Workgroup scope, a tree reduction with a structured loop."""
    _shader(m, s)
    u32, f32 = m.type_int(32, 0), m.type_float(32)
    bool_ = m.type_bool()
    arr = m.type_array(f32, _u32(m, 64))
    tile = m.variable(m.type_pointer(StorageClass.Workgroup, arr), StorageClass.Workgroup)
    s.debug(m.name, tile, "tile")
    local = _builtin(m, s, StorageClass.Input, u32, BuiltIn.LocalInvocationIndex)
    group = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.WorkgroupId)
    data, p_data = _ssbo(m, s, f32, 4, 0, "data")
    _compute_main(m, s, [local, group])
    entry_label = m.current_block
    assert entry_label is not None
    p_tile = m.type_pointer(StorageClass.Workgroup, f32)
    workgroup = _u32(m, Scope.Workgroup)
    semantics = _u32(m, MemorySemantics.AcquireRelease | MemorySemantics.WorkgroupMemory)
    zero = _u32(m, 0)
    li = m.load(u32, local)
    gi = m.i_add(
        u32,
        m.i_mul(
            u32, m.composite_extract(u32, m.load(m.type_vector(u32, 3), group), [0]), _u32(m, 64)
        ),
        li,
    )
    m.store(
        m.access_chain(p_tile, tile, [li]), m.load(f32, m.access_chain(p_data, data, [zero, gi]))
    )
    m.control_barrier(workgroup, workgroup, semantics)
    header, body, add, skip, cont, merge = (m.new_id() for _ in range(6))
    half = m.new_id()
    m.branch(header)
    m.label(result_id=header)
    stride = m.phi(u32, [(_u32(m, 32), entry_label), (half, cont)])
    more = m.u_greater_than(bool_, stride, zero)
    m.loop_merge(merge, cont, LoopControl.Unroll)
    m.branch_conditional(more, body, merge)
    m.label(result_id=body)
    active = m.u_less_than(bool_, li, stride)
    m.selection_merge(skip, SelectionControl.None_)
    m.branch_conditional(active, add, skip)
    m.label(result_id=add)
    mine = m.access_chain(p_tile, tile, [li])
    other = m.load(f32, m.access_chain(p_tile, tile, [m.i_add(u32, li, stride)]))
    m.store(mine, m.f_add(f32, m.load(f32, mine), other))
    m.branch(skip)
    m.label(result_id=skip)
    m.control_barrier(workgroup, workgroup, semantics)
    m.branch(cont)
    m.label(result_id=cont)
    m.shift_right_logical(u32, stride, _u32(m, 1), result_id=half)
    m.branch(header)
    m.label(result_id=merge)
    m.memory_barrier(workgroup, semantics)
    m.store(
        m.access_chain(p_data, data, [zero, gi]), m.load(f32, m.access_chain(p_tile, tile, [zero]))
    )
    m.return_().function_end()


# -- structured control flow -------------------------------------------------------------------


@entry((1, 3), "vulkan1.1", ("Shader",))
def compute_loop_phi(m: Module, s: Steps) -> None:
    """A structured loop (OpLoopMerge DontUnroll, continue block) whose header OpPhi names the
    back-edge values before they exist (m.new_id() then result_id=), a conditional break."""
    _shader(m, s)
    i32 = m.type_int(32, 1)
    bool_ = m.type_bool()
    out, p_out = _ssbo(m, s, i32, 4, 0, "out")
    _compute_main(m, s, [], (1, 1, 1))
    entry_label = m.current_block
    assert entry_label is not None
    header, body, cont, merge = (m.new_id() for _ in range(4))
    next_i, next_sum = m.new_id(), m.new_id()
    zero = m.constant(i32, 0)
    m.branch(header)
    m.label(result_id=header)
    i = m.phi(i32, [(zero, entry_label), (next_i, cont)])
    total = m.phi(i32, [(zero, entry_label), (next_sum, cont)])
    s.debug(m.name, i, "i")
    s.debug(m.name, total, "sum")
    more = m.s_less_than(bool_, i, m.constant(i32, 100))
    m.loop_merge(merge, cont, LoopControl.DontUnroll)
    m.branch_conditional(more, body, merge)
    m.label(result_id=body)
    big = m.s_greater_than(bool_, total, m.constant(i32, 1000))
    m.branch_conditional(big, merge, cont)  # a break needs no merge instruction
    m.label(result_id=cont)
    m.i_add(i32, total, m.i_mul(i32, i, i), result_id=next_sum)
    m.i_add(i32, i, m.constant(i32, 1), result_id=next_i)
    m.branch(header)
    m.label(result_id=merge)
    result = m.phi(i32, [(total, header), (total, body)])
    m.store(m.access_chain(p_out, out, [_u32(m, 0), _u32(m, 0)]), result)
    m.return_().function_end()


@entry((1, 5), "vulkan1.2", ("Shader",))
def compute_if_else(m: Module, s: Steps) -> None:
    """If/else and if-without-else (OpSelectionMerge Flatten), OpPhi at the merge, OpSelect,
    logical ops on bool vectors, OpAny; SPIR-V 1.5 interface lists every global."""
    _shader(m, s)
    u32, f32 = m.type_int(32, 0), m.type_float(32)
    bool_ = m.type_bool()
    v2b, v2f = m.type_vector(bool_, 2), m.type_vector(f32, 2)
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    data, p_data = _ssbo(m, s, v2f, 8, 0, "data")
    _compute_main(m, s, [gid, data])
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    slot = m.access_chain(p_data, data, [_u32(m, 0), x])
    v = m.load(v2f, slot)
    zero2 = m.constant_null(v2f)
    neg = m.f_ord_less_than(v2b, v, zero2)
    then_, else_, merge, fix, done = (m.new_id() for _ in range(5))
    any_negative = m.any(bool_, neg)
    m.selection_merge(merge, SelectionControl.Flatten)
    m.branch_conditional(any_negative, then_, else_)
    m.label(result_id=then_)
    flipped = m.f_negate(v2f, v)
    m.branch(merge)
    m.label(result_id=else_)
    doubled = m.vector_times_scalar(v2f, v, m.constant(f32, 2.0))
    m.branch(merge)
    m.label(result_id=merge)
    chosen = m.phi(v2f, [(flipped, then_), (doubled, else_)])
    odd = m.i_equal(bool_, m.bitwise_and(u32, x, _u32(m, 1)), _u32(m, 1))
    m.selection_merge(done, SelectionControl.None_)
    m.branch_conditional(odd, fix, done)
    m.label(result_id=fix)
    m.store(slot, m.select(v2f, m.logical_not(v2b, neg), chosen, zero2))
    m.branch(done)
    m.label(result_id=done)
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader",))
def compute_switch32(m: Module, s: Steps) -> None:
    """OpSwitch on a signed 32-bit selector with negative and extreme case literals, a case that
    falls through to the next, two literals sharing a target, and the default."""
    _shader(m, s)
    u32, i32 = m.type_int(32, 0), m.type_int(32, 1)
    data, p_data = _ssbo(m, s, i32, 4, 0, "data")
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    _compute_main(m, s, [gid])
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    slot = m.access_chain(p_data, data, [_u32(m, 0), x])
    value = m.load(i32, slot)
    neg, fall, shared, default, merge = (m.new_id() for _ in range(5))
    m.selection_merge(merge, SelectionControl.None_)
    m.switch(
        value, default, [(-1, neg), (-(2**31), neg), (7, fall), (2**31 - 1, shared), (0, shared)]
    )
    m.label(result_id=neg)
    m.store(slot, m.constant(i32, -100))
    m.branch(merge)
    m.label(result_id=fall)
    m.store(slot, m.constant(i32, 70))
    m.branch(shared)
    m.label(result_id=shared)
    m.store(slot, m.i_add(i32, m.load(i32, slot), m.constant(i32, 1)))
    m.branch(merge)
    m.label(result_id=default)
    m.branch(merge)
    m.label(result_id=merge)
    m.return_().function_end()


SWITCH64_CASES: tuple[int, ...] = (2**63, 2**64 - 1, 0, 2**32, 2**40 + 5, 2**63 - 1)
"""The 64-bit case literals of :func:`kernel_switch64`: the bit patterns of INT64_MIN, -1,
0, 2**32, 2**40+5 and INT64_MAX (an OpenCL kernel's integers are unsigned, and an unsigned
literal takes no negative number, as in spirv-as)."""


@entry((1, 4), "spv1.4", ("Addresses", "Kernel", "Int64"))
def kernel_switch64(m: Module, s: Steps) -> None:
    """OpSwitch on a 64-bit selector with 64-bit case literals (INT64_MIN, -1, 2**32, 2**40+5,
    INT64_MAX) in an OpenCL kernel at SPIR-V 1.4; Int64 inferred."""
    _kernel(m, s)
    u64, u32 = m.type_int(64, 0), m.type_int(32, 0)
    p_out = m.type_pointer(StorageClass.CrossWorkgroup, u32)
    fn = m.define_function(m.type_void(), [u64, p_out])
    selector, out = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "classify", [])
    s.debug(m.name, selector, "selector")
    labels = [m.new_id() for _ in SWITCH64_CASES]
    default, merge = m.new_id(), m.new_id()
    m.selection_merge(merge, SelectionControl.None_)
    m.switch(selector, default, list(zip(SWITCH64_CASES, labels, strict=True)))
    for index, label in enumerate(labels):
        m.label(result_id=label)
        m.store(out, m.constant(u32, index + 1))
        m.branch(merge)
    m.label(result_id=default)
    m.branch(merge)
    m.label(result_id=merge)
    m.return_().function_end()


# -- functions and specialization ------------------------------------------------------------


@entry((1, 3), "vulkan1.1", ("Shader",))
def function_calls(m: Module, s: Steps) -> None:
    """OpFunctionCall with value and pointer (Function storage) parameters, callees defined after
    their caller (ids reserved with m.new_id(), then OpFunction result_id=), FunctionControl
    Pure/Inline/DontInline, OpReturnValue, a Function-storage OpVariable declared mid-body."""
    _shader(m, s)
    u32, f32 = m.type_int(32, 0), m.type_float(32)
    void = m.type_void()
    p_local = m.type_pointer(StorageClass.Function, f32)
    data, p_data = _ssbo(m, s, f32, 4, 0, "data")
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    square, accumulate, poly = m.new_id(), m.new_id(), m.new_id()
    s.debug(m.name, square, "square")
    s.debug(m.name, accumulate, "accumulate")
    s.debug(m.name, poly, "poly")
    sq_type = m.type_function(f32, [f32])
    acc_type = m.type_function(void, [p_local, f32])
    poly_type = m.type_function(f32, [f32, f32, f32])
    _compute_main(m, s, [gid])
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    slot = m.access_chain(p_data, data, [_u32(m, 0), x])
    v = m.load(f32, slot)
    total = m.variable(p_local, StorageClass.Function)  # hoisted to the entry block
    s.debug(m.name, total, "total")
    m.store(total, m.constant(f32, 0.0))
    m.function_call(void, accumulate, [total, m.function_call(f32, square, [v])])
    m.function_call(
        void,
        accumulate,
        [total, m.function_call(f32, poly, [v, m.constant(f32, 3.0), m.constant(f32, -1.0)])],
    )
    m.store(slot, m.load(f32, total))
    m.return_().function_end()
    m.function(f32, FunctionControl.Pure | FunctionControl.Inline, sq_type, result_id=square)
    a = m.function_parameter(f32)
    m.label()
    m.return_value(m.f_mul(f32, a, a)).function_end()
    m.function(void, FunctionControl.DontInline, acc_type, result_id=accumulate)
    target, amount = m.function_parameter(p_local), m.function_parameter(f32)
    s.debug(m.name, target, "target")
    m.label()
    m.store(target, m.f_add(f32, m.load(f32, target), amount))
    m.return_().function_end()
    m.function(f32, FunctionControl.None_, poly_type, result_id=poly)
    px, pa, pb = (m.function_parameter(f32) for _ in range(3))
    m.label()
    m.return_value(m.glsl.fma(f32, px, pa, pb)).function_end()


@entry((1, 3), "vulkan1.1", ("Shader",))
def spec_constants(m: Module, s: Steps) -> None:
    """OpSpecConstant (int, float), OpSpecConstantTrue, OpSpecConstantComposite decorated BuiltIn
    WorkgroupSize, OpSpecConstantOp IAdd/IMul/CompositeExtract (literal index)/VectorShuffle/
    Select/LogicalNot, SpecId decorations."""
    _shader(m, s)
    u32, i32, f32 = m.type_int(32, 0), m.type_int(32, 1), m.type_float(32)
    bool_ = m.type_bool()
    v2u, v3u = m.type_vector(u32, 2), m.type_vector(u32, 3)
    count = m.spec_constant(i32, -4)
    scale = m.spec_constant(f32, 1.5)
    flag = m.spec_constant_true(bool_)
    size_x, size_y = m.spec_constant(u32, 8), m.spec_constant(u32, 4)
    for spec_id, const in enumerate((count, scale, flag, size_x, size_y)):
        s.annotate(m.decorate, const, DecorationSpecId(spec_id))
    workgroup = m.spec_constant_composite(v3u, [size_x, size_y, _u32(m, 1)])
    s.annotate(m.decorate, workgroup, DecorationBuiltIn(BuiltIn.WorkgroupSize))
    s.debug(m.name, workgroup, "gl_WorkGroupSize")
    total = m.spec_constant_op(u32, Op.IAdd, [size_x, size_y])
    second = m.spec_constant_op(u32, Op.CompositeExtract, [workgroup, 1])
    tripled = m.spec_constant_op(i32, Op.IMul, [count, m.constant(i32, 3)])
    swizzle = m.spec_constant_op(v2u, Op.VectorShuffle, [workgroup, workgroup, 2, 0])
    picked = m.spec_constant_op(u32, Op.Select, [flag, total, second])
    negated = m.spec_constant_op(bool_, Op.LogicalNot, [flag])
    s.debug(m.name, total, "total")
    out, p_out = _ssbo(m, s, u32, 4, 0, "out")
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.GLCompute, main, "main", [])
    zero = _u32(m, 0)
    m.store(m.access_chain(p_out, out, [zero, zero]), picked)
    m.store(m.access_chain(p_out, out, [zero, _u32(m, 1)]), m.bitcast(u32, tripled))
    m.store(m.access_chain(p_out, out, [zero, _u32(m, 2)]), m.composite_extract(u32, swizzle, [1]))
    widened = m.convert_f_to_u(u32, m.f_mul(f32, scale, m.constant(f32, 10.0)))
    m.store(m.access_chain(p_out, out, [zero, _u32(m, 3)]), m.select(u32, negated, zero, widened))
    m.return_().function_end()


@entry((1, 2), "opencl2.2", ("Addresses", "Kernel", "Int64"))
def kernel_spec_constants(m: Module, s: Steps) -> None:
    """Kernel-only OpSpecConstantOp opcodes (FAdd, ConvertFToU, UConvert to 64 bits) next to
    IAdd/ShiftLeftLogical, SpecId decorations, an OpSpecConstantFalse."""
    _kernel(m, s)
    u32, u64, f32 = m.type_int(32, 0), m.type_int(64, 0), m.type_float(32)
    bool_ = m.type_bool()
    base = m.spec_constant(f32, 2.5)
    shift = m.spec_constant(u32, 3)
    wide_mode = m.spec_constant_false(bool_)
    for spec_id, const in enumerate((base, shift, wide_mode)):
        s.annotate(m.decorate, const, DecorationSpecId(100 + spec_id))
    fsum = m.spec_constant_op(f32, Op.FAdd, [base, m.constant(f32, 0.5)])
    as_uint = m.spec_constant_op(u32, Op.ConvertFToU, [fsum])
    shifted = m.spec_constant_op(u32, Op.ShiftLeftLogical, [as_uint, shift])
    summed = m.spec_constant_op(u32, Op.IAdd, [shifted, shift])
    wide = m.spec_constant_op(u64, Op.UConvert, [summed])
    p_out = m.type_pointer(StorageClass.CrossWorkgroup, u64)
    fn = m.define_function(m.type_void(), [p_out])
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "specialized", [])
    choice = m.select(u64, wide_mode, wide, m.constant(u64, 2**64 - 1))
    m.store(fn.parameters[0], choice)
    m.return_().function_end()


# -- every integer and float width in constants ------------------------------------------------

INT_CONSTANTS: dict[tuple[int, int], tuple[int, ...]] = {
    (8, 1): (-128, -1, 0, 127),
    (16, 1): (-32768, -2, 32767),
    (32, 1): (-(2**31), -3, 2**31 - 1),
    (64, 1): (-(2**63), -4, 2**63 - 1),
    (8, 0): (0, 200, 255),
    (16, 0): (1, 65535),
    (32, 0): (2**31, 2**32 - 1),
    (64, 0): (2**32, 2**64 - 1),
}
"""(width, signedness) → constants of :func:`int_widths_shader`: minimum, negative, maximum."""

F16_MAX, F16_MIN_NORMAL, F16_MIN_SUBNORMAL = 65504.0, 2.0**-14, 2.0**-24
F32_MAX, F32_MIN_NORMAL, F32_MIN_SUBNORMAL = 3.4028234663852886e38, 2.0**-126, 2.0**-149
F64_MAX, F64_MIN_NORMAL, F64_MIN_SUBNORMAL = 1.7976931348623157e308, 2.0**-1022, 5e-324

FLOAT_CONSTANTS: dict[int, tuple[float, ...]] = {
    16: (
        0.0,
        -0.0,
        1.0,
        -2.5,
        F16_MAX,
        -F16_MAX,
        F16_MIN_NORMAL,
        F16_MIN_SUBNORMAL,
        math.inf,
        -math.inf,
        math.nan,
    ),
    32: (
        0.0,
        -0.0,
        0.1,
        -1e10,
        F32_MAX,
        -F32_MAX,
        F32_MIN_NORMAL,
        F32_MIN_SUBNORMAL,
        math.inf,
        -math.inf,
        math.nan,
    ),
    64: (
        0.0,
        -0.0,
        0.1,
        -1e300,
        F64_MAX,
        -F64_MAX,
        F64_MIN_NORMAL,
        F64_MIN_SUBNORMAL,
        math.inf,
        -math.inf,
        math.nan,
    ),
}
"""width → constants of :func:`float_widths_kernel` (zero, negative zero, extremes, inf, NaN)."""


@entry((1, 5), "vulkan1.2", ("Shader", "Int64", "Int16", "Int8"))
def int_widths_shader(m: Module, s: Steps) -> None:
    """Signed and unsigned 8/16/32/64-bit constants (minimum, negative, maximum) in arithmetic,
    converted to 32 bits and summed; Int8/Int16/Int64 inferred from the types."""
    _shader(m, s)
    i32 = m.type_int(32, 1)
    out, p_out = _ssbo(m, s, i32, 4, 0, "out")
    values: list[tuple[int, int, TypeId, list[Id]]] = []
    for (width, signed), numbers in INT_CONSTANTS.items():
        ty = m.type_int(width, signed)
        values.append((width, signed, ty, [m.constant(ty, n) for n in numbers]))
    _compute_main(m, s, [out], (1, 1, 1))
    acc = m.constant(i32, 0)
    for width, signed, ty, consts in values:
        folded = consts[0]
        for const in consts[1:]:
            folded = m.bitwise_xor(ty, folded, const)
        if width == 32:
            narrowed = folded if signed else m.bitcast(i32, folded)
        elif signed:
            narrowed = m.s_convert(i32, folded)
        else:
            narrowed = m.bitcast(i32, m.u_convert(m.type_int(32, 0), folded))
        acc = m.i_add(i32, acc, narrowed)
    m.store(m.access_chain(p_out, out, [_u32(m, 0), _u32(m, 0)]), acc)
    m.return_().function_end()


@entry((1, 2), "opencl2.2", ("Addresses", "Float16", "Float64", "Int64", "Kernel"))
def float_widths_kernel(m: Module, s: Steps) -> None:
    """16/32/64-bit float constants (±0, extremes, smallest normal and subnormal, ±inf, NaN) as
    __constant arrays (UniformConstant with OpConstantComposite initializers), half arithmetic,
    FConvert; Float16/Float64 inferred."""
    _kernel(m, s)
    u64 = m.type_int(64, 0)
    f32 = m.type_float(32)
    tables: list[tuple[TypeId, TypeId, Id]] = []
    for width, numbers in FLOAT_CONSTANTS.items():
        ty = m.type_float(width)
        arr = m.type_array(ty, m.constant(u64, len(numbers)))
        init = m.constant_composite(arr, [m.constant(ty, n) for n in numbers])
        table = m.variable(
            m.type_pointer(StorageClass.UniformConstant, arr), StorageClass.UniformConstant, init
        )
        s.annotate(m.decorate, table, Decoration.Constant)
        s.debug(m.name, table, f"f{width}_table")
        tables.append((ty, arr, table))
    p_out = m.type_pointer(StorageClass.CrossWorkgroup, f32)
    fn = m.define_function(m.type_void(), [p_out, u64])
    out, index = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "pick", [])
    total = m.constant(f32, 0.0)
    for ty, _arr, table in tables:
        p_elem = m.type_pointer(StorageClass.UniformConstant, ty)
        value = m.load(ty, m.in_bounds_ptr_access_chain(p_elem, table, m.constant(u64, 0), [index]))
        if ty != f32:
            value = m.f_convert(f32, m.f_add(ty, value, value))
        total = m.f_add(f32, total, value)
    m.store(out, total)
    m.return_().function_end()


@entry((1, 3), "vulkan1.1", ("Shader", "Float16", "Float64"))
def float_widths_shader(m: Module, s: Steps) -> None:
    """Half and double constants (NaN, ±inf, extremes) in a compute shader, GLSL.std.450 FClamp
    and IsNan/IsInf; Float16/Float64 inferred."""
    _shader(m, s)
    f16, f32, f64 = m.type_float(16), m.type_float(32), m.type_float(64)
    bool_ = m.type_bool()
    out, p_out = _ssbo(m, s, f32, 4, 0, "out")
    halves = [m.constant(f16, v) for v in FLOAT_CONSTANTS[16]]
    doubles = [m.constant(f64, v) for v in FLOAT_CONSTANTS[64]]
    _compute_main(m, s, [], (1, 1, 1))
    zero = _u32(m, 0)
    h = m.glsl.f_clamp(f16, halves[2], halves[5], halves[4])
    d = m.f_add(f64, doubles[3], doubles[7])
    nan_seen = m.logical_or(bool_, m.is_nan(bool_, halves[-1]), m.is_inf(bool_, doubles[-2]))
    total = m.f_add(f32, m.f_convert(f32, h), m.f_convert(f32, d))
    m.store(
        m.access_chain(p_out, out, [zero, zero]),
        m.select(f32, nan_seen, total, m.constant(f32, -1.0)),
    )
    m.return_().function_end()


@entry(
    (1, 3),
    "vulkan1.1",
    ("Shader", "Int16", "Int8", "StorageBuffer16BitAccess", "StorageBuffer8BitAccess"),
    ("SPV_KHR_8bit_storage",),
)
def small_int_storage(m: Module, s: Steps) -> None:
    """8- and 16-bit integers in storage buffers: StorageBuffer8BitAccess and
    StorageBuffer16BitAccess declared by the author; at SPIR-V 1.3 only SPV_KHR_8bit_storage is
    inferred (16-bit storage is core since 1.3)."""
    _shader(m, s)
    s.capability(m.capability, Capability.StorageBuffer8BitAccess)
    s.capability(m.capability, Capability.StorageBuffer16BitAccess)
    u32 = m.type_int(32, 0)
    u8, i16 = m.type_int(8, 0), m.type_int(16, 1)
    bytes_, p_u8 = _ssbo(m, s, u8, 1, 0, "bytes")
    shorts, p_i16 = _ssbo(m, s, i16, 2, 1, "shorts")
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    _compute_main(m, s, [gid])
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    zero = _u32(m, 0)
    byte = m.load(u8, m.access_chain(p_u8, bytes_, [zero, x]))
    short = m.s_convert(i16, m.u_convert(u32, byte))
    slot = m.access_chain(p_i16, shorts, [zero, x])
    m.store(slot, m.i_sub(i16, m.load(i16, slot), short))
    m.store(m.access_chain(p_u8, bytes_, [zero, x]), m.constant(u8, 0xFF))
    m.return_().function_end()


# -- OpenCL kernels ------------------------------------------------------------------------------


@entry((1, 2), "opencl2.2", ("Addresses", "Kernel", "Int64", "Int8"))
def kernel_opencl_std(m: Module, s: Steps) -> None:
    """OpenCL kernel (Kernel/Addresses inferred from Physical64 + OpenCL): CrossWorkgroup
    parameters with FuncParamAttr NoCapture, BuiltIn GlobalInvocationId, Aligned loads/stores,
    OpenCL.std mad/fmax/sqrt/fabs/s_abs/vloadn/printf with a __constant format string, LocalSize
    and ContractionOff."""
    _kernel(m, s, declare=False)
    u8, u32, u64, f32 = m.type_int(8, 0), m.type_int(32, 0), m.type_int(64, 0), m.type_float(32)
    v3u64, v4f = m.type_vector(u64, 3), m.type_vector(f32, 4)
    gid = _builtin(m, s, StorageClass.Input, v3u64, BuiltIn.GlobalInvocationId)
    s.annotate(m.decorate, gid, Decoration.Constant)
    text = b"x=%f\n\0"
    fmt_type = m.type_array(u8, m.constant(u32, len(text)))
    fmt = m.variable(
        m.type_pointer(StorageClass.UniformConstant, fmt_type),
        StorageClass.UniformConstant,
        m.constant_composite(fmt_type, [m.constant(u8, c) for c in text]),
    )
    s.annotate(m.decorate, fmt, Decoration.Constant)
    s.debug(m.name, fmt, ".str")
    p_f32 = m.type_pointer(StorageClass.CrossWorkgroup, f32)
    p_u32 = m.type_pointer(StorageClass.CrossWorkgroup, u32)
    fn = m.define_function(m.type_void(), [p_f32, p_f32, p_u32, p_f32])
    a, b, c, vec_out = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "saxpy_ish", [gid])
    s.mode(m.execution_mode, fn.id, ExecutionModeLocalSize(64, 1, 1))
    s.mode(m.execution_mode, fn.id, ExecutionMode.ContractionOff)
    for param, label in zip(fn.parameters, ("a", "b", "c", "vec_out"), strict=True):
        s.debug(m.name, param, label)
        s.annotate(m.decorate, param, DecorationFuncParamAttr(FunctionParameterAttribute.NoCapture))
    s.annotate(m.decorate, b, DecorationFuncParamAttr(FunctionParameterAttribute.NoWrite))
    aligned = (MemoryAccess.Volatile, MemoryAccessAligned(4))
    i = m.composite_extract(u64, m.load(v3u64, gid, MemoryAccessAligned(32)), [0])
    pa = m.in_bounds_ptr_access_chain(p_f32, a, i)
    pb = m.in_bounds_ptr_access_chain(p_f32, b, i)
    pc = m.in_bounds_ptr_access_chain(p_u32, c, i)
    va, vb = m.load(f32, pa, aligned), m.load(f32, pb, MemoryAccessAligned(4))
    cl = m.opencl
    r = cl.fmax(f32, cl.mad(f32, va, vb, m.constant(f32, 1.0)), cl.sqrt(f32, cl.fabs(f32, vb)))
    m.store(pa, r, aligned)
    m.store(pc, cl.s_abs(u32, m.load(u32, pc)))
    quad = cl.vloadn(v4f, i, b, 4)
    cl.vstoren(m.type_void(), m.vector_times_scalar(v4f, quad, r), i, vec_out)
    zero = m.constant(u64, 0)
    first_char = m.in_bounds_ptr_access_chain(
        m.type_pointer(StorageClass.UniformConstant, u8), fmt, zero, [zero]
    )
    cl.printf(u32, first_char, [r])
    m.return_().function_end()


@entry((1, 2), "opencl2.2", ("Addresses", "ImageBasic", "Kernel", "Int64"))
def kernel_images(m: Module, s: Steps) -> None:
    """OpenCL images: read_only/write_only image2d_t and sampler_t parameters (void sampled
    type, access qualifiers), OpImageRead/OpImageWrite, OpSampledImage and
    OpImageSampleExplicitLod (Lod 0); ImageBasic declared (OpTypeImage does not infer it)."""
    _kernel(m, s)
    s.capability(m.capability, Capability.ImageBasic)
    void, f32, i32, u64 = m.type_void(), m.type_float(32), m.type_int(32, 0), m.type_int(64, 0)
    v2f, v2i, v4f = m.type_vector(f32, 2), m.type_vector(i32, 2), m.type_vector(f32, 4)
    src_type = m.type_image(
        void, Dim.Dim2D, 0, 0, 0, 0, ImageFormat.Unknown, AccessQualifier.ReadOnly
    )
    dst_type = m.type_image(
        void, Dim.Dim2D, 0, 0, 0, 0, ImageFormat.Unknown, AccessQualifier.WriteOnly
    )
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u64, 3), BuiltIn.GlobalInvocationId)
    fn = m.define_function(void, [src_type, dst_type, m.type_sampler()])
    src, dst, sampler = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "blur", [gid])
    ids = m.load(m.type_vector(u64, 3), gid)
    x = m.u_convert(i32, m.composite_extract(u64, ids, [0]))
    y = m.u_convert(i32, m.composite_extract(u64, ids, [1]))
    coords = m.composite_construct(v2i, [x, y])
    texel = m.image_read(v4f, src, coords)
    normalized = m.composite_construct(v2f, [m.convert_u_to_f(f32, x), m.convert_u_to_f(f32, y)])
    combined = m.sampled_image(m.type_sampled_image(src_type), src, sampler)
    smooth = m.image_sample_explicit_lod(
        v4f, combined, normalized, ImageOperandsLod(m.constant(f32, 0.0))
    )
    m.image_write(dst, coords, m.f_add(v4f, texel, smooth))
    m.return_().function_end()


@entry((1, 2), "opencl2.2", ("Addresses", "GenericPointer", "Kernel", "Int64", "Vector16"))
def kernel_generic_vectors(m: Module, s: Steps) -> None:
    """Workgroup (local) variables, OpPtrCastToGeneric / OpGenericCastToPtr, a helper taking a
    Generic pointer called through OpFunctionCall, 16-component vectors (Vector16 declared),
    OpVectorShuffle (with an undefined 0xFFFFFFFF lane), OpDot, OpVectorExtractDynamic."""
    _kernel(m, s)
    s.capability(m.capability, Capability.GenericPointer)
    s.capability(m.capability, Capability.Vector16)  # not inferred from OpTypeVector 16
    u64, f32 = m.type_int(64, 0), m.type_float(32)
    v16, v4 = m.type_vector(f32, 16), m.type_vector(f32, 4)
    void = m.type_void()
    p_local = m.type_pointer(StorageClass.Workgroup, v16)
    p_generic = m.type_pointer(StorageClass.Generic, v16)
    p_out = m.type_pointer(StorageClass.CrossWorkgroup, f32)
    scratch = m.variable(p_local, StorageClass.Workgroup)
    s.debug(m.name, scratch, "scratch")
    helper = m.new_id()
    s.debug(m.name, helper, "fill")
    fn = m.define_function(void, [p_out, u64])
    out, lane = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "vectors", [])
    generic = m.ptr_cast_to_generic(p_generic, scratch)
    m.function_call(void, helper, [generic])
    back = m.generic_cast_to_ptr(p_local, generic)
    wide = m.load(v16, back)
    low = m.vector_shuffle(v4, wide, wide, [0, 1, 2, 3])
    high = m.vector_shuffle(v4, wide, wide, [15, 14, 13, 0xFFFFFFFF])
    dot = m.dot(f32, low, high)
    picked = m.vector_extract_dynamic(f32, wide, lane)
    m.store(out, m.f_add(f32, dot, picked))
    m.return_().function_end()
    m.function(void, FunctionControl.None_, m.type_function(void, [p_generic]), result_id=helper)
    target = m.function_parameter(p_generic)
    m.label()
    m.store(target, m.constant_composite(v16, [m.constant(f32, float(k)) for k in range(16)]))
    m.return_().function_end()


@entry((1, 2), "opencl2.2", ("Addresses", "Kernel"))
def kernel_debug_info(m: Module, s: Steps) -> None:
    """DebugInfo (the original set) in an OpenCL kernel: compilation unit, basic/pointer/vector/
    function types, DebugFunction naming a kernel defined after it (OpFunction result_id=),
    lexical block, DebugScope/DebugNoScope, DebugLocalVariable + DebugDeclare on a Function
    variable, DebugValue, DebugExpression."""
    from spvbuild.generated.extinst.debug_info import (
        DebugBaseTypeAttributeEncoding as Encoding,
    )
    from spvbuild.generated.extinst.debug_info import DebugInfoFlags as Flags

    _kernel(m, s)
    void, u32, f32 = m.type_void(), m.type_int(32, 0), m.type_float(32)
    p_out = m.type_pointer(StorageClass.CrossWorkgroup, f32)
    p_local = m.type_pointer(StorageClass.Function, f32)
    file = m.string("kernel.cl")
    di = m.debug_info
    unit = di.debug_compilation_unit(void, file, 65536, 4)
    float_type = di.debug_type_basic(void, m.string("float"), m.constant(u32, 32), Encoding.Float)
    pointer_type = di.debug_type_pointer(void, float_type, StorageClass.CrossWorkgroup, Flags.None_)
    di.debug_type_vector(void, float_type, 4)
    fn_type = di.debug_type_function(void, void, [pointer_type])
    fid = m.new_id()
    name = m.string("scale")
    dbg_fn = di.debug_function(
        void,
        name,
        fn_type,
        file,
        1,
        1,
        unit,
        name,
        Flags.FlagIsDefinition | Flags.FlagPrototyped,
        2,
        fid,
    )
    block = di.debug_lexical_block(void, file, 2, 1, dbg_fn)
    dbg_var = di.debug_local_variable(void, m.string("tmp"), float_type, file, 3, 9, block)
    expression = di.debug_expression(void)
    m.function(void, FunctionControl.None_, m.type_function(void, [p_out]), result_id=fid)
    out = m.function_parameter(p_out)
    m.label()
    s.entry(m.entry_point, ExecutionModel.Kernel, fid, "scale", [])
    di.debug_scope(void, dbg_fn)
    local = m.variable(p_local, StorageClass.Function)
    s.debug(m.name, local, "tmp")
    di.debug_declare(void, dbg_var, local, expression)
    value = m.f_mul(f32, m.load(f32, out), m.constant(f32, 3.0))
    di.debug_scope(void, block)
    di.debug_value(void, dbg_var, value, expression)
    m.store(local, value)
    m.store(out, m.load(f32, local))
    di.debug_no_scope(void)
    m.return_().function_end()


@entry(
    (1, 2),
    "opencl2.2",
    ("Addresses", "FunctionPointersINTEL", "Kernel"),
    ("SPV_INTEL_function_pointers",),
    val_rejects=r"ID .* has not been defined\s+%\d+ = OpConstantFunctionPointerINTEL",
)
def kernel_function_pointers(m: Module, s: Steps) -> None:
    """SPV_INTEL_function_pointers: a CodeSectionINTEL pointer to the OpTypeFunction,
    OpConstantFunctionPointerINTEL of two callees, OpSelect between them and
    OpFunctionPointerCallINTEL; capability and extension inferred.  spirv-val (v2025.5) cannot
    accept it: the constant belongs to the global section and so must name a function defined
    later ("ID ... has not been defined"), and it rejects any OpTypePointer to an OpTypeFunction
    ("Invalid use of function type result id")."""
    _kernel(m, s)
    u32 = m.type_int(32, 0)
    bool_ = m.type_bool()
    binary = m.type_function(u32, [u32, u32])
    p_fn = m.type_pointer(StorageClass.CodeSectionINTEL, binary)
    p_out = m.type_pointer(StorageClass.CrossWorkgroup, u32)
    add, mul = m.new_id(), m.new_id()
    s.debug(m.name, add, "add")
    s.debug(m.name, mul, "mul")
    add_ptr = m.constant_function_pointer_intel(p_fn, add)
    mul_ptr = m.constant_function_pointer_intel(p_fn, mul)
    for fid, op in ((add, m.i_add), (mul, m.i_mul)):
        m.function(u32, FunctionControl.None_, binary, result_id=fid)
        x, y = m.function_parameter(u32), m.function_parameter(u32)
        m.label()
        m.return_value(op(u32, x, y)).function_end()
    fn = m.define_function(m.type_void(), [p_out, u32, u32])
    out, a, b = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "dispatch", [])
    use_add = m.u_less_than(bool_, a, b)
    target = m.select(p_fn, use_add, add_ptr, mul_ptr)
    m.store(out, m.function_pointer_call_intel(u32, target, [a, b]))
    m.return_().function_end()


def _no_wrap(m: Module, s: Steps) -> None:
    """NoSignedWrap/NoUnsignedWrap on OpIAdd/OpISub/OpIMul/OpShiftLeftLogical, NoSignedWrap on
    OpSNegate and on OpenCL.std s_abs (the rule's allowed ext instruction)."""
    _kernel(m, s)
    u32 = m.type_int(32, 0)
    p_out = m.type_pointer(StorageClass.CrossWorkgroup, u32)
    fn = m.define_function(m.type_void(), [p_out, u32, u32])
    out, a, b = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "no_wrap", [])
    total = m.i_add(u32, a, b)
    diff = m.i_sub(u32, total, b)
    prod = m.i_mul(u32, diff, a)
    shifted = m.shift_left_logical(u32, prod, m.constant(u32, 2))
    negated = m.s_negate(u32, shifted)
    absolute = m.opencl.s_abs(u32, negated)
    for value in (total, diff, prod, shifted):
        s.annotate(m.decorate, value, Decoration.NoSignedWrap)
        s.annotate(m.decorate, value, Decoration.NoUnsignedWrap)
    s.annotate(m.decorate, negated, Decoration.NoSignedWrap)
    s.annotate(m.decorate, absolute, Decoration.NoSignedWrap)
    m.store(out, absolute)
    m.return_().function_end()


NO_WRAP_EXTENSION = "SPV_KHR_no_integer_wrap_decoration"

entry(
    (1, 3),
    "spv1.3",
    ("Addresses", "Kernel"),
    (NO_WRAP_EXTENSION,),
    name="no_wrap_spv13",
    note="At SPIR-V 1.3 the module adds the extension.",
)(_no_wrap)
entry(
    (1, 4),
    "spv1.4",
    ("Addresses", "Kernel"),
    (),
    name="no_wrap_spv14",
    note="At SPIR-V 1.4 (core) nothing is added.",
)(_no_wrap)


@entry(
    (1, 2),
    "opencl2.2",
    ("Addresses", "FunctionPointersINTEL", "IndirectReferencesINTEL", "Kernel"),
    ("SPV_INTEL_function_pointers",),
)
def kernel_referenced_indirectly(m: Module, s: Steps) -> None:
    """The part of SPV_INTEL_function_pointers spirv-val accepts: FunctionPointersINTEL declared,
    a callee decorated ReferencedIndirectlyINTEL (IndirectReferencesINTEL and the extension
    inferred), called directly with OpFunctionCall."""
    _kernel(m, s)
    s.capability(m.capability, Capability.FunctionPointersINTEL)
    u32 = m.type_int(32, 0)
    binary = m.type_function(u32, [u32, u32])
    add = m.new_id()
    s.annotate(m.decorate, add, Decoration.ReferencedIndirectlyINTEL)
    s.debug(m.name, add, "add")
    fn = m.define_function(
        m.type_void(), [m.type_pointer(StorageClass.CrossWorkgroup, u32), u32, u32]
    )
    out, a, b = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "dispatch", [])
    m.store(out, m.function_call(u32, add, [a, b]))
    m.return_().function_end()
    m.function(u32, FunctionControl.None_, binary, result_id=add)
    x, y = m.function_parameter(u32), m.function_parameter(u32)
    m.label()
    m.return_value(m.i_add(u32, x, y)).function_end()


# -- debug information in a Vulkan shader ------------------------------------------------------


@entry((1, 3), "vulkan1.1", ("Shader",), ("SPV_KHR_non_semantic_info",))
def shader_debug_info(m: Module, s: Steps) -> None:
    """NonSemantic.Shader.DebugInfo.100 in a compute shader (SPV_KHR_non_semantic_info inferred
    below SPIR-V 1.6): DebugSource, DebugCompilationUnit, DebugTypeBasic/Vector/Function,
    DebugFunction, DebugFunctionDefinition, DebugScope, DebugLine/NoLine, DebugLocalVariable +
    DebugDeclare, DebugExpression; OpSource with the file and text."""
    from spvbuild.enums import SourceLanguage

    _shader(m, s)
    void, u32, f32 = m.type_void(), m.type_int(32, 0), m.type_float(32)
    p_local = m.type_pointer(StorageClass.Function, f32)
    out, p_out = _ssbo(m, s, f32, 4, 0, "out")
    code = "void main() { float x = 2.0; out[0] = x; }"
    file = m.string("main.comp")
    text = m.string(code)
    m.source(SourceLanguage.GLSL, 450, file, code)  # debug_strings: next to OpString, not scrambled

    def k(value: int) -> Id:
        return m.constant(u32, value)

    dbg = m.shader_debug_info_100
    source = dbg.debug_source(void, file, text)
    unit = dbg.debug_compilation_unit(void, k(100), k(5), source, k(2))
    float_type = dbg.debug_type_basic(void, m.string("float"), k(32), k(3), k(0))
    dbg.debug_type_vector(void, float_type, k(4))
    fn_type = dbg.debug_type_function(void, k(3), void)
    name = m.string("main")
    dbg_main = dbg.debug_function(void, name, fn_type, source, k(1), k(1), unit, name, k(3), k(1))
    dbg_x = dbg.debug_local_variable(
        void, m.string("x"), float_type, source, k(1), k(21), dbg_main, k(4)
    )
    expression = dbg.debug_expression(void)
    main = _compute_main(m, s, [], (1, 1, 1))
    dbg.debug_function_definition(void, dbg_main, main)
    dbg.debug_scope(void, dbg_main)
    x = m.variable(p_local, StorageClass.Function)
    s.debug(m.name, x, "x")
    dbg.debug_line(void, source, k(1), k(1), k(15), k(29))
    dbg.debug_declare(void, dbg_x, x, expression)
    m.store(x, m.constant(f32, 2.0))
    dbg.debug_line(void, source, k(1), k(1), k(31), k(42))
    m.store(m.access_chain(p_out, out, [k(0), k(0)]), m.load(f32, x))
    dbg.debug_no_line(void)
    m.return_().function_end()


# -- newer Vulkan features ---------------------------------------------------------------------


@entry((1, 5), "vulkan1.2", ("Shader", "VulkanMemoryModel", "VulkanMemoryModelDeviceScope"))
def compute_vulkan_memory_model(m: Module, s: Steps) -> None:
    """MemoryModel Vulkan (VulkanMemoryModel inferred, core at 1.5), VulkanMemoryModelDeviceScope
    declared, loads/stores with MakePointerVisible/MakePointerAvailable + NonPrivatePointer,
    an atomic with MakeAvailable|MakeVisible semantics."""
    s.capability(m.capability, Capability.Shader)
    s.capability(m.capability, Capability.VulkanMemoryModelDeviceScope)
    s.memory_model(m.memory_model, AddressingModel.Logical, MemoryModel.Vulkan)
    u32 = m.type_int(32, 0)
    data, p_data = _ssbo(m, s, u32, 4, 0, "data")
    _compute_main(m, s, [data])
    device = _u32(m, Scope.Device)
    semantics = _u32(
        m,
        MemorySemantics.AcquireRelease
        | MemorySemantics.UniformMemory
        | MemorySemantics.MakeAvailable
        | MemorySemantics.MakeVisible,
    )
    zero, one = _u32(m, 0), _u32(m, 1)
    src = m.access_chain(p_data, data, [zero, zero])
    dst = m.access_chain(p_data, data, [zero, one])
    value = m.load(
        u32, src, [MemoryAccessMakePointerVisible(device), MemoryAccess.NonPrivatePointer]
    )
    m.store(dst, value, [MemoryAccessMakePointerAvailable(device), MemoryAccess.NonPrivatePointer])
    m.atomic_i_add(u32, src, device, semantics, one)
    m.return_().function_end()


@entry((1, 5), "vulkan1.2", ("Int64", "PhysicalStorageBufferAddresses", "Shader"))
def compute_physical_storage_buffer(m: Module, s: Steps) -> None:
    """PhysicalStorageBuffer64 addressing (PhysicalStorageBufferAddresses inferred, core at 1.5):
    a 64-bit address in a push-constant block, OpTypeForwardPointer for a linked-list node,
    OpConvertUToPtr, Aligned loads through the chain."""
    s.capability(m.capability, Capability.Shader)
    s.memory_model(m.memory_model, AddressingModel.PhysicalStorageBuffer64, MemoryModel.GLSL450)
    u64, f32 = m.type_int(64, 0), m.type_float(32)
    psb = StorageClass.PhysicalStorageBuffer
    p_node = m.new_type_id()
    m.type_forward_pointer(p_node, psb)
    node = m.type_struct([f32, p_node])
    m.type_pointer(psb, node, result_id=p_node)
    s.annotate(m.decorate, node, Decoration.Block)
    s.annotate(m.member_decorate, node, 0, DecorationOffset(0))
    s.annotate(m.member_decorate, node, 1, DecorationOffset(8))
    s.debug(m.name, node, "Node")
    push_type = m.type_struct([u64])
    s.annotate(m.decorate, push_type, Decoration.Block)
    s.annotate(m.member_decorate, push_type, 0, DecorationOffset(0))
    push = m.variable(
        m.type_pointer(StorageClass.PushConstant, push_type), StorageClass.PushConstant
    )
    out, p_out = _ssbo(m, s, f32, 4, 0, "out")
    _compute_main(m, s, [push, out], (1, 1, 1))
    zero, one = m.constant(m.type_int(32, 1), 0), m.constant(m.type_int(32, 1), 1)
    address = m.load(
        u64, m.access_chain(m.type_pointer(StorageClass.PushConstant, u64), push, [zero])
    )
    head = m.convert_u_to_ptr(p_node, address)
    p_value = m.type_pointer(psb, f32)
    p_next = m.type_pointer(psb, p_node)
    first = m.load(f32, m.access_chain(p_value, head, [zero]), MemoryAccessAligned(16))
    second_node = m.load(p_node, m.access_chain(p_next, head, [one]), MemoryAccessAligned(8))
    second = m.load(f32, m.access_chain(p_value, second_node, [zero]), MemoryAccessAligned(16))
    m.store(m.access_chain(p_out, out, [_u32(m, 0), _u32(m, 0)]), m.f_add(f32, first, second))
    m.return_().function_end()


@entry((1, 5), "spv1.5", ("Shader",))
def compute_local_size_id(m: Module, s: Steps) -> None:
    """OpExecutionModeId LocalSizeId whose sizes are spec constants (SpecId), used again in the
    body through OpSpecConstantOp IMul.  Universal env: vulkan1.2 wants maintenance4 for it."""
    _shader(m, s)
    u32 = m.type_int(32, 0)
    size_x, size_y = m.spec_constant(u32, 16), m.spec_constant(u32, 2)
    s.annotate(m.decorate, size_x, DecorationSpecId(0))
    s.annotate(m.decorate, size_y, DecorationSpecId(1))
    area = m.spec_constant_op(u32, Op.IMul, [size_x, size_y])
    out, p_out = _ssbo(m, s, u32, 4, 0, "out")
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.GLCompute, main, "main", [out])
    s.mode(m.execution_mode_id, main, ExecutionModeLocalSizeId(size_x, size_y, _u32(m, 1)))
    m.store(m.access_chain(p_out, out, [_u32(m, 0), _u32(m, 0)]), area)
    m.return_().function_end()


@entry(
    (1, 3),
    "vulkan1.1",
    ("GroupNonUniform", "GroupNonUniformArithmetic", "GroupNonUniformBallot", "Shader"),
)
def subgroup_operations(m: Module, s: Steps) -> None:
    """Subgroup operations with Scope Subgroup: OpGroupNonUniformElect, IAdd Reduce and
    InclusiveScan, BroadcastFirst, Ballot; BuiltIn SubgroupLocalInvocationId (GroupNonUniform
    declared: the any-of for that BuiltIn lists SubgroupBallotKHR first)."""
    _shader(m, s)
    s.capability(m.capability, Capability.GroupNonUniform)
    u32 = m.type_int(32, 0)
    bool_ = m.type_bool()
    lane = _builtin(m, s, StorageClass.Input, u32, BuiltIn.SubgroupLocalInvocationId)
    data, p_data = _ssbo(m, s, u32, 4, 0, "data")
    _compute_main(m, s, [lane])
    subgroup = _u32(m, Scope.Subgroup)
    index = m.load(u32, lane)
    slot = m.access_chain(p_data, data, [_u32(m, 0), index])
    value = m.load(u32, slot)
    total = m.group_non_uniform_i_add(u32, subgroup, GroupOperation.Reduce, value)
    prefix = m.group_non_uniform_i_add(u32, subgroup, GroupOperation.InclusiveScan, value)
    leader = m.group_non_uniform_broadcast_first(u32, subgroup, value)
    ballot = m.group_non_uniform_ballot(
        m.type_vector(u32, 4), subgroup, m.i_equal(bool_, value, leader)
    )
    elected = m.group_non_uniform_elect(bool_, subgroup)
    mixed = m.i_add(
        u32, m.select(u32, elected, total, prefix), m.composite_extract(u32, ballot, [0])
    )
    m.store(slot, mixed)
    m.return_().function_end()


@entry(
    (1, 5),
    "vulkan1.2",
    ("DemoteToHelperInvocation", "DerivativeControl", "Shader"),
    ("SPV_EXT_demote_to_helper_invocation",),
)
def fragment_demote_derivatives(m: Module, s: Steps) -> None:
    """Fragment with DepthReplacing and BuiltIn FragDepth, OpDPdxFine/OpFwidth (DerivativeControl
    inferred), OpDemoteToHelperInvocation and OpIsHelperInvocationEXT (capability and extension
    inferred at 1.5), an if without else around the demote."""
    _shader(m, s)
    f32 = m.type_float(32)
    bool_ = m.type_bool()
    v2 = m.type_vector(f32, 2)
    uv = _located(m, s, StorageClass.Input, v2, 0, "uv")
    depth = _builtin(m, s, StorageClass.Output, f32, BuiltIn.FragDepth)
    color = _located(m, s, StorageClass.Output, f32, 0, "color")
    main = m.define_function(m.type_void()).id
    s.entry(m.entry_point, ExecutionModel.Fragment, main, "main", [uv, depth, color])
    s.mode(m.execution_mode, main, ExecutionMode.OriginUpperLeft)
    s.mode(m.execution_mode, main, ExecutionMode.DepthReplacing)
    coords = m.load(v2, uv)
    slope = m.d_pdx_fine(v2, coords)
    width = m.fwidth(v2, coords)
    u = m.composite_extract(f32, slope, [0])
    demote, merge = m.new_id(), m.new_id()
    steep = m.f_ord_greater_than(bool_, u, m.constant(f32, 0.25))
    m.selection_merge(merge, SelectionControl.None_)
    m.branch_conditional(steep, demote, merge)
    m.label(result_id=demote)
    m.demote_to_helper_invocation()
    m.branch(merge)
    m.label(result_id=merge)
    helper = m.is_helper_invocation_ext(bool_)
    m.store(
        depth, m.select(f32, helper, m.constant(f32, 1.0), m.composite_extract(f32, width, [1]))
    )
    m.store(color, u)
    m.return_().function_end()


@entry(
    (1, 3),
    "vulkan1.1",
    ("Shader", "Tessellation"),
    options={"capabilities": "verify"},
)
def tessellation_control_verify(m: Module, s: Steps) -> None:
    """Module(capabilities="verify"), every capability declared: TessellationControl with
    OutputVertices, arrayed gl_PerVertex in/out, BuiltIn InvocationId, Patch-decorated
    TessLevelOuter/TessLevelInner outputs."""
    from spvbuild.enums import ExecutionModeOutputVertices

    s.capability(m.capability, Capability.Shader)
    s.capability(m.capability, Capability.Tessellation)
    s.memory_model(m.memory_model, AddressingModel.Logical, MemoryModel.GLSL450)
    f32, u32, i32 = m.type_float(32), m.type_int(32, 0), m.type_int(32, 1)
    v4 = m.type_vector(f32, 4)
    gl_in_vertex = m.type_struct([v4])
    gl_out_vertex = m.type_struct([v4])
    for block in (gl_in_vertex, gl_out_vertex):
        s.annotate(m.decorate, block, Decoration.Block)
        s.annotate(m.member_decorate, block, 0, DecorationBuiltIn(BuiltIn.Position))
    three = m.constant(u32, 3)
    gl_in = m.variable(
        m.type_pointer(StorageClass.Input, m.type_array(gl_in_vertex, three)), StorageClass.Input
    )
    gl_out = m.variable(
        m.type_pointer(StorageClass.Output, m.type_array(gl_out_vertex, three)), StorageClass.Output
    )
    invocation = _builtin(m, s, StorageClass.Input, i32, BuiltIn.InvocationId)
    outer_type = m.type_array(f32, m.constant(u32, 4))
    inner_type = m.type_array(f32, m.constant(u32, 2))
    outer = _builtin(m, s, StorageClass.Output, outer_type, BuiltIn.TessLevelOuter)
    inner = _builtin(m, s, StorageClass.Output, inner_type, BuiltIn.TessLevelInner)
    s.annotate(m.decorate, outer, Decoration.Patch)
    s.annotate(m.decorate, inner, Decoration.Patch)
    main = m.define_function(m.type_void()).id
    s.entry(
        m.entry_point,
        ExecutionModel.TessellationControl,
        main,
        "main",
        [gl_in, gl_out, invocation, outer, inner],
    )
    s.mode(m.execution_mode, main, ExecutionModeOutputVertices(3))
    zero = m.constant(i32, 0)
    me = m.load(i32, invocation)
    position = m.load(v4, m.access_chain(m.type_pointer(StorageClass.Input, v4), gl_in, [me, zero]))
    m.store(m.access_chain(m.type_pointer(StorageClass.Output, v4), gl_out, [me, zero]), position)
    level = m.constant(f32, 4.0)
    p_level = m.type_pointer(StorageClass.Output, f32)
    for k in range(4):
        m.store(m.access_chain(p_level, outer, [m.constant(i32, k)]), level)
    for k in range(2):
        m.store(m.access_chain(p_level, inner, [m.constant(i32, k)]), level)
    m.return_().function_end()


# -- linkage, module options -------------------------------------------------------------------


@entry((1, 5), "spv1.5", ("Linkage", "Shader"))
def library_linkage(m: Module, s: Steps) -> None:
    """A library without entry points (Linkage inferred from LinkageAttributes): an exported
    function, an imported function declaration (OpFunction without blocks, written before the
    definitions), a Private global with an initializer, OpModuleProcessed."""
    _shader(m, s, declare=False)
    f32 = m.type_float(32)
    unary = m.type_function(f32, [f32])
    ternary = m.type_function(f32, [f32, f32, f32])
    bias = m.variable(
        m.type_pointer(StorageClass.Private, f32), StorageClass.Private, m.constant(f32, 0.125)
    )
    s.debug(m.name, bias, "bias")
    s.processed(m.module_processed, "spvbuild catalogue")
    s.processed(m.module_processed, "no optimization")
    lerp = m.function(f32, FunctionControl.None_, ternary)
    a, b, t = (m.function_parameter(f32) for _ in range(3))
    m.label()
    s.annotate(m.decorate, lerp, DecorationLinkageAttributes("lerp_biased", LinkageType.Export))
    s.debug(m.name, lerp, "lerp_biased")
    scale = m.new_id()
    mixed = m.glsl.f_mix(f32, a, b, m.function_call(f32, scale, [t]))
    m.return_value(m.f_add(f32, mixed, m.load(f32, bias))).function_end()
    m.function(f32, FunctionControl.None_, unary, result_id=scale)
    m.function_parameter(f32)
    m.function_end()
    s.annotate(m.decorate, scale, DecorationLinkageAttributes("scale", LinkageType.Import))
    s.debug(m.name, scale, "scale")


@entry((1, 3), "vulkan1.1", ("Shader",), options={"merge_aggregates": True})
def compute_merged_blocks(m: Module, s: Steps) -> None:
    """Module(merge_aggregates=True): three storage buffers of the same layout share one
    runtime array and one Block struct; their repeated decorations collapse into one."""
    _shader(m, s)
    u32 = m.type_int(32, 0)
    gid = _builtin(m, s, StorageClass.Input, m.type_vector(u32, 3), BuiltIn.GlobalInvocationId)
    a, p_a = _ssbo(m, s, u32, 4, 0, "a")
    b, _ = _ssbo(m, s, u32, 4, 1, "b")
    c, _ = _ssbo(m, s, u32, 4, 2, "c")
    _compute_main(m, s, [gid])
    x = m.composite_extract(u32, m.load(m.type_vector(u32, 3), gid), [0])
    zero = _u32(m, 0)
    total = m.i_add(
        u32,
        m.load(u32, m.access_chain(p_a, a, [zero, x])),
        m.load(u32, m.access_chain(p_a, b, [zero, x])),
    )
    m.store(m.access_chain(p_a, c, [zero, x]), total)
    m.return_().function_end()


@entry((1, 1), "spv1.1", ("Addresses", "Int64", "Kernel"), options={"capabilities": "off"})
def kernel_capabilities_off(m: Module, s: Steps) -> None:
    """Module(capabilities="off"): the author declares Kernel, Addresses and Int64; the module adds
    nothing.  A kernel doing 64-bit pointer arithmetic (OpConvertPtrToU, OpConvertUToPtr) and
    OpPtrAccessChain with an all-ones 64-bit element, at SPIR-V 1.1."""
    _kernel(m, s)
    s.capability(m.capability, Capability.Int64)
    u64, f32 = m.type_int(64, 0), m.type_float(32)
    p_f32 = m.type_pointer(StorageClass.CrossWorkgroup, f32)
    fn = m.define_function(m.type_void(), [p_f32, u64])
    base, count = fn.parameters
    s.entry(m.entry_point, ExecutionModel.Kernel, fn.id, "tail", [])
    address = m.convert_ptr_to_u(u64, base)
    end = m.i_add(u64, address, m.i_mul(u64, count, m.constant(u64, 4)))
    last = m.ptr_access_chain(p_f32, m.convert_u_to_ptr(p_f32, end), m.constant(u64, 2**64 - 1))
    m.store(last, m.constant(f32, -0.0))
    m.return_().function_end()
