"""The generated tree on disk: writing rendered files into ``generated/`` and checking it is current.

Rendered files come in as a mapping (path relative to the output folder → text); this
module knows which files under the output folder codegen owns, writes them as UTF-8 and
compares a fresh render with what is checked in.  It renders nothing itself.
"""

from __future__ import annotations

import difflib
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATED_DIR = ROOT / "generated"
DOCS_DIR = "docs"
"""The reference site's folder under the output folder; codegen owns every file in it."""


def owned_files(out_dir: Path) -> set[str]:
    """Files codegen owns under ``out_dir``: every ``*.py`` and everything under ``docs/``."""
    owned = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.py")}
    docs = out_dir / DOCS_DIR
    if docs.is_dir():
        owned |= {p.relative_to(out_dir).as_posix() for p in docs.rglob("*") if p.is_file()}
    return owned


def write_tree(files: dict[str, str], out_dir: Path) -> list[str]:
    """Write the rendered files (UTF-8), remove stale owned files; returns the paths written."""
    written = []
    for relative, text in sorted(files.items()):
        path = out_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        if path.exists() and path.read_bytes() == data:
            continue
        path.write_bytes(data)
        written.append(relative)
    for relative in sorted(owned_files(out_dir) - set(files)):
        path = out_dir / relative
        path.unlink()
        written.append(f"(removed) {relative}")
        if relative.startswith(f"{DOCS_DIR}/"):
            parent = path.parent
            while parent != out_dir and not any(parent.iterdir()):
                parent.rmdir()
                parent = parent.parent
    return written


def diff_tree(files: dict[str, str], generated_dir: Path) -> list[str]:
    """Write ``files`` into a temporary folder and list every difference from ``generated_dir``."""
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(files, Path(tmp))
        diffs: list[str] = []
        expected = owned_files(Path(tmp))
        actual = owned_files(generated_dir)
        for missing in sorted(expected - actual):
            diffs.append(f"missing: generated/{missing}")
        for extra in sorted(actual - expected):
            diffs.append(f"not produced by codegen: generated/{extra}")
        for relative in sorted(expected & actual):
            new_bytes = (Path(tmp) / relative).read_bytes()
            old_bytes = (generated_dir / relative).read_bytes()
            if new_bytes != old_bytes:
                new = new_bytes.decode("utf-8", errors="replace")
                old = old_bytes.decode("utf-8", errors="replace")
                diff = difflib.unified_diff(
                    old.splitlines(),
                    new.splitlines(),
                    f"generated/{relative}",
                    "codegen",
                    lineterm="",
                    n=1,
                )
                # Same lines but other bytes (line endings, encoding): still a difference.
                diffs.extend(list(diff)[:20] or [f"differs (bytes): generated/{relative}"])
        return diffs


__all__ = ["DOCS_DIR", "GENERATED_DIR", "ROOT", "diff_tree", "owned_files", "write_tree"]
