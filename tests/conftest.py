"""Shared fixtures: one suite, run against every database back-end, each test on a fresh schema."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_app.domain import messages
from desktop_app.store.sqlite_config import quiet_memory_statistics
from tests.support.backends import fresh_database, selected_backends

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# SQLite's settings as the program makes them at its entry, before any test opens a connection
quiet_memory_statistics()
_QT_APP = pytest.StashKey[object]()

# A catalog text missing a parameter fails the test that renders it (here and in its subprocesses).
os.environ[messages.STRICT_VARIABLE] = "1"
messages.strict = True


def pytest_sessionstart(session: pytest.Session) -> None:
    """The command line run in-process makes a QCoreApplication when none exists; on a parallel worker
    that can come before a window test, which then cannot have its QApplication (pytest-qt refuses a
    QCoreApplication). Made first, the QApplication is what every later caller finds."""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        session.config.stash[_QT_APP] = QApplication(["pytest-qt-qapp"])


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (the modules, the test items) is frozen out of the cyclic collector's reach,
    as the window freezes its start-up heap (ui/main.freeze_startup_heap): every window test's desk
    collects in full as it shuts down, and walking this heap took ~0.1 s of CPU each time."""
    gc.collect()
    gc.freeze()


@pytest.fixture(params=selected_backends())
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL on a fresh schema at the migrations' head, once per back-end."""
    with fresh_database(request.param, tmp_path, migrated=True) as url:
        yield url


@pytest.fixture(params=selected_backends())
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL on a fresh, empty schema (no migration run yet), once per back-end."""
    with fresh_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"

