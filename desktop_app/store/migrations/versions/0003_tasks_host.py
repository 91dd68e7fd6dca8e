"""tasks.host: the desk a file task belongs to, so on a shared database only that desk claims it.

Its input file and its result files live on that desk (unless the file is on a network share, when
host is NULL and any desk may run it).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.add_column(sa.Column("host", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("host")
