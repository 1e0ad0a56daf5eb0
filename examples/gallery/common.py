"""What every gallery program shares: ``--out DIR``, writing ``DIR/NAME.spv`` after
spvbuild's main recipe (:func:`spvbuild.passes.main_recipe`; ``--no-opt`` writes the
module as built) and saying the environment to validate it for on the last line
(``target-env ENV``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from spvbuild import Module
from spvbuild.passes import main_recipe
from spvbuild.passes import run as run_passes


def gallery_main(
    name: str,
    build: Callable[[], Module],
    target_env: str,
    run: Callable[[Module], None] | None = None,
    optimize: bool = True,
) -> Path:
    """Parse ``--out`` (and ``--run`` where the program can run its module), build the
    module, run the main recipe over it (unless ``--no-opt`` or ``optimize`` is False),
    write ``NAME.spv`` there, run it if asked, print the env last."""
    parser = argparse.ArgumentParser(description=f"Build the gallery's {name}.spv.")
    parser.add_argument("--out", type=Path, default=Path("."), help="folder to write into")
    parser.add_argument(
        "--no-opt", action="store_true", help="write the module as built, without the recipe"
    )
    if run is not None:
        parser.add_argument("--run", action="store_true", help="run it and check its numbers")
    args, _ = parser.parse_known_args()  # (a program may read more options itself)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    module = build()
    if optimize and not args.no_opt:
        module = run_passes(module, main_recipe())
    path = module.write(out / f"{name}.spv")
    print(f"wrote {path}")
    if run is not None and args.run:
        run(module)
    print(f"target-env {target_env}")
    return path
