"""How an import type's columns are stored: the TableSpec the store creates and checks tables from."""

from __future__ import annotations

import re

from desktop_app.domain.table_spec import Storage, StoredColumn, TableReference, TableSpec
from desktop_app.domain.values import canonical
from desktop_app.imports.import_type import ColumnSpec, ImportType, Kind
from desktop_app.imports.type_parser import DEFAULT_KEY_LENGTH, decimal_bounds, integer_digits
from desktop_app.imports.validator import empty_value

_STORAGE = {
    Kind.TEXT: Storage.TEXT,
    Kind.REFERENCE: Storage.TEXT,
    Kind.ENUM: Storage.TEXT,
    Kind.INTEGER: Storage.INTEGER,
    Kind.DECIMAL: Storage.DECIMAL,
    Kind.DATE: Storage.DATE,
    Kind.DATETIME: Storage.DATETIME,
    Kind.BOOLEAN: Storage.BOOLEAN,
}


def table_spec(itype: ImportType) -> TableSpec:
    """The table of an import type: its columns in order, then each reference's id column."""
    columns = [stored_column(c, is_key=c.key in itype.unique_keys) for c in itype.columns]
    columns += [
        StoredColumn(c.reference_target, Storage.ID)
        for c in itype.columns
        if c.kind == Kind.REFERENCE and c.reference_target
    ]
    return TableSpec(
        name=itype.table,
        columns=tuple(columns),
        key=itype.unique_keys,
        create=itype.create,
        import_type=itype.name,
        source=str(itype.source_path),
        references=references_of(itype),
    )


def references_of(itype: ImportType) -> tuple[TableReference, ...]:
    """The type's reference columns, as the store resolves them."""
    return tuple(
        TableReference(
            c.key, c.reference_target or f"{c.key}_id", c.reference_table or "", c.reference_column or "", c.allow_add
        )
        for c in itype.columns
        if c.kind == Kind.REFERENCE
    )


def stored_column(spec: ColumnSpec, *, is_key: bool = False) -> StoredColumn:
    storage = _STORAGE[Kind(spec.kind)]
    length = precision = scale = None
    if spec.kind in (Kind.TEXT, Kind.REFERENCE):
        length = text_length(spec)
        if length is None and is_key:
            length = DEFAULT_KEY_LENGTH  # MySQL cannot index TEXT
    elif spec.kind == Kind.ENUM:
        length = max(len(v) for v in spec.enum_map.values())
    elif spec.kind == Kind.DECIMAL:
        scale = spec.decimal_scale or 0
        # the parser fills both bounds; a ColumnSpec made otherwise gets the same ones
        bounds = decimal_bounds(scale, spec.decimal_min, spec.decimal_max)
        precision = max(1, max(integer_digits(b) for b in bounds) + scale)
    default = None
    if spec.default is not None:
        default = canonical(storage, empty_value(spec), scale)  # the parser checked it passes
    return StoredColumn(
        name=spec.key,
        storage=storage,
        length=length,
        precision=precision,
        scale=scale,
        required=spec.required,
        default=default,
        integer_min=spec.integer_min,
        integer_max=spec.integer_max,
    )


def text_length(spec: ColumnSpec) -> int | None:
    """The longest text the column can hold: its max_length, or what its pattern can match."""
    widths = [spec.max_length] if spec.max_length is not None else []
    if spec.pattern is not None:
        widest = pattern_width(spec.pattern)
        if widest is not None:
            widths.append(widest)
    return min(widths) if widths else None


def pattern_width(pattern: str) -> int | None:
    """The most characters a pattern can match (None: no bound), e.g. 7 for ^C\\d{6}$."""
    try:
        parsed = re._parser.parse(pattern, re.ASCII)  # type: ignore[attr-defined]
        widest = int(parsed.getwidth()[1])
    except Exception:  # a private API: without it, no bound is known
        return None
    return widest if widest < 65535 else None
