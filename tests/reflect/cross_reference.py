"""SPIRV-Cross's ``--reflect`` as a reference: run it, and compare its JSON with
:func:`spvbuild.reflect` field by field.

SPIRV-Cross groups resources by kind (``ubos``, ``ssbos``, ``textures``, ...) and prints
struct types once under ``types``; each of its facts is matched to ours by the key both
share (set and binding; push-constant variable; SpecId; stage-variable name and location)
and every field it prints is compared: names, types (its GLSL spellings), offsets, array
sizes (a specialization-constant size by its id), strides, row-majorness, block sizes,
workgroup sizes (a specialization-constant size by its SpecId), spec-constant ids, names,
types and defaults, formats, read-only and write-only.  A :class:`Difference` names the
path of the field and both values.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spvbuild.reflection import (
    ArraySize,
    DescriptorBinding,
    EntryPoint,
    Member,
    Reflection,
    StageVariable,
    TypeInfo,
)

# Our descriptor type → the SPIRV-Cross resource list it prints the binding in.
CROSS_LISTS = {
    "uniform_buffer": "ubos",
    "storage_buffer": "ssbos",
    "combined_image_sampler": "textures",
    "sampled_image": "separate_images",
    "uniform_texel_buffer": "separate_images",
    "sampler": "separate_samplers",
    "storage_image": "images",
    "storage_texel_buffer": "images",
    "input_attachment": "subpass_inputs",
    "acceleration_structure": "acceleration_structures",
}


_MADE_UP = re.compile(r"_\d+(_\d+)?|_m\d+")


@dataclass(frozen=True)
class Difference:
    """One field where SPIRV-Cross and spvbuild disagree."""

    path: str
    cross: Any
    ours: Any

    def __str__(self) -> str:
        return f"{self.path}: spirv-cross {self.cross!r}, spvbuild {self.ours!r}"


def spirv_cross_path() -> str | None:
    """The spirv-cross command, or None when it is not installed."""
    return shutil.which("spirv-cross")


def cross_reflect(binary: bytes, workdir: Path, name: str) -> dict[str, Any]:
    """SPIRV-Cross's ``--reflect`` JSON of ``binary`` (RuntimeError with its message when
    it fails)."""
    tool = spirv_cross_path()
    if tool is None:
        raise RuntimeError("spirv-cross is not installed")
    path = workdir / f"{name}.spv"
    path.write_bytes(binary)
    done = subprocess.run([tool, str(path), "--reflect"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"spirv-cross --reflect failed: {done.stderr.strip()}")
    found = json.loads(done.stdout)
    assert isinstance(found, dict)
    return found


def cross_list(binding: DescriptorBinding) -> str:
    """The SPIRV-Cross resource list ``binding`` is printed in.  A uniform texel buffer
    declared as a sampled image of a buffer image (GLSL's ``samplerBuffer`` before SPIR-V
    1.6) is a combined image sampler to SPIRV-Cross, which lists SPIR-V types, and a
    uniform texel buffer to Vulkan, which spvbuild reports."""
    resource = binding.type.element if binding.dimensions else binding.type
    if (
        binding.descriptor_type == "uniform_texel_buffer"
        and resource is not None
        and resource.kind == "sampled_image"
    ):
        return "textures"
    return CROSS_LISTS[binding.descriptor_type]


# SPIRV-Cross 2021's spellings that differ from spvbuild's for the same thing.
_SPELLINGS = {"accelerationStructureNV": "accelerationStructureEXT"}


UNKNOWN_MODE = "???"
"""SPIRV-Cross's mode for an execution model it does not know."""

UNKNOWN_STAGES = ("mesh", "task")
"""The stages SPIRV-Cross 2021 prints as :data:`UNKNOWN_MODE` (MeshEXT, TaskEXT)."""


def shown(entry: EntryPoint) -> str:
    """``entry``'s stage and workgroup size as one string, ``"mesh 32 x 1 x 1"``; a
    specialization-constant size is its default and its SpecId, ``"1 (spec 8)"``."""
    size = entry.workgroup_size
    if size is None:
        return f"{entry.stage} (no workgroup size)"
    dims = [
        str(d.size) if d.spec_id is None else f"{d.size} (spec {d.spec_id})"
        for d in (size.x, size.y, size.z)
    ]
    return f"{entry.stage} {' x '.join(dims)}"


