"""``strip-debug`` removes what the module's own strippers remove (``Module.strip_debug``
after :func:`spvbuild.debuginfo.strip_debug_info`), and nothing else: on modules with
core debug instructions (pykernel's OpLine/OpSource/OpString, glslang's names) and with
DebugInfo sets (the gallery's NonSemantic.Shader.DebugInfo.100 shader, the catalogue's),
it keeps the same instructions (the module may add the capabilities it infers, and writes
in its own order) in the order they came; its output passes spirv-val."""

from __future__ import annotations

import collections
import sys
from pathlib import Path

import pytest

from spvbuild.debuginfo import strip_debug_info
from spvbuild.generated.core.opcodes import OP_CAPABILITY, OP_EXTENSION
from spvbuild.passes import Program, strip_debug
from tests.conftest import ROOT
from tests.passes.corpus import real_modules
from tests.passes.helpers import val


def _by_the_module(program: Program) -> Program:
    module = program.to_module()
    strip_debug_info(module)
    module.strip_debug()
    return Program.from_module(module)


def _modules(workdir: Path) -> list[tuple[str, tuple[int, ...], str]]:
    from examples.pykernel import compile_kernel
    from tests.test_pykernel import CASES

    found = [
        (m.name, m.words, m.target_env)
        for k, m in enumerate(real_modules(workdir))
        if m.name.startswith("catalogue/") or k % 6 == 0
    ]
    found += [
        (
            f"pykernel/{name}",
            tuple(compile_kernel(make().function, optimize=False).words),
            "vulkan1.1",
        )
        for name, make in list(CASES.items())[:4]
    ]
    sys.path.insert(0, str(ROOT / "examples" / "gallery"))
    try:
        import debuginfo_shader

        found.append(
            ("gallery/debuginfo_shader", tuple(debuginfo_shader.build().to_words()), "vulkan1.2")
        )
    finally:
        sys.path.remove(str(ROOT / "examples" / "gallery"))
    return found


@pytest.mark.spirv_val
@pytest.mark.corpus
def test_strip_removes_what_the_module_strippers_remove(tmp_path: Path) -> None:
    differ = []
    stripped = 0
    for name, words, env in _modules(tmp_path):
        source = Program.from_words(words)
        mine = strip_debug(source)
        theirs = _by_the_module(source)

        def kept(p: Program) -> collections.Counter[str]:
            return collections.Counter(
                repr(i) for i in p.instructions if i.opcode not in (OP_CAPABILITY, OP_EXTENSION)
            )

        if kept(mine) != kept(theirs):
            differ.append(f"{name}: {kept(mine) - kept(theirs)} / {kept(theirs) - kept(mine)}")
        remaining = iter(source.instructions)
        assert all(any(i is j for j in remaining) for i in mine.instructions), name
        stripped += len(source.instructions) - len(mine.instructions)
        if name.startswith(("gallery", "pykernel")):
            assert val(mine.to_words(), env) == "", name
    assert differ == []
    assert stripped > 1000
