"""Matching a file's header row to the columns of an import type.

Header texts are compared trimmed, without a BOM, NFKC-folded and case-insensitively against each
column's aliases; column order is free. A header naming no column is ignored and listed in
``HeaderMapping.unknown`` (a warning, never an error); so is a header naming a column an earlier
header already took (the first wins; ``HeaderMapping.taken_by`` says which header fills it). Blank
header cells are ignored silently. A required column that no header names is listed in
``missing_required``; the pipeline then fails the file with ``missing_required_column``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from desktop_app.imports.import_type import ImportType, fold_header

__all__ = ["HeaderMapping", "map_header", "match_score"]


@dataclass(frozen=True)
class HeaderMapping:
    """Where each column of an import type is in the file's rows."""

    index_by_key: Mapping[str, int] = field(hash=False)  # column key -> position in a row
    unknown: tuple[str, ...]  # original texts of the headers that are ignored
    missing_required: tuple[str, ...]  # keys of required columns no header names, in type order
    width: int  # number of cells in the header row
    # position of an ignored header naming a column another header fills -> that header's position
    taken_by: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    # headers naming a column of the type that the mode does not read (delete mode: all but the key's)
    ignored: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when every required column was found."""
        return not self.missing_required

    def keys_only(self, keys: Sequence[str], header: Sequence[str]) -> HeaderMapping:
        """The mapping of a mode that reads the key's columns alone (delete): the other columns' headers
        are listed in ``ignored`` (the summary names them), their cells never checked."""
        kept = {k: i for k, i in self.index_by_key.items() if k in keys}
        ignored = tuple(_header_text(header[i]) for k, i in self.index_by_key.items() if k not in keys)
        return HeaderMapping(index_by_key=MappingProxyType(kept), unknown=self.unknown, missing_required=(),
                             width=self.width, taken_by=self.taken_by, ignored=ignored)  # fmt: skip


def _header_text(cell: object) -> str:
    if cell is None:
        return ""
    return cell if isinstance(cell, str) else str(cell)


def map_header(
    import_type: ImportType,
    header: Sequence[str],
    overrides: Mapping[str, str] | None = None,
) -> HeaderMapping:
    """Map a header row onto the type's columns.

    ``overrides`` maps a header text (compared like an alias) to the column key the clerk chose,
    or to ``""`` to ignore that header; an override wins over the aliases. An override naming no
    column of the type raises ValueError.
    """
    texts = [_header_text(h) for h in header]
    folded = [fold_header(t) for t in texts]
    chosen: dict[str, str] = {}
    if overrides:
        keys = set(import_type.keys)
        for text, key in overrides.items():
            if key and key not in keys:
                raise ValueError(f"override for header {text!r}: {key!r} is not a column of {import_type.name}")
            chosen[fold_header(text)] = key

    index_by_key: dict[str, int] = {}
    unknown: list[tuple[int, str]] = []
    taken_by: dict[int, int] = {}
    overridden = [f in chosen for f in folded]
    # pass 1: the clerk's choices; pass 2: aliases for the other headers
    for pass_overrides in (True, False):
        for i, f in enumerate(folded):
            if overridden[i] is not pass_overrides or not f:
                continue
            key = chosen[f] if pass_overrides else import_type.alias_index.get(f, "")
            if key and key not in index_by_key:
                index_by_key[key] = i
            else:
                unknown.append((i, texts[i]))
                if key:
                    taken_by[i] = index_by_key[key]
    unknown_sorted = tuple(text for _, text in sorted(unknown))
    missing = tuple(c.key for c in import_type.columns if c.required and c.key not in index_by_key)
    ordered = dict(sorted(index_by_key.items(), key=lambda kv: kv[1]))
    return HeaderMapping(
        index_by_key=MappingProxyType(ordered),
        unknown=unknown_sorted,
        missing_required=missing,
        width=len(texts),
        taken_by=MappingProxyType(taken_by),
    )


def match_score(import_type: ImportType, header: Sequence[str]) -> float:
    """Fraction of the type's required columns (all columns if none is required) the header names.

    Used to pre-select the most likely import type for a file; 1.0 means every required column
    is there.
    """
    wanted = import_type.required_keys or import_type.keys
    found = {import_type.alias_index.get(fold_header(_header_text(h))) for h in header}
    return sum(1 for key in wanted if key in found) / len(wanted)
