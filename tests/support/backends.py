"""Fresh-schema database URLs for SQLite, PostgreSQL and MariaDB (huey's one-suite-every-back-end)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

PG_URL = os.environ.get("BATCHDESK_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
MYSQL_URL = os.environ.get("BATCHDESK_TEST_MYSQL_URL", "mysql+pymysql://root@127.0.0.1:3306/test")
BACKENDS = ("sqlite", "postgresql", "mariadb")


def selected_backends() -> tuple[str, ...]:
    chosen = os.environ.get("BATCHDESK_TEST_BACKENDS")
    if not chosen:
        return BACKENDS
    return tuple(b.strip() for b in chosen.split(",") if b.strip())


def _unreachable(name: str, exc: Exception) -> None:
    reason = f"{name} is not reachable: {exc}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(reason + " (CI=true: a database test must not be skipped)")
    pytest.skip(reason)


@contextmanager
def fresh_database(
    backend: str, tmp_path: Path, *, mysql_charset: str = "utf8mb4 COLLATE utf8mb4_unicode_ci"
) -> Iterator[str]:
    """A URL to an empty schema of its own, dropped afterwards (MariaDB: with this default charset)."""
    name = "bd_" + secrets.token_hex(5)
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    if backend == "postgresql":
        admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(text(f"CREATE SCHEMA {name}"))
        except Exception as exc:
            admin.dispose()
            _unreachable("PostgreSQL", exc)
        url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={name}"})
        try:
            yield url.render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(text(f"DROP SCHEMA IF EXISTS {name} CASCADE"))
            admin.dispose()
        return
    if backend == "mariadb":
        admin = create_engine(MYSQL_URL, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(text(f"CREATE DATABASE {name} CHARACTER SET {mysql_charset}"))
        except Exception as exc:
            admin.dispose()
            _unreachable("MariaDB", exc)
        url = make_url(MYSQL_URL).set(database=name).update_query_dict({"charset": "utf8mb4"})
        try:
            yield url.render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
            admin.dispose()
        return
    raise ValueError(backend)
