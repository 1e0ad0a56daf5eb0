"""The whole run behind ``python -m codegen``: load grammars/, render, write or check generated/.

The one place that puts the stages together: :mod:`codegen.loader` (grammars → model),
:mod:`codegen.render` (the Python modules) and :mod:`codegen.docs` (the reference site),
then :mod:`codegen.output` (files on disk).  Those stages do not import each other's work.
"""

from __future__ import annotations

from pathlib import Path

from codegen.docs import render_docs
from codegen.errors import GrammarError
from codegen.loader import load_grammar
from codegen.model import Grammar
from codegen.output import check_output_dir, diff_tree, write_tree
from codegen.render import render_python
from codegen.verify import Blame, check_package


def render_all(grammar: Grammar, grammars_root: Path) -> dict[str, str]:
    """Every generated file, Python modules and docs: path relative to generated/ → text.

    The loader has checked every name, so rendering should not fail; if it does, the
    error becomes a GrammarError at the grammar item it names (never a traceback).
    """
    try:
        out = render_python(grammar, grammars_root)
        out.update(render_docs(grammar))
    except GrammarError:
        raise
    except Exception as exc:  # noqa: BLE001 - any render failure is the grammar's to explain
        blame = Blame(grammar, grammars_root)
        raise blame.error("", "", f"rendering: {type(exc).__name__}: {exc}") from exc
    return out


def generate(grammars_root: Path, out_dir: Path, *, verify_import: bool = True) -> list[str]:
    """Load grammars/, render, verify and write ``out_dir``; returns the files that changed.

    Before anything is written: the output folder must be codegen's alone
    (:func:`codegen.output.check_output_dir`), every rendered module must compile with no
    name defined twice, and (unless ``verify_import`` is false) the package must import,
    with the runtime, in a child process.  A failure is a GrammarError naming the grammar
    file and line behind it, and leaves ``out_dir`` as it was.
    """
    grammar = load_grammar(grammars_root)
    files = render_all(grammar, grammars_root)
    check_output_dir(files, out_dir)
    check_package(files, Blame(grammar, grammars_root), import_it=verify_import)
    return write_tree(files, out_dir)


def check_generated(grammars_root: Path, generated_dir: Path) -> list[str]:
    """Render into a temporary folder and list every difference from ``generated_dir``."""
    grammar = load_grammar(grammars_root)
    return diff_tree(render_all(grammar, grammars_root), generated_dir)


__all__ = ["check_generated", "generate", "render_all"]
