"""Each clerk sees their own tasks, and old tasks move to an archive (seed 000 §5.4 and §6).

- ``batchdesk_admins``: the users who see and manage every clerk's tasks on a shared database.
  Created empty: the first one is named with ``batchdesk admin add NAME`` (see desktop_app/store/admins.py).
- ``tasks_archive``: final tasks older than the retention period, moved out of ``tasks`` by the daily
  clean-up; the same columns as ``tasks`` (no defaults or unique keys beyond the task number: rows
  arrive whole and never become active again).
- ``ix_tasks_creator``: a clerk's own task list, newest first, without scanning everyone's.

Revision ID: 0005
Revises: 0004
"""

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql, sqlite

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
Stamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
UTF8MB4: dict[str, Any] = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_unicode_ci"}


def upgrade() -> None:
    op.create_index("ix_tasks_creator", "tasks", ["creator", "id"])
    op.create_table(
        "batchdesk_admins",
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column("added_by", sa.String(128), nullable=False),
        sa.Column("added_at", Stamp, nullable=False),
        sa.Column("first_key", sa.String(8), nullable=True, unique=True),
        **UTF8MB4,
    )
    op.create_table(
        "tasks_archive",
        sa.Column("id", Id, primary_key=True, autoincrement=False),
        sa.Column("task_no", sa.String(32), nullable=False),
        sa.Column("task_type", sa.String(40), nullable=False),
        sa.Column("lane", sa.String(10), nullable=False),
        sa.Column("biz_key", sa.String(128), nullable=True),
        sa.Column("active_key", sa.String(128), nullable=True),
        sa.Column("params", sa.JSON, nullable=False),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("progress", sa.Integer, nullable=False),
        sa.Column("stage", sa.String(200), nullable=False),
        sa.Column("total_count", sa.Integer, nullable=False),
        sa.Column("success_count", sa.Integer, nullable=False),
        sa.Column("fail_count", sa.Integer, nullable=False),
        sa.Column("result_path", sa.String(1024), nullable=True),
        sa.Column("error_code", sa.String(64), nullable=True),
        sa.Column("error_msg", sa.String(2000), nullable=True),
        sa.Column("creator", sa.String(128), nullable=False),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("host", sa.String(80), nullable=True),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("recoveries", sa.Integer, nullable=False),
        sa.Column("retries", sa.Integer, nullable=False),
        sa.Column("cancel_requested", sa.Boolean, nullable=False),
        sa.Column("next_run_at", Stamp, nullable=True),
        sa.Column("checkpoint", sa.JSON, nullable=True),
        sa.Column("summary", sa.JSON, nullable=True),
        sa.Column("started_at", Stamp, nullable=True),
        sa.Column("ended_at", Stamp, nullable=True),
        sa.Column("heartbeat_at", Stamp, nullable=True),
        sa.Column("created_at", Stamp, nullable=False),
        sa.Column("updated_at", Stamp, nullable=False),
        **UTF8MB4,
    )
    op.create_index("ix_tasks_archive_task_no", "tasks_archive", ["task_no"], unique=True)
    op.create_index("ix_tasks_archive_creator", "tasks_archive", ["creator", "id"])
    op.create_index("ix_tasks_archive_biz_key", "tasks_archive", ["biz_key"])


def downgrade() -> None:
    op.drop_table("tasks_archive")
    op.drop_table("batchdesk_admins")
    op.drop_index("ix_tasks_creator", "tasks")
