"""task_files and task_file_chunks: a task's error CSV and change file kept in a shared database (issue 27).

- ``task_files``: one row per task and kind (``errors`` | ``changes``): the file's name, its owner
  (``creator``, as ``tasks.creator``), size, SHA-256, number of chunks and when it was stored.
- ``task_file_chunks``: its content, ~1 MB of zlib-compressed bytes a row (store/task_files.py).

On PostgreSQL already in team mode (the roles exist and ``tasks`` has row-level security), the new tables
get at once what ``admin secure`` would give them (the clerks' grants, row-level security and the owner's
policy), so no window opens in which they are unguarded or unusable; running ``admin secure`` again
gives the same. MariaDB's team mode moves tables into ``<db>_own``: there ``admin secure`` is run again
after this migration (docs/TEAM.md), as for every schema change.

Revision ID: 0013
Revises: 0012
"""

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql, sqlite

from desktop_app.store.dialects import dialect_of

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sqlite.INTEGER(), "sqlite")
Stamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
Chunk = sa.LargeBinary().with_variant(mysql.MEDIUMBLOB(), "mysql", "mariadb")
UTF8MB4: dict[str, Any] = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_unicode_ci"}

# The policy admin secure writes (store/team_sql/postgresql.py), as it reads at this revision.
IS_ADMIN = "(SELECT pg_has_role(current_user, 'batchdesk_admin', 'MEMBER'))"
SECURED = (
    "SELECT to_regrole('batchdesk_clerk') IS NOT NULL AND to_regrole('batchdesk_admin') IS NOT NULL "
    "AND coalesce((SELECT relrowsecurity FROM pg_class WHERE oid = to_regclass('tasks')), false)"
)


def upgrade() -> None:
    op.create_table(
        "task_files",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("task_no", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(400), nullable=False),
        sa.Column("creator", sa.String(128), nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("chunks", sa.Integer, nullable=False),
        sa.Column("stored_at", Stamp, nullable=False),
        sa.UniqueConstraint("task_no", "kind", name="uq_task_files_task_kind"),
        **UTF8MB4,
    )
    op.create_table(
        "task_file_chunks",
        sa.Column("file_id", sa.BigInteger, nullable=False),
        sa.Column("chunk_no", sa.Integer, nullable=False),
        sa.Column("data", Chunk, nullable=False),
        sa.PrimaryKeyConstraint("file_id", "chunk_no", name="pk_task_file_chunks"),
        **UTF8MB4,
    )
    bind = op.get_bind()
    if dialect_of(bind).row_security and bind.execute(sa.text(SECURED)).scalar():
        _secure_postgresql()


def _secure_postgresql() -> None:
    mine = {
        "task_files": "creator = current_user",
        "task_file_chunks": "EXISTS (SELECT 1 FROM task_files f WHERE f.id = task_file_chunks.file_id)",
    }
    op.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON task_files, task_file_chunks TO batchdesk_clerk")
    op.execute(
        "DO $$ DECLARE seq text := pg_get_serial_sequence('task_files', 'id'); BEGIN "
        "IF seq IS NOT NULL THEN EXECUTE format('GRANT USAGE, SELECT ON SEQUENCE %s TO batchdesk_clerk', seq); "
        "END IF; END $$"
    )
    for table, rule in mine.items():
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        op.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        op.execute(
            f"CREATE POLICY batchdesk_owner ON {table} USING ({rule} OR {IS_ADMIN}) "
            f"WITH CHECK ({rule} OR {IS_ADMIN})"
        )


def downgrade() -> None:
    op.drop_table("task_file_chunks")
    op.drop_table("task_files")
