"""Migration 0011 (a feed's mail recipients) on each database: a database at 0010 with a feed and its files
is upgraded with them kept (mailing nobody), the recipients are stored and read back, the schema is the
declared one; downgraded, the column goes and the feed stays."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from desktop_app.store import migrate
from desktop_app.store.db import make_engine
from desktop_app.store.feeds import FeedStore
from desktop_app.store.schema import metadata


def test_a_database_at_0010_upgrades_to_the_feeds_mail_and_back(empty_db_url: str) -> None:
    engine = make_engine(empty_db_url)
    try:
        with engine.begin() as conn:
            command.upgrade(migrate._config(conn), "0010")
            conn.execute(text(
                "INSERT INTO feeds (name, name_key, folder, pattern, import_type, every_seconds, owner, created_at, "
                "updated_at) "
                "VALUES ('Bank', 'bank', '/srv/bank', '*.csv', 'customers', 60, 'alice', '2026-01-01 00:00:00', "
                "'2026-01-01 00:00:00')"))  # fmt: skip
            feed_id = conn.execute(text("SELECT id FROM feeds")).scalar_one()
            conn.execute(text(
                "INSERT INTO feed_files (feed_id, name, size, mtime_ns, first_seen_at, state, task_no, created_at, "
                f"updated_at) VALUES ({feed_id}, 'may.csv', 1, 1, '2026-01-01 00:00:00', 'queued', 'T1', "
                "'2026-01-01 00:00:00', '2026-01-01 00:00:00')"))  # fmt: skip
        assert migrate.current_revision(engine) == "0010"
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.HEAD  # 0011 and every later one
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        feeds = FeedStore(engine)
        feed = feeds.get("bank")
        assert feed is not None and feed.spec.mail_to == ()
        assert feeds.files_of_tasks(["T1", "T2"])["T1"].name == "may.csv"
        feeds.set_mail_to(feed.id, ["a@x.com", "b@y.com"])
        fresh = feeds.get("bank")
        assert fresh is not None and fresh.spec.mail_to == ("a@x.com", "b@y.com")
        feeds.set_mail_to(feed.id, [])
        cleared = feeds.get("bank")
        assert cleared is not None and cleared.spec.mail_to == ()
        with engine.begin() as conn:
            command.downgrade(migrate._config(conn), "0010")
        columns = {c["name"] for c in inspect(engine).get_columns("feeds")}
        assert "mail_to" not in columns and "folder" in columns
        with engine.connect() as conn:
            assert conn.execute(text("SELECT name FROM feeds")).scalar() == "Bank"
    finally:
        engine.dispose()
