"""tasks.stage_phrase, tasks.error_phrase: a task's stage and error as code and params, beside their text.

The window and the command line render them in the language in use when the task is shown, so a
switch of language reaches older tasks too. Rows from before keep NULL and show their text as it is.
tasks_archive gets the same columns (a row moves over unchanged).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

TABLES = ("tasks", "tasks_archive")
COLUMNS = ("stage_phrase", "error_phrase")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            for column in COLUMNS:
                batch.add_column(sa.Column(column, sa.JSON, nullable=True))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            for column in reversed(COLUMNS):
                batch.drop_column(column)
