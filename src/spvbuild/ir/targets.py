"""Target profiles: what an environment (``vulkan1.1``, ``opencl2.2``, ``spv1.4``) allows,
and the check a :class:`~spvbuild.ir.module.Module` made with ``target_env=`` runs at each
call.

The facts are data, ``grammars/target_envs.yaml`` (generated into
``spvbuild.generated.core.targets``).  A capability is allowed by a profile when

* the environment lists it (or, for universal SPIR-V, the grammar has it at the
  environment's version), or
* an extension that enables it (the grammar's ``extensions`` of the capability) is allowed
  and will be declared: the module declares it, or the capability is not core at the
  module's version, so inference declares that extension.

An extension is allowed when the environment lists it (universal SPIR-V: any) and the
module's SPIR-V version is at least the extension's lowest (``EXTENSION_VERSIONS``, from the
grammar's ``requires_version``); an enabling extension that is not allowed enables nothing.
A capability the environment lists ``after`` another (OpenCL's optional image capabilities,
after ImageBasic) is allowed only where that one is declared before it.  What an
instruction needs is what capability inference finds (:mod:`spvbuild.ir.requirements`:
its opcode, its enumerants, its types, its result type), so a needed capability that no
allowed choice meets is refused at the call that needs it, with the call site.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from enum import IntEnum, IntFlag
from typing import TYPE_CHECKING, NamedTuple

from spvbuild.errors import ArgumentError, BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.enums import MemoryModel
from spvbuild.generated.core.opcodes import (
    OP_CAPABILITY,
    OP_DECORATE,
    OP_EXT_INST_IMPORT,
    OP_EXTENSION,
    OP_MEMBER_DECORATE,
    OP_MEMORY_MODEL,
    OP_VARIABLE,
)
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.tables import TargetEnvInfo, TargetRule

if TYPE_CHECKING:
    from spvbuild.ir.requirements import _Need

__all__ = [
    "CheckedFirsts",
    "TargetProfile",
    "declared_capabilities",
    "target_env_names",
    "target_profile",
    "validator_env",
    "watched_opcodes",
]

_profiles: dict[str, TargetProfile] = {}


def target_env_names() -> list[str]:
    """Every target environment a profile exists for (spirv-val's names)."""
    from spvbuild.generated.core.targets import TARGET_ENVS

    return list(TARGET_ENVS)


def validator_env(name: str) -> str:
    """The spirv-val ``--target-env`` that validates a module for environment ``name``:
    its own name, but for an environment spirv-val does not know (``webgpu`` →
    ``vulkan1.1``); a name that is no environment is returned as it is."""
    from spvbuild.generated.core.targets import TARGET_ENVS

    info = TARGET_ENVS.get(name)
    return info.validator or name if info is not None else name


def target_profile(name: object) -> TargetProfile:
    """The profile of target environment ``name``; ArgumentError for a name without one."""
    from spvbuild.generated.core.targets import TARGET_ENVS

    if not isinstance(name, str) or name not in TARGET_ENVS:
        raise ArgumentError(
            f"target_env must be one of {', '.join(TARGET_ENVS)} (spirv-val's names), "
            f"not {name!r}"
        )
    found = _profiles.get(name)
    if found is None:
        found = _profiles[name] = TargetProfile(TARGET_ENVS[name])
    return found


class TargetProfile:
    """What one target environment allows (see the module's docstring)."""

    def __init__(self, info: TargetEnvInfo) -> None:
        self.info = info
        self.name = info.name
        self.version = info.version
        capability_kind = tables.KINDS["Capability"]
        self._names = {e.value: e.name for e in capability_kind.enumerants.values()}
        values = {e.name: e.value for e in capability_kind.enumerants.values()}
        if info.everything:
            self.listed = frozenset(
                e.value
                for e in capability_kind.enumerants.values()
                if e.version is not None and e.version <= info.version
            )
        else:
            self.listed = frozenset(values[n] for n in info.capabilities if n in values)
        self.extensions = frozenset(info.extensions)
        # (operand kind, value) → (name, why) of each enumerant the environment refuses.
        self.forbids = {(kind, value): (name, why) for kind, value, name, why in info.forbids}
        # capability → the capability that must be declared before it.
        self.after = {values[c]: values[a] for c, a in info.after if c in values and a in values}
        # The opcodes a rule of the environment looks at (spvbuild.ir.target_rules).
        self.watched = watched_opcodes(info.rules)
        # The spirv-val --target-env that validates a module for it.
        self.validator = info.validator or info.name
        # (version, needs key) of what a words path listed and the profile allowed with no
        # extension declared: allowed in every module of that version.
        self._allowed: set[tuple[tuple[int, int], tuple[object, ...]]] = set()

    def allows_extension(self, extension: str, version: tuple[int, int] | None = None) -> bool:
        """Whether the environment allows the SPIR-V extension ``extension`` in a module of
        SPIR-V ``version`` (default: the environment's)."""
        from spvbuild.generated.core.targets import EXTENSION_VERSIONS

        lowest = EXTENSION_VERSIONS.get(extension)
        if lowest is not None and lowest > (self.version if version is None else version):
            return False
        return self.info.everything or extension in self.extensions

    def enabling_extensions(
        self, capability: int, version: tuple[int, int] | None = None
    ) -> tuple[str, ...]:
        """The allowed extensions that enable ``capability`` (the grammar's list) in a
        module of SPIR-V ``version`` (default: the environment's)."""
        enumerant = tables.KINDS["Capability"].enumerants.get(capability)
        if enumerant is None:
            return ()
        return tuple(e for e in enumerant.extensions if self.allows_extension(e, version))

    def allows_capability(
        self,
        capability: int,
        version: tuple[int, int],
        declared: Sequence[str] = (),
        capabilities: Collection[int] | None = None,
    ) -> bool:
        """Whether a module at SPIR-V ``version`` that declares the extensions
        ``declared`` and, before this one, the capabilities ``capabilities`` may declare
        ``capability``."""
        before = self.after.get(capability)
        if before is not None and (capabilities is None or before not in capabilities):
            return False
        if capability in self.listed:
            return True
        enabling = self.enabling_extensions(capability, version)
        if not enabling:
            return False
        if any(e in declared for e in enabling):
            return True
        enumerant = tables.KINDS["Capability"].enumerants.get(capability)
        core_in = enumerant.version if enumerant is not None else None
        # Not core at this version: inference declares one of the enabling extensions.
        return core_in is None or core_in > version

    def capability_name(self, capability: int) -> str:
        """The grammar's name of ``capability`` (its number for one it does not know)."""
        return self._names.get(capability, str(capability))

    def refusal(
        self,
        need: _Need,
        where: str,
        version: tuple[int, int],
        declared: Sequence[str],
        declared_capabilities: Collection[int] = (),
    ) -> str | None:
        """Why the environment cannot meet ``need`` (None when it can) in a module that
        declares the extensions ``declared`` and the capabilities ``declared_capabilities``:
        the message of the BuildError the call raises."""
        capabilities, extensions, needed_version = need
        if not capabilities and not extensions and needed_version is not None:
            if needed_version > version:
                return (
                    f"{where} needs SPIR-V {needed_version[0]}.{needed_version[1]}; the module "
                    f"is {version[0]}.{version[1]}"
                )
            return None
        if extensions and (needed_version is None or needed_version > version):
            # Met by an extension (the version does not make it core): one must be allowed.
            if not capabilities and not any(
                self.allows_extension(e, version) for e in extensions
            ):
                return (
                    f"{' or '.join(extensions)} is not allowed by {self.name}: needed by "
                    f"{where}"
                )
        if not capabilities:
            return None
        values = [_capability_value(c) for c in capabilities]
        if any(
            v is not None and self.allows_capability(v, version, declared, declared_capabilities)
            for v in values
        ):
            return None
        return (
            f"{' or '.join(capabilities)} is not allowed by {self.name}"
            f"{self._after_note(values)}{self._version_note(values, version)}: needed by {where}"
        )

    def check_module(
        self, capabilities: Collection[int], sections: Mapping[str, list[Instruction]]
    ) -> None:
        """Refuse (BuildError) a module whose resolved ``capabilities`` break a module-level
        rule of :data:`MODULE_RULES` given its ``sections``."""
        opcodes = {
            i.opcode for name, found in sections.items() if name != "functions" for i in found
        }
        memory_model = next(
            (i for i in sections["memory_model"] if i.opcode == OP_MEMORY_MODEL), None
        )
        model = (
            int(memory_model.operands[1])
            if memory_model is not None and len(memory_model.operands) > 1
            and isinstance(memory_model.operands[1], int)
            else None
        )
        values = capability_values()
        # What the declared capabilities implicitly declare counts, as for spirv-val.
        closure = set(capabilities)
        todo = list(capabilities)
        while todo:
            enumerant = tables.KINDS["Capability"].enumerants.get(todo.pop())
            for implied in enumerant.capabilities if enumerant is not None else ():
                if values.get(implied) is not None and values[implied] not in closure:
                    closure.add(values[implied])
                    todo.append(values[implied])
        capabilities = closure
        for rule in MODULE_RULES:
            wanted = [values[c] for c in rule.capabilities]
            if not all(w in capabilities for w in wanted):
                continue
            missing = (
                (rule.opcode is not None and tables.OPCODES_BY_NAME[rule.opcode] not in opcodes)
                or (rule.capability is not None and values[rule.capability] not in capabilities)
                or (rule.memory_model is not None
                    and model != int(MemoryModel[rule.memory_model]))
            )
            if missing:
                raise BuildError(
                    f"{' and '.join(rule.capabilities)} declared: {rule.what} "
                    f"(spirv-val: {rule.source})"
                )

    def _version_note(self, values: Sequence[int | None], version: tuple[int, int]) -> str:
        """`` (SPV_X needs SPIR-V 1.4)`` for each extension the environment allows that
        would enable one of ``values`` but for the module's SPIR-V ``version``."""
        from spvbuild.generated.core.targets import EXTENSION_VERSIONS

        notes = set()
        for value in values:
            enumerant = tables.KINDS["Capability"].enumerants.get(value) if value else None
            if enumerant is None or value in self.listed:
                continue
            for extension in enumerant.extensions:
                lowest = EXTENSION_VERSIONS.get(extension)
                if lowest is not None and lowest > version and (
                    self.info.everything or extension in self.extensions
                ):
                    notes.add(f"{extension} needs SPIR-V {lowest[0]}.{lowest[1]}")
        return f" ({'; '.join(sorted(notes))})" if notes else ""

    def _after_note(self, values: Sequence[int | None]) -> str:
        """`` (only after X is declared)`` where one of ``values`` is allowed only so."""
        befores = sorted({self.capability_name(self.after[v]) for v in values if v in self.after})
        return f" (only after {' or '.join(befores)} is declared)" if befores else ""

    def allows_needs(
        self,
        instruction: Instruction,
        needs: Sequence[tuple[_Need, str]],
        version: tuple[int, int],
        key: tuple[object, ...] | None,
    ) -> bool:
        """Whether ``instruction`` (of needs key ``key``) is allowed with no extension
        declared: worked out once per version and key, then remembered."""
        if key is None:
            return False
        if (version, key) in self._allowed:
            return True
        try:
            self.check_instruction(instruction, needs, version, ())
        except BuildError:
            return False
        self._allowed.add((version, key))
        return True

    def check_instruction(
        self,
        instruction: Instruction,
        needs: Sequence[tuple[_Need, str]],
        version: tuple[int, int],
        declared: Sequence[str],
        declared_capabilities: Collection[int] = (),
    ) -> None:
        """Refuse ``instruction`` (BuildError) when it needs what the environment does not
        allow: what it declares itself (OpCapability, OpExtension) or what its needs list,
        in a module that declares the extensions ``declared`` and the capabilities
        ``declared_capabilities``."""
        opcode = instruction.opcode
        if opcode == OP_CAPABILITY and instruction.operands:
            value = instruction.operands[0]
            if isinstance(value, int) and not self.allows_capability(
                int(value), version, declared, declared_capabilities
            ):
                name = self.capability_name(int(value))
                raise BuildError(
                    f"{name} is not allowed by {self.name}{self._after_note([int(value)])}"
                    f"{self._version_note([int(value)], version)}: "
                    "declared by OpCapability"
                )
        elif opcode == OP_EXTENSION and instruction.operands:
            extension = str(instruction.operands[0])
            if not self.allows_extension(extension, version):
                from spvbuild.generated.core.targets import EXTENSION_VERSIONS

                lowest = EXTENSION_VERSIONS.get(extension)
                if lowest is not None and lowest > version:
                    raise BuildError(
                        f"{extension} needs SPIR-V {lowest[0]}.{lowest[1]}; the module is "
                        f"{version[0]}.{version[1]}: declared by OpExtension"
                    )
                raise BuildError(
                    f"{extension} is not allowed by {self.name}: declared by OpExtension"
                )
        if self.forbids:
            for value in instruction.operands:
                enumerant = value.enumerant if isinstance(value, EnumerantParameters) else value
                if isinstance(enumerant, IntEnum | IntFlag):
                    found = self.forbids.get((type(enumerant).__name__, int(enumerant)))
                    if found is not None:
                        raise BuildError(
                            f"{type(enumerant).__name__}.{found[0]} is not allowed by "
                            f"{self.name} ({found[1]}): used by {instruction_name(opcode)}"
                        )
        for need, where in needs:
            message = self.refusal(need, where, version, declared, declared_capabilities)
            if message is not None:
                raise BuildError(message)


def watched_opcodes(rules: Sequence[TargetRule]) -> frozenset[int]:
    """The opcodes whose calls one of ``rules`` looks at."""
    found: set[int] = set()
    for rule in rules:
        if rule.kind == "instruction":
            found.update(rule.opcodes)
        elif rule.kind in ("variable_type", "storage_image_access"):
            found.add(OP_VARIABLE)
        elif rule.kind == "ext_inst_import":
            found.add(OP_EXT_INST_IMPORT)
        elif rule.kind == "dropped_decoration":
            found.update((OP_DECORATE, OP_MEMBER_DECORATE))
        elif rule.kind == "storage_buffer_decoration":
            found.add(OP_DECORATE)
    return frozenset(found)


class ModuleRule(NamedTuple):
    """A rule over the whole module that spirv-val enforces: where ``capabilities`` are all
    declared, ``opcode`` must be in the module, ``capability`` declared too, or the memory
    model be ``memory_model``."""

    capabilities: tuple[str, ...]
    what: str
    source: str
    opcode: str | None = None
    capability: str | None = None
    memory_model: str | None = None


MODULE_RULES = (
    ModuleRule(("GraphARM",), "the module needs an OpGraphEntryPointARM",
               "No OpGraphEntryPointARM instruction was found but the GraphARM capability is "
               "declared", opcode="OpGraphEntryPointARM"),
    ModuleRule(("BindlessTextureNV",), "the module needs an OpSamplerImageAddressingModeNV",
               "Missing required OpSamplerImageAddressingModeNV instruction",
               opcode="OpSamplerImageAddressingModeNV"),
    ModuleRule(("VulkanMemoryModel",), "the memory model must be VulkanKHR",
               "VulkanMemoryModelKHR capability must only be specified if the VulkanKHR "
               "memory model is used", memory_model="Vulkan"),
    ModuleRule(("Shader", "CooperativeMatrixKHR"), "VulkanMemoryModel must be declared too",
               "If the Shader and CooperativeMatrixKHR capabilities are declared, the "
               "VulkanMemoryModel capability must also be declared",
               capability="VulkanMemoryModel"),
)
"""The module-level rules a profile checks when the module is written (SPIRV-Tools
v2025.5's messages as sources)."""


def capability_values() -> dict[str, int]:
    """Every Capability of the grammar by name."""
    return {e.name: e.value for e in tables.KINDS["Capability"].enumerants.values()}


def declared_capabilities(sections: Mapping[str, list[Instruction]]) -> set[int]:
    """The capabilities a module's sections declare (OpCapability), by value."""
    return {
        int(i.operands[0]) for i in sections["capabilities"]
        if i.operands and isinstance(i.operands[0], int)
    }


def instruction_name(opcode: int) -> str:
    """The grammar's name of ``opcode``."""
    info = tables.INSTRUCTIONS.get(opcode)
    return info.name if info is not None else f"Op{opcode}"


def _capability_value(name: str) -> int | None:
    from spvbuild.ir.requirements import capability_names

    return capability_names().get(name)


class CheckedFirsts(dict[int, None]):
    """A run's first words (``Run.firsts``) in a module built for a target: a first word
    added for the first time is checked, its opcode's own needs against the profile (an
    instruction of a run has ids only, so its opcode decides what it needs), before the
    generated fast path appends the instruction's words; a refusal is a BuildError at the
    user's call."""

    __slots__ = ("_sections", "_target", "_version")

    def __init__(
        self,
        target: TargetProfile,
        sections: Mapping[str, list[Instruction]],
        version: tuple[int, int],
    ) -> None:
        """For a module of SPIR-V ``version`` whose sections (what it declares) are
        ``sections``."""
        super().__init__()
        self._target = target
        self._sections = sections
        self._version = version

    def __setitem__(self, first: int, value: None) -> None:
        if first not in self:
            from spvbuild.ir.requirements import walked_needs
            from spvbuild.spirv.call_site import located

            inst = Instruction(first & 0xFFFF, None, None, ())
            declared = [str(i.operands[0]) for i in self._sections["extensions"]]
            try:
                self._target.check_instruction(
                    inst,
                    walked_needs(inst),
                    self._version,
                    declared,
                    declared_capabilities(self._sections),
                )
            except BuildError as exc:
                raise BuildError(located(str(exc))) from None
        super().__setitem__(first, value)