class _Comparison:
    def __init__(self, ours: Reflection, cross: dict[str, Any]) -> None:
        self.ours = ours
        self.cross = cross
        self.types: dict[str, Any] = cross.get("types", {})
        self.differences: list[Difference] = []

    def check(self, path: str, cross: Any, ours: Any) -> None:
        if cross != ours:
            self.differences.append(Difference(path, cross, ours))

    def name(self, path: str, cross: str, ours: str) -> None:
        """A name; SPIRV-Cross makes one up (``_12``, ``_12_14``, ``_m0``) for an id or
        member the module leaves unnamed, where spvbuild says ``""``."""
        if ours == "" and _MADE_UP.fullmatch(cross):
            return
        self.check(path, cross, ours)

    # -- arrays and types ---------------------------------------------------------------

    def arrays(self, path: str, item: dict[str, Any], dimensions: tuple[ArraySize, ...]) -> None:
        """SPIRV-Cross lists dimensions innermost first; a non-literal size is the id."""
        cross = item.get("array", [])
        literal = item.get("array_size_is_literal", [])
        ours = [d.constant_id if d.constant_id is not None else d.length for d in dimensions]
        ours_literal = [d.constant_id is None for d in dimensions]
        self.check(f"{path}.array", cross, list(reversed(ours)))
        if cross:
            self.check(f"{path}.array_size_is_literal", literal, list(reversed(ours_literal)))

    def type_name(self, path: str, cross: str, ours: TypeInfo) -> None:
        element = ours.element if ours.kind in ("array", "runtime_array") else ours
        if element is not None and element.kind == "pointer":
            # A physical storage buffer pointer: SPIRV-Cross names it by an id, its pointee
            # struct's (a member that is one pointer) or its own (an array of pointers).
            ids = {f"_{element.id}"}
            if element.element is not None:
                ids.add(f"_{element.element.id}")
            self.check(f"{path}.type", cross, cross if cross in ids else sorted(ids))
            return
        if cross in self.types:
            struct = ours.element if ours.kind in ("array", "runtime_array") else ours
            if struct is None or struct.kind != "struct":
                self.check(f"{path}.type", cross, ours.glsl)
                return
            self.struct(f"{path}<{cross}>", self.types[cross], struct.members)
        else:
            self.check(f"{path}.type", cross, ours.glsl)

    def struct(self, path: str, cross: dict[str, Any], members: tuple[Member, ...]) -> None:
        cross_members = cross.get("members", [])
        self.check(f"{path}.members.count", len(cross_members), len(members))
        for item, member in zip(cross_members, members, strict=False):
            where = f"{path}.{item.get('name') or member.index}"
            self.name(f"{where}.name", item.get("name", ""), member.name)
            self.type_name(where, item["type"], member.type)
            self.check(f"{where}.offset", item.get("offset"), member.offset)
            self.arrays(where, item, member.type.dimensions)
            if "array_stride" in item or member.array_stride is not None:
                self.check(f"{where}.array_stride", item.get("array_stride"), member.array_stride)
            if "matrix_stride" in item:
                self.check(f"{where}.matrix_stride", item["matrix_stride"], member.matrix_stride)
            self.check(f"{where}.row_major", item.get("row_major", False), member.row_major)

    # -- the lists ----------------------------------------------------------------------

    def entry_points(self) -> None:
        ours = {(e.name, e.stage): e for e in self.ours.entry_points}
        defaults = {
            c["id"]: c["default_value"]
            for c in self.cross.get("specialization_constants", [])
            if "default_value" in c
        }
        for item in self.cross.get("entryPoints", []):
            key = (item["name"], item["mode"])
            path = f"entryPoints[{item['name']}:{item['mode']}]"
            if item["mode"] == UNKNOWN_MODE:
                # SPIRV-Cross does not know the stage: the difference carries ours, stage
                # and workgroup size, for the list of known differences to pin down.
                unknown = [k for k in ours if k[0] == item["name"] and k[1] in UNKNOWN_STAGES]
                found = ours.pop(unknown[0]) if len(unknown) == 1 else None
                self.check(path, UNKNOWN_MODE, "missing" if found is None else shown(found))
                continue
            found = ours.pop(key, None)
            if found is None:
                self.check(path, "present", "missing")
                continue
            if "workgroup_size" not in item:
                continue
            flags = item.get("workgroup_size_is_spec_constant_id", [False] * 3)
            size = found.workgroup_size
            dims = (size.x, size.y, size.z) if size is not None else (None, None, None)
            for axis, cross, spec, dim in zip(
                "xyz", item["workgroup_size"], flags, dims, strict=True
            ):
                mine = None if dim is None else (dim.spec_id if spec else dim.size)
                self.check(f"{path}.workgroup_size.{axis}", cross, mine)
                if spec and cross in defaults:
                    # A specialization-constant size: its default is the constant's.
                    self.check(f"{path}.workgroup_size.{axis}.default", defaults[cross],
                               None if dim is None else dim.size)
        for key in ours:
            self.check(f"entryPoints[{key[0]}:{key[1]}]", "missing", "present")

    def bindings(self) -> None:
        by_place: dict[tuple[int, int], list[DescriptorBinding]] = {}
        for b in self.ours.descriptor_bindings:
            by_place.setdefault((b.set, b.binding), []).append(b)
        for list_name in sorted(set(CROSS_LISTS.values())):
            for item in self.cross.get(list_name, []):
                place = (item.get("set", 0), item.get("binding", 0))
                path = f"{list_name}[set {place[0]} binding {place[1]} {item['name']}]"
                candidates = by_place.get(place, [])
                found = next((b for b in candidates if cross_list(b) == list_name), None)
                if found is None:
                    kinds = [b.descriptor_type for b in candidates] or "missing"
                    self.check(path, list_name, kinds)
                    continue
                candidates.remove(found)
                self.binding(path, item, found)
        for place, rest in by_place.items():
            for b in rest:
                self.check(f"binding {place} {b.name}", "missing", b.descriptor_type)

    def binding(self, path: str, item: dict[str, Any], ours: DescriptorBinding) -> None:
        if ours.block is not None:
            # A block is shown by its struct's name, unless several variables share the
            # struct: then by the variable's.
            shared = sum(
                b.block is not None and b.block.type_id == ours.block.type_id
                for b in self.ours.descriptor_bindings
            )
            named = (
                ours.name if shared > 1 or not self.named(ours.block.type_id) else (ours.block.name)
            )
            self.name(f"{path}.name", item["name"], named)
            self.check(f"{path}.block_size", item.get("block_size"), ours.block.size)
            self.struct(path, self.types[item["type"]], ours.block.members)
        else:
            self.name(f"{path}.name", item["name"], ours.name)
            cross_type = _SPELLINGS.get(item["type"], item["type"])
            self.check(f"{path}.type", cross_type, ours.type.glsl)
        self.arrays(path, item, ours.dimensions)
        if ours.descriptor_type in ("storage_buffer", "storage_image", "storage_texel_buffer"):
            self.check(f"{path}.readonly", item.get("readonly", False), ours.readonly)
            self.check(f"{path}.writeonly", item.get("writeonly", False), ours.writeonly)
        if "format" in item and ours.image is not None:
            # SPIRV-Cross spells formats as GLSL does (rgba8_snorm), the grammar Rgba8Snorm.
            cross_format = item["format"].replace("_", "")
            self.check(f"{path}.format", cross_format, ours.image.format.lower())
        if "input_attachment_index" in item:
            self.check(
                f"{path}.input_attachment_index",
                item["input_attachment_index"],
                ours.input_attachment_index,
            )

    def named(self, type_id: int) -> bool:
        """Whether the struct ``type_id`` has a debug name (not one made up)."""
        for b in self.ours.descriptor_bindings:
            if b.block is not None and b.block.type_id == type_id:
                return not b.block.name.startswith("_")
        return False

    def push_constants(self) -> None:
        ours = {p.name or f"_{p.variable_id}": p for p in self.ours.push_constants}
        for item in self.cross.get("push_constants", []):
            path = f"push_constants[{item['name']}]"
            found = ours.pop(item["name"], None)
            if found is None:
                self.check(path, "present", "missing")
                continue
            self.struct(path, self.types[item["type"]], found.block.members)
        for name in ours:
            self.check(f"push_constants[{name}]", "missing", "present")

    def spec_constants(self) -> None:
        # By (SpecId, id): glslang gives local_size_x_id's SpecId to two constants.
        ours = {(s.spec_id, s.id): s for s in self.ours.spec_constants if s.spec_id is not None}
        for item in self.cross.get("specialization_constants", []):
            path = f"specialization_constants[{item['id']} %{item['variable_id']}]"
            found = ours.pop((item["id"], item["variable_id"]), None)
            if found is None:
                self.check(path, "present", "missing")
                continue
            self.name(f"{path}.name", item["name"], found.name)
            self.check(f"{path}.type", item["type"], found.type.glsl)
            if "default_value" in item:
                self.check(f"{path}.default_value", item["default_value"], found.default)
        for spec_id, cid in ours:
            self.check(f"specialization_constants[{spec_id} %{cid}]", "missing", "present")

    def stage_variables(self) -> None:
        for list_name, storage in (("inputs", "inputs"), ("outputs", "outputs")):
            ours: dict[str, StageVariable] = {}
            aliases: dict[str, str] = {}
            for e in self.ours.entry_points:
                for v in getattr(e, storage):
                    inner = v.type.element if v.type.kind == "array" else v.type
                    members = inner.members if inner is not None else ()
                    if v.builtin is None and not any(m.builtin for m in members):
                        ours.setdefault(v.name or f"_{v.variable_id}", v)
                        # SPIRV-Cross shows an interface block by its struct's name.
                        if inner is not None and inner.kind == "struct":
                            aliases[inner.glsl] = v.name or f"_{v.variable_id}"
            for item in self.cross.get(list_name, []):
                path = f"{list_name}[{item['name']}]"
                found = ours.pop(aliases.get(item["name"], item["name"]), None)
                if found is None:
                    self.check(path, "present", "missing")
                    continue
                self.type_name(path, item["type"], found.type)
                self.check(f"{path}.location", item.get("location"), found.location)
                if "component" in item:
                    self.check(f"{path}.component", item["component"], found.component)
                self.arrays(path, item, found.type.dimensions)
            for name in ours:
                self.check(f"{list_name}[{name}]", "missing", "present")


