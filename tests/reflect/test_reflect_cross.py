"""Reflection against SPIRV-Cross's ``--reflect``, field by field, on every module with an
entry point: the GLSL corpus (glslangValidator), the catalogue and the gallery.

Every difference must be one of :data:`~tests.reflect.cross_reference.KNOWN_DIFFERENCES`
(module, field, both values: what one of the points where SPIRV-Cross is wrong,
:data:`~tests.reflect.cross_reference.KNOWN_CROSS_ERRORS`, each shown with a module's words
in ``SPIRV_CROSS_ERRORS.md``, makes on that module), and every one listed must still be
seen.  Without spirv-cross the tests skip, except under ``CI=true``, where they fail.  SPIRV-Cross
refuses OpenCL kernels; those are reflected here without a reference (and by the unit
tests of ``test_reflect.py``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from spvbuild import disassemble
from spvbuild.reflection import reflect
from tests.reflect.cross_reference import (
    CROSS_REFUSES_KERNELS,
    KNOWN_CROSS_ERRORS,
    KNOWN_DIFFERENCES,
    Difference,
    compare,
    cross_reflect,
    spirv_cross_path,
)
from tests.reflect.modules import Case, catalogue_cases, gallery_cases, glsl_cases

ERRORS_PAGE = Path(__file__).with_name("SPIRV_CROSS_ERRORS.md")


@pytest.fixture(scope="module")
def workdir(reflect_workdir: Path) -> Path:
    return reflect_workdir


@pytest.fixture(scope="module")
def cases(workdir: Path) -> tuple[Case, ...]:
    if spirv_cross_path() is None:
        message = "spirv-cross not installed (Debian: apt-get install spirv-cross)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)  # the differential never skips under CI
        pytest.skip(message)
    return glsl_cases(workdir) + catalogue_cases() + gallery_cases(workdir)


@pytest.fixture(scope="module")
def differences(cases: tuple[Case, ...], workdir: Path) -> dict[str, list[Difference]]:
    """Each compared module's differences (kernels apart: SPIRV-Cross refuses them)."""
    found: dict[str, list[Difference]] = {}
    for case in cases:
        if case.kernel:
            continue
        found[case.name] = compare(reflect(case.binary), cross_reflect(case.binary, workdir,
                                                                       case.name))
    return found


def test_enough_modules_of_every_origin(cases: tuple[Case, ...]) -> None:
    compared = [c for c in cases if not c.kernel]
    assert len(compared) >= 150
    origins = {c.origin for c in compared}
    assert origins == {"glsl", "catalogue", "gallery"}
    assert len({c.name for c in cases}) == len(cases)


def test_every_difference_is_a_known_one(
    differences: dict[str, list[Difference]],
) -> None:
    unexplained = [
        f"{name}: {d}"
        for name, found in differences.items()
        for d in found
        if not any(k.matches(name, d) for k in KNOWN_DIFFERENCES)
    ]
    assert unexplained == []


def test_every_known_difference_is_seen(differences: dict[str, list[Difference]]) -> None:
    unseen = [
        k for k in KNOWN_DIFFERENCES
        if not any(k.matches(k.module, d) for d in differences.get(k.module, []))
    ]
    assert unseen == []


def test_known_differences_are_of_documented_errors() -> None:
    keys = {e.key for e in KNOWN_CROSS_ERRORS}
    assert {k.error for k in KNOWN_DIFFERENCES} == keys
    assert len(set(KNOWN_DIFFERENCES)) == len(KNOWN_DIFFERENCES)


def test_cross_refuses_kernels(cases: tuple[Case, ...], workdir: Path) -> None:
    kernels = [c for c in cases if c.kernel]
    assert kernels
    for case in kernels:
        with pytest.raises(RuntimeError, match=re.escape(CROSS_REFUSES_KERNELS)):
            cross_reflect(case.binary, workdir, case.name)
        assert reflect(case.binary).entry_points[0].execution_model == "Kernel"


def _page_sections() -> Iterator[tuple[str, str, list[str]]]:
    """(error key, module name, the words shown) of each section of the errors page."""
    text = ERRORS_PAGE.read_text()
    for match in re.finditer(
        r"^## `(?P<key>[\w-]+)`.*?^Module: `(?P<module>[\w-]+)`.*?^```\n(?P<words>.*?)^```",
        text,
        re.S | re.M,
    ):
        lines = [line.strip() for line in match["words"].splitlines() if line.strip()]
        yield match["key"], match["module"], lines


def test_errors_page_shows_each_error_with_the_modules_words(
    cases: tuple[Case, ...], differences: dict[str, list[Difference]]
) -> None:
    """Each documented error has a section on the page naming a module that shows it, with
    words that module has (as spirv-dis prints them)."""
    by_name = {c.name: c for c in cases}
    sections = list(_page_sections())
    assert {key for key, _, _ in sections} == {e.key for e in KNOWN_CROSS_ERRORS}
    for key, module, words in sections:
        assert any(
            k.error == key and k.matches(module, d)
            for k in KNOWN_DIFFERENCES
            for d in differences[module]
        ), (key, module)
        text = [line.strip() for line in disassemble(by_name[module].binary).splitlines()]
        for line in words:
            assert line in text, (key, module, line)
