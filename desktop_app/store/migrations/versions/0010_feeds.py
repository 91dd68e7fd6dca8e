"""Feeds, watched folders (issue 25; docs/FEEDS.md).

- ``feeds``: one row per feed: its folder, pattern, import type, mode, settle time and schedule, its
  owner (whose tasks its imports are) and the desk whose folder it is; its state and the reason.
- ``feed_files``: one row per version of a file a feed saw, with its fingerprint and where it is on
  its way; ``uq_feed_files_claim`` (feed, SHA-256) lets one row per feed import the same bytes, whichever
  desk scans.

Revision ID: 0010
Revises: 0009
"""

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql, sqlite

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
Stamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
UTF8MB4: dict[str, Any] = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_unicode_ci"}


def upgrade() -> None:
    op.create_table(
        "feeds",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("name_key", sa.String(100), nullable=False, unique=True),
        sa.Column("folder", sa.String(1000), nullable=False),
        sa.Column("pattern", sa.String(400), nullable=False),
        sa.Column("import_type", sa.String(100), nullable=False),
        sa.Column("profile", sa.String(200), nullable=True),
        sa.Column("mode", sa.String(20), nullable=False, server_default="insert"),
        sa.Column("settle_seconds", sa.Integer, nullable=False, server_default="10"),
        sa.Column("every_seconds", sa.Integer, nullable=True),
        sa.Column("at_times", sa.String(200), nullable=True),
        sa.Column("in_order", sa.Boolean, nullable=False, server_default="0"),
        sa.Column("leave_files", sa.Boolean, nullable=False, server_default="0"),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("host", sa.String(80), nullable=True),
        sa.Column("paused", sa.Boolean, nullable=False, server_default="0"),
        sa.Column("state", sa.String(20), nullable=False, server_default="new"),
        sa.Column("reason", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("run_requests", sa.Integer, nullable=False, server_default="0"),
        sa.Column("runs_seen", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_look_at", Stamp, nullable=True),
        sa.Column("last_scan_at", Stamp, nullable=True),
        sa.Column("last_look_at", Stamp, nullable=True),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("updated_at", Stamp, nullable=False),
        **UTF8MB4,
    )
    op.create_table(
        "feed_files",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("feed_id", sa.BigInteger, nullable=False),
        sa.Column("name", sa.String(400), nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("mtime_ns", sa.BigInteger, nullable=False),
        sa.Column("first_seen_at", Stamp, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=True),
        sa.Column("claim", sa.String(64), nullable=True),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("outcome", sa.String(12), nullable=True),
        sa.Column("task_no", sa.String(32), nullable=True),
        sa.Column("duplicate_of", sa.String(32), nullable=True),
        sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("in_folder", sa.Boolean, nullable=False, server_default="1"),
        sa.Column("move_to", sa.String(1000), nullable=True),
        sa.Column("note_to", sa.String(1000), nullable=True),
        sa.Column("moved_to", sa.String(1000), nullable=True),
        sa.Column("problem", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("day", sa.String(10), nullable=True),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("updated_at", Stamp, nullable=False),
        sa.UniqueConstraint("feed_id", "claim", name="uq_feed_files_claim"),
        **UTF8MB4,
    )
    op.create_index("ix_feed_files_present", "feed_files", ["feed_id", "in_folder"])
    op.create_index("ix_feed_files_state", "feed_files", ["feed_id", "state"])
    op.create_index("ix_feed_files_day", "feed_files", ["feed_id", "day"])


def downgrade() -> None:
    op.drop_table("feed_files")
    op.drop_table("feeds")
