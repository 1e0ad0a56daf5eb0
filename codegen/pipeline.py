"""The whole run behind ``python -m codegen``: load grammars/, render, write or check generated/.

The one place that puts the stages together: :mod:`codegen.loader` (grammars → model),
:mod:`codegen.render` (the Python modules) and :mod:`codegen.docs` (the reference site),
then :mod:`codegen.output` (files on disk).  Those stages do not import each other's work.
"""

from __future__ import annotations

from pathlib import Path

from codegen.docs import render_docs
from codegen.loader import load_grammar
from codegen.model import Grammar
from codegen.output import diff_tree, write_tree
from codegen.render import render_python


def render_all(grammar: Grammar, grammars_root: Path) -> dict[str, str]:
    """Every generated file, Python modules and docs: path relative to generated/ → text."""
    out = render_python(grammar, grammars_root)
    out.update(render_docs(grammar))
    return out


def generate(grammars_root: Path, out_dir: Path) -> list[str]:
    """Load grammars/ and render generated/; returns the files that changed."""
    grammar = load_grammar(grammars_root)
    return write_tree(render_all(grammar, grammars_root), out_dir)


def check_generated(grammars_root: Path, generated_dir: Path) -> list[str]:
    """Render into a temporary folder and list every difference from ``generated_dir``."""
    grammar = load_grammar(grammars_root)
    return diff_tree(render_all(grammar, grammars_root), generated_dir)


__all__ = ["check_generated", "generate", "render_all"]
