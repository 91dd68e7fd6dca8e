"""Alembic migrations of the BatchDesk schema."""