def compare(ours: Reflection, cross: dict[str, Any]) -> list[Difference]:
    """Every field where SPIRV-Cross's ``--reflect`` JSON ``cross`` and ``ours`` differ."""
    comparison = _Comparison(ours, cross)
    comparison.entry_points()
    comparison.bindings()
    comparison.push_constants()
    comparison.spec_constants()
    comparison.stage_variables()
    return comparison.differences


@dataclass(frozen=True)
class CrossError:
    """A point where SPIRV-Cross 2021.01.15 (Debian's) is wrong; each is shown with a
    module's words in ``tests/reflect/SPIRV_CROSS_ERRORS.md``, and the differences it makes
    are listed one by one in :data:`KNOWN_DIFFERENCES`."""

    key: str
    what: str


KNOWN_CROSS_ERRORS = (
    CrossError(
        "mesh-task-models",
        "It does not know the MeshEXT and TaskEXT execution models: the entry point's mode "
        "is '???' and its workgroup size is left out.",
    ),
    CrossError(
        "block-size-from-last-member",
        "A block's size is taken from its last member (offset plus size), not from the "
        "member that ends last: an array sized by a specialization constant that ends after "
        "the next member's offset is not counted.",
    ),
    CrossError(
        "local-size-id-constant",
        "A LocalSizeId operand that is an OpConstant (not a specialization constant) is "
        "printed as size 0.",
    ),
)
"""Every point where SPIRV-Cross's ``--reflect`` is wrong on the modules tested."""


