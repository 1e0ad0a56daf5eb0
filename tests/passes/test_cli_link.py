"""``spvbuild link``: spirv-link's command line (its flags, its default of inputs of one
SPIR-V version), the same module as ``spvbuild.link``, exit codes and messages naming the
input files."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from spvbuild.cli import main
from spvbuild.generated.core.enums import Decoration, LinkageType
from spvbuild.passes import Program, link
from tests.passes import link_differential as diff
from tests.passes.helpers import val
from tests.passes.link_cases import CALLER, DEFINER, EXP_F, F_EXPORT, F_TYPE, Text, shader
from tests.passes.test_link import _words


def _files(folder: Path, *modules: Text) -> list[str]:
    paths = []
    for index, module in enumerate(modules):
        path = folder / f"m{index}.spv"
        path.write_bytes(diff.to_bytes(_words(module)))
        paths.append(str(path))
    return paths


def test_links_like_the_function(tmp_path: Path) -> None:
    paths = _files(tmp_path, CALLER, DEFINER)
    out = tmp_path / "out.spv"
    assert main(["link", *paths, "-o", str(out), "--target-env", "vulkan1.1"]) == 0
    expected = link([_words(CALLER), _words(DEFINER)])
    assert isinstance(expected, Program)
    assert diff.to_words(out.read_bytes()) == expected.to_words()
    assert val(diff.to_words(out.read_bytes()), "spv1.3") == ""


def test_library_and_partial_flags(tmp_path: Path) -> None:
    paths = _files(tmp_path, CALLER, DEFINER)
    out = tmp_path / "lib.spv"
    assert main(["link", "--create-library", *paths, "-o", str(out)]) == 0
    exports = [
        i.operands[1]
        for i in Program.from_words(out.read_bytes()).instructions
        if len(i.operands) > 1
        and getattr(i.operands[1], "enumerant", None) == Decoration.LinkageAttributes
    ]
    assert [(e.name, e.linkage_type) for e in exports] == [("f", LinkageType.Export)]
    assert main(["link", paths[0], "-o", str(out)]) == 1
    assert main(["link", "--allow-partial-linkage", paths[0], "-o", str(out)]) == 0


def test_versions_must_agree_unless_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    newer = shader(ann=EXP_F, types=F_TYPE, funcs=F_EXPORT, version="1.5")
    paths = _files(tmp_path, CALLER, newer)
    out = tmp_path / "out.spv"
    assert main(["link", *paths, "-o", str(out)]) == 1
    assert (
        f"conflicting SPIR-V versions: 1.3 ({paths[0]}) vs 1.5 ({paths[1]})"
        in capsys.readouterr().err
    )
    assert main(["link", "--use-highest-version", *paths, "-o", str(out)]) == 0
    assert diff.to_words(out.read_bytes())[1] == 0x00010500


def test_errors_name_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _files(tmp_path, CALLER)
    assert main(["link", paths[0], "-o", str(tmp_path / "out.spv")]) == 1
    assert capsys.readouterr().err.strip() == (
        f"spvbuild link: link: {paths[0]} imports 'f', which no module exports "
        "(partial linkage, allow_partial_linkage=True or --allow-partial-linkage, keeps it an import)"
    )
    assert not (tmp_path / "out.spv").exists()
    assert main(["link", str(tmp_path / "missing.spv")]) == 1
    with pytest.raises(SystemExit) as usage:
        main(["link", paths[0], "--target-env", "nowhere"])
    assert usage.value.code == 2


# What linking binaries on the words does without (a process's peak is mostly what it
# imports): the reader's tables, plans and typed instructions, the module room, OpenSSL's
# hash library, and what argparse's help width and tempfile would bring.
NOT_LOADED = (
    "spvbuild.generated.core.tables",
    "spvbuild.generated.core.enums",
    "spvbuild.binary.plans",
    "spvbuild.binary.reader",
    "spvbuild.passes.program",
    "spvbuild.ir.module",
    "dataclasses",
    "_hashlib",
    "shutil",
    "tempfile",
)


def test_linking_binaries_loads_little(tmp_path: Path) -> None:
    """``spvbuild link`` of inputs the words path links, in a fresh process: the module of
    ``spvbuild.link``, and none of NOT_LOADED imported."""
    paths = _files(tmp_path, CALLER, DEFINER)
    out = tmp_path / "out.spv"
    child = (
        "import sys; from spvbuild.cli import main; main(sys.argv[1:]); print(sorted(sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", child, "link", *paths, "-o", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = link([_words(CALLER), _words(DEFINER)])
    assert isinstance(expected, Program)
    assert diff.to_words(out.read_bytes()) == expected.to_words()
    loaded = set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))
    assert "spvbuild.passes.word_link" in loaded
    assert sorted(loaded.intersection(NOT_LOADED)) == []
