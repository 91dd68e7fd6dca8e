"""An index on tasks.updated_at: the window polls for tasks changed since its last look.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tasks_updated", "tasks", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_tasks_updated", "tasks")
