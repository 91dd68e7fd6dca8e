"""Bookkeeping for imports into any table: which rows a task wrote, what it replaced, which tables are ours.

- ``import_rows``: one row per business row an import updated (with the values it replaced and the
  values it wrote), per row it inserted into a table that has no place for that itself (a company's
  own table), and per row it skipped or left unchanged (so a key repeated later in the same file is
  known as a duplicate, also after a crash). Written in the same transaction as the batch.
- ``business_tables``: the tables BatchDesk created for an import type (it may add columns to those,
  never to a company's own tables).
- ``customers`` gains ``import_row`` (the row of the imported file) and ``import_sig`` (a signature
  of the values the import wrote), so an undo can tell whether a row changed since.

Revision ID: 0004
Revises: 0003
"""

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql, sqlite

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
Stamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
UTF8MB4: dict[str, Any] = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_unicode_ci"}


def upgrade() -> None:
    op.create_table(
        "import_rows",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("task_no", sa.String(32), nullable=False),
        sa.Column("key_text", sa.String(700), nullable=False),
        sa.Column("row_number", sa.Integer, nullable=False),
        sa.Column("action", sa.String(10), nullable=False),
        sa.Column("data", sa.Text, nullable=True),
        sa.UniqueConstraint("task_no", "key_text", name="uq_import_rows_task_key"),
        **UTF8MB4,
    )
    op.create_index("ix_import_rows_task", "import_rows", ["task_no", "id"])
    tables = op.create_table(
        "business_tables",
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("import_type", sa.String(100), nullable=False),
        sa.Column("created_at", Stamp, nullable=False, server_default=sa.func.current_timestamp()),
        **UTF8MB4,
    )
    op.bulk_insert(tables, [{"name": "customers", "import_type": "customers"}])
    with op.batch_alter_table("customers") as batch:
        batch.add_column(sa.Column("import_row", sa.Integer, nullable=True))
        batch.add_column(sa.Column("import_sig", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("customers") as batch:
        batch.drop_column("import_sig")
        batch.drop_column("import_row")
    op.drop_table("business_tables")
    op.drop_index("ix_import_rows_task", "import_rows")
    op.drop_table("import_rows")