@dataclass(frozen=True)
class KnownDifference:
    """One difference a :class:`CrossError` makes on one module: the field, SPIRV-Cross's
    value and spvbuild's, the right one, worked out by hand from the module's source."""

    error: str
    """The :attr:`CrossError.key`."""
    module: str
    path: str
    cross: object
    ours: object

    def matches(self, module: str, difference: Difference) -> bool:
        """Whether ``difference``, found on ``module``, is exactly this one."""
        return (module, difference.path, difference.cross, difference.ours) == (
            self.module, self.path, self.cross, self.ours
        )


def _mesh_task(module: str, ours: str) -> KnownDifference:
    """A mesh or task shader: SPIRV-Cross prints its mode as ``???`` and no workgroup
    size; ``ours`` is the stage and size its GLSL source declares (see :func:`shown`)."""
    return KnownDifference(
        "mesh-task-models", module, f"entryPoints[main:{UNKNOWN_MODE}]", UNKNOWN_MODE, ours
    )


KNOWN_DIFFERENCES = (
    _mesh_task("task_cull", "task 32 x 1 x 1"),
    _mesh_task("mesh_meshlet", "mesh 32 x 1 x 1"),
    _mesh_task("mesh_lines_payload", "mesh 2 x 1 x 1"),
    _mesh_task("blk_ssbo_scalar_nested_8", "task 1 x 1 x 1"),
    _mesh_task("blk_ubo_scalar_nested_9", "mesh 1 x 1 x 1"),
    _mesh_task("blk_ubo_scalar_nested_24", "task 1 x 1 x 1"),
    _mesh_task("blk_ubo_std140_nested_25", "mesh 1 x 1 x 1"),
    _mesh_task("blk_ubo_std140_40", "task 1 x 1 x 1"),
    _mesh_task("blk_ssbo_std430_nested_41", "mesh 1 x 1 x 1"),
    _mesh_task("blk_ssbo_std430_nested_56", "task 1 x 1 x 1"),
    _mesh_task("blk_ssbo_std140_nested_57", "mesh 1 x 1 x 1"),
    _mesh_task("push_std430_off64_8", "mesh 1 x 1 x 1"),
    _mesh_task("push_std140_11", "task 1 x 1 x 1"),
    _mesh_task("spec_mesh_6", "mesh 1 x 1 x 1"),
    _mesh_task("spec_mesh_14", "mesh 1 x 1 x 1"),
    _mesh_task("lsid_task_2", "task 1 x 1 x 1 (spec 0)"),
    _mesh_task("lsid_mesh_3", "mesh 1 (spec 1) x 1 (spec 8) x 1"),
    _mesh_task("lsid_task_7", "task 1 (spec 7) x 1 (spec 2) x 1"),
    _mesh_task("img_task_11", "task 1 x 1 x 1"),
    _mesh_task("img_mesh_12", "mesh 1 x 1 x 1"),
    _mesh_task("img_task_29", "task 1 x 1 x 1"),
    _mesh_task("img_mesh_30", "mesh 1 x 1 x 1"),
    # float values[TILE_AREA] with TILE = 8: 64 floats of 4 bytes; the runtime array after
    # it at offset 4 adds nothing.
    KnownDifference("block-size-from-last-member", "comp_spec_sizes",
                    "ssbos[set 0 binding 0 Data].block_size", 4, 256),
    # OpExecutionModeId LocalSizeId %2 %3 %uint_1: z is the constant 1.
    KnownDifference("local-size-id-constant", "compute_local_size_id",
                    "entryPoints[main:comp].workgroup_size.z", 0, 1),
)
"""Every difference between SPIRV-Cross and spvbuild on the modules tested, by module; any
other is a failure, and so is any of these not seen.  The mesh and task shaders' stages and
sizes are those their GLSL sources declare (``layout(local_size_x = 32) in;`` in a
``.task`` shader: ``task 32 x 1 x 1``)."""


CROSS_REFUSES_KERNELS = "SPIRV-Cross threw an exception: Kernel capability not supported."
"""What SPIRV-Cross says for every OpenCL kernel module: it reflects shaders only."""
