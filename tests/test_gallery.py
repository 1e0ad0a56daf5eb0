"""The gallery (examples/gallery/): every program writes its module, which passes spirv-val
for the environment it names; the reduction and the binary edit run on lavapipe and check
their numbers; every program is mypy --strict clean without casts or ignores; the
fragment shader fits in 60 lines of code without an id reserved by hand."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spvbuild.ir.validation import spirv_val_path

GALLERY = Path(__file__).resolve().parent.parent / "examples" / "gallery"
PROGRAMS = sorted(p.stem for p in GALLERY.glob("*.py") if p.stem != "common")
RUNNABLE = {"reduction", "edit_binary"}


def run(name: str, out: Path, *more: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(GALLERY / f"{name}.py"), "--out", str(out), *more],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()


def test_the_gallery_has_the_programs_asked_for() -> None:
    assert set(PROGRAMS) >= {
        "fragment", "vertex", "reduction", "opencl_kernel", "debuginfo_shader", "edit_binary",
    }  # fmt: skip


@pytest.mark.spirv_val
@pytest.mark.parametrize("name", PROGRAMS)
def test_every_program_writes_a_module_spirv_val_accepts(name: str, tmp_path: Path) -> None:
    lines = run(name, tmp_path)
    assert lines[-1].startswith("target-env ")
    env = lines[-1].split()[1]
    tool = spirv_val_path()
    assert tool is not None
    done = subprocess.run(
        [tool, "--target-env", env, str(tmp_path / f"{name}.spv")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.vulkan
@pytest.mark.parametrize("name", sorted(RUNNABLE))
def test_the_runnable_programs_check_their_numbers(name: str, tmp_path: Path) -> None:
    lines = run(name, tmp_path, "--run")
    assert any(line.split(" ", 2)[1:2] == ["ok:"] for line in lines), lines


def test_the_gallery_is_mypy_strict_clean_without_casts_or_ignores() -> None:
    for path in GALLERY.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "type: ignore" not in text and "cast(" not in text, path.name
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            *map(str, sorted(GALLERY.glob("*.py"))),
        ],
        capture_output=True,
        text=True,
        cwd=GALLERY,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def code_lines(path: Path) -> int:
    """Lines of code: not blank, not a comment, not the module's docstring."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    doc = tree.body[0] if tree.body and isinstance(tree.body[0], ast.Expr) else None
    skipped = set(range(doc.lineno, (doc.end_lineno or doc.lineno) + 1)) if doc else set()
    return sum(
        1
        for number, line in enumerate(source.splitlines(), 1)
        if number not in skipped and line.strip() and not line.strip().startswith("#")
    )


def test_the_fragment_shader_is_short_and_reserves_no_block_id() -> None:
    path = GALLERY / "fragment.py"
    assert code_lines(path) < 60  # fewer than before result types were inferred (issue 25)
    assert "new_id(" not in path.read_text(encoding="utf-8")


def test_the_recipe_runs_before_writing_unless_no_opt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``gallery_main`` writes the module after the main recipe; ``--no-opt`` as built."""
    from spvbuild.passes import main_recipe
    from spvbuild.passes import run as run_passes

    monkeypatch.syspath_prepend(str(GALLERY))
    import common
    import reduction

    written = {}
    for flags in ([], ["--no-opt"]):
        out = tmp_path / ("plain" if flags else "optimized")
        monkeypatch.setattr(sys, "argv", ["reduction.py", "--out", str(out), *flags])
        written[bool(flags)] = common.gallery_main("reduction", reduction.build, "vulkan1.1")
    built = reduction.build()
    assert written[True].read_bytes() == built.to_bytes()
    assert written[False].read_bytes() == run_passes(built, main_recipe()).to_bytes()
    assert written[False].stat().st_size < written[True].stat().st_size
