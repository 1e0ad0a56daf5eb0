"""Import strings → extended instruction sets (``spvbuild.generated.extinst``).

The grammar names each set by its exact OpExtInstImport string; a set may also have an
``import_prefix`` (grammars/schema.yaml) for strings with another version suffix, as
SPIRV-Tools accepts ``NonSemantic.ClspvReflection.<any version>``.
"""

from __future__ import annotations

import pytest

from spvbuild.generated.extinst import IMPORT_NAMES, known_import_name, set_module


@pytest.mark.parametrize("name", sorted(IMPORT_NAMES))
def test_every_exact_import_string_names_its_own_set(name: str) -> None:
    assert known_import_name(name) == name
    module = set_module(name)
    assert module is not None
    assert module.__name__.endswith("." + IMPORT_NAMES[name])


@pytest.mark.parametrize("suffix", ["1", "5", "6", "7", "42"])
def test_clspv_reflection_takes_any_version_suffix(suffix: str) -> None:
    name = f"NonSemantic.ClspvReflection.{suffix}"
    assert known_import_name(name) == "NonSemantic.ClspvReflection.6"
    module = set_module(name)
    assert module is not None
    assert "Kernel" in {info.name for info in module.INSTRUCTIONS.values()}


@pytest.mark.parametrize(
    "name",
    ["", "GLSL.std.45", "glsl.std.450", "NonSemantic.ClspvReflection", "NonSemantic.Other"],
)
def test_other_strings_name_no_known_set(name: str) -> None:
    assert known_import_name(name) is None
    assert set_module(name) is None
