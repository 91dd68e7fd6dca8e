"""Mapping profiles kept in the task database, so that a team's desks share them (docs/PROFILES.md).

- ``batchdesk_profiles``: one row per profile name (folded: ``name_key``), its latest version, its import
  type, and whether it was removed (hidden; its versions stay).
- ``batchdesk_profile_versions``: one row per saved version, never changed nor deleted: the profile
  file's tables as JSON text, who saved it and when.

Nothing existing changes: a database at 0008 gains two empty tables.

Revision ID: 0009
Revises: 0008
"""

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

Stamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
NameKey = sa.String(100).with_variant(mysql.VARCHAR(100, collation="utf8mb4_bin"), "mysql", "mariadb")
ProfileText = sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")
UTF8MB4: dict[str, Any] = {"mysql_charset": "utf8mb4", "mysql_collate": "utf8mb4_unicode_ci"}


def upgrade() -> None:
    op.create_table(
        "batchdesk_profiles",
        sa.Column("name_key", NameKey, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("import_type", sa.String(100), nullable=False),
        sa.Column("latest_version", sa.Integer, nullable=False),
        sa.Column("removed_at", Stamp, nullable=True),
        sa.Column("removed_by", sa.String(128), nullable=True),
        sa.Column("updated_at", Stamp, nullable=False),
        **UTF8MB4,
    )
    op.create_table(
        "batchdesk_profile_versions",
        sa.Column("name_key", NameKey, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("import_type", sa.String(100), nullable=False),
        sa.Column("content", ProfileText, nullable=False),
        sa.Column("saved_by", sa.String(128), nullable=False),
        sa.Column("saved_at", Stamp, nullable=False),
        sa.PrimaryKeyConstraint("name_key", "version", name="pk_batchdesk_profile_versions"),
        **UTF8MB4,
    )


def downgrade() -> None:
    op.drop_table("batchdesk_profile_versions")
    op.drop_table("batchdesk_profiles")
