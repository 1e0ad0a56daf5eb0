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

An extension is allowed when the environment lists it (universal SPIR-V: any).  What an
instruction needs is what capability inference finds (:mod:`spvbuild.ir.requirements`:
its opcode, its enumerants, its types, its result type), so a needed capability that no
allowed choice meets is refused at the call that needs it, with the call site.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum, IntFlag
from typing import TYPE_CHECKING

from spvbuild.errors import ArgumentError, BuildError
from spvbuild.generated.core import tables
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_EXTENSION
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters
from spvbuild.spirv.tables import TargetEnvInfo

if TYPE_CHECKING:
    from collections.abc import Mapping

    from spvbuild.ir.requirements import _Need

__all__ = ["CheckedFirsts", "TargetProfile", "target_env_names", "target_profile"]

_profiles: dict[str, TargetProfile] = {}


def target_env_names() -> list[str]:
    """Every target environment a profile exists for (spirv-val's names)."""
    from spvbuild.generated.core.targets import TARGET_ENVS

    return list(TARGET_ENVS)


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
        # (version, needs key) of what a words path listed and the profile allowed with no
        # extension declared: allowed in every module of that version.
        self._allowed: set[tuple[tuple[int, int], tuple[object, ...]]] = set()

    def allows_extension(self, extension: str) -> bool:
        """Whether the environment allows the SPIR-V extension ``extension``."""
        return self.info.everything or extension in self.extensions

    def enabling_extensions(self, capability: int) -> tuple[str, ...]:
        """The allowed extensions that enable ``capability`` (the grammar's list)."""
        enumerant = tables.KINDS["Capability"].enumerants.get(capability)
        if enumerant is None:
            return ()
        return tuple(e for e in enumerant.extensions if self.allows_extension(e))

    def allows_capability(
        self, capability: int, version: tuple[int, int], declared: Sequence[str] = ()
    ) -> bool:
        """Whether a module at SPIR-V ``version`` that declares the extensions
        ``declared`` may declare ``capability``."""
        if capability in self.listed:
            return True
        enabling = self.enabling_extensions(capability)
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
        self, need: _Need, where: str, version: tuple[int, int], declared: Sequence[str]
    ) -> str | None:
        """Why the environment cannot meet ``need`` (None when it can): the message of the
        BuildError the call raises."""
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
            if not capabilities and not any(self.allows_extension(e) for e in extensions):
                return (
                    f"{' or '.join(extensions)} is not allowed by {self.name}: needed by "
                    f"{where}"
                )
        if not capabilities:
            return None
        values = [_capability_value(c) for c in capabilities]
        if any(v is not None and self.allows_capability(v, version, declared) for v in values):
            return None
        return f"{' or '.join(capabilities)} is not allowed by {self.name}: needed by {where}"

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
    ) -> None:
        """Refuse ``instruction`` (BuildError) when it needs what the environment does not
        allow: what it declares itself (OpCapability, OpExtension) or what its needs list."""
        opcode = instruction.opcode
        if opcode == OP_CAPABILITY and instruction.operands:
            value = instruction.operands[0]
            if isinstance(value, int) and not self.allows_capability(
                int(value), version, declared
            ):
                name = self.capability_name(int(value))
                raise BuildError(f"{name} is not allowed by {self.name}: declared by OpCapability")
        elif opcode == OP_EXTENSION and instruction.operands:
            extension = str(instruction.operands[0])
            if not self.allows_extension(extension):
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
            message = self.refusal(need, where, version, declared)
            if message is not None:
                raise BuildError(message)


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
                self._target.check_instruction(inst, walked_needs(inst), self._version, declared)
            except BuildError as exc:
                raise BuildError(located(str(exc))) from None
        super().__setitem__(first, value)
