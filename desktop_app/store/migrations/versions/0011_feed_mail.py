"""A feed's mail recipients (issue 25; docs/FEEDS.md "Mail and notices").

- ``feeds.mail_to``: the addresses mailed when one of the feed's imports fails or has failed rows,
  comma-separated; NULL (every feed before) mails nobody.
- ``ix_feed_files_task``: the feed file a task imported, found by its number (the window's notice of a
  feed's import names the feed and the file).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("feeds", sa.Column("mail_to", sa.String(2000), nullable=True))
    op.create_index("ix_feed_files_task", "feed_files", ["task_no"])


def downgrade() -> None:
    op.drop_index("ix_feed_files_task", table_name="feed_files")
    with op.batch_alter_table("feeds") as batch:
        batch.drop_column("mail_to")
