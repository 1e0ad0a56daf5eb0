"""The choice between the assembler's compiled engine and the plain-Python one.

``spvbuild.accel.engines`` may only run a compiled copy built from the sources on disk: a
digest over the engine and the spvbuild modules it imports decides.  Under CI the
compiled engine must be there (``make test`` builds it), so that the suite tests what
runs by default; the engine tests themselves run on both (see ``conftest.py``).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from spvbuild.accel import accelerate, engines
from spvbuild.text import asm_engine, assembler

PACKAGE = Path(engines.__file__).resolve().parent.parent  # the spvbuild package


def test_digest_covers_the_engine_and_its_direct_spvbuild_imports() -> None:
    names = [p.name for p in engines.source_files("asm_engine")]
    assert names[0] == "asm_engine.py"
    for needed in ("asm_grammar.py", "asm_numbers.py", "asm_tokens.py", "encoder.py"):
        assert needed in names
    assert "disassembler.py" not in names  # not imported by the engine


def test_digest_changes_when_an_imported_module_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "spvbuild"
    copy.mkdir()
    for path in engines.source_files("asm_engine"):
        target = copy / path.relative_to(PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    monkeypatch.setattr(engines, "_ROOT", copy)
    before = engines.source_digest("asm_engine")
    assert before == engines.source_digest("asm_engine")
    numbers = copy / "text" / "asm_numbers.py"
    numbers.write_text(numbers.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert engines.source_digest("asm_engine") != before


def test_a_stale_or_missing_build_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / "stale.sha256"
    stale.write_text("0" * 64 + "\n", encoding="ascii")
    monkeypatch.setattr(engines, "digest_file", lambda engine: stale)
    assert engines.compiled("asm_engine") is None
    monkeypatch.setattr(engines, "digest_file", lambda engine: tmp_path / "missing.sha256")
    assert engines.compiled("asm_engine") is None
    # What runs is the module `import` gives: plain in a checkout, the wheel's compiled
    # one where installed; never the stale or missing development copy.
    loaded = engines.load("asm_engine")
    assert loaded is importlib.import_module("spvbuild.text.asm_engine")
    assert loaded.__name__ == "spvbuild.text.asm_engine"


@pytest.mark.parametrize("error", [ImportError, ValueError])
def test_a_build_that_cannot_be_imported_is_not_used(
    monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    # A current digest, but the import fails: a module for another interpreter, librt gone
    # (ImportError) or of another version than at the build (mypyc's check: ValueError).
    monkeypatch.setattr(engines, "source_digest", lambda engine: "0" * 64)
    digest = PACKAGE / "no-such.sha256"
    monkeypatch.setattr(engines, "digest_file", lambda engine: digest)
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: "0" * 64)

    def failing(name: str) -> None:
        raise error(f"cannot import {name}")

    monkeypatch.setattr(engines.importlib, "import_module", failing)
    assert engines.compiled("read_engine") is None
    assert engines.compiled("asm_engine") is None


def test_pure_python_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(engines.PURE_ENV, "1")
    for engine in engines.ENGINES:
        assert engines.load(engine) is engines.plain(engine)


@pytest.mark.parametrize("engine", engines.ENGINES)
def test_the_plain_form_is_the_source_interpreted(engine: str) -> None:
    module = engines.plain(engine)
    assert engines.kind(module) == "python"
    assert Path(module.__file__ or "").resolve() == engines.source_path(engine)
    compiled = engines.compiled_form(engine)
    assert compiled is None or engines.kind(compiled) == "mypyc"


def fresh(code: str, pure: bool) -> str:
    """What a fresh interpreter prints for ``code``, with or without SPVBUILD_PURE_PYTHON."""
    env = {k: v for k, v in os.environ.items() if k != engines.PURE_ENV}
    if pure:
        env[engines.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("engine", "code"),
    [
        ("asm_engine", "from spvbuild.text import assembler; print(assembler.ENGINE)"),
        ("read_engine", "from spvbuild.binary import reader; print(reader.engine_kind())"),
        (
            "layout_engine",
            "from spvbuild.accel import engines; from spvbuild.ir import section_order; "
            "print(engines.kind(section_order.layout_engine()))",
        ),
    ],
)
def test_a_fresh_import_runs_the_compiled_engine_when_current(engine: str, code: str) -> None:
    expected = "mypyc" if engines.compiled_form(engine) is not None else "python"
    assert fresh(code, pure=False) == expected
    assert fresh(code, pure=True) == "python"


def test_the_read_engine_digest_covers_its_codes() -> None:
    names = [p.name for p in engines.source_files("read_engine")]
    assert names == ["read_engine.py", "read_codes.py"]


def test_ci_runs_the_compiled_engine() -> None:
    if os.environ.get("CI") != "true":
        pytest.skip("checked under CI=true, where make test builds the compiled engine")
    if os.environ.get("SPVBUILD_PURE_BUILD"):  # make test-wheels: the pure wheel
        assert assembler.ENGINE == "python"
        assert all(engines.compiled_form(engine) is None for engine in engines.ENGINES)
        return
    if all(engines.kind(engines.load(engine)) == "mypyc" for engine in engines.ENGINES) and (
        engines.compiled("asm_engine") is None
    ):  # make test-wheels: the compiled wheel (no development copies there)
        assert assembler.ENGINE == "mypyc"
        return
    module = engines.compiled("asm_engine")
    assert module is not None, "python -m spvbuild.accel.accelerate did not build a current engine"
    assert module.SOURCE_SHA256 == engines.source_digest("asm_engine")
    assert assembler.ENGINE == "mypyc"
    reader_engine = engines.compiled("read_engine")
    assert reader_engine is not None, "python -m spvbuild.accel.accelerate did not build the reader's"
    assert reader_engine.SOURCE_SHA256 == engines.source_digest("read_engine")
    layout_engine = engines.compiled("layout_engine")
    assert layout_engine is not None, "python -m spvbuild.accel.accelerate did not build the layout's"
    assert layout_engine.SOURCE_SHA256 == engines.source_digest("layout_engine")
    assert accelerate.main(["--check"]) == 0


def test_accelerate_reports_what_stops_a_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = engines.digest_file("asm_engine")
    before = recorded.read_bytes() if recorded.exists() else None
    monkeypatch.setattr(accelerate.importlib.util, "find_spec", lambda name: None)
    assert accelerate.build("asm_engine") is False
    assert "mypyc is not installed" in capsys.readouterr().out
    monkeypatch.undo()
    monkeypatch.setattr(accelerate, "_PACKAGE", tmp_path / "missing")
    monkeypatch.setattr(engines, "_HERE", tmp_path / "missing")
    assert accelerate.build("asm_engine") is False
    assert "cannot read or write the sources" in capsys.readouterr().out
    # Nothing was written or removed next to the real sources.
    assert not (PACKAGE / "accel" / "_asm_engine_mypyc.py").exists()
    assert (recorded.read_bytes() if recorded.exists() else None) == before


def test_a_failing_compiled_check_falls_back_to_plain_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
    expected = asm_engine.assemble(text).tolist()

    def broken(*args: object, **kwargs: object) -> list[int]:
        raise TypeError("int object expected; got None")

    fake = types.ModuleType("spvbuild.accel._asm_engine_mypyc")
    fake.__file__ = "/site/spvbuild/accel/_asm_engine_mypyc" + importlib.machinery.EXTENSION_SUFFIXES[0]
    fake.assemble = broken  # type: ignore[attr-defined]
    monkeypatch.setattr(assembler, "_engine", fake)
    with pytest.warns(RuntimeWarning, match="compiled assembler engine failed"):
        assert assembler.assemble(text) == expected
    # A TypeError of the plain engine is a bug of its own and is not hidden.
    plain = types.ModuleType("spvbuild.text.asm_engine")
    plain.__file__ = "/site/spvbuild/text/asm_engine.py"
    plain.assemble = broken  # type: ignore[attr-defined]
    monkeypatch.setattr(assembler, "_engine", plain)
    with pytest.raises(TypeError):
        assembler.assemble(text)
