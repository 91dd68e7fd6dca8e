"""tasks.undone_by, resumed_by, replaced_by: a later task's mark on an earlier one, as typed columns.

They were keys in the earlier task's `summary` JSON; a view and the engine now read them as columns of
the record (domain/task.py TaskLink). The keys of rows made before move into the columns. tasks_archive
gets the same columns (a row moves over unchanged).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TABLES = ("tasks", "tasks_archive")
COLUMNS = ("undone_by", "resumed_by", "replaced_by")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            for column in COLUMNS:
                batch.add_column(sa.Column(column, sa.String(32), nullable=True))
        _move_out_of_summary(table)


def _move_out_of_summary(name: str) -> None:
    """Each row whose summary names a link: the link into its column, out of the summary. Rows with a
    link are few (undone imports, resumed ones, replaced exports), so they are read in Python: the
    three databases' JSON functions differ, and a LIKE narrows the read on each."""
    bind = op.get_bind()
    table = sa.table(name, sa.column("id"), sa.column("summary", sa.JSON), *(sa.column(c) for c in COLUMNS))
    found = bind.execute(sa.select(table.c.id, table.c.summary).where(
        sa.or_(*(sa.cast(table.c.summary, sa.Text).like(f'%"{c}"%') for c in COLUMNS)))).all()
    for row_id, stored in found:
        summary = dict(stored or {})
        links = {c: str(summary[c]) for c in COLUMNS if summary.get(c)}
        for c in COLUMNS:
            summary.pop(c, None)
        bind.execute(sa.update(table).where(table.c.id == row_id).values(summary=summary, **links))


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table) as batch:
            for column in reversed(COLUMNS):
                batch.drop_column(column)
