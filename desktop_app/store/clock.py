"""The database's clock as SQL: heartbeats, staleness and retry times never use the workstation's clock."""

from __future__ import annotations

from sqlalchemy import func, literal_column
from sqlalchemy.sql.elements import ColumnElement


def db_now(dialect: str, offset_seconds: float = 0.0) -> ColumnElement:
    """UTC 'now' (+ offset) evaluated by the database, as a naive timestamp."""
    secs = float(offset_seconds)
    if dialect == "sqlite":
        # %f gives SS.SSS; three zeros make the six fractional digits SQLAlchemy's DateTime reads.
        if secs:
            return func.strftime("%Y-%m-%d %H:%M:%f000", "now", f"{secs:+.3f} seconds")
        return func.strftime("%Y-%m-%d %H:%M:%f000", "now")
    if dialect == "postgresql":
        now = func.timezone("UTC", func.clock_timestamp())
        if secs:
            return now + func.make_interval(0, 0, 0, 0, 0, 0, secs)
        return now
    if dialect in ("mysql", "mariadb"):
        if secs:
            return literal_column(f"(UTC_TIMESTAMP(6) + INTERVAL {int(secs * 1_000_000)} MICROSECOND)")
        return literal_column("UTC_TIMESTAMP(6)")
    raise ValueError(f"unsupported database dialect: {dialect}")
