"""Reflection as text for people: ``spvbuild reflect shader.spv`` without ``--json``.

One line per fact, indented under what it belongs to::

    module SPIR-V 1.3, Logical GLSL450; capabilities Shader
    entry point main (GLCompute, comp), workgroup size 64 x 1 x 1 (LocalSize)
      uses set 0 binding 0, set 0 binding 1
    set 0 binding 0: storage_buffer In (variable values), readonly, 0 bytes + 4 per element
      +0 uint data[] (stride 4)
"""

from __future__ import annotations

from spvbuild.reflection.records import (
    SHOWN_SCALARS,
    ArraySize,
    BlockLayout,
    Member,
    Reflection,
    SpecConstant,
    WorkgroupDimension,
    scalar_count,
)

__all__ = ["summary"]


def _dims(dimensions: tuple[ArraySize, ...]) -> str:
    out = ""
    for d in dimensions:
        if d.length == 0 and d.constant_id is None:
            out += "[]"
        elif d.spec_id is not None:
            out += f"[{d.length} (SpecId {d.spec_id})]"
        elif d.constant_id is not None:
            out += f"[{d.length} (spec %{d.constant_id})]"
        else:
            out += f"[{d.length}]"
    return out


def _member(member: Member, indent: str, lines: list[str], listed: set[int]) -> None:
    where = f"+{member.offset}" if member.offset is not None else "+?"
    extra = []
    if member.array_stride is not None:
        extra.append(f"stride {member.array_stride}")
    if member.matrix_stride is not None:
        extra.append(f"matrix stride {member.matrix_stride}")
    if member.row_major:
        extra.append("row-major")
    if member.size is not None:
        extra.append(f"{member.size} bytes")
    shown = f" ({', '.join(extra)})" if extra else ""
    name = member.name or f"member {member.index}"
    spelled = member.type.glsl + ("*" if member.type.kind == "pointer" else "")
    lines.append(f"{indent}{where} {spelled} {name}{_dims(member.type.dimensions)}{shown}")
    kind = member.type
    struct = kind if kind.kind == "struct" else kind.element if kind.kind == "array" else None
    if struct is not None and struct.kind == "struct":  # (not through a pointer)
        if struct.id in listed:
            lines.append(f"{indent}  (members of {struct.glsl} as above)")
            return
        listed.add(struct.id)
        for inner in struct.members:
            _member(inner, indent + "  ", lines, listed)


def _block(block: BlockLayout, indent: str, lines: list[str]) -> None:
    """A block's members; a struct's members are listed where the struct is first met and
    referred to after, so the text grows with the module, not with the struct tree."""
    listed: set[int] = set()
    for member in block.members:
        _member(member, indent, lines, listed)


def _default(s: SpecConstant) -> str:
    count = scalar_count(s.default)
    return str(s.default) if count <= SHOWN_SCALARS else f"a composite of {count} scalars"


def _size(d: WorkgroupDimension) -> str:
    if d.spec_id is not None:
        return f"{d.size} (SpecId {d.spec_id})"
    return str(d.size)


def summary(r: Reflection) -> str:
    """The reflection of a module as readable lines (see the module's docstring)."""
    lines = [
        f"module SPIR-V {r.version[0]}.{r.version[1]}, {r.addressing_model} {r.memory_model}; "
        f"capabilities {', '.join(r.capabilities) or 'none'}"
    ]
    if r.extensions:
        lines.append(f"extensions {', '.join(r.extensions)}")
    for e in r.entry_points:
        line = f"entry point {e.name} ({e.execution_model}, {e.stage})"
        if e.workgroup_size is not None:
            w = e.workgroup_size
            line += f", workgroup size {_size(w.x)} x {_size(w.y)} x {_size(w.z)} ({w.source})"
        lines.append(line)
        modes = [
            m.mode + (f" {' '.join(map(str, m.operands))}" if m.operands else "")
            for m in e.execution_modes
        ]
        if modes:
            lines.append(f"  modes {', '.join(modes)}")
        if e.bindings:
            lines.append("  uses " + ", ".join(f"set {s} binding {b}" for s, b in e.bindings))
        for v in (*e.inputs, *e.outputs):
            inner = v.type.element if v.type.kind == "array" else v.type
            if v.builtin:
                where = f"builtin {v.builtin}"
            elif inner is not None and any(m.builtin for m in inner.members):
                where = "block of built-ins"
            else:
                where = f"location {v.location}"
            if v.component is not None:
                where += f" component {v.component}"
            lines.append(
                f"  {v.storage_class.lower()} {v.type.glsl} {v.name or '%' + str(v.variable_id)}"
                f"{_dims(v.type.dimensions)} ({where})"
            )
    for b in r.descriptor_bindings:
        flags = [f for f, on in (("readonly", b.readonly), ("writeonly", b.writeonly)) if on]
        if b.image is not None and b.image.format != "Unknown":
            flags.append(f"format {b.image.format}")
        if b.input_attachment_index is not None:
            flags.append(f"input attachment {b.input_attachment_index}")
        head = f"set {b.set} binding {b.binding}: {b.descriptor_type} {b.type.glsl}"
        head += f" {b.name or '%' + str(b.variable_id)}{_dims(b.dimensions)}"
        if b.block is not None:
            head += f", {b.block.size} bytes"
            if b.block.runtime_array_stride is not None:
                head += f" + {b.block.runtime_array_stride} per element"
        lines.append(head + "".join(f", {f}" for f in flags))
        if b.block is not None:
            _block(b.block, "  ", lines)
    for p in r.push_constants:
        lines.append(f"push constants {p.block.name} {p.name}: offset {p.offset}, size {p.size}")
        _block(p.block, "  ", lines)
    for s in r.spec_constants:
        head = (
            f"spec constant SpecId {s.spec_id}"
            if s.spec_id is not None
            else (f"spec {s.kind} %{s.id}")
        )
        op = f" = {s.operation}" if s.operation else ""
        lines.append(f"{head}: {s.type.glsl} {s.name or '%' + str(s.id)}{op}, default {_default(s)}")
    return "\n".join(lines) + "\n"
