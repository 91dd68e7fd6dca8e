"""What the CSV export still does to a column's value texts: a plain value, free of pyarrow.

The export's process builds these and its reader child uses them: the parent of an SQLite export
then never loads pyarrow (~50 MB resident) just to describe its columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class CellSpec:
    """What a column's texts still need here: labels for stored values (the shown texts already
    neutralised), a text starting with a formula trigger neutralised with a leading apostrophe.

    The parent fills it from error_csv: this module imports nothing, so the export's reader
    process starts in a fraction of a second (error_csv brings SQLAlchemy along)."""

    labels: Mapping[str, str] = field(default_factory=dict)
    triggers: tuple[str, ...] = ()
