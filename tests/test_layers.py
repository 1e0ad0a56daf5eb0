"""The layering of src/spvbuild, read from its imports by tools/check_layers.py."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.source_tree  # (reads the checkout's files)

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_layers", ROOT / "tools/check_layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_layers"] = module
    spec.loader.exec_module(module)
    return module


def test_the_runtime_keeps_its_layers() -> None:
    """No import circle among files or rooms; binary/ imports nothing from ir/; the bottom
    layer imports only itself and the errors; generated/ only the bottom layer; only the
    face and the command line import the passes; no hand-written file over 800 lines."""
    assert _tool().problems(ROOT) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {**files, "generated/__init__.py": ""}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_tool_finds_each_broken_rule(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "src/spvbuild/__init__.py": "",
            "src/spvbuild/errors.py": "",
            "src/spvbuild/spirv/__init__.py": "",
            "src/spvbuild/spirv/ids.py": "from spvbuild.errors import X\n",
            "src/spvbuild/spirv/bad.py": "def f():\n    from spvbuild.ir import a\n",
            "src/spvbuild/ir/__init__.py": "",
            "src/spvbuild/ir/a.py": "from spvbuild.ir.b import y\nfrom spvbuild.spirv import ids\n",
            "src/spvbuild/ir/b.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from spvbuild.ir import a\n",
            "src/spvbuild/binary/__init__.py": "",
            "src/spvbuild/binary/r.py": "from spvbuild.ir.a import y\n",
            "src/spvbuild/text/__init__.py": "",
            "src/spvbuild/text/big.py": "x = 1\n" * 801,
            "src/spvbuild/text/face.py": "import spvbuild\n",
            "src/spvbuild/passes/__init__.py": "",
            "src/spvbuild/passes/p.py": "from spvbuild.ir import b\n",
            "src/spvbuild/reflection/__init__.py": "",
            "src/spvbuild/reflection/uses.py": "from spvbuild.passes import p\n",
            "src/spvbuild/cli.py": "from spvbuild.passes import p\n",
            "generated/core.py": "from spvbuild.ir.a import y\nfrom spvbuild.spirv.ids import I\n",
        },
    )
    found = "\n".join(_tool().problems(root))
    assert "import circle among files: spvbuild.ir.a, spvbuild.ir.b" in found
    assert "import circle among rooms:" in found and "spvbuild.spirv" in found
    assert "src/spvbuild/binary/r.py:1 imports spvbuild.ir.a: binary/ imports nothing" in found
    assert "src/spvbuild/spirv/bad.py:2 imports spvbuild.ir.a: the bottom layer" in found
    assert "generated/core.py:1 imports spvbuild.ir.a: generated/ imports only" in found
    assert "generated/core.py:2" not in found
    assert "src/spvbuild/text/big.py: 801 lines" in found
    assert "src/spvbuild/text/face.py:1 imports spvbuild: a room imports the package's face" in found
    assert "spirv/ids.py" not in found  # the errors are allowed below everything
    assert (
        "src/spvbuild/reflection/uses.py:1 imports spvbuild.passes.p: only the face and the "
        "command line import spvbuild.passes" in found
    )
    assert "cli.py" not in found and "passes/p.py" not in found


def test_a_tree_that_keeps_its_layers_passes(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "src/spvbuild/__init__.py": "from spvbuild.ir import a\n",
            "src/spvbuild/errors.py": "",
            "src/spvbuild/spirv/__init__.py": "",
            "src/spvbuild/spirv/ids.py": "",
            "src/spvbuild/ir/__init__.py": "",
            "src/spvbuild/ir/a.py": "from . import b\nfrom spvbuild.binary import r\n",
            "src/spvbuild/ir/b.py": "from ..spirv import ids\n",
            "src/spvbuild/binary/__init__.py": "",
            "src/spvbuild/binary/r.py": "from spvbuild.spirv.ids import I\n",
            "generated/core.py": "from spvbuild.spirv.ids import I\n",
        },
    )
    assert _tool().problems(root) == []
