"""Migration 0010 (feeds) on each database: a database of the release before (0009) is upgraded with its
tasks kept, the feed tables work, and the schema is the declared one; downgraded, they go again."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from desktop_app.domain.feeds import FeedSpec, FileState
from desktop_app.store import migrate
from desktop_app.store.db import make_engine
from desktop_app.store.feeds import FeedStore
from desktop_app.store.schema import metadata


def test_a_database_at_0009_upgrades_to_the_feeds_and_back(empty_db_url: str, tmp_path: object) -> None:
    engine = make_engine(empty_db_url)
    try:
        with engine.begin() as conn:
            command.upgrade(migrate._config(conn), "0009")
            conn.execute(text(
                "INSERT INTO tasks (task_no, task_type, lane, params, status, creator, created_at, updated_at) "
                "VALUES ('T000000-AAAAAA', 'import', 'long', '{}', 'succeeded', 'alice', "
                "'2026-01-01 00:00:00', '2026-01-01 00:00:00')"))  # fmt: skip
        assert migrate.current_revision(engine) == "0009"
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.HEAD  # 0010, and the migrations after it
        with engine.connect() as conn:
            assert conn.execute(text("SELECT task_no FROM tasks")).scalar() == "T000000-AAAAAA"
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
        feeds = FeedStore(engine)
        feed = feeds.add(FeedSpec(name="银行对账", folder="/srv/bank", import_type="customers"), owner="alice",
                         host=None)  # fmt: skip
        feeds.seen(feed.id, "对账单.csv", 10, 1)
        (row,) = feeds.in_state(feed.id, FileState.SETTLING)
        assert feeds.claim(row, "a" * 64) and feeds.get("银行对账") == feed
        with engine.begin() as conn:
            command.downgrade(migrate._config(conn), "0009")
        tables = set(inspect(engine).get_table_names())
        assert "feeds" not in tables and "feed_files" not in tables and "tasks" in tables
        with engine.connect() as conn:
            assert conn.execute(text("SELECT task_no FROM tasks")).scalar() == "T000000-AAAAAA"
    finally:
        engine.dispose()
