"""Shared fixtures: one suite, run against every database back-end, each test on a fresh schema."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.domain import messages
from tests.support.backends import fresh_database, selected_backends

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# A catalog text missing a parameter fails the test that renders it (here and in its subprocesses).
os.environ[messages.STRICT_VARIABLE] = "1"
messages.strict = True


@pytest.fixture(params=selected_backends())
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL on a fresh schema, once per back-end."""
    with fresh_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"
