"""What a mapping profile adds to a file's cells: constants for columns the file lacks, value mappings.

Both act in the row validator (validator.py), so every path that checks rows -- the row path, the bulk
path's rows it is not sure of, the preview -- applies them alike; the bulk path applies the same
:class:`ValueMap` to its columns (bulk/batching.py) and so loads the same values.

A value mapping replaces a cell's value before the column's checks see it: the cell's text normalised
as the column's ``normalize`` says and case-folded (:func:`import_type.fold_value`, how an enum input
is matched), looked up among the mapping's inputs folded the same way. The error CSV still shows the
file's own cells: only the checks see the replaced value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from desktop_app.imports.import_type import ColumnSpec, fold_value
from desktop_app.imports.readers.cells import Cell, cell_to_text

MEMO_SIZE: Final = 1 << 16
"""Distinct texts of a column whose look-up is remembered (a column of few values, as mapped ones are, is
folded once per value; beyond this many, each further text is folded again every time)."""
_MISS: Final = object()


@dataclass(frozen=True)
class ColumnFills:
    """A profile's constants (column key -> its text in every row, for a column no header fills) and
    value mappings (column key -> {input: replacement}), as the profile wrote them."""

    constants: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    values: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: MappingProxyType({}))

    def __bool__(self) -> bool:
        return bool(self.constants or self.values)


def fold_input(text: str, spec: ColumnSpec) -> str:
    """How a value mapping's input and a cell's text compare, for this column."""
    return fold_value(text, spec.normalize)


class ValueMap:
    """One column's value mapping, compiled: a cell in, the cell (unchanged) or its replacement out."""

    __slots__ = ("_memo", "_table", "normalize", "outputs", "spec")

    def __init__(self, spec: ColumnSpec, mapping: Mapping[str, str]) -> None:
        self.spec = spec
        self.normalize = spec.normalize
        self._table = {fold_input(k, spec): v for k, v in mapping.items()}
        self._memo: dict[str, str | None] = {}
        # a text cell -> the cell the checks see (its replacement, or itself), for the texts looked up so far:
        # the row validator's generated check reads it first, one dict look-up a cell (validator.py)
        self.outputs: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._table)

    def lookup(self, text: str) -> str | None:
        """The replacement of a cell's text, or None."""
        found = self._memo.get(text, _MISS)
        if found is _MISS:
            found = self._table.get(fold_value(text, self.normalize))
            if len(self._memo) < MEMO_SIZE:
                self._memo[text] = found
                self.outputs[text] = text if found is None else found
        return found  # type: ignore[return-value]

    def __call__(self, cell: Cell) -> Cell:
        """The cell the column's checks see: its replacement, or the cell as it was."""
        if cell.__class__ is str:
            found = self.lookup(cell)
        elif cell is None:
            return None
        else:  # an Excel cell: as the column reads it, its text (validator's prepare)
            found = self._table.get(fold_value(cell_to_text(cell), self.normalize))
        return cell if found is None else found
