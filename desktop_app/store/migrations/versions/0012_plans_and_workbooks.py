"""tasks.applied_by and tasks.parent: a change plan's apply, and a workbook's sheets (issue 26).

- ``applied_by``: on a dry run, the import that committed exactly its plan (``apply``); set once, so a
  plan is never applied twice (domain/task.py TaskLink.APPLIED_BY).
- ``parent``: on an import of one sheet of a workbook, the workbook task it belongs to; NULL for every
  other task. ``ix_tasks_parent`` finds a workbook's sheets.

tasks_archive gets the same columns (a row moves over unchanged).

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

TABLES = ("tasks", "tasks_archive")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("applied_by", sa.String(32), nullable=True))
            batch.add_column(sa.Column("parent", sa.String(32), nullable=True))
    op.create_index("ix_tasks_parent", "tasks", ["parent"])


def downgrade() -> None:
    op.drop_index("ix_tasks_parent", table_name="tasks")
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("parent")
            batch.drop_column("applied_by")
