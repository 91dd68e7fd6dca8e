"""The PostgreSQL export's ADBC database begun ahead: taken once, only for its URL, never an error."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from desktop_app.exports import adbc_ahead

adbc_driver_postgresql = pytest.importorskip("adbc_driver_postgresql")

URL = "postgresql+psycopg://clerk:s%40cret@db.example:5433/books"


class FakeDatabase:
    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.thread = threading.current_thread().name
        self.closed = False

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[FakeDatabase]:
    made: list[FakeDatabase] = []

    def connect(uri: str) -> FakeDatabase:
        made.append(FakeDatabase(uri))
        return made[-1]

    monkeypatch.setattr(adbc_driver_postgresql, "connect", connect)
    return made


def test_the_uri_is_libpqs_with_the_password() -> None:
    assert adbc_ahead.adbc_uri(URL) == "postgresql://clerk:s%40cret@db.example:5433/books"


def test_a_begun_database_is_opened_on_its_own_thread_and_taken_once(opened: list[FakeDatabase]) -> None:
    adbc_ahead.begin(URL)
    uri = adbc_ahead.adbc_uri(URL)
    taken: Any = adbc_ahead.take(uri)
    assert taken is opened[0] and taken.uri == uri and taken.thread == "batchdesk-adbc-ahead"
    assert adbc_ahead.take(uri) is None


def test_another_url_takes_nothing(opened: list[FakeDatabase]) -> None:
    adbc_ahead.begin(URL)
    assert adbc_ahead.take(adbc_ahead.adbc_uri(URL.replace("books", "other"))) is None
    assert adbc_ahead.take(adbc_ahead.adbc_uri(URL)) is opened[0]


@pytest.mark.parametrize("url", ["sqlite:///x.db", "mysql+pymysql://root@localhost/test", "not a url"])
def test_other_databases_begin_nothing(opened: list[FakeDatabase], url: str) -> None:
    adbc_ahead.begin(url)
    assert opened == []


def test_a_failed_open_is_left_to_the_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(uri: str) -> Any:
        raise OSError("connection refused")

    monkeypatch.setattr(adbc_driver_postgresql, "connect", refused)
    adbc_ahead.begin(URL)
    assert adbc_ahead.take(adbc_ahead.adbc_uri(URL)) is None  # the reader connects itself and says why


def test_a_database_begun_again_closes_the_one_never_taken(opened: list[FakeDatabase]) -> None:
    import time

    adbc_ahead.begin(URL)
    adbc_ahead.begin(URL)
    taken = adbc_ahead.take(adbc_ahead.adbc_uri(URL))
    deadline = time.monotonic() + 5  # the first opens on its own thread, then is closed there
    while not (len(opened) == 2 and any(d.closed for d in opened)) and time.monotonic() < deadline:
        time.sleep(0.01)
    (left,) = [d for d in opened if d is not taken]
    assert left.closed and taken is not None and not taken.closed
