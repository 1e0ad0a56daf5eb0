"""Fixtures of the reflection tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def reflect_workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the session: the corpus is compiled into it once (see
    :mod:`tests.reflect.modules`, whose builders cache by folder)."""
    return tmp_path_factory.mktemp("reflect")
