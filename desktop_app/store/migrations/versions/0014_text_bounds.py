"""business_tables.text_bounds: how long the stored texts of a table BatchDesk made can be.

A JSON object, column -> characters (NULL: nothing known yet): every value stored in the column is at
most that long, because each import that wrote it checked the table first and wrote nothing longer than
its type's max_length. A plan for writing reads it instead of scanning the whole table for the longest
value of each text column the table does not bound itself (store/business_schema.py: 0.2 s a plan at a
million rows, twice an import, growing with the table).

On PostgreSQL in team mode the clerks' grants on the table cover the new column; MariaDB's team mode
runs ``admin secure`` again after this migration (docs/TEAM.md), as for every schema change (until then
a desk reads no bounds there and scans as before).

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("business_tables") as batch:
        batch.add_column(sa.Column("text_bounds", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("business_tables") as batch:
        batch.drop_column("text_bounds")
