"""Command line: ``python -m codegen [generate|check|import-khronos] ...``.

* ``generate`` (the default): load and validate grammars/, render generated/.
* ``check``: render into a temporary folder and fail if generated/ differs.
* ``import-khronos [--headers DIR]``: rewrite grammars/ from the Khronos JSON grammars,
  keeping hand-written additions (see codegen/khronos_import.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codegen.errors import GrammarError
from codegen.output import OutputError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    gen = sub.add_parser("generate", help="render generated/ from grammars/")
    gen.add_argument(
        "--grammars", type=Path, default=None, help="grammar folder (default: grammars/)"
    )
    gen.add_argument("--out", type=Path, default=None, help="output folder (default: generated/)")
    chk = sub.add_parser("check", help="fail if generated/ is not what grammars/ produce")
    chk.add_argument("--grammars", type=Path, default=None)
    imp = sub.add_parser("import-khronos", help="import the Khronos JSON grammars into grammars/")
    imp.add_argument("--headers", type=Path, default=None, help="folder with *.grammar.json")
    args = parser.parse_args(argv)
    command = args.command or "generate"
    try:
        if command == "import-khronos":
            from codegen.khronos_import import run_import

            written = run_import(args.headers)
            print(f"import-khronos: {len(written)} grammar files written")
            return 0
        from codegen.loader import GRAMMARS_DIR
        from codegen.output import GENERATED_DIR
        from codegen.pipeline import check_generated, generate

        grammars = getattr(args, "grammars", None) or GRAMMARS_DIR
        if command == "check":
            diffs = check_generated(grammars, GENERATED_DIR)
            for line in diffs:
                print(line)
            if diffs:
                print("generated/ is stale: run `python -m codegen`", file=sys.stderr)
                return 1
            print("generated/ is up to date")
            return 0
        out = getattr(args, "out", None) or GENERATED_DIR
        written_files = generate(grammars, out)
        print(f"codegen: {len(written_files)} files rendered into {out}")
        return 0
    except GrammarError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OutputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
