"""The rows a merge across columns fails: `merged_cells`, naming the merged cells (readers/merged_cells.py)."""

from __future__ import annotations

from collections.abc import Callable

from desktop_app.domain.errors import ErrorCode
from desktop_app.imports.header import HeaderMapping
from desktop_app.imports.readers import SheetMerges
from desktop_app.imports.validator import RowError


def merged_cell_errors(merges: SheetMerges | None, mapping: HeaderMapping) -> Callable[[int], RowError | None] | None:
    """row number -> the row's `merged_cells` error, for a sheet whose data merges cells across columns the
    import reads (a merge only across columns it ignores changes nothing it imports); None: no row has one."""
    refusals = merges.refusals(frozenset(mapping.index_by_key.values())) if merges is not None else None
    if refusals is None:
        return None
    at = refusals.at

    def error(row: int) -> RowError | None:
        cells = at(row)
        return None if cells is None else RowError(ErrorCode.MERGED_CELLS, None, "", {"cells": cells})

    return error
