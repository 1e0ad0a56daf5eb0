"""The generator's tests: they test the checkout's files (``codegen/``, ``grammars/``, the
checked-in ``generated/``), which no wheel installs, so every test here is
``source_tree`` (the checkout's run runs them; the wheels' runs leave them out)."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.source_tree)
