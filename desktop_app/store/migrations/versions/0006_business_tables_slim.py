"""Business tables without BatchDesk's surrogate id and task_no index: bulk loads run at the databases' pace.

An import appends up to a million rows; on PostgreSQL a BIGSERIAL primary key and an index on
task_no cost as much as the rows themselves (psql \\copy into customers: 1.6 s without them, 3.0 s
with). Rows are found by their unique key; the few look-ups by task_no (an undo, an export of one
task's rows, a completion) scan. The customers table made by 0001 loses both; tables BatchDesk makes
for an import type are created without them.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("customers") as batch:
        batch.drop_index("ix_customers_task_no")
        batch.drop_column("id")


def downgrade() -> None:
    # The surrogate ids are gone for good; the column comes back empty (nullable), the index as it was.
    with op.batch_alter_table("customers") as batch:
        batch.add_column(sa.Column("id", sa.BigInteger, nullable=True))
        batch.create_index("ix_customers_task_no", ["task_no"])
