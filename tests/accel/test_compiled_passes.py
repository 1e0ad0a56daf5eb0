"""When the compiled passes run (:mod:`spvbuild.accel.compiled_passes`): only while the
digest beside them matches the sources, and never with ``SPVBUILD_PURE_PYTHON`` set."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from spvbuild.accel import compiled_passes
from spvbuild.accel.engines import PURE_ENV


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the passes package's compiled modules' sources, with a build folder."""
    source = Path(compiled_passes.__file__).resolve().parent.parent / "passes"
    copy = tmp_path / "spvbuild" / "passes"
    copy.mkdir(parents=True)
    for name in compiled_passes.MODULES:
        shutil.copy(source / f"{name}.py", copy / f"{name}.py")
    compiled_passes.folder(copy).mkdir()
    return copy


def test_no_digest_is_no_build(package: Path) -> None:
    assert not compiled_passes.current(package)
    path = [str(package)]
    compiled_passes.use(path, package)
    assert path == [str(package)]


def test_a_current_build_goes_first_on_the_path(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(PURE_ENV, raising=False)
    digest = compiled_passes.source_digest(package)
    compiled_passes.digest_file(package).write_text(digest + "\n", encoding="ascii")
    assert compiled_passes.current(package)
    path = [str(package)]
    compiled_passes.use(path, package)
    assert path == [str(compiled_passes.folder(package)), str(package)]
    compiled_passes.use(path, package)  # (once only)
    assert len(path) == 2


def test_an_edited_source_makes_the_build_stale(package: Path) -> None:
    digest = compiled_passes.source_digest(package)
    compiled_passes.digest_file(package).write_text(digest + "\n", encoding="ascii")
    edited = package / f"{compiled_passes.MODULES[0]}.py"
    text = edited.read_text(encoding="utf-8")
    edited.write_text(text + "\n# edited\n", encoding="utf-8")
    assert not compiled_passes.current(package)
    path = [str(package)]
    compiled_passes.use(path, package)
    assert path == [str(package)]
    edited.write_text(text, encoding="utf-8")
    assert compiled_passes.current(package)


def test_the_digest_covers_what_the_modules_import(package: Path) -> None:
    """An imported module's source takes part: its types are compiled in."""
    imported = package.parent / "spirv" / "ids.py"
    imported.parent.mkdir()
    imported.write_text("class Id(int): ...\n", encoding="utf-8")
    files = compiled_passes.source_files(package)
    assert imported in files
    before = compiled_passes.source_digest(package)
    imported.write_text("class Id(int): pass\n", encoding="utf-8")
    assert compiled_passes.source_digest(package) != before


def test_pure_python_keeps_the_plain_modules(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    digest = compiled_passes.source_digest(package)
    compiled_passes.digest_file(package).write_text(digest + "\n", encoding="ascii")
    monkeypatch.setenv(PURE_ENV, "1")
    path = [str(package)]
    compiled_passes.use(path, package)
    assert path == [str(package)]
