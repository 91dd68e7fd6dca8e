"""Fixtures the integration tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.app import Core, build_core


@pytest.fixture
def core(db_url: str, tmp_path: Path) -> Iterator[Core]:
    """A core on db_url (once per back-end), its data folder in tmp_path/data; its engine closed after."""
    core = build_core(data_dir=tmp_path / "data", db_url=db_url)
    yield core
    core.store.engine.dispose()
