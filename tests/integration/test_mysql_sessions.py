"""A MySQL/MariaDB connection: the session BatchDesk sets up, and one TLS context for the whole process."""

from __future__ import annotations

import ssl
from pathlib import Path
from unittest import mock

import pytest

from desktop_app.store.db import make_engine
from desktop_app.store.dialects import mysql_connect
from tests.support.backends import fresh_database


@pytest.fixture
def mysql_url(tmp_path: Path):  # type: ignore[no-untyped-def]
    with fresh_database("mariadb", tmp_path) as url:
        yield url


def test_connections_share_one_tls_context_and_keep_their_session(mysql_url: str) -> None:
    made = []
    real = ssl.create_default_context

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        made.append(1)
        return real(*args, **kwargs)

    engine = make_engine(mysql_url, stale_after=90)
    raws = []
    try:
        with mock.patch.object(mysql_connect, "_preferred", None), mock.patch("ssl.create_default_context", counted):
            raws = [engine.raw_connection() for _ in range(3)]  # three connections of their own, not the pool's one
        contexts = {id(raw.driver_connection.ctx) for raw in raws}  # type: ignore[union-attr]
        assert contexts == {id(raws[0].driver_connection.ctx)} and len(made) == 1  # type: ignore[union-attr]
        for raw in raws:
            cursor = raw.cursor()
            cursor.execute("SELECT @@time_zone, @@innodb_lock_wait_timeout, @@lock_wait_timeout, @@tx_isolation,"
                           " @@idle_transaction_timeout")  # fmt: skip
            assert cursor.fetchone() == ("+00:00", 30, 30, "READ-COMMITTED", 60)
            cursor.close()
    finally:
        for raw in raws:
            raw.close()
        engine.dispose()


def test_a_urls_own_tls_settings_keep_their_own_context() -> None:
    shared = mysql_connect.SharedTlsConnection.__new__(mysql_connect.SharedTlsConnection)
    with mock.patch.object(mysql_connect, "_preferred", None):
        preferred = shared._create_ssl_ctx({})
        assert shared._create_ssl_ctx({}) is preferred
        own = shared._create_ssl_ctx({"ca": None, "check_hostname": False, "verify_mode": True})
    assert own is not preferred and own.verify_mode == ssl.CERT_REQUIRED and preferred.verify_mode == ssl.CERT_NONE
