"""The first schema: the task table, customers and departments (seeded).

A frozen snapshot: later changes go in new revisions, never here.

Revision ID: 0001
Revises:
"""

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql, sqlite

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
Stamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
# MySQL/MariaDB: Chinese text needs utf8mb4 whatever the database's default character set is.
UTF8MB4: dict[str, Any] = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_unicode_ci"}
DEPARTMENTS = ("销售部", "市场部", "财务部", "人事部", "技术部", "客服部", "采购部", "物流部")


def upgrade() -> None:
    op.create_table(
        "tasks",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("task_no", sa.String(32), nullable=False, unique=True),
        sa.Column("task_type", sa.String(40), nullable=False),
        sa.Column("lane", sa.String(10), nullable=False, server_default="long"),
        sa.Column("biz_key", sa.String(128), nullable=True, index=True),
        sa.Column("active_key", sa.String(128), nullable=True, unique=True),
        sa.Column("params", sa.JSON, nullable=False),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("progress", sa.Integer, nullable=False, server_default="0"),
        sa.Column("stage", sa.String(200), nullable=False, server_default=""),
        sa.Column("total_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("success_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("fail_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result_path", sa.String(1024), nullable=True),
        sa.Column("error_code", sa.String(64), nullable=True),
        sa.Column("error_msg", sa.String(2000), nullable=True),
        sa.Column("creator", sa.String(128), nullable=False, server_default=""),
        sa.Column("owner", sa.String(200), nullable=True),
        sa.Column("attempt", sa.Integer, nullable=False, server_default="0"),
        sa.Column("recoveries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("retries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("cancel_requested", sa.Boolean, nullable=False, server_default="0"),
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
    op.create_index("ix_tasks_claim", "tasks", ["status", "lane", "id"])
    op.create_index("ix_tasks_created", "tasks", ["created_at"])
    departments = op.create_table(
        "departments",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        **UTF8MB4,
    )
    op.create_table(
        "customers",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("name", sa.String(50), nullable=False),
        sa.Column("phone", sa.String(11), nullable=False),
        sa.Column("email", sa.Text, nullable=True),
        sa.Column("level", sa.String(10), nullable=False, server_default="standard"),
        sa.Column("opened_on", sa.Date, nullable=True),
        sa.Column("credit_limit", sa.Numeric(12, 2), nullable=False, server_default="0"),
        sa.Column("department", sa.Text, nullable=True),
        sa.Column("department_id", Id, nullable=True),
        sa.Column("note", sa.String(200), nullable=True),
        sa.Column("task_no", sa.String(32), nullable=True, index=True),
        **UTF8MB4,
    )
    op.bulk_insert(departments, [{"name": name} for name in DEPARTMENTS])


def downgrade() -> None:
    op.drop_table("customers")
    op.drop_table("departments")
    op.drop_index("ix_tasks_created", "tasks")
    op.drop_index("ix_tasks_claim", "tasks")
    op.drop_table("tasks")
