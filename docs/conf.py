"""Sphinx configuration of spvbuild's documentation site (``make docs``).

One site from two sources: the hand-written API, rendered from the runtime's docstrings
by autodoc and napoleon (``api/``), and the SPIR-V reference, Markdown that
``python -m codegen`` renders from ``grammars/`` into ``generated/docs/`` (reached through
the ``reference`` link beside this file) and myst-parser reads.  ``make docs`` builds it
with warnings as errors.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
# The API pages document the sources: autodoc reads the plain modules, not a compiled
# form (whose functions' signatures Python sees without the sources' annotations).
os.environ["SPVBUILD_PURE_PYTHON"] = "1"

project = "spvbuild"
author = "spvbuild contributors"
copyright = "spvbuild contributors"  # noqa: A001 (Sphinx's name)
release = "0.1.0"

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "myst_parser"]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# The reference's pages name their anchors with MyST targets, `(OpIAdd)=`, and link to them
# as `[OpIAdd](#OpIAdd)`: a link whose target is missing is a warning, hence an error here.
myst_enable_extensions = ["attrs_inline"]
suppress_warnings: list[str] = []

# autodoc: every public member (a module's __all__ where it has one), fields of records
# included, in source order; type hints in the signature, shortened.
autodoc_default_options = {
    "members": True,
    "undoc-members": True,
    "show-inheritance": True,
    "member-order": "bysource",
}
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autoclass_content = "class"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "alabaster"
html_title = "spvbuild"
html_theme_options = {
    "description": "Typed, grammar-generated SPIR-V for Python",
    "sidebar_collapse": True,
    "page_width": "1200px",
    "sidebar_width": "260px",
}
html_sidebars = {"**": ["about.html", "searchfield.html", "navigation.html", "relations.html"]}
html_show_sourcelink = False
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"
html_copy_source = False


def _builtin_type(
    app: object,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str | None, str | None]:
    """Name the builtin ``type`` in full in signatures (``-> type[Structure]``): bare, the
    annotation's cross-reference also matches every documented field called ``type``."""

    def full(text: str | None) -> str | None:
        return None if text is None else re.sub(r"(?<![\w.])type\[", "builtins.type[", text)

    return full(signature), full(return_annotation)


def setup(app: Any) -> None:
    app.connect("autodoc-process-signature", _builtin_type)
