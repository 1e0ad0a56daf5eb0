"""A user adds a made-up vendor extension as one YAML file, reruns codegen, and gets typed
methods, enum members with parameter classes, and capability/extension inference.

Everything happens in a copy of the repository (grammars/, codegen/, src/, generated/) so
the checked-in tree is untouched; the new code runs in a fresh interpreter.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

EXTENSION = """\
unit: extension
extension: SPV_ACME_widgets
spec: "made up for tests/codegen/test_user_extension.py"
requires_version: "1.0"
enumerants:
  Capability:
    WidgetsACME: {value: 61000, capabilities: [Shader], extensions: [SPV_ACME_widgets]}
  Decoration:
    WidgetHintACME:
      value: 61001
      parameters: [{kind: LiteralInteger, name: Hint Level}]
      capabilities: [WidgetsACME]
      extensions: [SPV_ACME_widgets]
instructions:
  OpWidgetSpinACME:
    opcode: 61002
    class: Arithmetic
    operands:
      - {kind: IdResultType}
      - {kind: IdResult}
      - {kind: IdRef, name: Widget}
      - {kind: LiteralInteger, name: Turns, quantifier: "?"}
    capabilities: [WidgetsACME]
    extensions: [SPV_ACME_widgets]
"""

USER_SCRIPT = """\
from spvbuild.enums import AddressingModel, Capability, MemoryModel, DecorationWidgetHintACME
from spvbuild.generated.core.tables import INSTRUCTIONS
from spvbuild.ir.module import Module

m = Module((1, 3))
m.memory_model(AddressingModel.Logical, MemoryModel.GLSL450)
u32 = m.type_int(32, 0)
fn = m.define_function(u32, [u32])
spun = m.widget_spin_acme(u32, fn.parameters[0], 3)
m.decorate(spun, DecorationWidgetHintACME(2))
m.return_value(spun).function_end()
ordered = m.ordered_instructions()
caps = [int(i.operands[0]) for i in ordered if i.opcode == 17]
exts = [i.operands[0] for i in ordered if i.opcode == 10]
assert caps == [61000], caps  # WidgetsACME implies Shader, which is not declared again
assert int(Capability.Shader) not in caps
assert exts == ["SPV_ACME_widgets"], exts
words = m.to_words()
spin = [w for w in words if w & 0xFFFF == 61002 and w >> 16 == 5]
assert len(spin) == 1, "OpWidgetSpinACME with result type, id, widget and turns"
assert INSTRUCTIONS[61002].name == "OpWidgetSpinACME"
from spvbuild.text.assembler import assemble
from spvbuild.text.disassembler import disassemble
text = disassemble(words, raw_id=True, header=False)
assert "OpWidgetSpinACME" in text and "WidgetHintACME 2" in text, text
again = assemble(text, target_env="spv1.3", preserve_numeric_ids=True)
assert again[:2] == words[:2] and again[3:] == words[3:], "assembler reads it back"
print("user extension OK", len(words))
"""


def test_user_extension_yaml_gives_typed_methods_and_inference(tmp_path: Path) -> None:
    for name in ("grammars", "codegen", "src", "generated"):
        shutil.copytree(ROOT / name, tmp_path / name, symlinks=True)
    (tmp_path / "grammars" / "extensions" / "SPV_ACME_widgets.yaml").write_text(EXTENSION)
    generated = subprocess.run(
        [sys.executable, "-m", "codegen"], cwd=tmp_path, capture_output=True, text=True
    )
    assert generated.returncode == 0, generated.stderr
    builder = (tmp_path / "generated" / "core" / "builder.py").read_text()
    assert (
        "def widget_spin_acme(self, result_type: TypeId, widget: Id, turns: int | None = None"
        in builder
    )
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT)
    env = {"PYTHONPATH": str(tmp_path / "src"), "PATH": "/usr/bin:/bin"}
    ran = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert ran.returncode == 0, ran.stderr
    assert "user extension OK" in ran.stdout
    # The same file, broken, is rejected with file:line and key.
    bad = EXTENSION.replace(
        "capabilities: [WidgetsACME]\n    extensions", "capabilities: [WidgetACME]\n    extensions"
    )
    (tmp_path / "grammars" / "extensions" / "SPV_ACME_widgets.yaml").write_text(bad)
    rejected = subprocess.run(
        [sys.executable, "-m", "codegen"], cwd=tmp_path, capture_output=True, text=True
    )
    assert rejected.returncode == 1
    assert "extensions/SPV_ACME_widgets.yaml:" in rejected.stderr
    assert "'WidgetACME'" in rejected.stderr
