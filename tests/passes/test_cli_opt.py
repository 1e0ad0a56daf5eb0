"""``spvbuild opt``: passes in command-line order, spirv-opt's spellings, the report, and
the exit codes of a bad recipe or a module a pass refuses."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from spvbuild import assemble, disassemble
from spvbuild.cli import main
from spvbuild.passes import RECIPES
from tests.passes.helpers import val

SOURCE = """OpCapability Shader
OpCapability Float64
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %dead "dead"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%double = OpTypeFloat 64
%dead = OpConstant %double 1
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"""


def _write(path: Path, words: list[int]) -> Path:
    path.write_bytes(struct.pack(f"<{len(words)}I", *words))
    return path


def _words(path: Path) -> list[int]:
    data = path.read_bytes()
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def test_flags_run_in_order_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write(tmp_path / "in.spv", assemble(SOURCE, target_env="spv1.3", preserve_numeric_ids=True))
    out = tmp_path / "out.spv"
    code = main(
        [
            "opt", str(source), "-o", str(out), "--strip-debug",
            "--pass", "eliminate-dead-code-aggressive,trim-capabilities", "--compact-ids",
            "--time-report",
        ]
    )
    assert code == 0
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "strip-debug", "eliminate-dead-code-aggressive", "trim-capabilities", "compact-ids",
    ]
    words = _words(out)
    assert words[3] == 5  # void, fn type, main, its label: ids 1..4
    assert len(words) < len(_words(source))
    assert val(words, "vulkan1.1") == ""


def test_recipe(tmp_path: Path) -> None:
    source = _write(tmp_path / "in.spv", assemble(SOURCE))
    out, spelled = tmp_path / "out.spv", tmp_path / "spelled.spv"
    assert main(["opt", str(source), "-o", str(out), "--recipe", "size"]) == 0
    assert len(_words(out)) < len(_words(source))
    assert main(["opt", str(source), "-o", str(spelled), "--pass", ",".join(RECIPES["size"])]) == 0
    assert _words(out) == _words(spelled)
    assert "Float64" not in disassemble(_words(out))


def test_bad_recipe_and_nothing_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write(tmp_path / "in.spv", assemble(SOURCE))
    assert main(["opt", str(source), "-o", str(tmp_path / "o.spv"), "--recipe", "O3"]) == 1
    assert "no recipe 'O3'" in capsys.readouterr().err
    assert main(["opt", str(source), "-o", str(tmp_path / "o.spv")]) == 1
    assert "give --recipe" in capsys.readouterr().err
    assert not (tmp_path / "o.spv").exists()


def test_a_refusing_pass_is_exit_1_with_its_location(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = SOURCE.replace(
        "OpMemoryModel", 'OpExtension "SPV_KHR_non_semantic_info"\n%x = OpExtInstImport "NonSemantic.Mine"\nOpMemoryModel'
    ).replace("OpReturn", "%y = OpExtInst %void %x 1 %fn\nOpReturn")
    source = _write(tmp_path / "in.spv", assemble(text))
    assert main(["opt", str(source), "-o", str(tmp_path / "o.spv"), "--compact-ids"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("spvbuild opt: compact-ids: OpExtInst %"), err


CALLS = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %twice "twice"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%fn_ii = OpTypeFunction %int %int
%ptr = OpTypePointer Function %int
%three = OpConstant %int 3
%main = OpFunction %void None %fn
%l = OpLabel
%v = OpVariable %ptr Function
%r = OpFunctionCall %int %twice %three
OpStore %v %r
OpReturn
OpFunctionEnd
%twice = OpFunction %int None %fn_ii
%x = OpFunctionParameter %int
%tl = OpLabel
%y = OpIAdd %int %x %x
OpReturnValue %y
OpFunctionEnd
"""


def test_dash_o_and_dash_os_are_the_main_and_size_recipes(tmp_path: Path) -> None:
    source = _write(tmp_path / "in.spv", assemble(CALLS, target_env="spv1.3"))
    outputs = {}
    for name, flags in {
        "O": ["-O"],
        "main": ["--recipe", "main"],
        "Os": ["-Os"],
        "main+size": ["--recipe", "main", "--recipe", "size"],
    }.items():
        out = tmp_path / f"{name}.spv"
        assert main(["opt", str(source), "-o", str(out), *flags]) == 0
        outputs[name] = _words(out)
    assert outputs["O"] == outputs["main"]
    assert outputs["Os"] == outputs["main+size"]
    optimized = disassemble(outputs["O"])
    assert "OpFunctionCall" not in optimized and "OpVariable" not in optimized
    assert 'OpName %main "main"' in optimized
    assert "OpName" not in disassemble(outputs["Os"])
    assert val(outputs["Os"], "vulkan1.1") == ""
